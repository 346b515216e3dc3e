"""The registry commands as a user runs them: output, --json, exit codes, help; against each
registry backend (a directory, an OCI registry with and without basic auth)."""

from __future__ import annotations

import json

import pytest

from opkg.registry.publish import publish_bundles


@pytest.fixture
def published(bundles, backend):
    publish_bundles(backend.open(), [bundles(version="1.0.0", subdir="a"),
                                     bundles(version="1.0.0", soc="Ascend310P3", subdir="a")])
    publish_bundles(backend.open(), [bundles(version="1.1.0", subdir="b")])
    publish_bundles(backend.open(), [bundles(name="layernorm",
                                             summary="LayerNorm over the last axis")])
    return backend.location


def test_publish_cli_and_republish(bundles, backend, run_opkg):
    registry = backend.location
    b = bundles()
    code, out, err = run_opkg("publish", "--bundle", b, "--registry", registry)
    assert code == 0, err
    assert out.startswith("published add_custom 1.0.0\n  Ascend910B1/sim  ")
    assert "cases passed: float16 3/3, float32 3/3" in out
    code, out, err = run_opkg("publish", "--bundle", b, "--registry", registry)
    assert code == 0 and "unchanged add_custom 1.0.0" in out
    code, out, err = run_opkg("publish", "--bundle", bundles(payload=b"new", subdir="x"),
                              "--registry", registry)
    assert code == 1
    assert "error: add_custom 1.0.0 is already published with different contents" in err
    assert "hint: bump 'version'" in err


def test_publish_refuses_failed_verification(bundles, backend, run_opkg):
    registry = backend.location
    code, out, err = run_opkg("publish", "--bundle", bundles(failed_case="rows_odd"),
                              "--registry", registry)
    assert code == 1
    assert "refusing to publish" in err and "rows_odd" in err
    assert backend.untouched()


