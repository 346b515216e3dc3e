"""`opkg build` and `opkg test`: plan, build through SCons, verify, report."""

from __future__ import annotations

import json

import click

from opkg.cli.options import build_options


def run_build(targets, socs, toolchain, jobs, keep_going, as_json, *, bundle: bool,
              detail: bool, locked: bool = False):
    from opkg import engine
    from opkg.ui import Progress, summary_line, verification_table
    from opkg.workspace import Workspace

    ws = Workspace.find()
    progress = Progress(ws.root, quiet=False)
    try:
        result = engine.build(ws, list(targets), socs=socs, toolchain=toolchain, jobs=jobs,
                              keep_going=keep_going, bundle=bundle, on_event=progress,
                              locked=locked)
    finally:
        progress.finish()
    if as_json:
        click.echo(json.dumps(result.to_json(), indent=2))
    else:
        if result.targets:
            click.echo(verification_table(result, detail=detail))
        if bundle:
            for path in result.bundles:
                click.echo(f"bundle: {_rel(path, ws.root)}")
        click.echo(summary_line(result))
    if not result.ok:
        raise SystemExit(1)


def _rel(path, root) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


@click.command()
@build_options
@click.option("--locked", is_flag=True,
              help="Fail (exit 3) if toolchain resolution differs from opkg.lock (for CI).")
def build(targets, socs, toolchain, jobs, keep_going, as_json, locked):
    """Build, verify and bundle packages.

    TARGETS are labels (//packages/layernorm), patterns (//packages/..., //...), paths
    (packages/layernorm) or package names; default //... (everything).

    Each package is compiled for each of its SoCs and dtype variants, every verification case
    runs against the package's NumPy golden, and one bundle per (package, SoC, toolchain) is
    written to out/bundles/. Unchanged work is skipped; work done before, here or on another
    checkout sharing the cache, is restored from the cache.

    \b
    Examples:
      opkg build packages/layernorm
      opkg build //... -j 8 --keep-going
      opkg build //packages/add_custom --soc Ascend910B1 --json
      opkg build //... --locked                 CI: toolchains exactly as in opkg.lock

    Toolchain alignment (CANN, driver, SoC against each package's pins) is checked before
    anything compiles; see `opkg toolchain check`.

    Exit status: 0 all verified, 1 a step or a case failed, 2 bad input, 3 toolchain
    misalignment.
    """
    run_build(targets, socs, toolchain, jobs, keep_going, as_json, bundle=True, detail=False,
              locked=locked)


@click.command()
@build_options
def test(targets, socs, toolchain, jobs, keep_going, as_json):
    """Verify packages against their NumPy goldens and print the full report.

    Builds what verification needs (no bundles) and prints every case with its errors and
    kernel log. Verification results are build outputs: an unchanged package is not re-run.

    \b
    Examples:
      opkg test //packages/layernorm
      opkg test //... --json
    """
    run_build(targets, socs, toolchain, jobs, keep_going, as_json, bundle=False, detail=True)
