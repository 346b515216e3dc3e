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


def _check_lengths(name: str, op_type: str | None, field: str) -> None:
    """The manifest's limits (opkg/manifest.py), checked before anything is written."""
    from opkg.manifest import MAX_NAME, MAX_OP_TYPE

    if len(name) > MAX_NAME:
        raise UsageError(f"package name {name[:40]!r}... is {len(name)} characters long; at "
                         f"most {MAX_NAME}", field=field, hint="choose a shorter name")
    if op_type is not None and len(op_type) > MAX_OP_TYPE:
        raise UsageError(f"op type {op_type[:40]!r}... is {len(op_type)} characters long; at "
                         f"most {MAX_OP_TYPE}", hint="choose a shorter op type")


def new_package(name: str, op_type: str, dest: Path, socs=("Ascend910B1",), root=None) -> list[Path]:
    """Render the element-wise template into dest; returns the files written."""
    _check_lengths(name, op_type, "NAME")
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
                   "bool": "bool", "fp16": "float16", "fp32": "float32", "double": "float64"}
_MSOPGEN_ATTRS = {v: k for k, v in ATTR_TYPES.items()} | {
    "listInt": "list_int", "listFloat": "list_float", "listBool": "list_bool", "str": "str"}


def _bad(path: Path, where: str, message: str, hint: str | None = None) -> UsageError:
    return UsageError(message, location=Location(path), field=where,
                      hint=hint or "msopgen's prototype JSON is a list of {op, input_desc, "
                                   "output_desc, attr}; each tensor has name, param_type, "
                                   "format [...] and type [...]")


def _prototype_ops(path: Path) -> list[str] | None:
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
                 if (ops := _prototype_ops(p)) is not None}
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


# op_host files of CANN's aclnn layer (a separate library on the device, written against
# opdev/ headers): not part of the tiling/OpDef library
_ACLNN_LAYER_RE = re.compile(r'^\s*#\s*include\s*[<"](opdev|aclnn|aclnn_kernels|aclnnop)/', re.M)


# cann-ops' per-operator CMakeLists.txt names the op_host files of each library it builds:
# the tiling and OpDef ones go to these targets (`opapi` is the aclnn layer).
_CMAKE_HOST_TARGETS = ("optiling", "opsproto", "op_host_aclnn", "op_host_aclnnInner", "op_host_aclnnExc")
_HOST_SUFFIXES = (".cpp", ".cc")


