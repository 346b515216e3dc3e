"""Issue 30's two speed figures in one run (python bench/a950.py [--reps N] [--work DIR]).

The Ascend 950 register-API elementwise kernel over 1M elements (reg950.py: tests/fixtures/reg_elu,
float32) against its NumPy golden, and the SIMT gather of 1M elements (simt.py:
packages/gather_simt) against NumPy's `x[indices]`, both on the sim for Ascend950PR_9599, in one
process one after the other, so both ratios are of the same machine state. The targets are
10x and 20x. A benchmark, not a test: nothing asserts a time; the exit status says whether
both results verified.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import micro
import reg950
import simt

TARGETS = {"elementwise": 10.0, "simt_gather": 20.0}


def run(work: Path, reps: int, env: dict) -> dict:
    """{"elementwise": reg950.run's figures, "simt_gather": simt.sim_gather's}."""
    return {"elementwise": reg950.run(work, reps, "float32", env),
            "simt_gather": simt.sim_gather(work, reps, env)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one)")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    a = ap.parse_args()
    r = micro.in_work(a.work, "opkg-bench-a950-", run, a.reps)
    if a.json:
        print(json.dumps(r, indent=1, default=str))
    for name, fig in r.items():
        cpu = fig["sim_cpu_s"] / fig["numpy_cpu_s"] if fig["numpy_cpu_s"] else float("nan")
        print(f"{name}: sim {fig['sim_s'] * 1000:.0f} ms, NumPy {fig['numpy_s'] * 1000:.1f} ms: "
              f"{fig['ratio']:.1f}x wall, {cpu:.1f}x CPU (target {TARGETS[name]:.0f}x); "
              f"verified: {fig['verified']}")
    return 0 if all(f["verified"] for f in r.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
