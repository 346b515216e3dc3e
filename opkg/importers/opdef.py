"""Read the prototype an operator's own OpDef declares, for `opkg import`.

The OpDef in op_host is what CANN registers on the device, so it is the source of truth for the
manifest's `op:`. Its dtype lists are often computed (vectors built in loops, macros of shared
headers), so it is not parsed: the host sources are compiled on the sim exactly as a build would
compile them, with a generated entry that names no op, and the OpDef registry is asked what it
holds (the same `opkg.sim.runtime.host_prototypes` the build's OpDef check reads). The library is
loaded in a child process, because an OpDef constructor is user code and may crash.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from opkg.verify.prototype import (OP_ADD_RE, keep_positions, list_length_problem,
                                   runnable_combinations)


@dataclass(frozen=True)
class Probe:
    ops: list[dict]          # host_prototypes(): [{type, inputs, outputs, attrs, aicore, ...}]
    warnings: list[str]      # compiler warnings from the project's own sources


class ProbeError(Exception):
    """The host sources did not compile or load on the sim (message: the first lines)."""


def read_opdefs(host_sources: list[Path], include_dirs: list[Path], own_dir: Path, *,
                precompile: bool = False) -> Probe:
    """The OpDefs `host_sources` register. What every probe compiles alike (the sim's host
    runtime, the generated entry, and with a precompiled prelude the sim's OpDef headers) is
    compiled once into opkg's cache, keyed by its content (shared_objects); only the sources
    themselves are compiled per probe. `precompile`: build the prelude when the cache lacks it
    (an import of many operators; one that exists is used whatever this says). A probe's
    answer is kept in the cache too, with the files its compile read (g++ -MD): the next
    import of unchanged sources and headers reads it there, compiling nothing."""
    cxx, _, base = _probe_setup()
    shared = shared_objects(precompile)
    # -O0: an OpDef constructor runs once; optimising it only costs the import time
    prelude = ["-include", str(shared.prelude)] if shared.prelude else []
    compile_flags = [*base, "-O0", *prelude, *(f"-I{d}" for d in include_dirs)]
    answer = _cache_root() / "answers" / (_digest("\0".join([
        _sim_key(cxx, tuple(base)), cxx, *compile_flags, str(shared.entry), str(shared.runtime),
        *map(str, host_sources)])) + ".json")
    known = _known_answer(answer)
    if known is not None:
        return known
    with tempfile.TemporaryDirectory(prefix="opkg-import-") as tmp:
        objects, warnings, read = [], [], set()
        for i, src in enumerate(host_sources):
            obj, dep = Path(tmp) / f"src{i}.o", Path(tmp) / f"src{i}.d"
            proc = subprocess.run([cxx, *compile_flags, "-c", str(src), "-o", str(obj),
                                   "-MD", "-MF", str(dep)], capture_output=True, text=True)
            if proc.returncode != 0:
                raise ProbeError(first_errors(proc.stderr))
            warnings += [w for w in own_warnings(proc.stderr, own_dir) if w not in warnings]
            objects.append(str(obj))
            read |= _depfile_paths(dep)
        lib = Path(tmp) / "libprobe.so"
        # linked without `-z defs` and loaded lazily: a host API the sim lacks (used by the
        # tiling function, not by the OpDef constructor) must not hide the prototype; the
        # build reports it
        proc = subprocess.run([cxx, *base, str(shared.entry), str(shared.runtime), *objects,
                               "-shared", "-o", str(lib)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise ProbeError(first_errors(proc.stderr))
        # the child imports nothing but ctypes and json (-I -S: not even site, nor opkg):
        # its start-up is most of what loading costs; the parent spells the dtypes
        proc = subprocess.run([sys.executable, "-I", "-S", "-c", _CHILD, str(lib)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ProbeError(f"loading the host library crashed (status {proc.returncode}): "
                             f"{proc.stderr.strip()[-500:]}")
        data = json.loads(proc.stdout)
        if "error" in data:
            raise ProbeError(data["error"])
        from opkg.sim.runtime import manifest_spelling

        probe = Probe([op for op in manifest_spelling(data["ops"]) if op["type"] != PLACEHOLDER],
                      warnings)
    _keep_answer(answer, probe, read)
    return probe


def _depfile_paths(dep: Path) -> set[str]:
    """The files a g++ -MD dependency file lists, less the sim's headers and the prelude (the
    sim key covers them)."""
    from opkg.sim import flags

    text = dep.read_text(errors="replace").replace("\\\n", " ")
    covered = (str(flags.include_dir().resolve()) + "/", str(_cache_root().resolve()) + "/")
    paths = set()
    for rule in text.split("\n"):
        if ":" not in rule:
            continue
        for p in rule.split(":", 1)[1].split():
            resolved = str(Path(p).resolve())
            if not resolved.startswith(covered) and Path(resolved).is_file():
                paths.add(resolved)
    return paths


def _file_digest(path: str) -> str | None:
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:24]
    except OSError:
        return None


def _known_answer(answer: Path) -> Probe | None:
    """A kept probe answer whose every read file is as it was, else None."""
    try:
        kept = json.loads(answer.read_text())
    except (OSError, ValueError):
        return None
    if any(_file_digest(p) != d for p, d in kept["read"].items()):
        return None
    return Probe(kept["ops"], kept["warnings"])


def _keep_answer(answer: Path, probe: Probe, read: set[str]) -> None:
    from opkg.util.fsutil import atomic_write_text

    answer.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(answer, json.dumps({"read": {p: _file_digest(p) for p in sorted(read)},
                                          "ops": probe.ops, "warnings": probe.warnings}))


PLACEHOLDER = "OpkgImportProbe"
# the headers every OpDef source includes (ops-nn: 467 of its 528 def sources include this one
# and nothing else of the sim's); precompiled, a def source's compile is about half as long
PRELUDE_HEADER = "opkg_probe_prelude.h"
PRELUDE_TEXT = '#include "register/op_def_registry.h"\n'


def _probe_setup():
    """The compiler, the placeholder op the probe's entry is generated for (an entry for no
    particular op: only the registry queries are used) and the flags of every probe compile."""
    from opkg.core.model import OpSpec, TensorSpec
    from opkg.sim import flags
    from opkg.toolchains.sim import find_compiler

    placeholder = OpSpec(type=PLACEHOLDER, inputs=(),
                         outputs=(TensorSpec("y", ("float32",), ("ND",)),), attrs=())
    return find_compiler(), placeholder, [*flags.common_flags(), *flags.host_flags(placeholder)]


def probe_runtime_object() -> Path:
    """The host runtime object every probe links, compiled into opkg's cache if it is not
    there yet."""
    return shared_objects().runtime


@dataclass(frozen=True)
class Shared:
    runtime: Path            # the sim's host runtime object
    entry: Path              # the generated host entry object (for the placeholder op)
    prelude: Path | None     # PRELUDE_HEADER, its .gch beside it; None: not precompiled


def shared_objects(precompile: bool = False) -> Shared:
    """What every probe compiles alike, each compiled once per (compiler, flags, sim sources,
    its own text) into opkg's cache and reused by every later probe, of this import and of the
    next (an import of a repository probes hundreds of operators). The prelude is built when
    `precompile` or when OPKG_IMPORT_PCH=1, used whenever present, never with
    OPKG_IMPORT_PCH=0 (g++ reads the header itself then: the same objects, only slower)."""
    import os

    from opkg.sim import codegen, flags

    cxx, placeholder, base = _probe_setup()
    key = _sim_key(cxx, tuple(base))
    cache = _cache_root()
    runtime = _cached(cache / f"host-runtime-{key}.o", lambda out: [
        cxx, *base, "-c", str(flags.host_runtime_source()), "-o", str(out)],
        "the sim's host runtime")
    entry_text = codegen.host_entry_source(placeholder)
    entry = _cached(cache / f"probe-entry-{key}-{_digest(entry_text)}.o", lambda out: [
        cxx, *base, "-O0", "-x", "c++", "-c", "-", "-o", str(out)],
        "the probe's entry", stdin=entry_text)
    setting = os.environ.get("OPKG_IMPORT_PCH", "").strip().lower()
    prelude = cache / f"prelude-{key}-{_digest(PRELUDE_TEXT)}" / PRELUDE_HEADER
    gch = prelude.with_name(PRELUDE_HEADER + ".gch")
    if setting in ("0", "off", "no", "false"):
        return Shared(runtime, entry, None)
    if not gch.is_file() and (precompile or setting in ("1", "on", "yes", "true")):
        _precompile(prelude, [cxx, *base, "-O0", "-x", "c++-header"])
    return Shared(runtime, entry, prelude if gch.is_file() else None)


def _cache_root() -> Path:
    from opkg.core.workspace import default_cache_dir

    return default_cache_dir() / "opdef-probe"


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:16]


_SIM_KEYS: dict = {}


def _sim_key(cxx: str, base_flags: tuple) -> str:
    """The digest of the compiler, the flags and every sim header and host source: what each
    shared probe object depends on besides its own text (computed once per process)."""
    import hashlib

    from opkg.sim import flags

    if (cxx, base_flags) not in _SIM_KEYS:
        h = hashlib.sha256("\0".join([cxx, *base_flags]).encode())
        sim = flags.host_runtime_source().parent.parent
        for f in sorted(p for d in ("include", "src") for p in (sim / d).rglob("*")
                        if p.is_file()):
            h.update(f.relative_to(sim).as_posix().encode())
            h.update(f.read_bytes())
        _SIM_KEYS[cxx, base_flags] = h.hexdigest()[:24]
    return _SIM_KEYS[cxx, base_flags]


def _cached(obj: Path, argv_for, what: str, stdin: str | None = None) -> Path:
    """`obj`, compiled by `argv_for(<temporary path>)` when the cache lacks it; written
    atomically (parallel imports share it)."""
    import os

    if obj.is_file():
        return obj
    obj.parent.mkdir(parents=True, exist_ok=True)
    tmp = obj.with_name(f"{obj.name}.{os.getpid()}.tmp.o")
    proc = subprocess.run(argv_for(tmp), capture_output=True, text=True, input=stdin)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise ProbeError(f"{what} does not compile: " + first_errors(proc.stderr))
    os.replace(tmp, obj)
    return obj


def _precompile(header: Path, argv: list[str]) -> None:
    """PRELUDE_HEADER and its .gch, built in a directory of their own and renamed into place
    (a crash leaves no half prelude; of two imports racing, the first rename wins)."""
    import os
    import shutil

    header.parent.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=header.parent.name + ".tmp-", dir=header.parent.parent))
    try:
        (tmp / header.name).write_text(PRELUDE_TEXT)
        proc = subprocess.run([*argv, str(tmp / header.name), "-o",
                               str(tmp / (header.name + ".gch"))], capture_output=True, text=True)
        if proc.returncode != 0:
            raise ProbeError("the probe's prelude does not compile: " + first_errors(proc.stderr))
        try:
            os.rename(tmp, header.parent)
        except OSError:
            if not (header.parent / (header.name + ".gch")).is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# -- the fallback: the OpDef read from the source text ------------------------------------------
#
# When the host sources do not compile on the sim (a host API it lacks), the build will say so;
# the import should still produce the package. The text is evaluated as far as it is plain data:
# statements `this->Input("x").ParamType(..).DataType(..).Format(..)` and `this->Attr("a")
# .AttrType(..).Float(..)`; lists written in place or named (`static const
# std::vector<ge::DataType> kX = {...}`, `std::vector<ge::Format> f(kX.size(), ge::FORMAT_ND)`,
# at file scope or in the constructor); attribute defaults that are literals, named constants
# (`constexpr float EPS = 1e-5f;`, `#define`), `ge::DT_*` enumerators or arithmetic of these; and
# `OpAICoreConfig` objects with their own Input/Output lists (also one returned by a member
# function), passed to `AddConfig("<soc>", config)`: the op's per-SoC lists. Anything else (a
# list built in a loop, a macro that writes the OpDef, a constant from another header) is named
# with its file:line, never guessed.

# at a statement's start, or after the brace that opens a body: this->Input(..), Input(..) or
# <config>.Input(..)
_STMT_HEAD = re.compile(r'(?:^|[{}])\s*(?:this\s*->\s*|(\w+)\s*\.\s*)?(Input|Output|Attr)\s*\(\s*"(\w+)"\s*\)')
_CALL = re.compile(r"\.\s*(\w+)\s*\(")
_ATTR_KINDS = {"Float": "float", "Int": "int", "Bool": "bool", "String": "str",
               "ListInt": "list_int", "ListFloat": "list_float", "ListBool": "list_bool"}
_VECTOR = re.compile(r"\bstd\s*::\s*vector\s*<\s*ge\s*::\s*(DataType|Format)\s*>\s+(\w+)\s*"
                     r"(?:=\s*(\{[^;]*\})|(\{[^;]*\})|\(([^;]*)\))\s*;")
_CONSTANT = re.compile(r"\b(?:constexpr|const)\s+(?:static\s+)?(?:[\w:]+[\s*&]+)+?(\w+)\s*=\s*([^;{}]+);"
                       r"|^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]+)$", re.M)


class _Gap(ValueError):
    """A value the text does not determine; `at` is the offset in the file it names."""

    def __init__(self, message: str, at: int):
        super().__init__(message)
        self.at = at


def parse_opdef_text(sources: list[Path]) -> tuple[list[dict], list[str]]:
    """(host_prototypes()-shaped entries for the OpDefs of `sources` that the text determines,
    why each other OpDef could not be read, naming file:line: a computed list, an attribute
    default that is no constant expression of the file, a dtype opkg does not know)."""

    ops, why = [], []
    for src in sources:
        text = _strip_comments(Path(src).read_text(errors="replace"))
        for name in OP_ADD_RE.findall(text):
            m = re.search(rf"class\s+{name}\s*:\s*public\s+OpDef\s*\{{", text)
            if not m:
                at = re.search(rf"\bOP_ADD\s*\(\s*{name}\s*\)", text).start()
                why.append(f"OpDef {name} in {Path(src).name}:{_line(text, at)}: no `class {name} : "
                           "public OpDef` in the file (written by a macro?)")
                continue
            body_at = m.end()
            try:
                ops.append(_parse_body(name, text, body_at, _braced(text, m.end() - 1)))
            except _Gap as exc:
                why.append(f"OpDef {name} in {Path(src).name}:{_line(text, exc.at)}: {exc}")
    return ops, why


def _strip_comments(text: str) -> str:
    """Comments blanked out, line breaks kept (positions still give the right line)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _braced(text: str, start: int) -> str:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return text[start + 1:]


