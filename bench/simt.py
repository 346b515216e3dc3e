"""The SIMT path's speed (`make bench`, micro tier; or alone: python bench/simt.py [--reps N]).

packages/gather_simt (a SIMT function launched with asc_vf_call: 1024 threads per block, a
grid-stride loop `y[i] = x[indices[i]]`) gathers 1M float32 elements from a 1M-element table on
the sim for Ascend950PR_9599 (the block's threads as fibres, every load and store checked for
bounds and races), verified against NumPy, and is timed against NumPy's `x[indices]` in the same
run. A benchmark, not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import micro

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SIZE = 1 << 20
SOC = "Ascend950PR_9599"


def sim_gather(work: Path, reps: int, env: dict | None = None) -> dict:
    """{"sim_s", "numpy_s", "ratio", "sim_cpu_s", "numpy_cpu_s", "cpu_ratio", "verified",
    "blocks", "runs"}: medians of wall and CPU time."""
    import numpy as np

    from opkg.core.model import OpSpec, SocInfo
    from opkg.sim.runtime import run_case

    root = work / "simt"
    if root.exists():
        shutil.rmtree(root)
    (root / "packages").mkdir(parents=True)
    shutil.copytree(REPO / "packages/gather_simt", root / "packages/gather_simt")
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC, "--jobs", "1"], cwd=root,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    job = json.loads((root / f"out/sim/gather_simt/{SOC}/float32_int32/verify-job.json").read_text())
    op = OpSpec.from_json(job["op"])
    variant = op.variant("float32_int32")
    soc = SocInfo.from_json(job["soc"])

    rng = np.random.default_rng(0)
    x = rng.standard_normal(SIZE).astype(np.float32)
    indices = rng.integers(0, SIZE, SIZE).astype(np.int32)
    y = np.empty(SIZE, np.float32)
    info = {}

    def sim():
        info["run"] = run_case(root / job["host_lib"], root / job["kernel_lib"], op, variant, soc,
                               {"x": x, "indices": indices}, {"y": y}, {})

    def numpy():
        x[indices]

    t = micro.interleaved(sim, numpy, reps)
    verified = bool(np.array_equal(y, x[indices]))
    return {"elements": SIZE, "soc": SOC, **t, "blocks": info["run"].block_dim, "verified": verified}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one)")
    a = ap.parse_args()
    r = micro.in_work(a.work, "opkg-bench-simt-", sim_gather, a.reps)
    print(f"sim SIMT gather 1M float32 ({SOC}, {r['blocks']} blocks x 1024 threads): "
          f"{r['sim_s'] * 1000:.0f} ms; NumPy x[indices] {r['numpy_s'] * 1000:.1f} ms; {r['ratio']:.1f}x "
          f"(CPU time: {r['sim_cpu_s'] * 1000:.0f} ms vs {r['numpy_cpu_s'] * 1000:.1f} ms, "
          f"{r['cpu_ratio']:.1f}x); verified: {r['verified']}")
    return 0 if r["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
