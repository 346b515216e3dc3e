"""The OpDef-vs-manifest check: the prototype a package's own OpDef declares must be the one its
opkg.yaml declares.

The sim toolchain plans one 'prototype' step per package, right after the host library is
linked (opkg/toolchains/sim.py); verification and bundling depend on its JSON output, so a
disagreement fails the build before any case runs. The host library is loaded in a child process
(`python -m opkg.verify.prototype HOST_LIB` prints what `opkg.sim.runtime.host_prototypes`
returns), because an OpDef constructor is user code and may crash. `compare` is pure: manifest
op + SoCs + declared prototypes in, a list of differences out.

Why it matters: on a device, a one-letter mismatch between the OpDef and the kernel or the
graph's prototype shows up as "operator not found" or a wrong binding, long after the build.
"""

from __future__ import annotations

import json
import re
import signal
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path


from opkg.core.model import OpSpec

# `OP_ADD(Type)` in host sources: how an OpDef is registered (the CANN toolchain reads it too)
OP_ADD_RE = re.compile(r"\bOP_ADD\s*\(\s*(\w+)\s*\)")


# Formats whose storage shape is the origin shape: the sim gives every tensor its origin shape as
# storage shape, so only these describe what a kernel gets. Blocked formats (FRACTAL_NZ,
# NC1HWC0, FRACTAL_Z) have a storage shape of their own that the tiling reads.
PLAIN_FORMATS = ("ND", "NCHW", "NHWC", "NCDHW", "NDHWC")


def list_length_problem(tensors: list[dict]) -> str | None:
    """CANN pairs the DataType and Format lists of all tensors by position: each list has the
    same length, or one entry (for every position)."""
    lengths = {(t["name"], what): len(t[what]) for t in tensors for what in ("dtypes", "formats")
               if len(t.get(what) or ()) > 1}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{name} {n} {what}" for (name, what), n in lengths.items())
        return f"its DataType/Format lists differ in length ({shown}); they pair up by position"
    return None


def runnable_combinations(inputs: list[dict], outputs: list[dict]) -> tuple[list[int], list[str]]:
    """Which positions of an OpDef's DataType/Format lists the sim runs, and why the others are
    left out. opkg's variants are keyed by dtype, so of several positions with one dtype
    combination only one can be built: the one the sim describes truly (fewest blocked
    formats, then fewest non-ND formats, then the first). Returns (kept positions in order,
    one sentence per dropped position)."""
    tensors = [*inputs, *outputs]
    problem = list_length_problem(tensors)
    if problem:
        from opkg.core.errors import UsageError

        raise UsageError(f"cannot import this OpDef: {problem}",
                         hint="fix the OpDef so every list has one entry per combination")
    count = max((len(t["dtypes"]) for t in tensors), default=0)
    if count < 2:
        return list(range(count)), []

    def at(values, i, default):
        return (values[i] if len(values) > 1 else values[0]) if values else default

    combos = [(tuple(at(t["dtypes"], i, None) for t in tensors),
               tuple(at(t["formats"], i, "ND") for t in tensors)) for i in range(count)]
    groups: dict[tuple, list[int]] = {}
    for i, (dtypes, _) in enumerate(combos):
        groups.setdefault(dtypes, []).append(i)
    kept, dropped = [], []
    for positions in groups.values():
        def cost(i):
            formats = combos[i][1]
            return (sum(f not in PLAIN_FORMATS for f in formats),
                    sum(f != "ND" for f in formats), i)
        best = min(positions, key=cost)
        kept.append(best)
        for i in positions:
            if i == best:
                continue
            odd = [f"{t['name']} {f}" for t, f in zip(tensors, combos[i][1]) if f != "ND"]
            blocked = [f for f in combos[i][1] if f not in PLAIN_FORMATS]
            why = (f"{', '.join(sorted(set(blocked)))} storage shapes differ from the origin "
                   "shapes the sim gives" if blocked else "same dtypes, more non-ND formats")
            dropped.append((i, f"position {i} ({'/'.join(dict.fromkeys(combos[i][0]))}: "
                               f"{', '.join(odd)}): kept position {best}; {why}"))
    return sorted(kept), [text for _, text in sorted(dropped)]


