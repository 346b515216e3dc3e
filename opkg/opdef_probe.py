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
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Probe:
    ops: list[dict]          # host_prototypes(): [{type, inputs, outputs, attrs, aicore, ...}]
    warnings: list[str]      # compiler warnings from the project's own sources


class ProbeError(Exception):
    """The host sources did not compile or load on the sim (message: the first lines)."""


def read_opdefs(host_sources: list[Path], include_dirs: list[Path], own_dir: Path) -> Probe:
    from opkg.model import OpSpec, TensorSpec
    from opkg.sim import codegen, flags
    from opkg.toolchains.sim import find_compiler

    cxx = find_compiler()
    # an entry for no particular op: only the registry queries are used
    placeholder = OpSpec(type="OpkgImportProbe", inputs=(),
                         outputs=(TensorSpec("y", ("float32",), ("ND",)),), attrs=())
    with tempfile.TemporaryDirectory(prefix="opkg-import-") as tmp:
        entry = Path(tmp) / "probe_entry.cpp"
        entry.write_text(codegen.host_entry_source(placeholder))
        lib = Path(tmp) / "libprobe.so"
        argv = [cxx, *flags.common_flags(), *flags.host_flags(placeholder),
                *(f"-I{d}" for d in include_dirs), str(entry),
                str(flags.host_runtime_source()), *map(str, host_sources),
                *flags.link_flags(), "-o", str(lib)]
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            raise ProbeError(first_errors(proc.stderr))
        warnings = own_warnings(proc.stderr, own_dir)
        proc = subprocess.run([sys.executable, "-m", "opkg.verify.prototype", str(lib)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ProbeError(f"loading the host library crashed (status {proc.returncode}): "
                             f"{proc.stderr.strip()[-500:]}")
        data = json.loads(proc.stdout)
        if "error" in data:
            raise ProbeError(data["error"])
        return Probe([op for op in data["ops"] if op["type"] != placeholder.type], warnings)


def first_errors(stderr: str, limit: int = 3) -> str:
    """The first `error:` lines of a g++ run (the rest is usually their consequences)."""
    errors = [l.strip() for l in stderr.splitlines()
              if (" error: " in l or l.startswith("error") or "undefined reference" in l)
              and "collect2" not in l]
    return "\n".join(errors[:limit]) or stderr.strip()[-1000:]


def own_warnings(stderr: str, own_dir: Path) -> list[str]:
    """g++ `warning:` lines located in files under own_dir (not the sim's headers)."""
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


def to_manifest_op(declared: dict) -> dict:
    """A host_prototypes() entry -> the manifest `op:` mapping scaffold.py writes."""
    def tensors(items):
        out = []
        for t in items:
            formats = t["formats"] or ["ND"]
            if len(set(formats)) == 1:
                formats = formats[:1]
            entry = {"name": t["name"], "dtypes": list(t["dtypes"]), "formats": list(formats)}
            if t["param_type"] != "required":
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
    return {"type": declared["type"], "inputs": tensors(declared["inputs"]),
            "outputs": tensors(declared["outputs"]), "attrs": attrs,
            "has_infer_shape": bool(declared.get("has_infer_shape")),
            "configs": list(declared.get("aicore", {}).get("configs", []))}


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
