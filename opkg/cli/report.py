"""`opkg report`: the verification table, failing cases' errors, the kernel profile and the
package graph of built packages, as one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import complete_socs, complete_targets


@click.command()
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@click.option("-o", "--output", "output", metavar="FILE", type=click.Path(dir_okay=False),
              help="Where to write the page. Default: report.html in the output directory.")
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
              help="Only these SoCs (repeatable). Default: each package's own list.")
def report(targets, output, socs):
    """Write an HTML report of built packages: one file that opens without a network.

    TARGETS are labels, patterns, paths or package names (default //...). The page shows
    every verification case per package, SoC and dtype variant; for each failing case a
    heatmap of its errors over the output and a histogram of them; the kernel profile (a
    model, not a measurement) as a roofline per SoC, the per-block load balance and the
    copy sizes; and the package dependency graph. It reads what `opkg build` or `opkg test`
    wrote and runs nothing: build first. Needs plotly (the `report` extra).

    \b
    Examples:
      opkg test //... ; opkg report -o report.html
      opkg report //packages/layernorm --soc Ascend910B1 -o layernorm.html
    """
    from opkg.util.fsutil import atomic_write_text
    from opkg.report import require_plotly
    from opkg.core.workspace import Workspace

    require_plotly()
    from opkg.report import data, page

    ws = Workspace.find()
    found = data.collect(ws, list(targets), socs)
    html, count = page.render(found)
    dest = Path(output) if output else ws.settings.output_dir / "report.html"
    atomic_write_text(dest, html)
    failed = sum(1 for r in found.rows if not r["passed"])
    click.echo(f"wrote {_shown(dest)}: {len(found.rows)} cases ({failed} failed), "
               f"{count} figures")
    for m in found.missing:
        click.echo(f"not built: {m['package']} {m['soc']} {m['variant']} "
                   f"(build it: opkg build {m['label']} --soc {m['soc']})", err=True)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