def test_publish_dry_run_json(bundles, backend, run_opkg):
    registry = backend.location
    code, out, err = run_opkg("publish", "--bundle", bundles(), "--registry", registry,
                              "--dry-run", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["dry_run"] and data["versions"][0]["status"] == "would-publish"
    assert backend.untouched()


def test_search(published, run_opkg):
    code, out, _ = run_opkg("search", "--registry", published)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["add_custom", "1.1.0"]
    assert lines[1].split()[:2] == ["layernorm", "1.0.0"] and "LayerNorm" in lines[1]
    code, out, _ = run_opkg("search", "NORM", "--registry", published)
    assert "layernorm" in out and "add_custom" not in out
    code, out, _ = run_opkg("search", "zzz", "--registry", published)
    assert code == 0 and "no packages match 'zzz'" in out
    code, out, _ = run_opkg("search", "add", "--json", "--registry", published)
    [row] = json.loads(out)["results"]
    assert row["latest"] == "1.1.0"
    assert [v["version"] for v in row["versions"]] == ["1.0.0", "1.1.0"]


def test_info(published, run_opkg):
    code, out, err = run_opkg("info", "add_custom==1.0.0", "--registry", published)
    assert code == 0, err
    assert out.startswith("add_custom 1.0.0\n")
    assert "op:        AddCustom(x:float32|float16, y:float32|float16) -> z:float32|float16" in out
    assert "Ascend310P3  sim 0.1.0" in out and "Ascend910B1  sim 0.1.0" in out
    assert "float16    3/3 passed  max abs 1e-06  max rel 2e-05  mismatch 0" in out
    assert "git abc123def456" in out
    code, out, _ = run_opkg("info", "add_custom", "--registry", published)
    assert out.startswith("add_custom 1.1.0")
    code, out, _ = run_opkg("info", "add_custom", "--json", "--registry", published)
    data = json.loads(out)
    assert data["record"]["version"] == "1.1.0" and data["yanked"] is False
    code, out, err = run_opkg("info", "add_custm", "--registry", published)
    assert code == 1 and "did you mean 'add_custom'?" in err
    code, out, err = run_opkg("info", "add_custom==9", "--registry", published)
    assert code == 1 and "published: 1.0.0, 1.1.0" in err


def test_yank_unyank(published, backend, run_opkg, tmp_path):
    code, out, err = run_opkg("yank", "add_custom==1.1.0", "--reason", "bad tail handling",
                              "--registry", published)
    assert code == 0 and out.splitlines()[0] == "yanked add_custom 1.1.0: bad tail handling"
    code, out, _ = run_opkg("yank", "add_custom==1.1.0", "--reason", "bad tail handling",
                            "--registry", published)
    assert "already yanked" in out
    code, out, _ = run_opkg("info", "add_custom==1.1.0", "--registry", published)
    assert "YANKED: bad tail handling" in out.splitlines()[0]
    # latest now skips the yanked version
    code, out, _ = run_opkg("search", "add", "--json", "--registry", published)
    assert json.loads(out)["results"][0]["latest"] == "1.0.0"
    if backend.kind == "dir":   # the index keeps a copy of the flag for static readers
        index = json.loads((published / "index.json").read_text())
        assert index["packages"]["add_custom"]["versions"]["1.1.0"]["yanked"] is True
    code, out, err = run_opkg("install", "add_custom==1.1.0", "--soc", "Ascend910B1",
                              "--dest", tmp_path / "ops", "--registry", published)
    assert code == 0 and "warning: add_custom 1.1.0 is yanked: bad tail handling" in err
    assert "warning: add_custom 1.1.0 (Ascend910B1/sim) is a sim bundle" in err
    code, out, _ = run_opkg("unyank", "add_custom==1.1.0", "--registry", published)
    assert code == 0 and out.strip() == "unyanked add_custom 1.1.0"
    code, out, _ = run_opkg("info", "add_custom", "--registry", published)
    assert out.startswith("add_custom 1.1.0\n")


@pytest.mark.parametrize("args,code,msg", [
    (["yank", "add_custom", "--reason", "x"], 2, "expected NAME==VERSION"),
    (["yank", "add_custom==1.0.0"], 2, "Missing option '--reason'"),
    (["yank", "add_custom==7.0", "--reason", "x"], 1, "add_custom has no version 7.0"),
    (["yank", "nope==1.0", "--reason", "x"], 1, "no package 'nope'"),
    (["yank", "add_custom==1.0.0", "--reason", " "], 2, "a yank needs a reason"),
    (["install", "add_custom>>1", "--soc", "Ascend910B1", "--dest", "d"], 2,
     "unknown version spec"),
    (["install", "add_custom", "--dest", "d"], 2, "Missing option '--soc'"),
])
def test_usage_errors(published, run_opkg, args, code, msg):
    got, out, err = run_opkg(*args, "--registry", published)
    assert got == code, (out, err)
    assert msg in err and "Traceback" not in err


def test_install_cli_and_registry_check(published, backend, run_opkg, tmp_path):
    dest = tmp_path / "ops"
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest,
                              "--registry", published)
    assert code == 0, err
    assert out.strip() == (f"installed add_custom 1.1.0 (Ascend910B1/sim) into {dest}: 7 file(s)")
    code, out, _ = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest,
                            "--registry", published, "--json")
    assert json.loads(out)["status"] == "unchanged"
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert code == 0 and out.strip().endswith("ok")
    record = backend.open().read_record("add_custom", "1.1.0")
    backend.damage_blob(record["bundles"][0]["blob"], b"tampered")
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest",
                              tmp_path / "elsewhere", "--registry", published)
    assert code == 1 and "does not match its published digest" in err, err
    assert not (tmp_path / "elsewhere" / "add_custom").exists()
    code, out, err = run_opkg("registry", "check", "--registry", published, "--json")
    assert code == 1 and json.loads(out)["ok"] is False
    code, out, err = run_opkg("registry", "check", "--registry", published)
    assert code == 1 and "error: " in err and "problem(s)" in err


def test_registry_location_from_env_and_workspace(published, run_opkg, tmp_path, monkeypatch):
    monkeypatch.setenv("OPKG_REGISTRY", str(published))
    code, out, _ = run_opkg("search")
    assert code == 0 and "add_custom" in out
    monkeypatch.delenv("OPKG_REGISTRY")
    code, out, err = run_opkg("search")  # tmp_path is no workspace
    assert code == 2 and "not inside an opkg workspace" in err and "--registry" in err
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "opkg-workspace.yaml").write_text(f"registry: {published}\n")
    monkeypatch.chdir(ws)
    code, out, err = run_opkg("search")
    assert code == 0 and "layernorm" in out, err


def test_missing_registry(run_opkg, tmp_path):
    code, out, err = run_opkg("search", "--registry", tmp_path / "nowhere")
    assert code == 1 and "no registry at" in err


@pytest.mark.parametrize("cmd", [["publish"], ["search"], ["info"], ["install"], ["yank"],
                                 ["unyank"], ["registry"], ["registry", "check"]])
def test_help_has_examples(run_opkg, cmd):
    code, out, _ = run_opkg(*cmd, "--help")
    assert code == 0 and "Examples:" in out