def _args(stmt: str, pos: int) -> str:
    """The text between the parenthesis opened just before `pos` and its match."""
    depth, i = 1, pos
    while i < len(stmt) and depth:
        depth += {"(": 1, ")": -1}.get(stmt[i], 0)
        i += 1
    return stmt[pos:i - 1]


class _Scope:
    """What the file defines that an OpDef names: constants and dtype/format vectors."""

    def __init__(self, text: str):
        self.text = text
        self.constants: dict[str, tuple[str, int]] = {}
        for m in _CONSTANT.finditer(text):
            name, expr = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            self.constants.setdefault(name, (expr.strip(), m.start()))
        self.vectors: dict[str, list[str] | _Gap] = {}
        for m in _VECTOR.finditer(text):
            kind, name, init, init2, ctor = m.groups()
            items = init or init2
            try:
                if items is not None:
                    value = _items(items)
                else:   # (count, item): the count a literal or another vector's size()
                    count, _, item = ctor.rpartition(",")
                    size = re.fullmatch(r"\s*(\w+)\s*\.\s*size\s*\(\s*\)\s*", count)
                    if size and isinstance(self.vectors.get(size.group(1)), list):
                        n = len(self.vectors[size.group(1)])
                    else:
                        n = int(self.number(count.strip(), m.start()))
                    value = [item.strip()] * n
            except (_Gap, ValueError):
                value = _Gap(f"the {kind} list {name} is computed", m.start())
            self.vectors[name] = value

    def items(self, arg: str, what: str, call: str, at: int) -> list[str]:
        """The entries of a DataType/Format argument: a list in place or a vector named."""
        arg = arg.strip()
        if arg.startswith("{"):
            return _items(arg)
        found = self.vectors.get(arg)
        if isinstance(found, list):
            return found
        raise _Gap(f"{what} has a computed {call} list ({arg})", found.at if isinstance(found, _Gap) else at)

    def number(self, expr: str, at: int, _depth: int = 0):
        """The value of a constant expression of the file (int or float, C++ semantics)."""
        import ast

        from opkg.core.model import DTYPES

        ge_values = {d.ge: d.ge_value for d in DTYPES.values()}
        src = re.sub(r"static_cast\s*<\s*[\w:]+\s*>", "", expr)
        src = re.sub(r"\bge\s*::\s*(DT_\w+)", r"\1", src)
        src = re.sub(r"(\d(?:[\d.]*)(?:[eE][-+]?\d+)?)[fFlLuU]+\b", r"\1", src)
        try:
            tree = ast.parse(src.strip(), mode="eval")
        except SyntaxError:
            raise _Gap("no constant expression", at) from None

        def ev(node):
            if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                    and not isinstance(node.value, bool):
                return node.value
            if isinstance(node, ast.Name):
                if node.id in ("true", "false"):
                    return node.id == "true"
                if node.id in ge_values:
                    return ge_values[node.id]
                if node.id in self.constants and _depth < 8:
                    raw, where = self.constants[node.id]
                    return self.number(raw, where, _depth + 1)
                raise _Gap(f"{node.id} is not defined in this file (a constant of another header?)", at)
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
                v = ev(node.operand)
                return -v if isinstance(node.op, ast.USub) else v
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
                a, b = ev(node.left), ev(node.right)
                if isinstance(node.op, ast.Add):
                    return a + b
                if isinstance(node.op, ast.Sub):
                    return a - b
                if isinstance(node.op, ast.Mult):
                    return a * b
                if b == 0:
                    raise _Gap("divides by zero", at)
                if isinstance(a, int) and isinstance(b, int):
                    return int(a / b)        # C++ integer division truncates
                return a / b
            raise _Gap("no constant expression", at)
        return ev(tree.body)


