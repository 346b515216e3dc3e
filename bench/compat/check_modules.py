"""Check the per-operator case modules of a corpus against the operators' prototypes.

    python bench/compat/check_modules.py --corpus /path/to/cann-ops [--only NAME ...] [-q]

For every `bench/compat/<corpus>/<op>.py` it checks: the module imports; PATH names a project
of the corpus; the keys of every case; tensor, attr and golden parameter names against the OpDef
scanned from op_host (opdef_scan.py); dynamic inputs given as one shape per tensor; and it runs
the golden on random inputs of every case for every dtype variant the OpDef declares, checking
the number of outputs (a list for a dynamic output) and any stated output shapes.
Exit status 1 when a module has an error. The compat harness can reuse `load_module` and
`check_module`.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opdef_scan import OpDef, scan  # noqa: E402

from opkg.core.model import OpSpec, TensorSpec, Variant  # noqa: E402

CASE_KEYS = {"name", "shapes", "attrs", "ranges", "output_shapes", "values"}
MODULE_KEYS = {"PATH", "CASES", "golden", "OUT_OF_SCOPE"}
OPTIONAL_KEYS = {"SOCS", "TOLERANCE", "INPLACE"}
MAX_ELEMENTS = 1 << 20

try:  # bfloat16 as the verifier sees it; float32 stands in when ml_dtypes is absent
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    BF16 = np.dtype(np.float32)

NP = {"float32": np.float32, "float16": np.float16, "float64": np.float64, "bfloat16": BF16,
      "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
      "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "bool": np.bool_,
      "complex64": np.complex64, "complex128": np.complex128}


SHARED = "_shared.py"
_SHARED_IMPORT = re.compile(r"^from _shared import [^\n(]*\n", re.M)


def module_source(path: Path) -> str:
    """A module's text with its `from _shared import ...` line replaced by the text of the
    _shared.py beside it: self-contained, as the harness copies it into a package
    (compat_golden.py, loaded by path) and as it is checked here."""
    text = path.read_text()
    if not _SHARED_IMPORT.search(text):
        return text
    shared = (path.parent / SHARED).read_text().rstrip("\n") + "\n"
    return _SHARED_IMPORT.sub(lambda _: shared, text, count=1)


def _defined(text: str) -> set[str]:
    """Top-level names a module's text defines (functions, classes, assignments)."""
    names = set()
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def shadowed(path: Path) -> set[str]:
    """Names of _shared.py a module using it defines again: its helpers would then call the
    module's version (one namespace once inlined)."""
    text = path.read_text()
    if not _SHARED_IMPORT.search(text):
        return set()
    return _defined(text) & _defined((path.parent / SHARED).read_text())


def load_module(path: Path):
    """The module as the harness runs it (module_source), not as Python would import it."""
    mod = types.ModuleType(f"compat_case_{path.stem}")
    mod.__file__ = str(path)
    exec(compile(module_source(path), str(path), "exec"), mod.__dict__)
    return mod


def _input(rng, shape, dtype: str, rng_range):
    lo, hi = rng_range or (-1.0, 1.0)
    t = NP.get(dtype, np.float32)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.dtype(t).kind in "iu":
        info = np.iinfo(t)
        return rng.integers(max(int(np.floor(lo)), info.min), min(int(np.ceil(hi)), info.max),
                            size=shape, endpoint=True).astype(t)
    if np.dtype(t).kind == "c":
        return (rng.uniform(lo, hi, size=shape) + 1j * rng.uniform(lo, hi, size=shape)).astype(t)
    return rng.uniform(lo, hi, size=shape).astype(t)


def _variants(opdef: OpDef) -> list[Variant]:
    """The dtype variants opkg builds for this OpDef (opkg.core.model's rule and names), each once;
    a tensor whose dtype list the scanner could not read (computed) counts as float32."""
    spec = OpSpec(opdef.op_type, *(tuple(TensorSpec(p.name, tuple(p.dtypes) or ("float32",))
                                         for p in params)
                                   for params in (opdef.inputs, opdef.outputs)))
    unique: dict = {}
    for v in spec.variants():
        unique.setdefault(v.dtypes, v)
    return list(unique.values())


def _attrs_for(attrs: dict, v: Variant) -> dict:
    """A case's attrs for one variant: `{"per_variant": {name: value}}` resolved by its name."""
    return {k: (x["per_variant"][v.name] if isinstance(x, dict) and "per_variant" in x else x)
            for k, x in attrs.items()}


def _is_shape(s) -> bool:
    return isinstance(s, (list, tuple)) and all(isinstance(d, int) and d >= 0 for d in s)


