"""`opkg profile`: the kernel profile model (docs/profile.md) read back from built
verification reports, as a table per package, SoC, variant and case, or as JSON."""

from __future__ import annotations

import click

from opkg.cli.options import complete_socs, complete_targets

from opkg.build.results import read_report, variant_reports
from opkg.ui.ci_output import emit_json

MODEL_LABEL = ("MODEL, not a measurement: estimated from the sim's counts of GM bytes, copies "
               "and vector work with the SoC table's figures (docs/profile.md)")


@click.command()
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
              help="Only these SoCs (repeatable). Default: each package's own list.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON on stdout.")
def profile(targets, socs, as_json):
    """Show the kernel profile of built packages: estimated time per SoC (a roofline model,
    not a measurement), GM traffic, copies, vector instructions, UB use, queue depth, tile size.

    TARGETS are labels, patterns, paths or package names (default //...). The profile is
    recorded by verification (`opkg build` or `opkg test`), one per case; this command only
    reads it, so build first.

    \b
    Examples:
      opkg build //packages/layernorm && opkg profile //packages/layernorm
      opkg profile //... --soc Ascend910B4
      opkg profile //packages/add_custom --json
    """
    from opkg.core.workspace import Workspace

    ws = Workspace.find()
    rows, missing = collect(ws, list(targets), socs)
    if as_json:
        emit_json({"model": True, "note": MODEL_LABEL, "profiles": rows, "missing": missing})
        return
    click.echo(render(rows))
    for m in missing:
        click.echo(f"not built: {m['package']} {m['soc']} {m['variant']} "
                   f"(build it: opkg build {m['label']} --soc {m['soc']})", err=True)


def collect(ws, targets: list[str], socs=()) -> tuple[list[dict], list[dict]]:
    """One row per (package, SoC, variant, case) from the reports on disk, and the reports
    that do not exist yet. A selection with no report at all is an error saying to build."""
    from opkg.core.errors import UsageError


    for s in socs:
        ws.socs.get_soc(s)      # an unknown name is an error with a did-you-mean
    pkgs = [p for p in ws.select(targets) if p.op is not None]
    if not pkgs:
        raise UsageError("no operator package matches " + " ".join(targets or ["//..."]),
                         hint="see `opkg query packages`")
    rows, missing = [], []
    for entry, path in variant_reports(ws, pkgs, socs):
        report = read_report(path, entry)
        if report is None:
            missing.append(entry)
            continue
        if report.get("error"):
            rows.append({**entry, "case": None, "error": report["error"], "profile": None})
        for case in report.get("results", []):
            rows.append({**entry, "case": case["case"], "error": case.get("error"),
                         "profile": _priced(case.get("profile"), ws.socs.get_soc(entry["soc"]))})
    if not rows:
        first = missing[0] if missing else None
        raise UsageError(
            "no verification report to read the profile from"
            + (f" ({first['package']} on {first['soc']} is not built)" if first else
               " (no selected package targets these SoCs)"),
            hint="build first: opkg build " + " ".join(targets or ["//..."])
                 + "".join(f" --soc {s}" for s in socs))
    return rows, missing


def _priced(profile: dict | None, soc) -> dict | None:
    """The profile with its estimate made now, by this opkg's model and SoC table, so the
    advice matches the counters even in a report an older opkg wrote."""
    if not profile or "counters" not in profile:
        return profile
    from opkg.sim.profile import estimate
    return {**profile, "estimate": estimate(profile["counters"], soc)}


COLUMNS = ("package", "soc", "variant", "case", "est us", "copy us", "compute us", "copy %",
           "bound", "GM MiB", "copies (<512B)", "vec instrs", "UB peak", "queue", "tile B")


def render(rows: list[dict]) -> str:
    table = [COLUMNS]
    # note -> (package, soc) -> cases: each note printed once, with what it applies to
    notes: dict[str, dict[tuple, int]] = {}

    def note(text, r):
        where = notes.setdefault(text, {})
        where[(r["package"], r["soc"])] = where.get((r["package"], r["soc"]), 0) + 1

    for r in rows:
        head = (r["package"], r["soc"], r["variant"], r["case"] or "-")
        p = r.get("profile")
        if not p:
            why = "failed: " + r["error"].splitlines()[0] if r.get("error") else \
                ("no profile in this report: built by an opkg without profiles (rebuild), or "
                 "blockDim above the 4096 blocks the sim profiles")
            notes.setdefault(f"{' '.join(head)}: {why}", {})
            continue
        c, e = p["counters"], p["estimate"]
        copies = sum(c["copies"][d]["count"] for d in ("gm_to_ub", "ub_to_gm"))
        queue = "-" if not c["queues"] else (
            str(c["min_queue_buffers"]) if c["min_queue_buffers"] == c["max_queue_buffers"]
            else f"{c['min_queue_buffers']}-{c['max_queue_buffers']}")
        if e.get("total_us") is None:
            timing = ("-", "-", "-", "-", "-")
        else:
            timing = (_us(e["total_us"]), _us(e["copy_us"]), _us(e["compute_us"]),
                      f"{e['copy_share']:.0%}", e["bound"])
        if e.get("note"):
            note(e["note"], r)
        table.append((*head, *timing, f"{c['gm_bytes'] / 2**20:.3f}",
                      f"{copies} ({c['small_copies']})", str(c["vector"]["calls"]),
                      _size(c["ub_alloc_bytes"]), queue, str(c["tile_bytes"])))
    widths = [max(len(str(row[i])) for row in table) for i in range(len(COLUMNS))]
    text_cols = 4   # package, soc, variant, case: left-aligned; numbers right-aligned
    lines = [click.style(MODEL_LABEL, bold=True)]
    for n, row in enumerate(table):
        cells = [str(v).ljust(w) if i < text_cols else str(v).rjust(w)
                 for i, (v, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    for text, where in notes.items():
        scope = ", ".join(f"{pkg} on {soc} ({n} case{'s' if n != 1 else ''})"
                          for (pkg, soc), n in where.items())
        lines.append(f"note: {text}" + (f" [{scope}]" if scope else ""))
    return "\n".join(lines)


def _us(v: float) -> str:
    return f"{v:.1f}" if v >= 100 else f"{v:.3g}"   # three significant digits, never 1e+03


def _size(n: int) -> str:
    return f"{n / 1024:.1f}K" if n >= 1024 else f"{n}B"
