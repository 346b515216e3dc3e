"""The toolchain data files: SoC table extras and the CANN release table."""

from pathlib import Path

import pytest

from opkg.core.errors import ManifestError
from opkg.core.model import SocInfo
from opkg.core.socs import get_soc, soc_table
from opkg.core.releases import BUILTIN, release_table
from opkg.core.versions import parse_driver

REPO = Path(__file__).resolve().parent.parent


def test_builtin_data_is_the_workspace_data():
    assert BUILTIN.resolve() == (REPO / "toolchains" / "cann_releases.yaml").resolve()
    assert (REPO / "opkg/toolchains_builtin/socs.yaml").resolve() == \
        (REPO / "toolchains/socs.yaml").resolve()


def test_soc_extra_keys_are_kept_and_unknown_counts_stay_absent():
    b4 = get_soc("Ascend910B4")
    assert (b4.cube_cores, b4.vector_cores, b4.l2_bytes) == (20, 40, 100663296)
    # a verification job carries the SoC as JSON: every field survives it (the host's L2 size too)
    assert SocInfo.from_json(b4.to_json()) == b4
    # and its platform-config entries (compare=False: equality above does not see them)
    assert SocInfo.from_json(b4.to_json()).platform == b4.platform
    assert b4.platform["AICoreintrinsicDtypeMap"]["Intrinsic_fix_pipe_l0c2out"] == "f32,s32,f16"
    assert "platform" not in get_soc("Ascend950PR_9599").to_json()   # no public ini: none
    # 310P runs vector kernels on its AI cores: the ini's separate Vector Cores are not counted
    assert get_soc("Ascend310P3").vector_cores is None
    assert all(s.short and s.family for s in soc_table().values())


# (ai_core_cnt, vector cores the kernels use, ub_size, __NPU_ARCH__) from CANN 8.1.RC1's
# platform_config/<SoC>.ini, for one SoC of each kind the table covers.
INI_FACTS = {
    "Ascend910A": (32, None, 262144, 1001), "Ascend910ProB": (30, None, 262144, 1001),
    "Ascend910B1": (24, 48, 196608, 2201), "Ascend910B3": (20, 40, 196608, 2201),
    "Ascend910B4-1": (20, 40, 196608, 2201), "Ascend910_9362": (20, 40, 196608, 2201),
    "Ascend910_9392": (24, 48, 196608, 2201), "Ascend310P1": (10, None, 262144, 2002),
    "Ascend310P3": (8, None, 262144, 2002), "Ascend310B1": (1, None, 253952, 3002),
    "Ascend310B4": (1, None, 253952, 3002),
}


def test_every_platform_config_soc_of_the_covered_kinds_has_cores_ub_and_arch():
    table = soc_table()
    for name, (cores, vec, ub, arch) in INI_FACTS.items():
        s = table[name]
        assert (s.cube_cores, s.vector_cores, s.ub_bytes, s.npu_arch) == (cores, vec, ub, arch), name
    wanted = ([f"Ascend910B{i}" for i in (1, 2, 3, 4)] + ["Ascend910B2C", "Ascend910B4-1", "Ascend910A"]
              + [f"Ascend910_93{n}" for n in ("62", "72", "81", "82", "91", "92")]
              + ["Ascend310P1", "Ascend310P3"] + [f"Ascend310B{i}" for i in (1, 2, 3, 4)])
    for name in wanted:
        s = table[name]
        assert s.block_dim_limit > 1 or s.family == "m300", name   # the sim can run every one
        assert s.cube_cores and s.ub_bytes and s.vec_arch, name


def test_the_ascend950_family_as_the_devkit_and_ops_nn_name_it():
    """asc-devkit 82b89a15 and ops-nn e5c3fa93 (see socs.yaml): both PR SoCs are arch35 with
    __NPU_ARCH__ 3510, 256 KB UB and a 256-byte vector register; 9589's core counts are not public."""
    table = soc_table()
    pr9599, pr9589 = table["Ascend950PR_9599"], table["Ascend950PR_9589"]
    for s in (pr9599, pr9589):
        assert (s.short, s.family, s.npu_arch, s.ub_bytes, s.vreg_bytes, s.arch_dir) == \
            ("ascend950", "c310", 3510, 262144, 256, "arch35"), s.name
        assert (s.vec_arch, s.cube_arch) == ("dav-c310-vec", "dav-c310-cube")
        assert s.l0a_bytes is None and s.clock_ghz is None     # no public [AICoreSpec] ini
    assert (pr9599.cube_cores, pr9599.vector_cores, pr9599.block_dim_limit) == (32, 64, 64)
    assert (pr9589.cube_cores, pr9589.vector_cores) == (None, None)
    # the older SoCs have no arch directory in the table: importers keep their classic layout
    assert all(s.arch_dir is None for s in table.values() if s.short != "ascend950")


