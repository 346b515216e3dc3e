"""The build server and planning at scale, in one run (`bench/server.py`). Benchmarks, not tests:
nothing here asserts a time.

For each N (default 200 and 1000 operators, bench/gen.py's workspaces populated with the
replaying tools of bench/run.py's scale tier):

  null build through the build server, first query    vs ninja's null build of the same graph
    (starts the server: imports, workspace load, the fast path's stat check)
  null build through the build server, later queries  vs ninja (answered from memory while the
    (the command a user types: the venv's `opkg` script)   watcher saw no change)
  planning + opkg's SCons run (fast path declined)    vs a plain SCons null build of the graph
  the thin client's start-up                          vs `python -c pass` / `python -S -c pass`

Ninja is looked up next to the interpreter, then on PATH; when it is missing the run says so
and the ninja ratios are left out (never a silent zero). Every figure is a median over
interleaved runs (the machine may be shared): wall and CPU (user + sys; through the server, the
client's plus the server's, read from /proc).

Usage: python bench/server.py [--n 200,1000] [--work DIR] [--reps 5] [--plan-reps 3]
A kept --work is reused: a workspace already populated is not populated again.
Results: a table on stdout, JSON in bench/results/server-<date>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import run as bench  # noqa: E402
from run import LAST_CPU, med, log, proc_cpu, timed  # noqa: E402

OPKG_SCRIPT = [str(Path(bench.PY).parent / "opkg")]    # replaced by installed_like()
VENV_PY = [bench.PY]


def installed_like(work: Path) -> None:
    """Run opkg as a non-editable install would: a venv whose site-packages hold one plain
    path line to the running venv's (the dependencies), with opkg itself on PYTHONPATH (the
    frozen copy) and an `opkg` script as pip writes it. A development checkout's editable
    install adds an import hook that `site` runs at every interpreter start (pathlib, re,
    urllib: about 10 ms of CPU); no installed opkg pays it, so the thin client is measured
    without it (the start-up figures show both)."""
    venv = work / "venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([bench.PY, "-m", "venv", "--without-pip", str(venv)], check=True)
    deps = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    site = next((venv / "lib").glob("python*/site-packages"))
    (site / "opkg-bench-deps.pth").write_text(deps + "\n")
    script = venv / "bin" / "opkg"
    script.write_text(f"#!{venv / 'bin' / 'python'}\nimport sys\n"
                      "from opkg.__main__ import main\n"
                      "if __name__ == '__main__':\n    sys.exit(main())\n")
    script.chmod(0o755)
    OPKG_SCRIPT[:] = [str(script)]
    VENV_PY[:] = [str(venv / "bin" / "python")]


def sync_tree(src: Path, dst: Path) -> None:
    """Make dst a copy of src, rewriting only the files that differ (each atomically): a kept
    --work's workspaces then stay valid when opkg did not change, and a build still running
    from the copy never reads a half-written file."""
    wanted = set()
    for path in src.rglob("*"):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        rel = path.relative_to(src)
        wanted.add(rel)
        target = dst / rel
        data = path.read_bytes()
        if target.is_file() and target.read_bytes() == data:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".bench-tmp")
        tmp.write_bytes(data)
        shutil.copymode(path, tmp)
        os.replace(tmp, target)
    for path in list(dst.rglob("*")) if dst.exists() else []:
        if path.is_file() and "__pycache__" not in path.parts and \
                path.relative_to(dst) not in wanted:
            path.unlink()


def workspace(n: int, proto_of, work: Path) -> tuple[Path, dict]:
    """A populated workspace of n operators, reused when a kept --work has one."""
    root = work / f"scale-{n}"
    saved = work / f"scale-{n}.env.json"
    if saved.exists() and (root / "out/.opkg/plan.json").exists():
        log(f"N={n}: reusing {root}")
        return root, json.loads(saved.read_text())
    root, env, populate = bench.populate_scale(n, proto_of(), work)
    saved.write_text(json.dumps(env))
    log(f"N={n}: populated in {populate:.0f} s")
    return root, env


def server_figures(root: Path, env: dict, ninja: str | None, npath: Path, rounds: int,
                   later_per_round: int) -> dict:
    """Rounds of: ninja, the server's first query, later queries, ninja (interleaved)."""
    env = {**env, "OPKG_SERVER": "1"}
    cmd = [*OPKG_SCRIPT, "build", "//..."]
    sdir = root / "out/.opkg/server"
    plan_file = root / "out/.opkg/plan.json"
    ident = plan_file.stat().st_ino, plan_file.stat().st_mtime_ns
    r: dict[str, list] = {k: [] for k in ("first", "first_cpu", "second", "second_cpu",
                                          "later", "later_cpu", "ninja", "ninja_cpu")}

    def nin():
        if ninja:
            r["ninja"].append(timed([ninja, "-f", str(npath)], cwd=root, env=env))
            r["ninja_cpu"].append(LAST_CPU[0])

    for _ in range(rounds):
        subprocess.run([*OPKG_SCRIPT, "shutdown"], cwd=root, env=env, capture_output=True)
        nin()
        r["first"].append(timed(cmd, cwd=root, env=env))
        pid = int((sdir / "lock").read_text().split()[0])
        r["first_cpu"].append(LAST_CPU[0] + proc_cpu(pid))
        for i in range(later_per_round + 1):
            # the second query is answered from memory and renders the result; the later ones
            # replay that output
            which = "second" if i == 0 else "later"
            before = proc_cpu(pid)
            r[which].append(timed(cmd, cwd=root, env=env))
            try:
                r[f"{which}_cpu"].append(LAST_CPU[0] + proc_cpu(pid) - before)
            except FileNotFoundError:    # the server restarted (its log says why)
                log(f"the server restarted during a query; its CPU is left out")
                pid = int((sdir / "lock").read_text().split()[0])
        nin()
    subprocess.run([*OPKG_SCRIPT, "shutdown"], cwd=root, env=env, capture_output=True)
    out = {f"{k}_runs": v for k, v in r.items()}
    out.update({f"{k}_s": med(v) if v else None for k, v in r.items()})
    out["nothing_built"] = (plan_file.stat().st_ino, plan_file.stat().st_mtime_ns) == ident
    return out


