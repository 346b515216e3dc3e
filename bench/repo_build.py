#!/usr/bin/env python3
"""A whole ops repository per coffee: import and build an ops repository's classic operators for
one SoC, cold, warm and from a remote cache (`bench/repo_build.py`). A benchmark, not a test:
nothing here asserts a time.

    bench/repo_build.py --repo OPS_NN --opbase OPBASE [--soc Ascend910B1] [--families F...]
        [--every N] [--limit K] [--jobs N] [--work DIR] [--no-remote]

In one run, in a fresh scratch directory (`--work`, emptied first):

  import          `opkg import` of the chosen operator directories into workspace A (the base
                  library named as `opkg import --base` names it; bench/compat/repository.py)
  cold            `opkg build //... --keep-going` in A with an empty local cache, uploading to a
                  BuildGrid started on loopback (its CAS empty): wall, CPU of the build's process
                  tree (user + sys), CPU utilisation = CPU / (wall x cores), steps run
  warm, null      the same command again (nothing changed: the fast path)
  warm, restore   after `opkg clean`: every step that succeeded restored from the local cache
  remote fill     workspace B, a copy of A at another path without out/, an empty local cache,
                  the same remote cache: what an empty checkout of a colleague or CI gets

Steps that failed (operators the sim cannot build yet, or that do not verify) are not cached
and run again in every later build; the table counts them apart, so a hit rate is of the
steps a cache can hold. --every/--limit take a sample (whole repositories take hours here).
Results: a table on stdout, JSON in bench/results/repo-build-<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH / "compat"))
sys.path.insert(0, str(REPO / "tests"))
import repository as harness  # noqa: E402  bench/compat/repository.py

from opkg.importers import repository as R  # noqa: E402


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(argv: list[str], cwd: Path, env: dict) -> dict:
    """One opkg command: its wall time, its process tree's CPU time, its --json answer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "opkg", *argv], cwd=cwd, env=env,
                       capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        answer = json.loads(r.stdout)
    except json.JSONDecodeError:
        answer = None
    if answer is None:
        sys.exit(f"opkg {' '.join(argv)} in {cwd} gave no JSON (exit {r.returncode}):\n"
                 f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "exit": r.returncode,
            "answer": answer}


def build_figures(res: dict, cores: int) -> dict:
    a = res["answer"]
    targets = a.get("targets", [])
    ran, cached = a.get("ran", 0), a.get("cached", 0)
    failed_steps = sum(1 for t in targets for s in t.get("variants", {}).values()
                       if s.get("status") == "NOT RUN")
    return {"wall_s": res["wall_s"], "cpu_s": res["cpu_s"],
            "utilisation": round(res["cpu_s"] / (res["wall_s"] * cores), 3) if res["wall_s"] else None,
            "ran": ran, "cached": cached,
            "hit_rate": round(cached / (ran + cached), 3) if ran + cached else None,
            "targets": len(targets), "verified": sum(1 for t in targets if t.get("passed")),
            "variants_not_run": failed_steps, "exit": res["exit"]}


