"""Kernel and tiling mistakes come back as SimError naming the kernel source file:line and the
block, with a message that says what the hardware would have done."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
from opkg.sim.runtime import SimError
import simbuild
from simbuild import line_of

OP = OpSpec("Faulty", (TensorSpec("x", ("float32",)),), (TensorSpec("y", ("float32",)),),
            (AttrSpec("mode", "int", required=True), AttrSpec("blocks", "int", 1),
             AttrSpec("buffer_bytes", "int", 1024)))
N_PER_BLOCK = 256


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "faulty", OP, OP.variants()[0], soc910b, lib_cache,
                          stem="faulty")


@pytest.fixture(scope="module")
def kernel_src(pkgs):
    return pkgs / "faulty" / "op_kernel" / "faulty.cpp"



def run(built, mode, blocks=1, buffer_bytes=N_PER_BLOCK * 4, soc=None, modes=SimModes()):
    x = np.arange(N_PER_BLOCK * blocks, dtype=np.float32)
    y = np.zeros_like(x)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, soc or built.soc, {"x": x}, {"y": y},
                            {"mode": mode, "blocks": blocks, "buffer_bytes": buffer_bytes}, modes=modes)
    return x, y, info


def test_a_correct_mode_runs(built):
    x, y, info = run(built, 0, blocks=4)
    np.testing.assert_array_equal(y, x * 2)
    assert info.block_dim == 4 and info.tiling_key == 0


def test_a_buffer_past_the_ub_is_harmless_until_touched(built):
    # A device build of TPipe::InitBuffer does not check the UB size (CANN's checks are CPU-debug
    # ASCENDC_ASSERTs): 2 + 1 + 1 buffers of 50016 B (rounded) > 192 KiB, but mode 1 never uses
    # tmpBuf, the one past the end.
    x, y, _ = run(built, 1, buffer_bytes=50000)
    np.testing.assert_array_equal(y, x * 2)


def test_touching_a_buffer_past_the_ub_names_it(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 23, buffer_bytes=50000)
    msg = e.value.message
    assert e.value.file == str(kernel_src) and e.value.line == line_of(kernel_src, "fill-tmp")
    assert e.value.block == 0
    assert "accessed UB byte 196608, past the end of the SoC's 196608-byte Unified Buffer" in msg
    assert (f"the TBuf<VECCALC> set up at {kernel_src}:{line_of(kernel_src, 'init-tmp')}, which "
            "TPipe::InitBuffer placed at UB bytes [150048, 200064)") in msg


def test_ub_overflow_past_any_plausible_buffer_names_each_buffer(built, kernel_src):
    # 20 MB buffers: the third ends 60 MB past the UB; the fourth is refused at InitBuffer.
    with pytest.raises(SimError) as e:
        run(built, 1, buffer_bytes=20_000_000)
    msg = e.value.message
    assert e.value.file == str(kernel_src) and e.value.line == line_of(kernel_src, "init-tmp")
    assert "Unified Buffer overflow" in msg and "196608" in msg
    assert "inQueueX TQue<VECIN, depth 2>: 2 x 20000000 B = 40000000 B" in msg
    assert "outQueueY TQue<VECOUT, depth 1>: 1 x 20000000 B = 20000000 B" in msg
    assert "tmpBuf TBuf<VECCALC>: 1 x 20000000 B = 20000000 B" in msg
    assert "total 80000000 B > UB capacity 196608 B" in msg


def test_ub_lengths_round_up_to_32_bytes(built):
    # 3 x 49160 rounds to 3 x 49184 = 147552 B plus a 49184 B TBuf: 196736 B > 196608 B, and
    # mode 23 fills the whole TBuf.
    with pytest.raises(SimError, match="past the end of the SoC's 196608-byte Unified Buffer"):
        run(built, 23, buffer_bytes=49160)
    run(built, 23, buffer_bytes=49152)      # 4 x 49152 B = exactly 192 KiB fits


def test_misaligned_datacopy(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 2, blocks=3)
    err = e.value
    assert (err.file, err.line, err.block, err.block_dim) == (str(kernel_src), line_of(kernel_src, "misaligned"), 0, 3)
    assert "10 float elements = 40 bytes, which is not a multiple of 32 bytes" in err.message
    assert "silently copy only 32 bytes (8 elements)" in err.message
    assert err.message.startswith(f"{kernel_src}:{err.line}: block 0 of 3: ")


def test_assert_reports_the_failing_block(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 3, blocks=4)
    err = e.value
    assert err.kind == "assert" and err.block == 2 and err.line == line_of(kernel_src, "assert")
    assert "ASSERT(GetBlockIdx() != 2) failed" in err.message


def test_deque_on_empty_queue(built, kernel_src):
    with pytest.raises(SimError, match="DeQue on an empty TQue<VECOUT, depth 1>") as e:
        run(built, 4)
    assert e.value.line == line_of(kernel_src, "deque-empty")


def test_gm_past_set_global_buffer_size(built, kernel_src):
    # --strict-bounds: past the size SetGlobalBuffer was given
    with pytest.raises(SimError) as e:
        run(built, 5, blocks=2, modes=SimModes(strict_bounds=True))
    err = e.value
    assert err.line == line_of(kernel_src, "gm-oob") and err.block == 0
    assert "SetGlobalBuffer sized to 8 elements (32 bytes) from this offset (--strict-bounds)" in err.message
    # by default only the allocation bounds an access, as on the device: block 0 reads block 1's
    # part, block 1 the allocator padding; the lanes DataCopy left unfilled reach the output
    with pytest.raises(SimError, match="stores undefined values into bytes \\[64, 1024\\) of 'y'") as e:
        run(built, 5, blocks=2)
    assert e.value.line == line_of(kernel_src, "store")


def test_alloc_without_free(built, kernel_src):
    with pytest.raises(SimError, match="buffer\\(s\\) are all allocated and not freed") as e:
        run(built, 6)
    assert e.value.line == line_of(kernel_src, "alloc-twice")


def test_vector_count_past_the_tensor(built, kernel_src):
    # inside the UB the device runs on into the next buffers (test_sim_ub_past_tensor.py has the
    # rest): x's neighbour in inQueueX, y's in tmpBuf; y's own elements are right
    x, y, info = run(built, 7)
    np.testing.assert_array_equal(y, x * 2)
    assert [l for l in info.log if "warning:" in l and
            f"{kernel_src}:{line_of(kernel_src, 'count-too-big')}: Muls: dst needs 1280 bytes" in l]


def test_unaligned_ub_address(built, kernel_src):
    with pytest.raises(SimError, match="UB offset 12, which is not 32-byte aligned") as e:
        run(built, 8)
    assert e.value.line == line_of(kernel_src, "ub-unaligned")


def test_printf_goes_to_the_run_log(built):
    _, _, info = run(built, 9, blocks=2)
    assert info.log == ["[block 0] block 0 of 2: first 0.000000", "[block 0] DumpTensor UB@0 desc=7 size=3: 0 1 2",
                        "[block 1] block 1 of 2: first 256.000000",
                        "[block 1] DumpTensor UB@0 desc=7 size=3: 256 257 258"]


def test_workspace_round_trip(built):
    """Also: GetSysWorkSpacePtr is the workspace before any SetSysWorkspace (CANN's kernel entry
    sets it), and SetSysWorkspace keeps the first workspace set."""
    x, y, info = run(built, 10, blocks=3)
    np.testing.assert_array_equal(y, x * 2)
    assert info.workspace_bytes == 16 * 1024 * 1024 + 4096


def test_tiling_failure(built):
    with pytest.raises(SimError, match="the tiling function for Faulty returned failure") as e:
        run(built, 100)
    assert e.value.kind == "tiling" and e.value.block is None and e.value.file is None
    assert e.value.refused   # the operator's own function said no (a sim check is not that)


def test_a_sim_tiling_check_is_no_refusal(built):
    with pytest.raises(SimError, match="left blockDim at 0") as e:
        run(built, 101)
    assert e.value.kind == "tiling" and not e.value.refused


def test_block_dim_zero(built):
    with pytest.raises(SimError, match="left blockDim at 0"):
        run(built, 101)


def test_block_dim_above_core_count_runs_in_waves(built):
    # 1000 blocks on 48 cores: the hardware runs them in waves, and so does the sim
    x, y, info = run(built, 102, blocks=1000)
    np.testing.assert_array_equal(y, x * 2)
    assert info.block_dim == 1000
    assert info.profile["waves"] == 21 and info.profile["blocks"] == 1000


def test_syncall_with_more_blocks_than_cores_is_a_hang(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 13, blocks=49)
    assert e.value.line == line_of(kernel_src, "syncall") and e.value.block == 0
    assert "SyncAll with blockDim 49 on 48 cores" in e.value.message


def test_unknown_soc_property_is_reported_not_guessed(built):
    from dataclasses import replace
    # a SoC row without the L1 size (the table has it for Ascend910B1 now): asked, not guessed
    soc = replace(built.soc, l1_bytes=None)
    with pytest.raises(SimError, match="Ascend910B1 has no l1_bytes; add it .* toolchains/socs.yaml"):
        run(built, 103, soc=soc)


def test_soc_without_core_counts(built):
    from dataclasses import replace
    soc = replace(built.soc, name="AscendX", vector_cores=None, cube_cores=None)
    with pytest.raises(SimError, match="neither vector_cores nor cube_cores") as e:
        run(built, 0, soc=soc)
    assert "toolchains/socs.yaml" in e.value.hint


def test_wrong_input_dtype(built):
    with pytest.raises(SimError, match="input 'x' is float64, but this variant needs float32"):
        runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                         {"x": np.zeros(256)}, {"y": np.zeros(256, np.float32)}, {"mode": 0})


def test_segfault_in_kernel_code_names_the_block_and_last_api_call(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 11, blocks=2)
    err = e.value
    assert err.block == 1 and err.line == line_of(kernel_src, "segv")     # x.GetValue(0) on that line
    assert "segmentation fault at address 0x40" in err.message
    assert "the last checked Ascend C call before it is at this line" in err.message
    # The process is intact: later runs work.
    x, y, _ = run(built, 0, blocks=2)
    np.testing.assert_array_equal(y, x * 2)


def test_abort_in_kernel_code(built):
    with pytest.raises(SimError, match="abort\\(\\) in kernel code") as e:
        run(built, 12)
    assert e.value.block == 0


def test_syncall_is_a_barrier_across_blocks(built):
    x, y, info = run(built, 13, blocks=4)
    n = N_PER_BLOCK
    # Block b reads what block b+1 stored before the barrier.
    np.testing.assert_array_equal(y, np.roll(x * 2, -n))
    x, y, _ = run(built, 13, blocks=1)
    np.testing.assert_array_equal(y, x * 2)


def test_syncall_skipped_by_block_0_is_a_hang(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 16, blocks=3)
    assert e.value.block == 1 and e.value.line == line_of(kernel_src, "syncall-not-block0")
    assert "block 0 returned without reaching it" in e.value.message


def test_syncall_skipped_by_another_block_is_a_hang(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 17, blocks=3)
    assert e.value.block == 2 and e.value.line == line_of(kernel_src, "syncall-not-last")
    assert "block 2 returned from the kernel while other blocks wait in SyncAll" in e.value.message


def test_two_blocks_storing_the_same_bytes_is_a_race(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 14, blocks=3)
    err = e.value
    assert err.line == line_of(kernel_src, "shared-store") and err.block == 1
    assert "blocks 0 and 1 both write bytes [0, 1024) of 'y'" in err.message
    assert "SetAtomicAdd" in err.message


def test_blocks_storing_the_same_values_to_the_same_bytes_is_no_race(built):
    # Whichever block's store lands last, each byte ends with the same value; every block also
    # writes its own part, so the whole output is written (as cann-ops Gather's cores do).
    _, y, info = run(built, 24, blocks=3)
    assert np.all(y == 3.0)
    assert "y" not in info.unwritten


def test_a_wrong_per_block_offset_is_a_race_with_the_store_line(built, kernel_src):
    """Every block gets the first rows (no GetBlockIdx() in its offset): the blocks store the
    same values to the same output bytes and leave the rest unwritten. A race on the device,
    reported by default with the kernel's file:line, not only as 'not written' elements."""
    with pytest.raises(SimError) as e:
        run(built, 26, blocks=4)
    err = e.value
    assert err.file == str(kernel_src) and err.line == line_of(kernel_src, "store")
    assert err.block == 1
    assert (f"blocks 0 and 1 both write bytes [0, 1024) of 'y' (block 0 at {kernel_src}:"
            f"{line_of(kernel_src, 'store')}), while 3072 of its 4096 bytes are never written"
            in err.message), err.message
    assert "wrong per-block offset" in err.message


