"""`opkg init`: a new workspace (opkg-workspace.yaml, .gitignore, a sample package)."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import complete_socs


@click.command()
@click.argument("directory", required=False, default=".",
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--sample", default="my_add", metavar="NAME", show_default=True,
              help="Name of the sample package written under packages/.")
@click.option("--no-sample", is_flag=True, help="Write no sample package.")
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
              help="A SoC the sample package builds for (repeatable; default Ascend910B1).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def init(directory, sample, no_sample, socs, as_json):
    """Make DIRECTORY (default: here) an opkg workspace: opkg-workspace.yaml with every key
    documented in comments, a .gitignore for out/ and the local registry, and a sample
    element-wise package (z = x + y) that builds and verifies as is.

    \b
    Examples:
      opkg init my_ops && cd my_ops && opkg build //...
      opkg init . --no-sample
    """
    from opkg.importers.new import init_workspace

    sample = None if no_sample else sample
    written = init_workspace(directory, sample, None, tuple(socs) or ("Ascend910B1",))
    here = Path.cwd().resolve()
    shown = directory.resolve()
    shown = shown.relative_to(here) if shown.is_relative_to(here) else shown
    enter = "" if shown == Path(".") else f"cd {shown} && "
    step = f"{enter}opkg build //..." if sample else f"{enter}opkg new NAME"
    if as_json:
        from opkg.ui.ci_output import emit_json

        emit_json({"created": str(shown), "files": [str(p.relative_to(directory))
                                                     for p in written], "next": step})
        return
    click.echo(f"created workspace {shown}: {len(written)} file(s)")
    for path in written:
        click.echo(f"  {path.relative_to(directory)}")
    click.echo(f"next: {step}")
