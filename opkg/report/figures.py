"""The figures of `opkg report`, drawn with plotly (the `report` extra) from report data.

Each function returns a plotly Figure or None when there is nothing to draw, never raises on
odd data (a zero-byte kernel, non-finite errors, a SoC without model figures): the page says
why a figure is absent instead. Arrays are reduced here (max-pooled grids, pre-binned
histograms) so a page stays small whatever the case's size.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from opkg.sim.profile import BUCKET_EDGES

MODEL = "MODEL, not a measurement"
GRID = 200              # at most GRID x GRID cells in a heatmap: larger outputs are max-pooled
BINS = 60
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x")
COLOURS = {"pass": "#2e7d32", "fail": "#c62828", "not built": "#9e9e9e", "library": "#1565c0"}


def _layout(fig, title: str, height: int = 380, **kw):
    fig.update_layout(title={"text": title, "x": 0.01}, template="plotly_white", height=height,
                      margin={"l": 60, "r": 20, "t": 60, "b": 50}, **kw)
    return fig


# ---- a failing output ----------------------------------------------------------------------

def abs_errors(expected, actual):
    """|actual - expected| in float64; equal values (also equal infinities, NaN against NaN)
    are 0, anything else non-finite stays non-finite."""
    e = np.asarray(expected, np.float64)
    a = np.asarray(actual, np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(a - e)
    err[(a == e) | (np.isnan(a) & np.isnan(e))] = 0.0
    return err


def grid(err):
    """A 2-D view: a 1-D output as one row, more dimensions as rows of the last one; max-pooled
    to at most GRID x GRID cells. Returns (cells, row starts, column starts)."""
    err = np.asarray(err)
    view = err.reshape(1, -1) if err.ndim <= 1 else err.reshape(-1, err.shape[-1])
    rows, cols = view.shape
    br, bc = max(1, math.ceil(rows / GRID)), max(1, math.ceil(cols / GRID))
    padded = np.zeros((math.ceil(rows / br) * br, math.ceil(cols / bc) * bc))
    padded[:rows, :cols] = view
    cells = padded.reshape(padded.shape[0] // br, br, padded.shape[1] // bc, bc).max(axis=(1, 3))
    return cells, np.arange(0, rows, br), np.arange(0, cols, bc)


def tolerance_ratio(expected, actual, rtol, atol):
    """|actual - expected| / (atol + rtol * |expected|) per element: above 1 is outside the
    tolerance the case is judged by. None when the tolerance is not known."""
    if rtol is None or atol is None:
        return None
    err = abs_errors(expected, actual)
    limit = atol + rtol * np.abs(np.asarray(expected, np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(err == 0, 0.0, err / limit)   # atol = rtol = 0: any error is inf
    return ratio


DECADES = 3     # the heatmap's colour scale: 1e-3 to 1e3 of the tolerance, 1 in the middle


def error_heatmap(title: str, name: str, expected, actual, rtol=None, atol=None):
    """The error of each element against the tolerance it is judged by, on a log scale
    centred at the tolerance: blue within it, red outside, white at the boundary. Without a
    tolerance, |actual - expected|."""
    ratio = tolerance_ratio(expected, actual, rtol, atol)
    err = abs_errors(expected, actual) if ratio is None else ratio
    bad = ~np.isfinite(err)
    top = float(err[~bad].max()) if (~bad).any() else 0.0
    shape = "x".join(str(n) for n in np.shape(expected)) or "scalar"
    if ratio is None:
        # non-finite errors (an unwritten element, a NaN or inf output) sit at the top
        shown = np.where(bad, top or 1.0, err)
        cells, ys, xs = grid(shown)
        trace = dict(z=cells, colorscale="Inferno", zmin=0,
                     colorbar={"title": {"text": "|error|"}})
        what, value = "|actual - expected|", "|actual - expected| = %{z:.4g}"
    else:
        # log10 of the ratio, clipped to +-DECADES (non-finite: the top); max-pooled in that
        # space, so one element outside the tolerance keeps its block red
        with np.errstate(divide="ignore"):
            logs = np.clip(np.log10(np.where(bad, 10.0 ** DECADES, err)), -DECADES, DECADES)
        logs[err == 0] = -DECADES
        cells, ys, xs = grid(logs + DECADES)
        cells = cells - DECADES
        ticks = list(range(-DECADES, DECADES + 1))
        trace = dict(z=cells, colorscale="RdBu_r", zmin=-DECADES, zmax=DECADES, zmid=0,
                     colorbar={"title": {"text": "error / tolerance"}, "tickvals": ticks,
                               "ticktext": [f"1e{t}" if t else "1 (limit)" for t in ticks]})
        what, value = "error / tolerance", "log10(error / tolerance) = %{z:.2f}"
    pooled = cells.size < err.size
    # axes as plain lists: plotly.js has no typed array for numpy's int64
    fig = go.Figure(go.Heatmap(
        x=xs.tolist(), y=ys.tolist(), **trace,
        hovertemplate=("row %{y}, column %{x}" + ("+ (max of a block)" if pooled else "")
                       + f"<br>{value}<extra></extra>")))
    note = f"; {int(bad.sum())} non-finite shown at the top" if bad.any() else ""
    if ratio is not None:
        outside = int(((ratio > 1) | bad).sum())
        note += f"; {outside} outside tolerance (rtol {rtol:g}, atol {atol:g})"
    fig.update_yaxes(autorange="reversed",
                     title="row" if np.ndim(expected) <= 2 else "row (leading dims flattened)")
    fig.update_xaxes(title="element" if np.ndim(expected) <= 1 else "column")
    return _layout(fig, f"{name}: {what} over the output"
                        f"<br><sup>{title}, {shape}{note}</sup>")


def error_histogram(title: str, name: str, expected, actual, rtol, atol):
    """How far each element that differs is from its tolerance: log10(error / tolerance), the
    tolerance at 0; split into within and outside it. Without a tolerance, log10 |error|."""
    err = abs_errors(expected, actual)
    finite = np.isfinite(err)
    differ = finite & (err > 0)
    ratio = tolerance_ratio(expected, actual, rtol, atol)
    if ratio is not None:
        outside = differ & ~(ratio <= 1)
        x_of = np.log10(np.where(differ, ratio, 1.0))
        axis = "log10(error / tolerance): 0 is the limit"
    else:
        outside = np.zeros_like(differ)
        x_of = np.log10(np.where(differ, err, 1.0))
        axis = "log10 |actual - expected|"
    fig = go.Figure()
    exact, odd = int((err == 0).sum()), int((~finite).sum())
    if differ.any():
        logs = x_of[differ]
        finite_logs = logs[np.isfinite(logs)]
        lo = float(finite_logs.min()) if finite_logs.size else 0.0
        hi = float(finite_logs.max()) if finite_logs.size else 0.0
        if ratio is not None:      # the limit always in view
            lo, hi = min(lo, -0.5), max(hi, 0.5)
        # bins at least a twentieth of a decade wide: equal errors make one visible bar
        width = max((hi - lo) / BINS, 0.05)
        edges = np.arange(lo - width / 2, hi + width, width)
        centres = (edges[:-1] + edges[1:]) / 2
        for part, mask, colour in (("within tolerance", differ & ~outside, "#607d8b"),
                                   ("outside tolerance", outside, "#c62828")):
            counts, _ = np.histogram(np.clip(x_of[mask], edges[0], edges[-1]), bins=edges)
            if counts.any():
                fig.add_bar(x=centres.tolist(), y=counts.tolist(), name=part,
                            marker_color=colour,
                            width=edges[1] - edges[0],
                            hovertemplate="1e%{x:.2f}: %{y} elements<extra></extra>")
        if ratio is not None:
            fig.add_vline(x=0, line_dash="dash", annotation_text=(
                f"tolerance (rtol {rtol:g}, atol {atol:g})"), annotation_position="top right")
    fig.update_layout(barmode="stack")
    fig.update_xaxes(title=axis)
    fig.update_yaxes(title="elements")
    return _layout(fig, f"{name}: histogram of errors<br><sup>{title}: {exact} exact, "
                        f"{int(differ.sum())} differ, {int(outside.sum())} outside tolerance, "
                        f"{odd} non-finite</sup>")


# ---- the kernel profile (a model) ----------------------------------------------------------

def roofline(soc, points: list[dict]):
    """One point per case at (vector bytes per GM byte, vector GB/s the estimate implies)
    under the SoC's roof: min(peak vector rate of all cores, intensity x GM bandwidth).
    `points`: {"label", "vector_bytes", "gm_bytes", "total_us", "bound"}. None when the SoC
    has no model figures or no case did vector work."""
    if None in (soc.gm_bandwidth_gbps, soc.clock_ghz, soc.vector_bytes_per_cycle):
        return None
    usable = [p for p in points if p["vector_bytes"] > 0 and p["gm_bytes"] > 0 and p["total_us"]]
    if not usable:
        return None
    cores = soc.block_dim_limit
    peak = soc.vector_bytes_per_cycle * soc.clock_ghz * cores          # GB/s
    ai = np.array([p["vector_bytes"] / p["gm_bytes"] for p in usable])
    rate = np.array([p["vector_bytes"] / p["total_us"] / 1e3 for p in usable])   # GB/s
    knee = peak / soc.gm_bandwidth_gbps
    x = np.geomspace(min(ai.min(), knee) / 10, max(ai.max(), knee) * 10, 200)
    fig = go.Figure()
    fig.add_scatter(x=x.tolist(), y=np.minimum(peak, x * soc.gm_bandwidth_gbps).tolist(),
                    mode="lines",
                    name=f"roof: {soc.gm_bandwidth_gbps:g} GB/s GM, {peak:g} GB/s vector "
                         f"({cores} cores)", line={"color": "#424242"})
    # one trace per case: the legend labels each point (text beside points that share a
    # place would overlap)
    for i, (p, x_, y_) in enumerate(zip(usable, ai, rate)):
        fig.add_scatter(x=[float(x_)], y=[float(y_)], mode="markers", name=p["label"],
                        marker={"size": 11, "color": PALETTE[i % len(PALETTE)],
                                "symbol": SYMBOLS[(i // len(PALETTE)) % len(SYMBOLS)]},
                        customdata=[[p["total_us"], p["bound"]]],
                        hovertemplate="%{x:.3g} vector B per GM byte<br>%{y:.4g} GB/s<br>est. "
                                      "%{customdata[0]:.3g} us, %{customdata[1]}-bound"
                                      "<extra>%{fullData.name} (MODEL)</extra>")
    fig.update_xaxes(type="log", title="arithmetic intensity: vector bytes per GM byte")
    fig.update_yaxes(type="log", title="vector throughput, GB/s")
    return _layout(fig, f"Roofline on {soc.name} ({MODEL})", height=480)


def load_balance(title: str, cases: list[dict]):
    """Per-block GM and vector bytes, one line per case (`label`, `per_block`)."""
    cases = [c for c in cases if c["per_block"]["gm_bytes"]]
    if not cases:
        return None
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("GM bytes per block", "vector bytes per block"))
    for i, c in enumerate(cases):
        gm = np.asarray(c["per_block"]["gm_bytes"], np.float64)
        vec = np.asarray(c["per_block"]["vector_bytes"], np.float64)
        worst = gm.max() / gm.mean() if gm.mean() else 1.0
        blocks = np.arange(len(gm))
        for row, y in ((1, gm), (2, vec)):
            fig.add_scatter(x=blocks.tolist(), y=y.tolist(), mode="lines+markers",
                            name=f"{c['label']} (busiest/mean GM {worst:.2f})",
                            legendgroup=str(i), showlegend=row == 1, row=row, col=1,
                            line={"color": PALETTE[i % len(PALETTE)]},
                            hovertemplate="block %{x}: %{y:,} B<extra>%{fullData.name}</extra>")
    fig.update_xaxes(title="block", row=2, col=1)
    return _layout(fig, f"{title}: per-block load balance (the sim's counts)", height=480)


def copy_sizes(soc: str, per_package: dict[str, list[int]]):
    """GM<->UB copies per size bucket, one bar group per package (all its cases summed)."""
    if not any(sum(v) for v in per_package.values()):
        return None
    names = [f"< {_bytes(hi)}" if lo == 0 else (f">= {_bytes(lo)}" if hi is None
             else f"{_bytes(lo)} - {_bytes(hi)}")
             for lo, hi in zip(BUCKET_EDGES, BUCKET_EDGES[1:] + (None,))]
    fig = go.Figure()
    for package, counts in per_package.items():
        fig.add_bar(x=names, y=counts, name=package,
                    hovertemplate="%{x}: %{y} copies<extra>%{fullData.name}</extra>")
    fig.update_layout(barmode="group", showlegend=True)     # the package, even when alone
    fig.update_xaxes(title="copy size (GM <-> UB); under 512 B wastes most of a GM burst")
    fig.update_yaxes(title="copies")
    return _layout(fig, f"Copy sizes on {soc}")


def _bytes(n: int) -> str:
    return f"{n // 1024} KiB" if n >= 1024 else f"{n} B"


# ---- the package graph ---------------------------------------------------------------------

def dependency_graph(nodes: list[dict], edges: list[tuple[str, str]]):
    """Packages in layers (a package one right of its deepest dependency), an arrow from each
    package to what it depends on, coloured by verification status.
    `nodes`: {"label", "status", "hover"}; `edges`: (dependent, dependency)."""
    if not nodes:
        return None
    deps: dict[str, list[str]] = {n["label"]: [] for n in nodes}
    for a, b in edges:
        deps[a].append(b)
    layer: dict[str, int] = {}

    def depth(label):
        # packages form a DAG (graph.py refuses cycles); depth from the leaves
        stack = [label]
        while stack:
            top = stack[-1]
            todo = [d for d in deps[top] if d not in layer]
            if todo:
                stack.extend(todo)
                continue
            layer[top] = 1 + max((layer[d] for d in deps[top]), default=-1)
            stack.pop()
        return layer[label]

    pos = {}
    for n in sorted(nodes, key=lambda n: n["label"]):
        col = depth(n["label"])
        pos[n["label"]] = (col, -sum(1 for p in pos.values() if p[0] == col))
    fig = go.Figure()
    for a, b in edges:
        (x0, y0), (x1, y1) = pos[a], pos[b]
        fig.add_annotation(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y",
                           showarrow=True, arrowhead=3, arrowsize=1.2, arrowwidth=1.5,
                           arrowcolor="#757575", standoff=14, startstandoff=14)
    for status, colour in COLOURS.items():
        mine = [n for n in nodes if n["status"] == status]
        if not mine:
            continue
        fig.add_scatter(x=[pos[n["label"]][0] for n in mine], y=[pos[n["label"]][1] for n in mine],
                        mode="markers+text", name=status, text=[n["label"] for n in mine],
                        textposition="bottom center", hovertext=[n["hover"] for n in mine],
                        hoverinfo="text", marker={"size": 22, "color": colour})
    width = max(p[0] for p in pos.values())
    fig.update_xaxes(visible=False, range=[-0.5, width + 0.5])
    fig.update_yaxes(visible=False, range=[min(p[1] for p in pos.values()) - 0.7, 0.5])
    return _layout(fig, "Package dependencies (an arrow points to what a package depends on)",
                   height=max(300, 90 * (1 + max(-p[1] for p in pos.values()))))