def test_blocks_storing_different_values_name_the_bytes_that_differ(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 25, blocks=3)
    err = e.value
    assert err.line == line_of(kernel_src, "same-store")
    # 3.0f and 4.0f differ in their third byte: element 5 is bytes [20, 24)
    assert err.block == 2
    assert ("blocks 0 and 2 both write bytes [0, 1024) of 'y' and leave different values there (first at "
            f"byte 22) (block 0 at {kernel_src}:{line_of(kernel_src, 'same-store')})") in err.message


@pytest.mark.parametrize("mode", [50, 52], ids=["InitGlobalMemory", "DataCopyUB2GMImpl"])
def test_blocks_zeroing_the_same_workspace_before_syncall_is_no_race(built, mode):
    # Blocks on their own threads (SyncAll) are held to the same rule: identical zeros are harmless.
    x, y, _ = run(built, mode, blocks=3)
    np.testing.assert_array_equal(y, x * 2)


@pytest.mark.parametrize("mode,tag", [(51, "init-gm"), (53, "impl-store")],
                         ids=["InitGlobalMemory", "DataCopyUB2GMImpl"])
def test_blocks_storing_different_values_before_syncall_is_a_race(built, kernel_src, mode, tag):
    with pytest.raises(SimError) as e:
        run(built, mode, blocks=3)
    err = e.value
    # the user workspace after the 16 MiB system part; block 0 stores zeros, block 1 ones (1.0f is
    # 00 00 80 3f: its byte 2 is the first that differs)
    assert err.file == str(kernel_src) and err.line == line_of(kernel_src, tag) and err.block == 1
    assert ("blocks 0 and 1 both write bytes [16777216, 16778240) of 'workspace' and leave different values "
            f"there (first at byte 16777218) (block 0 at {kernel_src}:{line_of(kernel_src, tag)})") in err.message


