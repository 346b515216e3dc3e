"""Fixpipe's 8-bit quantisation, channel merge and channel split, and the per-channel values
through the fixpipe buffer (L1 -> C2PIPE2GM, SetFixPipeConfig, DataCopy CO1 -> GM), against a
NumPy model of asc-devkit's documentation ("随路量化", "随路量化与随路ReLU场景组合", "Int8 Channel
Merge", "F32 Channel Split"; keys 28-33 of tests/sim/pkgs/cubeapi/op_kernel/cube_api.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.sim import runtime
import simbuild
from test_sim_cube import KERNEL, OP, operands


def quant_value(scale, offset=0, sign=True, mcb=False, shift=1) -> np.uint64:
    bits = int(np.array([scale], np.float32).view(np.uint32)[0])
    return np.uint64(bits | ((shift - 1) << 32) | (int(mcb) << 36) | ((offset & 0x1FF) << 37) | (int(sign) << 46))


def b8(x, scale, offset, sign, relu=False):
    """The documented pipeline: M1 for x >= 0, M2 (M1, or 0 with ReLU) for x < 0, the scale read as
    (1, 8, 10) bits, saturated to [-256, 255], rounded half to even, plus the offset, saturated to
    int8 (Sign 1) or uint8."""
    m1 = (np.asarray(scale, np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    x = x.astype(np.float32)
    y = np.where(x >= 0, x * m1, np.float32(0) if relu else x * m1).astype(np.float32)
    r = np.rint(np.clip(y, -256, 255)).astype(np.int32) + offset
    return np.clip(r, -128, 127).astype(np.int8) if sign else np.clip(r, 0, 255).astype(np.uint8)


def run_raw(built, which, m, n, k, a, b):
    c = np.full(m * n, -1, dtype=np.dtype(built.variant.dtype_of("c")))
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"a": a, "b": b.ravel()},
                     {"c": c}, {"which": which, "m": m, "n": n, "k": k})
    return c


@pytest.fixture(scope="module")
def int8(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "cubeapi", OP, OP.variant("int8_int32"), soc910b, lib_cache, stem="cube_api")


def with_channels(a, values):
    """a's bytes, then at the next 32-byte boundary the per-channel uint64 values (keys 29, 30, 33)."""
    head = a.ravel().view(np.uint8)
    pad = np.zeros(-len(head) % 32, np.uint8)
    return np.concatenate([head, pad, np.asarray(values, np.uint64).view(np.uint8)]).view(np.int8)


def test_req8_scalar_to_int8(int8):
    m, n, k = 20, 40, 64
    a, b, want = operands(int8, m, n, k, seed=5)
    got = run_raw(int8, 28, m, n, k, a.ravel(), np.ascontiguousarray(b.T))
    out = got.view(np.int8)[:m * n].reshape(m, n)
    expect = b8(want, 0.05, 3, True)
    assert (expect == 127).any() and (expect == -128).any()   # both saturations taken
    np.testing.assert_array_equal(out, expect)


def test_vreq8_per_channel_relu_uint8_merges_int8_fractals(int8):
    # N = 48: columns 0..31 as one 16 x 32 Z fractal column, 32..47 alone (16 wide)
    m, n, k = 20, 48, 64
    a, b, want = operands(int8, m, n, k, seed=6)
    scales = (0.01 * (np.arange(n) % 7 + 1)).astype(np.float32)
    values = [quant_value(s, offset=j % 5, sign=False) for j, s in enumerate(scales)]
    got = run_raw(int8, 29, m, n, k, with_channels(a, values), np.ascontiguousarray(b.T))
    out = got.view(np.uint8)[:m * n]
    expect = np.stack([b8(want[:, j], scales[j], j % 5, False, relu=True) for j in range(n)], axis=1)
    assert (want < 0).any() and (expect == 255).any()
    nz = np.concatenate([expect[:, :32].ravel(), expect[:, 32:].ravel()])
    np.testing.assert_array_equal(out, nz)


def test_vreq8_through_the_fixpipe_buffer_and_set_fix_pipe_config(int8):
    m, n, k = 20, 48, 64
    a, b, want = operands(int8, m, n, k, seed=8)
    scales = (0.02 * (np.arange(n) % 5 + 1)).astype(np.float32)
    values = [quant_value(s, offset=-(j % 3), sign=True) for j, s in enumerate(scales)]
    got = run_raw(int8, 30, m, n, k, with_channels(a, values), np.ascontiguousarray(b.T))
    out = got.view(np.int8)[:m * n].reshape(m, n)
    expect = np.stack([b8(want[:, j], scales[j], -(j % 3), True) for j in range(n)], axis=1)
    np.testing.assert_array_equal(out, expect)
    # without SetFixPipeConfig the vector mode has no values: an error at the DataCopy
    with pytest.raises(runtime.SimError) as err:
        run_raw(int8, 33, m, n, k, with_channels(a, values), np.ascontiguousarray(b.T))
    assert f"cube_api.cpp:{simbuild.line_of(KERNEL, 'vreq8')}" in str(err.value)
    assert "no SetFixPipeConfig set the quantisation tensor" in str(err.value)


def test_channel_split_writes_8_column_z_blocks(pkgs, soc910b, lib_cache):
    fp32 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("float32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 24, 40
    a, b, want = operands(fp32, m, n, k, seed=4)
    got = run_raw(fp32, 31, m, n, k, a.ravel(), np.ascontiguousarray(b.T))
    blocks = np.concatenate([want[:, j:j + 8].ravel() for j in range(0, n, 8)])
    np.testing.assert_allclose(got, blocks, rtol=1e-5, atol=1e-5)


def test_qf322b8_float_to_int8_ignores_mcb(pkgs, soc910b, lib_cache):
    fp16 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("float16_float32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 40, 64
    a, b, _ = operands(fp16, m, n, k, seed=9)
    got = run_raw(fp16, 32, m, n, k, a.ravel(), np.ascontiguousarray(b.T))
    out = got.view(np.int8)[:m * n].reshape(m, n)
    # the product in float32 as the cube sums it (k order); the values are far from rounding ties
    c = a.astype(np.float32) @ b.astype(np.float32)
    expect = b8(c, 40.0, -2, True)
    assert (expect == 127).any() and (expect == -128).any()
    np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("which", [34, 38, 40], ids=["FixpipeParamsV220", "FixpipeParams<T>", "DataCopyCO12DstParams"])
def test_fixpipe_into_l1_feeds_a_second_product(pkgs, soc910b, lib_cache, which):
    # C = a x b leaves CO1 for L1 as half in the NZ layout an A operand has; c = half(C) x b
    fp16 = simbuild.build(pkgs / "cubeapi", OP, OP.variant("float16_float32"), soc910b, lib_cache, stem="cube_api")
    m, n, k = 20, 32, 32
    a, b, _ = operands(fp16, m, n, k, seed=11)
    got = run_raw(fp16, which, m, n, k, a.ravel(), np.ascontiguousarray(b.T))
    first = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    want = first.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got.reshape(m, n), want, rtol=1e-4, atol=1e-3)
