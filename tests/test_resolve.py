"""Toolchain resolution over stand-in installs (opkg.toolchains.resolve)."""

import pytest

from cann_standin import isolated_env, make_driver, make_toolkit
from opkg.core.errors import ToolchainError, UsageError, VersionError
from opkg.core.socs import get_soc
from opkg.toolchains.discovery import discover
from opkg.core.releases import release_table
from opkg.toolchains.resolve import Request, parse_requested, resolve

B1, P3 = get_soc("Ascend910B1"), get_soc("Ascend310P3")
A3 = get_soc("Ascend910_9391")


def inst(tmp_path, *versions, driver=None, **kw):
    for v in versions:
        make_toolkit(tmp_path, v, **kw)
    if driver:
        make_driver(tmp_path, driver)
    return discover(env=isolated_env(tmp_path))


def one(res):
    assert len(res.choices) == 1, res
    return res.choices[0]


def test_highest_installed_inside_the_pin(tmp_path):
    i = inst(tmp_path, "8.0.RC2", "8.0.RC3", "8.1.RC1", "8.2.RC1")
    res = resolve([Request("//packages/layernorm", B1, ">=8.0.RC2,<8.2")], i, release_table())
    c = one(res)
    assert res.ok and c.toolchain == "cann-8.1.RC1" and c.version == "8.1.RC1"
    assert "highest installed inside cann>=8.0.RC2,<8.2" in c.notes[0]
    assert any("no driver on this host" in n and "driver>=24.1.rc2" in n for n in c.notes)


def test_no_pin_builds_with_sim_and_says_so(tmp_path):
    i = inst(tmp_path, "8.0.RC2")
    c = one(resolve([Request("//packages/add", B1)], i, release_table()))
    assert c.toolchain == "sim" and "pins no CANN version" in c.notes[0]
    assert "--toolchain cann" in c.notes[0] and "8.0.RC2" in c.notes[0]


def test_pin_without_any_cann_falls_back_to_sim(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.0.RC2")], inst(tmp_path),
                  release_table())
    c = one(res)
    assert res.ok and c.toolchain == "sim"
    assert "no CANN toolkit installed" in c.notes[0] and "cann>=8.0.RC2" in c.notes[0]


def test_cann_too_old_for_the_pin(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.1.RC1")], inst(tmp_path, "8.0.RC2"),
                  release_table())
    assert not res.ok and not res.choices
    (p,) = res.problems
    assert p.kind == "cann_pin"
    assert p.message == (
        f"packages/layernorm pins cann>=8.1.RC1 (for Ascend910B1); installed: 8.0.RC2 at "
        f"{tmp_path}/ascend-toolkit/8.0.RC2; install 8.1.RC1 or relax the pin")
    err = res.error()
    assert isinstance(err, ToolchainError) and err.exit_code == 3


def test_cann_too_new_for_the_pin_suggests_highest_fitting(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, "<8.2")], inst(tmp_path, "8.2.RC1"),
                  release_table())
    (p,) = res.problems
    assert "installed: 8.2.RC1" in p.message and "install 8.1.RC1 or relax the pin" in p.message


def test_soc_unsupported_by_the_release(tmp_path):
    res = resolve([Request("//packages/layernorm", A3, ">=8.0.RC2")],
                  inst(tmp_path, "8.0.RC2", socs=("Ascend910B1",)), release_table())
    (p,) = res.problems
    assert p.kind == "soc_unsupported" and "Ascend910_9391" in p.message
    assert "no platform_config/Ascend910_9391.ini" in p.message and "8.0.RC2" in p.message


def test_unsupported_newer_toolkit_is_skipped_for_a_supporting_older_one(tmp_path):
    make_toolkit(tmp_path, "8.0.RC2", socs=("Ascend910B1", "Ascend310P3"))
    make_toolkit(tmp_path, "8.1.RC1", socs=("Ascend910B1",))
    i = discover(env=isolated_env(tmp_path))
    c = one(resolve([Request("//packages/x", P3, ">=8.0.RC2")], i, release_table()))
    assert c.toolchain == "cann-8.0.RC2"
    assert any("skipped CANN 8.1.RC1" in n for n in c.notes)


def test_driver_too_old_for_the_release(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.2.RC1")],
                  inst(tmp_path, "8.2.RC1", driver="24.1.rc2"), release_table())
    (p,) = res.problems
    assert p.kind == "driver_too_old"
    assert p.message.startswith(
        "CANN 8.2.RC1 needs driver>=25.0.rc1 for ascend910b; found 24.1.rc2 at ")
    assert "packages/layernorm" in p.message and res.choices  # the choice stands; the run would fail


def test_driver_pin(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.0.RC2", ">=25.0.rc1")],
                  inst(tmp_path, "8.0.RC2", driver="24.1.rc2"), release_table())
    (p,) = res.problems
    assert p.kind == "driver_pin" and "pins driver>=25.0.rc1" in p.message
    assert "found 24.1.rc2" in p.message


