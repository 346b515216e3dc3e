"""Discovery of CANN toolkits and the driver on stand-in install trees."""

from pathlib import Path

from cann_standin import ARCH, isolated_env, make_driver, make_toolkit
from opkg.toolchains.discovery import ascend_roots, discover


def test_side_by_side_toolkits_and_latest(tmp_path):
    make_toolkit(tmp_path, "8.0.RC2")
    make_toolkit(tmp_path, "8.1.RC1", latest=True)
    inst = discover(env=isolated_env(tmp_path))
    ids = [t.id for t in inst.toolkits]
    # latest is seen first and names the 8.1.RC1 toolkit; its real dir is not listed twice
    assert ids == ["cann-8.1.RC1", "cann-8.0.RC2"]
    assert inst.toolkits[0].found_via.endswith("ascend-toolkit/latest")
    assert inst.driver is None


def test_cann_85_layout_and_tools(tmp_path):
    home = make_toolkit(tmp_path, "8.5.0", layout="cann", latest=True)
    make_toolkit(tmp_path, "9.0.0-beta.1", layout="cann")
    inst = discover(env=isolated_env(tmp_path))
    assert [str(t.version) for t in inst.toolkits] == ["8.5.0", "9.0.0-beta.1"]
    tk = inst.toolkits[0]
    assert tk.root == tmp_path / "cann"
    assert tk.tool("bisheng") == tmp_path / "cann/compiler/ccec_compiler/bin/bisheng"
    assert tk.tool("msopgen").name == "msopgen"
    assert tk.version_file.name == "ascend_toolkit_install.info"
    assert home.is_dir()


def test_env_vars_come_first(tmp_path):
    other = tmp_path / "elsewhere"
    tk = make_toolkit(other, "8.0.0")
    make_toolkit(tmp_path / "std", "8.0.RC3")
    inst = discover(env=isolated_env(tmp_path / "std", ASCEND_HOME_PATH=tk))
    assert [(t.id, t.found_via) for t in inst.toolkits] == [
        ("cann-8.0.0", "$ASCEND_HOME_PATH"),
        ("cann-8.0.RC3", str(tmp_path / "std/ascend-toolkit/8.0.RC3"))]


def test_env_var_pointing_nowhere_is_a_warning(tmp_path):
    inst = discover(env=isolated_env(tmp_path, ASCEND_TOOLKIT_HOME=tmp_path / "missing"))
    assert inst.toolkits == ()
    assert any("ASCEND_TOOLKIT_HOME" in w and "not a directory" in w for w in inst.warnings)


def test_platform_config_lists_supported_socs(tmp_path):
    make_toolkit(tmp_path, "8.0.RC2", socs=("Ascend910B1",))
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    assert tk.supports_soc("Ascend910B1") is True
    assert tk.supports_soc("Ascend310P3") is False
    make_toolkit(tmp_path / "b", "8.0.RC2", socs=None)
    assert discover(env=isolated_env(tmp_path / "b")).toolkits[0].supports_soc("Ascend910B1") is None


def test_version_cfg_fallback(tmp_path):
    home = tmp_path / "ascend-toolkit" / "7.0.T10"
    home.mkdir(parents=True)
    (home / "version.cfg").write_text("# version: 1.0\ntoolkit_running_version=[7.0.T10:7.0.T10]\n")
    (tmp_path / "ascend-toolkit" / "set_env.sh").write_text("# not a toolkit\n")
    inst = discover(env=isolated_env(tmp_path))
    assert [t.id for t in inst.toolkits] == ["cann-7.0.T10"]
    assert inst.toolkits[0].version_file.name == "version.cfg"


def test_malformed_version_is_reported_not_fatal(tmp_path):
    home = make_toolkit(tmp_path, "8.0.RC2")
    (home / ARCH / "ascend_toolkit_install.info").write_text("version=8.0.rc2\n")
    make_toolkit(tmp_path, "8.1.RC1")
    inst = discover(env=isolated_env(tmp_path))
    assert [t.id for t in inst.toolkits] == ["cann-8.1.RC1"]
    assert any("malformed CANN version '8.0.rc2'" in w for w in inst.warnings)


