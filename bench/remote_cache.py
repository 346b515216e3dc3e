"""Remote cache benchmark (not a test: nothing here asserts a time).

Cold build of real packages in a fresh checkout (empty local cache, an empty BuildGrid server
on loopback that receives the uploads) against the same build in a second fresh checkout at
another path with its own empty local cache, served entirely by the remote cache. Both
checkouts are copies of the same packages; the second build compiles nothing. Also reported:
the cold build with no remote cache at all (the upload overhead).

Usage: python bench/remote_cache.py [--packages add_custom,softmax] [--soc Ascend910B1]
                                    [--reps 2] [--jobs N]
Results: a table on stdout, JSON in bench/results/remote-cache-<date>.json.
Needs the `remote` extra (BuildGrid: `bgd`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))


def checkout(root: Path, packages, soc: str, remote: str | None) -> Path:
    (root / "packages").mkdir(parents=True)
    for p in packages:
        shutil.copytree(REPO / "packages" / p, root / "packages" / p)
    text = f"package_roots: [packages]\noutput_dir: out\ndefault_socs: [{soc}]\n"
    if remote:
        text += f"remote_cache: {remote}\n"
    (root / "opkg-workspace.yaml").write_text(text)
    return root


def timed_build(ws: Path, cache: Path, soc: str, jobs: int | None) -> tuple[float, dict]:
    argv = [sys.executable, "-m", "opkg", "build", "//...", "--soc", soc, "--json"]
    if jobs:
        argv += ["-j", str(jobs)]
    env = {**os.environ, "OPKG_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    started = time.monotonic()
    r = subprocess.run(argv, cwd=ws, capture_output=True, text=True, env=env)
    elapsed = time.monotonic() - started
    if r.returncode != 0:
        sys.exit(f"build failed in {ws}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return elapsed, json.loads(r.stdout)


def main() -> None:
    from test_remote_cache import BuildGrid

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--packages", default="add_custom,softmax")
    ap.add_argument("--soc", default="Ascend910B1")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--jobs", type=int)
    args = ap.parse_args()
    packages = args.packages.split(",")
    rows = {"local cold": [], "cold + upload": [], "remote hit": []}
    steps = None
    for rep in range(args.reps):
        with tempfile.TemporaryDirectory(prefix="opkg-bench-remote-") as tmp:
            tmp = Path(tmp)
            (tmp / "bgd").mkdir()
            server = BuildGrid(tmp / "bgd")
            try:
                t, _ = timed_build(checkout(tmp / "plain", packages, args.soc, None),
                                   tmp / "cache-plain", args.soc, args.jobs)
                rows["local cold"].append(t)
                t, cold = timed_build(checkout(tmp / "a", packages, args.soc, server.url),
                                      tmp / "cache-a", args.soc, args.jobs)
                rows["cold + upload"].append(t)
                t, hit = timed_build(checkout(tmp / "b", packages, args.soc, server.url),
                                     tmp / "cache-b", args.soc, args.jobs)
                rows["remote hit"].append(t)
                assert hit["ran"] == 0, hit       # a benchmark of nothing otherwise
                steps = cold["ran"]
            finally:
                server.stop()
        print(f"rep {rep + 1}/{args.reps}: " + ", ".join(f"{k} {v[-1]:.1f}s"
                                                         for k, v in rows.items()), flush=True)
    med = {k: statistics.median(v) for k, v in rows.items()}
    ratio = med["local cold"] / med["remote hit"]
    print(f"\nremote cache, {', '.join(packages)} on {args.soc} ({steps} steps), "
          f"median of {args.reps}:")
    print(f"  cold build, no remote cache       {med['local cold']:8.1f} s")
    print(f"  cold build, uploading             {med['cold + upload']:8.1f} s  "
          f"({med['cold + upload'] / med['local cold']:.2f}x of the local cold build)")
    print(f"  fresh checkout, remote cache hit  {med['remote hit']:8.1f} s  "
          f"({ratio:.1f}x faster than cold)")
    out = REPO / "bench" / "results" / f"remote-cache-{time.strftime('%Y-%m-%d')}.json"
    out.write_text(json.dumps({"packages": packages, "soc": args.soc, "steps": steps,
                               "reps": args.reps, "seconds": rows, "median": med,
                               "cold_over_remote_hit": ratio,
                               "cpus": os.cpu_count(), "python": platform.python_version()},
                              indent=2) + "\n")
    print(f"results: {out.relative_to(REPO)}")


if __name__ == "__main__":
    main()
