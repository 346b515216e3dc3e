"""End to end with the real example package and the real build: build -> publish -> search ->
info -> install -> yank -> install refuses unless pinned -> republish identical (no-op) ->
republish changed (refused) -> a broken kernel is refused with its failing cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="the sim toolchain needs g++")


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "opkg-workspace.yaml").write_text(
        "package_roots: [packages]\ndefault_toolchain: sim\n")
    shutil.copytree(REPO / "packages" / "add_custom", ws / "packages" / "add_custom")
    if (REPO / "toolchains").is_dir():
        shutil.copytree(REPO / "toolchains", ws / "toolchains")
    if (REPO / "SConstruct").is_file():
        shutil.copy(REPO / "SConstruct", ws / "SConstruct")
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPKG_REGISTRY", raising=False)
    return ws


def test_build_publish_search_info_install_yank(workspace, run_opkg, monkeypatch, tmp_path):
    monkeypatch.chdir(workspace)
    registry = workspace / "registry"
    code, out, err = run_opkg("publish", "//packages/add_custom", "--soc", "Ascend910B1",
                              "--json")
    assert code == 0, err
    [v] = json.loads(out)["versions"]
    assert (v["name"], v["version"], v["status"]) == ("add_custom", "1.0.0", "published")
    assert [(b["soc"], b["toolchain"]) for b in v["bundles"]] == [("Ascend910B1", "sim")]
    assert registry.is_dir()  # the workspace default

    code, out, err = run_opkg("search", "add")
    assert code == 0 and out.startswith("add_custom  1.0.0  [Ascend910B1; sim]"), out

    code, out, err = run_opkg("info", "add_custom", "--json")
    assert code == 0, err
    record = json.loads(out)["record"]
    [bundle] = record["bundles"]
    assert sorted(x["name"] for x in bundle["variants"]) == ["float16", "float32"]
    for variant in bundle["variants"]:
        assert variant["verification"]["cases"] == variant["verification"]["passed"] == 3
        assert variant["report"].startswith("sha256:")
    assert bundle["verification"]["passed"] is True
    assert bundle["provenance"]["source_digest"].startswith("sha256:")

    dest = tmp_path / "ops"
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest)
    assert code == 0, err
    assert out.startswith("installed add_custom 1.0.0 (Ascend910B1/sim)")
    assert (dest / "add_custom" / "opkg-bundle.json").is_file()
    assert list((dest / "add_custom").rglob("*.so")), "the sim libraries are installed"
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest)
    assert code == 0 and "already installed" in out

    code, out, err = run_opkg("yank", "add_custom==1.0.0", "--reason", "testing yank")
    assert code == 0, err
    assert out.splitlines() == [
        "yanked add_custom 1.0.0: testing yank",
        "  installs skip it; `opkg install add_custom==1.0.0` still installs it, "
        "with a warning; undo: opkg unyank add_custom==1.0.0"]
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest",
                              tmp_path / "ops2")
    assert code == 1 and "error: add_custom: every published version is yanked (1.0.0)" in err
    code, out, err = run_opkg("install", "add_custom==1.0.0", "--soc", "Ascend910B1",
                              "--dest", tmp_path / "ops2")
    assert code == 0 and "warning: add_custom 1.0.0 is yanked: testing yank" in err

    # Rebuilding the same sources gives the same bytes: republishing is a no-op.
    shutil.rmtree(workspace / "out")
    code, out, err = run_opkg("publish", "//packages/add_custom", "--soc", "Ascend910B1")
    assert code == 0, err
    assert "unchanged add_custom 1.0.0: already published with these bundles" in out

    # Changed sources under the same version: refused.
    kernel = workspace / "packages" / "add_custom" / "op_kernel" / "add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\n// a comment changes the source digest\n")
    code, out, err = run_opkg("publish", "//packages/add_custom", "--soc", "Ascend910B1")
    assert code == 1
    assert "add_custom 1.0.0 is already published with different contents" in err
    assert "bump 'version'" in err

    code, out, err = run_opkg("registry", "check")
    assert code == 0, out + err


def test_broken_kernel_is_refused_listing_failing_cases(workspace, run_opkg, monkeypatch):
    monkeypatch.chdir(workspace)
    kernel = workspace / "packages" / "add_custom" / "op_kernel" / "add_custom.cpp"
    text = kernel.read_text()
    assert "Add(zLocal" in text
    kernel.write_text(text.replace("Add(zLocal", "Sub(zLocal", 1))
    code, out, err = run_opkg("publish", "//packages/add_custom", "--soc", "Ascend910B1")
    assert code == 1
    assert "refusing to publish: verification did not pass" in err
    assert "variant float32" in err and "even" in err
    assert not (workspace / "registry" / "records").exists()


def test_cann_bundle_publish_and_install_with_stand_in_tools(tmp_path, monkeypatch, run_opkg):
    """A CANN build (stand-in msopgen/bisheng) is published and installed in the layout
    ASCEND_CUSTOM_OPP_PATH expects, only where the local CANN and driver can run it."""
    from registry_testlib import cann_standin

    s = cann_standin()
    ascend = tmp_path / "Ascend"
    s.use_stand_in_roots(monkeypatch, ascend)
    s.install_stand_in_tools(s.make_toolkit(ascend, "8.0.RC2"))
    monkeypatch.setenv("OPKG_CANN_CXX", str(s.make_host_cxx(tmp_path / "bin" / "host-g++")))
    monkeypatch.setenv("OPKG_STANDIN_LOG", str(tmp_path / "tools.log"))
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OPKG_REGISTRY", raising=False)
    root = s.make_workspace(tmp_path / "ws", packages=("add_custom",))
    monkeypatch.chdir(root)

    code, out, err = run_opkg("publish", "packages/add_custom", "--soc", "Ascend910B1",
                              "--toolchain", "cann-8.0.RC2")
    assert code == 0, out + err
    assert "Ascend910B1/cann-8.0.RC2" in out

    dest = tmp_path / "opp"
    # A build host: toolkit, no driver. The install refuses (exit 3) and writes nothing.
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest)
    assert code == 3 and "no NPU driver found" in err
    assert not (dest / "vendors").exists()

    s.make_driver(ascend, "24.1.rc2")
    code, out, err = run_opkg("install", "add_custom", "--soc", "Ascend910B1", "--dest", dest)
    assert code == 0, err
    vendor = dest / "vendors" / "add_custom"
    assert (vendor / "version.info").read_text() == "custom_opp_compiler_version=8.0.RC2\n"
    assert list((vendor / "op_impl" / "ai_core" / "tbe" / "kernel").rglob("*.o"))
    assert (dest / "add_custom" / "opkg-bundle.json").is_file()
    assert f"export ASCEND_CUSTOM_OPP_PATH={vendor.resolve()}:${{ASCEND_CUSTOM_OPP_PATH}}" in out
