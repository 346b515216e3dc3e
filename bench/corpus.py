"""Cold build of a handful of real operators from the compatibility corpus (issue 17): total wall
and CPU time of `opkg build` from an empty cache with the precompiled emulation headers on and
off, each against replaying the same build's commands (precompile, compiles, links,
verifications, in dependency waves, `xargs -P <cpus>`). The operators are imported unmodified and
given their case modules (bench/compat/<corpus>/<op>.py) as the compatibility harness does.

Usage: python bench/corpus.py [--corpus /work/corpora/cann-ops] [--only op ...] [--reps 1]
       [--work DIR] [--results FILE]

Prints a table and writes the runs as JSON (default bench/results/corpus-latest.json, git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import importlib.util

BENCH = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench = _load("opkg_bench_run", BENCH / "run.py")            # timed, opkg_env, load_plan, med
compat = _load("opkg_compat_run", BENCH / "compat" / "run.py")   # import + case modules

# Ten operators that verify on the sim (docs/compat.md), small enough to build ten of cold in a
# few minutes: elementwise math with two to four dtype variants each.
DEFAULT_OPS = ["add_custom", "addcmul", "clip_by_value", "cross", "fast_gelu", "is_finite",
               "lerp", "logical_not", "reciprocal", "sqrt"]


def workspace(corpus: Path, ops: list[str], root: Path, reuse: bool = False) -> list[str]:
    """One workspace holding every operator, imported and given its case module; with `reuse`,
    packages a previous run imported completely are kept (importing probes each operator's
    host code with g++, minutes under load)."""
    kind = compat.corpus_kind(corpus)
    found = compat.projects(corpus, kind)
    if not reuse:
        shutil.rmtree(root, ignore_errors=True)
    (root / "packages").mkdir(parents=True, exist_ok=True)
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    names = []
    for op in ops:
        module_path = BENCH / "compat" / kind / f"{op}.py"
        pkg = root / "packages" / compat.package_name(op)
        if reuse and (pkg / "compat_golden.py").is_file():
            names.append(pkg.name)
            continue
        shutil.rmtree(pkg, ignore_errors=True)
        r = subprocess.run([*bench.OPKG, "import", str(found[op]), "--dest", str(pkg)], cwd=root,
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"import {op}: {r.stderr[-2000:]}")
        compat._apply_module(pkg, compat.load_module(module_path), module_path, 600)
        names.append(pkg.name)
    return names


def replay_script(root: Path, plan: dict, jobs: int, tag: str) -> Path:
    """The plan's exec steps and verifications as a shell script: the precompile first (kernel
    compiles read its .gch), then compiles, links, verifications."""
    acts = plan["actions"]
    waves = {
        "pch": [a["argv"] for a in acts if a["kind"] == "exec" and a["step"] == "pch"],
        "compile": [a["argv"] for a in acts if a["kind"] == "exec" and a["step"] == "compile"],
        "link": [a["argv"] for a in acts if a["kind"] == "exec"
                 and a["step"] not in ("pch", "compile")],
        "verify": [[a["params"].get("python") or bench.PY, "-m", "opkg.verify.runner",
                    a["params"]["job"], a["params"]["report"]]
                   for a in acts if a["step"] == "verify"],
    }
    d = root / f"replay-{tag}"
    d.mkdir(exist_ok=True)
    lines = ["#!/bin/sh", "set -e"]
    for wave, cmds in waves.items():
        if cmds:
            (d / f"{wave}.txt").write_text("\n".join(shlex.join(c) for c in cmds) + "\n")
            lines.append(f"xargs -d '\\n' -n 1 -P {jobs} sh -c < {d / wave}.txt")
    script = d / "replay.sh"
    script.write_text("\n".join(lines) + "\n")
    script.chmod(0o755)
    return script


def measure(root: Path, work: Path, reps: int, jobs: int) -> dict:
    """Cold builds with the PCH on and off and their replays, interleaved so that load from
    other processes falls on all four alike."""
    runs: dict[str, list[tuple[float, float]]] = {}
    plans: dict[str, dict] = {}
    scripts: dict[str, Path] = {}
    for r in range(reps):
        for pch in ("1", "0"):
            tag = "pch" if pch == "1" else "nopch"
            shutil.rmtree(root / "out", ignore_errors=True)
            cache = work / f"cache-{tag}-{r}"
            shutil.rmtree(cache, ignore_errors=True)
            env = bench.opkg_env(cache, OPKG_SIM_PCH=pch)
            bench.log(f"corpus: cold build, PCH {'on' if pch == '1' else 'off'} ({r + 1}/{reps})")
            wall = bench.timed([*bench.OPKG, "build", "//...", "-j", str(jobs)], cwd=root,
                               env=env, check=False)
            runs.setdefault(f"cold_{tag}", []).append((wall, bench.LAST_CPU[0]))
            if tag not in plans:
                plans[tag] = bench.load_plan(root)
                scripts[tag] = replay_script(root, plans[tag], jobs, tag)
            bench.remove_built(plans[tag])
            bench.log(f"corpus: replayed commands, PCH {'on' if pch == '1' else 'off'}")
            wall = bench.timed(["sh", str(scripts[tag])], cwd=root, env=env, check=False)
            runs.setdefault(f"replay_{tag}", []).append((wall, bench.LAST_CPU[0]))
    res = {"runs": runs,
           "steps": {tag: {s: sum(1 for a in p["actions"] if a["step"] == s)
                           for s in ("pch", "compile", "link", "verify")}
                     for tag, p in plans.items()},
           "targets": len(plans["pch"]["targets"])}
    for key, vals in runs.items():
        res[f"{key}_s"] = bench.med([w for w, _ in vals])
        res[f"{key}_cpu_s"] = bench.med([c for _, c in vals])
    return res


def table(res: dict) -> str:
    rows = [("figure", "wall", "CPU", "wall ratio", "CPU ratio", "baseline")]
    base = res["replay_pch_s"], res["replay_pch_cpu_s"]
    for key, what in (("cold_pch", "opkg cold build, PCH on"),
                      ("replay_pch", "  replayed commands, PCH on"),
                      ("cold_nopch", "opkg cold build, PCH off"),
                      ("replay_nopch", "  replayed commands, PCH off")):
        w, c = res[f"{key}_s"], res[f"{key}_cpu_s"]
        rows.append((what, f"{w:.1f} s", f"{c:.1f} s", f"{w / base[0]:.2f}x",
                     f"{c / base[1]:.2f}x", "replayed commands, PCH on"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=Path("/work/corpora/cann-ops"))
    ap.add_argument("--only", nargs="*", default=DEFAULT_OPS, help="operator directory names")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one)")
    ap.add_argument("--reuse-workspace", action="store_true",
                    help="keep the operators a previous run with the same --work imported")
    ap.add_argument("--results", type=Path, default=BENCH / "results" / "corpus-latest.json")
    a = ap.parse_args(argv)
    work = a.work or Path(tempfile.mkdtemp(prefix="opkg-corpus-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    root = work / "ws"
    names = workspace(a.corpus, a.only, root, a.reuse_workspace)
    res = {"machine": bench.machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
           "operators": a.only, "packages": names, "jobs": a.jobs,
           "opkg_commit": subprocess.run(["git", "rev-parse", "HEAD"], cwd=bench.REPO,
                                         capture_output=True, text=True).stdout.strip(),
           **measure(root, work, a.reps, a.jobs)}
    res["elapsed_s"] = time.perf_counter() - started
    res["loadavg_end"] = os.getloadavg()
    a.results.parent.mkdir(parents=True, exist_ok=True)
    a.results.write_text(json.dumps(res, indent=2))
    print(table(res))
    print(f"\n{len(names)} operators, {res['targets']} targets, steps {res['steps']}; "
          f"load average at the end {res['loadavg_end'][0]:.1f}; total {res['elapsed_s']:.0f} s")
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
