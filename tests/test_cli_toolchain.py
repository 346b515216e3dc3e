"""`opkg toolchain list|check` and `opkg lock` end to end on stand-in CANN installs."""

import json

import pytest

from cann_standin import make_driver, make_toolkit, make_workspace, use_stand_in_roots
from opkg.cli import main


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def env(tmp_path, monkeypatch):
    ascend = tmp_path / "Ascend"
    ascend.mkdir()
    use_stand_in_roots(monkeypatch, ascend)
    return ascend


def ws(tmp_path, monkeypatch, **kw):
    root = make_workspace(tmp_path / "ws", **kw)
    monkeypatch.chdir(root)
    return root


def test_check_aligned_exits_0(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC3")
    make_toolkit(env, "8.1.RC1")
    make_driver(env, "24.1.rc2")
    ws(tmp_path, monkeypatch)
    code, out, err = run(capsys, "toolchain", "check")
    assert code == 0, err
    assert "//packages/layernorm  Ascend910B1  cann>=8.0.RC2,<8.3, driver>=24.1.rc2  " \
           "cann-8.1.RC1  24.1.rc2  ok" in out
    assert "Ascend310P3" in out


def test_check_cann_too_old(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC2")
    ws(tmp_path, monkeypatch, pins={"layernorm": '{cann: ">=8.1.RC1"}'})
    code, out, err = run(capsys, "toolchain", "check", "packages/layernorm")
    assert code == 3
    assert (f"packages/layernorm pins cann>=8.1.RC1 (for Ascend910B1); installed: 8.0.RC2 at "
            f"{env}/ascend-toolkit/8.0.RC2; install 8.1.RC1 or relax the pin") in err
    assert "Ascend310P3" in err and "FAIL (cann_pin)" in out


def test_check_cann_too_new(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.2.RC1")
    ws(tmp_path, monkeypatch, pins={"layernorm": '{cann: "<8.2"}'})
    code, _, err = run(capsys, "toolchain", "check")
    assert code == 3 and "pins cann<8.2 (for Ascend910B1); installed: 8.2.RC1" in err


def test_check_driver_too_old_for_release(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.2.RC1")
    make_driver(env, "24.1.rc2")
    ws(tmp_path, monkeypatch, pins={"layernorm": '{cann: ">=8.2.RC1"}'})
    code, _, err = run(capsys, "toolchain", "check", "--soc", "Ascend910B1")
    assert code == 3
    assert ("CANN 8.2.RC1 needs driver>=25.0.rc1 for ascend910b; found 24.1.rc2 at "
            f"{env}/driver/version.info (packages/layernorm, Ascend910B1)") in err
    assert "upgrade the driver" in err


def test_check_soc_unsupported(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC3", socs=("Ascend910B1",))
    ws(tmp_path, monkeypatch)
    code, _, err = run(capsys, "toolchain", "check")
    assert code == 3
    assert "packages/layernorm (Ascend310P3): no installed CANN inside the pin supports " \
           "Ascend310P3" in err
    assert "no platform_config/Ascend310P3.ini" in err


def test_check_no_toolchain_at_all(tmp_path, monkeypatch, capsys, env):
    ws(tmp_path, monkeypatch)
    code, out, _ = run(capsys, "toolchain", "check")
    # Without --toolchain, nothing installed means the sim builds it, and the output says so.
    assert code == 0 and out.count("sim: no CANN toolkit installed") == 1   # one note for all
    code, out, err = run(capsys, "toolchain", "check", "--toolchain", "cann")
    assert code == 3
    assert "cann>=8.0.RC2,<8.3, driver>=24.1.rc2  -          -       FAIL (not_installed)" in out
    assert ("packages/layernorm (Ascend910B1): --toolchain asks for cann but no CANN toolkit is "
            "installed") in err
    assert "required: cann>=8.0.RC2,<8.3" in err


def test_build_host_without_driver_is_said_plainly(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC3")
    ws(tmp_path, monkeypatch)
    code, out, _ = run(capsys, "toolchain", "check")
    assert code == 0
    assert "no driver on this host (a build host): driver>=24.1.rc2 (pin), " \
           "driver>=24.1.rc2 (CANN 8.0.RC3 on ascend910b) checked where the bundle is " \
           "installed or run (--for-run)" in out
    code, _, err = run(capsys, "toolchain", "check", "--for-run")
    assert code == 3 and "no NPU driver found" in err


def test_for_run_fails_without_a_driver_even_when_the_sim_builds(tmp_path, monkeypatch, capsys,
                                                                    env):
    """A machine with no CANN and no driver builds with the sim; --for-run asks whether the
    targets can run on an NPU here, and they cannot: exit 3, as the docs say."""
    ws(tmp_path, monkeypatch)
    code, out, _ = run(capsys, "toolchain", "check")
    assert code == 0
    code, out, err = run(capsys, "toolchain", "check", "--for-run")
    assert code == 3
    assert "FAIL (sim_no_device)" in out
    assert "packages/layernorm (Ascend910B1): no NPU driver found" in err
    assert "required: driver>=24.1.rc2 (pin)" in err
    assert "a sim bundle holds no device binary" in err
    code, out, _ = run(capsys, "toolchain", "check", "--for-run", "--json")
    kinds = {(p["package"], p["soc"], p["kind"]) for p in json.loads(out)["problems"]}
    assert ("//packages/layernorm", "Ascend910B1", "no_driver") in kinds
    assert ("//packages/layernorm", "Ascend910B1", "sim_no_device") in kinds
    # with a driver, a sim build still holds nothing the NPU runs
    make_driver(env, "24.1.rc2")
    code, _, err = run(capsys, "toolchain", "check", "--for-run")
    assert code == 3 and "no device binary" in err and "no NPU driver" not in err


def test_check_json(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC2")
    ws(tmp_path, monkeypatch, pins={"layernorm": '{cann: ">=8.1.RC1"}'})
    code, out, _ = run(capsys, "toolchain", "check", "--json")
    data = json.loads(out)
    assert code == 3 and {p["kind"] for p in data["problems"]} == {"cann_pin"}
    assert data["installation"]["toolkits"][0]["version"] == "8.0.RC2"


def test_workspace_default_toolchain_is_the_request(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC3")
    ws(tmp_path, monkeypatch, default_toolchain="sim")
    code, out, _ = run(capsys, "toolchain", "check")
    assert code == 0
    assert "sim: requested by default_toolchain in opkg-workspace.yaml" in out
    rows = out.split("\n\n")[0].splitlines()[1:]
    assert len(rows) == 2 and all("  sim  " in r for r in rows)
    code, out, _ = run(capsys, "toolchain", "check", "--toolchain", "cann")
    assert code == 0 and "cann-8.0.RC3: highest installed inside" in out


def test_list(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC2")
    make_toolkit(env, "8.5.0", layout="cann", tools=False)
    make_driver(env, "24.1.rc2")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "toolchain", "list")
    assert code == 0
    assert f"cann-8.0.RC2  8.0.RC2  {env}/ascend-toolkit/8.0.RC2" in out
    assert "msopgen MISSING, bisheng MISSING, op_build MISSING" in out
    assert f"driver: 24.1.rc2 at {env}/driver/version.info" in out
    assert "8.0.RC2*" in out and "8.5.0*" in out and "8.1.RC1," in out
    code, out, _ = run(capsys, "toolchain", "list", "--json")
    assert [t["id"] for t in json.loads(out)["toolkits"]] == ["cann-8.0.RC2", "cann-8.5.0"]


def test_list_without_anything(tmp_path, monkeypatch, capsys, env):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "toolchain", "list")
    assert code == 0 and "no CANN toolkit found" in out and "driver: none found" in out


def test_workspace_pins_apply_to_every_package(tmp_path, monkeypatch, capsys, env):
    make_toolkit(env, "8.0.RC3")
    make_toolkit(env, "8.1.RC1")
    root = ws(tmp_path, monkeypatch)
    (root / "toolchains").mkdir()
    (root / "toolchains" / "pins.yaml").write_text('cann: "<8.1"\n')
    code, out, _ = run(capsys, "toolchain", "check")
    assert code == 0 and "cann-8.0.RC3" in out and "cann-8.1.RC1" not in out.split("\n\n")[0]
    (root / "toolchains" / "pins.yaml").write_text('cann: ">=8.2.RC1"\n')
    code, _, err = run(capsys, "toolchain", "check", "--soc", "Ascend910B1")
    assert code == 3
    assert ("packages/layernorm pins cann>=8.0.RC2,<8.3,>=8.2.RC1 (with toolchains/pins.yaml) "
            "(for Ascend910B1); installed: 8.0.RC3 at") in err


@pytest.mark.parametrize("text, needle", [
    ('cann: ">=8.0.rc3"\n', "did you mean '8.0.RC3'?"),
    ('kann: ">=8.0.RC3"\n', "unknown key 'kann'"),
    ('- 8.0.RC3\n', "must be a mapping"),
])
def test_bad_workspace_pins(tmp_path, monkeypatch, capsys, env, text, needle):
    root = ws(tmp_path, monkeypatch)
    (root / "toolchains").mkdir()
    (root / "toolchains" / "pins.yaml").write_text(text)
    code, _, err = run(capsys, "toolchain", "check")
    assert code == 2 and needle in err and "pins.yaml" in err


def test_check_and_build_exit_3_without_the_sims_compiler(tmp_path, monkeypatch, env):
    """No g++ on PATH: `toolchain check` fails as the build would, both with exit 3 and the
    same message, naming each (package, SoC) left unbuildable in the table."""
    import os
    import subprocess
    import sys

    root = ws(tmp_path, monkeypatch)
    bare = tmp_path / "bin-without-gxx"
    bare.mkdir()
    environ = {k: v for k, v in os.environ.items() if k != "CXX"}
    environ["PATH"] = str(bare)

    def opkg(*argv):
        return subprocess.run([sys.executable, "-m", "opkg", *argv], cwd=root, env=environ,
                              capture_output=True, text=True)

    check = opkg("toolchain", "check")
    assert check.returncode == 3, check.stderr
    assert "error: C++ compiler 'g++' not found on PATH" in check.stderr
    assert "apt-get install g++" in check.stderr
    assert check.stderr.count("not found on PATH") == 1      # once, not once per target
    assert "Ascend910B1" in check.stdout and "FAIL (no_compiler)" in check.stdout
    as_json = json.loads(opkg("toolchain", "check", "--json").stdout)
    assert {p["kind"] for p in as_json["problems"]} == {"no_compiler"}
    build = opkg("build", "packages/layernorm")
    assert build.returncode == 3
    assert "error: C++ compiler 'g++' not found on PATH" in build.stderr


@pytest.mark.parametrize("pins, possible", [
    ('{cann: ">=8.0.RC1", driver: "<24.0"}', False),    # every 8.x needs 24.1.rc1 or later
    ('{cann: "<8.0", driver: "<23.0.3"}', False),       # 7.0.0 on 910B needs 23.0.3
    ('{driver: "<23"}', False),                         # no CANN pin: every known release
    ('{cann: ">=8.0.RC1", driver: ">=23.0"}', True),
    ('{cann: "<8.0", driver: "<24.0"}', True),          # 7.0.0 with driver 23.0.3 .. 24.0
    ('{cann: ">=10.0", driver: "<20"}', True),          # no known release inside: not judged
])
def test_a_driver_pin_no_cann_release_inside_the_cann_pin_runs_with_is_an_error(
        tmp_path, monkeypatch, capsys, env, pins, possible):
    ws(tmp_path, monkeypatch, pins={"layernorm": pins})
    code, out, err = run(capsys, "query", "packages")
    if possible:
        assert code == 0, err
        return
    assert code == 2
    line = next(i for i, l in enumerate(
        (tmp_path / "ws/packages/layernorm/opkg.yaml").read_text().splitlines(), 1)
        if l.startswith("toolchain:"))
    assert f"packages/layernorm/opkg.yaml:{line}:" in err and "error: toolchain.driver:" in err
    assert "admits no driver that the CANN releases" in err and "the oldest, " in err
    assert "hint: raise the driver pin" in err
