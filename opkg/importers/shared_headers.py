"""The headers (and tiling sources) an imported operator takes from its corpus rather than from
its own project.

cann-ops keeps headers that many operators share under `src/common/inc/` (e.g. a foreach kernel
includes "foreach_triangle.h", which lives in `src/common/inc/foreach/op_kernel/`); its CMake adds
those directories to the include path. `opkg import` keeps a package self-contained: each such
header (and what it includes in turn) is copied unchanged under the package's `include/`, and
the directory that makes the `#include` resolve becomes one of the package's `include_dirs`.
A header of another project of the same family, included by a relative path the CMake build
resolves beside the including file ("../../circular_pad/op_host/circular_pad_common.h"), is
copied the same way.

Headers the sim provides (kernel_operator.h, register/..., tiling/...) and system headers are
left alone; an include found nowhere is reported, not guessed.

Some operators' tiling lives in the shared tree too: a cann-ops foreach operator's op_host holds
only its OpDef, and its CMakeLists.txt adds `${OP_COMMON_DIR}/src/foreach/op_tiling/
foreach_tiling_func.cpp` to the `optiling` library. `tiling_sources` reads those lines.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SHARED_ROOTS = ("common/inc",)     # below an ancestor of the project (cann-ops: src/common/inc)
# target_sources(optiling PRIVATE a.cpp ${OP_COMMON_DIR}/src/b.cpp) in a project's CMakeLists.txt
CMAKE_SOURCES_RE = re.compile(r"target_sources\s*\(\s*(\w+)\s+(?:PRIVATE|PUBLIC|INTERFACE)?([^)]*)\)")
SHARED_SOURCES_DIR = "op_host/shared"   # where a package keeps the shared tree's tiling sources


@dataclass
class Resolution:
    copies: dict[str, Path] = field(default_factory=dict)   # dest-relative path -> source file
    include_dirs: list[str] = field(default_factory=list)   # dest-relative directories
    missing: list[str] = field(default_factory=list)        # "file:line: #include "x.h""
    # headers of other projects of the family (dest-relative path -> source file)
    siblings: dict[str, Path] = field(default_factory=dict)


def shared_roots(project: Path, levels: int = 3) -> list[Path]:
    roots = []
    for anc in list(project.resolve().parents)[:levels]:
        for rel in SHARED_ROOTS:
            if (anc / rel).is_dir():
                roots.append(anc / rel)
    return roots


def tiling_sources(project: Path) -> dict[str, Path]:
    """Package-relative path -> corpus file, for each tiling source the project's CMakeLists.txt
    adds to `optiling` from outside its own op_host/ (the shared tree's `${OP_COMMON_DIR}`, the
    parent of `common/inc`)."""
    project = Path(project).resolve()
    common = [r.parent for r in shared_roots(project)]
    out: dict[str, Path] = {}
    for target, token in cmake_sources(project):
        if target == "optiling":
            for base in common:
                path = Path(token.replace("${OP_COMMON_DIR}", str(base))
                            .replace("${CMAKE_CURRENT_SOURCE_DIR}", str(project)))
                path = (project / path).resolve()
                if path.is_file() and _inside(path, base):
                    out[f"{SHARED_SOURCES_DIR}/{path.relative_to(base).as_posix()}"] = path
                    break
    return out


# file(GLOB_RECURSE VAR "a/*.cc" ...) / file(GLOB VAR ...): a variable a target_sources may name
CMAKE_GLOB_RE = re.compile(r"file\s*\(\s*(GLOB_RECURSE|GLOB)\s+(\w+)([^)]*)\)")
CMAKE_INCLUDES_RE = re.compile(
    r"target_include_directories\s*\(\s*(\w+)\s+(?:PRIVATE|PUBLIC|INTERFACE)?([^)]*)\)")


@dataclass
class HostLibrary:
    """The corpus's shared host library as a project's CMakeLists.txt uses it (cann-ops'
    src/common/op_host/op_tiling: the matmul projects add `file(GLOB_RECURSE ...
    "../../common/op_host/op_tiling/*.cc")` to optiling and its directories to optiling's include
    path). Paths are relative to `root`, the corpus checkout (CMake's ${CMAKE_SOURCE_DIR})."""
    root: Path
    name: str                                   # a library name: the sources' directory
    include_dirs: list[str] = field(default_factory=list)
    host_sources: list[str] = field(default_factory=list)   # globs

    @property
    def repository(self) -> str:
        """The corpus's name in labels (its checkout directory's, e.g. cann_ops)."""
        return re.sub(r"\W", "_", self.root.name)

    @property
    def label(self) -> str:
        return f"@{self.repository}//:{self.name}"

    def entry(self, ws_root: Path, commit: str | None) -> dict:
        """The workspace's repositories: entry: the checkout where it is (and its commit: the
        bundles' provenance) with this library. Its include directories serve kernel compiles
        too: the sim's kernel build reads the package's tiling data header, which includes host
        headers (cann-ops' mat_mul_v3_tiling.h: tiling/tiling_base.h); the package's own
        directories come first there."""
        entry: dict = {"path": os.path.relpath(self.root, Path(ws_root).resolve())}
        if commit:
            entry["commit"] = commit
        entry["libraries"] = {self.name: {"include_dirs": self.include_dirs,
                                          "host_sources": self.host_sources}}
        return entry


def corpus_root(project: Path) -> Path | None:
    """The checkout the project's CMake build starts from (${CMAKE_SOURCE_DIR}): the highest of
    the project's parents, up to four, that holds a CMakeLists.txt."""
    found = None
    for anc in list(Path(project).resolve().parents)[:4]:
        if (anc / "CMakeLists.txt").is_file():
            found = anc
    return found


def host_library(project: Path) -> HostLibrary | None:
    """What the project's CMakeLists.txt takes into `optiling` from outside the project: the
    sources of its file(GLOB...) variables that lie in the corpus outside the project, and the
    include directories of optiling that do (the project's own and its op_host stay the
    package's). None when it takes no such sources."""
    project = Path(project).resolve()
    root = corpus_root(project)
    try:
        text = re.sub(r"#[^\n]*", "", (project / "CMakeLists.txt").read_text(errors="replace"))
    except OSError:
        return None
    if root is None:
        return None

    def place(token: str) -> Path | None:
        token = token.strip('"')
        token = (token.replace("${CMAKE_CURRENT_SOURCE_DIR}", str(project))
                 .replace("${CMAKE_SOURCE_DIR}", str(root)))
        if "$" in token or "<" in token:
            return None
        path = Path(os.path.normpath(project / token))
        return path if _inside(path, root) and not _inside(path, project) else None

    globs: dict[str, list[str]] = {}
    for kind, var, body in CMAKE_GLOB_RE.findall(text):
        for token in body.split():
            path = place(token)
            if path is None:
                continue
            rel = path.relative_to(root).as_posix()
            if kind == "GLOB_RECURSE":      # CMake's recursion: the pattern in every subdirectory
                rel = f"{Path(rel).parent.as_posix()}/**/{Path(rel).name}"
            globs.setdefault(var, []).append(rel)
    sources = [g for target, token in cmake_sources(project) if target == "optiling"
               for var in re.findall(r"\$\{(\w+)\}", token) for g in globs.get(var, ())
               if any(root.glob(g))]
    if not sources:
        return None
    include = []
    for target, body in CMAKE_INCLUDES_RE.findall(text):
        if target != "optiling":
            continue
        for token in body.split():
            path = place(token)
            if path is not None and path.is_dir():
                rel = path.relative_to(root).as_posix()
                if rel not in include:
                    include.append(rel)
    name = re.sub(r"\W", "_", Path(sources[0].split("/**")[0].split("*")[0]).name or "host") or "host"
    return HostLibrary(root, name, include, list(dict.fromkeys(sources)))


def cmake_sources(project: Path) -> list[tuple[str, str]]:
    """(target, source as written) for each file the project's CMakeLists.txt adds with
    target_sources (comments dropped); empty without a CMakeLists.txt."""
    try:
        text = (Path(project) / "CMakeLists.txt").read_text(errors="replace")
    except OSError:
        return []
    text = re.sub(r"#[^\n]*", "", text)
    return [(target, src) for target, body in CMAKE_SOURCES_RE.findall(text) for src in body.split()]


def resolve(sources: list[Path], project: Path, provided: list[Path]) -> Resolution:
    """Follow the quoted #includes of `sources` (files of `project`). `provided` are include
    directories whose headers need no copy (the sim's own headers)."""
    project = project.resolve()
    roots = shared_roots(project)
    family = project.parent     # the projects beside this one (cann-ops: src/<family>/)
    local_dirs = [project / d for d in ("op_host", "op_kernel") if (project / d).is_dir()]
    res = Resolution()
    index: dict[Path, list[Path]] = {}
    todo = [Path(s).resolve() for s in sources]
    seen: set[Path] = set()
    while todo:
        src = todo.pop()
        if src in seen:
            continue
        seen.add(src)
        try:
            text = src.read_text(errors="replace")
        except OSError:
            continue
        for m in INCLUDE_RE.finditer(text):
            name = m.group(1)
            if (src.parent / name).is_file():
                found = (src.parent / name).resolve()
                root = next((r for r in roots if _inside(found, r)), None)
                if root is not None:      # a shared header's neighbour: copied beside it
                    res.copies[f"include/{found.relative_to(root).as_posix()}"] = found
                elif not _inside(found, project) and _inside(found, family):
                    _sibling(res, name, found, family)
                    root = family
                if root is not None or _inside(found, project):
                    todo.append(found)
                continue
            if any((d / name).is_file() for d in (*local_dirs, *provided)):
                todo += [(d / name).resolve() for d in local_dirs if (d / name).is_file()]
                continue
            hit = _find(name, roots, index)
            if hit is None:
                line = text.count("\n", 0, m.start()) + 1
                where = _rel(src, project)
                res.missing.append(f'{where}:{line}: #include "{name}"')
                continue
            root, file = hit
            rel = file.relative_to(root).as_posix()
            res.copies[f"include/{rel}"] = file
            inc = "include/" + rel[: len(rel) - len(name)].rstrip("/")
            inc = inc.rstrip("/")
            if inc not in res.include_dirs:
                res.include_dirs.append(inc)
            todo.append(file)
    return res


def _sibling(res: Resolution, name: str, found: Path, family: Path) -> None:
    """A header of another project of the family, reached by a relative #include (cann-ops'
    circular_pad_grad_tiling.h: "../../circular_pad/op_host/circular_pad_common.h", which the
    CMake build resolves beside the including file). It is copied to include/<project>/<path>,
    and the include path gets the directory from which `name` leads to the copy, so the
    unmodified #include resolves in the package."""
    rel = found.relative_to(family).as_posix()
    res.siblings[f"include/{rel}"] = found
    parts = Path(name).parts
    up = next((i for i, p in enumerate(parts) if p != ".."), len(parts))
    tail = parts[up:]          # what follows the ../ prefix: a suffix of rel
    if up == 0 or len(tail) <= up or not rel.endswith("/".join(tail)):
        return                 # a plain relative name: found beside its includer's copy
    base = rel[: len(rel) - len("/".join(tail))].rstrip("/")
    inc = "/".join(p for p in ("include", base, *tail[:up]) if p)
    if inc not in res.include_dirs:
        res.include_dirs.append(inc)


def sibling_sources(res: Resolution, project: Path) -> dict[str, Path]:
    """Package-relative path -> corpus file, for the tiling source that defines what a copied
    header of another project declares: a file of the same name (.cc, .cpp) that the other
    project's CMakeLists.txt adds to `optiling`. CANN links every project's tiling sources into
    one library, so the definitions (cann-ops' CircularPadCommonTiling, in
    circular_pad/op_host/circular_pad_common.cc) are there for the including project too. The
    source is copied beside its header's copy, so that its `#include "circular_pad_common.h"`
    finds that header first, not a kernel header of the same name on the package's include path."""
    family = Path(project).resolve().parent
    out: dict[str, Path] = {}
    for header in res.siblings.values():
        other = family / header.relative_to(family).parts[0]
        for target, token in cmake_sources(other):
            path = (other / token).resolve()
            if (target == "optiling" and path.stem == header.stem and path.suffix in (".cc", ".cpp")
                    and path.is_file() and _inside(path, other)):
                out[f"include/{path.relative_to(family).as_posix()}"] = path
    return out


def follow_siblings(res: Resolution, project: Path, provided: list[Path]) -> dict[str, Path]:
    """sibling_sources, then what those sources include in turn (added to `res`), until no new
    source appears: a sibling source may include a header of a third project whose source the
    build needs too (cann-ops' batch_mat_mul_v3 -> mat_mul_v3_base_tiling.cpp ->
    mat_mul_v3_l2_cache.h, defined in mat_mul_v3_l2_cache.cpp). Package path -> corpus file."""
    found_all: dict[str, Path] = {}
    while True:
        found = {k: v for k, v in sibling_sources(res, project).items() if k not in found_all}
        if not found:
            return found_all
        found_all.update(found)
        more = resolve([*found.values()], project, provided)
        res.copies.update(more.copies)
        res.siblings.update(more.siblings)
        res.include_dirs += [d for d in more.include_dirs if d not in res.include_dirs]
        res.missing += [m for m in more.missing if m not in res.missing]


def _find(name: str, roots: list[Path], index: dict) -> tuple[Path, Path] | None:
    for root in roots:
        if (root / name).is_file():
            return root, (root / name).resolve()
        files = index.get(root)
        if files is None:
            files = index[root] = sorted(p for p in root.rglob("*") if p.is_file())
        tail = "/" + name
        hits = [p for p in files if p.as_posix().endswith(tail)]
        if hits:
            # the shallowest match: the directory a CMake include path would most likely name
            hit = min(hits, key=lambda p: (len(p.parts), p.as_posix()))
            return root, hit.resolve()
    return None


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root.resolve())
        return True
    except ValueError:
        return False


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
