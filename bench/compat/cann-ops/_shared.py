"""What several case modules share. Not a module of its own project (the leading underscore):
`from _shared import ...` in a module is replaced by this file's text when the module is loaded
(check_modules.module_source), so the module copied into a package as compat_golden.py is
self-contained, and what check_modules checks is what the harness runs."""
import math

import numpy as np

# bfloat16's 8-bit mantissa; the other dtypes take the manifest's default tolerance
BF16_TOLERANCE = {"bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}

# -- the foreach family: lists of tensors, one output tensor per input tensor ------------------

FOREACH_TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 1e-4},
                     "float16": {"rtol": 1e-3, "atol": 1e-3, "error_ratio": 1e-3},
                     "bfloat16": {"rtol": 4e-3, "atol": 4e-3, "error_ratio": 4e-3}}
# the examples' gen_data.py (two [8, 2048] tensors), a ragged and a mixed list
FOREACH_LISTS = {"example": [[8, 2048], [8, 2048]], "ragged": [[6], [3]],
                 "mixed": [[1], [255], [16, 17], [3, 5, 7], [4096]]}
LIST, PER_TENSOR = "list", "per_tensor"


def foreach_cases(ranges: dict, out: str | None = "y", **inputs) -> list[dict]:
    """One case per FOREACH_LISTS entry; `inputs` in OpDef order, each LIST (one shape per
    tensor), PER_TENSOR (one value per tensor of the list) or a fixed shape; the output `out`
    (None: no output_shapes) has the list's shapes."""
    cases = []
    for name, shapes in FOREACH_LISTS.items():
        given = {t: shapes if s == LIST else [len(shapes)] if s == PER_TENSOR else s
                 for t, s in inputs.items()}
        case = {"name": name, "shapes": given, "attrs": {}, "ranges": dict(ranges)}
        if out is not None:
            case["output_shapes"] = {out: shapes}
        cases.append(case)
    return cases


def up(t):
    """Integer tensors stay integer; floating ones (fp16, bf16, fp32) compute in fp32."""
    return t if np.issubdtype(t.dtype, np.integer) else t.astype(np.float32)


def scalar_like(s, like):
    """A scalar as the kernel uses it with tensors of `like`'s dtype: integer stays integer."""
    return s if np.issubdtype(like.dtype, np.integer) else np.float32(s)


def first(t):
    """The value of a one-element scalar input, as scalar_like of its own dtype."""
    return scalar_like(t.reshape(-1)[0], t)


def each_f32(f, tensors) -> list:
    """f of every tensor of a list, computed in fp32."""
    return [f(t.astype(np.float32)) for t in tensors]


# -- the gradients of padding (pad_v3_grad_*, pad_v4_grad, reflection_pad3d_grad, circular) ----

def edge(i, n):
    """Replicate padding: the source index of padded position i (relative to the first kept)."""
    return np.clip(i, 0, n - 1)


def reflect(i, n):
    """Reflect padding (the edge itself not repeated)."""
    i = np.abs(i)
    return np.where(i > n - 1, 2 * (n - 1) - i, i)


def circular(i, n):
    return i % n


def pad_grad(x, paddings, dims, source):
    """The gradient of padding the last `dims` axes (None: as many as paddings has before/after
    pairs, all of them used; else its last 2 * dims values): every element of x is added to
    the element of the unpadded tensor `source(index - before, kept length)` it was copied from."""
    p = [int(v) for v in paddings.reshape(-1)]
    if dims is None:
        dims = len(p) // 2
    else:
        p = p[-2 * dims:]
    out = x.astype(np.float64)
    for i in range(dims):
        axis = x.ndim - dims + i
        before, after = p[2 * i], p[2 * i + 1]
        n = out.shape[axis] - before - after
        acc = np.zeros(out.shape[:axis] + (n,) + out.shape[axis + 1:])
        np.add.at(np.moveaxis(acc, axis, 0), source(np.arange(out.shape[axis]) - before, n),
                  np.moveaxis(out, axis, 0))
        out = acc
    return out


# -- GELU and the gated linear units of the activation family (ge_glu_*, gelu_quant) ------------

ERF = np.frompyfunc(math.erf, 1, 1)   # no scipy: the standard library's erf, element-wise


def gelu_erf(a):
    return 0.5 * a * (1.0 + ERF(a / math.sqrt(2.0)).astype(np.float64))


def gelu_tanh(a):
    return 0.5 * a * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (a + 0.044715 * a ** 3)))


def glu_halves(x, dim, activate_left):
    """(the half GELU is applied to, the other half) of x split in two along dim, in float64."""
    left, right = np.split(x.astype(np.float64), 2, axis=dim)
    return (left, right) if activate_left else (right, left)


def ge_glu(x, dim, approximate, activate_left):
    """GeGLU's outputs (y = other * gelu(act), gelu(act)); approximate 1 is the tanh form."""
    act, other = glu_halves(x, dim, activate_left)
    g = gelu_tanh(act) if approximate == 1 else gelu_erf(act)
    return other * g, g
