#!/usr/bin/env python3
"""The compatibility harness: do real public operators import, compile and verify unmodified?

    bench/compat/run.py --corpus DIR [--only NAME...] [--jobs N] [--corpus-commit SHA]

For each operator project of the corpus (a checkout of tjulitianyi1997/AscendProjects or of
cann-ops; the layout tells which): `opkg import` of the unmodified sources into a scratch
workspace, the cases and NumPy golden of our own module bench/compat/<corpus>/<project>.py,
`opkg build --json`, and one row of results. It writes bench/results/compat-<corpus>-<date>.json
and regenerates the corpus's section of docs/compat.md. A measurement like bench/run.py, not a
test: it needs the corpus, which CI does not have.

A module (our code, written from the operator's mathematics and its data generator):

    PATH = "src/math/less_equal"        # the project inside the corpus
    SOCS = ["Ascend910B1"]              # optional: SoCs to build (default: what import picks)
    CASES = [{"name": ..., "shapes": {...}, "attrs": {...}, "ranges": {...}}]   # verify.cases
    TOLERANCE = {"float16": {"rtol": ..., "atol": ..., "error_ratio": ...}}       # optional
    def golden(x1, x2, **attrs): ...    # inputs in order, attrs as keyword arguments
    OUT_OF_SCOPE = None                 # or a reason: not built, classified "out of scope"

Builds run with DEVICE_MODES (`--lenient-copy`): the harness measures the device's result, and
the sim's stricter defaults are lints (bench/compat/README.md).

A project without a module is imported and reported "no golden yet". bench/compat/
classification.yaml (op -> {class, note}) records what people found by reading the errors.
"""

from __future__ import annotations

import argparse
from collections import Counter
import datetime as dt
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import snapshot  # noqa: E402

PINNED = snapshot.pin(sys.argv)     # before anything imports opkg: --opkg-at REV
# modules are loaded, checked and copied into packages as one text (their _shared.py inlined)
from check_modules import load_module, module_source  # noqa: E402
REPO = HERE.parent.parent
CANN_OPS_FAMILIES = ("math", "activation", "loss", "foreach", "conversion", "matmul")
MIRRORS = Path("/work/.mirror")
CORPUS_REPOS = {"ascendprojects": "tjulitianyi1997/AscendProjects",
                "cann-ops": "Hayden727/cann-ops"}
NO_GOLDEN = "no golden yet"
SETTLED = ("out of scope", NO_GOLDEN, "import gap", "not run", "module gap", "manifest gap")
BUILD_TIMEOUT = 1800
# opkg build options that make the sim do what the device does where its default is a lint
# (bench/compat/README.md): measured operators are judged by the device's result
DEVICE_MODES = ("--lenient-copy",)


# -- the corpus --------------------------------------------------------------------------------


def corpus_kind(root: Path) -> str:
    if (root / "operator").is_dir() and any((root / "operator").glob("*/FrameworkLaunch")):
        return "ascendprojects"
    if (root / "src").is_dir() and any((root / "src" / f).is_dir() for f in CANN_OPS_FAMILIES):
        return "cann-ops"
    raise SystemExit(f"error: {root} is neither an AscendProjects checkout (operator/<X>Sample/"
                     "FrameworkLaunch/) nor a cann-ops one (src/<family>/<op>/)")


def _is_project(d: Path) -> bool:
    return (d / "op_host").is_dir() and (d / "op_kernel").is_dir()


def projects(root: Path, kind: str) -> dict[str, Path]:
    """name -> project directory, in a stable order."""
    found = {}
    if kind == "ascendprojects":
        for d in sorted((root / "operator").glob("*/FrameworkLaunch/*")):
            if d.is_dir() and _is_project(d):
                found[d.name] = d
    else:
        for family in CANN_OPS_FAMILIES:
            for d in sorted((root / "src" / family).glob("*")):
                if d.is_dir() and _is_project(d):
                    found.setdefault(d.name, d)
    return found


