"""`opkg new`: a package from the templates in opkg/templates/ that builds and verifies as is."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("name")
@click.option("--op-type", required=True, metavar="TYPE",
              help="The operator type in CamelCase (kernel entry = its snake_case).")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory to create (default: NAME under the workspace's first package root).")
@click.option("--soc", "socs", multiple=True, metavar="SOC",
              help="A SoC to build for (repeatable; default Ascend910B1).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def new(name, op_type, dest, socs, as_json):
    """Create package NAME: an element-wise operator (z = x + y, float16 and float32) with
    tiling, OpDef, kernel, NumPy golden and cases, ready to build and verify.

    The kernel splits the elements across cores in 32-byte blocks, double-buffers tiles through
    UB, and moves a ragged end with DataCopyPad; cases cover an even split, an uneven split, a
    length that is not a multiple of 32 bytes and a single element. Edit the arithmetic in
    op_kernel/ and golden.py, keep the prototype in op_host/ and opkg.yaml the same.

    \b
    Examples:
      opkg new my_add --op-type MyAddCustom
      opkg build packages/my_add
      opkg new scaled_add --op-type ScaledAddCustom --dest ops/scaled_add --soc Ascend910B4
    """
    from opkg.importers.destination import find_workspace
    from opkg.importers.new import new_package

    ws = find_workspace()    # None outside a workspace: the built-in SoC table applies
    root = ws.root if ws is not None else None
    if dest is None:
        # the workspace's first package root, where `opkg build //...` will find it
        dest = (ws.settings.package_roots[0] / name) if ws is not None and \
            ws.settings.package_roots else Path(name)
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
    click.echo(f"created {dest}: {len(written)} file(s)")
    for path in written:
        click.echo(f"  {path.relative_to(dest)}")
    click.echo(f"next: opkg build {dest}")