def workspace_copy(a: Path, b: Path) -> None:
    """B: A's workspace without its outputs, at another path (an empty checkout)."""
    shutil.copytree(a, b, ignore=lambda d, names: ["out"] if Path(d) == a else [],
                    symlinks=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", required=True, type=Path, help="the ops repository checkout")
    ap.add_argument("--opbase", required=True, type=Path, help="the opbase checkout")
    ap.add_argument("--soc", default="Ascend910B1")
    ap.add_argument("--families", nargs="+", metavar="FAMILY")
    ap.add_argument("--every", type=int, default=1, help="every Nth operator (a sample)")
    ap.add_argument("--limit", type=int, help="at most this many operators (after --every)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="opkg build -j")
    ap.add_argument("--work", type=Path, default=Path("/tmp/opkg-bench-repo-build"),
                    help="scratch directory, emptied first")
    ap.add_argument("--no-remote", action="store_true",
                    help="no BuildGrid: cold and warm only (without the `remote` extra)")
    args = ap.parse_args(argv)

    root = R.repository_root(args.repo)
    if root is None:
        raise SystemExit(f"error: {args.repo} is not an ops repository checkout")
    from opkg.core.socs import soc_table

    soc = soc_table(None).get(args.soc)
    if soc is None:
        raise SystemExit(f"error: unknown SoC {args.soc}")
    ops = harness.select(harness.classic_operators(root, soc.short, apt=soc.npu_arch == 3510),
                         root, args.families, args.every, None)[:args.limit]
    if not ops:
        raise SystemExit("error: no operator chosen")
    work = args.work.resolve()
    shutil.rmtree(work, ignore_errors=True)
    a, b = work / "a", work / "b"
    harness.prepare_workspace(a, root, args.opbase)
    cores = os.cpu_count() or 1
    env = {**os.environ, "OPKG_CACHE_DIR": str(work / "cache-a"),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    env.pop("OPKG_REMOTE_CACHE", None)
    figures: dict = {"repository": R.default_name(root), "commit": harness.git_head(root),
                     "opkg": harness.opkg_commit(), "soc": args.soc, "operators": len(ops),
                     "cores": cores, "jobs": args.jobs, "python": platform.python_version(),
                     # CPU utilisation is of this build's processes: load from others lowers it
                     "load_before": os.getloadavg()}

    log(f"importing {len(ops)} operators of {root.name} for {args.soc}")
    imported, wall, cpu = [], 0.0, 0.0
    for op in ops:          # one directory per `opkg import` (an operator, a family or all)
        res = run(["import", str(op), "--soc", args.soc, "--json"], a, env)
        imported += [o for o in res["answer"].get("operators", []) if o.get("dest")]
        wall, cpu = wall + res["wall_s"], cpu + res["cpu_s"]
    figures["import"] = {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                         "imported": len(imported)}
    server = None
    if not args.no_remote:
        from test_remote_cache import BuildGrid

        (work / "bgd").mkdir()
        server = BuildGrid(work / "bgd")
        with open(a / "opkg-workspace.yaml", "a") as f:
            f.write(f"remote_cache: {server.url}\n")
    try:
        build = ["build", "//...", "--soc", args.soc, "--json", "--keep-going",
                 "-j", str(args.jobs), *harness.DEVICE_MODES]
        log(f"cold build of {len(imported)} packages, -j{args.jobs}"
            + (f", uploading to {server.url}" if server else ""))
        figures["cold"] = build_figures(run(build, a, env), cores)
        log(f"cold: {figures['cold']}")
        figures["warm_null"] = build_figures(run(build, a, env), cores)
        subprocess.run([sys.executable, "-m", "opkg", "clean"], cwd=a, env=env,
                       capture_output=True, check=True)
        figures["warm_restore"] = build_figures(run(build, a, env), cores)
        log(f"warm: null {figures['warm_null']['wall_s']} s, "
            f"restore {figures['warm_restore']['wall_s']} s")
        if server:
            workspace_copy(a, b)
            env_b = {**env, "OPKG_CACHE_DIR": str(work / "cache-b")}
            figures["remote_fill"] = build_figures(run(build, b, env_b), cores)
            log(f"remote fill: {figures['remote_fill']}")
    finally:
        if server:
            server.stop()

    figures["load_after"] = os.getloadavg()
    print_table(figures)
    out = REPO / "bench" / "results" / f"repo-build-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=1) + "\n")
    print(f"JSON: {out.relative_to(REPO)}")
    return 0


def print_table(f: dict) -> None:
    print(f"\n{f['repository']} at {(f['commit'] or '?')[:12]}, {f['operators']} operators "
          f"({f['import']['imported']} imported), {f['soc']}, -j{f['jobs']} on {f['cores']} cores, "
          f"opkg {f['opkg']}")
    print(f"{'':18} {'wall':>9} {'CPU':>9} {'util':>6} {'ran':>6} {'cached':>7} {'hit rate':>8} "
          f"{'verified':>9}")
    print(f"{'import':18} {f['import']['wall_s']:8.1f}s {f['import']['cpu_s']:8.1f}s")
    base = f["cold"]["wall_s"]
    for key, name in (("cold", "cold build"), ("warm_null", "warm, null build"),
                      ("warm_restore", "warm, restore"), ("remote_fill", "remote fill")):
        r = f.get(key)
        if r is None:
            continue
        util = f"{r['utilisation'] * 100:5.0f}%" if r["utilisation"] is not None else "     -"
        hit = f"{r['hit_rate'] * 100:7.0f}%" if r["hit_rate"] is not None else "       -"
        ratio = f"  ({r['wall_s'] / base:.2f}x cold)" if key != "cold" and base else ""
        print(f"{name:18} {r['wall_s']:8.1f}s {r['cpu_s']:8.1f}s {util} {r['ran']:6d} "
              f"{r['cached']:7d} {hit} {r['verified']:4d}/{r['targets']:<4d}{ratio}")
    print("load average before {:.1f} {:.1f} {:.1f}, after {:.1f} {:.1f} {:.1f}".format(
        *f["load_before"], *f["load_after"]))


if __name__ == "__main__":
    sys.exit(main())
