"""Cast-unit and register APIs on the sim (A2): AddReluCast/SubReluCast (count and level-0 forms,
every dtype pair), MulCast, AddDeqRelu with SetDeqScale, the CMPMASK register (Compare without
dst, GetCmpMask, SetCmpMask), GetAccVal after ReduceSum, Gatherb, Scatter, DumpAccChkPoint,
BilinearInterpolation and the vector SetDeqScale layout, against NumPy; and their diagnostics at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "CastOps",
    (TensorSpec("x", ("int32",)), TensorSpec("y", ("int32",))),
    (TensorSpec("z", ("int32",)),),
    (AttrSpec("which", "int", required=True), AttrSpec("scalar", "float", 1.0)),
)
WORDS = 256
KERNEL = Path(__file__).parent / "pkgs" / "castops" / "op_kernel" / "cast_ops.cpp"
RNG = np.random.default_rng(17)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")   # NumPy on the inf/NaN edge values


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "castops", OP, OP.variant("int32"), soc910b, lib_cache, stem="cast_ops")


def run(built, which, x, y, scalar=1.0, info=False):
    z = np.zeros(WORDS, np.int32)
    ri = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                          {"x": np.ascontiguousarray(x).view(np.int32), "y": np.ascontiguousarray(y).view(np.int32)},
                          {"z": z}, {"which": which, "scalar": scalar})
    return (z, ri) if info else z


def sat(v, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(np.nan_to_num(v, nan=0.0)), info.min, info.max).astype(dtype)


def floats(n, dtype, scale=200.0):
    v = RNG.uniform(-scale, scale, n).astype(dtype)
    v[:4] = [np.inf, -np.inf, np.nan, -0.0]
    return v


def test_add_relu_cast_float_to_half(built):
    x, y = floats(WORDS, np.float32, 7e4), floats(WORDS, np.float32, 7e4)
    got = run(built, 1, x, y).view(np.float16)[:WORDS]
    want = np.maximum(x + y, 0).astype(np.float16)            # relu keeps NaN; 7e4 sums overflow half
    want[np.isnan(x + y)] = np.nan
    np.testing.assert_array_equal(got, want)


def test_sub_relu_cast_half_to_int8(built):
    x, y = floats(2 * WORDS, np.float16), floats(2 * WORDS, np.float16)
    got = run(built, 2, x, y).view(np.int8)[:WORDS]
    d = (x[:WORDS] - y[:WORDS]).astype(np.float16).astype(np.float64)
    np.testing.assert_array_equal(got, sat(np.maximum(d, 0), np.int8))


def test_add_relu_cast_int16_level0(built):
    x = RNG.integers(-300, 300, 2 * WORDS).astype(np.int16)
    y = RNG.integers(-300, 300, 2 * WORDS).astype(np.int16)
    got = run(built, 3, x, y).view(np.int8)
    s = x.astype(np.int64) + y
    want = sat(np.maximum(s, 0), np.int8).reshape(-1, 128)
    # dstRepStride 4: each repeat's 128 int8 results take the next 4 blocks
    np.testing.assert_array_equal(got.reshape(-1, 128)[: want.shape[0]], want)


def test_sub_relu_cast_float_level0_bit_mask(built):
    x, y = floats(WORDS, np.float32, 100.0), floats(WORDS, np.float32, 100.0)
    got = run(built, 4, x, y).view(np.float16).reshape(-1, 64)[: WORDS // 64]
    want = np.maximum(x - y, 0).astype(np.float16)
    want[np.isnan(x - y)] = np.nan
    want = want.reshape(-1, 64)
    np.testing.assert_array_equal(got[:, 0::2], want[:, 0::2])
    assert np.all(got[:, 1::2] == 0)                        # lanes the mask leaves out: untouched


def test_mul_cast(built):
    x, y = floats(2 * WORDS, np.float16, 30.0), floats(2 * WORDS, np.float16, 30.0)
    got = run(built, 5, x, y).view(np.int8)[:WORDS]
    np.testing.assert_array_equal(got, sat((x[:WORDS] * y[:WORDS]).astype(np.float64), np.int8))
    got = run(built, 6, x, y).view(np.uint8).reshape(-1, 128)[:4]    # 4 repeats, 128 bytes apart
    p = (x * y).astype(np.float64).reshape(-1, 128)
    np.testing.assert_array_equal(got[:, :100], sat(p[:, :100], np.uint8))
    assert np.all(got[:, 100:] == 0)


def test_add_deq_relu(built):
    x = RNG.integers(-5000, 5000, WORDS).astype(np.int32)
    y = RNG.integers(-5000, 5000, WORDS).astype(np.int32)
    x[0], y[0] = np.iinfo(np.int32).max, 1                  # the integer adder wraps
    got = run(built, 7, x, y, scalar=0.25).view(np.float16)[:WORDS]
    s = (x.astype(np.int64) + y + 2**31) % 2**32 - 2**31
    np.testing.assert_array_equal(got, np.maximum(s * 0.25, 0).astype(np.float16))


def test_add_deq_relu_without_scale_is_reported(built):
    x = np.zeros(WORDS, np.int32)
    with pytest.raises(runtime.SimError) as err:
        run(built, 8, x, x)
    assert f"cast_ops.cpp:{simbuild.line_of(KERNEL, 'no-deq')}" in str(err.value)
    assert "SetDeqScale(half) first" in str(err.value)


def test_cmp_mask_register(built):
    x, y = floats(WORDS, np.float32, 5.0), floats(WORDS, np.float32, 5.0)
    got = run(built, 9, x, y)
    want = np.packbits((x[:64] < y[:64]), bitorder="little")
    np.testing.assert_array_equal(got[:4].view(np.uint8)[:8], want)
    assert np.all(got[:4].view(np.uint8)[8:] == 0)          # a float repeat has 64 lanes: 64 bits
    np.testing.assert_array_equal(got[8:12], y.view(np.int32)[8:12])


def test_get_acc_val_reads_the_reduce_sum(built):
    x = RNG.uniform(-1, 1, WORDS).astype(np.float32)
    got = run(built, 10, x, x)
    assert got[0] == got[1]                                 # GetAccVal(): the same bits as dst
    assert got[2] == got[0]                                 # GetAccVal<float>()
    assert abs(got[:1].view(np.float32)[0] - x.astype(np.float64).sum()) < 1e-4


def test_gatherb_and_scatter(built):
    x = np.arange(WORDS, dtype=np.int32) * 3
    blocks = WORDS // 8
    perm = RNG.permutation(blocks).astype(np.int32)
    y = np.zeros(WORDS, np.int32)
    y[:blocks] = perm * 32
    got = run(built, 11, x, y)
    np.testing.assert_array_equal(got[: blocks * 8].reshape(blocks, 8), x.reshape(blocks, 8)[perm])
    dest = RNG.permutation(WORDS).astype(np.int32)
    got = run(built, 12, x, dest * 4)
    want = np.zeros(WORDS, np.int32)
    want[dest] = x
    np.testing.assert_array_equal(got, want)
    got = run(built, 13, x, dest * 4)                        # level 0: 32 lanes of each 64
    lanes = (np.arange(WORDS) % 64) < 32
    want = np.zeros(WORDS, np.int32)
    want[dest[lanes]] = x[lanes]
    np.testing.assert_array_equal(got, want)


def test_gatherb_and_scatter_bad_offsets_are_reported(built):
    x = np.arange(WORDS, dtype=np.int32)
    y = np.zeros(WORDS, np.int32)
    y[3] = 40
    with pytest.raises(runtime.SimError) as err:
        run(built, 11, x, y)
    assert f"cast_ops.cpp:{simbuild.line_of(KERNEL, 'gatherb')}" in str(err.value)
    assert "offset 3 is 40, not a multiple of 32" in str(err.value)
    y = np.arange(WORDS, dtype=np.int32) * 4
    y[9] = WORDS * 4
    with pytest.raises(runtime.SimError) as err:
        run(built, 12, x, y)
    assert f"cast_ops.cpp:{simbuild.line_of(KERNEL, 'scatter')}" in str(err.value)
    assert f"element 9 goes to byte {WORDS * 4}, past dst's {WORDS * 4} bytes" in str(err.value)


def _bilinear_inputs(perm, weights):
    x = np.arange(1, 513, dtype=np.float16)
    y = np.zeros(WORDS, np.int32)
    y[:32] = perm * 32                                         # byte offsets of x's 32 blocks
    y.view(np.float16)[128:160] = weights
    return x, y


@pytest.mark.parametrize("mode", [0, 1, 3])
def test_bilinear_interpolation_gathers_weights_and_sums_as_documented(built, mode):
    """The devkit's steps: repeat r = 2i + j gathers 8 blocks of src0 by byte offset, multiplies
    them by weight r (repeatMode false) or 8r + b (true), the two horizontal repeats summed in
    half; the masked lanes land at i * vROffset (128) elements."""
    perm = RNG.permutation(32).astype(np.int32)
    weights = RNG.integers(1, 9, 32).astype(np.float16) / np.float16(4)
    x, y = _bilinear_inputs(perm, weights)
    got = run(built, 16, x.view(np.int32), y, scalar=float(mode)).view(np.float16)[:256].reshape(2, 128)
    blocks = x.reshape(32, 16)[perm].reshape(4, 8, 16)          # repeat, block, element
    w = (weights.reshape(4, 8) if mode & 1 else np.repeat(weights[:4, None], 8, axis=1))[:, :, None]
    products = (blocks * w).astype(np.float16).reshape(2, 2, 128)
    want = (products[:, 0] + products[:, 1]).astype(np.float16)
    if mode & 2:
        want[:, 100:] = 0                                       # lanes the mask leaves alone
    np.testing.assert_array_equal(got, want)


def test_bilinear_interpolation_with_too_small_a_work_buffer_warns_at_its_line(built):
    """The A2 gathers into sharedTmpBuffer (4 repeats x 256 bytes, then 32 weights x 32 bytes):
    a 1024-byte one runs into the UB after it, as on the device."""
    x, y = _bilinear_inputs(np.arange(32, dtype=np.int32), np.ones(32, np.float16))
    _, info = run(built, 17, x.view(np.int32), y, info=True)
    line = simbuild.line_of(KERNEL, "bilinear")
    assert any(f"warning: {KERNEL}:{line}: BilinearInterpolation: sharedTmpBuffer needs 2048 bytes" in l
               for l in info.log), info.log
    y[5] = 40
    with pytest.raises(runtime.SimError) as err:
        run(built, 16, x.view(np.int32), y)
    assert f"cast_ops.cpp:{line}" in str(err.value)
    assert "src0Offset[5] is 40, not a multiple of 32 bytes" in str(err.value)


def test_bilinear_interpolation_is_not_declared_where_the_soc_lacks_it(pkgs, lib_cache):
    """Its documentation's product table leaves out the 310B (and the 910): there a kernel calling
    it does not compile, and the error names it."""
    from opkg.core.socs import get_soc

    with pytest.raises(simbuild.CompileError, match="'BilinearInterpolation' was not declared|"
                                                    "‘BilinearInterpolation’ was not declared"):
        simbuild.build(pkgs / "castops", OP, OP.variant("int32"), get_soc("Ascend310B1"), lib_cache,
                       stem="cast_ops")


def test_dump_acc_chk_point_logs_the_slice(built):
    x = np.arange(WORDS, dtype=np.int32) + 100
    _, info = run(built, 14, x, x, info=True)
    log = "\n".join(info.log)
    assert "[block 0] DumpTensor UB@0+2 desc=5 size=3: 102 103 104" in log
    assert "[block 0] DumpTensor GM+1 desc=6 size=2: 101 102" in log


def test_vector_deq_scale_layout(built):
    z = run(built, 15, np.zeros(WORDS, np.int32), np.zeros(WORDS, np.int32)).view(np.uint64)[:16]
    i = np.arange(16)
    want = (np.float32(0.5) * i).astype(np.float32).view(np.uint32).astype(np.uint64)
    want |= ((i - 8).astype(np.int64) & 0x1FF).astype(np.uint64) << np.uint64(37)
    want |= (i % 2 == 0).astype(np.uint64) << np.uint64(46)
    np.testing.assert_array_equal(z, want)