def opkg_commit() -> str:
    """The opkg checkout measuring: its short commit, "+changes" when the tree differs from it
    (rows of several runs are merged, so each says what measured it); a pinned snapshot's
    commit as it is (--opkg-at)."""
    if PINNED:
        return PINNED
    tree = HERE.parents[1]
    def git(*a):
        return subprocess.run(["git", "-C", str(tree), *a], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def corpus_commit(root: Path, kind: str, explicit: str | None) -> str | None:
    if explicit:
        return explicit
    candidates = [MIRRORS / (CORPUS_REPOS[kind].replace("/", "+")) / "repo", root / ".git"]
    for git_dir in candidates:
        if git_dir.exists():
            r = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                               capture_output=True, text=True)
            if r.returncode == 0:
                return r.stdout.strip()
    return None


# -- one operator ------------------------------------------------------------------------------


def package_name(project: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", project).lower()
    s = re.sub(r"[^a-z0-9_]", "_", s)
    return s if s[:1].isalpha() else f"op_{s}"


def opkg(*args, cwd: Path, timeout=BUILD_TIMEOUT) -> subprocess.CompletedProcess:
    """Run the opkg command line; on a timeout its whole process group (SCons, g++, the
    verifier) is ended, not only opkg itself."""
    argv = [sys.executable, "-m", "opkg", *args]
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def run_one(name: str, project: Path, root: Path, module_path: Path | None, work: Path,
            jobs: int, timeout: int = BUILD_TIMEOUT) -> dict:
    row = {"operator": name, "path": project.relative_to(root).as_posix(),
           "imported": None, "compiled": None, "verified": None, "first_error": None,
           "classification": None, "notes": [], "warnings": [], "variants": {}}
    module = load_module(module_path) if module_path else None
    if module is not None and getattr(module, "OUT_OF_SCOPE", None):
        row["classification"] = f"out of scope: {module.OUT_OF_SCOPE}"
        return row
    ws = work / name
    shutil.rmtree(ws, ignore_errors=True)
    (ws / "packages").mkdir(parents=True)
    (ws / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    pkg = ws / "packages" / package_name(name)
    r = opkg("import", str(project), "--dest", str(pkg), "--json", cwd=ws)
    if r.returncode != 0:
        text = r.stderr or r.stdout
        row["imported"] = False
        row["detail"] = text[-4000:]
        _import_failure(row, text)
        return row
    info = json.loads(r.stdout)
    row["imported"] = True
    row["notes"] = info.get("notes", [])
    # warnings name the scratch package's files: say where they are in the corpus instead
    row["warnings"] = [n.removeprefix("compiler warning: ").replace(f"{pkg}/", f"{row['path']}/")
                       .replace(f"packages/{pkg.name}/", f"{row['path']}/")
                       for n in row["notes"] if n.startswith("compiler warning: ")]
    if module is None:
        row["classification"] = NO_GOLDEN
        return row
    row["inplace"] = list(getattr(module, "INPLACE", None) or [])
    _apply_module(pkg, module, module_path, timeout)
    try:
        # the harness measures what the device computes: where the sim's default is stricter
        # than the device's defined behaviour it is a lint, so build with the device's
        # (--lenient-copy: a ragged DataCopy truncates to whole 32-byte blocks, as on the device)
        r = opkg("build", f"//packages/{pkg.name}", "--json", "-j", str(jobs), *DEVICE_MODES,
                 cwd=ws, timeout=timeout)
    except subprocess.TimeoutExpired:
        row["first_error"] = f"harness: the build took longer than {timeout} s"
        return row
    try:
        result = json.loads(r.stdout)
    except json.JSONDecodeError:
        row["compiled"] = False
        row["first_error"] = _first_line(r.stderr or r.stdout)
        row["detail"] = (r.stderr or r.stdout)[-4000:]
        return row
    if result.get("error"):      # opkg refused the manifest: the module's cases, not the op
        e = result["error"]
        row["first_error"] = f"manifest {e.get('field') or ''}: {e.get('message')}"
        row["classification"] = MODULE_GAP
        return row
    _read_build(row, result, ws)
    return row


def _import_failure(row: dict, text: str) -> None:
    """first_error and, where the import itself is the gap, the classification of a failed
    import. Host sources that do not compile on the sim (with an OpDef that cannot be read
    from the text) are a sim gap, classified from the compiler's error like a failed build."""
    row["first_error"] = _first_line(text).removeprefix("error: ")
    row["classification"] = None
    unsupported = re.search(r"has (dtype \S+), which opkg does not support", text)
    compile_error = _first_error("\n".join(text.splitlines()[1:]))
    if unsupported:
        row["first_error"] = unsupported.group(0)
        row["classification"] = (f"import gap: {unsupported.group(1).replace('ge::', '')} "
                                 "(opkg has no such dtype)")
    elif "opkg needs at least one output" in text:
        # only in results of an opkg before verify.inplace: import now writes such an operator
        row["classification"] = ("import gap: no outputs, refused by an opkg before "
                                 "verify.inplace (measure again)")
    elif "opkg needs distinct tensor names" in text:
        row["classification"] = ("import gap: an input and an output share a name (CANN "
                                 "allows it, a manifest cannot say it)")
    elif "do not compile on the sim" in text and compile_error:
        row["first_error"] = "host sources (blocks the import): " + compile_error
    else:
        row["classification"] = "import gap"


MODULE_GAP = "module gap: its cases are not valid manifest cases"


def _apply_module(pkg: Path, module, module_path: Path, timeout: int) -> None:
    """The module's cases, golden, SoCs and tolerance replace what import generated."""
    manifest = pkg / "opkg.yaml"
    data = yaml.safe_load(manifest.read_text())
    (pkg / "compat_golden.py").write_text(module_source(module_path))
    data["verify"]["golden"] = "compat_golden.py:golden"
    data["verify"]["cases"] = [dict(c) for c in module.CASES]
    if getattr(module, "TOLERANCE", None):
        data["verify"]["tolerance"] = module.TOLERANCE
    if getattr(module, "SOCS", None):
        data["socs"] = list(module.SOCS)
    if getattr(module, "INPLACE", None):     # inputs the kernel rewrites, compared after the run
        data["verify"]["inplace"] = list(module.INPLACE)
    data["verify"]["timeout"] = timeout
    manifest.write_text(yaml.safe_dump(data, sort_keys=False))


def _read_build(row: dict, result: dict, ws: Path) -> None:
    failures = result.get("failures") or []
    compile_fail = [f for f in failures if f.get("step") in ("compile", "link", "check")
                    or (f.get("description") or "").startswith(("compile", "link"))]
    reports = {}
    for t in result.get("targets", []):
        for variant, rep in (t.get("variants") or {}).items():
            reports[f"{t['soc']}/{variant}"] = rep
    row["variants"] = reports
    # a declared variant the build did not verify is listed NOT RUN: not a result
    ran = [r for r in reports.values() if r.get("status") != "NOT RUN"]
    row["compiled"] = not compile_fail and bool(ran)
    row["verified"] = bool(result.get("ok")) and bool(ran)
    if row["verified"]:
        return
    if compile_fail:
        row["first_error"] = _first_error(compile_fail[0].get("output") or "")
        row["detail"] = (compile_fail[0].get("output") or "")[-4000:]
        return
    # verification failed: the first failing case's error from the reports on disk
    row["first_error"] = first_report_error(sorted((ws / "out").rglob("verification*.json")))
    if row["first_error"]:
        return
    if failures:
        row["first_error"] = _first_error(failures[0].get("output") or
                                          failures[0].get("description") or "")


def first_report_error(paths) -> str | None:
    """The first failing case's error among verification reports on disk, with its SoC and
    variant; None when no report names one."""
    for path in paths:
        try:
            rep = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        if rep.get("passed"):
            continue
        where = f"{rep.get('soc') or path.parent.parent.name}/{rep.get('variant') or path.parent.name}"
        if rep.get("error"):
            return f"{where}: {_first_line(rep['error'])}"
        for case in rep.get("results", []):
            if case.get("passed"):
                continue
            if case.get("error"):
                return f"{where} {case['case']}: {_first_line(case['error'])}"
            worst = max(case.get("outputs", {}).items(),
                        key=lambda kv: kv[1].get("mismatch_ratio") or 0, default=None)
            if worst:
                return f"{where} {case['case']}: {mismatch_text(*worst)}"
    return None


def mismatch_text(name: str, result: dict) -> str:
    """An output's mismatch as the table shows it: the count always (a few bad elements of a
    large output round to 0.00%), the share with enough digits to be nonzero, and the first."""
    count, total = result.get("mismatches"), result.get("elements")
    if not isinstance(count, int) or not total:
        return f"{name} mismatches"
    ratio = count / total
    share = f"{ratio:.2%}" if ratio >= 1e-4 else f"{ratio * 100:.1g}%"
    text = f"{name} mismatches ({count} of {total} elements outside tolerance, {share})"
    first = result.get("first_mismatch")
    if first:
        text += (f"; first at {first.get('index')}: {first.get('actual')}, "
                 f"expected {first.get('expected')}")
    return text


def _first_line(text: str) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def _first_error(text: str) -> str:
    """The first compiler `error:` line (its message, without the long path), the first
    difference of an OpDef check, else line 1."""
    lines = text.splitlines()
    if lines and "disagrees with the manifest" in lines[0] and len(lines) > 1:
        return "OpDef check: " + lines[1].strip()[:280]
    for line in lines:
        undefined = re.search(r"undefined reference to `([^']+)'", line)
        if undefined:
            return f"link: undefined reference to `{undefined.group(1)}`"[:300]
        if " error: " in line:
            m = re.match(r"^(\S+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$", line.strip())
            if m:
                return f"{Path(m.group(1)).name}:{m.group(2)}: {m.group(3)}"[:300]
            return line.strip()[:300]
    return _first_line(text)


# -- classification ----------------------------------------------------------------------------


def classify(row: dict, recorded: dict) -> None:
    """A row's classification: what people recorded wins; else a heuristic from the error."""
    entry = recorded.get(row["operator"])
    if row["verified"]:
        row["classification"] = None
        return
    if entry:
        note = entry.get("note")
        row["classification"] = entry["class"] + (f": {note}" if note else "")
        return
    # what the run itself settled (no module, out of scope, import failed) stays; a guess from
    # the error is made afresh, so better patterns reclassify old results
    if row["imported"] is False and row.get("detail") and (
            row["classification"] or "").startswith("import gap"):
        _import_failure(row, row["detail"])     # results of an older harness: look again
    if (row["classification"] or "").startswith("module gap") and row["first_error"]:
        row["classification"] = MODULE_GAP
    if (row["classification"] or "").startswith(SETTLED):
        return
    err = row["first_error"] or ""
    for pattern, label in PATTERNS:
        m = re.search(pattern, err)
        if m:
            row["classification"] = "likely " + label.format(*m.groups())
            return
    row["classification"] = ("unclassified (does not compile)" if row["compiled"] is False
                             else "unclassified (does not verify)")


# First-error shapes that name a known kind of gap; a guess ("likely ...") until someone reads the
# error and records it in classification.yaml.
_Q, _E = "[‘'`]", "[’'`]"
PATTERNS = [
    (rf"{_Q}ge{_E} does not name a type", "sim gap: register/tilingdata_base.h does not bring "
     "in ge::DataType (graph/types.h) as CANN's does"),
    (rf"{_Q}(\w+){_E} does not name a type", "sim gap: {0} missing"),
    (rf"{_Q}(cout|cerr|endl){_E} is not a member of {_Q}std{_E}",
     "sim gap: CANN's headers bring in <iostream> (std::{0})"),
    (r"conflicting declaration of C function .void (\w+)\(",
     "sim gap: a kernel entry named {0} collides with the C library's {0}"),
    (r"there are no arguments to .(\w+). that depend on a template parameter",
     "sim gap: {0} visible unqualified, as CANN's headers declare it"),
    (r"([\w/]+\.h): No such file or directory", "sim gap: header {0} missing"),
    (rf"{_Q}([\w:<>]+){_E} (?:was not declared|is not a member of {_Q}(?:AscendC|gert|ops|ge){_E})",
     "sim gap: {0} missing"),
    (rf"has no member named {_Q}(\w+){_E}", "sim gap: member {0} missing"),
    (r"link: undefined reference to `([^`]+)`", "sim gap: {0} not defined (host runtime)"),
    (rf"kmisc\.h:\d+: (?:{_Q}\w+{_E}|expression) cannot be used as a function",
     "sim gap: ASSERT as a device build defines it (`x ASSERT(...)` compiles on the device)"),
    (r"GlobalTensor::GetValue\(\d+\) is past the \d+ elements given to SetGlobalBuffer",
     "sim gap: SetGlobalBuffer's size taken as a bound (on the device it is not one)"),
    (r"no match for .operator(\S+). \(operand types are .AscendC::LocalTensor",
     "sim gap: LocalTensor operator{0}"),
    (r"dtype bfloat16 has no NumPy equivalent", "sim gap: bfloat16 verification"),
    (r"accesses GM bytes \[\d+, \d+\) of .*which has only \d+ bytes",
     "sim gap: GM allocation padding (a rounded-up tail read that stays inside the device "
     "allocation)"),
    (r"reads \w+ bytes .* that nothing wrote", "sim gap: definedness of lanes no result "
     "depends on (MemorySanitizer-style tracking)"),
    (r"OpDef check: .*declares attr '(\w+)' as optional where opkg.yaml has required",
     "sim gap: OpAttrDef required by default ({0})"),
    (r"OpDef check: .*has no AddConfig", "sim gap: SoC table (the OpDef's SoCs have no core "
     "counts)"),
    (r"(\w+): dst starts at UB offset \d+, which is not 32-byte aligned",
     "sim gap: {0} alignment rule"),
]


def load_classification(path: Path) -> dict:
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text()) or {}
    out = {}
    for op, entry in data.items():
        if isinstance(entry, str):
            entry = {"class": entry}
        out[str(op)] = entry
    return out


# -- reports -----------------------------------------------------------------------------------


def _yes(v) -> str:
    return {True: "yes", False: "no", None: "–"}[v]


def _cell(text) -> str:
    return (str(text) if text else "–").replace("|", "\\|").replace("\n", " ")


def markdown(kind: str, rows: list[dict], date: str, commit: str | None) -> str:
    scope = [r for r in rows if not (r["classification"] or "").startswith("out of scope")]
    with_golden = [r for r in scope if r["classification"] != NO_GOLDEN]
    verified = sum(1 for r in scope if r["verified"])
    lines = [f"<!-- compat:{kind}:begin -->", f"## {CORPUS_REPOS[kind]}", "",
             f"Measured {date} on commit `{commit or 'unknown'}` with "
             f"`make compat CORPUS=<{kind} checkout>`; rows by the opkg commit that measured "
             "them: " + ", ".join(f"`{c}` {n}" for c, n in Counter(
                 r.get("opkg") or "unrecorded" for r in rows if r["imported"] is not None
                 or r["first_error"]).most_common()) + ".", "",
             f"**{verified}/{len(scope)} verified** ({len(rows) - len(scope)} out of scope, "
             f"{len(scope) - len(with_golden)} without a golden yet; "
             f"{verified}/{len(with_golden)} of those with one).", "",
             "| operator | corpus path | imported | compiled | verified | first error | "
             "classification |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['operator']} | `{r['path']}` | {_yes(r['imported'])} | "
                     f"{_yes(r['compiled'])} | {_yes(r['verified'])} | "
                     f"{_cell(r['first_error'])} | {_cell(r['classification'])} |")
    causes = Counter(re.sub(r"^likely ", "", r["classification"]) for r in rows
                     if r["classification"] and not r["verified"])
    if causes:
        lines += ["", "Causes, most frequent first (\"likely\" guesses from the first error "
                  "counted with the recorded ones):", ""]
        lines += [f"- {n} × {_cell(c)}" for c, n in causes.most_common(15)]
        if len(causes) > 15:
            lines.append(f"- {sum(causes.values()) - sum(n for _, n in causes.most_common(15))}"
                         " more, each listed in the table")
    warned = [r for r in rows if r.get("warnings")]
    if warned:
        lines += ["", "Compiler warnings in the operators' own sources:", ""]
        for r in warned:
            for w in r["warnings"]:
                w = re.sub(r"^\S*?/packages/[a-z0-9_]+/", r["path"] + "/", w)
                lines.append(f"- {r['operator']}: `{_cell(w)}`")
    lines.append(f"<!-- compat:{kind}:end -->")
    return "\n".join(lines) + "\n"


DOC_HEAD = """# Compatibility with real operators

How many public Ascend C operators import, compile and verify on the sim **unmodified**,
measured by `make compat CORPUS=DIR` (bench/compat/run.py; the goldens and cases are our own
code in `bench/compat/<corpus>/<project>.py`, written from each operator's mathematics and data
generator; nothing of the corpora is copied). Each section is regenerated by the harness; the
classifications people recorded by reading the errors live in `bench/compat/classification.yaml`.
Classes: a named sim gap, an import gap, out of scope (cube/matmul, with the API), a bug of the
operator (only with evidence), or "no golden yet" (no module written for it). A
classification starting with "likely" is the harness's guess from the first error; one without
it was recorded by someone who read the error.

"""


def write_doc(doc: Path, kind: str, section: str) -> None:
    text = doc.read_text() if doc.is_file() else DOC_HEAD
    begin, end = f"<!-- compat:{kind}:begin -->", f"<!-- compat:{kind}:end -->"
    if begin in text and end in text:
        a, b = text.index(begin), text.index(end) + len(end) + 1
        text = text[:a] + section + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    tmp = doc.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, doc)