def check_module(path: Path, corpus: Path, run_golden: bool = True, mod=None) -> list[str]:
    """Problems of one module (empty: fine), `mod` when the caller has loaded it already.
    Messages start with the module file name."""
    errs: list[str] = []

    def err(msg):
        errs.append(f"{path.name}: {msg}")

    try:
        mod = mod or load_module(path)
    except Exception as e:  # a module that does not import is the first thing to report
        return [f"{path.name}: import failed: {type(e).__name__}: {e}"]
    for name in sorted(shadowed(path)):
        err(f"defines {name}, which _shared.py defines too (one namespace once inlined): "
            "rename it")
    missing = MODULE_KEYS - set(vars(mod))
    if missing:
        return [f"{path.name}: missing {', '.join(sorted(missing))}"]
    project = corpus / mod.PATH
    if not project.is_dir():
        return [f"{path.name}: PATH {mod.PATH!r} is not a project of {corpus}"]
    if Path(mod.PATH).name != path.stem:
        err(f"file name should be {Path(mod.PATH).name}.py for PATH {mod.PATH}")
    if mod.OUT_OF_SCOPE is not None and not (isinstance(mod.OUT_OF_SCOPE, str) and mod.OUT_OF_SCOPE):
        err("OUT_OF_SCOPE must be None or a non-empty reason")
    opdef = scan(project, corpus)
    if opdef is None:
        if mod.OUT_OF_SCOPE is None:
            err("no OpDef found in op_host; cannot check names")
        return errs
    if mod.OUT_OF_SCOPE is not None and not mod.CASES:
        return errs
    ins = {p.name: p for p in opdef.inputs}
    outs = {p.name: p for p in opdef.outputs}
    attrs = {a.name: a for a in opdef.attrs}
    for name in getattr(mod, "INPLACE", None) or []:
        if name not in ins:
            err(f"INPLACE names {name!r}, not an input of {opdef.op_type} ({', '.join(ins)})")
    if not mod.CASES:
        err("CASES is empty")
    names = set()
    for c in mod.CASES:
        cn = c.get("name", "?")
        if cn in names:
            err(f"case {cn!r} twice")
        names.add(cn)
        extra = set(c) - CASE_KEYS
        if extra or "name" not in c or "shapes" not in c:
            err(f"case {cn!r}: keys {sorted(c)}; allowed {sorted(CASE_KEYS)} with name and shapes")
            continue
        for t, s in c["shapes"].items():
            if t not in ins:
                err(f"case {cn!r}: shape for {t!r}, not an input of {opdef.op_type} ({', '.join(ins)})")
            elif ins[t].kind == "dynamic":
                if not (isinstance(s, list) and s and all(_is_shape(x) for x in s)):
                    err(f"case {cn!r}: dynamic input {t!r} takes one shape per tensor, got {s}")
            elif not _is_shape(s):
                err(f"case {cn!r}: shape of {t!r} is not a list of dims: {s}")
        for t, p in ins.items():
            if p.kind != "optional" and t not in c["shapes"]:
                err(f"case {cn!r}: no shape for required input {t!r}")
        for t, r in c.get("ranges", {}).items():
            if t not in ins:
                err(f"case {cn!r}: range for {t!r}, not an input")
            elif not (isinstance(r, (list, tuple)) and len(r) == 2 and r[0] <= r[1]):
                # low == high is a constant input (a shape, a mode, paddings): the manifest
                # must accept it for those cases to build
                err(f"case {cn!r}: range of {t!r} is not [low, high] with low <= high: {r}")
        for a in c.get("attrs", {}):
            if a not in attrs:
                err(f"case {cn!r}: attr {a!r} is not declared ({', '.join(attrs) or 'none'})")
        variant_names = [v.name for v in _variants(opdef)]
        for a, x in c.get("attrs", {}).items():
            if isinstance(x, dict) and "per_variant" in x:
                missing = [n for n in variant_names if n not in x["per_variant"]]
                if missing:     # as the manifest says it
                    err(f"case {cn!r}: attr {a!r}: per_variant has no value for variant(s) "
                        f"{', '.join(missing)}; give one per dtype variant: "
                        f"{', '.join(variant_names)}")
        for t, vals in c.get("values", {}).items():
            shape = c["shapes"].get(t)
            if t not in ins or ins[t].kind == "dynamic":
                err(f"case {cn!r}: values for {t!r}, not a (non-dynamic) input of {opdef.op_type}")
            elif _is_shape(shape) and np.size(vals) != int(np.prod(shape)):
                err(f"case {cn!r}: {np.size(vals)} values for {t!r} of shape {shape}, which has "
                    f"{int(np.prod(shape))} elements")
        for a in attrs.values():
            if a.required and a.default is None and a.name not in c.get("attrs", {}):
                err(f"case {cn!r}: required attr {a.name!r} has no value")
        for t in c.get("output_shapes", {}):
            if t not in outs:
                err(f"case {cn!r}: output shape for {t!r}, not an output ({', '.join(outs)})")
        count = 0
        for t, s in c["shapes"].items():
            for shp in (s if t in ins and ins[t].kind == "dynamic" else [s]):
                count += int(np.prod(shp)) if _is_shape(shp) else 0
        if count > MAX_ELEMENTS:
            err(f"case {cn!r}: {count} input elements; keep cases under {MAX_ELEMENTS}")
    tol = getattr(mod, "TOLERANCE", None) or {}
    for dt, t in tol.items():
        if dt not in NP or set(t) - {"rtol", "atol", "error_ratio"}:
            err(f"TOLERANCE[{dt!r}] = {t}: dtype names and rtol/atol/error_ratio only")
    g = mod.golden
    if not callable(g):
        err("golden is not callable")
        return errs
    sig = inspect.signature(g)
    positional = [p.name for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = {p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY}
    var_kw = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
    if positional != list(ins):
        err(f"golden takes ({', '.join(positional)}); the OpDef inputs are ({', '.join(ins)})")
    for a in attrs:
        if a not in keywords and a not in positional and not var_kw:
            err(f"golden has no keyword parameter for attr {a!r}")
    if errs or not run_golden:
        return errs
    for v in _variants(opdef):
        dtype_of = dict(v.dtypes)
        for c in mod.CASES:
            rng = np.random.default_rng(0)
            args = []
            try:
                for t, p in ins.items():
                    s = c["shapes"].get(t)
                    r = c.get("ranges", {}).get(t)
                    if s is None:   # left out: the verifier passes None (opkg/verify/runner.py)
                        args.append(None)
                    elif t in c.get("values", {}):
                        args.append(np.asarray(c["values"][t]).astype(NP.get(dtype_of[t], np.float32)).reshape(s))
                    elif p.kind == "dynamic":
                        args.append([_input(rng, x, dtype_of[t], r) for x in s])
                    else:
                        args.append(_input(rng, s, dtype_of[t], r))
            except ValueError as e:   # e.g. a range empty once clipped to an unsigned dtype
                err(f"case {c['name']!r} {v.name}: cannot draw inputs: {e}")
                continue
            t0 = time.perf_counter()
            try:
                with np.errstate(all="ignore"):
                    res = g(*args, **_attrs_for(c.get("attrs", {}), v))
            except Exception as e:
                err(f"case {c['name']!r} {v.name}: golden raised {type(e).__name__}: {e}")
                continue
            dt = time.perf_counter() - t0
            if dt > 2.0:
                err(f"case {c['name']!r}: golden took {dt:.1f} s")
            res = list(res) if isinstance(res, tuple) else [res]
            # in-place inputs (INPLACE) follow the declared outputs
            expect = list(outs.items()) + [(t, ins[t]) for t in getattr(mod, "INPLACE", None) or []]
            if len(res) != len(expect):
                err(f"case {c['name']!r}: golden returned {len(res)} outputs, expected {len(expect)} "
                    f"({', '.join(o for o, _ in expect) or 'none'})")
                continue
            for (o, p), r in zip(expect, res):
                if r is None:
                    continue   # an output the case's attrs switch off: not compared
                if p.kind == "dynamic":
                    n = len(next((c["shapes"][t] for t, q in ins.items() if q.kind == "dynamic"), []))
                    if not isinstance(r, list) or len(r) != n:
                        err(f"case {c['name']!r}: dynamic output {o!r} must be a list of {n} arrays")
                        continue
                    arrs = r
                else:
                    arrs = [r]
                for a in arrs:
                    a = np.asarray(a)
                    if a.dtype == object:
                        err(f"case {c['name']!r}: output {o!r} is not numeric")
                want = c.get("output_shapes", {}).get(o)
                if want is not None and p.kind != "dynamic" and list(np.shape(r)) != list(want):
                    err(f"case {c['name']!r}: output {o!r} has shape {list(np.shape(r))}, "
                        f"output_shapes says {want}")
    return list(dict.fromkeys(errs))   # one line per problem, not per dtype variant


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True, type=Path, help="checkout of the corpus")
    ap.add_argument("--modules", type=Path, default=Path(__file__).resolve().parent / "cann-ops")
    ap.add_argument("--only", nargs="*", default=None, help="module names (file stems)")
    ap.add_argument("--no-golden", action="store_true", help="skip running the goldens")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args(argv)
    # a leading underscore marks a file the modules share, not an operator's module
    files = sorted(p for p in a.modules.glob("*.py")
                   if not p.name.startswith("_") and (not a.only or p.stem in a.only))
    bad = 0
    scope = 0
    for f in files:
        try:
            mod = load_module(f)
        except Exception:
            mod = None      # check_module reports why
        errs = check_module(f, a.corpus, not a.no_golden, mod)
        if errs:
            bad += 1
            print("\n".join(errs))
        elif not a.quiet:
            print(f"{f.name}: ok")
        scope += getattr(mod, "OUT_OF_SCOPE", None) is not None
    print(f"{len(files)} modules, {len(files) - bad} ok, {bad} with errors, {scope} out of scope")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
