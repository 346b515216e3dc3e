"""C++ sources of the sim toolchain's generated entry translation units.

The build pipeline compiles these beside a package's own sources: the host entry into the host
library, the kernel entry into each kernel library. Their exported C ABI is what `runtime.py`
calls (struct layouts in `include/opkg_sim/runtime/abi.h`, mirrored by `abi.py`).
"""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2

from opkg.core.model import OpSpec

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("opkg.sim", "templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def _function(qualified: str) -> dict:
    """Split 'optiling::TilingFunc' into namespaces and a name, rejecting anything else."""
    text = qualified.strip()
    if text.startswith("::"):
        text = text[2:]
    parts = text.split("::")
    if not parts or not all(_IDENT.match(p) for p in parts):
        raise ValueError(
            f"tiling function {qualified!r} is not a C++ qualified name like optiling::TilingFunc")
    return {"namespaces": parts[:-1], "name": parts[-1], "qualified": "::" + "::".join(parts)}


def kernel_params(op: OpSpec) -> list[str]:
    """The kernel's GM parameters in CANN order: inputs, outputs, workspace, tiling (a ref
    tensor's output position is `<name>_ref`, as CANN's kernels name it)."""
    refs = set(op.ref_outputs)
    return ([t.name for t in op.inputs] + [t.name + "_ref" if t.name in refs else t.name
                                           for t in op.outputs] + ["workspace", "tiling"])


def host_entry_source(op: OpSpec, tiling_function: str | None = None) -> str:
    function = _function(tiling_function) if tiling_function else None
    return _env().get_template("host_entry.cpp.j2").render(op_type=op.type, function=function)


def kernel_entry_source(op: OpSpec) -> str:
    params = [f"opkg_{p}" for p in kernel_params(op)]
    return _env().get_template("kernel_entry.cpp.j2").render(
        op_type=op.type, kernel_name=op.kernel_name, params=params)
