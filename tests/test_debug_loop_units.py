"""The debug loop's parts that need no build: what `opkg test -k`/`--lf` keep, how a bad
expression is reported, what the last-failed record keeps between runs, the manifest's xfail,
the progress bar's colour, and compile errors naming this checkout's precompiled headers.
(tests/test_debug_loop.py runs the whole loop on a real package.)"""

from __future__ import annotations

import json

import pytest

from opkg.build.results import TargetResult
from opkg.verify.select import (ANY, BadExpression, Selection, read_last_failed,
                                update_last_failed)

PKG, SOC = "//packages/layernorm", "Ascend910B1"


def keeps(sel: Selection, variant: str, case: str, soc: str = SOC) -> bool:
    return sel.keep(PKG, soc, variant, case, tuple(variant.split("_")), "layernorm")


@pytest.mark.parametrize("expr, want", [
    ("small", {("float16", "small"), ("float32", "small")}),
    ("float16 and not small", {("float16", "rows_uneven")}),
    ("FLOAT32 or rows", {("float32", "small"), ("float32", "rows_uneven"),
                         ("float16", "rows_uneven")}),
    ("not (float16 or small)", {("float32", "rows_uneven")}),
    ("910B1 and uneven", {("float16", "rows_uneven"), ("float32", "rows_uneven")}),
    ("layernorm and small", {("float16", "small"), ("float32", "small")}),
])
def test_k_matches_substrings_of_case_variant_soc_and_package(expr, want):
    sel = Selection(keyword=expr)
    got = {(v, c) for v in ("float16", "float32") for c in ("small", "rows_uneven")
           if keeps(sel, v, c)}
    assert got == want


@pytest.mark.parametrize("expr, where", [
    ("float16 and", "expected a word, 'not' or '(' at column 12"),
    ("(small", "expected ')' at column 7"),
    ("small float16", "unexpected 'float16' at column 7"),
    ("and small", "expected a word, 'not' or '(' at column 1"),
])
def test_a_bad_k_expression_says_where(expr, where):
    with pytest.raises(BadExpression) as err:
        Selection(keyword=expr)
    assert str(err.value) == f"{expr!r}: {where}"


def test_case_and_variant_patterns_and_last_failed_combine():
    only = frozenset({(PKG, SOC, "float16", "small"), (PKG, SOC, "float32", ANY)})
    sel = Selection(only=only)
    assert keeps(sel, "float16", "small") and not keeps(sel, "float16", "rows_uneven")
    assert keeps(sel, "float32", "rows_uneven")             # a whole variant is owed
    assert not keeps(sel, "float32", "small", soc="Ascend310P3")
    both = Selection(keyword="small", only=only, variants=("float1*",))
    assert keeps(both, "float16", "small") and not keeps(both, "float32", "small")
    assert Selection() == Selection() and not Selection() and Selection(only=frozenset())


def test_last_failed_adds_failures_drops_passes_and_keeps_what_did_not_run(tmp_path):
    class Result:
        targets = [TargetResult(f"{PKG}@{SOC}@sim", PKG, "layernorm", SOC, "sim", None,
                                {"float16": {"results": [{}]}}, {"float32": "x failed"})]

    rows = [{"package": PKG, "soc": SOC, "variant": "float16", "case": "small", "passed": False},
            {"package": PKG, "soc": SOC, "variant": "float16", "case": "big", "passed": True}]
    (tmp_path / ".opkg").mkdir()
    (tmp_path / ".opkg" / "last-failed.json").write_text(json.dumps({"failed": [
        [PKG, SOC, "float16", "big"], ["//packages/other", SOC, "float16", "x"]]}))
    update_last_failed(tmp_path, Result(), rows)
    assert read_last_failed(tmp_path) == {
        (PKG, SOC, "float16", "small"), (PKG, SOC, "float32", ANY),
        ("//packages/other", SOC, "float16", "x")}
    (tmp_path / ".opkg" / "last-failed.json").write_text("{not json")
    assert read_last_failed(tmp_path) == set()       # a damaged record: run everything


def test_xfail_in_the_manifest_and_its_errors(workspace):
    from opkg.core.errors import ManifestError
    from tests.conftest import MINIMAL_MANIFEST

    text = MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]")
    case = "    - {name: small, shapes: {x: [4, 64]}}\n"
    for xfail, want in [
        ("true", ("expected to fail", (), ())),
        ('"golden rounds differently"', ("golden rounds differently", (), ())),
        ("{reason: r, variants: [float16], socs: [Ascend910B1]}",
         ("r", ("float16",), ("Ascend910B1",))),
    ]:
        workspace.operator("addone", manifest=text.replace(
            case, case.replace("}}", f"}}, xfail: {xfail}}}")))
        [pkg] = workspace.load().packages.values()
        [c] = pkg.verify.cases
        assert c.xfail == want
    assert c.xfail_for("float16", "Ascend910B1") == "r"
    assert c.xfail_for("float32", "Ascend910B1") is None
    assert c.xfail_for("float16", "Ascend310P3") is None
    workspace.operator("addone", manifest=text.replace(
        case, case.replace("}}", "}, xfail: {variants: [float16]}}")))
    with pytest.raises(ManifestError) as err:
        workspace.load().packages
    assert "missing required key 'reason'" in err.value.render()