def _items(braced: str) -> list[str]:
    return [t.strip() for t in braced.strip().strip("{}").split(",") if t.strip()]


def _statements(body: str, offset: int):
    """(statement, its offset in the file) for each `;`-terminated statement of `body`."""
    pos = 0
    for part in body.split(";"):
        yield part, offset + pos
        pos += len(part) + 1


def _parse_body(name: str, text: str, body_at: int, body: str) -> dict:
    from opkg.core.model import DTYPES, FORMATS

    scope = _Scope(text)
    by_ge = {d.ge: d.name for d in DTYPES.values()}
    # OpAICoreConfig objects: declared, or the result of a member function returning one
    configs: dict[str, dict] = {}
    alias: dict[str, str] = {}
    for m in re.finditer(r"\bOpAICoreConfig\s+(\w+)\s*(?:=\s*(\w+)\s*\(\s*\))?", body):
        configs.setdefault(m.group(1), {"inputs": [], "outputs": []})
        if m.group(2):
            fn = re.search(rf"\bOpAICoreConfig\s+{m.group(2)}\s*\([^)]*\)[^{{;]*\{{", body)
            ret = fn and re.search(r"\breturn\s+(\w+)\s*;", _braced(body, fn.end() - 1))
            if ret:
                alias[m.group(1)] = ret.group(1)
    op = {"type": name, "inputs": [], "outputs": [], "attrs": [],
          "has_infer_shape": "SetInferShape" in body,
          "aicore": {"configs": list(dict.fromkeys(re.findall(r'AddConfig\s*\(\s*"([^"]+)"', body)))}}
    for stmt, at in _statements(body, body_at):
        head = _STMT_HEAD.search(stmt)
        if not head:
            continue
        owner, kind, pname = head.groups()
        if owner is not None and owner not in configs:
            continue     # a call on something else (a helper object)
        where = at + head.start(2)
        calls = {c.group(1): (_args(stmt, c.end()), at + c.start())
                 for c in _CALL.finditer(stmt, head.end())}
        if kind == "Attr":
            if owner is not None:
                continue
            op["attrs"].append(_attr(pname, calls, scope, where))
            continue
        what = f"{kind.lower()} {pname!r}"
        if "DataType" not in calls:
            raise _Gap(f"{what} has no DataType list", where)
        raw, call_at = calls["DataType"]
        names = scope.items(raw, what, "DataType", call_at)
        dtypes = [by_ge.get(t.split("::")[-1].strip()) for t in names]
        if None in dtypes:
            raise _Gap(f"{what} has dtype {names[dtypes.index(None)]}, which opkg does not support",
                       call_at)
        formats = []
        if "Format" in calls:
            raw, call_at = calls["Format"]
            formats = [f.split("FORMAT_")[-1].strip()
                       for f in scope.items(raw, what, "Format", call_at)]
            if any(f not in FORMATS for f in formats):
                raise _Gap(f"{what} has a format opkg does not know: "
                           + ", ".join(f for f in formats if f not in FORMATS), call_at)
        if len(formats) > 1 and len(formats) != len(dtypes):
            raise _Gap(f"{what} lists {len(dtypes)} dtypes and {len(formats)} formats; they "
                       "pair up by position", call_at)
        param = calls.get("ParamType", ("REQUIRED", 0))[0].strip().split("::")[-1].lower()
        tensor = {"name": pname, "param_type": param, "dtypes": dtypes, "formats": formats}
        if owner is not None:
            tensor["_at"] = at - body_at       # AddConfig copies the config as it is then
        target = op if owner is None else configs[owner]
        target["inputs" if kind == "Input" else "outputs"].append(tensor)
    problem = list_length_problem(op["inputs"] + op["outputs"])
    if problem:
        raise _Gap(problem, body_at)
    soc_configs = {}
    for m in re.finditer(r'AddConfig\s*\(\s*"([^"]+)"\s*,\s*(\w+)\s*\)', body):
        own = configs.get(alias.get(m.group(2), m.group(2)))
        # CANN's AddConfig stores a copy: only the lists set on the config before the call count
        # (cann-ops' BatchMatMulV3 adds aicConfig to ascend910b, then gives it lists for others);
        # a config a member function returns is read whole
        seen = {g: [{k: v for k, v in t.items() if k != "_at"} for t in own[g]
                    if m.group(2) in alias or t.get("_at", -1) < m.start()]
                for g in ("inputs", "outputs")} if own else None
        if seen and (seen["inputs"] or seen["outputs"]):
            soc_configs[m.group(1)] = seen
    if soc_configs:
        op["aicore"]["soc_configs"] = soc_configs
    return op