def test_cann_9_1_0_is_known_without_a_soc_list():
    row = release_table().get("9.1.0")
    assert row is not None and row.socs is None
    assert row.supports("ascend950") is None and row.supports("ascend310p") is None


def test_release_driver_matrix_from_the_brief():
    t = release_table()
    assert str(t.info("8.0.RC2").driver_spec("ascend310p")) == ">=24.1.rc1"
    for v in ("8.0.RC3", "8.0.0", "8.1.RC1"):
        assert t.info(v).driver_spec("ascend910b").contains(parse_driver("24.1.rc2"))
        assert not t.info(v).driver_spec("ascend910b").contains(parse_driver("24.1.rc1"))
    assert not t.info("8.2.RC1").driver_spec("ascend910b").contains("24.1.rc2")
    assert t.info("7.0.0").driver_spec("ascend910b").contains("23.0.3")
    # hicann release notes: 7.0.0 on 310P needs 23.0.1; 8.5.0 HDK 25.5.0; 9.0.0 HDK 25.5.1
    assert str(t.info("7.0.0").driver_spec("ascend310p")) == ">=23.0.1"
    assert str(t.info("8.5.0").driver_spec("ascend910b")) == ">=25.5.0"
    assert not t.info("9.0.0").driver_spec("ascend310p").contains("25.5.0")
    # Only 910B and 310P are stated for 7.0.0: other SoCs are not known, not assumed.
    assert t.info("7.0.0").driver_spec("ascend310b") is None


def test_release_socs_and_tiling_libs():
    t = release_table()
    assert t.info("8.1.RC1").supports("ascend910_93") and not t.info("8.1.RC1").supports("ascend910")
    # 8.1.RC1's op_host/CMakeLists.txt links nnopbase into the tiling library; 7.3's did not
    assert t.info("8.1.RC1").tiling_extra_libs == ("nnopbase",)
    assert t.info("8.0.RC2").tiling_extra_libs == ()


def test_unknown_release_knows_only_defaults():
    info = release_table().info("8.0.RC2.alpha003")
    assert info.driver_spec("ascend910b") is None and info.supports("ascend910b") is None
    assert info.msopgen_framework is None and info.bin_param_fields == {}
    # msopgen's `-f aclnn` makes an op_api-only project (no CMakePresets.json, no kernel build):
    # no release uses it, the default framework is what CANN's samples build
    assert release_table().info("8.2.RC1").msopgen_framework is None


def _workspace(tmp_path, text):
    (tmp_path / "toolchains").mkdir()
    (tmp_path / "toolchains" / "cann_releases.yaml").write_text(text)
    return tmp_path


def test_workspace_table_overrides_and_extends(tmp_path):
    ws = _workspace(tmp_path, """
releases:
  "9.0.0-beta.1": {driver: {ascend910b: ">=25.0.rc1.1"}, socs: [ascend910b],
                   tiling_extra_libs: [nnopbase]}
""")
    t = release_table(ws)
    info = t.info("9.0.0-beta.1")
    assert info.supports("ascend910b") is True and info.supports("ascend310p") is False
    assert info.tiling_extra_libs == ("nnopbase",)
    assert t.get("8.0.RC2") is None