def test_driver_from_root_and_from_install_info(tmp_path):
    make_driver(tmp_path, "24.1.rc2")
    inst = discover(env=isolated_env(tmp_path))
    assert str(inst.driver.version) == "24.1.rc2"
    other = tmp_path / "drv"
    make_driver(other, "25.0.rc1.1")
    info = tmp_path / "ascend_install.info"
    info.write_text(f"Driver_Install_Path_Param={other}\nFirmware_Install_Path_Param={other}\n")
    inst = discover(env=isolated_env(tmp_path, OPKG_ASCEND_INSTALL_INFO=info))
    assert str(inst.driver.version) == "25.0.rc1.1" and inst.driver.found_via == str(info)


def test_bad_driver_file_is_a_warning(tmp_path):
    (tmp_path / "driver").mkdir()
    (tmp_path / "driver" / "version.info").write_text("Version=banana\n")
    inst = discover(env=isolated_env(tmp_path))
    assert inst.driver is None and any("banana" in w for w in inst.warnings)


def test_roots_default_and_override(tmp_path):
    assert ascend_roots({"HOME": "/home/u"}) == [Path("/usr/local/Ascend"), Path("/home/u/Ascend")]
    assert ascend_roots({"OPKG_ASCEND_ROOTS": f"/a:/b"}) == [Path("/a"), Path("/b")]
    assert ascend_roots({}, roots=[tmp_path]) == [tmp_path]


def test_fingerprint_changes_with_compiler_bytes(tmp_path):
    home = make_toolkit(tmp_path, "8.0.RC2")
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    before = tk.fingerprint()
    assert before == tk.fingerprint() and before.startswith("sha256:")
    (home / "compiler/ccec_compiler/bin/bisheng").write_text("#!/bin/sh\n# patched\n")
    assert tk.fingerprint() != before


def test_version_cfg_as_cann_writes_it(tmp_path):
    """CANN 8.1.RC1's version.cfg: the CANN version follows the colon; the inner build number
    (7.7.0.1.238) before it is not the release (fixtures/cann/version.cfg)."""
    home = make_toolkit(tmp_path, "8.1.RC1")
    (home / ARCH / "ascend_toolkit_install.info").unlink()
    inst = discover(env=isolated_env(tmp_path))
    assert [t.id for t in inst.toolkits] == ["cann-8.1.RC1"]
    assert inst.toolkits[0].version_file.name == "version.cfg"


def test_ascend_toolkit_install_info_as_cann_writes_it(tmp_path):
    home = make_toolkit(tmp_path, "8.1.RC1", version_cfg=False)
    assert "compatible_version=[V100R001C15]" in (home / ARCH / "ascend_toolkit_install.info").read_text()
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    assert tk.id == "cann-8.1.RC1" and tk.version_file.name == "ascend_toolkit_install.info"


def test_bisheng_follows_set_env_path_order(tmp_path):
    """CANN 8.1.RC1's set_env.sh (fixtures/cann/set_env.sh) puts compiler/ccec_compiler/bin
    before tools/ccec_compiler/bin on PATH, and the template's adapter runs the first bisheng
    on PATH: that one is the toolkit's bisheng."""
    home = make_toolkit(tmp_path, "8.1.RC1")
    tools_bisheng = home / "tools/ccec_compiler/bin/bisheng"
    tools_bisheng.parent.mkdir(parents=True)
    tools_bisheng.write_text("#!/bin/sh\n")
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    assert tk.tool("bisheng") == home / "compiler/ccec_compiler/bin/bisheng"
    assert tk.tool("opc") == home / "compiler/bin/opc"
    (home / "compiler/ccec_compiler/bin/bisheng").unlink()
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    assert tk.tool("bisheng") == tools_bisheng


def test_platform_ini_gives_core_arch(tmp_path):
    make_toolkit(tmp_path, "8.1.RC1", socs=("Ascend910B1", "Ascend310P3"))
    tk = discover(env=isolated_env(tmp_path)).toolkits[0]
    assert tk.platform_version("Ascend310P3")["CCEC_AIC_version"] == "dav-m200"
    assert tk.platform_version("Ascend910B1")["CCEC_AIV_version"] == "dav-c220-vec"
    assert tk.platform_version("Ascend910B4") == {}
