"""Tiling data round trip: attrs -> host tiling class -> serialized bytes -> kernel struct."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import flags, runtime
import simbuild

OP = OpSpec(
    "TilingRt",
    (TensorSpec("x", ("float32",)), TensorSpec("bias", ("float32",), param_type="optional")),
    (TensorSpec("y", ("int64",)),),
    (AttrSpec("flag", "bool", True), AttrSpec("big", "int", required=True), AttrSpec("ratio", "float", 0.5),
     AttrSpec("label", "str", "abc"), AttrSpec("ints", "list_int", [1, 2, 3, 4, 5]),
     AttrSpec("floats", "list_float", [0.25])),
)
# The C layout of TilingDataRT: natural alignment, declaration order, nested struct aligned.
LAYOUT = np.dtype({
    "names": ["a", "b", "c", "d", "arr", "p", "q", "r", "e"],
    "formats": ["u1", "<i8", "<f4", "<u2", ("<i4", 5), "<u4", "<i8", "<f4", "i1"],
    "offsets": [0, 8, 16, 20, 24, 48, 56, 64, 72],
    "itemsize": 80,
})


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "tilingrt", OP, OP.variants()[0], soc910b, lib_cache,
                          stem="tiling_rt", tiling_function="optiling::TilingRtFunc")


def attrs(key):
    return {"flag": False, "big": -(1 << 40) - 3, "ratio": 2.5, "label": "hello",
            "ints": [key, -2, 3, -4, 5], "floats": [-0.75, 9.0]}


def test_host_serialises_with_c_struct_layout(built):
    x = np.zeros((6, 32), np.float32)
    result, raw = runtime.run_tiling(built.host, OP, built.variant, built.soc, {"x": x, "bias": None},
                                     {"y": (48,)}, attrs(1))
    assert result.tiling_size == 80 and result.block_dim == 3 and result.tiling_key == 1
    rec = np.frombuffer(raw[:80], LAYOUT)[0]
    assert (rec["a"], rec["b"], rec["c"], rec["d"]) == (100, -(1 << 40) - 3, 2.5, 5)
    assert list(rec["arr"]) == [1, -2, 3, -4, 5]
    assert (rec["p"], rec["q"], rec["r"], rec["e"]) == (6, (1 << 40) + 3, -0.75, -5)


@pytest.mark.parametrize("key", [1, 2, 3], ids=["GET_TILING_DATA", "WITH_STRUCT", "REGISTER_TILING_DEFAULT"])
def test_kernel_reads_every_field(built, key):
    x = np.zeros((6, 32), np.float32)
    y = np.zeros(48, np.int64)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"y": y}, attrs(key))
    assert info.block_dim == 3 and info.tiling_key == key
    rows = y.reshape(3, 16)
    for block, row in enumerate(rows):
        assert list(row) == [100, -(1 << 40) - 3, 2500, 5, key, -2, 3, -4, 5, 6, (1 << 40) + 3, -750, -5, 80, 3,
                             block]


def test_value_depend_input_values_reach_tiling(built):
    x = np.zeros((6, 32), np.float32)
    bias = np.array([7.0, 1.0], np.float32)
    result, raw = runtime.run_tiling(built.host, OP, built.variant, built.soc, {"x": x, "bias": bias},
                                     {"y": (48,)}, attrs(1))
    assert np.frombuffer(raw[:80], LAYOUT)[0]["e"] == 7


def test_defaults_and_missing_attrs(built):
    # Manifest defaults are applied by the caller; an attr with no value reads as nullptr and
    # this tiling function then fails, which must surface as a tiling SimError.
    x = np.zeros((2, 32), np.float32)
    with pytest.raises(runtime.SimError, match="returned failure"):
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x},
                         {"y": np.zeros(48, np.int64)}, {"big": None})


def test_opdef_prototype_json(built):
    (proto,) = runtime.host_prototypes(built.host)
    assert proto["type"] == "TilingRt"
    assert [(t["name"], t["param_type"], t["dtypes"], t["formats"], t["value_depend"]) for t in proto["inputs"]] == [
        ("x", "required", ["float32"], ["ND"], False), ("bias", "optional", ["float32"], ["ND"], True)]
    assert proto["outputs"][0]["dtypes"] == ["int64"]
    assert proto["attrs"] == [
        {"name": "flag", "type": "bool", "required": False, "default": True},
        {"name": "big", "type": "int", "required": True, "default": None},
        {"name": "ratio", "type": "float", "required": False, "default": 0.5},
        {"name": "label", "type": "str", "required": False, "default": "abc"},
        {"name": "ints", "type": "list_int", "required": False, "default": [1, 2, 3, 4, 5]},
        {"name": "floats", "type": "list_float", "required": False, "default": [0.25]},
    ]
    assert proto["aicore"] == {"has_tiling": False, "configs": ["ascend910b"]}
    assert proto["has_infer_shape"] is False


def test_classes_padded_to_8_bytes_and_struct_fields_8_aligned(tmp_path, soc910b):
    """CANN's TilingDef (CheckAlignAndGenPlaceHolder): three uint32 make 16 bytes, a struct field
    after one uint32 starts at 8; host and kernel mode agree (cann-ops' MatMulV3 tiling refuses a
    data size that is not a multiple of 8)."""
    src = Path(__file__).parent / "pkgs" / "tilingrt" / "layout_align.cpp"
    exe = tmp_path / "align"
    host = subprocess.run(["g++", *flags.common_flags(), "-DOPKG_SIM_HOST=1", "-o", str(exe), str(src),
                           str(flags.host_runtime_source())], capture_output=True, text=True)
    assert host.returncode == 0, host.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["16", "32", "3", "2"]
    kernel = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc910b), "-fsyntax-only", str(src)],
                            capture_output=True, text=True)
    assert kernel.returncode == 0, kernel.stderr[-3000:]
