"""Planning a large workspace, this tree against a base tree (`bench/plan.py --base-rev REV`).

A benchmark, not a test: it asserts no time. The workspace is bench/gen.py's (N operators and
a helper library). Each figure is the median over --reps fresh processes of what `opkg build`
does between reading the workspace file and handing the plan to SCons: load the manifests the
request needs, select, add the dependency closure, resolve toolchains (preflight), make the
plan. Imports are not timed (both trees import the same libraries). Three requests:

  all, cold     `//...` with no parsed-manifest cache (out/.opkg/manifests.pickle absent)
  all, warm     `//...` with the cache of the previous run
  one, warm     one package's label: the base tree loads every manifest, this tree only that
                package and its deps

The base tree is `git archive REV opkg toolchains` of this repository (default: the commit before the
external-repositories work), run from the same interpreter. Results: a table on stdout, JSON in
bench/results/plan-<date>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import gen  # noqa: E402

CHILD = r"""
import json, shutil, sys, time
from pathlib import Path
tree, root, pattern, cold = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
sys.path.insert(0, tree)
try:                                   # the layer packages (after the regroup of issue 29)
    from opkg.core.workspace import Workspace
    from opkg.build.plan import BuildRequest, make_plan
    import opkg.core.manifest, opkg.core.graph, opkg.core.manifest_cache  # noqa: untimed
except ImportError:                    # a base tree from before it
    from opkg.workspace import Workspace
    from opkg.plan import BuildRequest, make_plan
    import opkg.manifest, opkg.graph, opkg.manifest_cache  # noqa: untimed
from opkg.toolchains.alignment import preflight
import opkg.toolchains.sim  # noqa: imports untimed
if cold:
    (root / "out" / ".opkg" / "manifests.pickle").unlink(missing_ok=True)
t = time.perf_counter()
ws = Workspace.load(root)
if hasattr(ws, "load_targets"):
    sel = ws.load_targets([pattern], cwd=root)
    assert not sel.problems
    packages, closure = sel.packages, sel.closure
else:
    packages = ws.select([pattern], cwd=root)
    closure = [ws.packages[l] for l in ws.graph.closure([p.label for p in packages])]
res = preflight(ws, closure, None, None)
plan = make_plan(ws, BuildRequest(tuple(closure), None, None, True, True, res))
dt = time.perf_counter() - t
assert plan.actions and plan.targets
print(json.dumps({"seconds": dt, "actions": len(plan.actions), "targets": len(plan.targets)}))
"""


def run(tree: Path, root: Path, pattern: str, cold: bool) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD, str(tree), str(root), pattern,
                        "1" if cold else "0"], capture_output=True, text=True, cwd=root)
    if r.returncode != 0:
        raise RuntimeError(r.stderr[-3000:])
    return json.loads(r.stdout.splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--base-rev", default="01b0f49")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="opkg-plan-bench-") as tmp:
        tmp = Path(tmp)
        base = tmp / "base"
        base.mkdir()
        archive = subprocess.run(["git", "archive", a.base_rev, "opkg", "toolchains"], cwd=REPO,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        trees = {"base": base, "new": REPO}
        root = tmp / "ws"
        gen.generate(root, a.n, tiny=True, cache_dir=tmp / "cache")
        (root / "out" / ".opkg").mkdir(parents=True)     # the manifest cache is kept here
        one = f"//packages/bench_op{0:04d}"                # depends on bench_helper
        rows = []
        for name, pattern, cold in (("all, cold", "//...", True), ("all, warm", "//...", False),
                                    ("one, warm", one, False)):
            times = {}
            for tag, tree in trees.items():
                run(tree, root, pattern, False)          # each tree writes its own cache
                samples = []
                for _ in range(a.reps):
                    samples.append(run(tree, root, pattern, cold)["seconds"])
                times[tag] = statistics.median(samples)
            rows.append({"request": name, "base_s": round(times["base"], 4),
                         "new_s": round(times["new"], 4),
                         "ratio": round(times["new"] / times["base"], 3)})
    print(f"planning {a.n} packages (+1 library), median of {a.reps} processes; "
          f"base = {a.base_rev}")
    print(f"{'request':<12} {'base s':>8} {'new s':>8} {'new/base':>9}")
    for r in rows:
        print(f"{r['request']:<12} {r['base_s']:>8.3f} {r['new_s']:>8.3f} {r['ratio']:>9.3f}")
    out = REPO / "bench" / "results" / f"plan-{time.strftime('%Y-%m-%d')}.json"
    out.write_text(json.dumps({"n": a.n, "reps": a.reps, "base_rev": a.base_rev,
                               "python": sys.version.split()[0], "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