def keep_positions(items: list[dict], positions: list[int]) -> list[dict]:
    """The tensors with only the given positions of their dtype and format lists (a one-entry
    list applies to every position and stays as it is)."""
    def pick(values):
        return values if len(values) <= 1 else [values[i] for i in positions]
    return [{**t, "dtypes": pick(t["dtypes"]), "formats": pick(t["formats"])} for t in items]



@dataclass(frozen=True)
class Difference:
    what: str            # "declares input 'x1' where opkg.yaml has 'x'"
    field: str           # manifest field: op.inputs[0].name
    needle: str | None   # a regex for the host-source line that declares it


def scons_action(params: dict) -> str | None:
    """SCons 'python' step: check, write params['output'] (JSON), or return the error text."""
    from opkg.util.fsutil import atomic_write_text

    host_lib = params["host_lib"]
    proc = subprocess.run([params.get("python") or sys.executable, "-m", "opkg.verify.prototype",
                           host_lib], capture_output=True, text=True)
    if proc.returncode != 0:
        if proc.returncode < 0:
            try:
                name = signal.Signals(-proc.returncode).name
            except ValueError:
                name = f"signal {-proc.returncode}"
            return (f"loading the host library {host_lib} to read its OpDef crashed ({name}); "
                    "an OpDef constructor or a static initialiser in the host sources failed")
        return f"cannot read the OpDef from {host_lib}: {proc.stderr.strip()[-2000:]}"
    declared = json.loads(proc.stdout)
    if "error" in declared:
        return f"{params['manifest']}: the OpDef could not be read: {declared['error']}"
    op = OpSpec.from_json(params["op"])
    pkg_dir = Path(params["package_dir"])
    sources = [Path(s) for s in params["host_sources"]]
    chosen, diffs = compare(op, [tuple(s) for s in params["socs"]], declared["ops"])
    record = {"op_type": op.type, "opdef": chosen is not None,
              "declared": chosen, "differences": [d.what for d in diffs]}
    if diffs:
        return render(diffs, Path(params["manifest"]), pkg_dir, sources, op.type)
    atomic_write_text(Path(params["output"]), json.dumps(record, indent=1, sort_keys=True) + "\n")
    return None


def render(diffs: list[Difference], manifest: Path, pkg_dir: Path, sources: list[Path],
           op_type: str) -> str:
    where = declaring_source(sources, op_type)
    lines = [f"{manifest}: the OpDef in the host sources disagrees with the manifest "
             f"({len(diffs)} difference{'s' if len(diffs) != 1 else ''}):"]
    for d in diffs:
        src = where
        line = 0
        if d.needle and src is not None:
            line = _line_of(src, d.needle)
        name = _rel(src, pkg_dir) if src is not None else "the host sources"
        loc = f"{name}:{line}" if line else name
        lines.append(f"  {loc}: {d.what} ({d.field})")
    lines.append("  hint: the OpDef is what CANN registers on the device; make it and opkg.yaml "
                 "say the same (fix the typo on whichever side is wrong), then build again")
    return "\n".join(lines)


def declaring_source(sources: list[Path], op_type: str) -> Path | None:
    """The host source that registers the OpDef (OP_ADD), else the first that defines one."""
    texts = {}
    for s in sources:
        try:
            texts[s] = s.read_text(errors="replace")
        except OSError:
            continue
    for s, text in texts.items():
        if OP_ADD_RE.search(text):
            return s
    for s, text in texts.items():
        if re.search(r"public\s+OpDef\b", text):
            return s
    return sources[0] if sources else None


def _call(kind: str, name: str) -> str:
    """A pattern for the OpDef call that declares `name`: Input("x"), Output("z"), Attr("a")."""
    return rf'\b{kind.capitalize()}\s*\(\s*"{re.escape(name)}"'


def _line_of(path: Path, needle: str) -> int:
    try:
        for i, text in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if re.search(needle, text):
                return i
    except OSError:
        pass
    return 0


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


