#!/usr/bin/env python3
"""The compatibility harness over an ops repository (hicann/ops-nn and its siblings).

    bench/compat/repository.py --repo OPS_NN --opbase OPBASE [--families F...] [--every N]
        [--with-golden] [--only OP...] [--soc Ascend910B1] [--jobs N] [--work DIR] [--rebuild]

Every operator of the repository with a classic kernel (op_kernel/<op>.cpp) is imported with
`opkg import` straight from the checkout (its sources stay there; docs/import.md), built on
the sim for one SoC, and verified with the repository's own golden (tests/assets/golden.py)
on the cases the import took from its ttk tables or example. No per-operator module: what the
repository says is what is measured. One scratch workspace holds them all (`--work`, kept
between runs): it names the base library (`--opbase`, as `opkg import --base` adds it: the
include directories and sources the repository's CMake uses) and, through the import, the
repository.

Resumable: each operator's row is saved as it finishes (`<work>/rows.json`), keyed by the
repository's commit, opkg's commit and the SoC; a re-run measures only the operators without
a row of that key (`--rebuild` measures all again; opkg's own cache then makes unchanged
builds fast). It writes bench/results/compat-<repo>-<date>.json and the repository's section
of docs/compat.md: per family k/N, and each failure with its first error and a class
(bench/compat/classification-<repo>.yaml when someone recorded one, else the harness's
"likely ..." guess from the error).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
import snapshot  # noqa: E402
from run import (DEVICE_MODES, _first_error, _first_line, classify, first_report_error,  # noqa: E402
                 load_classification, opkg, opkg_commit, write_doc)

from opkg.importers import repository as R  # noqa: E402
from opkg.importers import repository_workspace as W  # noqa: E402

BUILD_TIMEOUT = 1800


def classic_operators(root: Path, unit: str, apt: bool = False) -> list[Path]:
    """Operator directories with a device kernel for compute unit `unit` that declare it
    (R.for_unit), family by family, in a stable order: the classic op_kernel/<op>.cpp, or with
    `apt` (the Ascend 950's units) op_kernel/<op>_apt.cpp, which the import takes there."""
    kernel = "{}_apt.cpp" if apt else "{}.cpp"
    return [d for d in R.operator_dirs(root, root)
            if (d / "op_kernel" / kernel.format(d.name)).is_file() and R.for_unit(d, unit)]


def select(ops: list[Path], root: Path, families, every: int, only,
           with_golden: bool = False, start: int = 0, skip_families=()) -> list[Path]:
    """The operators to measure; `with_golden`: only those whose tests/assets/golden.py names
    a kernel function (the population of the verification target), before `every`. `start`
    shifts the sample (every Nth from the start-th: `--every 4 --start 2` is disjoint from
    `--every 4`); `skip_families` leaves families out after the sampling, so the others are
    the same operators whichever families are left out."""
    if families:
        ops = [d for d in ops if d.parent.name in families]
    if only:
        ops = [d for d in ops if d.name in only]
    if with_golden:
        ops = [d for d in ops if R.find_golden(d)]
    ops = ops[start::every] if every > 1 else ops[start:]
    return [d for d in ops if d.parent.name not in skip_families]


def missing_packages(ops: list[Path]) -> Counter:
    """What the chosen operators' goldens import that this Python (the one opkg verifies with)
    lacks, with how many goldens import each: said before the run, not per operator after it."""
    import importlib.util

    wanted = Counter(name for d in ops for name in getattr(R.find_golden(d), "requires", ()))
    return Counter({n: k for n, k in wanted.items() if importlib.util.find_spec(n) is None})


def git_head(root: Path) -> str | None:
    return R.git_commit(root)


def prepare_workspace(work: Path, root: Path, opbase: Path, leave_out=()) -> None:
    """The scratch workspace, with the base library as `opkg import --base` adds it (the
    include directories and sources the ops repository's CMake uses, pinned at the checkout's
    commit), less the host source patterns `leave_out` names (a measurement's configuration,
    said in its report)."""
    ws_file = work / "opkg-workspace.yaml"
    if not ws_file.is_file():
        work.mkdir(parents=True, exist_ok=True)
        ws_file.write_text("# bench/compat/repository.py's scratch workspace\n"
                           "package_roots: [packages]\noutput_dir: out\n")
    repo = R.open_repository(root)
    entry = W.base_entry(repo, opbase, work)
    lib = entry["libraries"]["op_common"]
    lib["host_sources"] = [p for p in lib.get("host_sources", []) if p not in leave_out]
    W.update_workspace(work, "opbase", entry, "the base library")
    import yaml

    have = yaml.safe_load(ws_file.read_text())["repositories"]["opbase"]
    if have != entry:
        raise SystemExit(f"error: {work} names opbase differently from this run (another "
                         "--opbase or --leave-out-base): use another --work")


def measure(op_dir: Path, root: Path, work: Path, soc: str, build_jobs: int,
            timeout: int, import_only: bool = False) -> dict:
    rel = op_dir.relative_to(root).as_posix()
    row = {"operator": op_dir.name, "family": op_dir.parent.name, "path": rel,
           "imported": None, "compiled": None, "kernel_compiled": None, "verified": None,
           "golden": None, "cases_from": None, "first_error": None, "classification": None,
           "notes": [], "variants": {}, "seconds": None}
    start = time.monotonic()
    r = opkg("import", str(op_dir), "--soc", soc, "--json", cwd=work, timeout=timeout)
    try:
        info = json.loads(r.stdout)
    except json.JSONDecodeError:
        info = {}
    ops = info.get("operators") or []
    if r.returncode != 0 or not ops or not ops[0].get("dest"):
        row["imported"] = False
        text = (ops[0].get("skipped") if ops else None) or r.stderr or r.stdout
        row["first_error"] = _first_line(text).removeprefix("error: ")
        row["detail"] = "\n".join([text, *(ops[0].get("notes", []) if ops else [])])[-4000:]
        row["classification"] = "import gap"
        row["seconds"] = round(time.monotonic() - start, 1)
        return row
    one = ops[0]
    row.update(imported=True, golden=one["golden"], cases_from=one.get("cases_from"),
               notes=one.get("notes", []))
    if import_only:
        row["seconds"] = round(time.monotonic() - start, 1)
        return row
    label = "//" + Path(one["dest"]).resolve().relative_to(work.resolve()).as_posix()
    try:
        r = opkg("build", label, "--json", "--keep-going", "-j", str(build_jobs),
                 *DEVICE_MODES, cwd=work, timeout=timeout)
    except subprocess.TimeoutExpired:
        row["first_error"] = f"harness: the build took longer than {timeout} s"
        row["seconds"] = round(time.monotonic() - start, 1)
        return row
    try:
        result = json.loads(r.stdout)
    except json.JSONDecodeError:
        result = {"error": {"message": _first_line(r.stderr or r.stdout)}}
    read_build(row, result, work, op_dir.name)
    if not row["golden"] and row["compiled"]:
        row["classification"] = ("no golden (tests/assets/golden.py registers no kernel "
                                 "function, by __golden__ or __spec__)")
    row["seconds"] = round(time.monotonic() - start, 1)
    return row


def read_build(row: dict, result: dict, work: Path, name: str) -> None:
    if result.get("error"):
        e = result["error"]
        row["compiled"] = False
        row["first_error"] = f"manifest {e.get('field') or ''}: {e.get('message')}".strip()
        row["detail"] = json.dumps(e)[-4000:]
        return
    failures = result.get("failures") or []
    compile_fail = [f for f in failures if f.get("step") in ("compile", "link", "check")
                    or (f.get("description") or "").startswith(("compile", "link", "check"))]
    kernel_fail = [f for f in compile_fail if " kernel " in (f.get("description") or "")
                   and "kernel entry" not in (f.get("description") or "")]
    reports = {}
    for t in result.get("targets", []):
        for variant, rep in (t.get("variants") or {}).items():
            reports[f"{t['soc']}/{variant}"] = rep
    row["variants"] = reports
    # every failed step with its first error: the host and the kernel side fail separately
    row["failures"] = [{"step": f.get("description"), "error": _first_error(f.get("output") or "")}
                       for f in failures]
    row["compiled"] = not compile_fail and bool(reports)
    # reached and compiled: a kernel object of this build; failed: a kernel compile failure;
    # None: not reached (the host library failed first)
    objects = list((work / "out" / "sim" / name).glob("*/*/kernel.o"))
    row["kernel_compiled"] = False if kernel_fail else (True if objects else None)
    # a variant whose every case the operator's tiling refused (each a row of another
    # architecture's table, which the repository's test tool runs only there) has no case on
    # this SoC: it neither verifies nor fails the operator, which verifies when every other
    # variant passes and one does at least (the refusals are listed)
    refused = sorted(v for v, r in reports.items() if r.get("status") == "REFUSED")
    skipped = sum(r.get("refused") or 0 for r in reports.values())
    if skipped:
        row["refused"] = {"cases": skipped, "variants": refused}
    # likewise a variant no case of the table is written for (UNTESTED): the repository's
    # tests do not run its dtype combination; listed, neither verifying nor failing
    untested = sorted(v for v, r in reports.items() if r.get("status") == "UNTESTED")
    if untested:
        row["untested"] = untested
    row["verified"] = (bool(result.get("ok")) or bool(refused or untested) and not failures
                       and not result.get("load_errors")) and bool(reports) and all(
        r.get("passed") or r.get("status") in ("REFUSED", "UNTESTED")
        for r in reports.values()) and any(r.get("passed") for r in reports.values())
    if row["verified"]:
        return
    first = kernel_fail[0] if kernel_fail and len(compile_fail) == len(kernel_fail) else (
        compile_fail[0] if compile_fail else None)
    if first is not None:
        row["first_error"] = _first_error(first.get("output") or "")
        row["detail"] = (first.get("output") or "")[-4000:]
        return
    row["first_error"] = first_report_error(
        sorted((work / "out" / "sim" / name).rglob("verification.json")))
    if row["first_error"]:
        return
    if failures:
        row["first_error"] = _first_error(failures[0].get("output")
                                          or failures[0].get("description") or "")


def seed_probe() -> None:
    """What every operator's OpDef probe compiles alike (opkg.importers.opdef.shared_objects,
    with the precompiled prelude an import of one operator would not build), compiled once
    before the first import process, by the opkg measured (an older commit may lack it)."""
    from opkg.importers import opdef

    seed = getattr(opdef, "shared_objects", None)
    if seed is not None:
        seed(precompile=True)


# first-error shapes run.py's patterns do not name (a harness guess, "likely ...")
MORE_PATTERNS = [
    (r"[‘'`](\w+)[’'`] is not a member of [‘'`](\w+)[’'`]", "sim gap: {1}::{0} missing"),
    (r"^tpl_kernel\.cpp:\d+: redefinition of", "sim gap: the template-kernel unit defines the "
     "kernel entry a second time"),
    (r"no match for [‘'`]operator(\S+)[’'`] \(operand types are [‘'`]const (\w+::\w+)[’'`]",
     "sim gap: {1}::operator{0} missing"),
    (r"kernel entry mismatch: op type '(\w+)' needs a kernel function named '\w+', but",
     "import gap: the kernel entry is the name the OpDef gives (ExtendCfgInfo opFile.value), "
     "not snake_case({0})"),
]


def classify_row(row: dict, import_only: bool, recorded: dict) -> None:
    """A row's class: a golden whose package is missing is the environment's; an import that
    failed or an operator without golden keep what the run said; else run.py's classify
    (recorded classes first, then its patterns), then the patterns above."""
    missing = re.search(r"needs the Python package '(\w+)'", row.get("first_error") or "")
    if missing and not row.get("verified"):
        row["classification"] = (f"environment: the golden imports {missing.group(1)}, "
                                 "not installed where this ran")
        return
    if import_only or (row["classification"] or "").startswith(("import gap", "no golden")):
        return
    if (row.get("golden") and row.get("kernel_compiled") and not row.get("verified")
            and not row.get("cases_from") and row.get("operator") not in recorded):
        # the import's placeholder case ([8, 256] for every input): how the inputs relate is
        # said by no table of any architecture nor an example, so a failure there says
        # nothing of the kernel
        row["classification"] = ("no case derivable: no ttk table of any architecture nor "
                                 "example; the placeholder case does not fit the operator")
        return
    classify(row, recorded)
    if (row["classification"] or "").startswith("unclassified"):
        for pattern, label in MORE_PATTERNS:
            m = re.search(pattern, row.get("first_error") or "")
            if m:
                row["classification"] = "likely " + label.format(*m.groups())
                return


# -- the report -----------------------------------------------------------------------------------


def _cell(text) -> str:
    return (str(text) if text else "–").replace("|", "\\|").replace("\n", " ")


def markdown(name: str, repo_url: str, rows: list[dict], total: int, date: str,
             commit: str | None, soc: str, sample: str, measured_by: str,
             import_only: bool = False, soc_short: str = "") -> str:
    n = len(rows)
    count = lambda key: sum(1 for r in rows if r.get(key))          # noqa: E731
    with_golden = [r for r in rows if r.get("golden")]
    if import_only:
        return import_markdown(name, repo_url, rows, total, date, commit, soc, sample,
                               measured_by)
    lines = [f"<!-- compat:{name}:begin -->", f"## {repo_url} (imported from the repository)", "",
             f"Measured {date} on commit `{commit or 'unknown'}` for {soc} with opkg "
             f"`{measured_by}` (`bench/compat/repository.py`): {sample}, {n} of the {total} "
             "operators with a classic kernel. Nothing per operator: the import follows the "
             "repository's CMake, the golden is its tests/assets/golden.py, the cases its ttk "
             "tables or example. An operator counts when it has op_kernel/<op>.cpp and declares "
             f"the SoC's compute unit (`AddConfig(\"{soc_short}\")` or op_host/config/"
             f"{soc_short}/).", "",
             f"**{count('verified')}/{len(with_golden)} verified of those with a golden**; "
             f"{count('imported')}/{n} imported, {count('kernel_compiled')}/{n} reach a kernel "
             f"compile, {count('compiled')}/{n} compile and link.", "",
             "| family | measured | imported | kernel compiles | builds | with golden | "
             "verified |", "|---|---|---|---|---|---|---|"]
    by_family = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    for fam, rs in sorted(by_family.items()):
        c = lambda key: sum(1 for r in rs if r.get(key))            # noqa: E731
        lines.append(f"| {fam} | {len(rs)} | {c('imported')} | {c('kernel_compiled')} | "
                     f"{c('compiled')} | {c('golden')} | {c('verified')}/{c('golden')} |")
    failed = [r for r in rows if not r.get("verified")]
    if failed:
        lines += ["", "Each operator that did not verify, with its first error (the evidence), "
                  "the kernel's own first error when its compile failed too, and its class:", "",
                  "| operator | path | first error | kernel compile | class |",
                  "|---|---|---|---|---|"]
        for r in failed:
            kernel = next((f["error"] for f in r.get("failures") or []
                           if " kernel " in (f["step"] or "") and "entry" not in f["step"]), None)
            lines.append(f"| {r['operator']} | `{r['path']}` | {_cell(r['first_error'])} | "
                         f"{_cell(kernel or {True: 'compiles', None: 'not reached'}.get(r.get('kernel_compiled'), '–'))} | "
                         f"{_cell(r['classification'])} |")
        causes = Counter(re.sub(r"^likely ", "", r["classification"] or "unclassified")
                         for r in failed)
        lines += ["", "Classes, most frequent first:", ""]
        lines += [f"- {k} × {_cell(c)}" for c, k in causes.most_common()]
    lines.append(f"<!-- compat:{name}:end -->")
    return "\n".join(lines) + "\n"


def import_markdown(name, repo_url, rows, total, date, commit, soc, sample, measured_by) -> str:
    """The import census: per family how many operators import unedited, with a golden, and
    where their cases come from; every operator that does not import, with why."""
    tag = f"{name}-import"
    n = len(rows)
    lines = [f"<!-- compat:{tag}:begin -->", f"### {repo_url}: the import census", "",
             f"`bench/compat/repository.py --import-only`, {date}, commit `{commit or '?'}`, "
             f"{soc}, opkg `{measured_by}`: {sample}, {n} of the {total} operators with a "
             f"classic kernel. **{sum(1 for r in rows if r['imported'])}/{n} import without "
             "edits.**", "",
             "| family | operators | imported | with the repository's golden | cases from ttk "
             "| cases from the example | default case |", "|---|---|---|---|---|---|---|"]
    by_family = defaultdict(list)
    for r in rows:
        by_family[r["family"]].append(r)
    for fam, rs in sorted(by_family.items()):
        src = Counter("ttk" if "ttk_kernel" in (r.get("cases_from") or "") else
                      "example" if r.get("cases_from") else "default"
                      for r in rs if r["imported"])
        lines.append(f"| {fam} | {len(rs)} | {sum(1 for r in rs if r['imported'])} | "
                     f"{sum(1 for r in rs if r.get('golden'))} | {src['ttk']} | "
                     f"{src['example']} | {src['default']} |")
    failed = [r for r in rows if not r["imported"]]
    if failed:
        lines += ["", "| operator | path | why not imported |", "|---|---|---|"]
        lines += [f"| {r['operator']} | `{r['path']}` | {_cell(r['first_error'])} |"
                  for r in failed]
    lines.append(f"<!-- compat:{tag}:end -->")
    return "\n".join(lines) + "\n"


# -- main -----------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, type=Path, help="the ops repository checkout")
    ap.add_argument("--opbase", required=True, type=Path, help="the opbase checkout")
    ap.add_argument("--families", nargs="+", metavar="FAMILY")
    ap.add_argument("--only", nargs="+", metavar="OP", help="operator directory names")
    ap.add_argument("--every", type=int, default=1, help="every Nth operator (a sample)")
    ap.add_argument("--start", type=int, default=0,
                    help="the sample starts at this operator (--every 4 --start 2: a sample "
                         "disjoint from --every 4)")
    ap.add_argument("--skip-families", nargs="+", default=[], metavar="FAMILY",
                    help="families left out of the sample (after it is drawn)")
    ap.add_argument("--with-golden", action="store_true",
                    help="only operators with the repository's golden (then --every)")
    ap.add_argument("--soc", default="Ascend910B1")
    snapshot.add_option(ap)
    ap.add_argument("--jobs", type=int, default=1, help="operators measured at the same time")
    ap.add_argument("--build-jobs", type=int, default=1, help="opkg build -j for each")
    ap.add_argument("--work", type=Path, help="the scratch workspace, kept between runs "
                    "(default: <tmp>/opkg-compat-<repo>)")
    ap.add_argument("--rebuild", action="store_true", help="measure operators that have a row")
    ap.add_argument("--import-only", action="store_true",
                    help="import each operator, build none (how many import unedited)")
    ap.add_argument("--leave-out-base", nargs="+", default=[], metavar="PATTERN",
                    help="host source patterns of the base library not to compile (e.g. ones "
                         "the sim cannot compile yet, to measure what is behind them); the "
                         "report says so")
    ap.add_argument("--timeout", type=int, default=BUILD_TIMEOUT)
    ap.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "compat.md")
    ap.add_argument("--no-doc", action="store_true", help="leave docs/compat.md alone")
    ap.add_argument("--report-only", action="store_true",
                    help="measure nothing: the results file and table from the rows kept in "
                         "--work (whatever opkg measured them; each row names it)")
    args = ap.parse_args(argv)

    root = R.repository_root(args.repo)
    if root is None:
        raise SystemExit(f"error: {args.repo} is not an ops repository checkout")
    name = R.default_name(root)
    work = (args.work or Path(tempfile.gettempdir()) / f"opkg-compat-{name}").resolve()
    prepare_workspace(work, root, args.opbase, args.leave_out_base)
    from opkg.core.socs import soc_table

    soc_row = soc_table(None).get(args.soc)
    if soc_row is None:
        raise SystemExit(f"error: unknown SoC {args.soc}")
    everything = classic_operators(root, soc_row.short, apt=soc_row.npu_arch == 3510)
    chosen = select(everything, root, args.families, args.every, args.only, args.with_golden,
                    args.start, args.skip_families)
    commit, measured_by = git_head(root), opkg_commit()
    key = f"{commit}:{measured_by}:{args.soc}" + (":import-only" if args.import_only else "") + (
        ":without " + ",".join(args.leave_out_base) if args.leave_out_base else "")
    state = work / "rows.json"
    rows_by_path = json.loads(state.read_text()) if state.is_file() else {}
    todo = [] if args.report_only else [
        d for d in chosen if args.rebuild
        or rows_by_path.get(d.relative_to(root).as_posix(), {}).get("key") != key]
    if args.report_only:
        chosen = [d for d in chosen if d.relative_to(root).as_posix() in rows_by_path]
    print(f"{name} at {commit[:12] if commit else '?'}: {len(chosen)} operators chosen, "
          f"{len(chosen) - len(todo)} measured already (key {key}), {len(todo)} to measure",
          file=sys.stderr, flush=True)
    missing = missing_packages(todo)
    for package, k in missing.most_common():
        print(f"warning: {k} of the goldens to run import {package}, which {sys.executable} "
              "lacks: those operators will not verify (class 'environment')"
              + ("; `make compat-goldens` installs it (a CPU build)" if package == "torch"
                 else ""), file=sys.stderr)
    lock = threading.Lock()
    recorded = load_classification(HERE / f"classification-{name}.yaml")

    def one(op_dir: Path) -> None:
        try:
            row = measure(op_dir, root, work, args.soc, args.build_jobs, args.timeout,
                          args.import_only)
        except Exception as exc:      # one operator's trouble must not end the measurement
            row = {"operator": op_dir.name, "family": op_dir.parent.name,
                   "path": op_dir.relative_to(root).as_posix(), "imported": None,
                   "compiled": None, "kernel_compiled": None, "verified": None, "golden": None,
                   "first_error": f"harness: {type(exc).__name__}: {exc}",
                   "classification": None, "notes": [], "variants": {}}
        classify_row(row, args.import_only, recorded)
        row["key"], row["opkg"] = key, measured_by
        with lock:      # kept as they finish: an interrupted run resumes where it stopped
            rows_by_path[row["path"]] = row
            tmp = state.with_suffix(".tmp")
            tmp.write_text(json.dumps(rows_by_path, indent=1) + "\n")
            os.replace(tmp, state)
        print(f"{row['path']:44} imported={row['imported']} kernel={row['kernel_compiled']} "
              f"verified={row['verified']} {row['first_error'] or ''}"[:220],
              file=sys.stderr, flush=True)

    if len(todo) > 1:
        seed_probe()
    if todo:
        one(todo[0])        # alone: its import adds the repository to the workspace file
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, todo[1:]))
    rows = [rows_by_path[d.relative_to(root).as_posix()] for d in chosen]
    for r in rows:     # the checkout's place on this machine is no part of the evidence
        for k in ("first_error", "detail"):
            if r.get(k):
                r[k] = r[k].replace(f"{root}/", "")
        if args.report_only:       # classified afresh: better rules reclassify old rows
            classify_row(r, args.import_only, recorded)
    if args.report_only:
        measured_by = ", ".join(sorted({r.get("opkg") or "?" for r in rows}))
    date = dt.date.today().isoformat()
    sample = ("families " + ", ".join(args.families) if args.families else "all families") + (
        ", the operators with a golden" if args.with_golden else "") + (
        f", every {args.every}th operator" if args.every > 1 else "") + (
        f" from the {args.start}th (counting from 0)" if args.start else "") + (
        ", without " + ", ".join(args.skip_families) if args.skip_families else "") + (
        f", operators {', '.join(args.only)}" if args.only else "") + (
        "; the base library's host sources " + ", ".join(f"`{p}`" for p in args.leave_out_base)
        + " left out" if args.leave_out_base else "")
    args.results.mkdir(parents=True, exist_ok=True)
    out = args.results / f"compat-{name}{'-import' if args.import_only else ''}-{date}.json"
    out.write_text(json.dumps({"repository": name, "commit": commit, "soc": args.soc,
                               "date": date, "sample": sample, "rows": rows}, indent=1) + "\n")
    if not args.no_doc:
        write_doc(args.doc, f"{name}-import" if args.import_only else name,
                  markdown(name, f"hicann/{root.name}", rows, len(everything), date, commit,
                           args.soc, sample, measured_by, args.import_only, soc_row.short))
    if args.import_only:
        print(f"{name}: {sum(1 for r in rows if r['imported'])}/{len(rows)} imported; "
              f"results: {out}")
        return 0
    verified = sum(1 for r in rows if r.get("verified"))
    print(f"{name}: {verified}/{sum(1 for r in rows if r.get('golden'))} verified of those "
          f"with a golden ({len(rows)} measured); results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