@pytest.mark.parametrize("mode", [54, 55], ids=["one-after-another", "SyncAll"])
def test_blocks_storing_different_garbage_to_the_same_bytes_is_no_race(built, mode):
    # the defined half is the same in every block; the other half is garbage, different in each:
    # no value to race for (the bytes stay undefined in the workspace)
    x, y, _ = run(built, mode, blocks=3)
    np.testing.assert_array_equal(y, x * 2)


def test_atomic_add_accumulates_across_blocks(built):
    x, y, _ = run(built, 15, blocks=3)
    n = N_PER_BLOCK
    np.testing.assert_array_equal(y[:n], 2 * (x[:n] + x[n:2 * n] + x[2 * n:]))
    assert np.all(y[n:] == 0)


def test_reading_never_written_ub_is_reported_where_the_result_reaches_gm(built, kernel_src):
    # As MemorySanitizer: Add computing from UB nothing wrote is not wrong by itself; storing its
    # result to the output is. Reported at the store, naming the read.
    with pytest.raises(SimError) as e:
        run(built, 18, blocks=2)
    err = e.value
    assert err.line == line_of(kernel_src, "store") and err.block == 0
    # tmpBuf starts at UB offset 3 * 1024; Duplicate filled its first 128 floats (512 bytes).
    assert "DataCopy UB->GM stores undefined values into bytes [512, 1024) of 'y'" in err.message
    assert (f"Add at {kernel_src}:{line_of(kernel_src, 'uninit-read')} read src1 bytes that nothing wrote in "
            "this block") in err.message
    assert "UB byte 3584, 512 bytes into the operand at UB offset 3072, of a TBuf<VECCALC> set up at" in err.message
    assert f"{kernel_src}:{line_of(kernel_src, 'init-tmp')} ('tmpBuf')" in err.message


