"""Constructs of CANN's real headers that real operators use, each on a small kernel of our own
(tests/sim/pkgs/realapi): LocalTensor operator overloads, ASSERT directly after an expression and with no `;`
after it (as a device build compiles both), float32_t, TQueSync, TBuf's queue interface, vector Copy, GatherMask
(built-in and user patterns, rsvdCnt), Sort32, ReduceSum into an element-aligned dst; and a kernel
entry named like a C library function (pkgs/libmname: op `Exp`, entry `exp`)."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "RealApi",
    (TensorSpec("x", ("float32", "float16")), TensorSpec("y", ("float32", "float16"))),
    (TensorSpec("z", ("float32", "float16")),),
    (AttrSpec("which", "int", required=True), AttrSpec("count", "int", required=True)),
)
PADDED = 1024


@pytest.fixture(scope="module", params=["float32", "float16"])
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "realapi", OP, OP.variant(request.param), soc910b, lib_cache, stem="real_api")


def run(built, which, count, x=None, y=None):
    dtype = np.dtype(built.variant.dtype_of("x"))
    rng = np.random.default_rng(which)
    x = rng.uniform(-2, 2, PADDED).astype(dtype) if x is None else x
    y = rng.uniform(0.5, 2, PADDED).astype(dtype) * rng.choice([-1, 1], PADDED).astype(dtype) if y is None else y
    z = np.full(PADDED, 7, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": y}, {"z": z},
                     {"which": which, "count": count})
    return x, y, z


@pytest.mark.parametrize("which,fn", [(1, np.add), (2, np.subtract), (3, np.multiply), (4, np.divide)])
def test_operator_overloads_run_over_dst_size(built, which, fn):
    x, y, z = run(built, which, 1000)
    want = fn(x[:1000].astype(np.float32), y[:1000].astype(np.float32)).astype(x.dtype)
    np.testing.assert_array_equal(z[:1000], want)
    assert (z[1000:] == 0).all()      # dst was sized to 1000 elements: nothing past it


def test_compare_overload_feeds_select(built):
    x, y, z = run(built, 5, 512)
    np.testing.assert_array_equal(z[:512], np.where(x[:512] < y[:512], x[:512], y[:512]))


def test_tbuf_queue_interface_and_tquesync(built):
    x, y, z = run(built, 6, 1000)
    prod = (x[:1000].astype(np.float32) * y[:1000].astype(np.float32)).astype(x.dtype)
    np.testing.assert_array_equal(z[:1000], (prod.astype(np.float32) + 1).astype(x.dtype))


def test_copy_with_mask_and_repeats(built):
    x, _, z = run(built, 7, 10)
    per = 256 // x.itemsize
    rows_x, rows_z = x.reshape(-1, per), z.reshape(-1, per)
    np.testing.assert_array_equal(rows_z[:, :10], rows_x[:, :10])
    assert (rows_z[:, 10:] == 0).all()


def test_gather_mask_builtin_pattern_counts_what_it_kept(built):
    x, _, z = run(built, 8, 1)
    np.testing.assert_array_equal(z[:PADDED // 2], x[0::2])
    assert float(z[-1]) == float(z[-2]) == PADDED // 2     # rsvdCnt, GetGatherMaskRemainCount()


def test_gather_mask_user_pattern_counter_mode(built):
    x, y, z = run(built, 9, 40)
    per = 256 // x.itemsize
    lanes = np.flatnonzero(y[:per] > 0)
    lanes = lanes[lanes < 40]
    want = np.concatenate([x.reshape(-1, per)[r, lanes] for r in range(PADDED // per)])
    np.testing.assert_array_equal(z[:len(want)], want)
    assert float(z[-1]) == len(want)


@pytest.mark.parametrize("past", [1, 2, 3])
def test_gather_mask_past_an_operand_names_the_element(built, pkgs, past):
    per = 256 // np.dtype(built.variant.dtype_of("x")).itemsize
    with pytest.raises(runtime.SimError) as e:
        run(built, 12, past)
    assert e.value.line == simbuild.line_of(pkgs / "realapi" / "op_kernel" / "real_api.cpp", "gather-past")
    want = {1: "GatherMask: repeat 1 element 0 needs pattern byte 32, past src1Pattern's 32 bytes",
            2: f"GatherMask: repeat 1 element 3 is at byte {256 + 3 * 256 // per}, past src0's {per + 3} elements",
            3: f"GatherMask: keeps more than dst's {per + 5} elements"}[past]
    assert want in e.value.message


def test_gather_mask_of_an_undefined_element_leaves_the_others_defined(built):
    x, _, z = run(built, 13, 1)
    per_block, per = 32 // x.itemsize, 256 // x.itemsize
    want = x[:2 * per].copy()
    want[per_block:2 * per_block] = 0
    np.testing.assert_array_equal(z[:2 * per], want)


def test_sort32_sorts_each_32_descending_and_keeps_ties_in_order(built):
    dtype = np.dtype(built.variant.dtype_of("x"))
    x = np.random.default_rng(3).integers(-4, 4, PADDED).astype(dtype)   # many ties
    _, _, z = run(built, 10, 3, x=x)
    for r in range(3):
        block = x[32 * r:32 * r + 32]
        order = np.argsort(-block.astype(np.float32), kind="stable")
        np.testing.assert_array_equal(z[32 * r:32 * r + 32], block[order])


def test_reduce_sum_dst_needs_only_element_alignment(built):
    x, _, z = run(built, 11, 64)
    assert z[1] == pytest.approx(float(x[:64].astype(np.float64).sum()), rel=1e-2, abs=1e-2)


def test_assert_after_an_expression_still_checks(built, pkgs):
    with pytest.raises(runtime.SimError) as e:
        run(built, 1, PADDED + 1)
    assert e.value.kind == "assert"
    assert "ASSERT(count_ <= padded_) failed" in e.value.message
    assert e.value.line == simbuild.line_of(pkgs / "realapi" / "op_kernel" / "real_api.cpp", "assert")


def test_assert_in_a_declaration_checks_the_declared_variable(built, pkgs):
    # the condition reads the variable its declaration initialises: checked once it holds
    # the value (count passes), and a failure still names the ASSERT's line
    run(built, 1, 777)
    with pytest.raises(runtime.SimError) as e:
        run(built, 1, 0)
    assert e.value.kind == "assert"
    assert "ASSERT(declared == count && declared != 0) failed" in e.value.message
    assert e.value.line == simbuild.line_of(pkgs / "realapi" / "op_kernel" / "real_api.cpp", "assert-decl")


EXP = OpSpec("Exp", (TensorSpec("x", ("float32",)),), (TensorSpec("y", ("float32",)),))


def test_kernel_entry_named_like_a_libm_function(pkgs, soc910b, lib_cache):
    """`extern "C" void exp(GM_ADDR...)` compiles unchanged beside <cmath>'s exp(double), and the
    emulation's own exp (which Exp computes with) stays the C library's."""
    b = simbuild.build(pkgs / "libmname", EXP, EXP.variant("float32"), soc910b, lib_cache, stem="exp")
    x = np.linspace(-3, 3, 256, dtype=np.float32)
    y = np.full(256, np.nan, dtype=np.float32)
    runtime.run_case(b.host, b.kernel, EXP, b.variant, b.soc, {"x": x}, {"y": y}, {})
    np.testing.assert_allclose(y, np.exp(x), rtol=1e-6)


def test_opdef_attr_without_attr_type_is_required_as_in_cann(built):
    """`this->Attr("which").Int();` declares a required attr (CANN's default), so a manifest that
    says so passes the OpDef check; the tiling function read `count` through
    GetAttrPointer<uint32_t> (every case above ran with it)."""
    (op,) = runtime.host_prototypes(built.host)
    assert [(a["name"], a["required"]) for a in op["attrs"]] == [("which", True), ("count", True)]


def test_host_prototypes_report_a_socs_own_dtype_lists(pkgs, soc910b, lib_cache):
    """AddConfig("ascend310p", config) with the config's own Input/Output lists (CANN's
    OpAICoreConfig) is reported per SoC, in manifest spelling."""
    op = OpSpec("PerSocAdd", (TensorSpec("x", ("float16", "float32", "bfloat16")),
                              TensorSpec("y", ("float16", "float32", "bfloat16"))),
                (TensorSpec("z", ("float16", "float32", "bfloat16")),))
    fixture = pkgs.parent.parent / "fixtures" / "per_soc_add"
    b = simbuild.build(fixture, op, op.variant("float16"), soc910b, lib_cache, stem="per_soc_add")
    (proto,) = runtime.host_prototypes(b.host)
    assert proto["aicore"]["configs"] == ["ascend910b", "ascend310p"]
    cfg = proto["aicore"]["soc_configs"]["ascend310p"]
    assert [(t["name"], t["dtypes"]) for t in cfg["inputs"] + cfg["outputs"]] == [
        ("x", ["float16", "float32"]), ("y", ["float16", "float32"]), ("z", ["float16", "float32"])]
