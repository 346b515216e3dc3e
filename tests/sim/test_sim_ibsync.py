"""IBSet / IBWait on the sim: a value passed along a chain of inter-block flags in a zeroed GM
workspace, forward (blocks in order) and backward (block 0 waits: the launch switches to one
thread per block), and a wait no block satisfies reported at its line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec(
    "IbSync",
    (TensorSpec("ws", ("int32",)),),
    (TensorSpec("z", ("int32",)),),
    (AttrSpec("which", "int", required=True), AttrSpec("blocks", "int", 4)),
)
BLOCKS = 4
KERNEL = Path(__file__).parent / "pkgs" / "ibsync" / "op_kernel" / "ib_sync.cpp"


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "ibsync", OP, OP.variant("int32"), soc910b, lib_cache, stem="ib_sync")


def run(built, which):
    ws = np.zeros(BLOCKS * 8 * 2, np.int32)
    z = np.zeros(BLOCKS * 8, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"ws": ws}, {"z": z},
                     {"which": which, "blocks": BLOCKS})
    return z.reshape(BLOCKS, 8), ws.reshape(2, BLOCKS, 8)


def test_forward_chain(built):
    z, _ = run(built, 1)
    np.testing.assert_array_equal(z, np.repeat(100 + np.arange(BLOCKS)[:, None], 8, 1))


def test_backward_chain_runs_the_blocks_concurrently(built):
    z, _ = run(built, 2)
    np.testing.assert_array_equal(z, np.repeat(100 + np.arange(BLOCKS)[::-1, None], 8, 1))


def test_a_wait_no_block_satisfies_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 3)
    msg = str(err.value)
    assert f"ib_sync.cpp:{simbuild.line_of(KERNEL, 'never-set')}" in msg
    assert "IBWait(blockIdx 3, eventID 0) waits for the flag to become 1" in msg
    assert "no block that ran before block 1 set it" in msg
