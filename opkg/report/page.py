"""The HTML page of `opkg report`: report data and figures laid out in one self-contained file
(plotly.js inlined once, no other resource), from the Jinja2 template
opkg/templates/report.html.j2 (autoescaped: names and kernel messages are data, not markup).
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from opkg import __version__
from opkg.report import figures
from opkg.report.data import ReportData

CONFIG = {"displaylogo": False, "responsive": True}


class _Figures:
    """Figures as HTML fragments with ids stable from one run to the next."""

    def __init__(self):
        self.count = 0

    def html(self, fig) -> str | None:
        if fig is None:
            return None
        self.count += 1
        return fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"fig-{self.count}",
                           config=CONFIG)


def render(data: ReportData) -> tuple[str, int]:
    """The page, and how many figures it holds."""
    import jinja2
    from plotly.offline import get_plotlyjs

    from opkg.ui.ci_output import host_text
    from opkg.ui.terminal import case_failure

    figs = _Figures()
    failing = []
    for fc in data.failed_cases():
        row = fc.row
        title = f"{_short(row['package'])} {row['soc']} {row['variant']}/{row['case']}"
        case = data.case(row) or {}
        failing.append({
            "title": title, "row": row, "host": host_text(row.get("host")),
            "text": case_failure(case, row["variant"]) if case else [row.get("error") or ""],
            "outputs": [_error_figures(figs, title, o) for o in fc.outputs]})
    unsaved = [{**r, "host_text": host_text(r.get("host"))}
               for r in data.rows if not r["passed"] and not r.get("artifacts")]
    # failures first, then the rest in report order (sorted is stable)
    rows = sorted(data.rows, key=lambda r: r["passed"])
    profile, profile_notes = _profile_figures(data, figs)
    graph = figs.html(_graph(data))
    template = jinja2.Environment(loader=jinja2.PackageLoader("opkg", "templates"),
                                  autoescape=True, undefined=jinja2.StrictUndefined)
    html = template.get_template("report.html.j2").render(
        plotly_js=get_plotlyjs(), version=__version__, root=str(data.root),
        generated=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        selected=data.selected, rows=[_table_row(data, r) for r in rows],
        variants=sorted(data.variants(), key=lambda v: v["status"] == "PASS"),
        passed=sum(1 for r in data.rows if r["passed"]),
        failed=sum(1 for r in data.rows if not r["passed"]), missing=data.missing,
        failing=failing, unsaved=unsaved, profile=profile, profile_notes=profile_notes,
        graph=graph, model=figures.MODEL)
    return html, figs.count


def _error_figures(figs: _Figures, title: str, o) -> dict:
    if o.expected.shape != o.actual.shape:
        # nothing to compare element by element: say so instead of drawing
        return {"name": o.name, "note": f"{o.name}: the kernel's output has shape "
                f"{o.actual.shape}, the golden's {o.expected.shape}"}
    return {"name": o.name, "note": None,
            "heatmap": figs.html(figures.error_heatmap(title, o.name, o.expected, o.actual,
                                                       o.rtol, o.atol)),
            "histogram": figs.html(figures.error_histogram(title, o.name, o.expected, o.actual,
                                                           o.rtol, o.atol))}


def _short(label: str) -> str:
    return label.rsplit("/", 1)[-1]


def _table_row(data: ReportData, row: dict) -> dict:
    case = data.case(row) or {}
    est = ((case.get("profile") or {}).get("estimate") or {}).get("total_us")
    fm = row.get("first_mismatch")
    first = (f"{fm['output']}[{', '.join(str(i) for i in fm['index'])}] = {fm['actual']}, "
             f"expected {fm['expected']}") if fm else ""
    from opkg.ui.ci_output import host_text
    from opkg.ui.terminal import case_result, tolerance_text

    return {**row, "name": _short(row["package"]), "first": first,
            "result": case_result(case) if case else "FAIL",
            "tolerance": tolerance_text(case) if case else "",
            "host_text": host_text(row.get("host")),
            **{k: _number(row[k]) for k in ("max_abs_error", "max_rel_error")},
            "blocks": (case.get("run") or {}).get("block_dim", ""),
            "est_us": "" if est is None else f"{est:.3g}",
            "message": (row.get("error") or "").splitlines()[0] if row.get("error") else ""}


def _number(x) -> str:
    if x is None or isinstance(x, str):      # not compared, or "inf"/"nan" as reports write them
        return x or ""
    return f"{x:.3g}"


def _profile_figures(data: ReportData, figs: _Figures) -> tuple[list[dict], list[str]]:
    """Per SoC: the roofline, each package's per-block load balance, the copy-size histogram."""
    from opkg.core.socs import MODEL_FIELDS

    by_soc: dict[str, list[tuple[dict, dict]]] = defaultdict(list)
    notes = []
    for row in data.rows:
        profile = (data.case(row) or {}).get("profile")
        if profile:
            by_soc[row["soc"]].append((row, profile))
    sections = []
    for soc_name in sorted(by_soc):
        soc = data.socs.get_soc(soc_name)
        cases = by_soc[soc_name]
        points = [{"label": f"{_short(r['package'])} {r['variant']}/{r['case']}",
                   "vector_bytes": p["counters"]["vector"]["bytes"],
                   "gm_bytes": p["counters"]["gm_bytes"],
                   "total_us": p["estimate"].get("total_us"),
                   "bound": p["estimate"].get("bound")} for r, p in cases]
        roof = figs.html(figures.roofline(soc, points))
        if roof is None:
            missing = [f for f in MODEL_FIELDS if getattr(soc, f) is None]
            notes.append(f"no roofline for {soc_name}: " + (
                f"toolchains/socs.yaml has no {', '.join(missing)} for it" if missing
                else "no case did vector work (nothing to place on the plot)"))
        balance, copies = [], {}
        for package in sorted({r["package"] for r, _ in cases}):
            mine = [(r, p) for r, p in cases if r["package"] == package]
            with_blocks = [{"label": f"{r['variant']}/{r['case']}",
                            "per_block": p["counters"]["per_block"]}
                           for r, p in mine if p["counters"].get("per_block")]
            if not with_blocks:
                notes.append(f"no per-block counts for {_short(package)} on {soc_name}: its "
                             "reports were written by an opkg without them (rebuild)")
            balance.append(figs.html(figures.load_balance(f"{_short(package)} on {soc_name}",
                                                          with_blocks)))
            copies[_short(package)] = [
                sum(p["counters"]["copies"][d]["histogram"][i]["count"]
                    for _, p in mine for d in ("gm_to_ub", "ub_to_gm"))
                for i in range(len(figures.BUCKET_EDGES))]
        sections.append({"soc": soc_name, "roofline": roof,
                         "balance": [b for b in balance if b],
                         "copies": figs.html(figures.copy_sizes(soc_name, copies))})
    return sections, notes


def _graph(data: ReportData):
    nodes = []
    for p in data.packages:
        status = data.status(p)
        nodes.append({"label": p.label, "status": status,
                      "hover": f"{p.label} {p.version}<br>{status}"
                               + (f"<br>SoCs: {', '.join(p.socs)}" if p.op is not None else "")})
    edges = [(p.label, d) for p in data.packages for d in p.deps]
    return figures.dependency_graph(nodes, edges)
