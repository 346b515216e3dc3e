"""Which lines of a kernel source a build for one architecture keeps, as far as the source's
`#if`/`#ifdef`/`#elif`/`#else` conditions test the architecture's own macros (`__CCE_AICORE__`,
`__NPU_ARCH__`, the `-D` of `flags.arch_flags`). A source read as text (a REGISTER_TILING_DEFAULT
looked up before the compile) must not take what a branch for another architecture says: ops-nn
kernels keep their Ascend 950 entry, with its own tiling struct, under
`#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310` beside the classic one.

A condition that names any other macro (a dtype macro, one a header defines) is undecidable
here: its lines count as kept, as they were before this reading."""

from __future__ import annotations

import re

_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_DEFINED = re.compile(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)")
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
# the compiler's architecture macros: absent ones are 0 for this architecture, as in cpp
_ARCH = re.compile(r"__(?:CCE|NPU|DAV)\w*")


def macro_values(flags: list[str]) -> dict[str, int]:
    """The integer macros `-DNAME[=VALUE]` of a compile's flags."""
    out = {}
    for f in flags:
        m = re.fullmatch(r"-D(\w+)(?:=(-?\d+))?", f)
        if m:
            out[m.group(1)] = int(m.group(2) or 1)
    return out


def condition(expr: str, macros: dict[str, int]) -> bool | None:
    """An `#if` expression on `macros`: True or False, None when it names another macro or is
    not a plain integer expression."""
    def known(name: str) -> bool:
        return name in macros or bool(_ARCH.fullmatch(name))

    names = [m.group(1) or m.group(2) for m in _DEFINED.finditer(expr)]
    if not all(known(n) for n in names):
        return None
    expr = _DEFINED.sub(lambda m: "1" if (m.group(1) or m.group(2)) in macros else "0", expr)
    expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr)
    if not all(known(n) for n in _IDENT.findall(expr)):
        return None
    expr = _IDENT.sub(lambda m: str(macros.get(m.group(0), 0)), expr)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}, {}))   # digits, operators, parentheses only
    except Exception:       # noqa: BLE001 - anything else is not decidable here
        return None


def kept_lines(text: str, macros: dict[str, int]) -> list[str]:
    """The lines of `text` (comments already removed) outside every branch the architecture's
    macros rule out; directive lines are left out."""
    text = text.replace("\\\n", " ")
    # per open #if: (whether a branch was taken so far, whether the current one is), each
    # True, False or None (undecidable)
    stack: list[tuple[bool | None, bool | None]] = []
    out = []
    for line in text.splitlines():
        m = _DIRECTIVE.match(line)
        if m is None:
            if all(active is not False for _, active in stack):
                out.append(line)
            continue
        kind, rest = m.group(1), m.group(2).strip()
        if kind in ("if", "ifdef", "ifndef"):
            c = condition(rest if kind == "if" else
                          ("" if kind == "ifdef" else "!") + f"defined({rest})", macros)
            stack.append((c, c))
        elif not stack:
            continue
        elif kind == "elif":
            taken = stack[-1][0]
            c = condition(rest, macros)
            active = False if taken else (None if taken is None or c is None else c)
            stack[-1] = (True if taken or c else (None if taken is None or c is None else False),
                         active)
        elif kind == "else":
            taken = stack[-1][0]
            stack[-1] = (True, None if taken is None else not taken)
        else:
            stack.pop()
    return out
