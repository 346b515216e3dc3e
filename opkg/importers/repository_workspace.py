"""What `opkg import` from an ops repository writes outside the operator packages: the
workspace's `repositories:` entries (the imported repository with its `common` library, the
base library opbase as the repository's CMake uses it) and the kernel tree package (the layout
the repository's kernel build gives its kernels, as links). The operators themselves:
opkg/importers/repository.py."""

from __future__ import annotations

import re
from pathlib import Path

from opkg.core.errors import UsageError
from opkg.importers.repository import (_SKIP_DIRS, HOST_INCLUDE_DIRS, KERNEL_INCLUDE_DIRS,
                                       Repository, git_commit)


# -- the workspace's repositories: entry --------------------------------------------------------


def library_entry() -> dict:
    """The repository library every imported operator depends on (`@<repo>//:common`): what
    cmake/variables.cmake gives every host compile (OP_TILING_INCLUDE) and what the kernel
    build copies next to the kernels (common/inc/op_kernel as ascendc/inc)."""
    return {"include_dirs": list(HOST_INCLUDE_DIRS),
            "kernel_include_dirs": _kernel_dirs([*KERNEL_INCLUDE_DIRS], list(HOST_INCLUDE_DIRS))}


def _kernel_dirs(kernel: list[str], host: list[str]) -> list[str]:
    """A library's kernel include directories: the kernel build's, then the host ones. The
    sim's kernel build reads the package's tiling data header (tiling.data, which CANN turns
    into kernel structs instead; flags.kernel_tiling_source), and that header includes host
    headers (ops-nn's rms_norm_tiling.h includes opbase's log/log.h)."""
    return list(dict.fromkeys([*kernel, *host]))


def repository_entry(repo: Repository, ws_root: Path) -> dict:
    """The imported repository's `repositories:` entry: where, pinned, its `common` library."""
    entry = {"path": Path(os_relpath(repo.root, Path(ws_root).resolve())).as_posix()}
    if repo.commit:
        entry["commit"] = repo.commit
    entry["libraries"] = {"common": library_entry()}
    return entry


def base_entry(repo: Repository, base: Path, ws_root: Path) -> dict:
    """The base library's entry (opbase), as the ops repository's CMake uses it: the include
    directories of cmake/modules/FindOPBASE.cmake (OPBASE_INC_DIRS, relative to the directory
    holding op_common/op_host/util/opbase_export.h: the checkout's include/), the sources
    func.cmake's add_opbase_modules compiles into every operator (util, infer, tiling objects),
    and the kernel build's `pkg_inc/op_common` (scripts/util/ascendc_impl_build.py)."""
    base = Path(base).resolve()
    find = repo.root / "cmake" / "modules" / "FindOPBASE.cmake"
    text = find.read_text(errors="replace") if find.is_file() else ""
    m = re.search(r"set\(\s*OPBASE_INC_DIRS(.*?)\)", text, re.S)
    include = []
    for item in (m.group(1).split() if m else []):
        rel = item.replace("${OPBASE_INC_DIR}/../", "").replace("${OPBASE_INC_DIR}", "include")
        if not rel.startswith("$") and (base / rel).is_dir() and rel not in include:
            include.append(rel)
    func = (repo.root / "cmake" / "func.cmake").read_text(errors="replace")
    body = re.search(r"function\(add_opbase_modules\)(.*?)endfunction", func, re.S)
    sources = []
    for pattern in re.findall(r"\$\{OPBASE_SOURCE_PATH\}/(\S+)", body.group(1) if body else ""):
        if pattern not in sources and (any(base.glob(pattern)) if "*" in pattern
                                       else (base / pattern).is_file()):
            sources.append(pattern)
    include = include or ["include", "include/op_common"]
    library = {"include_dirs": include,
               "kernel_include_dirs": _kernel_dirs(
                   [d for d in ("pkg_inc/op_common", "include/op_common/op_kernel")
                    if (base / d).is_dir()], include)}
    if sources:
        library["host_sources"] = sources
    entry = {"path": Path(os_relpath(base, Path(ws_root).resolve())).as_posix()}
    commit = git_commit(base)
    if commit:
        entry["commit"] = commit
    entry["libraries"] = {"op_common": library}
    return entry