def planning_figures(root: Path, env: dict, gpath: Path, reps: int) -> dict:
    """Pairs of: plain SCons null build, opkg's null build with the fast path declined."""
    scons = bench.plain_scons(root, gpath)
    r: dict[str, list] = {k: [] for k in ("plain", "plain_cpu", "opkg", "opkg_cpu")}
    for i in range(reps):
        r["plain"].append(timed(scons, cwd=root, env=env))
        r["plain_cpu"].append(LAST_CPU[0])
        # a variable opkg records differs on every run: the fast path declines, planning and
        # SCons decide that nothing changed
        r["opkg"].append(timed([*OPKG_SCRIPT, "build", "//..."], cwd=root,
                               env={**env, "OPKG_BENCH_RUN": str(i)}))
        r["opkg_cpu"].append(LAST_CPU[0])
    out = {f"{k}_runs": v for k, v in r.items()}
    out.update({f"{k}_s": med(v) for k, v in r.items()})
    return out


def settle(root: Path, env: dict, ninja: str | None, npath: Path, gpath: Path | None) -> None:
    """The baselines' first runs rebuild (no ninja log, no SCons signatures yet) and rewrite the
    outputs; opkg then builds until a build is null through the fast path (the first
    re-records, a second settles racy files)."""
    if ninja:
        timed([ninja, "-f", str(npath)], cwd=root, env=env)
    if gpath is not None:
        timed(bench.plain_scons(root, gpath), cwd=root, env=env)
    plan_file = root / "out/.opkg/plan.json"
    for _ in range(5):
        before = plan_file.stat().st_ino, plan_file.stat().st_mtime_ns
        timed([*OPKG_SCRIPT, "build", "//..."], cwd=root, env=env)
        if (plan_file.stat().st_ino, plan_file.stat().st_mtime_ns) == before:
            return                       # a null build through the fast path: settled
        time.sleep(0.2)
    log("opkg did not settle into a null build after 5 builds")


def startup(reps: int) -> dict:
    """Interpreter start-up and imports, wall and CPU, interleaved: the installed-like venv's
    interpreter, and the development venv's (with the editable install's hook)."""
    py, dev = VENV_PY[0], bench.PY
    cases = {"pass_S": [py, "-S", "-c", "pass"], "pass": [py, "-c", "pass"],
             "client": [py, "-c", "import opkg.build.client"],
             "cli": [py, "-c", "import opkg.cli, opkg.cli.build"],
             "dev_pass": [dev, "-c", "pass"], "dev_client": [dev, "-c", "import opkg.build.client"]}
    r: dict[str, list] = {k: [] for k in cases}
    cpu: dict[str, list] = {k: [] for k in cases}
    env = bench.opkg_env(Path(VENV_PY[0]).parent.parent / "cache")
    for _ in range(reps):
        for k, argv in cases.items():
            r[k].append(timed(argv, env=env))
            cpu[k].append(LAST_CPU[0])
    return {**{f"{k}_s": med(v) for k, v in r.items()},
            **{f"{k}_cpu_s": med(v) for k, v in cpu.items()}}


def fmt(x) -> str:
    return "-" if x is None else bench.fmt_s(x)


