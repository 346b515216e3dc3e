"""The text `opkg import` writes: the manifest (with comments saying what was inferred and
what to check), the golden stub, and cases from a project's ST test-case JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

# The golden stub raises NotImplementedError with GOLDEN_MISSING; the verifier turns it into
# "golden missing", so an import never passes silently.
from opkg.verify.runner import GOLDEN_MISSING


def golden_stub(op: dict, func: str) -> str:
    args = ", ".join(t["name"] for t in op["inputs"])
    kw = ", ".join(a["name"] for a in op["attrs"])
    sig = args + (", *, " + kw if kw else "")
    # an operator without outputs: the inputs verify.inplace lists
    outs = ", ".join(t["name"] for t in op["outputs"]) or ", ".join(
        t["name"] + (" (a list: one array per tensor)" if t.get("param_type") == "dynamic" else "")
        for t in op["inputs"] if t["name"] in inplace_candidates(op))
    return (f'"""NumPy reference for {op["type"]}: WRITE ME.\n\n'
            "Written by `opkg import` as a stub. Until it computes the expected outputs, the\n"
            "build reports 'golden missing' and fails: an imported operator never passes\n"
            'unchecked.\n"""\n\nimport numpy as np\n\n\n'
            f"def {func}({sig}):\n"
            f"    # Return {outs} (one array per {'output' if op['outputs'] else 'in-place input'}, "
            "any float dtype) computed in float64.\n"
            f"    raise NotImplementedError(\"{GOLDEN_MISSING}: write golden.py:{func}\")\n")


def inplace_candidates(op: dict) -> list[str]:
    """The inputs an operator without outputs may rewrite, as import lists them in
    verify.inplace: required and dynamic ones. An optional input is left out: a case may omit
    it, and an omitted input has nothing to compare."""
    return [t["name"] for t in op["inputs"] if t.get("param_type", "required") != "optional"]


def _yaml_tensor(t: dict) -> str:
    parts = [f"name: {t['name']}", f"dtypes: [{', '.join(t['dtypes'])}]",
             f"formats: [{', '.join(t['formats'])}]"]
    if "param_type" in t:
        parts.append(f"param_type: {t['param_type']}")
    return "{" + ", ".join(parts) + "}"


def _yaml_value(v) -> str:
    return json.dumps(v)


def st_test_cases(project: Path, op: dict, has_infer_shape: bool, notes: list[str]
                  ) -> tuple[list[str], str | None]:
    """Verification cases (manifest YAML flow mappings) from the project's msopst test cases
    (cann-ops: tests/st/*.json, `[{case_name, op, input_desc: [{name, shape, value_range}],
    output_desc, attr: [{name, value}]}]`): the shapes, value ranges and attrs its authors test.
    Entries that do not fit the prototype are skipped with a note."""
    files = sorted((project / "tests" / "st").glob("*.json"))
    inputs = [t for t in op["inputs"] if t.get("param_type", "required") != "dynamic"]
    if not files or len(inputs) != len(op["inputs"]):
        return [], None
    attr_types = {a["name"]: a["type"] for a in op["attrs"]}
    cases, seen, skipped = [], set(), 0
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        for entry in data if isinstance(data, list) else [data]:
            case = _st_case(entry, op, attr_types, has_infer_shape)
            if case is None:
                skipped += 1
                continue
            key = json.dumps(case, sort_keys=True)
            name = re.sub(r"[^A-Za-z0-9_]", "_", str(entry.get("case_name") or f"st{len(cases)}"))
            if key in seen or len(cases) >= 8:     # a handful of distinct cases is enough
                continue
            seen.add(key)
            cases.append(_yaml_flow({"name": name, **case}))
    if skipped:
        notes.append(f"{skipped} test case(s) of tests/st/ not usable as verification cases "
                     "(other op, missing shapes or attrs)")
    if cases:
        notes.append(f"{len(cases)} verification case(s) from tests/st/ "
                     f"({', '.join(f.name for f in files)})")
    return cases, "tests/st/" + (files[0].name if len(files) == 1 else "*.json")


