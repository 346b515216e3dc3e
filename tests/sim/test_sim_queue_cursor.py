"""A queue hands its buffers out round-robin, as the device's (a cursor over the buffers, not
the lowest free one): a kernel that reads a tile it just freed while it fills the queue's next
tensor reads defined data, and the stale check still fires once the cursor comes back to the
freed tile's buffer."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
from opkg.sim.runtime import SimError
import simbuild
from simbuild import line_of

OP = OpSpec("QueueCursor", (TensorSpec("x", ("float32",)),), (TensorSpec("y", ("float32",)),),
            (AttrSpec("mode", "int", required=True),))


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "queue_cursor", OP, OP.variants()[0], soc910b, lib_cache,
                          stem="queue_cursor")


def run(built, mode):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"y": y},
                     {"mode": mode})
    return x, y


def test_a_freed_tile_is_not_the_next_one_handed_out(built):
    x, y = run(built, 0)
    np.testing.assert_array_equal(y, 2 * x + 1)


def test_the_cursor_comes_back_to_the_freed_tile(built, pkgs):
    src = pkgs / "queue_cursor" / "op_kernel" / "queue_cursor.cpp"
    with pytest.raises(SimError) as e:
        run(built, 1)
    assert (e.value.file, e.value.line) == (str(src), line_of(src, "copy-out"))
    assert f"Adds at {src}:{line_of(src, 'read-freed')} read src" in e.value.message
