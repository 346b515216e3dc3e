"""The vector mask register and the atomic store modes, on an own kernel against NumPy per dtype:
counter mode (SetMaskCount, SetVectorMask<T, MaskMode::COUNTER>, level-0 calls with isSetMask =
false and MASK_PLACEHOLDER, as cann-ops' isamax and dequant_swiglu_quant use them), a normal-mode
bit pattern set once for several calls, GetReduceMaxMinCount, SetAtomicMax/Min and the store
atomic configuration; misuse reported with the kernel's file:line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "MaskReg",
    (TensorSpec("x", ("float32", "float16")), TensorSpec("y", ("float32", "float16"))),
    (TensorSpec("z", ("float32", "float16")),),
    (AttrSpec("which", "int", required=True), AttrSpec("count", "int", required=True),
     AttrSpec("tmp_bytes", "int", required=True), AttrSpec("scalar", "float", 1.5)),
)
PADDED = 1024
KERNEL = Path(__file__).parent / "pkgs" / "maskreg" / "op_kernel" / "mask_reg.cpp"


@pytest.fixture(scope="module", params=["float32", "float16"])
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "maskreg", OP, OP.variant(request.param), soc910b, lib_cache, stem="mask_reg")


def dtype_of(built):
    return np.dtype(built.variant.dtype_of("x")).type


def data(built, seed=3):
    dtype = dtype_of(built)
    rng = np.random.default_rng(seed)
    return rng.uniform(-4, 4, PADDED).astype(dtype), rng.uniform(-4, 4, PADDED).astype(dtype)


def run(built, which, x, y=None, count=PADDED, z=None, modes=SimModes(), info=None):
    z = np.full(PADDED, 7, dtype=x.dtype) if z is None else z
    got = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                           {"x": x, "y": np.zeros_like(x) if y is None else y},
                           {"z": z}, {"which": which, "count": count, "tmp_bytes": 0, "scalar": 0.0},
                           modes=modes)
    if info is not None:
        info.append(got)
    return z


@pytest.mark.parametrize("count", [1, 100, 777])
def test_counter_mode_add_covers_count_elements(built, count):
    x, y = data(built)
    z = run(built, 1, x, y, count)
    np.testing.assert_array_equal(z[:count], (x[:count].astype(np.float32) + y[:count]).astype(x.dtype))
    assert np.all(z[count:] == 0)   # past the count nothing is written


def test_normal_mode_register_pattern_serves_several_calls(built):
    x, _ = data(built)
    z = run(built, 2, x)
    lanes = np.arange(PADDED) % 2 == 0
    np.testing.assert_array_equal(z[lanes], (np.abs(x[lanes]).astype(np.float32) + 1).astype(x.dtype))
    assert np.all(z[~lanes] == 0)


@pytest.mark.parametrize("which, pick", [(3, np.argmax), (4, np.argmin)])
@pytest.mark.parametrize("count", [1, 37, 64])
def test_get_reduce_max_min_count_after_counter_mode_reduce(built, which, pick, count):
    x, _ = data(built, seed=count)
    x[count:] = 100 if which == 4 else -100     # outside the count: must not be seen
    x[count:] *= -1
    z = run(built, which, x, count=count)
    i = int(pick(x[:count]))
    assert z[0] == x[i]
    itype = np.uint16 if x.dtype == np.float16 else np.uint32
    assert z[1:2].view(itype)[0] == i           # the index as raw bits in a T slot, as documented


def test_counter_mode_compare_writes_one_bit_per_element(built):
    x, y = data(built)
    count = 200
    z = run(built, 11, x, y, count)
    want = np.packbits(x[:count] > y[:count], bitorder="little")
    np.testing.assert_array_equal(z.view(np.uint8)[: count // 8], want)


def test_counter_mode_copy(built):
    x, _ = data(built)
    z = run(built, 12, x, count=300)
    np.testing.assert_array_equal(z[:300], x[:300])
    assert np.all(z[300:] == 0)


@pytest.mark.parametrize("which, fn", [(5, np.maximum), (6, np.minimum)])
def test_atomic_max_min_store(built, which, fn):
    x, y = data(built)
    x[:3] = [np.inf, -np.inf, 0]
    z0 = y.copy()
    z = run(built, which, x, z=y.copy())
    np.testing.assert_array_equal(z, fn(z0, x))


def test_set_atomic_type_retypes_the_atomic_add(built):
    x, y = data(built)
    z = run(built, 19, x, z=y.copy())
    np.testing.assert_array_equal(z, (y.astype(np.float32) + x).astype(x.dtype))


def test_store_atomic_config_round_trip(built):
    x, y = data(built)
    dtype_code = 2 if x.dtype == np.float16 else 1          # AtomicDtype ATOMIC_F16 / ATOMIC_F32
    z = run(built, 7, x, z=y.copy())                           # SetStoreAtomicConfig<.., ATOMIC_SUM>: a sum
    np.testing.assert_array_equal(z, (y.astype(np.float32) + 10 * dtype_code).astype(x.dtype))
    z = run(built, 8, x, z=y.copy())                           # after SetAtomicMax: op 1, a max
    np.testing.assert_array_equal(z, np.maximum(y, x.dtype.type(10 * dtype_code + 1)))


def test_kernel_type_traits(built):
    x, _ = data(built)
    z = run(built, 20, x)
    assert np.all(z == (2 if x.dtype == np.float16 else 1))


@pytest.mark.parametrize("which", [21, 22, 32])   # tensor lists, addresses, impl-layer pointers
@pytest.mark.parametrize("repeats", [1, 3])
def test_trans_data_to_5hd_transposes_each_repeat(built, which, repeats):
    x, _ = data(built)
    per_block = 32 // x.itemsize
    count = repeats * 16 * per_block
    z = run(built, which, x, count=count)
    mats = x[:count].reshape(repeats, 16, per_block)
    # 16-bit: a 16x16 transpose; 32-bit: dst blocks 2j, 2j+1 take column j of rows 0-7, 8-15
    want = mats.transpose(0, 2, 1).reshape(-1)
    np.testing.assert_array_equal(z[:count], want)
    assert np.all(z[count:] == 0)


def test_trans_data_to_5hd_keeps_unloaded_rows_in_their_own_lanes(built):
    # half the source rows never written: the result's lanes from the loaded rows are defined
    # (stored without a diagnostic), as the device transposes each lane on its own
    x, _ = data(built)
    per_block = 32 // x.itemsize
    z = run(built, 33, x)
    want = x[:8 * per_block].reshape(8, per_block).T.reshape(-1)
    np.testing.assert_array_equal(z[:8 * per_block], want)
    assert np.all(z[8 * per_block:] == 0)


def test_scalar_bit_functions_cast_and_system_registers(built):
    x, _ = data(built)
    z = np.full(PADDED, 7, dtype=x.dtype)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "y": x}, {"z": z},
                            {"which": 24, "count": PADDED, "tmp_bytes": 0, "scalar": 0.0})
    log = "\n".join(info.log)
    assert "PrintTimeStamp descId 7" in log and "[block 0] arch known 1" in log
    want = [8, 4, 63, 62, 63, 4, 8, -1, 3, -3, 2, 3, 1, 1, 1, 0, 1, 1, 0, 1]
    np.testing.assert_array_equal(z[:20], np.array(want, dtype=x.dtype))


@pytest.mark.parametrize("which, fn", [(27, np.add), (28, np.subtract)])
def test_add_relu_sub_relu(built, which, fn):
    x, y = data(built)
    x[:2] = [np.inf, -np.inf]
    z = run(built, which, x, y)
    want = np.maximum(fn(x.astype(np.float32), y), 0).astype(x.dtype)
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("which, relu", [(29, False), (30, True)])
def test_fused_mul_add_rounds_once(built, which, relu):
    x, y = data(built)
    d = (x.astype(np.float32) + np.float32(0.5)).astype(x.dtype)      # Adds, rounded to T
    exact = x.astype(np.float64) * d.astype(np.float64) + y.astype(np.float64)
    if relu:
        exact = np.maximum(exact, 0)
    z = run(built, which, x, y)
    np.testing.assert_array_equal(z, exact.astype(np.float32).astype(x.dtype))


def test_create_vec_index(built):
    x, _ = data(built)
    z = run(built, 31, x, count=500)
    np.testing.assert_array_equal(z[:500], (np.arange(500, dtype=np.float64) - 3).astype(np.float32).astype(x.dtype))
    assert np.all(z[500:] == 0)


def test_init_output_fills_gm(built):
    x, _ = data(built)
    z = run(built, 26, x, count=100)
    assert np.all(z[:100] == 3) and np.all(z[100:] == 7)


@pytest.mark.parametrize("which, tag, words", [
    (25, "trap", "Trap: the kernel raised a trap"),
    (23, "unaligned-5hd", "dstList[0] is UB offset"),
    (9, "set-mask-in-counter", "isSetMask = true while the mask is in counter mode"),
    (10, "no-reduce", "GetReduceMaxMinCount before any WholeReduceMax"),
    (13, "counter-without-mode", "before SetMaskCount"),
])
def test_mask_misuse_is_reported_with_file_line(built, which, tag, words):
    x, _ = data(built)
    with pytest.raises(runtime.SimError) as err:
        run(built, which, x, count=64)
    assert f"mask_reg.cpp:{simbuild.line_of(KERNEL, tag)}" in str(err.value)
    assert words in str(err.value)


@pytest.mark.parametrize("which, want", [
    (14, lambda x, y: np.exp(x.astype(np.float32))),
    (15, lambda x, y: x.astype(np.float32) / y),
    (16, lambda x, y: x.astype(np.float32) + 2),
    (17, lambda x, y: x.astype(np.float32) - y),
])
def test_basic_apis_as_template_arguments(built, which, want):
    x, y = data(built)
    z = run(built, which, x, y)
    np.testing.assert_allclose(z.astype(np.float32), want(x, y).astype(x.dtype).astype(np.float32),
                               rtol=1e-6 if x.dtype == np.float32 else 1e-3)


def test_api_through_a_pointer_still_checks_its_count(built):
    # one element past z: inside the UB, so the device (and the sim by default) runs on, warned;
    # --strict-bounds refuses it, as CANN's CPU-debug build does
    x, _ = data(built)
    info = []
    run(built, 18, x, info=info)
    [w] = [l for l in info[0].log if "warning:" in l]
    assert "Abs" in w and "mask_reg.cpp" in w and "--strict-bounds makes this an error" in w
    with pytest.raises(runtime.SimError) as err:
        run(built, 18, x, modes=SimModes(strict_bounds=True))
    assert "Abs" in str(err.value) and "mask_reg.cpp" in str(err.value)
