"""`opkg import` of Huawei's per-domain operator repositories (hicann/ops-nn and its siblings).

The unit is a repository, not a project: operators live at `<family>/<op>/` beside the
repository's shared `common/inc`, and the repository's CMake decides what each build takes.
This module reads that layout and those rules as data (no sources copied, none edited) and
says, per operator and compute unit, which files a build compiles, and writes each operator's
manifest (`manifest_text`) referencing them in place. What it follows, by file:

- `cmake/func.cmake` `add_modules_sources` (and `add_all_modules_sources`, which calls it):
  the OpDef is `op_host/<OPTYPE>_def*.cpp` per OPTYPE, InferShape `op_host/*_infershape*.cpp`,
  tiling `op_host/*_tiling*.cpp` plus `op_host/<TILING_DIR>/*_tiling*.cpp` for the compute
  unit's entry of the COMPUTE_UNIT/TILING_DIR pairs, plus `op_host/op_tiling/**/*.cpp`; the
  tiling objects see `<family>/` and `op_host/` as include directories (`source_dir/../..`).
  The op_graph infer functions (`op_graph/*_infer*.cpp`, IMPL_OP(...).InferDataType) go to the
  graph library of the same package.
- `cmake/variables.cmake` OP_TILING_INCLUDE: the repository root, `common/inc` and
  `common/inc/op_host` for every host compile (the repository library `common`).
- `add_kernel_sources`: the classic kernel is `op_kernel/<op>.cpp`; its op type comes from
  `op_host/config/<unit>/<op>_binary.json` when there is one, else from the def's OP_ADD.
- `tests/assets/golden.py` (`__golden__ = {"kernel": {op: function}}`, or a test-spec module's
  `__spec__ = {op: "Class"}` with `Class.golden`) and
  `tests/**/ttk_kernel_*.csv`: the repository's own golden and cases (opkg.importers.ttk).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import functools
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from opkg.core.errors import UsageError
from opkg.importers.numpy_goldens import numpy_golden

# CMake's short compute units -> the architecture directory of their tiling sources
# (cmake/func.cmake map_compute_unit + get_target_dir); used when an operator's CMake gives no
# COMPUTE_UNIT/TILING_DIR pairs of its own.
ARCH_DIR = {"ascend910b": "arch22", "ascend310p": "arch22", "ascend910_93": "arch22",
            "ascend950": "arch35", "ascend350": "arch35"}

# cmake/variables.cmake OP_TILING_INCLUDE, relative to the repository root: every host compile
# sees these. The kernel compile (scripts/util/ascendc_impl_build.py) sees `common/inc/op_kernel`
# as `ascendc/inc` next to the kernel's own directory.
HOST_INCLUDE_DIRS = (".", "common/inc", "common/inc/op_host")
KERNEL_INCLUDE_DIRS = ("common/inc/op_kernel",)

_SKIP_DIRS = {"cmake", "common", "docs", "examples", "scripts", "tests", "build", "build_out",
              "third_party", "torch_extension", "experimental", ".git"}


@dataclass(frozen=True)
class Repository:
    root: Path
    name: str                  # the workspace's name for it: @name//path
    commit: str | None         # HEAD of a git checkout, None for a plain directory

    def label(self, path: Path) -> str:
        rel = Path(path).resolve().relative_to(self.root).as_posix()
        return f"@{self.name}//{'' if rel == '.' else rel}"


@dataclass(frozen=True)
class CMakeModule:
    """One operator's `add_modules_sources(...)` call, its variables expanded."""
    host_dir: Path
    optypes: tuple[str, ...]
    aclnn_types: tuple[str, ...]
    dependencies: tuple[str, ...]
    tiling_dirs: dict          # compute unit -> tiling directory (COMPUTE_UNIT/TILING_DIR pairs)
    file: Path | None          # the CMakeLists.txt it came from (None: the defaults)


@dataclass(frozen=True)
class HostModule:
    """Another operator's (or a family's common) CMake module built into an operator's host
    library: its host sources (defs left out) and the directories they compile with."""
    directory: Path
    sources: list[Path]
    include_dirs: list[Path]


