"""msopgen's prototype JSON (the operator definition `msopgen gen -i` reads): found in a
project, and read into the `op:` mapping of a manifest, each problem with its file and entry."""

from __future__ import annotations

import json
from pathlib import Path

from opkg.core.errors import Location, UsageError, did_you_mean
from opkg.core.model import ATTR_TYPES, DTYPE_ALIASES, DTYPES, FORMATS, PARAM_TYPES, snake_case
from opkg.importers.destination import OP_TYPE_RE


_MSOPGEN_DTYPES = {"float": "float32", "half": "float16", "float16": "float16",
                   "float32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16",
                   "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
                   "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
                   "bool": "bool", "fp16": "float16", "fp32": "float32", "double": "float64",
                   "int4": "int4"}


_MSOPGEN_ATTRS = {v: k for k, v in ATTR_TYPES.items()} | {
    "listInt": "list_int", "listFloat": "list_float", "listBool": "list_bool", "str": "str"}


def _bad(path: Path, where: str, message: str, hint: str | None = None) -> UsageError:
    return UsageError(message, location=Location(path), field=where,
                      hint=hint or "msopgen's prototype JSON is a list of {op, input_desc, "
                                   "output_desc, attr}; each tensor has name, param_type, "
                                   "format [...] and type [...]")