def _st_case(entry, op: dict, attr_types: dict, has_infer_shape: bool) -> dict | None:
    if not isinstance(entry, dict) or entry.get("op") not in (None, op["type"]):
        return None
    descs = entry.get("input_desc")
    if not isinstance(descs, list) or len(descs) != len(op["inputs"]):
        return None
    shapes, ranges = {}, {}
    for t, d in zip(op["inputs"], descs):
        shape = d.get("shape") if isinstance(d, dict) else None
        if (not isinstance(shape, list)
                or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                           for x in shape)):
            return None
        shapes[t["name"]] = shape
        vr = d.get("value_range")
        if (isinstance(vr, list) and vr and isinstance(vr[0], list) and len(vr[0]) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vr[0])
                and vr[0][0] < vr[0][1]):
            ranges[t["name"]] = list(vr[0])
    attrs = {}
    for a in entry.get("attr") or []:
        if isinstance(a, dict) and a.get("name") in attr_types and "value" in a:
            value = _st_attr(attr_types[a["name"]], a["value"])
            if value is None:
                return None
            attrs[a["name"]] = value
    if any(x.get("required") and x["name"] not in attrs for x in op["attrs"]):
        return None
    case = {"shapes": shapes}
    if attrs:
        case["attrs"] = attrs
    if ranges:
        case["ranges"] = ranges
    if not has_infer_shape and op["outputs"]:
        outs = entry.get("output_desc")
        if not isinstance(outs, list) or len(outs) != len(op["outputs"]) or not all(
                isinstance(o, dict) and isinstance(o.get("shape"), list) for o in outs):
            return None
        # a ref output (named like an input) has the input's shape
        ins = {t["name"] for t in op["inputs"]}
        stated = {t["name"]: o["shape"] for t, o in zip(op["outputs"], outs) if t["name"] not in ins}
        if stated:
            case["output_shapes"] = stated
    return case


def _st_attr(kind: str, value):
    """An msopst attr value as the manifest's type wants it, or None when it is not one."""
    def one(k, v):
        if k == "float" and isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        if k == "int" and isinstance(v, int) and not isinstance(v, bool):
            return v
        if k == "bool" and isinstance(v, bool):
            return v
        if k == "str" and isinstance(v, str):
            return v
        return None

    if kind.startswith("list_"):
        if not isinstance(value, list):
            return None
        items = [one(kind[5:], v) for v in value]
        return None if any(i is None for i in items) else items
    return one(kind, value)


