#!/usr/bin/env python3
"""`opkg import` of an ops repository's operators under two opkg commits, in one run (issue 32:
a whole repository per coffee). A benchmark, not a test: nothing here asserts a time.

    bench/import_speed.py --repo OPS_NN --opbase OPBASE [--base b52ffa08] [--head HEAD]
        [--every 20] [--soc Ascend910B1] [--work DIR]

Each commit's opkg/ is extracted once (bench/compat/snapshot.py) and imports the same sample
of classic operators (every Nth, as bench/compat/repository.py draws it), one `opkg import`
process per operator as the harness runs them, each side into a workspace and an opkg cache of
its own, both empty at the start: what each side compiles once (the OpDef probe's shared
objects) is counted in its total. The sides alternate operator by operator, so the machine's
load falls on both alike. Before its first operator each side runs what the harness runs
before its first (`opdef.shared_objects(precompile=True)` where the commit has it). Then a
warm pass: the same imports again, over the packages and with the cache of the first (what a
re-run of the census or a second import of a repository meets). Reports wall and CPU (user +
sys of the process trees) per side and pass, the ratios (cold in total, cold per operator
after each side's first, warm), and whether every manifest written is byte-identical between
the sides (a faster import that writes something else is no speed-up). JSON in
bench/results/import-speed-<date>.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH / "compat"))
import snapshot  # noqa: E402

SEED = ("from opkg.importers import opdef\n"
        "seed = getattr(opdef, 'shared_objects', None)\n"
        "seed and seed(precompile=True)\n")


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv: list[str], cwd: Path, env: dict) -> tuple[float, float, subprocess.CompletedProcess]:
    c0, t0 = cpu(), time.monotonic()
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    return time.monotonic() - t0, cpu() - c0, r


def side(name: str, rev: str, work: Path) -> dict:
    sha, tree = snapshot.extract(rev)
    ws = work / name
    (ws / "packages").mkdir(parents=True)
    (ws / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    env = dict(os.environ, PYTHONPATH=str(tree), OPKG_CACHE_DIR=str(work / f"{name}-cache"))
    env.pop("OPKG_AT", None)
    env.pop("OPKG_IMPORT_PCH", None)
    return {"name": name, "commit": sha[:12], "ws": ws, "env": env, "wall": 0.0, "cpu": 0.0,
            "imported": 0, "rows": [], "warm": []}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, required=True)
    ap.add_argument("--opbase", type=Path, required=True)
    ap.add_argument("--base", default="b52ffa08", help="the commit measured against")
    ap.add_argument("--head", default="HEAD", help="the commit measured")
    ap.add_argument("--every", type=int, default=20, help="every Nth classic operator")
    ap.add_argument("--soc", default="Ascend910B1")
    ap.add_argument("--work", type=Path, default=Path("/tmp/opkg-import-speed"))
    ap.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(REPO))
    from opkg.core.socs import soc_table
    from opkg.importers import repository as R
    import repository as harness    # bench/compat/repository.py: the harness's sample

    root = R.repository_root(args.repo)
    short = soc_table(None)[args.soc].short
    ops = harness.select(harness.classic_operators(root, short), root, None, args.every, None)
    shutil.rmtree(args.work, ignore_errors=True)
    sides = [side("base", args.base, args.work), side("head", args.head, args.work)]
    py = sys.executable
    for s in sides:
        wall, used, r = timed([py, "-c", SEED], s["ws"], s["env"])
        if r.returncode != 0:
            raise SystemExit(f"error: the {s['name']} side's seed failed: {r.stderr[-500:]}")
        s["wall"] += wall
        s["cpu"] += used
        s["seed"] = {"wall": round(wall, 2), "cpu": round(used, 2)}
    for warm in (False, True):
        for op in ops:
            for s in sides:
                wall, used, r = timed([py, "-m", "opkg", "import", str(op), "--base",
                                       str(args.opbase), "--soc", args.soc, "--json"],
                                      s["ws"], s["env"])
                try:
                    dest = json.loads(r.stdout)["operators"][0]["dest"]
                except (ValueError, KeyError, IndexError, TypeError):
                    dest = None
                row = {"operator": op.relative_to(root).as_posix(), "wall": round(wall, 2),
                       "cpu": round(used, 2), "imported": dest is not None}
                if warm:
                    s["warm"].append(row)
                else:
                    s["wall"] += wall
                    s["cpu"] += used
                    s["imported"] += dest is not None
                    s["rows"].append(row)
                print(f"{s['name']:4} {'warm' if warm else 'cold'} {row['operator']:44} "
                      f"{wall:6.1f} s wall {used:6.1f} s CPU", file=sys.stderr, flush=True)
    same = []
    for op in ops:
        rel = op.relative_to(root)
        texts = [(s["ws"] / "packages" / R.default_name(root) / rel / "opkg.yaml")
                 for s in sides]
        same.append(all(t.is_file() for t in texts)
                    and texts[0].read_bytes() == texts[1].read_bytes())
    base, head = sides
    result = {"date": dt.date.today().isoformat(), "repository": R.git_commit(root),
              "soc": args.soc, "operators": len(ops), "every": args.every,
              "identical_manifests": f"{sum(same)}/{len(ops)}",
              "wall_ratio": round(base["wall"] / head["wall"], 2),
              "cpu_ratio": round(base["cpu"] / head["cpu"], 2),
              # each side's first operator pays what a run compiles once; after it, what
              # every further operator of a whole-repository run costs
              "per_operator_after_first_cpu_ratio": round(
                  sum(r["cpu"] for r in base["rows"][1:]) / sum(r["cpu"] for r in head["rows"][1:]), 2),
              "per_operator_after_first_wall_ratio": round(
                  sum(r["wall"] for r in base["rows"][1:]) / sum(r["wall"] for r in head["rows"][1:]), 2),
              "warm_cpu_ratio": round(sum(r["cpu"] for r in base["warm"])
                                      / sum(r["cpu"] for r in head["warm"]), 2),
              "warm_wall_ratio": round(sum(r["wall"] for r in base["warm"])
                                       / sum(r["wall"] for r in head["warm"]), 2),
              "sides": [{k: v for k, v in s.items() if k not in ("ws", "env")} for s in sides]}
    for s in result["sides"]:
        s["wall"], s["cpu"] = round(s["wall"], 1), round(s["cpu"], 1)
    args.results.mkdir(parents=True, exist_ok=True)
    out = args.results / f"import-speed-{result['date']}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{len(ops)} operators, every {args.every}th: base {base['commit']} "
          f"{base['wall']:.1f} s wall {base['cpu']:.1f} s CPU ({base['imported']} imported), "
          f"head {head['commit']} {head['wall']:.1f} s wall {head['cpu']:.1f} s CPU "
          f"({head['imported']} imported): {result['wall_ratio']}x wall, "
          f"{result['cpu_ratio']}x CPU; per operator after the first "
          f"{result['per_operator_after_first_wall_ratio']}x wall, "
          f"{result['per_operator_after_first_cpu_ratio']}x CPU; warm "
          f"{result['warm_wall_ratio']}x wall, {result['warm_cpu_ratio']}x CPU; "
          f"manifests identical {result['identical_manifests']}; "
          f"{out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