def prototype_ops(path: Path) -> list[str] | None:
    """The op types a JSON file describes when it is an msopgen prototype (a list of objects
    with 'op' and input_desc/output_desc), else None: found by content, whatever its name."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if isinstance(data, dict):
        data = [data]
    if (not isinstance(data, list) or not data
            or not all(isinstance(o, dict) and "op" in o
                       and ("input_desc" in o or "output_desc" in o) for o in data)):
        return None
    return [str(o["op"]) for o in data]


def find_prototype_json(project: Path, explicit: Path | None,
                        op_type: str | None = None) -> Path | None:
    """msopgen's prototype JSON for the project, or None (it is optional: the OpDef is the
    source of truth). Looked for in the project directory, then beside it (msopgen is usually
    run where the JSON is, with -out naming the project directory), by content; `op_type`
    (the OpDef's) picks among several."""
    if explicit is not None:
        if not explicit.is_file():
            raise UsageError(f"no such file: {explicit}", field="--prototype")
        return explicit
    for where in (project, project.parent):
        found = {p: ops for p in sorted(where.glob("*.json"))
                 if (ops := prototype_ops(p)) is not None}
        if not found:
            continue
        if op_type is not None:
            matching = [p for p, ops in found.items() if op_type in ops]
            if len(matching) == 1:
                return matching[0]
        if where == project.parent:
            # beside the project: one of several projects' JSONs; match the directory name
            stems = {project.name.lower(), snake_case(project.name)}
            named = [p for p in found if p.stem.lower() in stems
                     or any(o.lower() == project.name.lower() for o in found[p])]
            if len(named) == 1:
                return named[0]
            if len(found) != 1:
                return None
        if len(found) > 1:
            raise UsageError(f"several prototype JSON files in {where}: "
                             + ", ".join(c.name for c in found),
                             hint="choose one with --prototype FILE")
        return next(iter(found))
    return None


def parse_prototype(path: Path, op_type: str | None = None) -> dict:
    """msopgen JSON -> a manifest `op:` mapping (manifest spellings), with file/field errors."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UsageError(f"invalid JSON: {exc.msg}",
                         location=Location(path, exc.lineno, exc.colno),
                         hint="msopgen's prototype JSON must be valid JSON (check commas and "
                              "quotes near this place)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read: {exc}", location=Location(path)) from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data:
        raise _bad(path, "", "expected a non-empty list of operator prototypes")
    ops = [o for o in data if isinstance(o, dict)]
    if len(ops) != len(data):
        raise _bad(path, "", "every entry must be an object with 'op'")
    if op_type is not None:
        chosen = [o for o in ops if o.get("op") == op_type]
        if not chosen:
            raise UsageError(f"{path.name} has no op {op_type!r}", field="--op",
                             hint=did_you_mean(op_type, [str(o.get("op")) for o in ops])
                             or "ops: " + ", ".join(str(o.get("op")) for o in ops))
        index = ops.index(chosen[0])
    elif len(ops) > 1:
        raise UsageError(f"{path.name} describes {len(ops)} ops: "
                         + ", ".join(str(o.get("op")) for o in ops),
                         hint="a package holds one operator; choose it with --op TYPE")
    else:
        index = 0
    o = ops[index]
    w = f"[{index}]"
    op = o.get("op")
    if not isinstance(op, str) or not OP_TYPE_RE.match(op):
        raise _bad(path, f"{w}.op", f"op type {op!r} is not CamelCase like AddCustom")
    inputs = _tensors(path, o.get("input_desc"), f"{w}.input_desc", required=False)
    outputs = _tensors(path, o.get("output_desc"), f"{w}.output_desc", required=True)
    attrs = []
    for j, a in enumerate(o.get("attr") or []):
        aw = f"{w}.attr[{j}]"
        if not isinstance(a, dict) or not isinstance(a.get("name"), str):
            raise _bad(path, aw, "an attr needs a 'name'")
        kind = _MSOPGEN_ATTRS.get(str(a.get("type")))
        if kind is None:
            raise _bad(path, aw + ".type", f"unknown attr type {a.get('type')!r}",
                       f"one of: {', '.join(ATTR_TYPES.values())}")
        required = a.get("param_type", "optional") == "required"
        entry = {"name": a["name"], "type": kind}
        if required:
            entry["required"] = True
        else:
            if "default_value" not in a:
                raise _bad(path, aw, f"optional attr {a['name']!r} has no default_value",
                           "add \"default_value\" or make it \"param_type\": \"required\"")
            entry["default"] = _attr_default(path, aw, kind, a["default_value"])
        attrs.append(entry)
    return {"type": op, "inputs": inputs, "outputs": outputs, "attrs": attrs}


def _tensors(path: Path, value, where: str, required: bool) -> list[dict]:
    if value is None:
        value = []
    if not isinstance(value, list):
        raise _bad(path, where, "expected a list of tensors")
    if required and not value:
        raise _bad(path, where, "an operator needs at least one output")
    out = []
    for i, t in enumerate(value):
        tw = f"{where}[{i}]"
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise _bad(path, tw, "a tensor needs a 'name'")
        types = t.get("type")
        if isinstance(types, str):
            types = [types]
        if not isinstance(types, list) or not types:
            raise _bad(path, tw + ".type", f"tensor {t['name']!r} needs a 'type' list")
        dtypes = []
        for j, d in enumerate(types):
            dt = _MSOPGEN_DTYPES.get(str(d), DTYPE_ALIASES.get(str(d), str(d)))
            if dt not in DTYPES:
                raise _bad(path, f"{tw}.type[{j}]", f"unknown or unsupported dtype {d!r}",
                           did_you_mean(str(d), list(_MSOPGEN_DTYPES))
                           or "msopgen spellings: float, half, bfloat16, int8, int32, ...")
            dtypes.append(dt)
        formats = t.get("format", ["ND"])
        if isinstance(formats, str):
            formats = [formats]
        for j, f in enumerate(formats):
            if f not in FORMATS:
                raise _bad(path, f"{tw}.format[{j}]", f"unknown format {f!r}",
                           did_you_mean(str(f), FORMATS) or f"known: {', '.join(FORMATS)}")
        # msopgen repeats the format per dtype; one format for all reads more easily
        if len(set(formats)) == 1:
            formats = formats[:1]
        param_type = t.get("param_type", "required")
        if param_type not in PARAM_TYPES:
            raise _bad(path, tw + ".param_type", f"unknown param_type {param_type!r}",
                       f"one of: {', '.join(PARAM_TYPES)}")
        entry = {"name": t["name"], "dtypes": dtypes, "formats": list(formats)}
        if param_type != "required":
            entry["param_type"] = param_type
        out.append(entry)
    return out


def _attr_default(path, where, kind, raw):
    """msopgen writes defaults as strings ("0.1", "true", "1,2"); the manifest wants values."""
    def one(k, text):
        text = str(text).strip()
        try:
            if k == "float":
                return float(text)
            if k == "int":
                return int(text)
            if k == "bool":
                if text.lower() in ("true", "1"):
                    return True
                if text.lower() in ("false", "0"):
                    return False
                raise ValueError(text)
            return text
        except ValueError:
            raise _bad(path, where + ".default_value",
                       f"default_value {text!r} is not a {k}") from None

    if kind.startswith("list_"):
        if isinstance(raw, list):
            items = raw
        else:
            items = [x for x in str(raw).strip("[] ").split(",") if x.strip()]
        return [one(kind[5:], x) for x in items]
    if isinstance(raw, (int, float, bool)) and not isinstance(raw, str):
        return one(kind, json.dumps(raw))
    return one(kind, raw)