def _attr(pname: str, calls: dict, scope: _Scope, where: int) -> dict:
    kind = next((k for k in calls if k in _ATTR_KINDS), None)
    if kind is None:
        raise _Gap(f"attr {pname!r} has no type call (Float(), Int(), ...)", where)
    raw, at = calls[kind]
    raw = raw.strip()
    optional = "OPTIONAL" in calls.get("AttrType", ("", 0))[0]
    default = None
    if raw:
        try:
            default = _literal(_ATTR_KINDS[kind], raw, scope, at)
        except _Gap as exc:
            raise _Gap(f"attr {pname!r} default `{raw}`: {exc}", exc.at) from None
    return {"name": pname, "type": _ATTR_KINDS[kind], "required": not optional or default is None,
            "default": default}


def _literal(kind: str, raw: str, scope: _Scope, at: int):
    raw = raw.strip()
    if kind.startswith("list_"):
        inner = raw[1:-1] if raw.startswith("{") and raw.endswith("}") else None
        if inner is None:
            raise _Gap("no list written in place", at)
        return [_literal(kind[5:], x, scope, at) for x in inner.split(",") if x.strip()]
    if kind == "str":
        if raw.startswith('"') and raw.endswith('"'):
            return raw[1:-1]
        const = scope.constants.get(raw)
        if const and const[0].startswith('"') and const[0].endswith('"'):
            return const[0][1:-1]
        raise _Gap("no string literal or string constant of this file", at)
    value = scope.number(raw, at)
    if kind == "bool":
        return bool(value)
    if kind == "int":
        if isinstance(value, float) and not value.is_integer():
            raise _Gap(f"{value} is not an integer", at)
        return int(value)
    return float(value)


