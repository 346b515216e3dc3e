"""The GM memory model: buffers padded as the device allocator pads them (rounded-up tail reads
and writes are allowed, the padding is garbage, --strict-bounds keeps the exact check),
undefined values tracked as MemorySanitizer does (reported where they reach GM or scalar code,
naming where they were read), and stores far outside a buffer caught by guard zones."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.verify import runner

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
from opkg.sim.runtime import SimError
import simbuild
from simbuild import line_of

OP = OpSpec("GmModel", (TensorSpec("x", ("float32",)),), (TensorSpec("y", ("float32",)),),
            (AttrSpec("mode", "int", required=True),))
N = 100    # 400 bytes: the allocation is 448 (rounded up to 416, plus 32)


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "gmmodel", OP, OP.variants()[0], soc910b, lib_cache, stem="gmmodel")


@pytest.fixture(scope="module")
def src(pkgs):
    return pkgs / "gmmodel" / "op_kernel" / "gmmodel.cpp"


def run(built, mode, modes=SimModes()):
    x = np.linspace(-2, 2, N, dtype=np.float32)
    y = np.full(N, np.nan, np.float32)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"y": y},
                            {"mode": mode}, modes=modes)
    return x, y, info


def test_a_gm_table_of_the_kernel_binary_is_readable(built):
    # `constexpr static __gm__ float kTable[8]`: the device loads the kernel binary into GM
    x, y, _ = run(built, 18)
    want = x * 2
    want[:8] += np.arange(1, 9, dtype=np.float32)
    np.testing.assert_array_equal(y, want)


def test_a_rounded_up_tail_read_and_write_stay_inside_the_allocation(built):
    # reads 416 bytes of a 400-byte input and stores 416 bytes into a 400-byte output: the
    # device allows both; the 16 bytes of output padding are not part of the output
    x, y, info = run(built, 0)
    np.testing.assert_array_equal(y, x * 2)
    assert info.unwritten == {}


def test_strict_bounds_keeps_the_exact_check(built, src):
    with pytest.raises(SimError) as e:
        run(built, 0, modes=SimModes(strict_bounds=True))
    assert e.value.line == line_of(src, "tail-read")
    assert "accesses GM bytes [0, 416) of 'x', which has only 400 bytes (--strict-bounds" in e.value.message
    assert "allocation extends to byte 448" in e.value.message


def test_a_read_past_the_padded_allocation_is_an_error(built, src):
    with pytest.raises(SimError) as e:
        run(built, 2)
    assert e.value.line == line_of(src, "past-allocation") and e.value.block == 0
    assert "accesses GM bytes [0, 480) of 'x', past its 448-byte allocation (400 bytes of tensor" in e.value.message


def test_a_tile_computed_past_its_data_is_fine_when_only_data_is_stored(built):
    # Max/Sub/Abs/Cast over 256 lanes of which 104 were loaded (4 of them padding): the
    # undefined lanes never reach the output
    x, y, _ = run(built, 3)
    want = np.abs(np.maximum(x, 0.5) - 0.5).astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(y, want)


def test_padding_that_reaches_the_output_is_reported_with_both_lines(built, src):
    with pytest.raises(SimError) as e:
        run(built, 4)
    err = e.value
    assert (err.file, err.line, err.block) == (str(src), line_of(src, "store"), 0)
    assert "DataCopy UB->GM stores undefined values into bytes [368, 384) of 'y'" in err.message
    assert (f"DataCopy GM->UB at {src}:{line_of(src, 'tail-read')} loaded byte 400 of 'x', in the allocator "
            "padding after its 400 bytes") in err.message


def test_a_reduction_over_padding_that_lands_in_gm_is_reported(built, src):
    with pytest.raises(SimError) as e:
        run(built, 5)
    assert e.value.line == line_of(src, "store")
    assert "stores undefined values into bytes [0, 4) of 'y'" in e.value.message
    assert f"gmmodel.cpp:{line_of(src, 'tail-read')} loaded byte 400 of 'x'" in e.value.message


def test_an_undefined_value_in_scalar_code_is_reported_where_it_is_read(built, src):
    with pytest.raises(SimError) as e:
        run(built, 6)
    assert e.value.line == line_of(src, "scalar-use")
    assert "LocalTensor::GetValue reads an element at UB offset 400 that holds an undefined value" in e.value.message
    assert f"gmmodel.cpp:{line_of(src, 'tail-read')} loaded byte 400 of 'x', in the allocator padding" in e.value.message


def test_a_scalar_move_of_padding_carries_its_origin_to_the_store(built, src):
    # As MemorySanitizer: loading an undefined value into a scalar is not a use; storing it
    # into the output's tensor bytes is, and the report names where it was loaded.
    with pytest.raises(SimError) as e:
        run(built, 12)
    err = e.value
    assert err.line == line_of(src, "store")
    assert "DataCopy UB->GM stores undefined values into bytes [396, 400) of 'y'" in err.message
    assert f"gmmodel.cpp:{line_of(src, 'tail-read')} loaded byte 400 of 'x', in the allocator padding" in err.message


def test_a_scalar_move_of_padding_into_padding_is_fine(built):
    x, y, _ = run(built, 13)
    np.testing.assert_array_equal(y, x * 2)


def test_a_value_computed_from_an_undefined_scalar_is_reported_where_it_was_read(built, src):
    # (arithmetic that keeps the garbage's bits, as NaN does, is a move: its result is undefined)
    with pytest.raises(SimError) as e:
        run(built, 14)
    assert e.value.line == line_of(src, "scalar-arith")
    assert "LocalTensor::GetValue reads an element at UB offset 400 that holds an undefined value" in e.value.message


def test_a_select_is_as_defined_as_each_mask_bit_and_the_source_it_picks(built):
    # Compare's mask holds one bit per element; the mask byte holding elements 96-103 mixes data
    # and padding bits, and only elements 100-103 (stored into y's padding) are undefined.
    x, y, _ = run(built, 15)
    np.testing.assert_array_equal(y, np.where(x > 0, x, 0))


def test_level0_compare_and_select_keep_each_mask_bit_as_defined_as_its_lane(built):
    x, y, _ = run(built, 20)
    np.testing.assert_array_equal(y, np.where(x > 0, x, 0))


def test_bitwise_instructions_on_a_mask_keep_its_defined_bits(built):
    x, y, _ = run(built, 17)
    np.testing.assert_array_equal(y, np.where(x > 0, 0, x))


@pytest.mark.parametrize("mode", [21, 22, 23], ids=["and-count", "and-level0", "or-count"])
def test_and_with_a_defined_zero_and_or_with_a_defined_one_are_defined_whatever_the_other_holds(built, mode):
    # as MemorySanitizer: x & 0 and x | ~0 do not depend on x, so padding and unwritten lanes
    # folded in through them leave y defined (cann-ops DiagV2 ANDs stale lanes with zeros)
    x, y, info = run(built, mode)
    np.testing.assert_array_equal(y, x)
    assert info.unwritten == {}


def test_and_with_defined_ones_keeps_the_garbage_undefined(built, src):
    with pytest.raises(SimError) as e:
        run(built, 24)
    assert e.value.line == line_of(src, "store")
    assert "DataCopy UB->GM stores undefined values into bytes [0, 400) of 'y'" in e.value.message
    assert f"And at {src}:{line_of(src, 'and-ones')} read src0 bytes that nothing wrote" in e.value.message


def test_a_select_of_padding_bits_that_reaches_the_output_is_reported(built, src):
    with pytest.raises(SimError) as e:
        run(built, 16)
    assert e.value.line == line_of(src, "store")
    assert "DataCopy UB->GM stores undefined values into bytes [368, 400) of 'y'" in e.value.message
    assert f"gmmodel.cpp:{line_of(src, 'tail-read')} loaded byte 400 of 'x'" in e.value.message


def test_a_scalar_gm_read_of_padding_is_reported(built, src):
    with pytest.raises(SimError) as e:
        run(built, 7)
    assert e.value.line == line_of(src, "gm-scalar-use")
    assert "GlobalTensor::GetValue reads byte 400 of 'x', in the allocator padding after its 400 bytes" in e.value.message


def test_a_raw_store_64_kib_past_a_tensor_hits_its_guard_zone(built, src):
    with pytest.raises(SimError) as e:
        run(built, 8)
    msg = e.value.message
    assert "segmentation fault" in msg
    assert "(byte 65936 of 'y', 65488 bytes past the end of its 448-byte allocation" in msg


def test_a_raw_store_just_before_a_tensor_is_found_after_the_run(built):
    with pytest.raises(SimError) as e:
        run(built, 9)
    assert "the kernel wrote to GM from 5 to 8 bytes before the start of 'y'" in e.value.message


def test_a_checked_store_far_past_a_tensor_names_it(built, src):
    with pytest.raises(SimError) as e:
        run(built, 10)
    assert e.value.line == line_of(src, "setvalue-far")
    assert "outside every buffer passed to the kernel" in e.value.message
    assert "65488 bytes past the end of the 448-byte allocation of 'y'" in e.value.message


def test_a_kernel_that_writes_nothing_fails_against_an_all_nan_golden(built, tmp_path):
    # the output is pre-filled with NaN; an all-NaN golden used to match it
    golden = tmp_path / "golden.py"
    golden.write_text("import numpy as np\n\ndef nan(x, mode):\n    return np.full_like(x, np.nan)\n")
    job = {"op": OP.to_json(), "variant": built.variant.name, "soc": built.soc.to_json(),
           "host_lib": str(built.host), "kernel_lib": str(built.kernel), "seed": 1,
           "golden": {"file": str(golden), "function": "nan"},
           "cases": [{"name": "nothing", "shapes": {"x": [N]}, "attrs": {"mode": 11}, "ranges": {}},
                     {"name": "doubles", "shapes": {"x": [N]}, "attrs": {"mode": 0}, "ranges": {}}],
           "tolerance": {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 0.0}}}
    nothing, doubles = runner.run_job(job)
    y = nothing["outputs"]["y"]
    assert not nothing["passed"] and y["unwritten"] == N and y["mismatches"] == N
    assert y["first_mismatch"] == {"index": [0], "actual": "not written", "expected": "nan"}
    assert nothing["suspicious"] == ["the golden returned all NaN for output 'y': suspicious (a kernel that "
                                     "computes nothing useful cannot be told apart; check the golden)"]
    assert "golden: the golden returned all NaN for output 'y'" in nothing["log"][-1]
    # written everywhere: compared by value (and fails: 2x is not NaN)
    assert doubles["outputs"]["y"]["unwritten"] == 0 and not doubles["passed"]


def test_outputs_prefilled_with_zero_compare_what_the_kernel_leaves_as_zero(built, tmp_path):
    """verify.outputs_prefill: zero (an operator whose own test zeroes what its kernel leaves,
    ops-nn's ST executors): elements no store wrote hold 0 and are compared by value, said in
    the log; without it they are mismatches whatever the golden says."""
    golden = tmp_path / "golden.py"
    golden.write_text("import numpy as np\n\ndef zeros(x, mode):\n    return np.zeros_like(x)\n\n"
                      "def ones(x, mode):\n    return np.ones_like(x)\n")

    def job(function, **extra):
        return {"op": OP.to_json(), "variant": built.variant.name, "soc": built.soc.to_json(),
                "host_lib": str(built.host), "kernel_lib": str(built.kernel), "seed": 1,
                "golden": {"file": str(golden), "function": function},
                "cases": [{"name": "nothing", "shapes": {"x": [N]}, "attrs": {"mode": 11},
                           "ranges": {}}],
                "tolerance": {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 0.0}},
                **extra}
    [plain] = runner.run_job(job("zeros"))
    assert not plain["passed"] and plain["outputs"]["y"]["unwritten"] == N
    [zeroed] = runner.run_job(job("zeros", outputs_prefill="zero"))
    assert zeroed["passed"], zeroed
    assert f"y: {N} elements the kernel never stored, compared as the 0 they were pre-filled " \
           "with (verify.outputs_prefill)" in zeroed["log"]
    [ones] = runner.run_job(job("ones", outputs_prefill="zero"))
    assert not ones["passed"]
    assert ones["outputs"]["y"]["first_mismatch"] == {"index": [0], "actual": 0.0, "expected": 1.0}
