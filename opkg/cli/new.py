"""`opkg new`: a package from the templates in opkg/templates/ that builds and verifies as is."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import complete_socs


@click.command()
@click.argument("name")
@click.option("--op-type", metavar="TYPE",
              help="The operator type in CamelCase (kernel entry = its snake_case); default: "
                   "NAME in CamelCase (my_add: MyAdd, kernel entry my_add).")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory to create (default: NAME under the workspace's first package root).")
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
              help="A SoC to build for (repeatable; default Ascend910B1).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def new(name, op_type, dest, socs, as_json):
    """Create package NAME: an element-wise operator (z = x + y, float16 and float32) with
    tiling, OpDef, kernel, NumPy golden and cases, ready to build and verify.

    The kernel splits the elements across cores in 32-byte blocks, double-buffers tiles through
    UB, and moves a ragged end with DataCopyPad; cases cover an even split, an uneven split, a
    length that is not a multiple of 32 bytes and a single element. Edit the arithmetic in
    op_kernel/ and golden.py, keep the prototype in op_host/ and opkg.yaml the same.

    Outside a workspace it stops and says how to make one (`opkg init`).

    \b
    Examples:
      opkg new my_add                             op type MyAdd
      opkg new my_add --op-type MyAddCustom
      opkg build packages/my_add
      opkg new scaled_add --op-type ScaledAddCustom --dest ops/scaled_add --soc Ascend910B4
    """
    from opkg.core.errors import UsageError
    from opkg.importers.destination import find_workspace
    from opkg.importers.new import new_package, op_type_for
    from opkg.core.workspace import WORKSPACE_FILE

    ws = find_workspace()
    if ws is None:
        # a package outside a workspace is found by no later command: say how to make one
        raise UsageError(f"no {WORKSPACE_FILE} in {Path.cwd()} or any parent directory: "
                         f"{name} would belong to no workspace",
                         hint=f"create one first: opkg init (here) or opkg init DIR, then "
                              f"opkg new {name} inside it; opkg init also writes a sample package")
    root = ws.root
    if dest is None:
        # the workspace's first package root, where `opkg build //...` will find it
        dest = (ws.settings.package_roots[0] / name) if ws.settings.package_roots else Path(name)
    dest = Path(dest)
    try:
        dest = dest.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        pass
    written = new_package(name, op_type, dest, tuple(socs) or ("Ascend910B1",), root)
    if as_json:
        from opkg.ui.ci_output import emit_json

        emit_json({"created": str(dest), "files": [str(p.relative_to(dest)) for p in written],
                   "next": f"opkg build {dest}"})
        return
    if op_type is None:
        click.echo(f"op type {op_type_for(name)} (from the name; --op-type chooses another)")
    click.echo(f"created {dest}: {len(written)} file(s)")
    for path in written:
        click.echo(f"  {path.relative_to(dest)}")
    click.echo(f"next: opkg build {dest}")