def test_aligned_with_driver(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.0.RC2", ">=24.1.rc1")],
                  inst(tmp_path, "8.0.RC3", driver="24.1.rc2"), release_table())
    assert res.ok and one(res).driver == "24.1.rc2"


def test_no_driver_is_a_problem_only_for_run(tmp_path):
    i = inst(tmp_path, "8.0.RC2")
    req = [Request("//packages/layernorm", B1, ">=8.0.RC2", ">=24.1.rc1")]
    assert resolve(req, i, release_table()).ok
    res = resolve(req, i, release_table(), for_run=True)
    (p,) = res.problems
    assert p.kind == "no_driver" and "driver>=24.1.rc1 (pin)" in p.message
    assert "driver>=24.1.rc1 (CANN 8.0.RC2 on ascend910b)" in p.message


def test_unknown_release_driver_minimum_is_noted(tmp_path):
    c = one(resolve([Request("p", B1, ">=8.0")], inst(tmp_path, "8.3.RC1", driver="25.0.rc1"),
                    release_table()))
    assert any("driver minimum for ascend910b is not in cann_releases.yaml" in n for n in c.notes)


def test_forced_toolchains(tmp_path):
    i = inst(tmp_path, "8.0.RC2", "8.1.RC1")
    req = [Request("//packages/layernorm", B1, ">=8.0.RC2")]
    assert one(resolve(req, i, release_table(), requested="sim")).toolchain == "sim"
    assert one(resolve(req, i, release_table(), requested="cann-8.0.RC2")).toolchain == \
        "cann-8.0.RC2"
    assert one(resolve([Request("p", B1)], i, release_table(), requested="cann")).toolchain == \
        "cann-8.1.RC1"
    res = resolve(req, i, release_table(), requested="cann-8.0.RC3")
    assert res.problems[0].kind == "not_installed" and "8.0.RC2 at" in res.problems[0].message
    res = resolve([Request("p", B1, ">=8.1.RC1")], i, release_table(), requested="cann-8.0.RC2")
    assert res.problems[0].kind == "cann_pin" and "cann-8.0.RC2 (--toolchain) at" in res.problems[0].message


def test_requesting_cann_with_none_installed(tmp_path):
    res = resolve([Request("//packages/layernorm", B1, ">=8.1.RC1")], inst(tmp_path),
                  release_table(), requested="cann")
    (p,) = res.problems
    assert p.kind == "not_installed" and "no CANN toolkit is installed" in p.message
    assert "required: cann>=8.1.RC1" in p.message


def test_ties_go_to_the_first_discovered(tmp_path):
    make_toolkit(tmp_path / "a", "8.0.RC2")
    make_toolkit(tmp_path / "b", "8.0.RC2")
    i = discover(env=isolated_env(tmp_path / "b", ASCEND_HOME_PATH=tmp_path / "a/ascend-toolkit/8.0.RC2"))
    c = one(resolve([Request("p", B1, "==8.0.RC2")], i, release_table()))
    assert c.toolkit.found_via == "$ASCEND_HOME_PATH"


def test_bad_requested_toolchain():
    with pytest.raises(UsageError, match="unknown toolchain 'gcc'"):
        parse_requested("gcc")
    with pytest.raises(VersionError):
        parse_requested("cann-8.0.rc2")


def test_several_problems_make_one_error(tmp_path):
    i = inst(tmp_path, "8.0.RC2")
    res = resolve([Request("//packages/a", B1, ">=8.1.RC1"), Request("//packages/b", P3, ">=8.1.RC1")],
                  i, release_table())
    err = res.error()
    assert "packages/a" in err.message and "packages/b" in err.message
    assert err.message.startswith("toolchain misalignment:")


def test_release_table_decides_soc_support_when_the_toolkit_cannot(tmp_path):
    # no platform_config in the toolkit: the workspace's release table says which SoCs it has
    ws = tmp_path / "ws"
    (ws / "toolchains").mkdir(parents=True)
    (ws / "toolchains" / "cann_releases.yaml").write_text(
        'releases: {"8.0.RC2": {socs: [ascend910b], driver: {all: ">=24.1.rc1"}}}\n')
    i = inst(tmp_path / "a", "8.0.RC2", socs=None)
    res = resolve([Request("//p", P3, ">=8.0.RC2")], i, release_table(ws))
    (p,) = res.problems
    assert p.kind == "soc_unsupported"
    assert "ascend310p is not among CANN 8.0.RC2's SoCs in cann_releases.yaml" in p.message
    c = one(resolve([Request("//p", B1, ">=8.0.RC2")], i, release_table(ws)))
    assert c.toolchain == "cann-8.0.RC2"
    # neither source knows: resolution goes ahead and says so
    c = one(resolve([Request("//p", P3, ">=8.0.RC2")], i, release_table()))
    assert any("SoC support for Ascend310P3 not known" in n for n in c.notes)
