"""The cube path's speed (`make bench`, micro tier; or alone: python bench/cube.py [--reps N]).

packages/matmul (the basic cube APIs: Nd2Nz, LoadData, Mmad, Fixpipe) runs a 1024 x 1024 x 1024
float16 -> float32 product on the sim for Ascend910B1 (64 tiles of 128 x 128 over 24 cube cores,
16 K steps each), verified against NumPy, and is timed against NumPy computing the same product
in float32 in the same run. A benchmark, not a test: nothing asserts a time.
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
SIZE = 1024
SOC = "Ascend910B1"


def sim_matmul(work: Path, reps: int, env: dict | None = None) -> dict:
    """{"sim_s", "numpy_s", "ratio", "sim_cpu_s", "numpy_cpu_s", "cpu_ratio", "max_abs_err",
    "max_rel_err", "verified", "runs"}: medians of wall and CPU time (the process's, NumPy's BLAS
    threads included), which varies less than wall time on a shared machine."""
    import numpy as np

    from opkg.core.model import OpSpec, SocInfo
    from opkg.sim.runtime import run_case

    root = work / "cube"
    if root.exists():
        shutil.rmtree(root)
    (root / "packages").mkdir(parents=True)
    shutil.copytree(REPO / "packages/matmul", root / "packages/matmul")
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC], cwd=root,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    job = json.loads((root / f"out/sim/matmul/{SOC}/float16_float32/verify-job.json").read_text())
    op = OpSpec.from_json(job["op"])
    variant = op.variant("float16_float32")
    soc = SocInfo.from_json(job["soc"])

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (SIZE, SIZE)).astype(np.float16)
    b = rng.uniform(-1, 1, (SIZE, SIZE)).astype(np.float16)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    c = np.empty((SIZE, SIZE), np.float32)

    def sim():
        run_case(root / job["host_lib"], root / job["kernel_lib"], op, variant, soc,
                 {"a": a, "b": b}, {"c": c}, {})

    def numpy():
        a32 @ b32

    t = micro.interleaved(sim, numpy, reps)
    # products of float16 values are exact in float32: only the order of the sums differs
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(c - want)
    max_rel = float(np.max(err / np.maximum(np.abs(want), 1e-3)))
    verified = bool(np.allclose(c, want, rtol=1e-4, atol=1e-4))
    return {"shape": [SIZE, SIZE, SIZE], "soc": SOC, **t, "max_abs_err": float(err.max()),
            "max_rel_err": max_rel, "verified": verified}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one)")
    a = ap.parse_args()
    r = micro.in_work(a.work, "opkg-bench-cube-", sim_matmul, a.reps)
    print(f"sim matmul {SIZE}^3 fp16->fp32 ({SOC}): {r['sim_s'] * 1000:.0f} ms; NumPy float32 "
          f"{r['numpy_s'] * 1000:.1f} ms; {r['ratio']:.1f}x (CPU time: {r['sim_cpu_s'] * 1000:.0f} ms vs "
          f"{r['numpy_cpu_s'] * 1000:.1f} ms, {r['cpu_ratio']:.1f}x); verified: {r['verified']} "
          f"(max abs err {r['max_abs_err']:.2e})")
    return 0 if r["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
