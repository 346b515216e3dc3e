"""New packages: `opkg new` (from the Jinja2 templates in opkg/templates/) and `opkg import`
(from an msopgen project: prototype JSON, op_host/, op_kernel/).

Both write a package directory and nothing else; the manifest they write is then loaded and
checked by opkg/manifest.py like any other, and the build's prototype check
(opkg/verify/prototype.py) compares it with the sources' OpDef. The CLI modules
(opkg/cli/new.py, opkg/cli/import_.py) only parse flags and print what happened.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from opkg.errors import Location, UsageError, did_you_mean
from opkg.model import ATTR_TYPES, DTYPE_ALIASES, DTYPES, FORMATS, PARAM_TYPES, snake_case
# The golden stub `opkg import` writes raises NotImplementedError with GOLDEN_MISSING; the
# verifier turns it into "golden missing", so an import never passes silently.
from opkg.verify.runner import GOLDEN_MISSING

OP_TYPE_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
ADD_CONFIG_RE = re.compile(r'\bAddConfig\s*\(\s*"([^"]+)"')

# Families whose parts have DataCopyPad (Atlas A2/A3, 200I/500 A2); the `new` template uses it.
PAD_FAMILIES = ("c220", "m300")


@lru_cache(maxsize=1)
def _env():
    import jinja2

    return jinja2.Environment(loader=jinja2.PackageLoader("opkg", "templates"),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              autoescape=False)


def find_workspace():
    """The enclosing workspace (its settings validated), or None outside one."""
    from opkg.workspace import WORKSPACE_FILE, Workspace

    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / WORKSPACE_FILE).is_file():
            return Workspace.load(d)
    return None


def workspace_root() -> Path | None:
    ws = find_workspace()
    return ws.root if ws is not None else None


def _check_dest(dest: Path) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UsageError(f"{dest} already exists and is not empty",
                         hint="choose another --dest, or remove it first")


def _check_unique(name: str, op_type: str) -> None:
    """A second package with a name or op type already in the workspace would break every
    later command: refuse before writing anything."""
    ws = find_workspace()
    if ws is None:
        return
    for pkg in ws.packages.values():
        if pkg.name == name:
            raise UsageError(f"the workspace already has a package named {name!r} "
                             f"({pkg.label})", hint="choose another name")
        if pkg.op is not None and pkg.op.type == op_type:
            raise UsageError(f"the workspace already has op type {op_type!r} ({pkg.label})",
                             hint="operator types are unique in a workspace; choose another")


def _soc_rows(socs, root):
    from opkg.socs import soc_table

    table = soc_table(root)
    rows = []
    for s in socs:
        if s not in table:
            raise UsageError(f"unknown SoC {s!r}", field="--soc",
                             hint=did_you_mean(s, table) or f"known SoCs: {', '.join(table)}")
        rows.append(table[s])
    return rows


# -- opkg new -----------------------------------------------------------------------------------


def new_package(name: str, op_type: str, dest: Path, socs=("Ascend910B1",), root=None) -> list[Path]:
    """Render the element-wise template into dest; returns the files written."""
    if not NAME_RE.match(name):
        raise UsageError(f"{name!r} is not a package name", field="NAME",
                         hint="lower case letters, digits and '_', starting with a letter, "
                              "e.g. my_add")
    if not OP_TYPE_RE.match(op_type):
        raise UsageError(f"{op_type!r} is not an op type", field="--op-type",
                         hint="CamelCase starting with a capital letter, e.g. MyAddCustom")
    rows = _soc_rows(socs, root)
    for r in rows:
        if r.family not in PAD_FAMILIES:
            raise UsageError(f"SoC {r.name} has no DataCopyPad, which the template's kernel uses "
                             "for the ragged end of a tensor", field="--soc",
                             hint="pick an Atlas A2/A3 or 200I/500 A2 part (e.g. Ascend910B1), "
                                  "or adapt the kernel after generating it")
    _check_dest(dest)
    _check_unique(name, op_type)
    kernel = snake_case(op_type)
    shorts = list(dict.fromkeys(r.short for r in rows))
    ctx = {"name": name, "op_type": op_type, "kernel_name": kernel, "func": kernel,
           "guard": f"{kernel.upper()}_TILING_H", "socs": [r.name for r in rows],
           "shorts": shorts}
    files = {
        "opkg.yaml": "new_opkg.yaml.j2",
        f"op_host/{kernel}.cpp": "new_op_host.cpp.j2",
        f"op_host/{kernel}_tiling.h": "new_tiling.h.j2",
        f"op_kernel/{kernel}.cpp": "new_op_kernel.cpp.j2",
        "golden.py": "new_golden.py.j2",
    }
    written = []
    for rel, template in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_env().get_template(template).render(**ctx))
        written.append(path)
    return written


# -- opkg import --------------------------------------------------------------------------------


@dataclass
class ImportResult:
    dest: Path
    op_type: str
    socs: list[str]
    notes: list[str] = field(default_factory=list)
    golden_missing: bool = False


_MSOPGEN_DTYPES = {"float": "float32", "half": "float16", "float16": "float16",
                   "float32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16",
                   "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
                   "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
                   "bool": "bool", "fp16": "float16", "fp32": "float32", "double": None}
_MSOPGEN_ATTRS = {v: k for k, v in ATTR_TYPES.items()} | {
    "list_int": "list_int", "list_float": "list_float", "list_bool": "list_bool",
    "str": "str"}


def _bad(path: Path, where: str, message: str, hint: str | None = None) -> UsageError:
    return UsageError(message, location=Location(path), field=where,
                      hint=hint or "msopgen's prototype JSON is a list of {op, input_desc, "
                                   "output_desc, attr}; each tensor has name, param_type, "
                                   "format [...] and type [...]")


def find_prototype_json(project: Path, explicit: Path | None) -> Path:
    if explicit is not None:
        if not explicit.is_file():
            raise UsageError(f"no such file: {explicit}", field="--prototype")
        return explicit
    candidates = []
    for p in sorted(project.glob("*.json")):
        if p.name in ("CMakePresets.json",):
            continue
        try:
            head = p.read_text(errors="replace").lstrip()[:1]
        except OSError:
            continue
        if head == "[":
            candidates.append(p)
    if not candidates:
        # msopgen is usually run from the directory that holds the JSON, with -out naming the
        # project directory beside it (CANN's samples: AddCustom.json next to AddCustom/)
        beside = [project.parent / f"{stem}.json"
                  for stem in dict.fromkeys((project.name, snake_case(project.name)))]
        found = [p for p in beside if p.is_file()]
        if found:
            return found[0]
        raise UsageError(f"no prototype JSON found in {project} (nor "
                         + " or ".join(p.name for p in beside) + " beside it)",
                         hint="msopgen's input JSON (a list of {op, input_desc, output_desc, "
                              "attr}); pass it with --prototype FILE if it lives elsewhere")
    if len(candidates) > 1:
        raise UsageError(f"several prototype JSON files in {project}: "
                         + ", ".join(c.name for c in candidates),
                         hint="choose one with --prototype FILE")
    return candidates[0]


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


def import_project(project: Path, dest: Path, *, golden: str | None = None,
                   json_path: Path | None = None, op_type: str | None = None,
                   name: str | None = None, root: Path | None = None) -> ImportResult:
    from opkg.socs import soc_table

    project = Path(project)
    if not project.is_dir():
        raise UsageError(f"no such project directory: {project}", field="PROJECT_DIR")
    proto_path = find_prototype_json(project, json_path)
    op = parse_prototype(proto_path, op_type)
    kernel_name = snake_case(op["type"])
    host_dir, kernel_dir = project / "op_host", project / "op_kernel"
    for d in (host_dir, kernel_dir):
        if not d.is_dir():
            raise UsageError(f"{project} has no {d.name}/ directory",
                             hint="an msopgen project keeps host code in op_host/ and the "
                                  "kernel in op_kernel/")
    host_sources = sorted(p for p in host_dir.glob("*.cpp"))
    if not host_sources:
        raise UsageError(f"{host_dir} has no .cpp host sources")
    kernel = kernel_dir / f"{kernel_name}.cpp"
    if not kernel.is_file():
        cpps = sorted(kernel_dir.glob("*.cpp"))
        if len(cpps) != 1:
            raise UsageError(f"no kernel source {kernel.relative_to(project)} for op "
                             f"{op['type']}", hint="the kernel file and entry are snake_case of "
                                                   f"the op type: {kernel_name}.cpp")
        kernel = cpps[0]
    tiling_headers = [h for h in sorted(host_dir.glob("*.h"))
                      if "BEGIN_TILING_DATA_DEF" in h.read_text(errors="replace")]

    name = name or dest.name
    if not NAME_RE.match(name):
        raise UsageError(f"package name {name!r} (from --dest) is not valid", field="--dest",
                         hint="the last part of --dest names the package: lower case letters, "
                              "digits and '_', e.g. packages/leaky_relu")
    _check_unique(name, op["type"])
    golden_file = golden_func = None
    if golden is not None:
        if golden.count(":") != 1:
            raise UsageError(f"{golden!r} is not FILE:FUNC", field="--golden",
                             hint="for example --golden ref.py:leaky_relu")
        gf, golden_func = golden.split(":")
        golden_file = Path(gf)
        if not golden_file.is_file():
            raise UsageError(f"golden file not found: {gf}", field="--golden")
        try:
            tree = ast.parse(golden_file.read_text(), str(golden_file))
        except SyntaxError as exc:
            raise UsageError(f"golden has a syntax error: {exc.msg}",
                             location=Location(golden_file, exc.lineno or 0)) from None
        defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        if golden_func not in defined:
            raise UsageError(f"{golden_file.name} defines no function {golden_func!r}",
                             field="--golden", hint=did_you_mean(golden_func, defined)
                             or f"define def {golden_func}(...) in {golden_file.name}")

    # SoCs: the AddConfig short names in op_host, each mapped to one row of the SoC table.
    table = soc_table(root)
    shorts = []
    for src in sorted(host_dir.rglob("*")):
        if src.suffix in (".cpp", ".cc", ".h", ".hpp") and src.is_file():
            for s in ADD_CONFIG_RE.findall(src.read_text(errors="replace")):
                if s not in shorts:
                    shorts.append(s)
    notes = []
    if json_path is None and proto_path.parent != project:
        notes.append(f"prototype from {proto_path.name} beside the project directory")
    socs = []
    for short in shorts:
        rows = [r for r in table.values() if r.short == short]
        if not rows:
            notes.append(f"AddConfig(\"{short}\") matches no SoC in toolchains/socs.yaml; "
                         "left out of socs; the build's OpDef check reports it until the SoC table has a "
                         "row for it (or the AddConfig goes)")
            continue
        # prefer a row whose core counts are known: the sim needs them to check blockDim
        pick = next((r for r in rows if r.vector_cores or r.cube_cores), rows[0])
        others = [r.name for r in rows if r is not pick]
        notes.append(f"AddConfig(\"{short}\") -> {pick.name}"
                     + (f" (also {short}: {', '.join(others)}; add any you want built)"
                        if others else "")
                     + ("" if pick.vector_cores or pick.cube_cores else
                        f"; toolchains/socs.yaml has no core counts for {pick.name}, which the "
                        "sim needs: add vector_cores or cube_cores to build it"))
        socs.append(pick.name)
    if not socs:
        socs = ["Ascend910B1"]
        notes.append("no usable AddConfig(...) in op_host: socs set to Ascend910B1; the build's "
                     "OpDef check will ask for a matching AddConfig")

    _check_dest(dest)
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(host_dir, dest / "op_host", dirs_exist_ok=True)
    shutil.copytree(kernel_dir, dest / "op_kernel", dirs_exist_ok=True)
    if golden_file is not None:
        target = dest / golden_file.name
        shutil.copyfile(golden_file, target)
        golden_ref = f"{golden_file.name}:{golden_func}"
    else:
        golden_func = kernel_name
        (dest / "golden.py").write_text(_golden_stub(op, golden_func))
        golden_ref = f"golden.py:{golden_func}"
    manifest = _manifest_text(name, op, [s.relative_to(project).as_posix() for s in host_sources],
                              tiling_headers[0].relative_to(project).as_posix()
                              if tiling_headers else None,
                              kernel.relative_to(project).as_posix(), socs, golden_ref,
                              proto_path.name, golden is None)
    (dest / "opkg.yaml").write_text(manifest)
    return ImportResult(dest, op["type"], socs, notes, golden is None)


def _golden_stub(op: dict, func: str) -> str:
    args = ", ".join(t["name"] for t in op["inputs"])
    kw = ", ".join(a["name"] for a in op["attrs"])
    sig = args + (", *, " + kw if kw else "")
    outs = ", ".join(t["name"] for t in op["outputs"])
    return (f'"""NumPy reference for {op["type"]}: WRITE ME.\n\n'
            "Written by `opkg import` as a stub. Until it computes the expected outputs, the\n"
            "build reports 'golden missing' and fails: an imported operator never passes\n"
            'unchecked.\n"""\n\nimport numpy as np\n\n\n'
            f"def {func}({sig}):\n"
            f"    # Return {outs} (one array per output, any float dtype) computed in float64.\n"
            f"    raise NotImplementedError(\"{GOLDEN_MISSING}: write golden.py:{func}\")\n")