# -- the comparison (pure) ---------------------------------------------------------------------


def compare(op: OpSpec, socs: list[tuple[str, str]], declared: list[dict]
            ) -> tuple[dict | None, list[Difference]]:
    """(the OpDef compared, differences). `socs` are (name, short) of the manifest's SoCs;
    `declared` is what the host library reports. No OpDef at all is not a difference: a
    package may keep its prototype only in the manifest."""
    if not declared:
        return None, []
    by_type = {d["type"]: d for d in declared}
    d = by_type.get(op.type)
    if d is None:
        import difflib

        close = difflib.get_close_matches(op.type, list(by_type), n=1, cutoff=0.0)
        name = close[0] if close else declared[0]["type"]
        return by_type[name], [Difference(f"declares op {name!r} where opkg.yaml has "
                                          f"{op.type!r}", "op.type", rf"\b{re.escape(name)}\b")]
    diffs = _tensor_diffs(op, d["inputs"], d["outputs"], "op")
    soc_configs = d.get("aicore", {}).get("soc_configs") or {}
    own = _own_config(op, socs, soc_configs)
    if diffs and own is not None and not _tensor_diffs(op, soc_configs[own]["inputs"],
                                                       soc_configs[own]["outputs"], "op"):
        # the manifest's prototype is its one SoC's AddConfig lists (what `opkg import` writes:
        # ops-nn's MatMulV3 declares 8 combinations, its ascend910b config 3)
        diffs = []
        soc_configs = {k: v for k, v in soc_configs.items() if k != own}
    diffs += _attrs(op, d["attrs"])
    diffs += _socs(socs, d.get("aicore", {}).get("configs", []))
    diffs += _soc_configs(op, socs, soc_configs)
    return d, diffs


def _own_config(op: OpSpec, socs: list[tuple[str, str]], theirs: dict) -> str | None:
    """The short SoC name whose AddConfig lists the manifest's top-level prototype is: the
    manifest names one SoC, keeps no soc_configs, and that SoC's config has lists of its own."""
    shorts = {short for _, short in socs}
    if len(shorts) != 1 or op.soc_configs:
        return None
    short = next(iter(shorts))
    return short if short in theirs else None


def _tensor_diffs(op: OpSpec, inputs: list[dict], outputs: list[dict], prefix: str
                  ) -> list[Difference]:
    """The OpDef's (or one OpAICoreConfig's) tensors against the manifest's, by position. A
    manifest may list only the format combinations the sim runs (what `opkg import` writes when
    the OpDef has several for one dtype combination): that agrees too."""

    diffs = _positional_diffs(op, inputs, outputs, prefix)
    if diffs:
        # ... and only the combinations whose dtypes and formats opkg has (an import leaves out
        # positions of a dtype or format it lacks, e.g. float4_e2m1 or FRACTAL_Z_3D, each named)
        known = _known_positions([*inputs, *outputs])
        inputs, outputs = keep_positions(inputs, known), keep_positions(outputs, known)
        kept, dropped = runnable_combinations(inputs, outputs)
        if not _positional_diffs(op, keep_positions(inputs, kept), keep_positions(outputs, kept),
                                 prefix):
            return []
    return diffs


def _known_positions(tensors: list[dict]) -> list[int]:
    """The positions of the DataType/Format lists whose every dtype and format opkg knows."""
    from opkg.core.model import DTYPES, FORMATS

    count = max((len(t["dtypes"]) for t in tensors), default=0)

    def at(values, i):
        return (values[i] if len(values) > 1 else values[0]) if values else None

    return [i for i in range(count)
            if all(at(t["dtypes"], i) in (None, *DTYPES) for t in tensors)
            and all(at(t.get("formats") or [], i) in (None, *FORMATS) for t in tensors)]


