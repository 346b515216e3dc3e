"""What several case modules share. Not a module of its own project (the leading underscore):
`from _shared import ...` in a module is replaced by this file's text when the module is loaded
(check_modules.module_source), so the module copied into a package as compat_golden.py is
self-contained, and what check_modules checks is what the harness runs."""
import numpy as np

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