def test_a_case_runs_only_in_the_variants_of_the_dtypes_it_names(workspace):
    from opkg.build.plan import BuildRequest, make_plan
    from opkg.core.model import SimModes
    from tests.conftest import MINIMAL_MANIFEST

    text = MINIMAL_MANIFEST.format(name="addone", op_type="AddOne", deps="[]")
    case = "    - {name: small, shapes: {x: [4, 64]}}\n"
    workspace.operator("addone", manifest=text.replace(
        case, case + "    - {name: half, shapes: {x: [2, 64]}, dtypes: {x: float16}}\n"))
    ws = workspace.load()
    [pkg] = ws.packages.values()
    small, half = pkg.verify.cases
    assert half.dtypes == {"x": "float16"} and small.dtypes == {}
    plan = make_plan(ws, BuildRequest((pkg,), modes=SimModes(), verify=True)).to_json()
    jobs = {a["outputs"][0].split("/")[-2]: json.loads(a["content"]) for a in plan["actions"]
            if a["outputs"][0].endswith("verify-job.json")}
    assert {v: [c["name"] for c in job["cases"]] for v, job in jobs.items()} == {
        "float32": ["small"], "float16": ["small", "half"]}


def test_the_progress_bar_is_red_only_once_a_step_failed(tmp_path):
    """rich's default colour of a running bar is a pinkish red (bar.complete): a build going
    well must not look like a failing one."""
    import io

    from rich.console import Console

    from opkg.ui.terminal import Progress
    from opkg.ui.live import LiveDisplay

    progress = Progress(tmp_path, stream=io.StringIO(), color=True)
    progress.steps = 10
    display = LiveDisplay.__new__(LiveDisplay)
    display.progress = progress
    display.console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor",
                              width=80)

    def bar_colours():
        out = io.StringIO()
        Console(file=out, force_terminal=True, color_system="truecolor", width=80).print(
            display.render())
        return out.getvalue()

    progress.ran = 4
    running = bar_colours()
    assert "\x1b[31m" not in running and "249;38;114" not in running     # no red, no pink
    assert "\x1b[36m" in running                                            # cyan
    progress.ran = 10
    assert "\x1b[32m" in bar_colours()                                      # finished: green
    progress.ran, progress.failed = 3, 1
    assert "\x1b[31m" in bar_colours()


def test_compile_errors_name_this_checkouts_precompiled_header(tmp_path):
    from opkg.build.scons_glue import local_pch_paths
    from opkg.sim.flags import include_dir

    other = "/home/alice/ws"       # where a .gch restored from a shared cache was compiled
    text = (f"In file included from {other}/out/sim/.pch/c220-2201/opkg_sim_pch.h:1:\n"
            f"/opt/other-opkg/opkg/sim/include/opkg_sim/queue.h:88:5: error: no match\n"
            "packages/x/op_kernel/x.cpp:12:3: required from here\n"
            "see /home/alice/ws/packages/x/op_kernel/x.cpp too")
    got = local_pch_paths(text, str(tmp_path / "out"))
    assert got.splitlines() == [
        f"In file included from {tmp_path}/out/sim/.pch/c220-2201/opkg_sim_pch.h:1:",
        f"{include_dir()}/opkg_sim/queue.h:88:5: error: no match",
        "packages/x/op_kernel/x.cpp:12:3: required from here",
        "see /home/alice/ws/packages/x/op_kernel/x.cpp too"]    # not a header of the .gch


def test_explain_accounts_for_every_step_that_ran():
    """SCons prints no reason for a node it has no earlier record of (Node.explain returns
    None): such a step ran, and --explain must still say so and why."""
    from opkg.cli.build import explanation
    from opkg.build.explain import _plain

    events = [{"event": "fastpath", "used": False, "reason": "x changed"},
              {"event": "explain", "description": "compile a kernel", "reasons": ["x changed"]},
              {"event": "ran", "description": "compile a kernel"},
              {"event": "ran", "description": "verify a float16 (Ascend910B1)"}]
    assert explanation(events, "/ws").splitlines() == [
        "checking every step: x changed",
        "compile a kernel: x changed",
        "verify a float16 (Ascend910B1): SCons has no record of an earlier build of it (a step "
        "new to this workspace, or its record was lost)"]
    assert _plain("AlwaysBuild() is specified") == "--no-cache: it runs whatever the cache holds"
