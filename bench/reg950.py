"""The Ascend 950 register API's speed on the sim (python bench/reg950.py [--reps N] [--dtype D]).

tests/fixtures/reg_elu (a kernel written with AscendC::MicroAPI: UpdateMask, LoadAlign, Cast,
Muls, Adds, Exp, Compares, Select, StoreAlign, Reduce) runs over 1M elements on the sim for
Ascend950PR_9599, verified against its NumPy golden, and is timed against that golden in the
same run (interleaved, medians). A benchmark, not a test: nothing asserts a time. Issue 30's
target is a ratio of at most 10.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
FIXTURE = REPO / "tests/fixtures/reg_elu"
SOC = "Ascend950PR_9599"
N = 1 << 20


def run(work: Path, reps: int, dtype: str, env: dict) -> dict:
    import numpy as np

    from opkg.core.model import OpSpec, SocInfo
    from opkg.sim.runtime import run_case

    root = work / "reg950"
    if root.exists():
        shutil.rmtree(root)
    (root / "packages").mkdir(parents=True)
    shutil.copytree(FIXTURE, root / "packages/reg_elu")
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", SOC], cwd=root, env=env,
                   check=True, stdout=subprocess.DEVNULL)
    variant_name = "float32" if dtype == "float32" else f"{dtype}_float32"
    job = json.loads((root / f"out/sim/reg_elu/{SOC}/{variant_name}/verify-job.json").read_text())
    op = OpSpec.from_json(job["op"])
    variant = op.variant(variant_name)
    soc = SocInfo.from_json(job["soc"])
    spec = importlib.util.spec_from_file_location("reg_elu_golden", FIXTURE / "golden.py")
    golden = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(golden)

    x = np.random.default_rng(0).uniform(-4, 4, N).astype(dtype)
    y = np.empty(N, dtype)
    s = np.empty((N + 63) // 64, np.float32)

    def timed(fn):
        t, cpu = time.perf_counter(), time.process_time()
        fn()
        return time.perf_counter() - t, time.process_time() - cpu

    def sim():
        run_case(root / job["host_lib"], root / job["kernel_lib"], op, variant, soc, {"x": x}, {"y": y, "s": s}, {})

    def numpy():
        golden.reg_elu(x)

    timed(sim)
    timed(numpy)
    a, g = [], []
    for _ in range(max(reps, 3)):
        a.append(timed(sim))
        g.append(timed(numpy))
    want_y, want_s = golden.reg_elu(x)
    tol = 1e-4 if dtype == "float32" else 1e-2
    verified = bool(np.allclose(y.astype(np.float32), want_y.astype(np.float32), rtol=tol, atol=tol)
                    and np.allclose(s, want_s, rtol=1e-4, atol=1e-3))
    sim_s, np_s = statistics.median(v[0] for v in a), statistics.median(v[0] for v in g)
    return {"elements": N, "dtype": dtype, "soc": SOC, "sim_s": sim_s, "numpy_s": np_s, "ratio": sim_s / np_s,
            "sim_cpu_s": statistics.median(v[1] for v in a), "numpy_cpu_s": statistics.median(v[1] for v in g),
            "verified": verified}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--dtype", default="float32", choices=["float32", "float16"])
    ap.add_argument("--work", type=Path)
    a = ap.parse_args()
    work = a.work or Path(tempfile.mkdtemp(prefix="opkg-bench-reg950-"))
    try:
        r = run(work, a.reps, a.dtype, dict(os.environ, OPKG_CACHE_DIR=str(work / "cache")))
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"sim reg_elu {N} {a.dtype} ({SOC}): {r['sim_s'] * 1000:.0f} ms; NumPy golden {r['numpy_s'] * 1000:.1f} ms; "
          f"{r['ratio']:.1f}x (CPU {r['sim_cpu_s'] * 1000:.0f} ms vs {r['numpy_cpu_s'] * 1000:.1f} ms); "
          f"verified: {r['verified']}")
    return 0 if r["verified"] else 1


if __name__ == "__main__":
    sys.exit(main())
