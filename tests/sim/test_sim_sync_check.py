"""--sync-check: a kernel that leaves out one intra-core synchronisation fails, naming the
reading (or overwriting) instruction's file:line, the earlier access's file:line, the block, the
UB buffer and the pipes; without the check the same kernels compute the right result. Stale UB
from an earlier tile is reported whether or not the check is on."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
from opkg.sim.runtime import SimError
import simbuild
from simbuild import line_of

OP = OpSpec("Hazards", (TensorSpec("x", ("float32",)),), (TensorSpec("y", ("float32",)),),
            (AttrSpec("mode", "int", required=True), AttrSpec("blocks", "int", 1)))
N_PER_BLOCK = 256    # four tiles of 64 per block


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hazards", OP, OP.variants()[0], soc910b, lib_cache,
                          stem="hazards")


@pytest.fixture(scope="module")
def src(pkgs):
    return pkgs / "hazards" / "op_kernel" / "hazards.cpp"



def run(built, mode, *, blocks=2, sync_check=True):
    x = np.arange(N_PER_BLOCK * blocks, dtype=np.float32)
    y = np.zeros_like(x)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"y": y},
                     {"mode": mode, "blocks": blocks}, modes=SimModes(sync_check=sync_check))
    return x, y


def hazard(built, mode, blocks=2) -> SimError:
    with pytest.raises(SimError) as e:
        run(built, mode, blocks=blocks)
    return e.value


@pytest.mark.parametrize("mode", [0, 9])
def test_queues_flags_and_barriers_synchronise(built, mode):
    x, y = run(built, mode)
    np.testing.assert_array_equal(y, 3 * x + 1)


@pytest.mark.parametrize("mode", [1, 2, 3, 4, 5, 6, 7])
def test_without_the_check_the_broken_kernels_compute_the_right_result(built, mode):
    x, y = run(built, mode, sync_check=False)
    np.testing.assert_array_equal(y, 3 * x + 1)


def test_vector_read_of_an_unsynchronised_datacopy(built, src):
    err = hazard(built, 1)
    assert (err.file, err.line, err.block) == (str(src), line_of(src, "add-stage"), 0)
    assert err.message.startswith(f"{src}:{err.line}: block 0 of 2: read-after-write hazard (--sync-check): ")
    assert "Add on PIPE_V reads src1 at UB offset" in err.message
    assert f"of a TBuf<VECCALC> set up at {src}:{line_of(src, 'init-stage')} ('stageBuf')" in err.message
    assert f"which PIPE_MTE2 wrote at {src}:{line_of(src, 'copy-stage')}" in err.message
    assert "SetFlag/WaitFlag<HardEvent::MTE2_V>" in err.message


def test_copy_out_of_a_vector_result_without_the_queue(built, src):
    err = hazard(built, 2)
    assert (err.line, err.block) == (line_of(src, "copy-out"), 0)
    assert "DataCopy UB->GM on PIPE_MTE3 reads source at UB offset" in err.message
    assert "TQue<VECOUT, depth 1>" in err.message
    assert f"which PIPE_V wrote at {src}:{line_of(src, 'add-stage')}" in err.message
    assert "HardEvent::V_MTE3" in err.message


def test_scalar_read_of_a_vector_result_names_the_block(built, src):
    err = hazard(built, 3)      # only block 1 leaves the V_S flag out
    assert (err.line, err.block) == (line_of(src, "getvalue-y"), 1)
    assert "LocalTensor::GetValue on PIPE_S reads an element at UB offset 256" in err.message
    assert "which PIPE_V wrote at" in err.message and "HardEvent::V_S" in err.message
    assert "PipeBarrier<PIPE_S>" not in err.message    # a hardware error, never suggested


def test_scalar_read_after_a_queue_hand_off_needs_mte2_s(built, src):
    # DeQue of a VECIN tensor orders MTE2 before the vector pipe only
    err = hazard(built, 4)
    assert (err.line, err.block) == (line_of(src, "getvalue-x"), 0)
    assert "TQue<VECIN, depth 1>" in err.message
    assert "which PIPE_MTE2 wrote at" in err.message and "HardEvent::MTE2_S" in err.message


def test_vector_read_of_scalar_stores(built, src):
    err = hazard(built, 5)
    assert (err.line, err.block) == (line_of(src, "add-one"), 0)
    assert "Add on PIPE_V reads src1 at UB offset" in err.message
    assert "which PIPE_S wrote at" in err.message and "HardEvent::S_V" in err.message


def test_datacopy_overwriting_what_the_vector_pipe_still_reads(built, src):
    err = hazard(built, 6)
    assert (err.line, err.block) == (line_of(src, "copy-stage"), 0)
    assert err.message.startswith(f"{src}:{err.line}: block 0 of 2: write-after-read hazard")
    assert "a PIPE_MTE2 instruction writes at UB offset" in err.message
    assert f"which PIPE_V reads at {src}:{line_of(src, 'add-stage')}" in err.message
    assert "HardEvent::V_MTE2" in err.message


def test_pipe_barrier_of_one_pipe_does_not_order_two(built, src):
    err = hazard(built, 7)
    assert err.line == line_of(src, "add-stage")
    assert "PipeBarrier<PIPE_V> orders PIPE_V with itself only" in err.message


def test_stale_ub_from_the_previous_tile(built, src):
    # checked without --sync-check too: the second tile's y buffer holds the first tile's data
    for sync_check in (False, True):
        with pytest.raises(SimError) as e:
            run(built, 8, sync_check=sync_check)
        err = e.value
        # reported where the values computed from it reach GM, naming the read
        assert (err.file, err.line, err.block) == (str(src), line_of(src, "copy-out"), 0)
        assert f"Add at {src}:{line_of(src, 'add-one')} read src0 bytes" in err.message
        assert "128 bytes into the operand at UB offset" in err.message and "of a TQue<VECOUT, depth 1>" in err.message
        assert "an earlier tile wrote and nothing wrote since AllocTensor handed this buffer out again" in err.message