def _cmake_host_sources(project: Path) -> set[str] | None:
    """The op_host files the project's CMakeLists.txt compiles into its host libraries, or None
    when it names none (an msopgen project's CMake globs its op_host directory)."""
    from opkg.shared_headers import cmake_sources

    named = {Path(src).name for target, src in cmake_sources(project)
             if target in _CMAKE_HOST_TARGETS
             and Path(src.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")).parent.as_posix() == "op_host"}
    return named or None


def _cmake_host_libraries(project: Path, host_sources: list[Path], shared_tiling: list[str]) -> list[list[str]]:
    """tiling.libraries: the package-relative host sources grouped by the CMake targets the
    project's CMakeLists.txt builds each into (cann-ops: the OpDef source into `opsproto` and
    `op_host_aclnn`, the tiling source into `optiling`), when that makes more than one group;
    tiling sources taken from the shared tree go with `optiling`."""
    from opkg.shared_headers import cmake_sources

    targets: dict[str, set[str]] = {}
    for target, src in cmake_sources(project):
        path = Path(src.replace("${CMAKE_CURRENT_SOURCE_DIR}/", ""))
        if target in _CMAKE_HOST_TARGETS and path.parent.as_posix() == "op_host":
            targets.setdefault(path.name, set()).add(target)
    groups: dict[frozenset, list[str]] = {}
    for p in host_sources:
        key = frozenset(targets.get(p.name, ()))
        groups.setdefault(key, []).append(f"op_host/{p.name}")
    if len(groups) < 2 or frozenset() in groups:
        return []
    for key, members in groups.items():
        if "optiling" in key:
            members += shared_tiling
            break
    return list(groups.values())


def _host_library_sources(host_dir: Path) -> tuple[list[Path], list[Path]]:
    """The host library's sources: the .cpp and .cc files of op_host/ (only those the project's
    CMakeLists.txt builds into a host library, when it says), without CANN's aclnn layer."""
    listed = _cmake_host_sources(host_dir.parent)
    keep, skipped = [], []
    for p in sorted(q for q in host_dir.iterdir() if q.suffix in _HOST_SUFFIXES and q.is_file()):
        text = p.read_text(errors="replace")
        left_out = (listed is not None and p.name not in listed) or _ACLNN_LAYER_RE.search(text)
        (skipped if left_out else keep).append(p)
    return keep, skipped


def import_project(project: Path, dest: Path, *, golden: str | None = None,
                   json_path: Path | None = None, op_type: str | None = None,
                   name: str | None = None, root: Path | None = None) -> ImportResult:
    from opkg import opdef_probe, shared_headers
    from opkg.sim import flags

    project = Path(project)
    if not project.is_dir():
        raise UsageError(f"no such project directory: {project}", field="PROJECT_DIR")
    host_dir, kernel_dir = project / "op_host", project / "op_kernel"
    for d in (host_dir, kernel_dir):
        if not d.is_dir():
            raise UsageError(f"{project} has no {d.name}/ directory",
                             hint="an msopgen project keeps host code in op_host/ and the "
                                  "kernel in op_kernel/")
    host_sources, aclnn_layer = _host_library_sources(host_dir)
    if not host_sources:
        raise UsageError(f"{host_dir} has no .cpp or .cc host sources")
    name = name or dest.name
    _check_lengths(name, None, "--dest")
    if not NAME_RE.match(name):
        raise UsageError(f"package name {name!r} (from --dest) is not valid", field="--dest",
                         hint="the last part of --dest names the package: lower case letters, "
                              "digits and '_', e.g. packages/leaky_relu")
    golden_file, golden_func = _golden_arg(golden)
    notes: list[str] = []
    if aclnn_layer:
        notes.append("left out of tiling.sources (not in the op_host library: CANN's aclnn layer, "
                     "or not built into it by the project's CMakeLists.txt): "
                     + ", ".join(p.name for p in aclnn_layer))

    # Shared headers of the corpus, copied into the package so it builds on its own.
    shared_tiling = shared_headers.tiling_sources(project)
    if shared_tiling:
        notes.append("tiling sources copied from the corpus's shared tree (the project's "
                     f"CMakeLists.txt adds them to optiling): {', '.join(shared_tiling)}")
    sources = host_sources + [*shared_tiling.values()] + sorted(
        p for p in (*host_dir.glob("*.h"), *kernel_dir.rglob("*"))
        if p.suffix in (".cpp", ".h", ".hpp", ".cc") and p.is_file())
    headers = shared_headers.resolve(sources, project, [flags.include_dir()])
    # the tiling sources behind headers of other projects, and what they include in turn
    sibling_tiling = shared_headers.sibling_sources(headers, project)
    if sibling_tiling:
        more = shared_headers.resolve([*sibling_tiling.values()], project, [flags.include_dir()])
        headers.copies.update(more.copies)
        headers.siblings.update(more.siblings)
        headers.include_dirs += [d for d in more.include_dirs if d not in headers.include_dirs]
        headers.missing += [m for m in more.missing if m not in headers.missing]
        notes.append("tiling sources copied from other projects of the family (their "
                     f"CMakeLists.txt adds them to optiling): {', '.join(sibling_tiling)}")
        shared_tiling = shared_tiling | sibling_tiling
    for miss in headers.missing:
        notes.append(f"include not found in the project, the sim or the corpus's shared "
                     f"headers: {miss}")
    if headers.copies:
        notes.append(f"{len(headers.copies)} shared header(s) copied under include/ from "
                     f"{', '.join(str(r) for r in shared_headers.shared_roots(project))}")
    if headers.siblings:
        notes.append(f"{len(headers.siblings)} header(s) of other projects in "
                     f"{project.resolve().parent} copied under include/ (included by a relative "
                     f"path): {', '.join(r.removeprefix('include/') for r in headers.siblings)}")

    _check_dest(dest)
    created = not dest.exists()
    dest.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copytree(host_dir, dest / "op_host", dirs_exist_ok=True)
        shutil.copytree(kernel_dir, dest / "op_kernel", dirs_exist_ok=True)
        for rel, src in (headers.copies | headers.siblings | shared_tiling).items():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
        op, configs, has_infer, warnings = _prototype(project, dest, host_sources, headers,
                                                      json_path, op_type, notes)
        _check_lengths(name, op["type"], "--dest")
        _check_unique(name, op["type"])
        kernel = _kernel_source(project, kernel_dir, op["type"])
        socs, unbuilt = _pick_socs(configs, root, notes)
        tiling_data = _tiling_data_header(project, dest, headers, op["type"])
        if golden_file is not None:
            shutil.copyfile(golden_file, dest / golden_file.name)
            golden_ref = f"{golden_file.name}:{golden_func}"
        else:
            golden_func = snake_case(op["type"])
            (dest / "golden.py").write_text(_golden_stub(op, golden_func))
            golden_ref = f"golden.py:{golden_func}"
        st_cases, st_source = st_test_cases(project, op, has_infer, notes)
        if not op["outputs"]:
            notes.append(f"{op['type']} declares no outputs (it rewrites inputs in place): "
                         f"verify.inplace lists {', '.join(_inplace_candidates(op))}; keep "
                         "only those the kernel rewrites")
        libraries = _cmake_host_libraries(project, host_sources, [*shared_tiling])
        if libraries:
            notes.append("tiling.libraries: the project's CMakeLists.txt builds the host sources "
                         "into separate libraries: " + "; ".join(", ".join(g) for g in libraries))
        manifest = _manifest_text(
            name, op, [s.relative_to(project).as_posix() for s in host_sources] + [*shared_tiling],
            tiling_data,
            kernel.relative_to(project).as_posix(), socs, unbuilt, golden_ref,
            golden is None, headers.include_dirs, has_infer, st_cases, st_source, libraries)
        (dest / "opkg.yaml").write_text(manifest)
    except BaseException:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise
    for w in warnings:
        notes.append(f"compiler warning: {w}")
    return ImportResult(dest, op["type"], socs, notes, golden is None)


def _tiling_data_header(project: Path, dest: Path, headers, op_type: str) -> str | None:
    """The package-relative header that defines the tiling data: one of op_host/'s, or a shared
    header copied from the corpus, or a header of another project of the family, that registers
    a tiling data class for op_type (cann-ops foreach operators share foreach_tiling_def.h;
    CircularPadGrad's class is registered in circular_pad's circular_pad_common.h)."""
    own = [h for h in sorted((project / "op_host").glob("*.h"))
           if "BEGIN_TILING_DATA_DEF" in h.read_text(errors="replace")]
    if own:
        return own[0].relative_to(project).as_posix()
    registers = re.compile(rf"REGISTER_TILING_DATA_CLASS\s*\(\s*{re.escape(op_type)}\s*,")
    for rel in sorted(headers.copies | headers.siblings):
        if registers.search((dest / rel).read_text(errors="replace")):
            return rel
    return None


def _golden_arg(golden: str | None) -> tuple[Path | None, str | None]:
    if golden is None:
        return None, None
    if golden.count(":") != 1:
        raise UsageError(f"{golden!r} is not FILE:FUNC", field="--golden",
                         hint="for example --golden ref.py:leaky_relu")
    gf, func = golden.split(":")
    path = Path(gf)
    if not path.is_file():
        raise UsageError(f"golden file not found: {gf}", field="--golden")
    try:
        tree = ast.parse(path.read_text(), str(path))
    except SyntaxError as exc:
        raise UsageError(f"golden has a syntax error: {exc.msg}",
                         location=Location(path, exc.lineno or 0)) from None
    defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    if func not in defined:
        raise UsageError(f"{path.name} defines no function {func!r}",
                         field="--golden", hint=did_you_mean(func, defined)
                         or f"define def {func}(...) in {path.name}")
    return path, func


def _prototype(project, dest, host_sources, headers, json_path, op_type, notes):
    """(op mapping, AddConfig short names, has InferShape, compiler warnings): from the OpDef
    the host sources register, compiled on the sim; the prototype JSON only when the OpDef
    cannot be read, and otherwise compared with it (the OpDef wins, each difference noted)."""
    from opkg import opdef_probe

    include_dirs = [dest, dest / "op_host", dest / "op_kernel",
                    *(dest / d for d in headers.include_dirs)]
    copied = [dest / "op_host" / p.name for p in host_sources]
    try:
        probe = opdef_probe.read_opdefs(copied, include_dirs, dest)
        probe_error = None
    except opdef_probe.ProbeError as exc:
        probe, probe_error = None, str(exc)
    declared, text_gaps = None, []
    if probe is not None:
        declared = _choose_opdef(probe.ops, op_type, project)
    else:
        # the build will report what does not compile; the OpDef may still be read as text
        text_ops, text_gaps = opdef_probe.parse_opdef_text(copied)
        declared = _choose_opdef(text_ops, op_type, project)
        if declared is not None:
            notes.append("the host sources do not compile on the sim ("
                         + (probe_error or "").splitlines()[0][:200]
                         + "); the OpDef was read from the source text")
    proto_path = find_prototype_json(project, json_path,
                                     declared["type"] if declared else op_type)
    json_op = None
    if proto_path is not None:
        try:
            want = op_type or (declared or {}).get("type")
            listed = _prototype_ops(proto_path) or []
            json_op = parse_prototype(proto_path, want if want in listed or declared is None
                                      else (listed[0] if len(listed) == 1 else want))
        except UsageError as exc:
            if declared is None or json_path is not None:
                raise
            notes.append(f"prototype JSON {proto_path.name} ignored: {exc.message}")
    if declared is not None:
        op = opdef_probe.to_manifest_op(declared)
        notes.append("prototype from the OpDef in op_host/ (" + op["type"] + ")")
        virtual = opdef_probe.virtual_inputs(declared)
        if virtual:
            notes.append(f"input(s) {', '.join(virtual)} ParamType(VIRTUAL): supplied by CANN's "
                         "aclnn layer, not by a graph's user; the kernel receives them like any "
                         "input, so they are required here and every case must give them")
        if json_op is not None:
            notes.append(f"compared with the prototype JSON {proto_path.name}"
                         + (" beside the project directory"
                            if proto_path.parent == project.parent else ""))
            for diff in opdef_probe.differences(op, json_op):
                notes.append(f"{proto_path.name} says {diff}; the OpDef wins")
        configs, has_infer = op.pop("configs"), op.pop("has_infer_shape")
        for d in op["dropped_formats"]:
            notes.append(f"OpDef format combination left out: {d}")
        _check_representable(op, project)
        return op, configs, has_infer, probe.warnings if probe is not None else []
    if json_op is None:
        gaps = "".join(f"\nnor from its text: {g}" for g in text_gaps)
        raise UsageError(f"cannot read the OpDef of {project}: its host sources do not compile "
                         f"on the sim, and there is no prototype JSON:\n{probe_error}{gaps}",
                         hint="pass msopgen's prototype JSON with --prototype FILE, or make the "
                              "host sources compile")
    notes.append(f"the OpDef could not be read (host sources do not compile on the sim: "
                 f"{probe_error.splitlines()[0] if probe_error else ''}); prototype from "
                 f"{proto_path.name}")
    configs = []
    for src in sorted((project / "op_host").rglob("*")):
        if src.suffix in (".cpp", ".cc", ".h", ".hpp") and src.is_file():
            configs += [s for s in ADD_CONFIG_RE.findall(src.read_text(errors="replace"))
                        if s not in configs]
    return json_op, configs, True, []


def _check_representable(op: dict, project: Path) -> None:
    """What CANN allows and a manifest cannot say yet: a clear import error, not a manifest
    that the next command rejects. (An OpDef without outputs is imported: verify.inplace.)"""
    def check_dtypes(group: str, t: dict, where: str = "") -> None:
        bad = [d for d in t["dtypes"] if d not in DTYPES]
        if bad:
            raise UsageError(f"the OpDef of {op['type']} ({project / 'op_host'}): {where}"
                             f"{group[:-1]} {t['name']!r} has dtype {bad[0]}, which opkg does "
                             "not support", hint="opkg's dtypes: " + ", ".join(DTYPES))

    for short, config in (op.get("soc_configs") or {}).items():
        for group in ("inputs", "outputs"):
            for t in config[group]:
                check_dtypes(group, t, f'the AddConfig("{short}", config) ')
    seen = {}
    for group in ("inputs", "outputs"):
        for t in op[group]:
            check_dtypes(group, t)
            if t["name"] in seen:
                first = seen[t["name"]]
                # an output named like an input is a ref tensor (the input rewritten in place):
                # the manifest says it when both describe one required buffer
                if (group == "outputs" and first["group"] == "inputs"
                        and first["t"].get("param_type", "required") == "required"
                        and t.get("param_type", "required") == "required"
                        and (first["t"]["dtypes"], first["t"]["formats"])
                        == (t["dtypes"], t["formats"])):
                    continue
                raise UsageError(f"the OpDef of {op['type']} ({project / 'op_host'}): "
                                 f"{first['group'][:-1]} and {group[:-1]} share the name "
                                 f"{t['name']!r}; opkg needs distinct tensor names, or an "
                                 "input and an output of one name, both required, with the "
                                 "same dtypes and formats (a ref tensor)",
                                 hint="a manifest says a ref tensor only as one required buffer "
                                      "at both positions")
            seen[t["name"]] = {"group": group, "t": t}


def _choose_opdef(ops: list[dict], op_type: str | None, project: Path) -> dict | None:
    if not ops:
        return None
    if op_type is not None:
        chosen = [o for o in ops if o["type"] == op_type]
        if not chosen:
            raise UsageError(f"the OpDefs in {project / 'op_host'} have no op {op_type!r}",
                             field="--op", hint=did_you_mean(op_type, [o["type"] for o in ops])
                             or "ops: " + ", ".join(o["type"] for o in ops))
        return chosen[0]
    if len(ops) == 1:
        return ops[0]
    kernels = {p.stem for p in (project / "op_kernel").glob("*.cpp")}
    named = [o for o in ops if snake_case(o["type"]) in kernels
             or o["type"].lower() == project.name.lower()]
    if len(named) == 1:
        return named[0]
    raise UsageError(f"{project / 'op_host'} registers {len(ops)} ops: "
                     + ", ".join(o["type"] for o in ops),
                     hint="a package holds one operator; choose it with --op TYPE")


def _kernel_source(project: Path, kernel_dir: Path, op_type: str) -> Path:
    kernel_name = snake_case(op_type)
    kernel = kernel_dir / f"{kernel_name}.cpp"
    if kernel.is_file():
        return kernel
    cpps = sorted(kernel_dir.glob("*.cpp"))
    if len(cpps) != 1:
        raise UsageError(f"no kernel source {kernel.relative_to(project)} for op {op_type}",
                         hint="the kernel file and entry are snake_case of the op type: "
                              f"{kernel_name}.cpp")
    return cpps[0]


def _pick_socs(shorts: list[str], root, notes: list[str]) -> tuple[list[str], list[str]]:
    """(SoCs to build, SoCs declared but not built). A short name maps to one SoC table row
    the sim can run (one with core counts); the others are listed, not built."""
    from opkg.socs import soc_table

    table = soc_table(root)
    socs, unbuilt = [], []
    for short in shorts:
        rows = [r for r in table.values() if r.short == short]
        if not rows:
            notes.append(f"AddConfig(\"{short}\") matches no SoC in toolchains/socs.yaml; not "
                         "built")
            unbuilt.append(f"{short} (not in the SoC table)")
            continue
        runnable = [r for r in rows if r.vector_cores or r.cube_cores]
        if not runnable:
            names = ", ".join(r.name for r in rows)
            notes.append(f"AddConfig(\"{short}\"): the sim has no core counts for {names}; not "
                         "built (listed in opkg.yaml)")
            unbuilt.append(f"{names} ({short}: no core counts in the SoC table)")
            continue
        pick = runnable[0]
        others = [r.name for r in rows if r is not pick]
        notes.append(f"AddConfig(\"{short}\") -> {pick.name}"
                     + (f" (also {short}: {', '.join(others)}; add any you want built)"
                        if others else ""))
        socs.append(pick.name)
    if not socs:
        socs = ["Ascend910B1"]
        notes.append("no AddConfig(...) the sim can run in op_host: socs set to Ascend910B1; "
                     "the build's OpDef check will ask for a matching AddConfig")
    return socs, unbuilt


def _golden_stub(op: dict, func: str) -> str:
    args = ", ".join(t["name"] for t in op["inputs"])
    kw = ", ".join(a["name"] for a in op["attrs"])
    sig = args + (", *, " + kw if kw else "")
    # an operator without outputs: the inputs verify.inplace lists
    outs = ", ".join(t["name"] for t in op["outputs"]) or ", ".join(
        t["name"] + (" (a list: one array per tensor)" if t.get("param_type") == "dynamic" else "")
        for t in op["inputs"] if t["name"] in _inplace_candidates(op))
    return (f'"""NumPy reference for {op["type"]}: WRITE ME.\n\n'
            "Written by `opkg import` as a stub. Until it computes the expected outputs, the\n"
            "build reports 'golden missing' and fails: an imported operator never passes\n"
            'unchecked.\n"""\n\nimport numpy as np\n\n\n'
            f"def {func}({sig}):\n"
            f"    # Return {outs} (one array per {'output' if op['outputs'] else 'in-place input'}, "
            "any float dtype) computed in float64.\n"
            f"    raise NotImplementedError(\"{GOLDEN_MISSING}: write golden.py:{func}\")\n")


def _inplace_candidates(op: dict) -> list[str]:
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


def _manifest_text(name, op, host_sources, tiling_data, kernel, socs, unbuilt, golden_ref,
                   stub: bool, include_dirs=(), has_infer_shape: bool = True,
                   st_cases=(), st_source: str | None = None, libraries=()) -> str:
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
    lines += [f"socs: [{', '.join(socs)}]", "deps: []", "verify:"]
    if stub:
        lines.append("  # golden.py is a stub that raises: the build fails with 'golden missing' "
                     "until it is written.")
    lines += [f"  golden: {golden_ref}", "  seed: 0"]
    if not op["outputs"]:
        optional = [t["name"] for t in op["inputs"] if t["name"] not in _inplace_candidates(op)]
        lines += ["  # No outputs: the kernel rewrites inputs, compared after the run. Every "
                  "required and dynamic",
                  "  # input is listed; keep only those it rewrites (the golden returns their "
                  "expected contents,",
                  "  # a list of arrays for a dynamic input)."]
        if optional:
            lines.append(f"  # Optional inputs ({', '.join(optional)}) are not listed: add one "
                         "only if every case gives it a shape.")
        lines.append(f"  inplace: [{', '.join(_inplace_candidates(op))}]")
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
