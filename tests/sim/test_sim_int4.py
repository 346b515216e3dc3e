"""int4 tensors (ge::DT_INT4, the kernel's AscendC::int4b_t) on the sim: NumPy holds them one value
a byte (ml_dtypes' int4), GM two values a byte with the first in the low nibble (asc-devkit's
kernel_tensor_impl.h GetValue); the kernel's element accessors and DataCopy counts follow that
packing, and the host sees the packed bytes. The fixture operator (pkgs/int4io) widens x into y
and writes x back into z with two elements rewritten by SetValue."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec, int_limits
from opkg.core.socs import get_soc
from opkg.sim import packed, runtime
import simbuild

INT4 = np.dtype(ml_dtypes.int4)
OP = OpSpec("Int4Widen", (TensorSpec("x", ("int4",)),),
            (TensorSpec("y", ("int32",)), TensorSpec("z", ("int4",))),
            (AttrSpec("overrun", "bool", default=False),))


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "int4io", OP, OP.variant("int4_int32"), get_soc("Ascend910B1"),
                          lib_cache, stem="int4_widen")


def run(built, x):
    y = np.zeros(x.shape, np.int32)
    z = np.zeros(x.shape, INT4)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x},
                            {"y": y, "z": z}, {"overrun": False}, modes=SimModes(strict_bounds=True))
    return y, z, info


def test_gm_image_packs_two_values_a_byte_low_nibble_first():
    x = np.array([6, 7, -1, -8, 0, 3], INT4)
    np.testing.assert_array_equal(packed.gm_image(x, "int4", "x"),
                                  np.array([0x76, 0x8F, 0x30], np.uint8))   # 6,7 -> 0x76 (the devkit's 118)
    back = np.empty_like(x)
    packed.from_gm(packed.gm_image(x, "int4", "x"), back, "int4")
    np.testing.assert_array_equal(back.astype(np.int8), x.astype(np.int8))


def test_every_int4_value_round_trips_through_the_kernel(built):
    x = np.tile(np.arange(-8, 8, dtype=np.int8), 8).astype(INT4)     # 128 elements: 64 bytes
    y, z, info = run(built, x)
    np.testing.assert_array_equal(y, 2 * x.astype(np.int32))   # y[0] also says the host saw x packed
    want = x.astype(np.int8).copy()
    want[1] = np.int8(((-int(want[1]) + 8) % 16) - 8)    # -(-7) = 7
    want[-1] = 7
    np.testing.assert_array_equal(z.astype(np.int8), want)
    assert not info.unwritten


def test_a_stored_nibble_keeps_its_neighbour(built):
    x = np.full(64, -3, INT4)
    _, z, _ = run(built, x)
    assert z.astype(np.int8)[0] == -3 and z.astype(np.int8)[1] == 3 and z.astype(np.int8)[2] == -3


def test_an_odd_element_count_is_a_usage_error(built):
    with pytest.raises(runtime.SimError, match=r"input 'x' is a int4 tensor of 65 elements.*multiple of 2"):
        run(built, np.zeros(65, INT4))


def test_an_int8_array_for_an_int4_input_is_refused(built):
    with pytest.raises(runtime.SimError, match="is int8, but this variant needs int4"):
        run(built, np.zeros(64, np.int8))


def test_int4_limits():
    assert int_limits("int4") == (-8, 7)


def test_a_copy_past_an_int4_local_tensor_is_caught_at_its_bytes(built):
    """With attr overrun the kernel copies 128 int4 elements (64 bytes) into a TBuf's tensor of 64
    elements (32 bytes): past it by 32 bytes, which a bound of one byte an element would let pass.
    (The round trips above run with --strict-bounds too: their copies fit their tensors.)"""
    x = np.zeros(128, INT4)
    with pytest.raises(runtime.SimError, match=r"DataCopy GM->UB: destination needs 64 bytes but the "
                                               r"LocalTensor holds only 32"):
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x},
                         {"y": np.zeros(128, np.int32), "z": np.zeros(128, INT4)}, {"overrun": True},
                         modes=SimModes(strict_bounds=True))


CAST = OpSpec("Int4Cast", (TensorSpec("x", ("float16",)),),
              (TensorSpec("y", ("int4",)), TensorSpec("z", ("float16",))), ())


def test_cast_from_half_rounds_and_saturates_and_back(pkgs, lib_cache):
    built = simbuild.build(pkgs / "int4cast", CAST, CAST.variants()[0], get_soc("Ascend910B1"),
                           lib_cache, stem="int4_cast")
    x = np.tile(np.array([-9.5, -8.5, -7.5, -2.5, -0.5, 0.5, 1.5, 2.4, 6.5, 7.5, 100, -100, 3, -3,
                          0, 5.6], np.float16), 8)
    y = np.zeros(x.shape, INT4)
    z = np.zeros(x.shape, np.float16)
    runtime.run_case(built.host, built.kernel, CAST, built.variant, built.soc, {"x": x}, {"y": y, "z": z}, {})
    want = np.clip(np.rint(x.astype(np.float32)), -8, 7).astype(np.int8)   # half to even, then [-8, 7]
    np.testing.assert_array_equal(y.astype(np.int8), want)
    np.testing.assert_array_equal(z, want.astype(np.float16))
