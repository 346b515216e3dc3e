"""NumPy renderings of repository goldens that need TensorFlow (opkg.importers.numpy_goldens):
used only when tensorflow cannot be imported and the repository's golden still makes the
rendered call; each rendering computes what the TensorFlow operation documents."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from opkg.importers import numpy_goldens as G


@pytest.fixture
def no_tensorflow(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "tensorflow" else real(name, *a))


def render(function: str, call: str):
    text = f"def {function}(*a, **k):\n    import tensorflow as tf\n    return tf.compat.v1.{call}(*a)\n"
    source = G.numpy_golden(text, function, ("tensorflow",))
    assert source is not None
    scope: dict = {}
    exec(compile(source, "golden.py", "exec"), scope)
    return scope[function]


def test_scatter_goldens(no_tensorflow):
    var = np.arange(12, dtype=np.float32).reshape(4, 3)
    idx = np.array([[2], [0], [2]], np.int32)
    upd = np.ones((3, 1, 3), np.float32)
    added = render("scatter_add_golden", "scatter_add")(var, idx, upd)
    np.testing.assert_array_equal(added, [[1, 2, 3], [3, 4, 5], [8, 9, 10], [9, 10, 11]])
    updated = render("scatter_update_golden", "scatter_update")(var, idx, upd * 7)
    np.testing.assert_array_equal(updated, [[7, 7, 7], [3, 4, 5], [7, 7, 7], [9, 10, 11]])
    assert var[0, 0] == 0        # the input is left alone


def test_gather_goldens(no_tensorflow):
    params = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    nd = render("gather_nd_golden", "gather_nd")(params, np.array([[1, 2], [0, 0]], np.int64))
    np.testing.assert_array_equal(nd, [[20, 21, 22, 23], [0, 1, 2, 3]])
    v2 = render("gather_v2_golden", "gather")
    np.testing.assert_array_equal(v2(params, np.array([3, 0]), np.array([-1])), params[:, :, [3, 0]])
    batched = v2(params, np.array([[2], [1]]), 1, batch_dims=1)
    np.testing.assert_array_equal(batched, [params[0, [2]], params[1, [1]]])


def test_segment_goldens(no_tensorflow):
    x = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.float16)
    seg = render("segment_sum_golden", "segment_sum")(x, np.array([0, 0, 2, 2], np.int32))
    assert seg.dtype == np.float16
    np.testing.assert_array_equal(seg, [[4, 6], [0, 0], [12, 14]])
    uns = render("unsorted_segment_sum_golden", "unsorted_segment_sum")(
        x, np.array([1, -1, 1, 0], np.int32), np.array([3], np.int32))
    np.testing.assert_array_equal(uns[0], [[7, 8], [6, 8], [0, 0]])     # the -1 row dropped


def test_no_rendering_when_tensorflow_imports_or_the_golden_changed(no_tensorflow, monkeypatch):
    text = "def scatter_add_golden(v, i, u):\n    import tensorflow as tf\n    return tf.scatter_add(v, i, u)\n"
    assert G.numpy_golden(text, "scatter_add_golden", ("tensorflow",)) is not None
    # a golden computing something else now (no tf.scatter_add call), another function, or one
    # that does not import tensorflow: the repository's golden as it is
    assert G.numpy_golden(text.replace("scatter_add(", "scatter_sub("), "scatter_add_golden", ("tensorflow",)) is None
    assert G.numpy_golden(text, "unknown_golden", ("tensorflow",)) is None
    assert G.numpy_golden(text, "scatter_add_golden", ("torch",)) is None
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    assert G.numpy_golden(text, "scatter_add_golden", ("tensorflow",)) is None
