"""A vector count past its LocalTensor but inside the UB acts on the real UB bytes, as the
device does (CANN checks the count against the tensor only in its CPU-debug build), with a
warning once per call site; `--strict-bounds` and accesses past the physical UB stay errors.
The kernel is tests/sim/pkgs/faulty (modes 7 and 60-64)."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import SimModes
from opkg.sim.runtime import SimError
from simbuild import line_of
from test_sim_errors import built, kernel_src, run  # noqa: F401  (fixtures)


def warnings_in(info, kernel_src, marker):
    return [l for l in info.log if f"warning: {kernel_src}:{line_of(kernel_src, marker)}:" in l]


def test_a_cast_past_its_tbuf_runs_into_the_next_one(built, kernel_src):
    # 256 floats cast into a TBuf of 128 halves: the device writes on into the next TBuf and
    # the cast back reads them there, so y is x (exact in half)
    x, y, info = run(built, 60, blocks=2)
    np.testing.assert_array_equal(y, x)
    [w] = warnings_in(info, kernel_src, "cast-past")   # once per call site, not once per block
    assert len([l for l in info.log if "warning:" in l]) == 2   # and the cast back, reading h
    assert f"warning: {kernel_src}:{line_of(kernel_src, 'cast-past')}: Cast: dst needs 512 bytes but the " \
           "LocalTensor holds only 128 elements (256 bytes)" in w
    assert f"running on into the TBuf<VECCALC> set up at {kernel_src}:{line_of(kernel_src, 'init-next')}" in w
    assert "only in its CPU-debug build (ASCENDC_CPU_DEBUG), the device does not" in w


def test_whole_reduce_sum_into_a_tensor_of_a_zero_byte_tbuf(built, kernel_src):
    # the 0-byte TBuf shares its UB address with the next one, which receives the sum
    x, y, info = run(built, 61)
    np.testing.assert_array_equal(y, np.full_like(x, x[:64].sum()))
    [w] = warnings_in(info, kernel_src, "reduce-into-empty")
    assert f"{kernel_src}:{line_of(kernel_src, 'reduce-into-empty')}: WholeReduceSum: dst needs 1 elements " \
           "but the LocalTensor holds only 0" in w


def test_scalar_access_past_a_zero_element_tensor(built, kernel_src):
    # LocalTensor::GetValue/SetValue of the device build read and write the UB at the address
    x, y, info = run(built, 64)
    np.testing.assert_array_equal(y, np.full_like(x, 10.0))
    [w] = warnings_in(info, kernel_src, "set-past")
    assert "SetValue(3) is past the LocalTensor's 0 elements; the device accesses UB bytes" in w
    assert warnings_in(info, kernel_src, "get-past")


def test_a_count_past_the_physical_ub_is_an_error(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 62, buffer_bytes=49152)
    assert e.value.line == line_of(kernel_src, "past-ub")
    assert ("Duplicate: dst needs 49184 bytes but the LocalTensor holds only 12288 elements (49152 bytes), and UB "
            "bytes [147456, 196640) run past the end of the SoC's 196608-byte Unified Buffer") in e.value.message


@pytest.mark.parametrize("mode, marker, what", [
    (60, "cast-past", "Cast: dst needs 512 bytes but the LocalTensor holds only 128 elements (256 bytes)"),
    (7, "count-too-big", "Muls: dst needs 1280 bytes but the LocalTensor holds only 256 elements (1024 bytes)"),
])
def test_strict_bounds_keeps_the_tensor_check(built, kernel_src, mode, marker, what):
    with pytest.raises(SimError) as e:
        run(built, mode, modes=SimModes(strict_bounds=True))
    assert e.value.line == line_of(kernel_src, marker)
    assert f"{what} (--strict-bounds; the device does not check it" in e.value.message


def test_undefined_neighbour_bytes_reaching_gm_are_reported(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 63)
    msg = e.value.message
    assert e.value.line == line_of(kernel_src, "store-neighbour")
    assert "stores undefined values into bytes [0, 256) of 'y'" in msg
    assert f"Adds at {kernel_src}:{line_of(kernel_src, 'read-neighbour')} read src bytes that nothing wrote" in msg
    assert "TQue<VECIN, depth 2>" in msg
