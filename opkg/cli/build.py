"""`opkg build` and `opkg test`: plan, build through SCons, verify, report."""

from __future__ import annotations

import json

import click

from opkg.cli.options import build_options, verify_mode_options
from opkg.model import SimModes


def run_build(targets, socs, toolchain, jobs, keep_going, as_json, *, bundle: bool,
              detail: bool, locked: bool = False, explain: bool = False,
              sync_check: bool = False, lenient_copy: bool = False, strict_bounds: bool = False,
              no_wait: bool = False):
    from opkg import engine
    from opkg.ui import Progress, summary_line, verification_table
    from opkg.workspace import Workspace

    ws = Workspace.find()
    progress = Progress(ws.root, quiet=False)
    reasons: list[dict] = []

    def on_event(event):
        if event["event"] in ("explain", "fastpath"):
            reasons.append(event)
        else:
            progress(event)

    try:
        result = engine.build(ws, list(targets), socs=socs, toolchain=toolchain, jobs=jobs,
                              keep_going=keep_going, bundle=bundle, on_event=on_event,
                              locked=locked, explain=explain, wait=not no_wait,
                              modes=SimModes(sync_check=sync_check, lenient_copy=lenient_copy,
                                             strict_bounds=strict_bounds))
    finally:
        progress.finish()
    if as_json:
        data = result.to_json()
        if explain:
            data["explain"] = [{k: e.get(k) for k in ("event", "description", "target",
                                                      "reasons", "used", "reason")}
                               for e in reasons]
        click.echo(json.dumps(data, indent=2))
    else:
        if explain:
            click.echo(explanation(reasons, ws.root))
        if result.nothing:
            click.echo(result.nothing)
            return
        if result.targets:
            click.echo(verification_table(result, detail=detail))
        if bundle:
            for t in result.targets:
                if t.bundle is None:
                    continue
                # a failed verification still bundles (the report travels with it, for CI);
                # say so, since publishing refuses it
                label = "bundle" if t.passed else "bundle (verification failed; publish refuses it)"
                click.echo(f"{label}: {_rel(t.bundle, ws.root)}")
        click.echo(summary_line(result))
    if not result.ok:
        raise SystemExit(1)


def explanation(events: list[dict], root) -> str:
    """--explain: one line per step that ran, '<step>: <reason>; <reason>'."""
    lines = []
    root = str(root)
    for e in events:
        if e["event"] == "fastpath":
            if e["used"]:
                lines.append("nothing to rebuild: no input, output, flag, toolchain or "
                             "environment change since the last build of these targets")
            else:
                lines.append(f"checking every step: {e['reason'].replace(root + '/', '')}")
        else:
            lines.append(f"{e['description']}: {'; '.join(e['reasons'])}")
    steps = sum(1 for e in events if e["event"] == "explain")
    if any(e["event"] == "fastpath" and not e["used"] for e in events) and not steps:
        lines.append("nothing to rebuild: every step is up to date")
    return "\n".join(lines)


def _rel(path, root) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


@click.command()
@build_options
@click.option("--locked", is_flag=True,
              help="Fail (exit 3) if toolchain resolution differs from opkg.lock (for CI).")
@verify_mode_options
def build(targets, socs, toolchain, jobs, keep_going, as_json, no_wait, locked, explain,
          sync_check, lenient_copy, strict_bounds):
    """Build, verify and bundle packages.

    TARGETS are labels (//packages/layernorm), patterns (//packages/..., //...), paths
    (packages/layernorm) or package names; default //... (everything).

    Each package is compiled for each of its SoCs and dtype variants, every verification case
    runs against the package's NumPy golden, and one bundle per (package, SoC, toolchain) is
    written to out/bundles/. Unchanged work is skipped; work done before with the same
    sources, flags and toolchain, here or in another checkout sharing the cache, is restored
    from the cache, and the bundles are byte-identical wherever the checkout lives.

    \b
    Examples:
      opkg build packages/layernorm
      opkg build //... -j 8 --keep-going
      opkg build //packages/add_custom --soc Ascend910B1 --json
      opkg build //... --locked                 CI: toolchains exactly as in opkg.lock
      opkg build //... --sync-check             also check pipe synchronisation

    Toolchain alignment (CANN, driver, SoC against each package's pins) is checked before
    anything compiles; see `opkg toolchain check`.

    One build at a time per workspace: a second one waits for the first (or, with --no-wait,
    fails with exit status 4).

    Exit status: 0 all verified, 1 a step or a case failed, 2 bad input, 3 toolchain
    misalignment, 4 another build runs here (--no-wait), 130 interrupted.
    """
    run_build(targets, socs, toolchain, jobs, keep_going, as_json, bundle=True, detail=False,
              locked=locked, explain=explain, sync_check=sync_check, lenient_copy=lenient_copy,
              strict_bounds=strict_bounds, no_wait=no_wait)


@click.command()
@build_options
@verify_mode_options
def test(targets, socs, toolchain, jobs, keep_going, as_json, no_wait, explain, sync_check,
         lenient_copy, strict_bounds):
    """Verify packages against their NumPy goldens and print the full report.

    Builds what verification needs (no bundles) and prints every case with its errors and
    kernel log. Verification results are build outputs: an unchanged package is not re-run.

    \b
    Examples:
      opkg test //packages/layernorm
      opkg test //... --json
      opkg test //packages/softmax --sync-check
      opkg test //packages/my_op --lenient-copy   what the device computed with a ragged DataCopy

    --sync-check, --lenient-copy and --strict-bounds run the same kernel libraries (no
    recompile); their results are kept apart from default runs.
    """
    run_build(targets, socs, toolchain, jobs, keep_going, as_json, bundle=False, detail=True,
              explain=explain, sync_check=sync_check, lenient_copy=lenient_copy,
              strict_bounds=strict_bounds, no_wait=no_wait)