def test_each_block_has_its_own_ub(built, kernel_src):
    with pytest.raises(SimError, match="Add at .* read src1 bytes that nothing wrote in this block") as e:
        run(built, 19, blocks=2)
    assert e.value.block == 1 and e.value.line == line_of(kernel_src, "store")
    assert f"faulty.cpp:{line_of(kernel_src, 'other-blocks-ub')} read src1" in e.value.message


def test_reading_an_output_before_any_store_is_reported(built, kernel_src):
    # loading the output is harmless; storing what was loaded back into it is not
    with pytest.raises(SimError) as e:
        run(built, 40, blocks=2)
    assert e.value.file == str(kernel_src) and e.value.line == line_of(kernel_src, "store")
    assert e.value.block == 0
    assert "DataCopy UB->GM stores undefined values into bytes [0, 1024) of 'y'" in e.value.message
    assert (f"DataCopy GM->UB at {kernel_src}:{line_of(kernel_src, 'output-before-write')} loaded byte 0 of 'y', "
            "which no block had written yet") in e.value.message
    assert "not zeros" in e.value.message


def test_reading_the_workspace_before_any_store_is_reported(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 41, blocks=2)
    assert e.value.line == line_of(kernel_src, "workspace-before-write") and e.value.block == 0
    assert "of 'workspace', which no block has written yet" in e.value.message
    assert "GlobalTensor::GetValue" in e.value.message


