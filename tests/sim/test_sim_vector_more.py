"""Basic APIs real operators use beyond the core vector set: PairReduceSum (also in place),
ShiftLeft/ShiftRight (count and level-0 forms, roundEn, the full width), level-0 Select (modes 0, 1,
2), queues of zero-length buffers, PopStackBuffer, CrossCoreSetFlag /
CrossCoreWaitFlag, against NumPy, and their diagnostics with the kernel's file:line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "BasicMore",
    (TensorSpec("x", ("float32", "float16")), TensorSpec("y", ("float32", "float16"))),
    (TensorSpec("z", ("float32", "float16")),),
    (AttrSpec("which", "int", required=True), AttrSpec("count", "int", required=True),
     AttrSpec("tmp_bytes", "int", required=True), AttrSpec("scalar", "float", 1.5)),
)
PADDED = 1024
KERNEL = Path(__file__).parent / "pkgs" / "basicmore" / "op_kernel" / "basic_more.cpp"


@pytest.fixture(scope="module", params=["float32", "float16"])
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "basicmore", OP, OP.variant(request.param), soc910b, lib_cache, stem="basic_more")


def run(built, which, x, count=PADDED, scalar=1.0):
    z = np.full(PADDED, 7, dtype=x.dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": np.zeros_like(x)},
                     {"z": z}, {"which": which, "count": count, "tmp_bytes": 0, "scalar": scalar})
    return z


def dtype_of(built):
    return np.dtype(built.variant.dtype_of("x")).type


@pytest.mark.parametrize("which", [1, 2])
def test_pair_reduce_sum(built, which):
    dtype = dtype_of(built)
    x = np.random.default_rng(3).uniform(-4, 4, PADDED).astype(dtype)
    x[:4] = [np.inf, 1.0, np.nan, 2.0]
    z = run(built, which, x)
    want = (x[0::2].astype(np.float32) + x[1::2].astype(np.float32)).astype(dtype)
    np.testing.assert_array_equal(z[: PADDED // 2], want)
    if which == 1:
        assert np.all(z[PADDED // 2:] == 0)


def ints(built):
    dtype = dtype_of(built)
    itype = np.int16 if dtype == np.float16 else np.int32
    info = np.iinfo(itype)
    v = np.random.default_rng(5).integers(info.min, info.max, PADDED, dtype=itype)
    v[:6] = [0, -1, 1, info.min, info.max, -7]
    return dtype, itype, v


@pytest.mark.parametrize("shift", [0, 1, 3])
def test_shifts_match_numpy(built, shift):
    dtype, itype, v = ints(built)
    x = v.view(dtype)
    left = run(built, 3, x, scalar=shift).view(itype)
    np.testing.assert_array_equal(left, (v.astype(np.int64) << shift).astype(itype))
    right = run(built, 4, x, scalar=shift).view(itype)
    np.testing.assert_array_equal(right, v >> shift)       # arithmetic for signed types
    rounded = run(built, 5, x, scalar=shift).view(itype)
    carry = ((v >> (shift - 1)) & 1) if shift else 0
    np.testing.assert_array_equal(rounded, ((v >> shift) + carry).astype(itype))


def test_a_shift_by_the_full_width_shifts_every_bit_out(built):
    # CANN's dav_c220 impl accepts scalarValue up to sizeof(T) * 8: an int32 shifted right by 32
    # is its sign fill (what a branch-free abs builds its mask from), a left shift gives 0
    dtype, itype, v = ints(built)
    width = np.dtype(itype).itemsize * 8
    x = v.view(dtype)
    np.testing.assert_array_equal(run(built, 4, x, scalar=width).view(itype), np.where(v < 0, -1, 0).astype(itype))
    np.testing.assert_array_equal(run(built, 3, x, scalar=width).view(itype), np.zeros_like(v))
    rounded = run(built, 5, x, scalar=width).view(itype)    # sign fill + the sign bit shifted out last
    np.testing.assert_array_equal(rounded, np.zeros_like(v))


def test_shift_past_the_width_is_reported(built):
    dtype, _, v = ints(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 9, v.view(dtype))
    assert f"basic_more.cpp:{simbuild.line_of(KERNEL, 'shift-too-far')}" in str(err.value)
    assert "shift by 33 bits is outside [0, 32]" in str(err.value) or \
        "shift by 17 bits is outside [0, 16]" in str(err.value)


def test_level0_select_modes(built):
    dtype = dtype_of(built)
    per = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(8).uniform(-1, 1, PADDED).astype(dtype)
    x[:3] = [0.0, -0.0, 0.5]
    # mode 2: each repeat takes its own bits; src1 is dst itself (-3 everywhere)
    np.testing.assert_array_equal(run(built, 40, x), np.where(x > 0, x, dtype(-3)))
    # mode 1: a scalar src1; the mask keeps the first half of each repeat, the rest keeps dst (7)
    lane = np.arange(PADDED) % per
    np.testing.assert_array_equal(run(built, 41, x), np.where(lane < per // 2, np.where(x > 0, x, dtype(5)), dtype(7)))
    # mode 0: the first repeat's bits in every repeat
    first = np.tile(x[:per] > 0, PADDED // per)
    np.testing.assert_array_equal(run(built, 42, x), np.where(first, x, dtype(-3)))


def test_level0_select_tensor_form_in_scalar_mode_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 43, np.ones(PADDED, dtype_of(built)))
    assert f"basic_more.cpp:{simbuild.line_of(KERNEL, 'select-mode1')}" in str(err.value)
    assert "VSEL_TENSOR_SCALAR_MODE (mode 1) takes a scalar src1" in str(err.value)


def test_a_queue_of_zero_length_buffers_still_hands_them_out(built):
    dtype = dtype_of(built)
    x = np.arange(PADDED).astype(dtype)
    np.testing.assert_array_equal(run(built, 44, x), (x + dtype(1)).astype(dtype))


def test_pop_stack_buffer_hands_out_the_free_ub(built):
    dtype = dtype_of(built)
    z = run(built, 6, np.zeros(PADDED, dtype))
    assert np.all(z == 4)


def test_cross_core_flag_pair_is_a_barrier_and_a_wait_without_a_set_hangs(built):
    dtype = dtype_of(built)
    x = np.arange(PADDED).astype(dtype)
    np.testing.assert_array_equal(run(built, 7, x), x)
    with pytest.raises(runtime.SimError) as err:
        run(built, 8, x)
    assert f"basic_more.cpp:{simbuild.line_of(KERNEL, 'wait-unset')}" in str(err.value)
    assert "wait forever" in str(err.value)


def test_level0_cast_round_trip(built):
    dtype = dtype_of(built)
    with np.errstate(over="ignore"):       # beyond fp16's range: inf inputs for the half variant
        x = np.random.default_rng(9).uniform(-70000, 70000, PADDED).astype(dtype)
    x[:5] = [np.inf, -np.inf, np.nan, 1e-8, 65519.0]
    z = run(built, 10, x)
    other = np.float16 if dtype == np.float32 else np.float32
    with np.errstate(over="ignore"):       # values past the fp16 range become inf, as on the device
        np.testing.assert_array_equal(z, x.astype(other).astype(dtype))


def test_level0_compare_bits(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(4).uniform(-1, 1, PADDED).astype(dtype)
    x[:3] = [np.nan, 0.0, -0.0]
    z = run(built, 11, x)
    bits = np.packbits(x > 0, bitorder="little")
    np.testing.assert_array_equal(z.view(np.uint8)[: bits.size], bits)


def test_level0_compare_scalar_bits(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(5).uniform(-1, 1, PADDED).astype(dtype)
    x[:4] = [np.nan, 0.25, -0.0, 0.5]
    z = run(built, 29, x, scalar=0.25)
    bits = np.packbits(x <= dtype(0.25), bitorder="little")
    np.testing.assert_array_equal(z.view(np.uint8)[: bits.size], bits)
    z = run(built, 30, x, scalar=0.25)            # the bit mask keeps the even lanes only
    keep = np.arange(PADDED) % 2 == 0
    bits = np.packbits((x > dtype(0.25)) & keep, bitorder="little")
    np.testing.assert_array_equal(z.view(np.uint8)[: bits.size], bits)


def test_an_undefined_lane_leaves_the_other_pair_sums_and_compare_bits_defined(built):
    # the first 32-byte block of the source is unwritten: its pair sums (PairReduceSum) and
    # its bits' bytes (Compare) are undefined and get overwritten; the rest reaches GM
    dtype = dtype_of(built)
    per_block = 32 // np.dtype(dtype).itemsize
    x = np.random.default_rng(6).uniform(-1, 1, PADDED).astype(dtype)
    part = (x + dtype(1)).astype(dtype)
    sums = run(built, 27, x)
    want = (part[0::2].astype(np.float32) + part[1::2].astype(np.float32)).astype(dtype)
    np.testing.assert_array_equal(sums[per_block // 2: PADDED // 2], want[per_block // 2:])
    assert np.all(sums[: per_block // 2] == 0) and np.all(sums[PADDED // 2:] == 0)
    bits = run(built, 28, x).view(np.uint8)
    want_bits = np.packbits(part > x, bitorder="little")
    assert np.all(bits[:16] == 0)
    np.testing.assert_array_equal(bits[16: want_bits.size], want_bits[16:])


def test_init_global_memory_fills_the_output(built):
    dtype = dtype_of(built)
    z = run(built, 12, np.zeros(PADDED, dtype), count=PADDED)
    assert np.all(z == 5)


def test_duplicate_bit_mask_form(built):
    dtype = dtype_of(built)
    z = run(built, 13, np.zeros(PADDED, dtype))
    np.testing.assert_array_equal(z[0::2], 2)
    np.testing.assert_array_equal(z[1::2], 0)


def test_bitwise_and_or_not(built):
    dtype, itype, v = ints(built)
    s = 0x35
    z = run(built, 20, v.view(dtype), scalar=s).view(itype)
    np.testing.assert_array_equal(z, (v & itype(s)) | ~(v | itype(s)))


def test_mul_add_dst(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(8).uniform(-3, 3, PADDED).astype(dtype)
    z = run(built, 21, x)
    # The product rounds to the dtype before the add, as vector.h documents.
    prod = (x.astype(np.float32) * x.astype(np.float32)).astype(dtype)
    np.testing.assert_array_equal(z, (prod.astype(np.float32) + np.float32(1)).astype(dtype))


def test_level0_mul_add_dst_takes_the_masked_lanes_of_each_repeat(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(9).uniform(-3, 3, PADDED).astype(dtype)
    z = run(built, 31, x)
    per_repeat = 256 // np.dtype(dtype).itemsize
    prod = (x.astype(np.float32) * x.astype(np.float32)).astype(dtype)
    want = np.where(np.arange(PADDED) % per_repeat < per_repeat // 2,
                    (prod.astype(np.float32) + np.float32(1)).astype(dtype), dtype(1))
    np.testing.assert_array_equal(z, want)


def test_repeat_reduce_sum(built):
    dtype = dtype_of(built)
    per = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(6).integers(-8, 8, PADDED).astype(dtype)   # small integers: exact sums
    z = run(built, 22, x)
    np.testing.assert_array_equal(z[: PADDED // per], x.reshape(-1, per).astype(np.float64).sum(axis=1).astype(dtype))


def test_high_level_xor_on_int16(built):
    dtype = dtype_of(built)
    v = np.random.default_rng(11).integers(-32768, 32767, PADDED * np.dtype(dtype).itemsize // 2, dtype=np.int16)
    z = run(built, 23, v.view(dtype), scalar=0x1234).view(np.int16)
    np.testing.assert_array_equal(z[:PADDED], v[:PADDED] ^ np.int16(0x1234))


def arith_reference(first, diff, n, dtype):
    """The documented construction: first block first + diff * i in float, then blocks and
    repeats each from the one before plus diff times its length, rounded to dtype each step."""
    block, rep = 32 // np.dtype(dtype).itemsize, 256 // np.dtype(dtype).itemsize
    out = np.zeros(n, dtype)
    f32 = np.float32
    for i in range(n):
        if i < block:
            out[i] = dtype(f32(first) + f32(diff) * f32(i))
        elif i < rep:
            out[i] = dtype(f32(out[i - block]) + f32(dtype(f32(diff) * f32(block))))
        else:
            out[i] = dtype(f32(out[i - rep]) + f32(dtype(f32(diff) * f32(rep))))
    return out


def test_arith_progression_float(built):
    dtype = dtype_of(built)
    z = run(built, 24, np.zeros(PADDED, dtype), count=1000, scalar=-3.0)
    want = arith_reference(dtype(-3.0), dtype(0.1), 1000, dtype)
    np.testing.assert_array_equal(z[:1000], want)
    # Close to the exact sequence, within the accumulated rounding of the repeats.
    exact = -3.0 + float(dtype(0.1)) * np.arange(1000)
    assert np.allclose(z[:1000].astype(np.float64), exact, rtol=0, atol=0.5 if dtype == np.float16 else 1e-3)
    assert np.all(z[1000:] == 0)


def test_arith_progression_int(built):
    dtype, itype, _ = ints(built)
    z = run(built, 25, np.zeros(PADDED, dtype), count=300, scalar=-7).view(itype)
    np.testing.assert_array_equal(z[:300], (-7 + 3 * np.arange(300)).astype(itype))


def test_arith_progression_negative_diff_is_reported(built):
    dtype = dtype_of(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, 26, np.zeros(PADDED, dtype), count=10)
    assert f"basic_more.cpp:{simbuild.line_of(KERNEL, 'arith-negative')}" in str(err.value)
    assert "diffValue -1 is negative" in str(err.value)


def _axpy(x, s, base, dtype):
    """dst = round(x * s) + dst in T, as the sim's level-2 Axpy rounds (the product first)."""
    prod = (x.astype(np.float32) * np.float32(s)).astype(dtype)
    return (prod.astype(np.float32) + np.float32(base)).astype(dtype)


