"""NumPy renderings of repository goldens that need TensorFlow.

ops-nn's index-family goldens (tests/assets/golden.py) compute their reference with one
TensorFlow call each; TensorFlow has no build for many Pythons and is not something opkg can
install. For those goldens the import writes one of these functions into the package's
golden.py instead, when this Python cannot import tensorflow. Each is written here from the
documented semantics of the TensorFlow operation the repository's golden calls (named in
`CALLS`); the repository's golden is only matched, never copied: a golden whose function name
or TensorFlow call differs gets no rendering, and the import says so as before.
"""

from __future__ import annotations

import importlib.util
import re

# function name -> (the TensorFlow call the repository's golden makes, NumPy source)
_GOLDENS: dict[str, tuple[str, str]] = {
    "scatter_update_golden": ("scatter_update", '''
def scatter_update_golden(var, indices, updates, *, use_locking=False, **kwargs):
    """tf.compat.v1.scatter_update: var[indices[i], ...] = updates[i, ...]; of duplicate
    indices the last update is kept (TensorFlow leaves the order unspecified)."""
    out = np.array(var, copy=True)
    out[indices.reshape(-1)] = updates.reshape((-1,) + var.shape[1:])
    return out
'''),
    "scatter_add_golden": ("scatter_add", '''
def scatter_add_golden(var, indices, updates, *, use_locking=False, **kwargs):
    """tf.compat.v1.scatter_add: var[indices[i], ...] += updates[i, ...], duplicates summed."""
    out = np.array(var, copy=True)
    np.add.at(out, indices.reshape(-1), updates.reshape((-1,) + var.shape[1:]))
    return out
'''),
    "gather_nd_golden": ("gather_nd", '''
def gather_nd_golden(params, indices, **kwargs):
    """tf.compat.v1.gather_nd (batch_dims 0): out[i...] = params[indices[i..., 0], ...,
    indices[i..., k-1], ...] with k = indices.shape[-1]."""
    k = indices.shape[-1]
    if k == 0:
        return np.broadcast_to(params, indices.shape[:-1] + params.shape).copy()
    return params[tuple(np.moveaxis(indices, -1, 0))]
'''),
    "segment_sum_golden": ("segment_sum", '''
def segment_sum_golden(x, segment_ids, **kwargs):
    """tf.math.segment_sum: out[s, ...] = sum of x[i, ...] with segment_ids[i] == s, for s up to
    the largest id (ids sorted); bfloat16 and float16 summed in float32, as the golden does for
    bfloat16."""
    acc = np.float32 if x.dtype.name in ("bfloat16", "float16") else x.dtype
    n = int(segment_ids.max()) + 1 if segment_ids.size else 0
    out = np.zeros((n,) + x.shape[1:], acc)
    np.add.at(out, segment_ids.reshape(-1), x.astype(acc))
    return out.astype(x.dtype)
'''),
    "unsorted_segment_sum_golden": ("unsorted_segment_sum", '''
def unsorted_segment_sum_golden(x, segment_ids, num_segments, *, is_preprocessed=False, check_ids=False,
                                **kwargs):
    """tf.unsorted_segment_sum: out[s, ...] = sum of x[i..., ...] with segment_ids[i...] == s,
    for s in [0, num_segments); negative ids are dropped."""
    n = int(np.asarray(num_segments).reshape(-1)[0])
    ids = segment_ids.reshape(-1)
    rows = x.reshape((ids.size,) + x.shape[segment_ids.ndim:])
    keep = (ids >= 0) & (ids < n)
    out = np.zeros((n,) + rows.shape[1:], x.dtype)
    np.add.at(out, ids[keep], rows[keep])
    return [out]
'''),
    "gather_v2_golden": ("gather", '''
def gather_v2_golden(x, indices, axis, *, batch_dims=0, negative_index_support=False, **kwargs):
    """tf.compat.v1.gather(x, indices, axis, batch_dims): np.take along axis, per batch for the
    leading batch_dims dimensions."""
    axis = int(np.asarray(axis).reshape(-1)[0])
    axis = axis if axis >= 0 else axis + x.ndim
    batch_dims = batch_dims if batch_dims >= 0 else batch_dims + indices.ndim
    if batch_dims == 0:
        return np.take(x, indices, axis=axis)
    batch = x.shape[:batch_dims]
    parts = [np.take(x[b], indices[b], axis=axis - batch_dims) for b in np.ndindex(*batch)]
    return np.stack(parts).reshape(batch + parts[0].shape)
'''),
}


def numpy_golden(golden_text: str, function: str, requires) -> str | None:
    """golden.py source for a repository golden `function` (its file's text `golden_text`) that
    imports tensorflow, when this Python has no tensorflow and a rendering of the same
    TensorFlow call is here; None otherwise (the repository's golden is used as it is)."""
    if "tensorflow" not in requires or importlib.util.find_spec("tensorflow") is not None:
        return None
    known = _GOLDENS.get(function)
    if known is None:
        return None
    call, source = known
    # the golden must still make that call (tf.<...>.scatter_update(...)): a changed golden
    # gets no stale rendering
    if not re.search(rf"\btf\.(?:[\w.]+\.)?{re.escape(call)}\s*\(", golden_text):
        return None
    return "import numpy as np\n\n" + source.lstrip("\n")