def _positional_diffs(op: OpSpec, inputs: list[dict], outputs: list[dict], prefix: str
                      ) -> list[Difference]:
    diffs: list[Difference] = []
    variants = len(op.variants())
    for group, mine, theirs in (("input", op.inputs, inputs), ("output", op.outputs, outputs)):
        field = f"{prefix}.{group}s"
        for i in range(max(len(mine), len(theirs))):
            if i >= len(theirs):
                diffs.append(Difference(f"declares no {group} #{i} where opkg.yaml has "
                                        f"{mine[i].name!r}", f"{field}[{i}]", None))
                continue
            t = theirs[i]
            if i >= len(mine):
                diffs.append(Difference(f"declares {group} #{i} {t['name']!r} that opkg.yaml "
                                        f"does not have", field, _call(group, t["name"])))
                continue
            m = mine[i]
            needle = _call(group, t["name"])
            if t["name"] != m.name:
                diffs.append(Difference(f"declares {group} {t['name']!r} where opkg.yaml has "
                                        f"{m.name!r}", f"{field}[{i}].name", needle))
            label = f"{group} {m.name!r}"
            # a VIRTUAL input is a required one to the kernel (opdef.VIRTUAL)
            declared_kind = "required" if t["param_type"] == "virtual" else t["param_type"]
            if declared_kind != m.param_type:
                diffs.append(Difference(f"declares {label} as {t['param_type']} where opkg.yaml "
                                        f"has {m.param_type}", f"{field}[{i}].param_type",
                                        needle))
            diffs += _positional(label, "dtype", [d_ for d_ in t["dtypes"]], m.dtypes, variants,
                                 f"{field}[{i}].dtypes", needle)
            if t["formats"]:     # an OpDef without Format() leaves formats to CANN's default
                diffs += _positional(label, "format", t["formats"], m.formats, variants,
                                     f"{field}[{i}].formats", needle)
    return diffs


def _soc_configs(op: OpSpec, socs: list[tuple[str, str]], theirs: dict) -> list[Difference]:
    """Per-SoC dtype lists: AddConfig(short, config) with its own Input/Output lists must be
    op.soc_configs.<short> of the manifest, for the SoCs the manifest declares."""
    shorts = {short for _, short in socs}
    mine = {name: (ins, outs) for name, ins, outs in op.soc_configs}
    diffs: list[Difference] = []
    for short in sorted(shorts & (set(mine) | set(theirs))):
        where = f"op.soc_configs.{short}"
        needle = rf'AddConfig\s*\(\s*"{re.escape(short)}"'
        if short not in theirs:
            diffs.append(Difference(f'AddConfig("{short}") has no OpAICoreConfig with its own '
                                    f"dtypes where opkg.yaml has {where}", where, needle))
        elif short not in mine:
            diffs.append(Difference(f'AddConfig("{short}", config) declares its own dtypes, which '
                                    f"opkg.yaml lacks (add {where} with the config's inputs and "
                                    "outputs)", "op.soc_configs", needle))
        else:
            soc_op = OpSpec(op.type, *mine[short], op.attrs, interface=op.interface)
            diffs += [Difference(f"in the {short} config: {x.what}", x.field, x.needle or needle)
                      for x in _tensor_diffs(soc_op, theirs[short]["inputs"],
                                             theirs[short]["outputs"], where)]
    return diffs