def test_level0_axpy_with_a_continuous_mask(built):
    dtype = dtype_of(built)
    per = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(11).uniform(-4, 4, PADDED).astype(dtype)
    lane = np.arange(PADDED) % per
    z = run(built, 50, x, scalar=1.5)
    np.testing.assert_array_equal(z, np.where(lane < per // 2, _axpy(x, 1.5, 2, dtype), dtype(2)))


def test_level0_axpy_under_the_counter_mask_and_a_bit_mask(built):
    # isSetMask false: the counter set before the call decides the lanes (n - 3 of them), and
    # the repeat count follows from it; then lane 0 of the last repeat once more (bit mask)
    dtype = dtype_of(built)
    per = 256 // np.dtype(dtype).itemsize
    x = np.random.default_rng(12).uniform(-4, 4, PADDED).astype(dtype)
    z = run(built, 51, x, scalar=-0.5)
    want = np.where(np.arange(PADDED) < PADDED - 3, _axpy(x, -0.5, 2, dtype), dtype(2))
    last = PADDED - per
    want[last] = _axpy(x[last:last + 1], -0.5, want[last], dtype)[0]
    np.testing.assert_array_equal(z, want)


def test_enhanced_data_copy_between_ub_tensors_is_the_plain_copy(built):
    dtype = dtype_of(built)
    x = np.random.default_rng(13).uniform(-4, 4, PADDED).astype(dtype)
    np.testing.assert_array_equal(run(built, 52, x), x)