@dataclass
class Operator:
    """What a build of one operator for one compute unit takes from the repository."""
    repo: Repository
    directory: Path
    family: str
    name: str
    kernel: Path | None                     # the classic kernel op_kernel/<op>.cpp (<op>_apt.cpp on arch35 units)
    def_sources: list[Path]
    host_sources: list[Path]                # OpDef, InferShape, tiling, op_graph infer
    include_dirs: list[Path]                # the operator's own: <family>/, op_host/
    op_type_hint: str | None                # from op_host/config/<unit>/<op>_binary.json
    binary_variants: list[dict]             # that file's op_list (dtype/format per tensor)
    dependencies: list[str]                 # CMake DEPENDENCIES (other operators' names)
    # the modules of its dependency closure whose sources host_sources includes: each built
    # once as a library package (repository_workspace.write_host_modules)
    modules: list[HostModule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def rel(self) -> str:
        return self.directory.relative_to(self.repo.root).as_posix()


# -- finding the repository and its operators ---------------------------------------------------


def repository_root(path: Path) -> Path | None:
    """The root of the ops repository `path` is in (or is): the nearest ancestor with
    `common/inc` and a `cmake/func.cmake` that defines `add_modules_sources`, or None (then it
    is no such repository: an msopgen or cann-ops project)."""
    path = Path(path).resolve()
    for d in (path, *path.parents):
        func = d / "cmake" / "func.cmake"
        if (d / "common" / "inc").is_dir() and func.is_file() and "add_modules_sources" in \
                func.read_text(errors="replace"):
            return d
    return None


def default_name(root: Path) -> str:
    """`ops-nn` -> `ops_nn`: a repository name as labels spell it."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", root.name).strip("_").lower() or "repo"
    return name if name[0].isalpha() else f"r_{name}"


def git_commit(root: Path) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", out) else None


def _common_module(root: Path, dep: str) -> list[Path]:
    """A DEPENDENCIES entry `<family>.common`: that family's shared module `<family>/common`
    (ops-nn's scripts/util/dependency_parser.py names a family's OPTYPE common module so;
    pooling/avg_pool3_d depends on matmul.common)."""
    family, dot, rest = dep.partition(".")
    return [root / family / "common"] if dot and rest == "common" and family else []


def for_unit(op_dir: Path, unit: str) -> bool:
    """Whether the operator declares compute unit `unit` as its sources say it, before any
    compile: an `AddConfig("<unit>"` in op_host, or an op_host/config/<unit>/ directory (the
    import checks the OpDef itself)."""
    if (op_dir / "op_host" / "config" / unit).is_dir():
        return True
    needle = f'AddConfig("{unit}"'
    return any(needle in p.read_text(errors="replace").replace(" ", "")
               for p in (op_dir / "op_host").rglob("*.cpp"))


def is_operator_dir(d: Path) -> bool:
    return (d / "op_host").is_dir() and (d / "op_kernel").is_dir()


def operator_dirs(root: Path, target: Path) -> list[Path]:
    """The operator directories `target` names: itself (an operator), its children (a family),
    or every family's operators (the repository root)."""
    target = Path(target).resolve()
    if is_operator_dir(target):
        return [target]
    if target == root:
        families = [d for d in sorted(root.iterdir())
                    if d.is_dir() and d.name not in _SKIP_DIRS and not d.name.startswith(".")]
    else:
        families = [target]
    return [op for fam in families for op in sorted(fam.iterdir()) if is_operator_dir(op)]


# -- the CMake rules ----------------------------------------------------------------------------

_CALL_RE = re.compile(r"\b(add_all_modules_sources|add_modules_sources|set)\s*\(", re.I)
_MODULE_KEYWORDS = {"HOSTNAME", "MODE", "DIR", "OPTYPE", "ACLNNTYPE", "DEPENDENCIES",
                    "COMPUTE_UNIT", "TILING_DIR", "DISABLE_IN_OPP"}


def _cmake_calls(text: str):
    """(command, [arguments]) of each `set(...)` / `add_*modules_sources(...)` call, in order;
    comments dropped, quoted arguments unquoted."""
    text = re.sub(r"#[^\n]*", "", text)
    for m in _CALL_RE.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = re.findall(r'"([^"]*)"|(\S+)', text[m.end():i - 1])
        yield m.group(1).lower(), [a or b for a, b in args]


def cmake_module(op_dir: Path) -> CMakeModule:
    """The operator's add_modules_sources call (in its CMakeLists.txt or op_host's), with
    `${VAR}` from the `set(...)` calls before it; the defaults of func.cmake when none."""
    # a subdirectory's CMakeLists.txt sees its parent's variables (add_subdirectory)
    variables: dict[str, list[str]] = {}
    for cmake in (op_dir / "CMakeLists.txt", op_dir / "op_host" / "CMakeLists.txt"):
        if not cmake.is_file():
            continue
        variables["CMAKE_CURRENT_SOURCE_DIR"] = [str(cmake.parent)]
        for command, args in _cmake_calls(cmake.read_text(errors="replace")):
            expanded = []
            for a in args:
                whole = re.fullmatch(r"\$\{(\w+)\}", a)
                if whole:
                    expanded += variables.get(whole.group(1), [])
                else:
                    expanded.append(re.sub(r"\$\{(\w+)\}",
                                           lambda v: " ".join(variables.get(v.group(1), [])), a))
            if command == "set":
                if expanded:
                    variables[args[0]] = expanded[1:]
                continue
            parsed: dict[str, list[str]] = {}
            key = None
            for a in expanded:
                if a in _MODULE_KEYWORDS:
                    key = a
                    parsed.setdefault(key, [])
                elif key:
                    parsed[key].append(a)
            if command == "add_all_modules_sources":
                host = op_dir / "op_host"
                optypes = parsed.get("OPTYPE") or [op_dir.name]
            else:
                source = Path((parsed.get("DIR") or [str(cmake.parent)])[0])
                host = source if source.name == "op_host" else source / "op_host"
                optypes = parsed.get("OPTYPE", [])
            units, dirs = parsed.get("COMPUTE_UNIT", []), parsed.get("TILING_DIR", [])
            return CMakeModule(host, tuple(optypes), tuple(parsed.get("ACLNNTYPE", [])),
                               tuple(parsed.get("DEPENDENCIES", [])),
                               dict(zip(units, dirs)) if len(units) == len(dirs) else {}, cmake)
    return CMakeModule(op_dir / "op_host", (op_dir.name,), ("aclnn",), (), {}, None)


def tiling_dir(module: CMakeModule, unit: str) -> str | None:
    """func.cmake find_value_by_key: the operator's own pair for the unit; without pairs,
    get_target_dir's architecture directory when the operator has one."""
    if module.tiling_dirs:
        return module.tiling_dirs.get(unit)
    arch = ARCH_DIR.get(unit)
    return arch if arch and (module.host_dir / arch).is_dir() else None


def host_sources(op_dir: Path, module: CMakeModule, unit: str) -> tuple[list[Path], list[Path]]:
    """(OpDef sources, every host source a build of `unit` compiles), in CMake's order."""
    host = module.host_dir
    defs: list[Path] = []
    for optype, kind in zip(module.optypes, module.aclnn_types or ("aclnn",) * len(module.optypes)):
        if kind.startswith("aclnn"):
            defs += sorted(host.glob(f"{optype}_def*.cpp"))
    if not defs:       # the OPTYPE names no def file (e.g. a renamed one): every def there
        defs = sorted(host.glob("*_def*.cpp"))
    infer = sorted(host.glob("*_infershape*.cpp"))
    tiling = sorted(host.glob("*_tiling*.cpp"))
    arch = tiling_dir(module, unit)
    if arch:
        tiling += sorted((host / arch).glob("*_tiling*.cpp"))
    tiling += sorted((host / "op_tiling").rglob("*.cpp"))
    graph = sorted((op_dir / "op_graph").glob("*_infer*.cpp"))
    out = []
    for p in [*defs, *infer, *tiling, *graph]:
        if p not in out:
            out.append(p)
    return defs, out


def binary_config(op_dir: Path, unit: str) -> tuple[str | None, list[dict]]:
    """op_host/config/<unit>/<op>_binary.json: (its op_type, its op_list) or (None, [])."""
    path = op_dir / "op_host" / "config" / unit / f"{op_dir.name}_binary.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, []
    if not isinstance(data, dict):
        return None, []
    op_list = data.get("op_list") if isinstance(data.get("op_list"), list) else []
    return (data.get("op_type") if isinstance(data.get("op_type"), str) else None), op_list


def dependency_closure(repo: Repository, op_dir: Path,
                       module: CMakeModule) -> list[tuple[Path, CMakeModule]]:
    """The modules CMake builds into the same tiling and infer objects as `op_dir`'s, nearest
    first: its CMake DEPENDENCIES (ops-nn's foreach_* on foreach_utils) and its family's shared
    module (`<family>/common/op_host/CMakeLists.txt` with an add_modules_sources of its own,
    OPTYPE common: ops-nn's matmul_common_infershape.cpp and the debug tiling every matmul
    tiling calls). Transitively, as ops-nn's scripts/util/dependency_parser.py resolves them
    for a build of some operators: a dependency's own DEPENDENCIES and its family's shared
    module come too (pooling/adaptive_avg_pool2d on batch_mat_mul_v3, which needs mat_mul_v3
    and matmul.common)."""
    def family_shared(d: Path) -> list[Path]:
        common = d.parent / "common"
        return [common] if cmake_module(common).file is not None else []

    todo: list = [*family_shared(op_dir), *module.dependencies]
    seen: set[Path] = {op_dir}
    out = []
    while todo:
        dep = todo.pop(0)
        dep_dir = dep if isinstance(dep, Path) else next(
            (d for d in (*_common_module(repo.root, dep), op_dir.parent / dep,
                         *sorted(repo.root.glob(f"*/{dep}")))
             if (d / "op_host").is_dir()), None)
        if dep_dir is None or dep_dir in seen:
            continue
        seen.add(dep_dir)
        dep_module = cmake_module(dep_dir)
        out.append((dep_dir, dep_module))
        todo += [*family_shared(dep_dir), *dep_module.dependencies]
    return out


def module_include_dirs(repo: Repository, mod_dir: Path, module: CMakeModule) -> list[Path]:
    """The include directories a module's host sources are compiled with, as when its own
    operator is built: its family directory and op_host/, then those of its own closure."""
    dirs = [mod_dir.parent, module.host_dir]
    for dep_dir, dep_module in dependency_closure(repo, mod_dir, module):
        dirs += [d for d in (dep_dir.parent, dep_module.host_dir) if d.is_dir() and d not in dirs]
    return [d for d in dirs if d.is_dir()]


def read_operator(repo: Repository, op_dir: Path, unit: str) -> Operator:
    op_dir = Path(op_dir).resolve()
    module = cmake_module(op_dir)
    defs, sources = host_sources(op_dir, module, unit)
    kernel = op_dir / "op_kernel" / f"{op_dir.name}.cpp"
    # On the Ascend 950's units the OpDef's per-SoC config names `<op>_apt` as its opFile
    # (ExtendCfgInfo("opFile.value", "<op>_apt"); scripts/util/ascendc_impl_build.py maps it to
    # op_kernel/<op>_apt.cpp), the kernel built from op_kernel/arch35/.
    apt = op_dir / "op_kernel" / f"{op_dir.name}_apt.cpp"
    if ARCH_DIR.get(unit) == "arch35" and apt.is_file():
        kernel = apt
    op_type, variants = binary_config(op_dir, unit)
    include_dirs, modules = [op_dir.parent, module.host_dir], []
    for dep_dir, dep_module in dependency_closure(repo, op_dir, module):
        dep_defs, dep_sources = host_sources(dep_dir, dep_module, unit)
        built = [p for p in dep_sources if p not in dep_defs]
        sources += [p for p in built if p not in sources]
        dirs = [d for d in (dep_dir.parent, dep_module.host_dir) if d.is_dir()]
        # only directories there are: CMake passes a missing one to the compiler, which
        # ignores it (ops-nn's loss/common module has a header and no op_host/)
        include_dirs += [d for d in dirs if d not in include_dirs]
        if built:
            modules.append(HostModule(dep_dir, built, module_include_dirs(repo, dep_dir,
                                                                          dep_module)))
    op = Operator(repo, op_dir, op_dir.parent.name, op_dir.name,
                  kernel if kernel.is_file() else None, defs, sources, include_dirs, op_type,
                  variants, list(module.dependencies), modules)
    arch = tiling_dir(module, unit)
    op.notes.append(f"host sources for {unit} per "
                    + (module.file.relative_to(repo.root).as_posix() if module.file
                       else "func.cmake's defaults")
                    + (f" (tiling directory op_host/{arch})" if arch else ""))
    return op


def tiling_data_header(op: Operator, op_type: str) -> Path | None:
    """The op_host header (any depth) that registers the operator's BEGIN_TILING_DATA_DEF
    class (`REGISTER_TILING_DATA_CLASS(<OpType>, ...)`), which kernels read with
    GET_TILING_DATA; None when the operator's tiling data is a plain struct of its kernel."""
    registers = re.compile(rf"REGISTER_TILING_DATA_CLASS\s*\(\s*{re.escape(op_type)}\s*,")
    # the operator's own op_host, then its family's (ops-nn's foreach operators register theirs
    # in foreach/foreach_utils/op_host/foreach_tiling_def.h)
    # a header beside the host sources this unit builds first: on the Ascend 950 op_host/arch35's
    # registration, not op_host/arch22's (ops-nn's scatter_elements_v2 registers its op type in both)
    built = {p.parent for p in op.host_sources}
    # another architecture's tiling directory is not this unit's (ops-nn's index_fill registers
    # its class in op_host/arch22 only; its 950 kernel has a struct of that name of its own)
    own = sorted((h for h in (op.directory / "op_host").rglob("*.h")
                  if h.parent in built or not re.fullmatch(r"arch\d+", h.parent.name)),
                 key=lambda h: (h.parent not in built, h))
    family = sorted(h for h in op.directory.parent.glob("*/op_host/**/*.h")
                    if not h.is_relative_to(op.directory))
    for h in [*own, *family]:
        if registers.search(h.read_text(errors="replace")):
            return h
    return None


_INTERFACE = re.compile(r'ExtendCfgInfo\s*\(\s*"opInterface\.value"\s*,\s*"(\w+)"\s*\)')


def op_interface(op: Operator, op_type: str) -> str:
    """The kernel function's name where the OpDef names it (CANN's
    `ExtendCfgInfo("opInterface.value", "<name>")`) and it is not snake_case(op type): the name
    of those the classic kernel defines as a __global__ function; "" otherwise."""
    from opkg.core.model import snake_case

    named = {m for p in op.def_sources for m in _INTERFACE.findall(p.read_text(errors="replace"))}
    if not named or op.kernel is None:
        return ""
    text = op.kernel.read_text(errors="replace")
    defined = set(re.findall(r"__global__[^;{(]*?\b(\w+)\s*\(", text))
    found = sorted((named & defined) - {snake_case(op_type)})
    return found[0] if len(found) == 1 and snake_case(op_type) not in defined else ""


# -- the repository's golden --------------------------------------------------------------------

# imports a golden may make that opkg's own environment provides
_PROVIDED = {"numpy", "math", "functools", "itertools", "typing", "os", "sys", "re", "copy",
             "collections", "random", "struct", "enum", "dataclasses", "operator", "json",
             "logging", "warnings", "abc", "time", "decimal", "fractions", "ml_dtypes",
             "__future__"}


@dataclass(frozen=True)
class Golden:
    file: Path
    function: str
    requires: tuple[str, ...]     # third-party packages it imports (torch, ...)


# where an operator's golden lives: tests/assets/golden.py, else tests/golden/golden.py (ops-nn's
# act_ulq_clamp_*_grad)
GOLDEN_FILES = ("tests/assets/golden.py", "tests/golden/golden.py")


def find_golden(op_dir: Path) -> Golden | None:
    """The operator's golden with the packages it imports that opkg does not bring; None when
    it has none. Two registrations, as the repositories' test tool reads them:
    `__golden__ = {"kernel": {<op>: "<function>"}}`, and the TestSpec form
    `__spec__ = {<op>: "<Class>"}` whose class holds `golden` (a function or staticmethod).
    Read from GOLDEN_FILES, then the other test-spec modules of tests/assets (matmul's
    `mmv3_kernel_golden.py`), which must name the operator (their other keys are aclnn or
    torch API names, not kernels)."""
    from opkg.core.manifest import golden_callables

    others = sorted(p for p in (op_dir / "tests" / "assets").glob("*.py") if p.name != "golden.py")
    for path in [op_dir / rel for rel in GOLDEN_FILES] + others:
        tree = _parse(path)
        if tree is None:
            continue
        function = _registered_golden(tree, op_dir.name, set(golden_callables(tree)),
                                      named_only=path in others)
        if function is not None:
            return Golden(path, function, _requires(tree, path))
    return None


def _parse(path: Path):
    try:
        return ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


def _module_dict(tree: ast.Module, name: str):
    """The literal dict a module assigns to `name`, else None."""
    for node in tree.body:
        if (isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                return None
            return value if isinstance(value, dict) else None
    return None


def _registered_golden(tree: ast.Module, op: str, defined: set[str], *,
                       named_only: bool = False) -> str | None:
    """The golden function `__golden__["kernel"]` or `__spec__` registers for operator `op`
    (the only entry when there is one, unless `named_only`), as a golden reference names it
    ("fn", "Class.golden")."""
    def pick(mapping: dict):
        if op in mapping or named_only:
            return mapping.get(op)
        return next(iter(mapping.values())) if len(mapping) == 1 else None

    kernels = (_module_dict(tree, "__golden__") or {}).get("kernel")
    if isinstance(kernels, dict):
        function = pick(kernels)
        if isinstance(function, str) and function in defined:
            return function
    cls = pick(_module_dict(tree, "__spec__") or {})
    if isinstance(cls, str) and f"{cls}.golden" in defined:
        return f"{cls}.golden"
    return None


def _requires(tree, path: Path, _seen: set | None = None) -> tuple[str, ...]:
    """The third-party packages the golden at `path` imports. A module of the repository's own
    is not one: ops-nn's matmul goldens put a directory named relative to themselves on sys.path
    (`os.path.join(os.path.dirname(__file__), "../../../common/tests/st/arch35")`) and import
    its helpers (`matmul_golden_util`); what those import counts instead."""
    seen = _seen if _seen is not None else {path.resolve()}
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    # directories the golden names relative to itself (string constants that are one)
    dirs = [path.parent] + [path.parent / n.value for n in ast.walk(tree)
                            if isinstance(n, ast.Constant) and isinstance(n.value, str)
                            and 0 < len(n.value) < 200 and "\n" not in n.value
                            and (path.parent / n.value).is_dir()]
    found = set()
    for name in sorted(imported - _PROVIDED - set(sys.stdlib_module_names)):
        local = next((d / f"{name}.py" for d in dirs if (d / f"{name}.py").is_file()), None)
        if local is None:
            found.add(name)
        elif local.resolve() not in seen:
            seen.add(local.resolve())
            sub = _parse(local)
            found |= set(_requires(sub, local, seen)) if sub is not None else set()
    return tuple(sorted(found))


# -- what the repository's tests do to the kernel's outputs ------------------------------------

def _zeroes_output(node: ast.AST) -> bool:
    """`t[...] = 0` or `t.zero_()` / `t.fill_(0)`: a statement that zeroes a tensor or part of it."""
    zero = lambda v: isinstance(v, ast.Constant) and not isinstance(v.value, bool) and v.value == 0  # noqa: E731
    if isinstance(node, ast.Assign):
        return zero(node.value) and any(isinstance(t, ast.Subscript) for t in node.targets)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return (node.func.attr == "zero_" and not node.args) or (
            node.func.attr == "fill_" and len(node.args) == 1 and zero(node.args[0]))
    return False


def zeroed_outputs(op_dir: Path, op_type: str) -> tuple[Path, int] | None:
    """Where the operator's own system test zeroes what the kernel returned before comparing it
    (file, line), else None. ops-nn's ST executors (`tests/st/aclnn<Api>/executor_*.py`)
    post-process the device's outputs in `after_call`; those that zero elements (clipped_swiglu:
    the rows past sum(group_index), which its kernel never writes and its golden gives as 0)
    make the comparison independent of what the kernel leaves there, as output buffers filled
    with zeros do (verify.outputs_prefill: zero). Only the executor of the operator's own API
    counts (aclnn<Type>, the type without a version suffix: BatchNormV3's aclnnBatchNorm), not
    one of another API kept in its tree (gather_v2's aclnnKthvalue)."""
    own = re.sub(r"V\d+$", "", op_type).lower()
    for path in sorted((op_dir / "tests" / "st").glob("**/executor_*.py")):
        if path.parent.name.lower() != f"aclnn{own}":
            continue
        tree = _parse(path)
        if tree is None:
            continue
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name == "after_call":
                hit = next((n for n in ast.walk(fn) if _zeroes_output(n)), None)
                if hit is not None:
                    return path, hit.lineno
    return None


# -- the import ---------------------------------------------------------------------------------

# a package directory the import may rewrite: it holds only what an import writes
REFUSED = "opkg.yaml.refused"      # a written manifest the loader refused (check_imported)
_GENERATED = {"opkg.yaml", "golden.py", REFUSED}
GOLDEN_CONVENTION = "ttk"          # verify.golden_convention for the repositories' golden.py


@dataclass
class Imported:
    """One operator's outcome: `dest` written, or `skipped` saying why not."""
    path: str                          # the operator's directory in the repository
    op_type: str | None = None
    dest: Path | None = None
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)
    golden: bool = False               # the repository's golden (False: a stub that fails)
    cases_from: str | None = None


@dataclass
class RepositoryImport:
    repo: Repository
    operators: list[Imported]
    workspace_note: str | None = None


def open_repository(target: Path, name: str | None = None) -> Repository:
    root = repository_root(target)
    if root is None:
        raise UsageError(f"{target} is not inside an ops repository checkout",
                         hint="an ops repository (hicann/ops-nn and its siblings) has "
                              "cmake/func.cmake and common/inc at its root")
    return Repository(root, name or default_name(root), git_commit(root))


def import_repository(target: Path, *, unit: str, soc: str, dest_root: Path, tree_label: str,
                      name: str | None = None, extra_include_dirs=(), deps=(),
                      probe=None) -> RepositoryImport:
    """Import every operator `target` names (an operator, a family or the whole repository)
    that has a classic kernel, into `dest_root/<family>/<op>/opkg.yaml`, for compute unit
    `unit` (CMake's, e.g. ascend910b) built on SoC `soc`; every package depends on the
    repository's kernel tree package `tree_label` (repository_workspace.write_kernel_tree).
    `deps` are library labels every package depends on (`@opbase//:op_common`);
    `extra_include_dirs` the directories they bring, used to read the OpDefs. `probe` replaces
    the OpDef reader (tests of layout only)."""
    target = Path(target)
    if not target.exists():
        raise UsageError(f"no such directory: {target}", field="PATH")
    repo = open_repository(target, name)
    dirs = operator_dirs(repo.root, target)
    if not dirs:
        raise UsageError(f"no operator directories under {target}",
                         hint="an operator directory has op_host/ and op_kernel/")
    results = []
    # several operators: the OpDef probes share a precompiled prelude, built by the first
    reader = probe or functools.partial(_read_opdef, precompile=len(dirs) > 1)
    for op_dir in dirs:
        result = Imported(op_dir.relative_to(repo.root).as_posix())
        results.append(result)
        try:
            op = read_operator(repo, op_dir, unit)
        except (OSError, ValueError, LookupError, TypeError) as exc:
            result.skipped = f"its CMakeLists.txt could not be read: {type(exc).__name__}: {exc}"
            continue
        if op.kernel is None:
            result.skipped = (f"no classic kernel op_kernel/{op.name}.cpp"
                              + (" (only an Ascend 950 kernel)" if any(
                                  (op.directory / "op_kernel").glob("*_apt.cpp")) else ""))
            continue
        try:
            _import_one(op, result, unit=unit, soc=soc, dest_root=Path(dest_root),
                        extra_include_dirs=extra_include_dirs, deps=deps, probe=reader,
                        tree_label=tree_label)
        except UsageError as exc:
            result.skipped = exc.message.splitlines()[0]
            result.notes += exc.message.splitlines()[1:]
        except (OSError, ValueError, LookupError, TypeError) as exc:
            # one operator's unexpected layout must not stop the import of the others
            result.skipped = f"not imported: {type(exc).__name__}: {exc}"
    return RepositoryImport(repo, results)


def check_imported(result: RepositoryImport, ws) -> None:
    """Load every manifest the import wrote as the next command will (workspace `ws`, which
    names the repository now). One the loader refuses is a gap of the import, never a manifest
    to leave behind: it is kept as opkg.yaml.refused beside the package (not a package, to read
    or fix), and its operator is reported as not imported, with the error, what in the
    repository the refused line was written from, and a hint."""
    from opkg.core.errors import ManifestError
    from opkg.core.manifest import load_package

    for o in result.operators:
        if o.dest is None:
            continue
        manifest = o.dest / "opkg.yaml"
        (o.dest / REFUSED).unlink(missing_ok=True)
        try:
            load_package(manifest, "//" + ws.rel(o.dest), known_socs=ws.socs,
                         default_socs=ws.settings.default_socs, repositories=ws.repositories)
        except ManifestError as exc:
            first = (getattr(exc, "errors", None) or [exc])[0]
            line = first.location.line if first.location else None
            source = _written_from(manifest.read_text(encoding="utf-8").splitlines(), line, o.path,
                                   one_case="cases[" in (first.field or ""))
            manifest.rename(o.dest / REFUSED)
            o.skipped = (f"the manifest written for {o.op_type or o.path} is refused: {first.message} "
                         f"({REFUSED}" + (f":{line}" if line else "") + f", written from {source})")
            o.notes = [f"hint: {first.hint}" if first.hint else "hint: see the error above",
                       "hint: an import gap (opkg writes what it cannot load): report it with "
                       f"{source}; {o.dest / REFUSED} is the manifest as written"] + o.notes
            o.dest = None


def _written_from(lines: list[str], line: int | None, op_path: str, one_case: bool = True) -> str:
    """What in the repository a line of a written manifest comes from: a case's row of its
    table (the `# from the repository's ...` comment above the cases; `one_case`: the error is
    about that case, not about the cases together), else the section's source (the OpDef, the
    CMake rules)."""
    if not line or line > len(lines):
        return f"the OpDef of {op_path}"
    row = re.search(r'name: "?([^",}]+)"?', lines[line - 1])
    section, source = None, None
    for text in reversed(lines[:line]):
        if source is None and (m := re.match(r"\s*# from the repository's (\S+)", text)):
            source = m.group(1)
        if re.match(r"[a-z_]+:", text):
            section = text.split(":")[0]
            break
    if section == "verify" and source and row and one_case:
        return f"row {row.group(1)!r} of {op_path}/{source}"
    if section == "verify":
        return f"the tests of {op_path} ({source or 'verify'})"
    if section == "op":
        return f"the OpDef of {op_path} (op_host)"
    return f"the CMake rules of {op_path} ({section or 'the manifest'})"


def _read_opdef(op: Operator, extra_include_dirs, precompile: bool = False
                ) -> tuple[dict, list[str]]:
    """The OpDef the def sources register, compiled on the sim as the build would (the
    repository's and its libraries' include directories); read from the text when they do
    not compile. (host_prototypes-shaped entry, notes). `precompile`: one of many probes
    (opdef.read_opdefs)."""
    from opkg.importers import opdef as opdef_probe

    include_dirs = [*(op.repo.root / d for d in HOST_INCLUDE_DIRS), *op.include_dirs,
                    *map(Path, extra_include_dirs)]
    notes, probe_error = [], None
    try:
        probe = opdef_probe.read_opdefs(op.def_sources, include_dirs, op.directory,
                                        precompile=precompile)
        ops, gaps = probe.ops, []
        notes += [f"compiler warning: {w}" for w in probe.warnings]
    except opdef_probe.ProbeError as exc:
        probe_error = str(exc).splitlines()[0][:300]
        ops, gaps = opdef_probe.parse_opdef_text(op.def_sources)
        notes.append(f"the OpDef sources do not compile on the sim ({probe_error}); the OpDef "
                     "was read from the text")
    wanted = op.op_type_hint
    if wanted is None and len(ops) > 1:
        # add_kernel_sources without a binary config: the def file's OP_ADD
        from opkg.core.model import snake_case
        named = [o for o in ops if snake_case(o["type"]) == op.name]
        wanted = named[0]["type"] if len(named) == 1 else None
    chosen = [o for o in ops if o["type"] == wanted] if wanted else ops
    if len(chosen) != 1:
        why = "; ".join(gaps) or (f"the def sources register {', '.join(o['type'] for o in ops)}"
                                  if ops else "no OpDef found")
        if probe_error:
            why = f"its def sources do not compile on the sim ({probe_error}), and {why}"
        raise UsageError(f"cannot read the OpDef of {op.rel}: {why}")
    return chosen[0], notes


def _import_one(op: Operator, result: Imported, *, unit, soc, dest_root, extra_include_dirs,
                deps, probe, tree_label) -> None:
    from opkg.importers import opdef as opdef_probe
    from opkg.importers.project import _check_representable
    from opkg.importers.manifest_text import golden_stub as _golden_stub, _ATTR_PLACEHOLDER
    from opkg.importers import ttk
    from opkg.core.model import DTYPES
    from opkg.core.socs import soc_table

    declared, notes = probe(op, extra_include_dirs)
    result.notes += op.notes + notes
    # only the built unit's own AddConfig lists matter to this manifest (socs: [soc]); the
    # others are not read (ops-nn's MatMulV3 lists ascend950's twice over as the sim reads it)
    aicore = declared.get("aicore") or {}
    configs_of = {}
    own = (aicore.get("soc_configs") or {}).get(unit)
    if own is not None:
        kept = _runnable_dtypes({"type": declared["type"], "inputs": own["inputs"],
                                 "outputs": own["outputs"]}, result.notes)
        configs_of[unit] = {"inputs": kept["inputs"], "outputs": kept["outputs"]}
        if _placeholders(declared):
            # the OpDef's own lists only hold a place (ops-nn's Conv3DV2 declares ge::DT_MAX and
            # gives each SoC its lists with AddConfig): the built unit's are the operator's
            declared = {**declared, **configs_of[unit]}
            result.notes.append(f"the OpDef's own DataType lists are placeholders: {unit}'s "
                                "AddConfig lists are the operator's")
    declared = _runnable_dtypes({**declared, "aicore": {**aicore, "soc_configs": configs_of}},
                                result.notes)
    manifest_op = opdef_probe.to_manifest_op(declared)
    configs = manifest_op.pop("configs")
    if configs and unit not in configs:
        # a classic-named kernel of an operator another SoC's config alone names (ops-nn's
        # bnll: AddConfig("ascend950") only)
        raise UsageError(f"not an operator of {unit}: its OpDef's AddConfig names "
                         f"{', '.join(configs)} only")
    has_infer = manifest_op.pop("has_infer_shape")
    for d in manifest_op["dropped_formats"]:
        result.notes.append(f"OpDef format combination left out: {d}")
    _check_representable(manifest_op, op.directory)
    result.op_type = manifest_op["type"]
    if (interface := op_interface(op, manifest_op["type"])):
        manifest_op["interface"] = interface
    row = soc_table(None).get(soc)
    series = _short_series(soc)
    arch = tiling_dir(cmake_module(op.directory), unit)

    golden = find_golden(op.directory)
    # tests/**/arch35/ tables are the Ascend 950's also where its tiling has no op_host/arch35
    # (ops-nn's glu: glu_tiling_arch35.cpp beside the others)
    table_arch = arch or ("arch35" if ARCH_DIR.get(unit) == "arch35" else None)
    cases = ttk.ttk_cases(op.directory, manifest_op, series, table_arch, has_infer)
    result.notes += [f"ttk row not used: {s}" for s in cases.skipped[:5]]
    if not cases.cases:
        example = ttk.example_case(op.directory, manifest_op)
        if example is not None:
            # required attrs the example's call does not give as a literal: placeholders, said
            required = {a["name"]: _ATTR_PLACEHOLDER[a["type"]] for a in manifest_op["attrs"]
                        if a.get("required") and a["name"] not in example.get("attrs", {})}
            if required:
                example["attrs"] = {**example.get("attrs", {}), **required}
                result.notes.append("required attrs of the example case are placeholders: "
                                    + ", ".join(required))
            cases.cases, cases.source = [example], (
                "examples/test_aclnn_*.cpp" if "if_supported" not in example
                else "examples/<arch>/test_aclnn_*.cpp (another architecture's example)")
    result.cases_from = cases.source
    tolerance = {d: t for d, t in cases.tolerance.items() if d in DTYPES}

    dest = dest_root / op.family / op.name
    if dest.exists() and any(p.name not in _GENERATED for p in dest.iterdir()):
        raise UsageError(f"{dest} holds files an import did not write; not overwritten")
    dest.mkdir(parents=True, exist_ok=True)
    if golden is None:
        func = op.name
        (dest / "golden.py").write_text(_golden_stub(manifest_op, func))
        golden_ref = f"golden.py:{func}"
        result.notes.append("no kernel golden in tests/ (a __golden__ kernel entry or a "
                            "__spec__ class for the operator): golden.py is a stub that fails "
                            "until written")
    elif (rendered := numpy_golden(golden.file.read_text(encoding="utf-8", errors="replace"),
                                   golden.function, golden.requires)) is not None:
        label = f"{op.repo.label(golden.file)}:{golden.function}"
        (dest / "golden.py").write_text(f"# {label} computes this with TensorFlow, which this Python "
                                        "cannot import: opkg's NumPy rendering of the same\n"
                                        "# operation (opkg/importers/numpy_goldens.py)\n"
                                        f"__golden_source__ = {op.repo.label(golden.file)!r}   # its input.py\n"
                                        + rendered)
        golden_ref = f"golden.py:{golden.function}"
        result.golden = True
        result.notes.append(f"the golden imports tensorflow, not installed here: golden.py renders "
                            f"{label} in NumPy")
        golden = dataclasses.replace(golden, requires=tuple(r for r in golden.requires if r != "tensorflow"))
    else:
        (dest / "golden.py").unlink(missing_ok=True)
        golden_ref = f"{op.repo.label(golden.file)}:{golden.function}"
        result.golden = True
        if golden.requires:
            result.notes.append("the golden imports " + ", ".join(golden.requires)
                                + " (verify.requires)")
    if op.dependencies:
        result.notes.append(f"CMake DEPENDENCIES (their host sources built once, as library "
                            f"packages under {HOST_MODULES}/; their op_host an include "
                            "directory): " + ", ".join(op.dependencies))
    zeroed = zeroed_outputs(op.directory, manifest_op["type"])
    prefill = f"{op.repo.label(zeroed[0])}:{zeroed[1]}" if zeroed else None
    # the modules of its CMake DEPENDENCIES: library packages beside the kernel tree package,
    # with the deps the operator has (what its host compiles saw them with)
    lib_deps = [f"@{op.repo.name}//:common", tree_label, *deps]
    root_label = tree_label.rsplit("/", 1)[0]
    modules = [f"{root_label}/" + write_module_package(m, op.repo, dest_root, lib_deps)
               .relative_to(dest_root).as_posix() for m in op.modules]
    text = manifest_text(op, manifest_op, soc=soc, golden_ref=golden_ref, golden=golden,
                         cases=cases, tolerance=tolerance, has_infer=has_infer,
                         deps=[*deps, *modules],
                         row_short=row.short if row else unit, tree_label=tree_label,
                         prefill=prefill)
    from opkg.util.fsutil import atomic_write_text
    atomic_write_text(dest / "opkg.yaml", text)
    result.dest = dest


def _placeholders(declared: dict) -> bool:
    """Every dtype of the OpDef's own lists is one no tensor can have (ge::DT_MAX, which the
    sim's probe names DT_UNDEFINED)."""
    from opkg.core.model import DTYPES

    dtypes = {d for t in declared["inputs"] + declared["outputs"] for d in t["dtypes"]}
    return bool(dtypes) and not dtypes & set(DTYPES)


def _runnable_dtypes(declared: dict, notes: list[str]) -> dict:
    """The OpDef without the positions of its DataType/Format lists that name a dtype opkg has
    no NumPy form for (float8, hifloat8, ...: their variants could not be verified) or a format
    it does not know (FRACTAL_Z_3D, ...; the probe spells a format the sim cannot name
    FORMAT_RESERVED), each left out named. Every position unknown by its dtype stays an import
    error (scaffold's check says which); by its format, one here."""
    from opkg.importers import opdef as opdef_probe
    from opkg.core.model import DTYPES, FORMATS

    tensors = declared["inputs"] + declared["outputs"]
    count = max((len(t["dtypes"]) for t in tensors), default=0)
    uneven = [f"{t['name']} {len(t['dtypes'])}" for t in tensors
              if len(t["dtypes"]) not in (1, count)]
    if uneven:
        raise UsageError(f"the OpDef of {declared['type']} has DataType lists of different "
                         f"lengths: {count} and " + ", ".join(uneven) + " (as the sim reads it)")

    def at(values, i):
        return values[i if len(values) > 1 else 0] if values else None

    why = {}
    for i in range(count):
        dtypes = sorted({at(t["dtypes"], i) for t in tensors} - set(DTYPES) - {None})
        formats = sorted({at(t.get("formats") or [], i) for t in tensors} - set(FORMATS) - {None})
        if dtypes:
            why[i] = ", ".join(dtypes) + " (no such dtype in opkg)"
        elif formats:
            why[i] = "format " + ", ".join(formats) + " (not a format opkg runs)"
    if not why:
        return declared
    if len(why) == count:
        if any("(no such dtype" in w for w in why.values()):
            return declared
        raise UsageError(f"the OpDef of {declared['type']} has no combination in formats opkg "
                         "runs: " + "; ".join(f"{i}: {w}" for i, w in sorted(why.items())),
                         hint="opkg runs the formats " + ", ".join(FORMATS))
    keep = [i for i in range(count) if i not in why]
    for i, w in sorted(why.items()):
        notes.append(f"OpDef dtype combination {i} left out: {w}")
    return {**declared, "inputs": opdef_probe.keep_positions(declared["inputs"], keep),
            "outputs": opdef_probe.keep_positions(declared["outputs"], keep)}


def _short_series(soc: str) -> str:
    """Ascend910B1 -> Ascend910B: the series ttk's soc_series names (the SoC without its
    trailing bin number)."""
    return re.sub(r"\d+$", "", soc) if re.search(r"[A-Za-z]\d+$", soc) else soc


def _every_variant(manifest_op: dict) -> tuple:
    """The dtype variants the manifest's op has, its SoC configs' included (OpSpec.every_variant:
    a `per_variant` value is given for each, whichever SoC the manifest builds)."""
    from opkg.core.model import OpSpec, TensorSpec

    def tensors(group):
        return tuple(TensorSpec(t["name"], tuple(t["dtypes"]), tuple(t.get("formats") or ("ND",)),
                                t.get("param_type", "required")) for t in group)

    spec = OpSpec(manifest_op["type"], tensors(manifest_op["inputs"]), tensors(manifest_op["outputs"]),
                  soc_configs=tuple((short, tensors(c["inputs"]), tensors(c["outputs"]))
                                    for short, c in (manifest_op.get("soc_configs") or {}).items()))
    return spec.every_variant()


def _per_variant_dtypes(case: dict, manifest_op: dict) -> dict:
    """A case whose attrs name an output's dtype (ttk._dtype_attrs: `{output_dtype: y}`) with
    the value per variant: the ge::DataType number of that output's dtype in each variant (of
    every SoC config too, as the manifest's `per_variant` needs), as `per_variant` says it."""
    named = {k: v["output_dtype"] for k, v in (case.get("attrs") or {}).items()
             if isinstance(v, dict) and "output_dtype" in v}
    if not named:
        return case
    from opkg.core.model import DTYPES

    variants = _every_variant(manifest_op)
    attrs = dict(case["attrs"])
    for name, output in named.items():
        attrs[name] = {"per_variant": {v.name: DTYPES[v.dtype_of(output)].ge_value for v in variants}}
    return {**case, "attrs": attrs}


HOST_MODULES = "host_modules"


def module_package_name(repo: Repository, module: HostModule) -> str:
    """`ops_nn_matmul_common`: unique in the workspace, within a package name's length."""
    import hashlib

    name = f"{repo.name}_{module.directory.parent.name}_{module.directory.name}".lower()
    if len(name) > 64:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = f"{name[:55]}_{digest}"
    return name


def write_module_package(module: HostModule, repo: Repository, dest_root: Path, deps) -> Path:
    """`dest_root/host_modules/<family>/<op>/opkg.yaml`: a library package of the module's host
    sources, so that every operator whose CMake DEPENDENCIES name it links one compile of them
    (CMake builds each module once into the repository's host library). Written only when its
    text changes."""
    from opkg.util.fsutil import atomic_write_text

    q = lambda p: json.dumps(repo.label(p))   # noqa: E731 - '@' cannot start a plain scalar
    rel = module.directory.relative_to(repo.root).as_posix()
    text = "\n".join([
        f"# The host sources {repo.name}'s CMake builds for module {rel} (add_modules_sources),",
        "# compiled once for every imported operator that depends on it; written by `opkg import`.",
        f"name: {module_package_name(repo, module)}", "version: 0.1.0",
        f"summary: host module {rel} of {repo.name}",
        "host_sources: [" + ", ".join(q(p) for p in module.sources) + "]",
        "# its family directory and op_host/, and those of the modules it depends on",
        "host_include_dirs: [" + ", ".join(q(d) for d in module.include_dirs) + "]",
        "deps: [" + ", ".join(json.dumps(d) for d in deps) + "]"]) + "\n"
    path = Path(dest_root) / HOST_MODULES / rel / "opkg.yaml"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    return path.parent


def manifest_text(op: Operator, manifest_op: dict, *, soc, golden_ref, golden, cases, tolerance,
                  has_infer, deps, row_short, tree_label, prefill=None) -> str:
    from opkg.importers.manifest_text import _yaml_flow, _yaml_tensor, _ATTR_PLACEHOLDER

    repo = op.repo
    q = lambda p: json.dumps(repo.label(p))   # noqa: E731 - quoted: '@' cannot start a plain scalar
    lines = [f"# Imported by `opkg import` from {repo.name} {op.rel}"
             + (f" at {repo.commit[:12]}" if repo.commit else "")
             + "; the sources stay in the repository,",
             "# unedited (@" + repo.name + "//path). Re-run the import to follow the repository.",
             f"name: {op.name}", "version: 0.1.0",
             f"summary: {manifest_op['type']} ({repo.name} {op.rel})",
             "origin: " + _yaml_flow({"repository": repo.name,
                                      **({"commit": repo.commit} if repo.commit else {}),
                                      "path": op.rel}),
             "op:", f"  type: {manifest_op['type']}"]
    if manifest_op.get("interface"):
        lines.append(f"  interface: {manifest_op['interface']}   # the OpDef's opInterface")
    lines.append("  inputs:" if manifest_op["inputs"] else "  inputs: []")
    lines += [f"    - {_yaml_tensor(t)}" for t in manifest_op["inputs"]]
    lines.append("  outputs:" if manifest_op["outputs"] else "  outputs: []")
    lines += [f"    - {_yaml_tensor(t)}" for t in manifest_op["outputs"]]
    if manifest_op["attrs"]:
        lines.append("  attrs:")
        for a in manifest_op["attrs"]:
            extra = "required: true" if a.get("required") else f"default: {json.dumps(a['default'])}"
            lines.append(f"    - {{name: {a['name']}, type: {a['type']}, {extra}}}")
    if manifest_op.get("soc_configs"):
        lines.append("  soc_configs:   # AddConfig(soc, config): the config's own lists")
        for short, cfg in manifest_op["soc_configs"].items():
            lines.append(f"    {short}:")
            for group in ("inputs", "outputs"):
                lines.append(f"      {group}:" if cfg[group] else f"      {group}: []")
                lines += [f"        - {_yaml_tensor(t)}" for t in cfg[group]]
    lines += [f"# {row_short}: the sources the repository's CMake builds (add_modules_sources)",
              "tiling:", "  sources:"]
    in_modules = {p for m in op.modules for p in m.sources}
    lines += [f"    - {q(p)}" for p in op.host_sources if p not in in_modules]
    data = tiling_data_header(op, manifest_op["type"])
    if data is not None:
        lines.append(f"  data: {q(data)}")
    lines += ["kernel:", f"  source: {q(op.kernel)}",
              "# the family directory and op_host/, as the repository's tiling build sees them",
              "include_dirs: [" + ", ".join(q(d) for d in op.include_dirs) + "]",
              f"socs: [{soc}]",
              "deps: [" + ", ".join(json.dumps(d) for d in
                                    [f"@{repo.name}//:common", tree_label, *deps]) + "]",
              "verify:", f"  golden: {json.dumps(golden_ref)}"]
    if golden is not None:
        lines.append(f"  golden_convention: {GOLDEN_CONVENTION}   # inputs, attrs in def order, "
                     "{input,output}_dtypes, ... as keywords")
        if golden.requires:
            lines.append(f"  requires: [{', '.join(golden.requires)}]")
    lines.append("  seed: 0")
    if prefill:
        lines.append(f"  outputs_prefill: zero   # the repository's test zeroes the kernel's "
                     f"outputs before comparing ({prefill})")
    if tolerance:
        lines.append("  tolerance:   # the repository's precision_tolerances")
        lines += [f"    {d}: {_yaml_flow(t)}" for d, t in sorted(tolerance.items())]
    if not manifest_op["outputs"]:
        from opkg.importers.manifest_text import inplace_candidates as _inplace_candidates
        # the table's output_inplace_indexes when its rows say, else every candidate
        lines.append(f"  inplace: [{', '.join(cases.inplace or _inplace_candidates(manifest_op))}]")
    lines.append("  cases:")
    if cases.cases:
        lines.append(f"    # from the repository's {cases.source}")
        lines += [f"    - {_yaml_flow(_per_variant_dtypes(c, manifest_op))}"
                  for c in cases.cases]
    else:
        lines.append("    # no ttk table or example for this SoC: one shape for every input; "
                     "REVIEW IT")
        shapes = {t["name"]: ([[8, 256], [8, 256]] if t.get("param_type") == "dynamic"
                              else [8, 256]) for t in manifest_op["inputs"]}
        case = {"name": "default", "shapes": shapes}
        required = {a["name"]: _ATTR_PLACEHOLDER[a["type"]] for a in manifest_op["attrs"]
                    if a.get("required")}
        if required:
            case["attrs"] = required
        own = [t for t in manifest_op["outputs"]
               if t["name"] not in {i["name"] for i in manifest_op["inputs"]}]
        if not has_infer and own:
            case["output_shapes"] = {t["name"]: ([[8, 256], [8, 256]]
                                                 if t.get("param_type") == "dynamic" else [8, 256])
                                     for t in own}
        lines.append(f"    - {_yaml_flow(case)}")
    return "\n".join(lines) + "\n"