def first_errors(stderr: str, limit: int = 3) -> str:
    """The first `error:` lines of a g++ run (the rest is usually their consequences)."""
    errors = [l.strip() for l in stderr.splitlines()
              if (" error: " in l or l.startswith("error") or "undefined reference" in l)
              and "collect2" not in l]
    return "\n".join(errors[:limit]) or stderr.strip()[-1000:]


def own_warnings(stderr: str, own_dir: Path) -> list[str]:
    """g++ `warning:` lines located in files under own_dir, the package's directory: the
    author's business (e.g. PreLayerNorm's tiling computes a bound in `int` that overflows,
    which a silent build would hide). The sim's headers and runtime, generated sources in the
    output directory and other packages are not the author's. Used by the build
    (scons_glue) and the OpDef probe."""
    own = str(Path(own_dir).resolve())
    out = []
    for line in stderr.splitlines():
        if ": warning: " not in line:
            continue
        path = line.split(":", 1)[0]
        try:
            resolved = str(Path(path).resolve())
        except OSError:
            continue
        if resolved.startswith(own + "/") and line not in out:
            out.append(line)
    return out


# CANN's ParamType(VIRTUAL) input: left out of the graph's prototype (ops-info `virtual=true`)
# because the framework's aclnn layer, not the user, supplies it; the kernel still receives it
# as one GM address, so in a manifest (and to the sim) it is a required input.
VIRTUAL = "virtual"


