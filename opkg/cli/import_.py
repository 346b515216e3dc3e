"""`opkg import`: an msopgen project (prototype JSON, op_host/, op_kernel/) -> a package."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import complete_socs
from opkg.ui.ci_output import emit_json


@click.command(name="import")
@click.argument("project_dir", type=click.Path(path_type=Path))
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              help="The package directory to create; its last part is the package name "
                   "(default: the workspace's first package root / PROJECT_DIR's name in "
                   "snake_case). For an ops repository: the directory the <family>/<op> "
                   "packages go under (default: <first package root>/<repository name>).")
@click.option("--soc", metavar="SOC", shell_complete=complete_socs,
              help="Ops repository: the SoC to build for (default: the workspace's first "
                   "default_socs, else Ascend910B1); its CMake compute unit picks the sources.")
@click.option("--repo-name", metavar="NAME",
              help="Ops repository: its name in @NAME//path labels (default: the checkout's "
                   "directory name, ops-nn -> ops_nn).")
@click.option("--base", "base", type=click.Path(file_okay=False, exists=True, path_type=Path),
              metavar="OPBASE_DIR",
              help="Ops repository: a checkout of its base library (hicann/opbase), added to "
                   "the workspace as repository 'opbase' with the include directories and "
                   "sources the ops repository's CMake uses.")
@click.option("--dep", "deps", multiple=True, metavar="@REPO//:LIB",
              help="Ops repository: a library every operator depends on (default: every "
                   "library of the workspace's repository 'opbase').")
@click.option("--force", is_flag=True,
              help="Replace the package at --dest (imported beside it first: a failed import "
                   "leaves it as it was).")
@click.option("--golden", metavar="FILE:FUNC",
              help="A NumPy reference to copy into the package (else a stub that fails).")
@click.option("--prototype", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE", help="msopgen's prototype JSON, when PROJECT_DIR holds none or several.")
@click.option("--op", "op_type", metavar="TYPE", help="Which op, when the JSON has several.")
@click.option("--json", "as_json", is_flag=True,
              help="Print what was imported as JSON on stdout (errors too).")
def import_(project_dir, dest, soc, repo_name, base, deps, golden, json_path, op_type, as_json,
            force):
    """Turn an msopgen project into a package at --dest, or import operators of an ops
    repository checkout (hicann/ops-nn and its siblings) where they are.

    A path inside an ops repository (an operator directory, a family directory or the
    repository itself) imports each operator with a classic kernel following the repository's
    CMake rules: one manifest per operator whose sources are @REPO//path labels (nothing
    copied), the repository's tests/assets/golden.py as golden and its ttk tables as cases; the
    workspace file gets the repository under repositories: (see docs/import.md).

    The manifest's prototype comes from msopgen's input JSON (input_desc, output_desc, attr),
    its SoCs from the AddConfig("<short name>") calls in op_host/ (one SoC table row per short
    name; the choice is printed). op_host/ and op_kernel/ are copied unchanged. One default
    verification case is generated from the prototype: review it.

    Without --golden the package gets a golden.py stub that raises, and `opkg build` fails
    with "golden missing" until it is written: an import never verifies by accident.

    \b
    Examples:
      opkg import ~/msopgen/LeakyReluCustom       packages/leaky_relu_custom
      opkg import ~/msopgen/LeakyReluCustom --dest packages/leaky_relu_imported --force
      opkg import ./AddCustom --dest packages/add2 --golden ref.py:add
      opkg import ./Ops --dest packages/my_op --prototype Ops/ops.json --op MyOpCustom
      opkg import ../ops-nn/norm/rms_norm --base ../opbase

    Exit status: 0 imported, 2 bad input (unreadable or malformed JSON, missing sources).
    """
    from opkg.importers.repository import repository_root

    if repository_root(project_dir) is not None:
        return _import_repository(project_dir, dest, soc, repo_name, base, deps, as_json)
    from opkg.importers.destination import find_workspace
    from opkg.importers.project import import_project

    ws = find_workspace()    # None outside a workspace: the built-in SoC table applies
    root = ws.root if ws is not None else None
    if dest is None:
        dest = _default_dest(project_dir, ws)
    result = import_project(project_dir, dest, golden=golden, json_path=json_path,
                            op_type=op_type, root=root, force=force)
    if result.library is not None:
        result.notes.append(_add_library(result.library, root))
    if as_json:
        emit_json({"ok": True, "op_type": result.op_type, "dest": str(dest),
                   "socs": result.socs, "notes": result.notes,
                   "golden_missing": result.golden_missing})
        return
    click.echo(f"imported {result.op_type} into {dest} (socs: {', '.join(result.socs)})")
    for note in result.notes:
        click.echo(f"  {note}")
    click.echo("  review the generated case in opkg.yaml (verify.cases)")
    if result.golden_missing:
        click.echo(f"  golden missing: write {dest}/golden.py before building "
                   "(the build fails until then)")


def _add_library(library, ws_root: Path) -> str:
    """The corpus of a project's shared host library, added to the workspace's repositories:
    with that library (its commit when the corpus is the top of a git work tree, which is what
    a `path:` with `commit:` pins); one sentence saying what was done."""
    import subprocess

    from opkg.importers import repository, repository_workspace

    try:
        top = subprocess.run(["git", "-C", str(library.root), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        top = ""
    commit = (repository.git_commit(library.root)
              if top and Path(top).resolve() == library.root.resolve() else None)
    return repository_workspace.update_workspace(
        ws_root, library.repository, library.entry(ws_root, commit),
        f"{library.root.name}: the shared host library its projects' CMakeLists.txt build into "
        "their tiling library (opkg import)")


def _default_dest(project_dir: Path, ws) -> Path:
    """The workspace's first package root / the project directory's name in snake_case."""
    import re

    from opkg.core.errors import UsageError
    from opkg.core.model import snake_case
    from opkg.core.workspace import WORKSPACE_FILE

    if ws is None or not ws.settings.package_roots:
        raise UsageError(f"no {WORKSPACE_FILE} in {Path.cwd()} or any parent directory, and no "
                         "--dest", field="--dest",
                         hint="name the package directory with --dest DIR, or create a "
                              "workspace first (opkg init) and import inside it")
    name = re.sub(r"[^a-z0-9_]+", "_", snake_case(project_dir.resolve().name)).strip("_")
    dest = ws.settings.package_roots[0] / name
    try:
        return dest.relative_to(Path.cwd().resolve())
    except ValueError:
        return dest


def _import_repository(target: Path, dest, soc, repo_name, base, deps, as_json) -> None:
    from opkg.core.errors import UsageError
    from opkg.importers import repository, repository_workspace as workspace_entries
    from opkg.importers.destination import find_workspace

    ws = find_workspace()
    if ws is None:
        raise UsageError("importing from an ops repository needs a workspace (its "
                         "repositories: entry is written there)",
                         hint="run inside a directory with opkg-workspace.yaml (an empty file "
                              "will do)")
    soc = soc or (ws.settings.default_socs[0] if ws.settings.default_socs else "Ascend910B1")
    row = ws.socs.get(soc)
    if row is None:
        raise UsageError(f"unknown SoC {soc!r}", field="--soc")
    repo = repository.open_repository(target, repo_name)
    notes = []
    if base is not None:
        notes.append(workspace_entries.update_workspace(
            ws.root, "opbase", workspace_entries.base_entry(repo, base, ws.root),
            f"the base library, as {repo.name}'s CMake uses it (FindOPBASE.cmake, "
            "add_opbase_modules)"))
    base_deps, base_dirs = workspace_entries.workspace_libraries(ws.root, "opbase")
    deps = list(deps) or base_deps
    dest = dest or ws.settings.package_roots[0] / repo.name
    if not Path(dest).resolve().is_relative_to(ws.root):
        raise UsageError(f"--dest {dest} is outside the workspace {ws.root}", field="--dest")
    tree = workspace_entries.write_kernel_tree(repo, dest)
    result = repository.import_repository(target, unit=row.short, soc=soc, dest_root=dest,
                                          tree_label="//" + ws.rel(tree),
                                          name=repo.name, extra_include_dirs=base_dirs,
                                          deps=deps)
    notes.append(workspace_entries.update_workspace(
        ws.root, repo.name, workspace_entries.repository_entry(repo, ws.root),
        f"imported by `opkg import`: {repo.name}'s own sources, used in place; `common` is "
        "what its CMake gives every compile"))
    # each written manifest loads, or its operator is not imported (the workspace, reloaded,
    # names the repository now)
    repository.check_imported(result, find_workspace())
    note = "; ".join(notes)
    done = [o for o in result.operators if o.dest is not None]
    if as_json:
        emit_json({"ok": True, "repository": repo.name, "commit": repo.commit,
                   "workspace": note, "deps": deps,
                   "operators": [{"path": o.path, "op_type": o.op_type,
                                  "dest": str(o.dest) if o.dest else None,
                                  "skipped": o.skipped, "golden": o.golden,
                                  "cases_from": o.cases_from, "notes": o.notes}
                                 for o in result.operators]})
        return
    click.echo(f"{repo.name} at {repo.commit[:12] if repo.commit else '(not a git checkout)'}: "
               f"imported {len(done)} of {len(result.operators)} operator(s) for {soc} "
               f"into {ws.rel(dest) or '.'}")
    click.echo(f"  {note}")
    if not deps:
        click.echo("  the workspace names no repository 'opbase' with libraries: the operators "
                   "depend on none (add it, or pass --dep @REPO//:LIB; docs/import.md)")
    for o in result.operators:
        if o.skipped:
            click.echo(f"  skipped {o.path}: {o.skipped}")
            for n in o.notes:
                if n.startswith("hint: "):
                    click.echo(f"    {n}")
            continue
        click.echo(f"  {o.path} -> {o.op_type} ({'golden' if o.golden else 'golden stub'}; "
                   f"cases from {o.cases_from or 'a default shape: review them'})")
        for n in o.notes:
            click.echo(f"    {n}")
