"""opkg's benchmark suite (`make bench`). Benchmarks, not tests: nothing here asserts a time.

Every figure is the median of several runs, reported with a baseline measured in the same run:

  real tier (N_REAL operators, compiled by g++, verified):
    cold build (-j all CPUs)            vs the same compiler + verifier commands replayed by a
                                           shell script (xargs -P, in dependency waves)
    one kernel touched / helper header  vs cold build
    restore from cache after rm out/    vs cold build
    `opkg test`, nothing changed        vs cold verification (reports deleted)
  scale tier (N = 10, 50, 200; compiler, OpDef check and verifier replayed from a prototype
  package by bench/replay_cxx.sh and bench/replay_python.sh):
    null build (fast path)              vs plain SCons null build of the same compile graph,
                                           ninja null build (the floor), opkg's own SCons path
    peak memory of the null build
  micro:
    CLI start-up `opkg --version`       vs `python -c pass`
    one sim variant's compile           vs a file including only <cstdint> and <cmath>
                                           (LayerNorm's float32 kernel, Ascend910B1)
    sim LayerNorm 96x1024 fp32          vs its NumPy golden
    sim matmul 1024^3 fp16 (cube.py)    vs NumPy's float32 product of the same matrices
    sim SIMT gather 1M fp32 (simt.py)   vs NumPy's x[indices] (Ascend950PR_9599)

Usage: python bench/run.py [--n 10,50,200,1000] [--real-n 3] [--reps 3] [--cold-reps 2] [--quick]
Results: a table on stdout, JSON in bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
import cube  # noqa: E402
import simt  # noqa: E402
import gen  # noqa: E402

PY = sys.executable
OPKG = [PY, "-m", "opkg"]
REPLAY_CXX = BENCH / "replay_cxx.sh"
REPLAY_PY = BENCH / "replay_python.sh"


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


LAST_CPU = [0.0]     # user+sys seconds of the last timed() command and its children


def timed(argv, *, cwd=None, env=None, check=True) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and r.returncode != 0:
        raise RuntimeError(f"{shlex.join(map(str, argv))} failed ({r.returncode}):\n"
                           f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return dt


def peak_kib(argv, *, cwd=None, env=None) -> int:
    """Peak RSS (KiB) of the largest process of a command, via GNU time."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], cwd=cwd, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def med(xs) -> float:
    return statistics.median(xs)


def ratio(a, b) -> float | None:
    return a / b if a is not None and b else None


def opkg_env(cache: Path, **extra) -> dict:
    env = dict(os.environ, OPKG_CACHE_DIR=str(cache))
    env.pop("OPKG_REGISTRY", None)
    # an installed opkg runs from compiled bytecode; without it every run compiles each module
    # it imports (~80 ms of CPU at a null build), which no user pays. The cache sits outside
    # the tree under test.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", str(cache.parent / "pycache"))
    env.update({k: str(v) for k, v in extra.items()})
    return env


def load_plan(root: Path) -> dict:
    return json.loads((root / "out/.opkg/plan.json").read_text())


# -- scale tier: null builds -------------------------------------------------------------------

def write_graphs(root: Path, plan: dict) -> tuple[Path, Path]:
    """The plan's compile graph (exec steps) as a plain-SCons graph file and a build.ninja."""
    steps = [a for a in plan["actions"] if a["kind"] == "exec"]
    graph = [{"outputs": a["outputs"], "inputs": a["inputs"], "scan_path": a["scan_path"],
              "command": shlex.join(a["argv"])} for a in steps]
    gpath = root / "bench-graph.json"
    gpath.write_text(json.dumps(graph))
    lines = ["rule run", "  command = $cmd", ""]
    for a in steps:
        headers = sorted({str(h) for d in a["scan_path"] if Path(d).is_dir()
                          for h in Path(d).glob("*.h")})
        esc = lambda p: p.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")
        lines.append(f"build {' '.join(map(esc, a['outputs']))}: run "
                     f"{' '.join(map(esc, a['inputs']))}"
                     + (f" | {' '.join(map(esc, headers))}" if headers else ""))
        lines.append(f"  cmd = {shlex.join(a['argv']).replace('$', '$$')}")
    npath = root / "build.ninja"
    npath.write_text("\n".join(lines) + "\n")
    return gpath, npath


def ninja_bin() -> str | None:
    local = Path(PY).parent / "ninja"
    return str(local) if local.exists() else shutil.which("ninja")


def populate_scale(n: int, proto: dict, work: Path) -> tuple[Path, dict, float]:
    """bench/gen.py's workspace of n operators, built once with the replaying tools: its root,
    the environment its builds run in, and how long populating took."""
    root = work / f"scale-{n}"
    cache = work / f"cache-scale-{n}"
    shutil.rmtree(cache, ignore_errors=True)    # a kept --work must not restore an old population
    gen.generate(root, n, tiny=True)
    env = opkg_env(cache, CXX=REPLAY_CXX, **proto)
    log(f"N={n}: populating with the replaying compiler")
    populate = timed([*OPKG, "build", "//...", "-j", str(os.cpu_count())], cwd=root, env=env)
    return root, env, populate