def update_workspace(ws_root: Path, name: str, entry: dict, why: str) -> str:
    """Add `repositories: <name>: <entry>` to the workspace file when it has no entry of that
    name; one there already is the user's and is kept (a different pinned commit is said).
    Returns what was done, in one sentence. The file is edited as text (its comments and
    order stay) and written atomically."""
    import yaml

    from opkg.util.fsutil import atomic_write_text
    from opkg.core.workspace import WORKSPACE_FILE

    path = Path(ws_root) / WORKSPACE_FILE
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    data = yaml.safe_load(text) or {}
    repos = data.get("repositories") if isinstance(data, dict) else None
    if isinstance(repos, dict) and name in repos:
        have = repos[name] if isinstance(repos[name], dict) else {}
        if entry.get("commit") and have.get("commit") not in (None, entry["commit"]):
            return (f"{WORKSPACE_FILE} pins {name} at {have.get('commit')}, the checkout "
                    f"is at {entry['commit']}: the entry is kept (update its commit: to follow "
                    "the checkout)")
        return f"{WORKSPACE_FILE} has repository {name} already: kept"
    body = yaml.safe_dump({name: entry}, sort_keys=False, default_flow_style=None, width=100)
    block = f"  # {why}\n" + "".join(f"  {line}\n" for line in body.splitlines())
    if isinstance(data, dict) and "repositories" in data and (repos is None
                                                              or isinstance(repos, dict)):
        # insert right under the existing `repositories:` line (block style)
        lines = text.splitlines(keepends=True)
        at = next(i for i, l in enumerate(lines) if l.startswith("repositories:"))
        lines.insert(at + 1, block)
        new = "".join(lines)
    elif isinstance(data, dict) and "repositories" not in data:
        new = text + ("" if not text or text.endswith("\n") else "\n") + "repositories:\n" \
            + block
    else:
        raise UsageError(f"{path}: repositories: is not a block mapping; add {name} by hand",
                         hint=f"repositories:\n{block}")
    if (yaml.safe_load(new) or {}).get("repositories", {}).get(name) != entry:
        raise UsageError(f"{path}: could not add repository {name} to repositories: "
                         "(an unusual layout)", hint=f"add it by hand:\n{block}")
    atomic_write_text(path, new)
    return f"{WORKSPACE_FILE}: added repository {name} ({entry['path']}" + (
        f" at {entry['commit'][:12]})" if entry.get("commit") else ")")


def os_relpath(path: Path, start: Path) -> str:
    import os
    return os.path.relpath(Path(path).resolve(), start)


