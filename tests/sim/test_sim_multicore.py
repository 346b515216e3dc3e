"""The soft SyncAll (a zeroed GM workspace of 32 bytes per block and a UB buffer as large), the
hard SyncAll's SoCs, DataCopy with SliceInfo and a kernel's static `__gm__` data, on our own
kernel (pkgs/multicore), which also includes CANN's `kernel_utils.h` as cann-ops' shared
platform.h does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
from opkg.core.socs import get_soc
import simbuild

OP = OpSpec(
    "MultiCore",
    (TensorSpec("x", ("float32",)),),
    (TensorSpec("s", ("int32",)), TensorSpec("y", ("float32",))),
    (AttrSpec("which", "int", required=True), AttrSpec("blocks", "int", 4)),
)
BLOCKS = 4
KERNEL = Path(__file__).parent / "pkgs" / "multicore" / "op_kernel" / "multi_core.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "multicore", OP, OP.variants()[0], soc910b, lib_cache, stem="multi_core")


@pytest.fixture(scope="module")
def built_310p(pkgs, lib_cache):
    return simbuild.build(pkgs / "multicore", OP, OP.variants()[0], get_soc("Ascend310P3"), lib_cache,
                          stem="multi_core")


def run(built, which, x=None, modes=SimModes()):
    x = np.arange(64, dtype=np.float32) if x is None else x
    s = np.zeros(BLOCKS * 8, np.int32)
    y = np.zeros(96, np.float32)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"s": s, "y": y},
                            {"which": which, "blocks": BLOCKS}, modes=modes)
    return s.reshape(BLOCKS, 8), y, info


def test_soft_syncall_orders_the_blocks_stores_and_loads(built):
    s, y, _ = run(built, 1)
    np.testing.assert_array_equal(s, np.repeat(np.arange(1, BLOCKS + 1)[:, None], 8, 1))
    np.testing.assert_array_equal(y[:BLOCKS * 8], np.full(BLOCKS * 8, BLOCKS * (BLOCKS + 1) // 2))


def test_soft_syncall_counts_rounds_through_the_same_words(built):
    _, y, _ = run(built, 2)
    np.testing.assert_array_equal(y[:BLOCKS * 8], np.full(BLOCKS * 8, BLOCKS * BLOCKS * (BLOCKS + 1) // 2))


def test_a_syncall_hidden_from_the_cpu_debug_build_is_kept_as_the_device_keeps_it(built):
    # `#ifndef __CCE_KT_TEST__ SyncAll(); #endif` (cann-ops MoeInitRoutingV2): the device build
    # never defines CANN's CPU-debug macro, so every block sums the rows all blocks wrote
    _, y, _ = run(built, 12)
    np.testing.assert_array_equal(y[:BLOCKS * 8], np.full(BLOCKS * 8, BLOCKS * (BLOCKS + 1) // 2))


def test_soft_syncall_on_words_nobody_zeroed_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 3)
    msg = str(err.value)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, 'not-zeroed')}" in msg
    assert "SyncAll(gmWorkspace, ubWorkspace) reads byte" in msg
    assert "which no block has written yet" in msg


def test_soft_syncall_with_a_small_ub_workspace_is_reported(built):
    # the device's SyncAll uses the UB bytes past the tensor: a warning; --strict-bounds: an error
    what = "ubWorkspace needs 128 bytes but the LocalTensor holds only 8 elements"
    _, _, info = run(built, 4)
    assert [l for l in info.log
            if f"multi_core.cpp:{simbuild.line_of(KERNEL, 'small-ub')}: SyncAll(gmWorkspace, ubWorkspace): {what}" in l]
    with pytest.raises(runtime.SimError) as err:
        run(built, 4, modes=SimModes(strict_bounds=True))
    msg = str(err.value)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, 'small-ub')}" in msg
    assert what in msg


def test_datacopy_with_sliceinfo_gathers_and_scatters(built):
    x = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    _, y, _ = run(built, 10, x)
    want = np.zeros(96, np.float32)
    want[0:24] = np.concatenate([x[0:8], x[16:24], x[32:40]])   # one-block bursts, one block apart
    want[24:40] = np.concatenate([x[0:8], x[32:40]])             # rows 0 and 2 of a 4 x 16 view
    want[40:48], want[51:59], want[62:70] = x[0:8], x[16:24], x[32:40]   # 3-element gaps in GM
    np.testing.assert_array_equal(y, want)


def test_sliceinfo_without_shape_values_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 11)
    msg = str(err.value)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, 'no-shape')}" in msg
    assert "srcSliceInfo[0].shapeValue is 0" in msg


def test_soft_syncall_runs_on_310p(built_310p):
    s, y, _ = run(built_310p, 1)
    np.testing.assert_array_equal(y[:BLOCKS * 8], np.full(BLOCKS * 8, BLOCKS * (BLOCKS + 1) // 2))


def test_hard_syncall_is_reported_on_310p(built_310p, built):
    with pytest.raises(runtime.SimError) as err:
        run(built_310p, 5)
    msg = str(err.value)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, 'hard-sync')}" in msg
    assert "the hardware all-core sync exists only on A2/A3 SoCs" in msg
    run(built, 5)   # on 910B the same kernel passes


def test_static_gm_data_in_the_kernel_is_readable_gm(built):
    s, _, _ = run(built, 6)
    np.testing.assert_array_equal(s.reshape(-1)[:16], [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3])


@pytest.mark.parametrize("soc", ["910b", "310p"])
def test_core_type_is_the_vector_core_a_device_build_sees(built, built_310p, soc):
    s, _, _ = run(built if soc == "910b" else built_310p, 7)
    # A2/A3 vector code is built as AIV (__DAV_C220_VEC__); other SoCs' kernels as MIX
    np.testing.assert_array_equal(s, np.full((BLOCKS, 8), 7 if soc == "910b" else -7))


def test_impl_layer_calls_on_raw_pointers(built):
    x = np.arange(64, dtype=np.float32) + 0.5
    s, y, _ = run(built, 8, x)
    np.testing.assert_array_equal(s, np.full((BLOCKS, 8), 5))
    np.testing.assert_array_equal(y[:8], x[:8])


def test_block_idx_and_block_num_are_the_running_blocks(built):
    s, _, _ = run(built, 14)
    np.testing.assert_array_equal(s[:, 0], [1, 11, 21, 30])   # 10 * block_idx + (not the last)


def test_impl_layer_datacopypad_on_raw_pointers(built):
    x = np.arange(64, dtype=np.float32) + 0.5
    _, y, _ = run(built, 13, x)
    np.testing.assert_array_equal(y[:8], [*x[:5], 7, 7, 7])     # padded in UB, stored whole
    np.testing.assert_array_equal(y[8:13], x[8:13])             # DataCopyParams form, in bytes
    np.testing.assert_array_equal(y[13:], 0)


def test_getphyaddr_is_a_pointer_through_reinterpret_cast_and_an_address_in_bytes(built):
    x = np.arange(64, dtype=np.float32) + 0.5
    s, y, _ = run(built, 19, x)
    np.testing.assert_array_equal(y[:8], 2 * x[8:16])   # written through the pointer
    np.testing.assert_array_equal(y[8:16], x[:8])
    np.testing.assert_array_equal(y[16:], 0)
    assert s[0, 0] == 16   # f[4] is 16 bytes from f, as on the device


def test_block_local_globals_and_the_block_builtins(built):
    # the blocks run concurrently (SyncAll) and each reads back the copy it wrote
    s, _, _ = run(built, 16)
    np.testing.assert_array_equal(s[:, 0], [i * 100 + BLOCKS for i in range(BLOCKS)])


def test_ctrl_register_builtins(built):
    s, _, _ = run(built, 17)
    np.testing.assert_array_equal(s[:, 0], 10)   # set, then cleared


def test_ctrl_hf32_bit_is_refused_where_set(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 18)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, 'hf32')}" in str(err.value)
    assert "HF32 mode bits (46, 47) are not modelled" in str(err.value)


def test_cce_align_copy_builtins_pad_and_stride_as_datacopypad(built):
    x = np.arange(64, dtype=np.float32) + 0.5
    _, y, _ = run(built, 15, x)
    # GM->UB: left 1 and right 2 pads from the padding register, source rows 8 floats apart;
    # UB->GM: whole 8-float rows, 2 floats apart in y (never written: still 0)
    rows = [np.concatenate([[-1.0], x[8 * r:8 * r + 5], [-1.0, -1.0], [0.0, 0.0]]) for r in range(3)]
    np.testing.assert_array_equal(y[:30], np.concatenate(rows))
    np.testing.assert_array_equal(y[30:], 0)


@pytest.mark.parametrize("which, mark", [(9, "gm-as-ub"), (20, "past-ub")])
def test_impl_layer_call_on_no_ub_address_is_reported(built, which, mark):
    # a GM pointer, and a GetPhyAddr pointer moved past the UB's end
    with pytest.raises(runtime.SimError) as err:
        run(built, which)
    msg = str(err.value)
    assert f"multi_core.cpp:{simbuild.line_of(KERNEL, mark)}" in msg
    assert "DuplicateImpl: " in msg and "is not a Unified Buffer address of this block" in msg