def plain_scons(root: Path, gpath: Path) -> list[str]:
    return [PY, "-m", "SCons", "-Q", "-f", str(BENCH / "plain_SConstruct"),
            f"-j{os.cpu_count()}", f"graph={gpath}", f"sconsign={root}/.plain-sconsign"]


def scale_tier(n: int, proto: dict, work: Path, reps: int) -> dict:
    root, env, populate = populate_scale(n, proto, work)
    plan = load_plan(root)
    actions = len(plan["actions"])
    gpath, npath = write_graphs(root, plan)
    scons = plain_scons(root, gpath)
    log(f"N={n}: plain SCons")
    timed(scons, cwd=root, env=env)
    plain, plain_cpu = [], []
    for _ in range(reps):
        plain.append(timed(scons, cwd=root, env=env))
        plain_cpu.append(LAST_CPU[0])
    ninja = ninja_bin()
    nin, nin_cpu = [], []
    if ninja:
        log(f"N={n}: ninja")
        timed([ninja, "-f", str(npath)], cwd=root, env=env)
        nin, nin_cpu = [], []
        for _ in range(reps):
            nin.append(timed([ninja, "-f", str(npath)], cwd=root, env=env))
            nin_cpu.append(LAST_CPU[0])
    log(f"N={n}: opkg null builds without the fast path")
    # the baselines rewrote the outputs: one full build re-records, a second settles racy files
    timed([*OPKG, "build", "//..."], cwd=root, env=env)
    # opkg's full path on an unchanged tree: a variable opkg records differs on every run,
    # so the fast path declines and planning + SCons decide that nothing changed
    full, full_cpu = [], []
    for i in range(reps):
        full.append(timed([*OPKG, "build", "//..."], cwd=root,
                          env={**env, "OPKG_BENCH_RUN": str(i)}))
        full_cpu.append(LAST_CPU[0])
    mem_full = peak_kib([*OPKG, "build", "//..."], cwd=root,
                        env={**env, "OPKG_BENCH_RUN": "mem"})
    timed([*OPKG, "build", "//..."], cwd=root, env=env)
    time.sleep(0.2)
    timed([*OPKG, "build", "//..."], cwd=root, env=env)
    return {"n": n, "actions": actions, "populate_s": populate,
            "null_full_s": med(full), "null_full_runs": full,
            "null_full_cpu_s": med(full_cpu), "null_full_cpu_runs": full_cpu,
            "plain_scons_s": med(plain), "plain_scons_runs": plain,
            "plain_scons_cpu_s": med(plain_cpu),
            "ninja_s": med(nin) if nin else None, "ninja_runs": nin,
            "ninja_cpu_s": med(nin_cpu) if nin_cpu else None,
            "peak_kib_null_full": mem_full, "_root": root, "_env": env}


def fast_null_round_robin(scales: list[dict], runs: int) -> None:
    """Fast-path null builds of every N, interleaved, so that load from other processes on the
    machine spreads evenly over the Ns (the growth per package compares them)."""
    for s in scales:
        s["null_fast_runs"], s["null_fast_cpu_runs"] = [], []
        plan_file = s["_root"] / "out/.opkg/plan.json"
        s["_ident"] = plan_file.stat().st_ino, plan_file.stat().st_mtime_ns
    for _ in range(runs):
        for s in scales:
            s["null_fast_runs"].append(timed([*OPKG, "build", "//..."], cwd=s["_root"],
                                             env=s["_env"]))
            s["null_fast_cpu_runs"].append(LAST_CPU[0])
    for s in scales:
        plan_file = s["_root"] / "out/.opkg/plan.json"
        s["fast_path_used"] = (plan_file.stat().st_ino, plan_file.stat().st_mtime_ns) == \
            s.pop("_ident")
        s["null_fast_s"] = med(s["null_fast_runs"])
        s["null_fast_cpu_s"] = med(s["null_fast_cpu_runs"])
        s["peak_kib_null_fast"] = peak_kib([*OPKG, "build", "//..."], cwd=s["_root"],
                                           env=s["_env"])
        s.pop("_root"), s.pop("_env")


