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


# -- kernels written as function templates over tiling-key parameters (ASCENDC_TPL_*) ----------
#
# `template <uint64_t A, ...> __global__ __aicore__ void k(GM_ADDR...)`: CANN's op compiler
# instantiates it for every combination ASCENDC_TPL_SEL lists and launches the one the tiling key
# encodes. The sim compiles a small translation unit that includes the kernel source unchanged
# and then defines the extern "C" entry the generated kernel entry calls: it maps the launch's
# key onto the instantiation (opkg_sim::tpl::dispatch, ascendc/host_api/tiling/template_argument.h).

_STRIP = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_TPL_SCOPE = re.compile(r'\bnamespace\s+([\w:]+)\s*\{|\bASCENDC_TPL_ARGS_DECL\s*\(|[{}]'
                        r'|^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def template_kernel(kernel_source, text: str, kernel_name: str, defines=None) -> bool:
    """Whether the kernel entry `kernel_name` is a function template, in the code that the
    preprocessor keeps with `defines` (arch_defines: ops-nn kernels define a template entry for
    Ascend 950 under `#if __CCE_AICORE__ == 310` and an extern "C" one in its #else)."""
    code = _STRIP.sub(" ", text)
    if defines is not None:
        code = active_code(code, defines)
    return re.search(r"\btemplate\s*<[^;{]*>\s*(?:(?:__global__|__aicore__|extern\s+\"C\")\s+)*"
                     rf"void\s+{re.escape(kernel_name)}\s*\(", code) is not None


def template_param_kinds(text: str, kernel_name: str, defines=None) -> list[bool]:
    """For each template parameter of the kernel entry `kernel_name`, whether it is a type
    (`typename D_T_X`, as ASCENDC_TPL_DATATYPE_DECL parameters of ops-nn's Ascend 950 kernels are
    declared: CANN's op compiler instantiates them with the dtype's C++ type) or a value."""
    code = _STRIP.sub(" ", text)
    if defines is not None:
        code = active_code(code, defines)
    m = re.search(r"\btemplate\s*<([^;{]*)>\s*(?:(?:__global__|__aicore__|extern\s+\"C\")\s+)*"
                  rf"void\s+{re.escape(kernel_name)}\s*\(", code)
    if m is None:
        return []
    params, depth, cur = [], 0, ""
    for ch in m.group(1):
        depth += ch in "<(" and 1 or (ch in ">)" and -1 or 0)
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    params.append(cur)
    return [bool(re.match(r"\s*(typename|class)\b", p)) for p in params if p.strip()]


def arch_defines(flags) -> dict[str, int]:
    """The integer macros of a compile line's -D flags (flags.arch_flags)."""
    out = {}
    for f in flags:
        m = re.fullmatch(r"-D(\w+)(?:=(-?\d+))?", f)
        if m:
            out[m.group(1)] = int(m.group(2) or 1)
    return out


_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def _condition(kind: str, expr: str, defines: dict[str, int]) -> bool | None:
    """An #if/#ifdef/#ifndef/#elif condition's value under `defines`, or None when it names a
    macro they do not decide (a macro not among them may still be defined by a header)."""
    expr = expr.strip()
    if kind in ("ifdef", "ifndef"):
        return None if expr not in defines else (kind == "ifdef")
    expr = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
                  lambda m: "1" if (m.group(1) or m.group(2)) in defines else "@", expr)
    if "@" in expr:
        return None
    expr = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(defines[m.group(0)])
                  if m.group(0) in defines else "@", expr)
    if "@" in expr:
        return None
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}))      # digits and operators only
    except Exception:           # noqa: BLE001 - anything else is undecided, hence kept
        return None


def active_code(code: str, defines: dict[str, int]) -> str:
    """`code` without the lines of #if branches that `defines` rule out; a branch whose
    condition they do not decide is kept, as are the branches after it."""
    from opkg.util.memo import once

    return once(("active_code", code, tuple(sorted(defines.items()))),
                lambda: _active_code(code, defines))


def _active_code(code: str, defines: dict[str, int]) -> str:
    out, stack = [], []      # per #if: [this branch active, a branch was taken, undecided]
    for line in code.splitlines():
        m = _DIRECTIVE.match(line)
        live = all(f[0] for f in stack)
        if m:
            kind, rest = m.groups()
            if kind in ("if", "ifdef", "ifndef"):
                value = _condition(kind, rest, defines)
                stack.append([value is not False, value is True, value is None])
            elif kind == "elif" and stack:
                f = stack[-1]
                if f[1]:
                    f[0] = False
                else:
                    value = None if f[2] else _condition("if", rest, defines)
                    f[0], f[1], f[2] = value is not False, value is True, f[2] or value is None
            elif kind == "else" and stack:
                stack[-1][0] = not stack[-1][1]
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if live:
            out.append(line)
    return "\n".join(out)


def tpl_decl_namespace(source, text: str, include_dirs, _seen=None, defines=None) -> str | None:
    """The namespace ('' for the global one) holding the ASCENDC_TPL_ARGS_DECL that `source`
    (content `text`) reaches through its quoted includes (resolved next to the including file,
    then in `include_dirs`), or None when it reaches none. With `defines` (arch_defines), only
    through the code the SoC's preprocessor keeps (ops-nn's conv3d_v2 includes the Ascend 950's
    key header under `#if __CCE_AICORE__ > 300` and the 910B's in its #else)."""
    from pathlib import Path

    seen = _seen if _seen is not None else set()
    seen.add(Path(source).resolve())
    scopes: list[str | None] = []
    code = _STRIP.sub(" ", text)
    if defines is not None:
        code = active_code(code, defines)
    for m in _TPL_SCOPE.finditer(code):
        ns, inc = m.group(1), m.group(2)
        if ns:
            scopes.append(ns)
        elif inc:
            for base in (Path(source).parent, *map(Path, include_dirs)):
                path = (base / inc).resolve()
                if path.is_file():
                    break
            else:
                continue
            if path in seen:
                continue
            found = tpl_decl_namespace(path, path.read_text(errors="replace"), include_dirs, seen,
                                       defines)
            if found is not None:
                return "::".join([s for s in scopes if s] + ([found] if found else []))
        elif m.group(0) == "{":
            scopes.append(None)
        elif m.group(0) == "}":
            if scopes:
                scopes.pop()
        else:   # ASCENDC_TPL_ARGS_DECL(
            return "::".join(s for s in scopes if s)
    return None


def tpl_kernel_source(kernel_include: str, op: OpSpec, namespace: str, kinds: list[bool] = ()) -> str:
    """The translation unit compiled for a template kernel: `kernel_include` (the kernel source,
    as an #include path) and the dispatching entry. `namespace`: tpl_decl_namespace(); `kinds`:
    template_param_kinds() (empty: every parameter a value)."""
    return _env().get_template("tpl_kernel.cpp.j2").render(
        kernel_include=kernel_include, kernel_name=op.kernel_name, kinds=list(kinds) if any(kinds) else [],
        params=[f"opkg_{p}" for p in kernel_params(op)],
        scope="::" + namespace + "::" if namespace else "::")