def virtual_inputs(declared: dict) -> list[str]:
    return [t["name"] for t in declared["inputs"] if t["param_type"] == VIRTUAL]


def to_manifest_op(declared: dict) -> dict:
    """A host_prototypes() entry -> the manifest `op:` mapping the import writes; of several
    format combinations of one dtype combination only the one the sim runs is kept
    (`runnable_combinations`), and `dropped_formats` says which were left out."""
    dropped_all: list[str] = []

    def runnable(inputs, outputs, where=""):
        kept, dropped = runnable_combinations(inputs, outputs)
        dropped_all.extend(where + d for d in dropped)
        return keep_positions(inputs, kept), keep_positions(outputs, kept)

    def tensors(items):
        out = []
        for t in items:
            formats = t["formats"] or ["ND"]
            if len(set(formats)) == 1:
                formats = formats[:1]
            entry = {"name": t["name"], "dtypes": list(t["dtypes"]), "formats": list(formats)}
            if t["param_type"] not in ("required", VIRTUAL):
                entry["param_type"] = t["param_type"]
            out.append(entry)
        return out

    attrs = []
    for a in declared["attrs"]:
        entry = {"name": a["name"], "type": a["type"]}
        if a["required"] or a["default"] is None:
            entry["required"] = True
        else:
            entry["default"] = _shortest(a["type"], a["default"])
        attrs.append(entry)
    # AddConfig(short, config) with the config's own lists: the manifest's op.soc_configs
    soc_configs = {}
    for short, c in sorted(declared.get("aicore", {}).get("soc_configs", {}).items()):
        ins, outs = runnable(c["inputs"], c["outputs"], f"AddConfig({short!r}) ")
        soc_configs[short] = {"inputs": tensors(ins), "outputs": tensors(outs)}
    ins, outs = runnable(declared["inputs"], declared["outputs"])
    return {"type": declared["type"], "inputs": tensors(ins),
            "outputs": tensors(outs), "attrs": attrs, "soc_configs": soc_configs,
            "has_infer_shape": bool(declared.get("has_infer_shape")),
            "configs": list(declared.get("aicore", {}).get("configs", [])),
            "dropped_formats": dropped_all}