def proc_cpu(pid: int) -> float:
    """user + sys seconds of a running process (the build server is not our child)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_null_builds(scales: list[dict], runs: int) -> None:
    """Null builds through the resident build server (opkg build --server): the first query
    (which starts the server and runs the fast path's full stat check in it) and the later
    ones (answered from memory while the watcher saw no change). CPU time is the client's plus
    the server's (read from /proc: the server is not a child of the timed process)."""
    for s in scales:
        root, env = s["_root"], {**s["_env"], "OPKG_SERVER": "1"}
        sdir = root / "out/.opkg/server"
        plan_file = root / "out/.opkg/plan.json"
        ident = plan_file.stat().st_ino, plan_file.stat().st_mtime_ns
        first, first_cpu, later, later_cpu = [], [], [], []
        for rep in range(max(2, runs // 2)):
            subprocess.run([*OPKG, "shutdown"], cwd=root, env=env, capture_output=True)
            first.append(timed([*OPKG, "build", "//..."], cwd=root, env=env))
            pid = int((sdir / "lock").read_text().split()[0])
            first_cpu.append(LAST_CPU[0] + proc_cpu(pid))
            for _ in range(runs):
                before = proc_cpu(pid)
                later.append(timed([*OPKG, "build", "//..."], cwd=root, env=env))
                later_cpu.append(LAST_CPU[0] + proc_cpu(pid) - before)
        subprocess.run([*OPKG, "shutdown"], cwd=root, env=env, capture_output=True)
        s["server_unchanged"] = (plan_file.stat().st_ino, plan_file.stat().st_mtime_ns) == ident
        s.update({"server_first_s": med(first), "server_first_runs": first,
                  "server_first_cpu_s": med(first_cpu),
                  "server_later_s": med(later), "server_later_runs": later,
                  "server_later_cpu_s": med(later_cpu)})


def client_startup(reps: int) -> dict:
    """What the thin client costs to import, against the CLI and an empty interpreter."""
    def run(code, *flags):
        return med([timed([PY, *flags, "-c", code]) for _ in range(reps)])

    return {"pass_S_s": run("pass", "-S"), "client_S_s": run("import opkg.build.client", "-S"),
            "client_s": run("import opkg.build.client"),
            "cli_s": run("import opkg.cli, opkg.cli.build")}


def build_prototype(work: Path) -> dict:
    """Two really compiled packages (one SoC, two SoCs) whose outputs the replaying compiler
    copies."""
    root = work / "proto"
    gen.generate(root, 4, tiny=True)
    for d in list((root / "packages").iterdir()):
        if d.name not in ("bench_op0000", "bench_op0003", "bench_helper"):
            shutil.rmtree(d)
    timed([*OPKG, "build", "//..."], cwd=root, env=opkg_env(work / "cache-proto"))
    protos = {"OPKG_BENCH_PROTO1": root / "out/sim/bench_op0000",
              "OPKG_BENCH_PROTO2": root / "out/sim/bench_op0003"}
    for d in protos.values():
        # what the OpDef check's subprocess printed, for replay_python.sh
        out = subprocess.run([PY, "-m", "opkg.verify.prototype", str(d / "host/libhost.so")],
                             capture_output=True, text=True, check=True).stdout
        (d / "host/declared-opdef.json").write_text(out)
    return {**protos, "OPKG_PYTHON": REPLAY_PY, "OPKG_BENCH_REAL_PYTHON": PY}


# -- real tier: compiles, incremental, cache, verification ----------------------------------------

def replay_script(root: Path, plan: dict, jobs: int) -> Path:
    """The plan's compiler and verifier commands as a shell script, in dependency waves."""
    exec_steps = [a for a in plan["actions"] if a["kind"] == "exec"]
    compiles = [a for a in exec_steps if a["step"] == "compile"]
    links = [a for a in exec_steps if a["step"] != "compile"]
    verifies = [a for a in plan["actions"] if a["step"] == "verify"]
    d = root / "replay"
    d.mkdir(exist_ok=True)
    (d / "compile.txt").write_text("\n".join(shlex.join(a["argv"]) for a in compiles) + "\n")
    (d / "link.txt").write_text("\n".join(shlex.join(a["argv"]) for a in links) + "\n")
    (d / "verify.txt").write_text("\n".join(
        shlex.join([a["params"].get("python") or PY, "-m", "opkg.verify.runner",
                    a["params"]["job"], a["params"]["report"]]) for a in verifies) + "\n")
    script = d / "replay.sh"
    script.write_text("#!/bin/sh\nset -e\n" + "".join(
        f"xargs -d '\\n' -n 1 -P {jobs} sh -c < {d / w}.txt\n"
        for w in ("compile", "link", "verify")))
    script.chmod(0o755)
    return script


def remove_built(plan: dict) -> None:
    """Delete what the replay script makes (objects, libraries, reports), keep generated sources
    and verification jobs (opkg's own write steps)."""
    for a in plan["actions"]:
        if a["kind"] == "exec" or a["step"] == "verify":
            for o in a["outputs"]:
                Path(o).unlink(missing_ok=True)


def count_ran(stdout: str) -> int:
    return json.loads(stdout)["ran"]


def run_json(argv, *, cwd, env) -> tuple[float, dict]:
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return dt, json.loads(r.stdout)


def real_tier(n: int, work: Path, reps: int, cold_reps: int) -> dict:
    root = work / "real"
    gen.generate(root, n)
    jobs = os.cpu_count()
    # cold builds and their replays alternate, so that load from other processes on a shared
    # machine falls on both alike; CPU time (user+sys) is kept as well
    cold, cold_cpu, replay, replay_cpu = [], [], [], []
    plan = script = None
    for r in range(cold_reps):
        shutil.rmtree(root / "out", ignore_errors=True)
        cache = work / f"cache-real-cold{r}"
        shutil.rmtree(cache, ignore_errors=True)
        log(f"real N={n}: cold build {r + 1}/{cold_reps}")
        cold.append(timed([*OPKG, "build", "//...", "-j", str(jobs)], cwd=root,
                          env=opkg_env(cache)))
        cold_cpu.append(LAST_CPU[0])
        if plan is None:
            plan = load_plan(root)
            script = replay_script(root, plan, jobs)
        remove_built(plan)
        log(f"real N={n}: replayed commands {r + 1}/{cold_reps}")
        replay.append(timed(["sh", str(script)], cwd=root, env=opkg_env(cache)))
        replay_cpu.append(LAST_CPU[0])
    env = opkg_env(work / f"cache-real-cold{cold_reps - 1}")
    steps = {"compile": sum(1 for a in plan["actions"] if a["step"] == "compile"),
             "link": sum(1 for a in plan["actions"] if a["step"] == "link"),
             "verify": sum(1 for a in plan["actions"] if a["step"] == "verify"),
             "all": len(plan["actions"])}
    # back to a state opkg built (the replay rewrote objects and reports)
    timed([*OPKG, "build", "//..."], cwd=root, env=env)

    log(f"real N={n}: one kernel touched")
    kernel = root / "packages/bench_op0001/op_kernel/bench_op.cpp"
    base = kernel.read_text()
    touch_k, ran_k = [], []
    for r in range(reps):
        kernel.write_text(base + f'\nextern "C" int bench_touch_{r}(void) {{ return {r}; }}\n')
        dt, res = run_json([*OPKG, "build", "//...", "--json"], cwd=root, env=env)
        touch_k.append(dt)
        ran_k.append(res["ran"])
    log(f"real N={n}: helper header touched")
    helper = root / "packages/bench_helper/include/bench_helper.h"
    hbase = helper.read_text()
    touch_h, ran_h = [], []
    for r in range(reps):
        helper.write_text(hbase + f"#define BENCH_TOUCHED_{r} {r}\n")
        dt, res = run_json([*OPKG, "build", "//...", "--json"], cwd=root, env=env)
        touch_h.append(dt)
        ran_h.append(res["ran"])

    log(f"real N={n}: restore from cache")
    restore = []
    for r in range(reps):
        shutil.rmtree(root / "out")
        dt, res = run_json([*OPKG, "build", "//...", "--json"], cwd=root, env=env)
        restore.append(dt)
        assert res["ran"] <= steps["all"] - steps["compile"], "compiled during a cache restore"

    log(f"real N={n}: opkg test")
    timed([*OPKG, "test", "//..."], cwd=root, env=env)
    time.sleep(0.2)
    timed([*OPKG, "test", "//..."], cwd=root, env=env)
    test_null = [timed([*OPKG, "test", "//..."], cwd=root, env=env) for _ in range(reps)]
    cold_verify = []
    for r in range(reps):
        for a in plan["actions"]:
            if a["step"] == "verify":
                for o in a["outputs"]:
                    Path(o).unlink(missing_ok=True)
        cold_verify.append(timed([*OPKG, "test", "//..."], cwd=root, env=env))
    return {"n": n, "targets": len(plan["targets"]), "steps": steps,
            "cold_s": med(cold), "cold_runs": cold, "replay_s": med(replay),
            "replay_runs": replay, "cold_cpu_s": med(cold_cpu), "replay_cpu_s": med(replay_cpu),
            "touch_kernel_s": med(touch_k), "touch_kernel_runs": touch_k, "touch_kernel_ran": ran_k,
            "touch_helper_s": med(touch_h), "touch_helper_runs": touch_h, "touch_helper_ran": ran_h,
            "restore_s": med(restore), "restore_runs": restore,
            "test_null_s": med(test_null), "test_null_runs": test_null,
            "cold_verify_s": med(cold_verify), "cold_verify_runs": cold_verify, "plan": plan}


# -- micro --------------------------------------------------------------------------------------

def cli_startup(reps: int) -> dict:
    opkg_bin = Path(PY).parent / "opkg"
    version, bare = [], []
    for _ in range(reps):           # interleaved: drift in machine load hits both alike
        version.append(timed([str(opkg_bin), "--version"]))
        bare.append(timed([PY, "-c", "pass"]))
    return {"opkg_version_s": med(version), "python_pass_s": med(bare),
            "runs": {"opkg": version, "python": bare}}


def variant_compile(plan: dict, work: Path, reps: int, kernel: str = "kernel float32 (") -> dict:
    """What one more kernel variant costs to compile (the float32 kernel of packages/layernorm
    for Ascend910B1; the entry is per package and SoC, the block runner per architecture) against a file that includes only <cstdint> and
    <cmath>, with the same common flags; the kernel as planned (through the precompiled
    headers) and without them (the same command minus `-Winvalid-pch -include <pch>`), and
    the one-off precompile. Interleaved; wall and CPU time. `kernel`: the start of the compile
    step's description names (another package's plan: packages/gather_simt's SIMT kernel, whose
    instrumented flags have a precompiled header of their own)."""
    from opkg.sim import flags

    steps = [a for a in plan["actions"] if a["step"] == "compile" and kernel in a["description"]][:1]
    used = steps[0]["argv"][steps[0]["argv"].index("-Winvalid-pch") + 2] + ".gch" \
        if steps and "-Winvalid-pch" in steps[0]["argv"] else None
    pch = [a for a in plan["actions"] if a["step"] == "pch" and a["outputs"][0] == used][:1]
    tmp = work / "micro"
    tmp.mkdir(exist_ok=True)

    def run(argv, out="x.o"):
        argv = list(argv)
        argv[argv.index("-o") + 1] = str(tmp / out)
        wall = timed(argv)
        return wall, LAST_CPU[0]

    def without_pch(argv):
        argv = list(argv)
        if "-Winvalid-pch" in argv:
            i = argv.index("-Winvalid-pch")
            del argv[i:i + 3]           # -Winvalid-pch -include <pch>
        return argv

    minimal = tmp / "minimal.cpp"
    minimal.write_text("#include <cstdint>\n#include <cmath>\n"
                       "extern \"C\" double f(double x) { return std::sqrt(x) + INT32_MAX; }\n")
    cxx = steps[0]["argv"][0]
    base_argv = [cxx, *flags.common_flags(), "-c", str(minimal), "-o", str(tmp / "m.o")]
    runs = {"variant": [], "variant_no_pch": [], "minimal": [], "pch": []}
    for _ in range(reps):           # interleaved: drift in machine load hits all alike
        runs["variant"].append(run(steps[0]["argv"]))
        runs["variant_no_pch"].append(run(without_pch(steps[0]["argv"])))
        runs["minimal"].append(run(base_argv, "m.o"))
        if pch:
            runs["pch"].append(run(pch[0]["argv"], "x.gch"))
    res = {"compiles": [a["description"] for a in steps], "runs": runs,
           "pch_used": bool(pch)}
    for key, vals in runs.items():
        if vals:
            res[f"{key}_s"] = med([w for w, _ in vals])
            res[f"{key}_cpu_s"] = med([c for _, c in vals])
    res["variant_compile_s"], res["minimal_compile_s"] = res["variant_s"], res["minimal_s"]
    return res


def sim_layernorm(work: Path, reps: int) -> dict:
    root = work / "layernorm"
    if root.exists():
        shutil.rmtree(root)
    (root / "packages").mkdir(parents=True)
    shutil.copytree(REPO / "packages/layernorm", root / "packages/layernorm")
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")
    timed([*OPKG, "build", "//...", "--soc", "Ascend910B1"], cwd=root,
          env=opkg_env(work / "cache-layernorm"))
    job = json.loads((root / "out/sim/layernorm/Ascend910B1/float32/verify-job.json")
                     .read_text())
    import numpy as np

    from opkg.core.model import OpSpec, SocInfo
    from opkg.sim.runtime import run_case
    from opkg.verify.runner import load_golden

    op = OpSpec.from_json(job["op"])
    variant = op.variant("float32")
    soc = SocInfo.from_json(job["soc"])
    golden = load_golden(str(root / job["golden"]["file"]), job["golden"]["function"])
    rng = np.random.default_rng(0)
    x = rng.standard_normal((96, 1024)).astype(np.float32)
    gamma = rng.standard_normal(1024).astype(np.float32)
    beta = rng.standard_normal(1024).astype(np.float32)
    attrs = {"epsilon": 1e-5}
    out = {t.name: np.empty((96, 1024), np.float32) for t in op.outputs}
    inputs = {"x": x, "gamma": gamma, "beta": beta}

    def sim():
        t = time.perf_counter()
        # job paths may be relative to the workspace
        run_case(root / job["host_lib"], root / job["kernel_lib"], op, variant, soc, inputs, out,
                 attrs)
        return time.perf_counter() - t

    def gold():
        t = time.perf_counter()
        golden(x, gamma, beta, epsilon=1e-5)
        return time.perf_counter() - t

    sim()
    gold()
    s, g = [], []
    for _ in range(max(reps, 50)):  # milliseconds each: many runs, interleaved
        s.append(sim())
        g.append(gold())
    expected = golden(x, gamma, beta, epsilon=1e-5)
    err = float(np.max(np.abs(out[op.outputs[0].name] - expected)))
    return {"sim_s": med(s), "golden_s": med(g), "max_abs_err": err,
            "runs": {"sim": s, "golden": g}}


# -- report -------------------------------------------------------------------------------------

def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError):
        pass
    gxx = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout
    import SCons

    return {"cpus": os.cpu_count(), "cpu": cpu, "memory": mem, "os": platform.platform(),
            "python": platform.python_version(), "gxx": gxx.splitlines()[0] if gxx else None,
            "scons": SCons.__version__, "ninja": subprocess.run(
                [ninja_bin() or "false", "--version"], capture_output=True, text=True
            ).stdout.strip() or None}


def fmt_s(x) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.0f} ms" if x < 10 else f"{x:.1f} s"


def fmt_r(x) -> str:
    return "-" if x is None else f"{x:.2f}x"


def table(res: dict) -> str:
    rows = [("figure", "opkg", "baseline", "ratio", "baseline is")]
    real = res.get("real")
    if real:
        rows += [
            (f"cold build, {real['n']} ops / {real['targets']} targets", fmt_s(real["cold_s"]),
             fmt_s(real["replay_s"]), fmt_r(ratio(real["cold_s"], real["replay_s"])),
             "same compiler+verifier commands, shell script"),
            ("  same, CPU time (user+sys)", fmt_s(real["cold_cpu_s"]), fmt_s(real["replay_cpu_s"]),
             fmt_r(ratio(real["cold_cpu_s"], real["replay_cpu_s"])), "replayed commands, CPU time"),
            (f"one kernel touched (ran {real['touch_kernel_ran']})",
             fmt_s(real["touch_kernel_s"]), fmt_s(real["cold_s"]),
             fmt_r(ratio(real["touch_kernel_s"], real["cold_s"])), "cold build"),
            (f"helper header touched (ran {real['touch_helper_ran']})",
             fmt_s(real["touch_helper_s"]), fmt_s(real["cold_s"]),
             fmt_r(ratio(real["touch_helper_s"], real["cold_s"])), "cold build"),
            ("restore from cache after rm out/", fmt_s(real["restore_s"]), fmt_s(real["cold_s"]),
             fmt_r(ratio(real["restore_s"], real["cold_s"])), "cold build"),
            ("opkg test, nothing changed", fmt_s(real["test_null_s"]),
             fmt_s(real["cold_verify_s"]), fmt_r(ratio(real["test_null_s"],
                                                       real["cold_verify_s"])),
             "opkg test after deleting the reports"),
        ]
    for s in res.get("scale", []):
        rows += [
            (f"null build N={s['n']} ({s['actions']} steps), fast path"
             + ("" if s["fast_path_used"] else " [NOT USED]"),
             fmt_s(s["null_fast_s"]), fmt_s(s["plain_scons_s"]),
             fmt_r(ratio(s["null_fast_s"], s["plain_scons_s"])), "plain SCons null build"),
            (f"  same, CPU time (user+sys)", fmt_s(s["null_fast_cpu_s"]),
             fmt_s(s["plain_scons_cpu_s"]),
             fmt_r(ratio(s["null_fast_cpu_s"], s["plain_scons_cpu_s"])),
             "plain SCons null build, CPU time"),
            (f"  same, vs ninja", fmt_s(s["null_fast_s"]), fmt_s(s["ninja_s"]),
             fmt_r(ratio(s["null_fast_s"], s["ninja_s"])), "ninja null build (floor)"),
            (f"  opkg without the fast path", fmt_s(s["null_full_s"]), fmt_s(s["plain_scons_s"]),
             fmt_r(ratio(s["null_full_s"], s["plain_scons_s"])), "plain SCons null build"),
            (f"  same, CPU time (user+sys)", fmt_s(s.get("null_full_cpu_s")),
             fmt_s(s["plain_scons_cpu_s"]),
             fmt_r(ratio(s.get("null_full_cpu_s"), s["plain_scons_cpu_s"])),
             "plain SCons null build, CPU time"),
            (f"  peak memory, null build", f"{s['peak_kib_null_fast'] / 1024:.0f} MiB", "-", "-",
             f"without fast path: {s['peak_kib_null_full'] / 1024:.0f} MiB"),
        ]
        if "server_first_s" in s:
            nothing = "" if s["server_unchanged"] else " [BUILT]"
            rows += [
                (f"  server, first query{nothing}", fmt_s(s["server_first_s"]),
                 fmt_s(s["ninja_s"]), fmt_r(ratio(s["server_first_s"], s["ninja_s"])),
                 "ninja null build; opkg: server start + stat check"),
                ("  same, CPU (client + server)", fmt_s(s["server_first_cpu_s"]),
                 fmt_s(s.get("ninja_cpu_s")),
                 fmt_r(ratio(s["server_first_cpu_s"], s.get("ninja_cpu_s"))), "ninja, CPU time"),
                ("  server, later queries", fmt_s(s["server_later_s"]), fmt_s(s["ninja_s"]),
                 fmt_r(ratio(s["server_later_s"], s["ninja_s"])), "ninja null build"),
                ("  same, CPU (client + server)", fmt_s(s["server_later_cpu_s"]),
                 fmt_s(s.get("ninja_cpu_s")),
                 fmt_r(ratio(s["server_later_cpu_s"], s.get("ninja_cpu_s"))), "ninja, CPU time"),
            ]
    c = res.get("client")
    if c:
        rows += [
            ("thin client import (python -S)", fmt_s(c["client_S_s"]), fmt_s(c["pass_S_s"]),
             fmt_r(ratio(c["client_S_s"], c["pass_S_s"])), "python -S -c pass"),
            ("CLI import (opkg.cli + build)", fmt_s(c["cli_s"]), fmt_s(c["client_s"]),
             fmt_r(ratio(c["cli_s"], c["client_s"])), "thin client import (with site)"),
        ]
    scale = res.get("scale", [])
    if len(scale) >= 2:
        a, b = scale[0], scale[-1]
        per = (b["null_fast_s"] - a["null_fast_s"]) / (b["n"] - a["n"])
        per_cpu = (b["null_fast_cpu_s"] - a["null_fast_cpu_s"]) / (b["n"] - a["n"])
        rows.append((f"null build growth per package (N={a['n']}..{b['n']})",
                     f"{per * 1000:.2f} ms", "-", "-",
                     f"target <= 1 ms; CPU time: {per_cpu * 1000:.2f} ms"))
    cli = res.get("cli")
    if cli:
        rows.append(("CLI start-up (opkg --version)", fmt_s(cli["opkg_version_s"]),
                     fmt_s(cli["python_pass_s"]),
                     fmt_r(ratio(cli["opkg_version_s"], cli["python_pass_s"])),
                     "python -c pass"))
    vc = res.get("variant_compile")
    if vc:
        rows.append(("one sim variant compile (kernel)", fmt_s(vc["variant_compile_s"]),
                     fmt_s(vc["minimal_compile_s"]),
                     fmt_r(ratio(vc["variant_compile_s"], vc["minimal_compile_s"])),
                     "file with only <cstdint>, <cmath>"))
        if "variant_cpu_s" in vc:
            rows.append(("  same, CPU time (user+sys)", fmt_s(vc["variant_cpu_s"]),
                         fmt_s(vc["minimal_cpu_s"]),
                         fmt_r(ratio(vc["variant_cpu_s"], vc["minimal_cpu_s"])),
                         "minimal file, CPU time"))
        if "variant_no_pch_s" in vc and vc.get("pch_used"):
            rows.append(("  same, without the precompiled headers", fmt_s(vc["variant_no_pch_s"]),
                         fmt_s(vc["minimal_compile_s"]),
                         fmt_r(ratio(vc["variant_no_pch_s"], vc["minimal_compile_s"])),
                         f"the precompile itself: {fmt_s(vc['pch_s'])} once per architecture"))
    sv = res.get("simt_variant_compile")
    if sv and "variant_no_pch_s" in sv and sv.get("pch_used"):
        rows.append(("one SIMT variant compile (gather_simt), CPU", fmt_s(sv["variant_cpu_s"]),
                     fmt_s(sv["variant_no_pch_cpu_s"]),
                     fmt_r(ratio(sv["variant_cpu_s"], sv["variant_no_pch_cpu_s"])),
                     "without the precompiled headers (as before), CPU; the precompile: "
                     f"{fmt_s(sv['pch_cpu_s'])} CPU once per architecture"))
    ln = res.get("layernorm")
    if ln:
        rows.append(("sim LayerNorm 96x1024 fp32", fmt_s(ln["sim_s"]), fmt_s(ln["golden_s"]),
                     fmt_r(ratio(ln["sim_s"], ln["golden_s"])), "NumPy golden"))
    cb = res.get("cube")
    if cb:
        rows.append(("sim matmul 1024^3 fp16->fp32 (cube)", fmt_s(cb["sim_s"]), fmt_s(cb["numpy_s"]),
                     fmt_r(cb["ratio"]), "NumPy float32 product" + ("" if cb["verified"] else
                                                                   " (NOT VERIFIED)")))
        rows.append(("  same, CPU time", fmt_s(cb["sim_cpu_s"]), fmt_s(cb["numpy_cpu_s"]),
                     fmt_r(cb["cpu_ratio"]), "NumPy, CPU time (BLAS threads included)"))
    sg = res.get("simt")
    if sg:
        rows.append(("sim SIMT gather 1M fp32 (simt)", fmt_s(sg["sim_s"]), fmt_s(sg["numpy_s"]),
                     fmt_r(sg["ratio"]), "NumPy x[indices]" + ("" if sg["verified"] else " (NOT VERIFIED)")))
        rows.append(("  same, CPU time", fmt_s(sg["sim_cpu_s"]), fmt_s(sg["numpy_cpu_s"]),
                     fmt_r(sg["cpu_ratio"]), "NumPy, CPU time"))
    return render(rows)


def render(rows: list[tuple]) -> str:
    """Rows of (figure, opkg, baseline, ratio, baseline is) as a text table, the first row
    its header."""
    widths = [max(len(str(r[i])) for r in rows) for i in range(5)]
    out = []
    for k, r in enumerate(rows):
        out.append("  ".join(str(c).ljust(w) if i in (0, 4) else str(c).rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", default=os.environ.get("BENCH_N", "10,50,200,1000"),
                    help="package counts of the null-build workspaces (default 10,50,200,1000)")
    ap.add_argument("--real-n", type=int, default=int(os.environ.get("BENCH_REAL_N", "3")),
                    help="operators in the really compiled workspace (default 3)")
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "3")))
    ap.add_argument("--cold-reps", type=int, default=int(os.environ.get("BENCH_COLD_REPS", "2")))
    ap.add_argument("--quick", action="store_true", help="N=10 only, real-n 2, 2 repetitions")
    ap.add_argument("--only", default="", help="comma list: real,scale,micro")
    ap.add_argument("--work", type=Path, help="work directory (default: a temporary one)")
    a = ap.parse_args(argv)
    if a.quick:
        a.n, a.real_n, a.reps, a.cold_reps = "10", 2, 2, 1
    only = set(filter(None, a.only.split(","))) or {"real", "scale", "micro"}
    ns = [int(x) for x in a.n.split(",") if x]
    work = a.work or Path(tempfile.mkdtemp(prefix="opkg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    res: dict = {"machine": machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
                 "config": {"n": ns, "real_n": a.real_n, "reps": a.reps,
                            "cold_reps": a.cold_reps}}
    log(f"work directory {work}")
    # Measure a frozen copy of opkg: in a shared checkout, an edit to opkg/ while the benchmark
    # runs would (rightly) invalidate every null-build record and change the compile flags.
    frozen = work / "opkg-under-test"
    shutil.rmtree(frozen, ignore_errors=True)
    shutil.copytree(REPO / "opkg", frozen / "opkg",
                    ignore=shutil.ignore_patterns("__pycache__"))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(frozen), *filter(None, [os.environ.get("PYTHONPATH")])])
    sys.path.insert(0, str(frozen))
    res["opkg_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO,
                                        capture_output=True, text=True).stdout.strip()
    res["opkg_dirty"] = bool(subprocess.run(["git", "status", "--porcelain", "--", "opkg"],
                                            cwd=REPO, capture_output=True,
                                            text=True).stdout.strip())
    def section(name, fn, *args):
        # one failing section (e.g. a package that does not build) leaves the others' figures
        try:
            res[name] = fn(*args)
        except Exception as exc:
            log(f"{name} failed: {exc}")
            res.setdefault("errors", {})[name] = str(exc)[-4000:]

    if "micro" in only or "scale" in only:
        section("client", client_startup, max(a.reps, 20))
    if "micro" in only:
        section("cli", cli_startup, max(a.reps, 20))
    if "real" in only:
        section("real", real_tier, a.real_n, work, a.reps, a.cold_reps)
        res.get("real", {}).pop("plan", None)
    if "micro" in only:
        log("micro: sim LayerNorm")
        section("layernorm", sim_layernorm, work, a.reps)
        # LayerNorm's float32 kernel (built just above), whichever tiers run: `--only micro`
        # measured no compile when this took the real tier's generated add kernel
        log("micro: one variant's compile")
        section("variant_compile", lambda: variant_compile(load_plan(work / "layernorm"), work,
                                                           a.reps))
        log("micro: sim matmul (cube)")
        section("cube", cube.sim_matmul, work, a.reps, opkg_env(work / "cache-cube"))
        log("micro: sim SIMT gather")
        section("simt", simt.sim_gather, work, a.reps, opkg_env(work / "cache-simt"))
        log("micro: one SIMT variant's compile")
        section("simt_variant_compile", lambda: variant_compile(
            load_plan(work / "simt"), work, a.reps, "kernel float32_int32 ("))
    if "scale" in only and ns:
        def scale():
            log("scale: prototype build")
            proto = build_prototype(work)
            scales = [scale_tier(n, proto, work, a.reps) for n in ns]
            log("scale: fast-path null builds, round robin over N")
            log("scale: null builds through the build server")
            try:
                server_null_builds(scales, max(a.reps, 5))
            except Exception as exc:         # keep the other figures of a long run
                log(f"server null builds failed: {exc}")
                res.setdefault("errors", {})["server"] = str(exc)[-4000:]
            fast_null_round_robin(scales, max(a.reps, 5))
            return scales

        section("scale", scale)
    res["elapsed_s"] = time.perf_counter() - started
    out_dir = BENCH / "results"
    out_dir.mkdir(exist_ok=True)
    path = out_dir / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(res, indent=2))
    (out_dir / "latest.json").write_text(json.dumps(res, indent=2))
    print(table(res))
    for name, err in res.get("errors", {}).items():
        print(f"\n{name} FAILED: {err.strip().splitlines()[-1] if err.strip() else err}")
    print(f"\n{res['machine']['cpus']} CPUs, {res['machine']['cpu']}; "
          f"total {res['elapsed_s']:.0f} s; JSON: {path.relative_to(REPO)}")
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