# -- main --------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="project directory names")
    ap.add_argument("--exclude", nargs="+", metavar="NAME", default=[],
                    help="project directory names to leave out (e.g. measured by another run)")
    ap.add_argument("--jobs", type=int, default=1, help="operators built at the same time")
    ap.add_argument("--build-jobs", type=int, default=1, help="opkg build -j for each")
    snapshot.add_option(ap)
    ap.add_argument("--corpus-commit", help="the corpus commit (default: from its git dir)")
    ap.add_argument("--modules", type=Path, help="per-operator modules (default: "
                    "bench/compat/<corpus>/)")
    ap.add_argument("--classification", type=Path, default=HERE / "classification.yaml")
    ap.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    ap.add_argument("--doc", type=Path, default=REPO / "docs" / "compat.md")
    ap.add_argument("--work", type=Path, help="scratch directory (default: a temporary one)")
    ap.add_argument("--timeout", type=int, default=BUILD_TIMEOUT,
                    help="seconds for one operator's build (default %(default)s)")
    ap.add_argument("--report-only", type=Path, nargs="+", metavar="JSON",
                    help="regenerate docs/compat.md (and one merged results file) from results "
                         "files (an interrupted run keeps the rows that finished; a later "
                         "file wins); projects none of them has show as not run")
    args = ap.parse_args(argv)

    root = args.corpus.resolve()
    kind = corpus_kind(root)
    found = projects(root, kind)
    if args.only:
        unknown = [n for n in args.only if n not in found]
        if unknown:
            raise SystemExit(f"error: no project named {', '.join(unknown)} in {root}")
        found = {n: found[n] for n in args.only}
    found = {n: p for n, p in found.items() if n not in args.exclude}
    modules_dir = args.modules or HERE / kind
    recorded = load_classification(args.classification)
    if args.report_only:
        done: dict[str, dict] = {}
        for path in args.report_only:
            data = json.loads(path.read_text())
            done.update({r["operator"]: r for r in data["rows"]})
        rows = [done.get(n) or _not_run(n, p, root) for n, p in found.items()]
        for row in rows:
            classify(row, recorded)
        commit = args.corpus_commit or data["commit"]
        args.results.mkdir(parents=True, exist_ok=True)
        out = args.results / f"compat-{kind}-{data['date']}.json"
        out.write_text(json.dumps({"corpus": CORPUS_REPOS[kind], "kind": kind, "commit": commit,
                                   "date": data["date"], "rows": rows}, indent=1) + "\n")
        write_doc(args.doc, kind, markdown(kind, rows, data["date"], commit))
        print(_summary(kind, rows) + f"; results: {out}; table: {args.doc}")
        return 0
    work = args.work or Path(tempfile.mkdtemp(prefix=f"opkg-compat-{kind}-"))
    work.mkdir(parents=True, exist_ok=True)

    def one(item):
        name, project = item
        mod = modules_dir / f"{name}.py"
        try:
            row = run_one(name, project, root, mod if mod.is_file() else None, work,
                          args.build_jobs, args.timeout)
        except Exception as exc:   # one operator's trouble must not end the measurement
            row = {"operator": name, "path": project.relative_to(root).as_posix(),
                   "imported": None, "compiled": None, "verified": None,
                   "first_error": f"harness: {type(exc).__name__}: {exc}",
                   "classification": None, "notes": [], "warnings": [], "variants": {}}
        classify(row, recorded)
        row["opkg"] = measured_by
        print(f"{name:32} imported={_yes(row['imported']):3} compiled={_yes(row['compiled']):3} "
              f"verified={_yes(row['verified']):3} {row['first_error'] or ''}"[:200],
              file=sys.stderr, flush=True)
        return row

    date = dt.date.today().isoformat()
    commit = corpus_commit(root, kind, args.corpus_commit)
    measured_by = opkg_commit()
    args.results.mkdir(parents=True, exist_ok=True)
    out = args.results / f"compat-{kind}-{date}.json"
    finished: dict[str, dict] = {}
    lock = threading.Lock()

    def save() -> None:
        rows_now = [finished[n] for n in found if n in finished]
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps({"corpus": CORPUS_REPOS[kind], "kind": kind, "commit": commit,
                                   "date": date, "rows": rows_now}, indent=1) + "\n")
        os.replace(tmp, out)

    def record(item):
        row = one(item)
        with lock:      # rows are kept as they finish: an interrupted run keeps its results
            finished[row["operator"]] = row
            save()
        return row

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(record, found.items()))
    if not args.only:
        write_doc(args.doc, kind, markdown(kind, rows, date, commit))
    print(_summary(kind, rows) + f"; results: {out}" + ("" if args.only else
                                                        f"; table: {args.doc}"))
    return 0


def _summary(kind: str, rows: list[dict]) -> str:
    scope = [r for r in rows if not (r["classification"] or "").startswith("out of scope")]
    return f"{kind}: {sum(1 for r in scope if r['verified'])}/{len(scope)} verified"


def _not_run(name: str, project: Path, root: Path) -> dict:
    return {"operator": name, "path": project.relative_to(root).as_posix(), "imported": None,
            "compiled": None, "verified": None, "first_error": None,
            "classification": "not run in this measurement", "notes": [], "warnings": [],
            "variants": {}}


if __name__ == "__main__":
    sys.exit(main())
