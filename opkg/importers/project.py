"""`opkg import` of an msopgen or cann-ops project (op_host/, op_kernel/, and cann-ops'
per-operator CMakeLists.txt): sources, host libraries, the OpDef read through the sim
(importers/opdef.py), SoCs, and the manifest written over them."""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from opkg.core.errors import Location, UsageError, did_you_mean
from opkg.core.model import DTYPES, snake_case
from opkg.importers.destination import NAME_RE, check_dest, check_lengths, check_unique
from opkg.importers.manifest_text import golden_stub, inplace_candidates, manifest_text, st_test_cases
from opkg.importers.prototype_json import find_prototype_json, parse_prototype, prototype_ops
from opkg.importers.shared_headers import HostLibrary


ADD_CONFIG_RE = re.compile(r'\bAddConfig\s*\(\s*"([^"]+)"')


@dataclass
class ImportResult:
    dest: Path
    op_type: str
    socs: list[str]
    notes: list[str] = field(default_factory=list)
    golden_missing: bool = False
    # the corpus's shared host library the package depends on: the caller adds it to the
    # workspace's repositories: (cli/import_.py), as the ops-repository import adds opbase
    library: "HostLibrary | None" = None


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
    from opkg.importers.shared_headers import cmake_sources

    named = {Path(src).name for target, src in cmake_sources(project)
             if target in _CMAKE_HOST_TARGETS
             and Path(src.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")).parent.as_posix() == "op_host"}
    return named or None


def _cmake_host_libraries(project: Path, host_sources: list[Path], shared_tiling: list[str]) -> list[list[str]]:
    """tiling.libraries: the package-relative host sources grouped by the CMake targets the
    project's CMakeLists.txt builds each into (cann-ops: the OpDef source into `opsproto` and
    `op_host_aclnn`, the tiling source into `optiling`), when that makes more than one group;
    tiling sources taken from the shared tree go with `optiling`."""
    from opkg.importers.shared_headers import cmake_sources

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
                   name: str | None = None, root: Path | None = None,
                   force: bool = False) -> ImportResult:
    from opkg.importers import shared_headers
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
    check_lengths(name, None, "--dest")
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
    # the corpus's shared host library (cann-ops' op_tiling): a library of the workspace's
    # repositories: entry for the corpus, read where it is; its headers need no copy
    library = shared_headers.host_library(project)
    library_dirs = [library.root / d for d in library.include_dirs] if library else []
    headers = shared_headers.resolve(sources, project, [flags.include_dir(), *library_dirs])
    # the tiling sources behind headers of other projects, and what they include in turn
    sibling_tiling = shared_headers.follow_siblings(headers, project,
                                                    [flags.include_dir(), *library_dirs])
    if sibling_tiling:
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

    target = dest
    if force and dest.is_dir() and any(dest.iterdir()):
        # --force: import beside it (hidden, so no workspace scan sees it), then swap, so a
        # failed import leaves the old package as it was
        dest = dest.parent / f".{dest.name}.opkg-import"
        shutil.rmtree(dest, ignore_errors=True)
    check_dest(dest)
    created = not dest.exists()
    dest.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copytree(host_dir, dest / "op_host", dirs_exist_ok=True)
        shutil.copytree(kernel_dir, dest / "op_kernel", dirs_exist_ok=True)
        for rel, src in (headers.copies | headers.siblings | shared_tiling).items():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
        op, configs, has_infer, warnings = _prototype(project, dest, host_sources, headers,
                                                      json_path, op_type, notes, library_dirs)
        check_lengths(name, op["type"], "--dest")
        check_unique(name, op["type"], replacing=target)
        kernel = _kernel_source(project, kernel_dir, op["type"])
        socs, unbuilt = _pick_socs(configs, root, notes)
        tiling_data = _tiling_data_header(project, dest, headers, op["type"])
        if golden_file is not None:
            shutil.copyfile(golden_file, dest / golden_file.name)
            golden_ref = f"{golden_file.name}:{golden_func}"
        else:
            golden_func = snake_case(op["type"])
            (dest / "golden.py").write_text(golden_stub(op, golden_func))
            golden_ref = f"golden.py:{golden_func}"
        st_cases, st_source = st_test_cases(project, op, has_infer, notes)
        if not op["outputs"]:
            notes.append(f"{op['type']} declares no outputs (it rewrites inputs in place): "
                         f"verify.inplace lists {', '.join(inplace_candidates(op))}; keep "
                         "only those the kernel rewrites")
        libraries = _cmake_host_libraries(project, host_sources, [*shared_tiling])
        if libraries:
            notes.append("tiling.libraries: the project's CMakeLists.txt builds the host sources "
                         "into separate libraries: " + "; ".join(", ".join(g) for g in libraries))
        deps = _library_deps(library, root, notes)
        manifest = manifest_text(
            name, op, [s.relative_to(project).as_posix() for s in host_sources] + [*shared_tiling],
            tiling_data,
            kernel.relative_to(project).as_posix(), socs, unbuilt, golden_ref,
            golden is None, headers.include_dirs, has_infer, st_cases, st_source, libraries,
            [d for d in deps if d])
        (dest / "opkg.yaml").write_text(manifest)
        if dest != target:
            old = target.parent / f".{target.name}.opkg-replaced"
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            dest.rename(target)
            shutil.rmtree(old, ignore_errors=True)
            notes.append(f"replaced the package that was in {target} (--force)")
    except BaseException:
        if created:
            shutil.rmtree(dest, ignore_errors=True)
        raise
    for w in warnings:
        notes.append(f"compiler warning: {w}")
    return ImportResult(target, op["type"], socs, notes, golden is None,
                        library if deps else None)


def _library_deps(library, ws_root: Path | None, notes: list[str]) -> list[str]:
    """The package's deps on the corpus's shared host library (a library of the workspace's
    repositories: entry for the corpus, which the caller writes); none outside a workspace."""
    if library is None:
        return []
    where = (f"{library.name} ({', '.join(library.host_sources)}, with "
             f"{len(library.include_dirs)} include directories)")
    if ws_root is None:
        notes.append(f"the project's CMakeLists.txt builds the corpus's shared host library "
                     f"{where} into its tiling library; outside a workspace it is not added "
                     "(import inside one: it becomes a library of the workspace's repositories:)")
        return []
    notes.append(f"the project's CMakeLists.txt builds the corpus's shared host library {where} "
                 f"into its tiling library: the package depends on {library.label}, compiled "
                 "where it is")
    return [library.label]


def _tiling_data_header(project: Path, dest: Path, headers, op_type: str) -> str | None:
    """The package-relative header that defines the tiling data: one of op_host/'s, or a shared
    header copied from the corpus, or a header of another project of the family, that registers
    a tiling data class for op_type (cann-ops' gemm_v2 registers mat_mul_v3's class in its own
    op_host header; cann-ops foreach operators share foreach_tiling_def.h;
    CircularPadGrad's class is registered in circular_pad's circular_pad_common.h)."""
    own = [h for h in sorted((project / "op_host").glob("*.h"))
           if "BEGIN_TILING_DATA_DEF" in h.read_text(errors="replace")]
    if own:
        return own[0].relative_to(project).as_posix()
    registers = re.compile(rf"REGISTER_TILING_DATA_CLASS\s*\(\s*{re.escape(op_type)}\s*,")
    # an own header that registers another project's class for op_type (cann-ops' gemm_v2_tiling.h:
    # REGISTER_TILING_DATA_CLASS(GemmV2, MatmulTilingData), defined in mat_mul_v3_tiling.h)
    for h in sorted((project / "op_host").glob("*.h")):
        if registers.search(h.read_text(errors="replace")):
            return h.relative_to(project).as_posix()
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


def _prototype(project, dest, host_sources, headers, json_path, op_type, notes, library_dirs=()):
    """(op mapping, AddConfig short names, has InferShape, compiler warnings): from the OpDef
    the host sources register, compiled on the sim; the prototype JSON only when the OpDef
    cannot be read, and otherwise compared with it (the OpDef wins, each difference noted)."""
    from opkg.importers import opdef

    include_dirs = [dest, dest / "op_host", dest / "op_kernel",
                    *(dest / d for d in headers.include_dirs), *library_dirs]
    copied = [dest / "op_host" / p.name for p in host_sources]
    try:
        probe = opdef.read_opdefs(copied, include_dirs, dest)
        probe_error = None
    except opdef.ProbeError as exc:
        probe, probe_error = None, str(exc)
    declared, text_gaps = None, []
    if probe is not None:
        declared = _choose_opdef(probe.ops, op_type, project)
    else:
        # the build will report what does not compile; the OpDef may still be read as text
        text_ops, text_gaps = opdef.parse_opdef_text(copied)
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
            listed = prototype_ops(proto_path) or []
            json_op = parse_prototype(proto_path, want if want in listed or declared is None
                                      else (listed[0] if len(listed) == 1 else want))
        except UsageError as exc:
            if declared is None or json_path is not None:
                raise
            notes.append(f"prototype JSON {proto_path.name} ignored: {exc.message}")
    if declared is not None:
        op = opdef.to_manifest_op(declared)
        notes.append("prototype from the OpDef in op_host/ (" + op["type"] + ")")
        virtual = opdef.virtual_inputs(declared)
        if virtual:
            notes.append(f"input(s) {', '.join(virtual)} ParamType(VIRTUAL): supplied by CANN's "
                         "aclnn layer, not by a graph's user; the kernel receives them like any "
                         "input, so they are required here and every case must give them")
        if json_op is not None:
            notes.append(f"compared with the prototype JSON {proto_path.name}"
                         + (" beside the project directory"
                            if proto_path.parent == project.parent else ""))
            for diff in opdef.differences(op, json_op):
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
                # the manifest says it when both describe one required buffer, or one tensor
                # list (both dynamic: a dynamic ref tensor)
                kinds = (first["t"].get("param_type", "required"), t.get("param_type", "required"))
                if (group == "outputs" and first["group"] == "inputs"
                        and kinds in (("required", "required"), ("dynamic", "dynamic"))
                        and (first["t"]["dtypes"], first["t"]["formats"])
                        == (t["dtypes"], t["formats"])):
                    continue
                raise UsageError(f"the OpDef of {op['type']} ({project / 'op_host'}): "
                                 f"{first['group'][:-1]} and {group[:-1]} share the name "
                                 f"{t['name']!r}; opkg needs distinct tensor names, or an "
                                 "input and an output of one name, both required or both "
                                 "dynamic, with the same dtypes and formats (a ref tensor)",
                                 hint="a manifest says a ref tensor only as one buffer (or one "
                                      "tensor list) at both positions")
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
    from opkg.core.socs import soc_table

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
