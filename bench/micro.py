"""What the micro benchmarks (cube.py, simt.py) share: timing the sim and NumPy interleaved, and
running in a work directory that is removed afterwards unless the caller named it."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path


def timed(fn) -> tuple[float, float]:
    t, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - cpu


def interleaved(sim, numpy, reps: int) -> dict:
    """One warm-up each, then `reps` (at least 3) runs interleaved so that both see the same
    machine load: medians of wall and CPU time, their ratios, and the runs."""
    timed(sim)
    timed(numpy)
    s, g = [], []
    for _ in range(max(reps, 3)):
        s.append(timed(sim))
        g.append(timed(numpy))
    sim_s, numpy_s = statistics.median(x[0] for x in s), statistics.median(x[0] for x in g)
    sim_cpu, numpy_cpu = statistics.median(x[1] for x in s), statistics.median(x[1] for x in g)
    return {"sim_s": sim_s, "numpy_s": numpy_s, "ratio": sim_s / numpy_s if numpy_s else None,
            "sim_cpu_s": sim_cpu, "numpy_cpu_s": numpy_cpu,
            "cpu_ratio": sim_cpu / numpy_cpu if numpy_cpu else None, "runs": {"sim": s, "numpy": g}}


def in_work(work: Path | None, prefix: str, fn, reps: int) -> dict:
    """fn(work, reps, env) in `work` (default: a temporary directory, removed afterwards), with
    opkg's cache inside it."""
    root = work or Path(tempfile.mkdtemp(prefix=prefix))
    try:
        return fn(root, reps, dict(os.environ, OPKG_CACHE_DIR=str(root / "cache")))
    finally:
        if not work:
            shutil.rmtree(root, ignore_errors=True)