@pytest.mark.parametrize("text, field", [
    ('releases: {"8.0.rc2": {}}', "releases.8.0.rc2"),
    ('releases: {"8.0.RC2": {drivers: {}}}', "releases.8.0.RC2"),
    ('releases: {"8.0.RC2": {driver: {all: ">=8.0.RC2"}}}', "releases.8.0.RC2.driver.all"),
    ('releases: {"8.0.RC2": {socs: ascend910b}}', "releases.8.0.RC2.socs"),
    ('releases: {"8.0.RC2": {tiling_extra_libs: nnopbase}}', "releases.8.0.RC2.tiling_extra_libs"),
    # opc chooses bisheng's flags: an older table's flag keys are pointed out, not ignored
    ('releases: {"8.0.RC2": {bisheng_flags: [-O2]}}', "releases.8.0.RC2.bisheng_flags"),
    ('arch_flags: {dav-m200: [-O2]}\nreleases: {}', "arch_flags"),
])
def test_bad_release_table_names_file_and_field(tmp_path, text, field):
    ws = _workspace(tmp_path, text)
    with pytest.raises(ManifestError) as info:
        release_table(ws)
    assert info.value.field == field
    assert str(info.value.location.path).endswith("cann_releases.yaml")
    assert info.value.hint


def test_profile_figures_are_in_the_table_or_absent():
    for name in ("Ascend910B1", "Ascend910B4"):
        soc = get_soc(name)
        assert soc.gm_bandwidth_gbps > 0 and soc.clock_ghz > 0 and soc.vector_bytes_per_cycle > 0
    # figures not publicly found stay absent: the profile names them instead of guessing
    assert get_soc("Ascend910B2").gm_bandwidth_gbps is None
    assert get_soc("Ascend310P3").clock_ghz is None
    assert "clock_ghz" in get_soc("Ascend910B4").to_json()


TABLE = """\
families:
  c220: {npu_arch: 2201, vec_arch: dav-c220-vec, cube_arch: dav-c220-cube, ub_bytes: 196608%s}
socs:
  Ascend910B1: {short: ascend910b, family: c220, cube_cores: 24,
                %s}
"""


@pytest.mark.parametrize("family,soc,line,message", [
    ("", "gm_bandwidth_gbps: fast", 5,
     "socs.Ascend910B1.gm_bandwidth_gbps: must be a positive number (GB/s), got 'fast'"),
    ("", "clock_ghz: 0", 5, "socs.Ascend910B1.clock_ghz: must be a positive number (GHz), got 0"),
    ("", "clock_ghz: true", 5, "clock_ghz: must be a positive number (GHz), got True"),
    (", vector_bytes_per_cycle: -256", "vector_cores: 48", 2,
     "families.c220.vector_bytes_per_cycle: must be a positive number (bytes per cycle), got -256"),
])
def test_malformed_profile_figures_are_clear_errors(tmp_path, family, soc, line, message):
    (tmp_path / "toolchains").mkdir()
    (tmp_path / "toolchains" / "socs.yaml").write_text(TABLE % (family, soc))
    with pytest.raises(ManifestError) as e:
        soc_table(tmp_path)
    text = e.value.render()
    assert f"socs.yaml:{line}:" in text and message in text
    assert "leave the field out" in text


@pytest.mark.parametrize("text, line, message", [
    ("families: [c220]\nsocs: {}\n", 1, "'families:' must be a mapping of family name to fields"),
    ("families:\n  c220: fast\nsocs: {}\n", 2, "c220: expected a mapping of fields, got str"),
    ("families: {}\nsocs:\n  Ascend910B1: [c220]\n", 3, "Ascend910B1: expected a mapping of fields, got list"),
])
def test_soc_table_rows_must_be_mappings(tmp_path, text, line, message):
    (tmp_path / "toolchains").mkdir()
    (tmp_path / "toolchains" / "socs.yaml").write_text(text)
    with pytest.raises(ManifestError) as e:
        soc_table(tmp_path)
    rendered = e.value.render()
    assert f"socs.yaml:{line}:" in rendered and message in rendered


def test_a_platform_entry_that_is_not_label_key_value_is_refused(tmp_path):
    (tmp_path / "toolchains").mkdir()
    (tmp_path / "toolchains" / "socs.yaml").write_text(
        "families:\n  c220: {npu_arch: 2201, vec_arch: v, cube_arch: c, ub_bytes: 196608,\n"
        "         platform: {AICoreintrinsicDtypeMap: [f32]}}\n"
        "socs:\n  X1: {short: x, family: c220}\n")
    with pytest.raises(ManifestError) as err:
        soc_table(tmp_path)
    assert "platform" in str(err.value) and "{key: value}" in str(err.value)