def _shortest(kind: str, value):
    """The OpDef holds a C float: 0.01f reads back as 0.00999999977648; write the shortest
    decimal that is the same float32 (what the author wrote)."""
    import numpy as np

    if kind == "float" and isinstance(value, (int, float)):
        return float(repr(np.float32(value)).removeprefix("np.float32(").rstrip(")"))
    if kind == "list_float" and isinstance(value, list):
        return [_shortest("float", v) for v in value]
    return value


def differences(opdef: dict, other: dict) -> list[str]:
    """Where a prototype JSON (`other`) says something else than the OpDef (both manifest op
    mappings): one sentence each, naming both values."""
    out = []
    if opdef["type"] != other["type"]:
        out.append(f"op type {other['type']!r} (OpDef: {opdef['type']!r})")
    for group in ("inputs", "outputs"):
        mine = {t["name"]: t for t in opdef[group]}
        theirs = {t["name"]: t for t in other[group]}
        if list(mine) != list(theirs):
            out.append(f"{group} {list(theirs)} (OpDef: {list(mine)})")
        for name in mine.keys() & theirs.keys():
            a, b = mine[name], theirs[name]
            for key, default in (("dtypes", None), ("formats", None), ("param_type", "required")):
                va, vb = a.get(key, default), b.get(key, default)
                if va != vb:
                    out.append(f"{group[:-1]} {name!r} {key} {vb} (OpDef: {va})")
    mine = {a["name"]: a for a in opdef["attrs"]}
    theirs = {a["name"]: a for a in other["attrs"]}
    if list(mine) != list(theirs):
        out.append(f"attrs {list(theirs)} (OpDef: {list(mine)})")
    for name in mine.keys() & theirs.keys():
        a, b = mine[name], theirs[name]
        if a["type"] != b["type"]:
            out.append(f"attr {name!r} type {b['type']} (OpDef: {a['type']})")
        elif bool(a.get("required")) != bool(b.get("required")):
            out.append(f"attr {name!r} {'required' if b.get('required') else 'optional'} "
                       f"(OpDef: {'required' if a.get('required') else 'optional'})")
    return out


# The child process: print the OpDefs a host library registers (host_prototypes), with the
# library loaded lazily (undefined functions the OpDefs never call are fine here).
_CHILD = """
import ctypes, json, os, sys
try:
    lib = ctypes.CDLL(sys.argv[1], mode=os.RTLD_LOCAL | os.RTLD_LAZY)
    lib.opkg_sim_host_prototypes.restype = ctypes.c_char_p
    data = json.loads(lib.opkg_sim_host_prototypes().decode("utf-8"))
except (OSError, AttributeError, ValueError) as exc:
    data = {"error": str(exc)}
print(json.dumps({"error": data["error"]} if data.get("error") else {"ops": data["ops"]}))
"""