def _yaml_tensor(t: dict) -> str:
    parts = [f"name: {t['name']}", f"dtypes: [{', '.join(t['dtypes'])}]",
             f"formats: [{', '.join(t['formats'])}]"]
    if "param_type" in t:
        parts.append(f"param_type: {t['param_type']}")
    return "{" + ", ".join(parts) + "}"


def _yaml_value(v) -> str:
    return json.dumps(v)


def _manifest_text(name, op, host_sources, tiling_data, kernel, socs, golden_ref, proto_name,
                   stub: bool) -> str:
    lines = [f"name: {name}", "version: 0.1.0",
             f"summary: {op['type']} (imported from an msopgen project)",
             "op:", f"  type: {op['type']}", "  inputs:"]
    lines += [f"    - {_yaml_tensor(t)}" for t in op["inputs"]] or []
    if not op["inputs"]:
        lines[-1] = "  inputs: []"
    lines.append("  outputs:")
    lines += [f"    - {_yaml_tensor(t)}" for t in op["outputs"]]
    if op["attrs"]:
        lines.append("  attrs:")
        for a in op["attrs"]:
            parts = [f"name: {a['name']}", f"type: {a['type']}"]
            if a.get("required"):
                parts.append("required: true")
            else:
                parts.append(f"default: {_yaml_value(a['default'])}")
            lines.append("    - {" + ", ".join(parts) + "}")
    lines += ["tiling:", f"  sources: [{', '.join(host_sources)}]"]
    if tiling_data:
        lines.append(f"  data: {tiling_data}")
    lines += ["kernel:", f"  source: {kernel}",
              "# From the AddConfig(...) short names in op_host (see `opkg import` output).",
              f"socs: [{', '.join(socs)}]", "deps: []", "verify:"]
    if stub:
        lines.append("  # golden.py is a stub that raises: the build fails with 'golden missing' "
                     "until it is written.")
    lines += [f"  golden: {golden_ref}", "  seed: 0", "  cases:",
              f"    # Generated from the prototype in {proto_name}: one shape for every input. "
              "REVIEW IT:",
              "    # give each input the shape the operator expects, and add edge cases "
              "(a single element,",
              "    # a length that is not a multiple of 32 bytes, rows that do not divide "
              "across cores)."]
    default = {"required": "[8, 256]", "dynamic": "[[8, 256], [8, 256]]"}   # dynamic: 2 tensors
    shapes = ", ".join(f"{t['name']}: {default[t.get('param_type', 'required')]}"
                       for t in op["inputs"] if t.get("param_type", "required") in default)
    lines.append(f"    - {{name: default, shapes: {{{shapes}}}}}")
    return "\n".join(lines) + "\n"