def _yaml_flow(value) -> str:
    """A one-line YAML flow mapping (JSON scalars are valid YAML; keys written bare)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_flow(v) for v in value) + "]"
    return json.dumps(value)


# A value for a required attr in the generated case: the case is valid as written, and the
# comment asks for a real one.
_ATTR_PLACEHOLDER = {"bool": False, "int": 1, "float": 1.0, "str": "", "list_int": [1],
                     "list_float": [1.0], "list_bool": [False]}


def manifest_text(name, op, host_sources, tiling_data, kernel, socs, unbuilt, golden_ref,
                   stub: bool, include_dirs=(), has_infer_shape: bool = True,
                   st_cases=(), st_source: str | None = None, libraries=(), deps=()) -> str:
    lines = [f"name: {name}", "version: 0.1.0",
             f"summary: {op['type']} (imported from an msopgen project)",
             "op:", f"  type: {op['type']}", "  inputs:"]
    lines += [f"    - {_yaml_tensor(t)}" for t in op["inputs"]] or []
    if not op["inputs"]:
        lines[-1] = "  inputs: []"
    lines.append("  outputs:" if op["outputs"] else "  outputs: []")
    lines += [f"    - {_yaml_tensor(t)}" for t in op["outputs"]]
    if op.get("dropped_formats"):
        lines.append("  # The OpDef's other format combinations of these dtypes, not built (one "
                     "variant per dtype combination; the sim gives each tensor its origin shape "
                     "as storage shape):")
        lines += [f"  #   {d}" for d in op["dropped_formats"]]
    if op["attrs"]:
        lines.append("  attrs:")
        for a in op["attrs"]:
            parts = [f"name: {a['name']}", f"type: {a['type']}"]
            if a.get("required"):
                parts.append("required: true")
            else:
                parts.append(f"default: {_yaml_value(a['default'])}")
            lines.append("    - {" + ", ".join(parts) + "}")
    if op.get("soc_configs"):
        lines.append("  soc_configs:   # AddConfig(soc, config): the config's own lists")
        for short, cfg in op["soc_configs"].items():
            lines.append(f"    {short}:")
            for group in ("inputs", "outputs"):
                lines.append(f"      {group}:" if cfg[group] else f"      {group}: []")
                lines += [f"        - {_yaml_tensor(t)}" for t in cfg[group]]
    lines += ["tiling:", f"  sources: [{', '.join(host_sources)}]"]
    if tiling_data:
        lines.append(f"  data: {tiling_data}")
    if libraries:
        lines.append("  # CANN links these groups into separate host libraries (CMake targets)")
        lines.append(f"  libraries: [{', '.join('[' + ', '.join(g) + ']' for g in libraries)}]")
    lines += ["kernel:", f"  source: {kernel}"]
    if include_dirs:
        lines += ["# Shared headers of the corpus the sources include, copied unchanged.",
                  f"include_dirs: [{', '.join(include_dirs)}]"]
    lines.append("# From the OpDef's AddConfig(...) short names (see `opkg import` output).")
    if unbuilt:
        lines.append("# Also declared by the OpDef, not built (the sim cannot run them yet):")
        lines += [f"#   {u}" for u in unbuilt]
    lines.append(f"socs: [{', '.join(socs)}]")
    if deps:
        lines.append("# The corpus's shared host library, where it is (the workspace's repositories:)")
        lines.append("deps: [" + ", ".join(f'"{d}"' for d in deps) + "]")
    else:
        lines.append("deps: []")
    lines.append("verify:")
    if stub:
        lines.append("  # golden.py is a stub that raises: the build fails with 'golden missing' "
                     "until it is written.")
    lines += [f"  golden: {golden_ref}", "  seed: 0"]
    if not op["outputs"]:
        optional = [t["name"] for t in op["inputs"] if t["name"] not in inplace_candidates(op)]
        lines += ["  # No outputs: the kernel rewrites inputs, compared after the run. Every "
                  "required and dynamic",
                  "  # input is listed; keep only those it rewrites (the golden returns their "
                  "expected contents,",
                  "  # a list of arrays for a dynamic input)."]
        if optional:
            lines.append(f"  # Optional inputs ({', '.join(optional)}) are not listed: add one "
                         "only if every case gives it a shape.")
        lines.append(f"  inplace: [{', '.join(inplace_candidates(op))}]")
    lines.append("  cases:")
    if st_cases:
        lines.append(f"    # From the project's own test cases ({st_source}): shapes, value "
                     "ranges and attrs.")
        lines += [f"    - {c}" for c in st_cases]
        return "\n".join(lines) + "\n"
    lines += ["    # Generated from the prototype: one shape for every input. REVIEW IT:",
              "    # give each input the shape the operator expects, and add edge cases "
              "(a single element,",
              "    # a length that is not a multiple of 32 bytes, rows that do not divide "
              "across cores)."]
    default = {"required": "[8, 256]", "optional": "[8, 256]",
               "dynamic": "[[8, 256], [8, 256]]"}   # dynamic: 2 tensors
    shapes = ", ".join(f"{t['name']}: {default[t.get('param_type', 'required')]}"
                       for t in op["inputs"] if t.get("param_type", "required") in default)
    case = f"    - {{name: default, shapes: {{{shapes}}}"
    required = [a for a in op["attrs"] if a.get("required")]
    if required:
        lines.append("    # required attrs: placeholder values, give them real ones")
        case += ", attrs: {" + ", ".join(f"{a['name']}: {_yaml_value(_ATTR_PLACEHOLDER[a['type']])}"
                                         for a in required) + "}"
    own = [t for t in op["outputs"] if t["name"] not in {i["name"] for i in op["inputs"]}]
    if not has_infer_shape and own:     # (a ref output has its input's shape)
        lines.append("    # the OpDef registers no InferShape: output_shapes says what the "
                     "outputs are")
        case += ", output_shapes: {" + ", ".join(f"{t['name']}: [8, 256]" for t in own) + "}"
    lines.append(case + "}")
    return "\n".join(lines) + "\n"