def test_undefined_values_kept_in_the_workspace_are_reported_only_when_they_reach_an_output(built, kernel_src):
    # as MemorySanitizer: a store into scratch memory is not a use
    x, y, _ = run(built, 48, blocks=2)
    half = N_PER_BLOCK // 2
    want = (x * 2).reshape(2, N_PER_BLOCK)
    want[:, :half] = x.reshape(2, N_PER_BLOCK)[:, :half]
    np.testing.assert_array_equal(y, want.reshape(-1))
    with pytest.raises(SimError) as e:
        run(built, 49, blocks=2)
    assert e.value.line == line_of(kernel_src, "store")
    assert "stores undefined values into bytes [512, 1024) of 'y'" in e.value.message
    assert f"{kernel_src}:{line_of(kernel_src, 'ws-load')}" in e.value.message
    assert "of 'workspace'" in e.value.message


def test_reading_back_what_the_kernel_stored_is_fine(built):
    # mode 10 stores to the workspace, then reads it back: defined, so no report
    x, y, _ = run(built, 10, blocks=3)
    np.testing.assert_array_equal(y, x * 2)


def test_a_ragged_datacopy_fails_by_default_and_truncates_with_lenient_copy(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 42, blocks=2)
    assert e.value.line == line_of(kernel_src, "ragged-store") and e.value.block == 0
    assert "DataCopy UB->GM of 252 float elements = 1008 bytes" in e.value.message
    assert "would silently copy only 992 bytes (248 elements)" in e.value.message
    assert "--lenient-copy reproduces the truncation" in e.value.message
    # lenient: what the device does: whole blocks land, the ragged end is dropped
    x, y, info = run(built, 42, blocks=2, modes=SimModes(lenient_copy=True))
    for b in range(2):
        part = slice(b * N_PER_BLOCK, (b + 1) * N_PER_BLOCK)
        np.testing.assert_array_equal(y[part][:248], x[part][:248] * 2)
        np.testing.assert_array_equal(y[part][248:], 0)
    line = line_of(kernel_src, "ragged-store")
    assert any(entry.startswith(f"[block 1] faulty.cpp:{line}: DataCopy UB->GM of 252 float elements = "
                                "1008 bytes copied 992 bytes (--lenient-copy") for entry in info.log)


def test_reduction_work_buffer_smaller_than_documented(built, kernel_src):
    # ReduceMax of 256 floats with index: 8 + 8 work elements (the documented formula); block 1
    # passes only 8.
    with pytest.raises(SimError) as e:
        run(built, 20, blocks=2)
    err = e.value
    assert (err.file, err.line, err.block) == (str(kernel_src), line_of(kernel_src, "work-too-small"), 1)
    assert err.message.startswith(f"{kernel_src}:{err.line}: block 1 of 2: ")
    assert ("ReduceMax: the work buffer (workLocal/sharedTmpBuffer) holds 8 float elements (32 bytes) but "
            "count 256 with calIndex needs at least 16 elements (64 bytes)") in err.message


def test_gather_offset_past_the_source(built, kernel_src):
    # asc-devkit bounds Gather's offsets by the UB, not by src: past src the device reads the UB
    # bytes there (a warning); --strict-bounds makes it an error. Here those bytes are the queue's
    # second buffer, which nothing wrote: the store of the gathered value is reported instead
    what = ("Gather: srcOffset[255] = 1024 (+ srcBaseAddr 0) addresses src bytes [1024, 1028), but src holds "
            "256 float elements (1024 bytes)")
    with pytest.raises(SimError) as e:
        run(built, 21, blocks=2, modes=SimModes(strict_bounds=True))
    err = e.value
    assert (err.file, err.line, err.block) == (str(kernel_src), line_of(kernel_src, "gather-oob"), 0)
    assert what in err.message and "(--strict-bounds" in err.message
    with pytest.raises(SimError) as e:
        run(built, 21, blocks=2)
    assert what not in e.value.message
    assert (f"Gather at {kernel_src}:{line_of(kernel_src, 'gather-oob')} read src bytes that nothing wrote in this "
            "block") in e.value.message


