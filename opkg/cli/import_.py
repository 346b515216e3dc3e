"""`opkg import`: an msopgen project (prototype JSON, op_host/, op_kernel/) -> a package."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.ui.ci_output import emit_json


@click.command(name="import")
@click.argument("project_dir", type=click.Path(path_type=Path))
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              help="The package directory to create; its last part is the package name "
                   "(default: the workspace's first package root / PROJECT_DIR's name in "
                   "snake_case).")
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
def import_(project_dir, dest, golden, json_path, op_type, as_json, force):
    """Turn an msopgen project into a package at --dest.

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

    Exit status: 0 imported, 2 bad input (unreadable or malformed JSON, missing sources).
    """
    from opkg.importers.destination import find_workspace
    from opkg.importers.project import import_project

    ws = find_workspace()    # None outside a workspace: the built-in SoC table applies
    root = ws.root if ws is not None else None
    if dest is None:
        dest = _default_dest(project_dir, ws)
    result = import_project(project_dir, dest, golden=golden, json_path=json_path,
                            op_type=op_type, root=root, force=force)
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
