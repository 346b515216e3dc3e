"""The breadth of the high-level Matmul API on the sim (hl_matmul.h) and of its host tiling
(host_matmul_tiling.h): batched products (IterateBatch, IterateNBatch with GetBatchTensorC /
GetBatchC), asynchronous blocks (AsyncGetTensorC, WaitGetTensorC, GetOffsetC), int8 weights
anti-quantised on the way in (SetAntiQuantScalar / SetAntiQuantVector), A and B from UB
(SetTensorAWithCopy / SetTensorBWithCopy), DisableBias / ClearBias, SetSingleShape,
InitKfcClient, A or B already in NZ (an L1 LocalTensor, or GM in NZ format), the pattern ReduceSum of
Atlas A2 (BatchMatMulV3's vector path); each against NumPy, misuse reported at the kernel's line. The host keys check what
MatmulApiTiling, MultiCoreMatmulTiling and BatchMatmulTiling put in the tiling for their setters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import flags, runtime
from opkg.sim.runtime import SimModes
import simbuild

OP = OpSpec(
    "MmApi",
    (TensorSpec("a", ("float16",)), TensorSpec("b", ("float16",)), TensorSpec("w", ("int8",)),
     TensorSpec("v", ("float16",)), TensorSpec("bias", ("float32",))),
    (TensorSpec("c", ("float32",)),),
    tuple(AttrSpec(n, "int", required=True) for n in ("which", "m", "n", "k", "batch")),
)
KERNEL = Path(__file__).parent / "pkgs" / "mmapi" / "op_kernel" / "mm_api.cpp"
# TCubeTiling's 50 int32 fields, then batch and got[16] (op_host/mm_api_tiling.h)
FIELDS = ("usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN "
          "isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN singleBatchM "
          "singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C ALayoutInfoB ALayoutInfoS "
          "ALayoutInfoN ALayoutInfoG ALayoutInfoD BLayoutInfoB BLayoutInfoS BLayoutInfoN BLayoutInfoG BLayoutInfoD "
          "CLayoutInfoB CLayoutInfoS1 CLayoutInfoN CLayoutInfoG CLayoutInfoS2 BatchNum mxTypePara").split()


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "mmapi", OP, OP.variants()[0], soc910b, lib_cache, stem="mm_api")


def line_of(tag):
    return next(i for i, t in enumerate(KERNEL.read_text().splitlines(), 1) if f"@{tag}" in t)


def inputs(m, n, k, batch, seed=0):
    rng = np.random.default_rng(seed)
    return {"a": rng.uniform(-1, 1, (batch, m, k)).astype(np.float16),
            "b": rng.uniform(-1, 1, (batch, k, n)).astype(np.float16),
            "w": rng.integers(-128, 128, (k, n), dtype=np.int8),
            "v": np.concatenate([rng.uniform(-4, 4, n), rng.uniform(0.001, 0.05, n)]).astype(np.float16),
            "bias": rng.uniform(-1, 1, n).astype(np.float32)}


def run(built, which, m=32, n=48, k=32, batch=1, seed=0, modes=SimModes()):
    ins = inputs(m, n, k, batch, seed)
    c = np.full((batch, m, n), np.nan, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, ins, {"c": c},
                     {"which": which, "m": m, "n": n, "k": k, "batch": batch}, modes=modes)
    return c, ins


def product(a, b):
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


@pytest.mark.parametrize("which", [1, 2, 3, 28], ids=["IterateBatch", "IterateBatch-async", "IterateNBatch",
                                                   "IterateBatch-current-form"])
def test_batched_products(built, which):
    got, ins = run(built, which, batch=3)
    np.testing.assert_allclose(got, product(ins["a"], ins["b"]), rtol=1e-5, atol=1e-4)


def test_async_blocks_placed_by_their_offset(built):
    # with the pipeline hazard check on: WaitGetTensorC orders the vector reads after the copy
    got, ins = run(built, 4, m=48, n=64, k=32, modes=SimModes(sync_check=True))
    np.testing.assert_allclose(got, product(ins["a"], ins["b"]), rtol=1e-5, atol=1e-4)


def antiquantised(w, off, scale):
    """(w + offset) * scale, each step rounded to half as the vector unit computes it."""
    shifted = (w.astype(np.float16).astype(np.float32) + off.astype(np.float32)).astype(np.float16)
    return (shifted.astype(np.float32) * scale.astype(np.float32)).astype(np.float16)


@pytest.mark.parametrize("which", [5, 6], ids=["scalar", "per-column"])
def test_int8_weights_anti_quantised(built, which):
    m, n, k = 32, 48, 64
    got, ins = run(built, which, m=m, n=n, k=k)
    v = ins["v"]
    off, scale = (v[0], v[1]) if which == 5 else (v[None, :n], v[None, n:])
    b = antiquantised(ins["w"], np.asarray(off), np.asarray(scale))
    want = np.zeros((m, n), np.float32)   # the cube: exact products summed in k order in float
    a32 = ins["a"][0].astype(np.float32)
    for kk in range(k):
        want += a32[:, kk:kk + 1] * b[kk:kk + 1, :].astype(np.float32)
    np.testing.assert_array_equal(got[0], want)
    # the rounding to half between the steps shows: plain float anti-quantisation differs
    loose = (ins["w"].astype(np.float32) + np.asarray(off, np.float32)) * np.asarray(scale, np.float32)
    assert not np.array_equal(b.astype(np.float32), loose)


@pytest.mark.parametrize("which", [7, 8, 9, 10, 11, 25, 29],
                         ids=["WithCopy", "DisableBias", "ClearBias", "SetSingleShape", "InitKfcClient",
                              "Iterate-after-SetTensorB", "C-in-VECIN-IterateAll-to-GM"])
def test_plain_product_through_other_entries(built, which):
    got, ins = run(built, which)
    np.testing.assert_allclose(got, product(ins["a"], ins["b"]), rtol=1e-5, atol=1e-4)


def test_a_float_product_quantised_to_int8(built):
    # SetQuantScalar with half A and B and an int8 C: the fixpipe's QF322B8_PRE (the scale read as
    # Fixpipe reads it, here 0.25 exactly; rounded to nearest even; offset 3; saturated to int8)
    m, n = 32, 48
    got, ins = run(built, 30, m=m, n=n)
    c = product(ins["a"], ins["b"]).astype(np.float32)[0] * np.float32(0.25)
    want = np.clip(np.rint(np.clip(c, -256, 255)) + 3, -128, 127).astype(np.int8)
    np.testing.assert_array_equal(got.ravel().view(np.int8)[:m * n].reshape(m, n), want)


@pytest.mark.parametrize("which,tag,words", [
    (12, "nbatch", "SetWorkspace"),
    (13, "one-too-many", "no IterateNBatch result left"),
    (14, "wait-batch", "without an asynchronous IterateBatch"),
])
def test_misuse_is_reported_at_its_line(built, which, tag, words):
    with pytest.raises(runtime.SimError) as e:
        run(built, which, batch=2)
    assert f"mm_api.cpp:{line_of(tag)}" in str(e.value) and words in str(e.value)


def test_reading_an_async_block_before_the_wait_is_a_race(built):
    with pytest.raises(runtime.SimError) as e:
        run(built, 15, m=48, n=64, k=32, modes=SimModes(sync_check=True))
    assert f"mm_api.cpp:{line_of('early-read')}" in str(e.value)
    run(built, 15, m=48, n=64, k=32)   # the race is the hazard check's to report


def nz(x):
    """x (rows x cols) laid out NZ: 16-column groups (32 bytes of half), each its rows rounded
    up to the 16-row fractal (zeros below) of 16 elements one after another."""
    rows, cols = x.shape
    out = np.zeros((cols // 16, -(-rows // 16) * 16, 16), x.dtype)
    out[:, :rows, :] = x.reshape(rows, cols // 16, 16).transpose(1, 0, 2)
    return out


@pytest.mark.parametrize("which", [16, 17, 18], ids=["A-in-L1", "A-NZ-in-GM", "B-in-L1"])
def test_inputs_in_nz_from_l1_or_gm(built, which):
    # M = 40 is not a whole fractal: the NZ height is 48 rows, in L1 as in GM
    m, n, k = 40, 48, 32
    ins = inputs(m, n, k, 1)
    a, b = ins["a"][0], ins["b"][0]
    if which == 17:
        ins["a"] = nz(a)
        assert not np.array_equal(ins["a"].reshape(-1)[:m * k], a.reshape(-1))   # the layout matters
    c = np.full((1, m, n), np.nan, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, ins, {"c": c},
                     {"which": which, "m": m, "n": n, "k": k, "batch": 1})
    np.testing.assert_allclose(c[0], product(a, b), rtol=1e-5, atol=1e-4)


def test_an_l1_input_smaller_than_the_product_reads_is_reported(built):
    with pytest.raises(runtime.SimError) as e:
        run(built, 19, m=40, n=48, k=32)
    msg = str(e.value)
    assert f"mm_api.cpp:{line_of('nz-product')}" in msg
    assert "A needs 3072 bytes but the LocalTensor holds only 256 half elements" in msg


def iterate_order(t, m, n):
    """The base blocks (m, n) in the devkit's order (scheduler_mdl_base.h): iterateOrder 0 runs N
    within a step of stepN blocks, M within a step of stepM, then M's steps, then N's."""
    mi, ni = -(-m // t["baseM"]), -(-n // t["baseN"])
    sm, sn = max(t["stepM"], 1), max(t["stepN"], 1)
    order = []
    if t["iterateOrder"] == 0:
        for nb in range(0, ni, sn):
            for mb in range(0, mi, sm):
                order += [(i, j) for i in range(mb, min(mb + sm, mi)) for j in range(nb, min(nb + sn, ni))]
    else:
        for mb in range(0, mi, sm):
            for nb in range(0, ni, sn):
                order += [(i, j) for j in range(nb, min(nb + sn, ni)) for i in range(mb, min(mb + sm, mi))]
    return order


def test_blocks_handed_out_of_the_workspace_in_iterate_order(built):
    m, n, k = 48, 64, 32
    got, ins = run(built, 21, m=m, n=n, k=k)
    t, _ = tiling(built, 21, m=m, n=n, k=k)
    want = product(ins["a"][0], ins["b"][0])
    bm, bn = t["baseM"], t["baseN"]
    blocks = got.reshape(-1, bm, bn)
    order = iterate_order(t, m, n)
    assert len(order) == len(blocks) == (m // bm) * (n // bn) > 1
    for blk, (i, j) in zip(blocks, order):
        np.testing.assert_allclose(blk, want[i * bm:(i + 1) * bm, j * bn:(j + 1) * bn], rtol=1e-5, atol=1e-4)


def test_one_block_too_many_out_of_the_workspace_is_reported(built):
    with pytest.raises(runtime.SimError) as e:
        run(built, 22, m=48, n=64, k=32)
    assert f"mm_api.cpp:{line_of('ws-block')}" in str(e.value)
    assert "all 12 base blocks of the share were handed out already" in str(e.value)


@pytest.mark.parametrize("which", [23, 24, 26], ids=["AIC_ONLY-key", "mixed-key", "AIC_ONLY-without-End"])
def test_core_type_follows_the_keys_declared_task_type(built, which):
    # both keys run their product only on the core type they declare; the AIC body runs on one
    # core of each AI core's pair (GetBlockIdx 0 exists once), or C would be stored twice
    got, ins = run(built, which)
    np.testing.assert_allclose(got, product(ins["a"], ins["b"]), rtol=1e-5, atol=1e-4)


def test_the_cube_body_counts_ai_cores(built):
    # an AIC-only key on 4 AI cores (8 AIVs): each cube body is one AI core, GetBlockIdx 0..3,
    # GetSubBlockIdx 0 (the AIV pair's index counted AIV cores: 0, 2, 4, 6)
    got, _ = run(built, 27)
    assert list(got.reshape(-1)[:4]) == [0, 1, 2, 3]
    assert np.isnan(got.reshape(-1)[4:]).all()


def test_core_type_flags_only_for_kernels_declaring_a_cube_key():
    assert flags.core_type_flags(["KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);"]) == []
    assert flags.core_type_flags(["// KERNEL_TYPE_AIC_ONLY in a comment"]) == []
    f = flags.core_type_flags(["x", "KERNEL_TASK_TYPE(1, KERNEL_TYPE_AIC_ONLY);"])
    assert f[0] == "-include" and f[1].endswith("opkg_sim/runtime/core_by_task_type.h")
    # a template kernel's selection group declaring a cube-only instance (ops-nn's MatMulV3)
    assert flags.core_type_flags(["ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY),"]) == f
    assert flags.core_type_flags(["ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),"]) == []


def test_pattern_reduce_sum_on_atlas_a2_reads_rows_32_bytes_apart(built):
    got, ins = run(built, 20)
    rows = ins["bias"].reshape(6, 8)[:, :5]       # 5 floats of each 8-float (32-byte) row
    np.testing.assert_allclose(got.reshape(-1)[:6], rows.sum(axis=1), rtol=1e-6)
    assert not np.allclose(rows.sum(axis=1), ins["bias"][:30].reshape(6, 5).sum(axis=1))   # dense would differ


def tiling(built, which, m=96, n=80, k=64, batch=1):
    ins = inputs(m, n, k, batch)
    _, raw = runtime.run_tiling(built.host, OP, built.variant, built.soc, ins, {"c": (batch, m, n)},
                                {"which": which, "m": m, "n": n, "k": k, "batch": batch})
    words = np.frombuffer(raw[:4 * (len(FIELDS) + 17)], "<i4")
    return dict(zip(FIELDS, words[:len(FIELDS)].tolist())), words[len(FIELDS) + 1:].tolist()


def test_host_split_range_double_buffer_and_buffer_sizes(built):
    t, got = tiling(built, 100)
    assert (t["baseM"], t["baseN"], t["baseK"]) == (64, 32, 32) == tuple(got[:3])
    assert (t["depthA1"], t["depthB1"], t["dbL0C"], t["iterateOrder"], t["isBias"]) == (1, 2, 2, 1, 1)
    l1 = 64 * 32 * 2 + 2 * 32 * 32 * 2 + 32 * 4   # one A block, two B blocks, the bias row
    assert t["shareL1Size"] == l1 and t["shareL0CSize"] == 2 * 64 * 32 * 4
    assert got[3:9] == [0, l1, 2 * 64 * 32 * 4] * 2


@pytest.mark.parametrize("which,words", [(101, "minimum above its maximum"), (104, "int8"),
                                         (108, "float16, bfloat16, int8 or float")])
def test_host_rejects_contradictions(built, which, words):
    with pytest.raises(runtime.SimError) as e:
        tiling(built, which)
    assert "returned failure" in str(e.value) or words in str(e.value)


def test_host_multicore_single_range(built):
    # 96 x 64 over 8 cores: unbounded, 2 x 4 shares of 48 x 16; at most 32 x 32, 3 x 2 of them
    t, got = tiling(built, 102, m=96, n=64)
    assert (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"]) == (32, 32, 64) == tuple(got[:3])
    assert got[3:6] == [6, 3, 2] and t["usedCoreNum"] == 6
    assert got[6] == t["shareL1Size"] and got[7] == t["shareL0CSize"]


def test_host_batch_layouts(built):
    t, got = tiling(built, 103, batch=4)
    assert [t[f"ALayoutInfo{x}"] for x in "BSNGD"] == [4, 96, 1, 1, 64]
    assert [t[f"BLayoutInfo{x}"] for x in "BSNGD"] == [4, 80, 1, 1, 64]
    assert [t[f"CLayoutInfo{x}"] for x in ("B", "S1", "N", "G", "S2")] == [4, 96, 1, 1, 80]
    assert t["BatchNum"] == 4 and got[:5] == [1] * 5 and got[5] == got[6] == t["shareL1Size"]


def test_host_config_params_and_fixed_split(built):
    t, got = tiling(built, 105)
    assert (t["baseM"], t["baseN"], t["baseK"], t["iterateOrder"]) == (32, 48, 32, 1)


def test_host_multicore_fixed_single_shape(built):
    t, got = tiling(built, 106, m=96, n=80)
    assert (t["singleCoreM"], t["singleCoreN"]) == (32, 48) and got[:3] == [6, 3, 2]


def test_host_core_memory_sizes_include_l2(built):
    # Ascend910B1's row of toolchains/socs.yaml: CANN 8.1's l2_size 192 MiB, l1 512 KiB, L0C 128 KiB
    _, got = tiling(built, 109)
    assert got[:3] == [192 * 1024, 512, 128]


def test_host_inputs_are_never_views(built):
    # the sim's inputs are contiguous: no InputIsView form says otherwise (the op also registers
    # an InferShapeRange, which the sim accepts and never calls: the tiling runs)
    _, got = tiling(built, 107)
    assert got[:5] == [0, 0, 0, 0, 1]
