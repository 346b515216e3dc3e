"""TBufPool (the devkit's kernel_tpipe.h) and the other devkit names ops-nn's 910B kernels use
unqualified (tests/sim/pkgs/bufpool): a pool carved from the pipe hands out queue and TBuf
memory in order, a pool sharing another's memory starts at its first byte, Reset hands the
pool out again from its start, and running past a pool's length is an error at the InitBuffer
(the device would overlap what follows the pool)."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
from opkg.sim.runtime import SimError
import simbuild
from simbuild import line_of

OP = OpSpec("BufPool", (TensorSpec("x", ("float32",)),),
            (TensorSpec("y", ("float32",)), TensorSpec("where", ("int32",))),
            (AttrSpec("mode", "int", required=True),))


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "bufpool", OP, OP.variants()[0], soc910b, lib_cache, stem="bufpool")


def run(built, mode, n=64):
    x = np.arange(n, dtype=np.float32)
    y = np.zeros_like(x)
    where = np.zeros(4, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x},
                     {"y": y, "where": where}, {"mode": mode})
    return x, y, where


def test_a_pool_hands_out_its_buffers_in_order_and_a_shared_pool_starts_at_its_first_byte(built):
    x, y, where = run(built, 0)
    np.testing.assert_array_equal(y, 2 * x + 1)
    # tmp follows the queue's 256-byte tile in pool A; pool B's first buffer is A's first byte,
    # and reads what A's queue tile left there (2 * x[1])
    assert list(where) == [256, 0, 2, 1]


def test_reset_hands_the_pool_out_again_from_its_start(built):
    _, _, where = run(built, 2, n=40)   # 160 bytes, a 160-byte tile
    assert list(where[:3]) == [160, 0, 2]


def test_a_buffer_past_the_pools_length_is_an_error(built, pkgs):
    src = pkgs / "bufpool" / "op_kernel" / "bufpool.cpp"
    with pytest.raises(SimError) as e:
        run(built, 1)
    assert (e.value.file, e.value.line) == (str(src), line_of(src, "past-pool"))
    assert ("TBufPool<VECCALC> overflow: TBuf<VECCALC> needs 32 bytes at offset 512 of the "
            "pool's 512") in e.value.message
