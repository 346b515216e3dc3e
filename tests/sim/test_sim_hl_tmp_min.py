"""The temporary-space minimums of the normalization, quantization and pad libraries (A2, float
and half): the host's Get<Api>MaxMinTmpSize and tiling-info functions feed the kernel, a
sharedTmpBuffer of exactly the minimum passes, and one 32-byte block less is reported at the
call's line with the block and the figure. The figures are the sim's documented model
(docs/api.md, hl_rules.h): `live` float copies of the unit the API works on, per dtype."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

DT = ("float32", "float16")
OP = OpSpec("HlTmp", (TensorSpec("x", DT),), (TensorSpec("z", DT),),
            (AttrSpec("which", "int", required=True), AttrSpec("shrink", "int", required=True)))
N = 8 * 64
KERNEL = Path(__file__).parent / "pkgs" / "hltmp" / "op_kernel" / "hl_tmp.cpp"


@pytest.fixture(scope="module", params=list(DT))
def built(request, pkgs, soc910b, lib_cache):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == request.param)
    return simbuild.build(pkgs / "hltmp", OP, variant, soc910b, lib_cache, stem="hl_tmp")


def run(built, which, shrink=0):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = np.random.default_rng(5).uniform(-2, 2, N).astype(dtype)
    out = {"z": np.zeros(N, dtype)}
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, out,
                     {"which": which, "shrink": shrink})
    return x, out["z"]


# which, API name (and kernel marker), minimum bytes for (float, half): live copies x unit bytes
CASES = [
    (1, "LayerNorm", 2 * 256, 3 * 256),            # a row of H = 64 in float
    (2, "RmsNorm", 1 * 256, 2 * 256),
    (3, "DeepNorm", 2 * 256, 3 * 256),
    (4, "BatchNorm", 2 * 8 * 32, 3 * 8 * 32),      # B = 8 rows of one 32-byte strip
    (5, "GroupNorm", 2 * 512, 3 * 512),            # one group: 2 channels of 8 x 8
    (6, "LayerNormGrad", 6 * 256, 9 * 256),        # CANN's buffer counts
    (7, "LayerNormGradBeta", 2 * 256, 4 * 256),
    (8, "WelfordUpdate", 2 * 128, 3 * 128),        # elementwise: 32-element float blocks
    (9, "AscendQuant", 128, 128),
    (10, "AscendDequant", 256, 256),               # a row of 64 int32 in float
    (11, "AscendAntiQuant", None, 2 * 256),        # half only
    (12, "Pad", 256, 128),                         # a row of 64 elements of T
    (13, "UnPad", 256, 128),
    (14, "Broadcast", 8 * 32, 8 * 32),             # [8, 1] -> [8, 64]: a 32-byte block per source row
    (15, "Normalize", 256, 2 * 256),
    (16, "ReduceXorSum", 256, 256),                # int16: 32-element blocks
]


# (dtype, which, api, minimum) for every API that has a form in that dtype
MINIMA = [(dt, which, api, f32 if dt == "float32" else f16)
          for dt in DT for which, api, f32, f16 in CASES
          if (f32 if dt == "float32" else f16) is not None]


@pytest.mark.parametrize("built,which,api,need", MINIMA, indirect=["built"],
                         ids=[f"{m[2]}-{m[0]}" for m in MINIMA])
def test_minimum_passes_and_one_block_less_is_reported(built, which, api, need):
    run(built, which)                                  # the host's minimum is enough
    with pytest.raises(runtime.SimError) as err:
        run(built, which, shrink=32)
    msg = str(err.value)
    assert f"hl_tmp.cpp:{simbuild.line_of(KERNEL, api.lower())}: block 0 of 1: " in msg
    assert f"sharedTmpBuffer holds {need - 32} bytes but {api} needs at least {need} bytes" in msg


def test_host_tiling_drives_layernorm_and_rmsnorm(built):
    # the shape fields come from GetLayerNormNDTilingInfo / GetRmsNormTilingInfo alone
    dtype = np.dtype(built.variant.dtype_of("x")).type
    eps = float(np.float64(np.float32(1e-5).astype(dtype)))
    x, z = run(built, 1)
    v = x.reshape(8, 64).astype(np.float64)
    m, var = v.mean(axis=1, keepdims=True), v.var(axis=1, keepdims=True)
    want = ((v - m) / np.sqrt(var + eps) + 1.0).astype(np.float32).astype(dtype)
    np.testing.assert_array_equal(z.reshape(8, 64), want)
    x, z = run(built, 2)
    want = (v / np.sqrt((v ** 2).mean(axis=1, keepdims=True) + eps)).astype(np.float32).astype(dtype)
    np.testing.assert_array_equal(z.reshape(8, 64), want)
