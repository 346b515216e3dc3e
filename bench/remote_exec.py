"""Remote execution benchmark (not a test: nothing here asserts a time).

A cold build of real packages in a fresh checkout, local, against the same cold build in
another fresh checkout (its own empty local cache, an empty BuildGrid) with --remote-exec: a
BuildGrid on loopback (its scheduler on a throw-away PostgreSQL) and `opkg worker` bots, all on
this machine. Reported: both wall times and their ratio, how many steps each bot ran (the
spread), and whether the bundles are byte-identical. On one machine the workers share its cores
with the client, so this measures the overhead of going through the service, not a speed-up;
with workers on other machines the compiles and verifications leave this one.

Usage: python bench/remote_exec.py [--packages add_custom,softmax] [--soc Ascend910B1]
                                   [--workers 2] [--reps 1] [--jobs N]
Results: a table on stdout, JSON in bench/results/remote-exec-<date>.json.
Needs the `test` extra (BuildGrid with psycopg2) and Debian's postgresql.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from remote_cache import checkout, timed_build  # noqa: E402


def bundles(ws: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((ws / "out" / "bundles").glob("*.opkg.tgz"))}


def main() -> None:
    from test_remote_exec import ExecutionService, Postgres

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--packages", default="add_custom,softmax")
    ap.add_argument("--soc", default="Ascend910B1")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=4)
    args = ap.parse_args()
    packages = args.packages.split(",")
    rows = {"local cold": [], "remote exec cold": []}
    spread, identical, steps = [], [], None
    for rep in range(args.reps):
        with tempfile.TemporaryDirectory(prefix="opkg-bench-exec-") as tmp:
            tmp = Path(tmp)
            (tmp / "bgd").mkdir()
            database = Postgres()
            server = None
            try:
                server = ExecutionService(tmp / "bgd", database.url)
                for i in range(args.workers):
                    server.start_worker(f"w{i + 1}")
                local = checkout(tmp / "local", packages, args.soc, None)
                t, _ = timed_build(local, tmp / "cache-local", args.soc, args.jobs)
                rows["local cold"].append(t)
                remote = checkout(tmp / "remote", packages, args.soc, None)
                os.environ["OPKG_REMOTE_EXEC"] = server.url
                try:
                    t, data = timed_build(remote, tmp / "cache-remote", args.soc, args.jobs)
                finally:
                    del os.environ["OPKG_REMOTE_EXEC"]
                rows["remote exec cold"].append(t)
                spread.append(data["remote_exec"]["workers"])
                steps = data["remote_exec"]["steps"]
                identical.append(bundles(local) == bundles(remote))
            finally:
                if server is not None:
                    server.stop()
                database.stop()
        print(f"rep {rep + 1}/{args.reps}: " + ", ".join(f"{k} {v[-1]:.1f}s"
                                                         for k, v in rows.items())
              + f"; per worker {spread[-1]}", flush=True)
    med = {k: statistics.median(v) for k, v in rows.items()}
    ratio = med["remote exec cold"] / med["local cold"]
    print(f"\nremote execution, {', '.join(packages)} on {args.soc}, {args.workers} workers on "
          f"this machine, -j{args.jobs}, median of {args.reps}:")
    print(f"  cold build, local                 {med['local cold']:8.1f} s")
    print(f"  cold build, --remote-exec         {med['remote exec cold']:8.1f} s  "
          f"({ratio:.2f}x the local build)")
    print(f"  steps sent to workers             {steps:8d}    per worker: {spread[-1]}")
    print(f"  bundles byte-identical            {all(identical)}")
    out = REPO / "bench" / "results" / f"remote-exec-{time.strftime('%Y-%m-%d')}.json"
    out.write_text(json.dumps({"packages": packages, "soc": args.soc, "workers": args.workers,
                               "jobs": args.jobs, "reps": args.reps, "seconds": rows,
                               "median": med, "remote_over_local": ratio, "steps": steps,
                               "per_worker": spread, "bundles_identical": identical,
                               "cpus": os.cpu_count(), "python": platform.python_version()},
                              indent=2) + "\n")
    print(f"results: {out.relative_to(REPO)}")


if __name__ == "__main__":
    main()