def test_level0_reduction_work_buffer_smaller_than_documented(built, kernel_src):
    with pytest.raises(SimError) as e:
        run(built, 22)
    err = e.value
    assert (err.line, err.block) == (line_of(kernel_src, "work-too-small-level0"), 0)
    assert ("holds 8 float elements (32 bytes) but repeatTime 4 with calIndex needs at least 16 elements "
            "(64 bytes)") in err.message


@pytest.mark.parametrize("mode, marker, warning, error", [
    # harmless on the device (the queue ends with the kernel): the warning names the AllocTensor
    (43, "held-at-exit", "the kernel returned with a tensor of a TQue<VECIN, depth 2> still allocated "
     "(never FreeTensor'd)", "still allocated (never FreeTensor'd)"),
    # the devkit's FreeBuffer asserts only in its CPU debug build; the device sets the buffer FREE
    # again (softmax_cross_entropy_with_logits frees its features twice)
    (46, "free-twice", "FreeTensor of a buffer of this TQue<VECIN, depth 2> that is not allocated (freed "
     "twice?); the device tolerates it", "that is not allocated (freed twice?)"),
])
def test_queue_slips_the_device_tolerates_warn_and_fail_under_strict_bounds(built, kernel_src, mode, marker,
                                                                             warning, error):
    # a warning once per call site; an error with --strict-bounds
    line = line_of(kernel_src, marker)
    x, y, info = run(built, mode, blocks=2)
    np.testing.assert_array_equal(y, x * 2)
    warned = [e for e in info.log if f"warning: {kernel_src}:{line}: {warning}" in e]
    assert len(warned) == 1, info.log
    with pytest.raises(SimError) as e:
        run(built, mode, blocks=2, modes=SimModes(strict_bounds=True))
    assert (e.value.file, e.value.line, e.value.block) == (str(kernel_src), line, 0)
    assert error in e.value.message and "--strict-bounds" in e.value.message


@pytest.mark.parametrize("mode, marker, message", [
    (47, "queued-at-exit", "still in the queue (EnQue'd, never DeQue'd)"),
    (44, "enque-past-depth", "EnQue on a TQue<VECOUT, depth 1> already holding 1 tensor(s) (its depth)"),
    (45, "free-foreign", "FreeTensor of a tensor that was not allocated from this TQue<VECIN, depth 2>"),
    # SetGlobalBuffer(buffer) without a size leaves bufferSize_ unset on the device (only CANN's
    # CPU debug build zeroes it): a decision on GetSize() then is an undefined read
    (65, "unsized-size", "GetSize() of a GlobalTensor never given a size (SetGlobalBuffer without one, "
                         "or none): its bufferSize_ is indeterminate on the device"),
])
def test_queue_protocol_mistakes(built, kernel_src, mode, marker, message):
    with pytest.raises(SimError) as e:
        run(built, mode, blocks=2)
    err = e.value
    assert (err.file, err.line, err.block) == (str(kernel_src), line_of(kernel_src, marker), 0)
    assert err.message.startswith(f"{kernel_src}:{err.line}: block 0 of 2: ")
    assert message in err.message



def test_the_user_workspace_is_never_null_and_unusable_when_none_was_asked_for(built, kernel_src):
    # the device's GetUserWorkspace ignores its argument (the framework's system workspace plus
    # the reserved part): a kernel returning on a null one runs on (mode 67, no workspace asked)
    x, y, _ = run(built, 67, blocks=2)
    np.testing.assert_array_equal(y, x * 2)
    # ... and one that stores there is told at its line (mode 68)
    with pytest.raises(SimError) as e:
        run(built, 68, blocks=1)
    assert e.value.line == line_of(kernel_src, "no-workspace")
    assert "outside every buffer passed to the kernel" in e.value.message


def test_a_global_tensor_keeps_a_size_given_before_a_buffer_without_one(built):
    # as the device, which sets bufferSize_ only in SetGlobalBuffer(buffer, size): mode 65 (the
    # same without the size first) is an error, in test_queue_protocol_mistakes
    x, y, _ = run(built, 66, blocks=2)
    np.testing.assert_array_equal(y, x)