def _positional(label, what, theirs, mine, variants, field, needle) -> list[Difference]:
    """dtypes/formats matched by position; a one-entry list applies to every variant."""
    def expand(values):
        return list(values) * variants if len(values) == 1 else list(values)

    a, b = expand(theirs), expand(mine)
    if len(a) != len(b):
        return [Difference(f"declares {len(theirs)} {what}s for {label} ({', '.join(theirs)}) "
                           f"where opkg.yaml has {len(mine)} ({', '.join(mine)})", field,
                           needle)]
    wrong = [j for j, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(wrong) == 1:
        j = wrong[0]
        return [Difference(f"declares {what} {a[j]} at position {j} of {label} where opkg.yaml "
                           f"has {b[j]}", f"{field}[{j if len(mine) > 1 else 0}]", needle)]
    if not wrong:
        return []
    # several positions of one list: one line with both lists, not one line per position
    order = (f" (the same {what}s in another order: variants pair them by position)"
             if sorted(a) == sorted(b) else "")
    return [Difference(f"declares {what}s {', '.join(a)} for {label} where opkg.yaml has "
                       f"{', '.join(b)}: positions {', '.join(map(str, wrong))} differ{order}",
                       field, needle)]


def _attrs(op: OpSpec, theirs: list[dict]) -> list[Difference]:
    out: list[Difference] = []
    mine = {a.name: (i, a) for i, a in enumerate(op.attrs)}
    seen = set()
    for t in theirs:
        needle = _call("attr", t["name"])
        if t["name"] not in mine:
            import difflib

            close = difflib.get_close_matches(t["name"], [n for n in mine if n not in
                                                          {x["name"] for x in theirs}], n=1)
            if close:
                i, _ = mine[close[0]]
                seen.add(close[0])
                out.append(Difference(f"declares attr {t['name']!r} where opkg.yaml has "
                                      f"{close[0]!r}", f"op.attrs[{i}].name", needle))
            else:
                out.append(Difference(f"declares attr {t['name']!r} that opkg.yaml does not "
                                      "have", "op.attrs", needle))
            continue
        seen.add(t["name"])
        i, a = mine[t["name"]]
        field = f"op.attrs[{i}]"
        if t["type"] != a.type:
            out.append(Difference(f"declares attr {a.name!r} as {t['type']} where opkg.yaml has "
                                  f"{a.type}", f"{field}.type", needle))
            continue
        # AttrType(OPTIONAL) without a default value leaves the value to the caller: a
        # manifest says that as required (what import writes, opdef.to_manifest_op)
        declared_required = t["required"] or t["default"] is None
        if declared_required != a.required:
            out.append(Difference(f"declares attr {a.name!r} as "
                                  f"{'required' if declared_required else 'optional'} where "
                                  f"opkg.yaml has {'required' if a.required else 'optional'}",
                                  f"{field}.required", needle))
        if not a.required and not _same_value(a.type, t["default"], a.default):
            out.append(Difference(f"declares attr {a.name!r} with default "
                                  f"{_show(t['default'])} where opkg.yaml has "
                                  f"{_show(a.default)}", f"{field}.default", needle))
    for name, (i, _) in mine.items():
        if name not in seen:
            out.append(Difference(f"declares no attr {name!r}, which opkg.yaml has",
                                  f"op.attrs[{i}]", None))
    return out


def _same_value(kind: str, theirs, mine) -> bool:
    if theirs is None or mine is None:
        return theirs is None and mine is None
    if kind.startswith("list_"):
        return (isinstance(theirs, list) and len(theirs) == len(mine)
                and all(_same_value(kind[5:], x, y) for x, y in zip(theirs, mine)))
    if kind == "float":
        # the OpDef holds a C float: compare what both sides become in float32
        return _f32(theirs) == _f32(mine)
    return theirs == mine


def _f32(value) -> float:
    return struct.unpack("f", struct.pack("f", float(value)))[0]


def _show(value) -> str:
    return "none" if value is None else json.dumps(value)


def _socs(socs: list[tuple[str, str]], configs: list[str]) -> list[Difference]:
    out: list[Difference] = []
    shorts = {short for _, short in socs}
    if not configs:
        return [Difference("declares no AICore().AddConfig(...) where opkg.yaml lists SoCs "
                           + ", ".join(n for n, _ in socs), "socs", r"AICore\s*\(")]
    for name, short in socs:
        if short not in configs:
            out.append(Difference(f"has no AddConfig(\"{short}\") where opkg.yaml lists {name}",
                                  "socs", r"AddConfig\s*\("))
    # An AddConfig the manifest builds no SoC for is allowed: a package may build a subset of
    # the SoCs its OpDef registers (opkg import leaves out those the sim cannot run).
    return out


def main(argv=None) -> int:
    """Child process: print the host library's declared prototypes as JSON."""
    host_lib = (argv or sys.argv[1:])[0]
    try:
        from opkg.sim.runtime import host_prototypes

        ops = host_prototypes(Path(host_lib))
    except Exception as exc:    # reported by the parent with the package's name
        print(json.dumps({"error": getattr(exc, "message", None) or str(exc)}))
        return 0
    print(json.dumps({"ops": ops}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