def workspace_libraries(ws_root: Path, base: str) -> tuple[list[str], list[Path]]:
    """The libraries of the workspace's repository `base` (opbase: the ops repositories' CMake
    links its objects into every operator, add_opbase_modules) as dependency labels, and their
    include directories where the repository is a local checkout (to read OpDefs with)."""
    import yaml

    from opkg.core.workspace import WORKSPACE_FILE

    try:
        data = yaml.safe_load((Path(ws_root) / WORKSPACE_FILE).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return [], []
    entry = (data.get("repositories") or {}).get(base) if isinstance(data, dict) else None
    if not isinstance(entry, dict):
        return [], []
    libs = entry.get("libraries") if isinstance(entry.get("libraries"), dict) else {}
    labels = [f"@{base}//:{name}" for name in libs]
    dirs = []
    if isinstance(entry.get("path"), str):
        root = (Path(ws_root) / entry["path"]).resolve()
        for lib in libs.values():
            for d in (lib or {}).get("include_dirs") or []:
                if isinstance(d, str) and (root / d).is_dir():
                    dirs.append(root / d)
    return labels, dirs


# -- the kernel source tree CANN's build lays out -----------------------------------------------
#
# The repository's kernel build does not compile op_kernel/ where it is: gen_ops_info.cmake
# (kernel_src_copy, common_copy) lays the kernels out as `ascendc/<op>/` (each operator's
# op_kernel/), `ascendc/inc/` (common/inc/op_kernel) and `ascendc/common/` (matmul's cmct,
# conv's common kernels), and the kernels include each other through it:
# `#include "../rms_norm/rms_norm_base.h"`, `"../inc/platform.h"`. The import writes that tree
# as a library package of directory links into the repository (nothing copied): a kernel
# compiled where it is finds `../<op>/x.h` through the include directory `ascendc/_`, whose
# parent is the tree, and `../../inc/x.h` (from a subdirectory) through `ascendc/_/_`.

KERNEL_TREE = "kernel_tree"


def kernel_tree_links(repo: Repository) -> dict[str, Path]:
    """The kernel tree as data: path under ascendc/ -> the repository directory it links to."""
    links: dict[str, Path] = {}
    for kernel_dir in sorted(repo.root.glob("*/*/op_kernel")):
        # a family's common/ is not an operator (add_modules_sources records no "common")
        if kernel_dir.parent.parent.name not in _SKIP_DIRS and kernel_dir.parent.name != "common":
            links.setdefault(kernel_dir.parent.name, kernel_dir)
    if (repo.root / "common/inc/op_kernel").is_dir():
        links["inc"] = repo.root / "common/inc/op_kernel"
    for common in sorted(repo.root.glob("*/common/op_kernel")):
        for entry in sorted(common.iterdir()):
            if entry.is_dir():
                links.setdefault(f"common/{entry.name}", entry)
    for cmct in sorted(repo.root.glob("*/common/cmct")):
        links.setdefault("common/cmct", cmct)
    return links


def write_kernel_tree(repo: Repository, dest_root: Path) -> Path:
    """`dest_root/kernel_tree/`: the library package of the repository's kernel tree, links
    relative; rewritten only when the repository's operators changed (a re-import leaves an
    unchanged tree, and the builds reading it, alone)."""
    import os
    import shutil

    from opkg.util.fsutil import atomic_write_text

    pkg = Path(dest_root) / KERNEL_TREE
    tree = pkg / "ascendc"
    want = {rel: os.path.relpath(target, (tree / rel).parent)
            for rel, target in kernel_tree_links(repo).items()}
    have = {p.relative_to(tree).as_posix(): os.readlink(p)
            for p in tree.rglob("*") if p.is_symlink()} if tree.is_dir() else None
    if have != want:
        fresh = pkg / f"ascendc.new-{os.getpid()}"
        shutil.rmtree(fresh, ignore_errors=True)
        (fresh / "_" / "_").mkdir(parents=True)
        (fresh / "common").mkdir()
        for rel, target in want.items():
            (fresh / rel).symlink_to(target, target_is_directory=True)
        if tree.exists():
            old = pkg / f"ascendc.old-{os.getpid()}"
            tree.rename(old)
            fresh.rename(tree)
            shutil.rmtree(old)
        else:
            fresh.rename(tree)
    atomic_write_text(pkg / "opkg.yaml", (
        f"# The kernel source tree {repo.name}'s build lays out (gen_ops_info.cmake): ascendc/<op> "
        "is each operator's\n# op_kernel/, ascendc/inc common/inc/op_kernel; links into the "
        "repository, written by `opkg import`.\n"
        f"name: {repo.name}_{KERNEL_TREE}\nversion: 0.1.0\n"
        f"summary: {repo.name}'s kernels as its kernel build sees them (#include \"../<op>/x.h\")\n"
        "include_dirs: [ascendc/_, ascendc/_/_, ascendc/common]\n"))
    return pkg
