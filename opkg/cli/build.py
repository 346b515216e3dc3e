"""`opkg build` and `opkg test`: plan, build through SCons, verify, report."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import (build_options, complete_cases, complete_variants, report_options,
                              server_option, verify_mode_options)
from opkg.core.model import SimModes


def run_build(targets, socs, toolchain, jobs, keep_going, as_json, *, bundle: bool,
              detail: bool, locked: bool = False, explain: bool = False,
              sync_check: bool = False, lenient_copy: bool = False, strict_bounds: bool = False,
              no_wait: bool = False, junit_xml: str | None = None, annotations: str | None = None,
              quiet: bool = False, verbose: bool = False, cases=(), variants=(),
              color: str = "auto", keyword: str | None = None, last_failed: bool = False,
              no_cache: bool = False):
    import sys

    from opkg.ui import ci_output
    from opkg.build import engine
    from opkg.ui.terminal import Progress, summary_line, use_color, verification_table
    from opkg.ui.terminal import echo as ui_echo
    from opkg.core.workspace import Workspace

    # results on stdout and progress on stderr each decide by their own stream (either may be
    # a pipe); click.echo asks the context for the stdout choice
    out_color = use_color(color, sys.stdout)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.color = out_color

    def echo(text):
        ui_echo(text, out_color)

    ws = Workspace.find()
    progress = Progress(ws.root, quiet=quiet, color=use_color(color, sys.stderr))
    reasons: list[dict] = []
    only = ci_output.CaseFilter(cases, variants)
    select = _selection(ws, targets, keyword, cases, variants, last_failed, progress)

    def on_event(event):
        if event["event"] in ("explain", "fastpath"):
            reasons.append(event)
            return
        if explain and event["event"] in ("done", "fail"):
            # a step SCons ran without saying why (it had no record of an earlier build)
            reasons.append({"event": "ran", "description": event["description"],
                            "target": event.get("target")})
        if event["event"] in ("remote_hit", "remote_upload"):
            if explain:
                reasons.append(event)
            return
        if event["event"] == "remote_exec":      # counted in the summary
            return
        if event["event"] == "note":
            message = terminal_note(event["message"], verbose)
            if message is None:
                return
            event = {**event, "message": message}
        if verbose and event["event"] == "start" and event.get("command"):
            progress.line("  $ " + " ".join(event["command"]).replace(
                str(ws.root) + "/", ""))
        progress(event)

    try:
        result = engine.build(ws, list(targets), socs=socs, toolchain=toolchain, jobs=jobs,
                              keep_going=keep_going, bundle=bundle, on_event=on_event,
                              locked=locked, explain=explain, wait=not no_wait,
                              modes=SimModes(sync_check=sync_check, lenient_copy=lenient_copy,
                                             strict_bounds=strict_bounds),
                              select=select or None, fresh_verify=no_cache)
    finally:
        progress.finish()
    if select and not result.targets:
        from opkg.core.errors import UsageError

        pkgs = [p for p in ws.select(list(targets)) if p.op is not None and p.verify]
        names = sorted({c.name for p in pkgs for c in p.verify.cases})
        variants = sorted({v.name for p in pkgs for v in p.op.variants()})
        raise UsageError(f"no verified case matches {select.describe()}",
                         hint="-k takes words joined by and/or/not, matched in case names, "
                              "dtype variants, SoCs and package names, e.g. -k 'float16 and "
                              "not small'; --case/--variant take shell-style patterns; cases "
                              f"here: {', '.join(names) or 'none'}; variants: "
                              f"{', '.join(variants) or 'none'}")
    from opkg.verify.select import update_last_failed

    update_last_failed(ws.settings.output_dir, result, ci_output.case_rows(result, root=ws.root))
    # --case/--variant: the report, the CI files and the exit status cover what was selected
    shown = ci_output.filtered(result, only)
    if only and result.targets and not shown.targets:
        from opkg.core.errors import UsageError

        raise UsageError("no verified case matches " + " ".join(
            [f"--case {c}" for c in only.cases] + [f"--variant {v}" for v in only.variants]),
            hint=_selection_hint(ci_output.build_json(result, root=ws.root)["cases"]))
    if junit_xml:
        ci_output.write_junit(junit_xml, shown, root=ws.root)
    mode = ci_output.annotation_mode(annotations)
    if mode == "github":
        for line in ci_output.build_annotations(shown, root=ws.root):
            click.echo(line, err=True)
    if result.problems and not as_json:
        # --keep-going: the broken manifests, as a run without it would have stopped on them
        from opkg.core.errors import ManifestErrors

        problems = result.problems
        click.echo((ManifestErrors(problems) if len(problems) > 1 else problems[0]).render(),
                   err=True)
    if as_json:
        data = ci_output.build_json(shown, root=ws.root)
        if explain:
            data["explain"] = [{k: e.get(k) for k in ("event", "description", "target",
                                                      "reasons", "used", "reason")}
                               for e in reasons if e["event"] != "ran"]
        ci_output.emit_json(data)
    else:
        if explain:
            echo(explanation(reasons, ws.root))
        if result.nothing:
            echo(result.nothing)
            if result.problems:
                raise SystemExit(2)
            return
        table = _quiet_view(shown) if quiet else shown
        if table.targets:
            echo(verification_table(table, detail=detail, verbose=verbose))
            rerun = _artifacts_note(shown, ws.root)
            if rerun:
                echo(rerun)
        if bundle and not quiet:
            for t in shown.targets:
                if t.bundle is not None:
                    echo(f"bundle: {_rel(t.bundle, ws.root)}")
                elif t.reports or t.not_run:
                    echo(no_bundle_line(t))
            for c in shown.plan.custom_packages:
                if Path(c["run"]).is_file():
                    echo(f"custom package: {_rel(Path(c['run']), ws.root)} (vendor "
                         f"{c['vendor']}: {', '.join(c['operators'])}; {', '.join(c['socs'])})")
        echo(summary_line(shown))
    if not shown.ok:
        # a manifest error is bad input (2) even when --keep-going built the rest
        raise SystemExit(2 if result.problems else 1)


def no_bundle_line(t) -> str:
    """Why a verified target has no bundle: the engine keeps none whose verification did not
    fully pass, and plans none for an operator with untested variants, whose kernels it does
    not compile (nothing would run them)."""
    status = t.variant_status()
    untested = sorted(v for v, s in status.items() if s["status"] == "UNTESTED")
    failed = sorted(v for v, s in status.items() if s["status"] not in ("PASS", "UNTESTED"))
    if untested and not failed:
        names = ", ".join(untested[:6]) + (", ..." if len(untested) > 6 else "")
        return (f"no bundle for {t.package} {t.soc}: {len(untested)} of {len(status)} dtype "
                f"variants are untested (no case is written for their dtypes: {names}); their "
                "kernels were not compiled, and a bundle holds only an operator whose every "
                "variant verified (the reports are in out/sim)")
    return (f"no bundle for {t.package} {t.soc}: not every variant verified and passed (the "
            "reports are in out/sim)")


def _selection(ws, targets, keyword, cases, variants, last_failed: bool, progress):
    """-k, --case, --variant and --lf as one Selection (opkg.verify.select); a bad -k
    expression is a usage error before anything builds. --lf with no recorded failure among
    the targets runs them all, as pytest does."""
    from opkg.core.errors import UsageError
    from opkg.verify.select import BadExpression, Selection, last_failed_path, read_last_failed

    only = None
    if last_failed:
        only = read_last_failed(ws.settings.output_dir)
        if only and targets:
            labels = {p.label for p in ws.select(list(targets))}
            only = {k for k in only if k[0] in labels}
        only = frozenset(only) or None
        if only is None:
            progress({"event": "note", "message": "--lf: no failure of these targets recorded "
                      f"in {_rel(last_failed_path(ws.settings.output_dir), ws.root)}; "
                      "running every selected case"})
    try:
        return Selection(keyword, tuple(cases), tuple(variants), only)
    except BadExpression as exc:
        raise UsageError(str(exc), field="-k",
                         hint="words joined by and, or, not and parentheses, e.g. "
                              "-k 'float16 and not small'") from None


def _selection_hint(rows: list[dict]) -> str:
    """What --case and --variant could have matched: the names the run verified."""
    cases = ", ".join(sorted({r["case"] for r in rows if r.get("case")})) or "none"
    variants = ", ".join(sorted({r["variant"] for r in rows})) or "none"
    return (f"patterns are shell-style (fnmatch, e.g. 'rows_*'); cases here: {cases}; "
            f"variants: {variants}")


def terminal_note(message: str, verbose: bool) -> str | None:
    """Toolchain notes as people need them: 'the package pins no CANN version' is the normal
    case and says nothing new (only with -v); 'no CANN toolkit installed', which differs per
    package only by its pin, becomes one line per invocation (Progress shows a text once)."""
    if message.startswith("sim: the package pins no CANN version") and "--toolchain" not in \
            message:
        return message if verbose else None
    if message.startswith("sim: no CANN toolkit installed") and not verbose:
        return message.split(";")[0] + "; the packages' CANN pins apply once it is installed"
    return message


def _quiet_view(result):
    """-q: only what failed, down to the case (the summary line still counts all)."""
    import copy

    view = copy.copy(result)
    view.targets = []
    for t in result.targets:
        if t.passed:
            continue
        t = copy.copy(t)
        t.reports = {v: {**r, "results": [c for c in r.get("results", []) if not c["passed"]]}
                     for v, r in t.reports.items() if not r.get("passed")}
        t.not_run = dict(t.not_run)
        view.targets.append(t)
    return view


def _artifacts_note(result, root) -> str:
    """For each failing case: where its arrays are and the command that re-runs it alone."""
    import copy

    from opkg.ui import ci_output

    failing = [t for t in result.targets if not t.passed]
    if not failing:
        return ""           # a null build of a large workspace: no rerun command to build
    view = copy.copy(result)
    view.targets = failing
    lines = []
    for row in ci_output.case_rows(view, root=root):
        if row["passed"]:
            continue
        where = f"  arrays: {row['artifacts']}" if row.get("artifacts") else ""
        lines.append(f"re-run {row['package']} {row['soc']} {row['variant']}/"
                     f"{row['case'] or '*'}: {row['rerun']}{where}")
    return "\n".join(lines)


def explanation(events: list[dict], root) -> str:
    """--explain: one line per step that ran, '<step>: <reason>; <reason>'."""
    lines = []
    root = str(root)
    by_step: dict[str, int] = {}       # description -> its line, for the remote cache's word
    explained = {e["description"] for e in events if e["event"] in ("explain", "remote_hit")}
    for e in events:
        if e["event"] == "ran":
            if e["description"] not in explained:
                explained.add(e["description"])
                lines.append(f"{e['description']}: SCons has no record of an earlier build of "
                             "it (a step new to this workspace, or its record was lost)")
            continue
        if e["event"] in ("remote_hit", "remote_upload"):
            what = "restored from the remote cache" if e["event"] == "remote_hit" \
                else "uploaded to the remote cache"
            if e["description"] in by_step:
                lines[by_step[e["description"]]] += f"; {what}"
            else:
                lines.append(f"{e['description']}: {what}")
            continue
        if e["event"] == "fastpath":
            if e["used"]:
                lines.append("nothing to rebuild: no input, output, flag, toolchain or "
                             "environment change since the last build of these targets")
            else:
                lines.append(f"checking every step: {e['reason'].replace(root + '/', '')}")
        else:
            by_step[e["description"]] = len(lines)
            lines.append(f"{e['description']}: {'; '.join(e['reasons'])}")
    steps = sum(1 for e in events if e["event"] in ("explain", "ran", "remote_hit",
                                                   "remote_upload"))
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
@server_option
@click.option("--locked", is_flag=True,
              help="Fail (exit 3) if toolchain resolution differs from opkg.lock (for CI).")
@verify_mode_options
@report_options
def build(targets, socs, toolchain, jobs, keep_going, as_json, no_wait, locked, explain,
          sync_check, lenient_copy, strict_bounds, junit_xml, annotations, quiet, verbose, color):
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
              strict_bounds=strict_bounds, no_wait=no_wait, junit_xml=junit_xml,
              annotations=annotations, quiet=quiet, verbose=verbose, color=color)


@click.command()
@build_options
@server_option
@verify_mode_options
@report_options
@click.option("--case", "cases", multiple=True, metavar="PATTERN", shell_complete=complete_cases,
              help="Only cases whose name matches (shell-style, repeatable).")
@click.option("--variant", "variants", multiple=True, metavar="PATTERN",
              shell_complete=complete_variants,
              help="Only dtype variants that match, e.g. float16 or 'float*' (repeatable).")
@click.option("-k", "keyword", metavar="EXPR",
              help="Only cases matching EXPR, as pytest's -k: words joined by and/or/not, each "
                   "a substring of the case name, dtype variant, SoC or package name.")
@click.option("--lf", "--last-failed", "--rerun-failed", "last_failed", is_flag=True,
              help="Only what failed (or did not run) last time, as recorded in "
                   "out/.opkg/last-failed.json; everything when nothing is recorded.")
@click.option("--no-cache", is_flag=True,
              help="Run verification even when its result is cached or up to date (the "
                   "failing cases' arrays are written again); compiled libraries are reused.")
def test(targets, socs, toolchain, jobs, keep_going, as_json, no_wait, explain, sync_check,
         lenient_copy, strict_bounds, junit_xml, annotations, quiet, verbose, color, cases,
         variants, keyword, last_failed, no_cache):
    """Verify packages against their NumPy goldens and print the full report.

    Builds what verification needs (no bundles) and prints every case with its errors and
    kernel log. Verification results are build outputs: an unchanged package is not re-run
    (--no-cache runs it). Selecting cases (-k, --lf, --case, --variant) runs only those.

    A failing case's inputs, outputs and golden are saved as .npy files next to its report
    (out/sim/<package>/<SoC>/<variant>/failed/<case>/), with reproduce.sh: the one command
    that runs it alone again. What the operator's tiling and InferShape functions printed is
    shown with a failure, and with -v.

    \b
    Examples:
      opkg test //packages/layernorm
      opkg test //... --json
      opkg test --lf                              only what failed last time
      opkg test //packages/layernorm -k 'float16 and rows_uneven'
      opkg test //packages/add_custom --variant float16 --case even --no-cache
      opkg test //packages/softmax --sync-check
      opkg test //... --junit-xml junit.xml -q     CI: JUnit report, only failures shown
      opkg test //packages/my_op --lenient-copy   what the device computed with a ragged DataCopy

    --sync-check, --lenient-copy and --strict-bounds run the same kernel libraries (no
    recompile); their results are kept apart from default runs.

    Exit status: 0 every selected case passed (an xfail case that failed counts as passed),
    1 a step or a case failed (or an xfail case passed), 2 bad input, 3 toolchain
    misalignment, 4 another build runs here (--no-wait), 130 interrupted.
    """
    run_build(targets, socs, toolchain, jobs, keep_going, as_json, bundle=False, detail=True,
              explain=explain, sync_check=sync_check, lenient_copy=lenient_copy,
              strict_bounds=strict_bounds, no_wait=no_wait, junit_xml=junit_xml,
              annotations=annotations, quiet=quiet, verbose=verbose, cases=cases,
              variants=variants, color=color, keyword=keyword, last_failed=last_failed,
              no_cache=no_cache)