def table(res: dict) -> str:
    rows = [("figure", "opkg", "baseline", "ratio", "baseline is")]

    def pair(name, wall, base, base_name, cpu=None, base_cpu=None, cpu_name=None):
        rows.append((name, fmt(wall), fmt(base), bench.fmt_r(bench.ratio(wall, base)),
                     base_name))
        if cpu_name:
            rows.append(("    same, CPU" + (" (client + server)" if "server" in name else ""),
                         fmt(cpu), fmt(base_cpu), bench.fmt_r(bench.ratio(cpu, base_cpu)),
                         cpu_name))

    for s in res["scale"]:
        sv, pl = s["server"], s["planning"]
        rows.append((f"N={s['n']} ({s['targets']} targets, {s['actions']} steps)", "", "", "",
                     ""))
        if sv:
            nin, nin_cpu = sv["ninja_s"], sv["ninja_cpu_s"]
            base = "ninja null build" if nin is not None else "ninja NOT FOUND: no reference"
            built = "" if sv["nothing_built"] else " [BUILT]"
            for name, k in ((f"  server, first query{built}", "first"),
                            ("  server, second query (from memory)", "second"),
                            ("  server, later queries (replayed)", "later")):
                pair(name, sv[f"{k}_s"], nin, base, sv[f"{k}_cpu_s"], nin_cpu, "ninja, CPU")
        if pl:
            pair("  opkg without the fast path", pl["opkg_s"], pl["plain_s"],
                 "plain SCons null build", pl["opkg_cpu_s"], pl["plain_cpu_s"],
                 "plain SCons, CPU")
    st = res.get("startup")
    if st:
        for name, k, b, what in (
                ("python -c pass", "pass", "pass_S", "python -S -c pass"),
                ("thin client import", "client", "pass", "python -c pass"),
                ("CLI import", "cli", "pass", "python -c pass"),
                ("python -c pass, editable dev venv", "dev_pass", "pass", "python -c pass"),
                ("thin client import, editable dev venv", "dev_client", "client",
                 "thin client import")):
            pair(name, st[f"{k}_s"], st[f"{b}_s"], what, st[f"{k}_cpu_s"], st[f"{b}_cpu_s"],
                 "CPU")
    return bench.render(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", default="200,1000")
    ap.add_argument("--work", type=Path, required=True,
                    help="work directory, kept (a populated workspace in it is reused)")
    ap.add_argument("--reps", type=int, default=5, help="server rounds (each: a first query "
                    "and --later later queries, ninja before and after)")
    ap.add_argument("--later", type=int, default=4)
    ap.add_argument("--plan-reps", type=int, default=3)
    ap.add_argument("--only", default="server,planning,startup")
    ap.add_argument("--planning-n", default=None,
                    help="the Ns whose planning is measured (default: all of --n); plain "
                         "SCons's first run in a new workspace rebuilds every step (about 15 "
                         "minutes at N=1000 on a loaded 2-core machine)")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    work = a.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    ninja = bench.ninja_bin()
    if ninja is None:
        log("ninja NOT FOUND (next to the interpreter or on PATH): no ninja reference this run")
    res: dict = {"machine": bench.machine(), "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                 "load_before": os.getloadavg(), "ninja_path": ninja,
                 "config": vars(a) | {"work": str(work)}}
    res["opkg_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=bench.REPO,
                                        capture_output=True, text=True).stdout.strip()
    res["opkg_dirty"] = bool(subprocess.run(["git", "status", "--porcelain", "--", "opkg"],
                                            cwd=bench.REPO, capture_output=True,
                                            text=True).stdout.strip())
    # a frozen copy, as bench/run.py measures: edits to opkg/ during the run do not disturb it
    frozen = work / "opkg-under-test"
    sync_tree(bench.REPO / "opkg", frozen / "opkg")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(frozen), *filter(None, [os.environ.get("PYTHONPATH")])])
    sys.path.insert(0, str(frozen))
    proto: list[dict] = []

    def proto_of() -> dict:
        if not proto:
            log("prototype build")
            proto.append(bench.build_prototype(work))
        return proto[0]

    installed_like(work)
    if "startup" in only:
        log("start-up")
        res["startup"] = startup(20)
    res["scale"] = []
    for n in [int(x) for x in a.n.split(",") if x]:
        root, env = workspace(n, proto_of, work)
        if only == {"populate"}:
            continue
        env = {**env, "PYTHONPATH": os.environ["PYTHONPATH"]}
        plan = bench.load_plan(root)
        gpath, npath = bench.write_graphs(root, plan)
        planning = "planning" in only and (a.planning_n is None or
                                           str(n) in a.planning_n.split(","))
        log(f"N={n}: settling (baselines' first runs, opkg re-records)")
        settle(root, env, ninja, npath, gpath if planning else None)
        s = {"n": n, "actions": len(plan["actions"]), "targets": len(plan["targets"]),
             "server": {}, "planning": {}}
        if "server" in only:
            log(f"N={n}: through the server")
            s["server"] = server_figures(root, env, ninja, npath, a.reps, a.later)
        if planning:
            log(f"N={n}: planning without the fast path against plain SCons")
            s["planning"] = planning_figures(root, env, gpath, a.plan_reps)
        res["scale"].append(s)
    res["load_after"] = os.getloadavg()
    out_dir = BENCH / "results"
    out_dir.mkdir(exist_ok=True)
    path = out_dir / f"server-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(res, indent=2, default=str))
    print(table(res))
    print(f"\nload average before {res['load_before']}, after {res['load_after']}; "
          f"opkg {res['opkg_commit'][:7]}{' (opkg/ dirty)' if res['opkg_dirty'] else ''}; "
          f"JSON: {path.relative_to(bench.REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
