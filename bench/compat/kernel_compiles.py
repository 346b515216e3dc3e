#!/usr/bin/env python3
"""Do an ops repository's kernels compile on the sim? The kernel half of the compatibility
harness, without the host side: how many operators reach a kernel compile, and the first error
of those that do not.

    bench/compat/kernel_compiles.py --repo OPS_NN --opbase OPBASE [--soc SOC] [--families F...]
                                    [--work DIR] [--no-import] [--only OP...]

Each family directory is imported with `opkg import --soc SOC` into one scratch workspace (with
--no-import, the operators an earlier import or `repository.py --import-only` put there); the
build plan is made as `opkg build` makes it, and each operator's kernel compile step for its
first dtype variant is run as planned, with `-fsyntax-only` (the generated headers it reads are
written first; the precompiled sim headers of its flag set are built once, by the plan's own
step, and used by every kernel: 2-4x less per kernel; without them when that step fails). On the Ascend 950 (the default SoC) only the operators whose device kernel is
`op_kernel/<op>_apt.cpp` (arch35, written with the register API) are counted. The host side
(tiling, InferShape) is not built here: the full harness (repository.py) measures it. Prints a
row per operator (compiles, or the first error) and the count per family, with the repository's
commit.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import snapshot  # noqa: E402

snapshot.pin(sys.argv)              # before opkg is imported: --opkg-at REV
from run import opkg_commit  # noqa: E402

SOC_950 = "Ascend950PR_9599"


def import_families(opkg: list[str], repo: Path, opbase: Path, work: Path, families: list[str],
                    soc: str) -> None:
    work.mkdir(parents=True, exist_ok=True)
    ws = work / "opkg-workspace.yaml"
    if not ws.exists():
        ws.write_text("package_roots: [packages]\noutput_dir: out\n")
        (work / "packages").mkdir(exist_ok=True)
    for family in families:
        subprocess.run([*opkg, "import", str(repo / family), "--base", str(opbase), "--soc", soc],
                       cwd=work, capture_output=True, text=True)


def plan(work: Path, soc: str):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from opkg.build.plan import BuildRequest, make_plan
    from opkg.core.workspace import Workspace
    from opkg.toolchains.alignment import lock_digest, preflight

    ws = Workspace.load(work)
    selection = ws.load_targets(["//..."])
    ops = [p for p in selection.closure if p.is_operator and soc in p.socs]
    resolution = preflight(ws, selection.closure, [soc], None)
    return make_plan(ws, BuildRequest(tuple(selection.closure), (soc,), None, True, True, resolution,
                                      lock_digest(ws))), ops


def precompiler(the_plan):
    """A function giving, for a kernel compile's argv, the argv to check it with: its
    precompiled sim headers built once for every kernel of the flag set (the plan's `pch`
    step, run the first time a kernel names its header; g++ takes the .gch where it fits and
    reads the headers otherwise, so what compiles is the same), else without them."""
    steps = {}
    for a in the_plan.actions:
        if a.step == "pch" or (a.kind == "write" and a.outputs[0].endswith(".h")
                               and "/.pch/" in a.outputs[0]):
            steps.setdefault(a.outputs[0], []).append(a)
    built: dict[str, bool] = {}

    def build(header: str) -> bool:
        gch = header + ".gch"
        if header not in built:
            writes, pchs = steps.get(header, []), steps.get(gch, [])
            for a in writes:
                Path(header).parent.mkdir(parents=True, exist_ok=True)
                Path(header).write_text(a.content)
            built[header] = bool(writes and pchs) and subprocess.run(
                list(pchs[0].argv), capture_output=True).returncode == 0
        return built[header]

    def argv_for(argv: list[str]) -> list[str]:
        header = next((x for j, x in enumerate(argv) if j and argv[j - 1] == "-include"
                       and "/.pch/" in x), None)
        if header is not None and build(header):
            return argv
        return [x for j, x in enumerate(argv) if not (x == "-include" and ".pch" in argv[j + 1])
                and not (j and argv[j - 1] == "-include" and ".pch" in x)]
    return argv_for


def compile_kernels(the_plan, ops, soc: str) -> dict[str, str]:
    by_target = defaultdict(list)
    for a in the_plan.actions:
        by_target[a.target].append(a)
    with_pch = precompiler(the_plan)
    rows = {}
    for pkg in ops:
        actions = by_target.get(f"{pkg.label}@{soc}@sim", [])
        # "compile <op> kernel <variant> (<SoC>) <source>", not the shared "kernel entry" step
        kernel = next((a for a in actions if re.match(rf"compile {re.escape(pkg.name)} kernel (?!entry )\S+ \(.*\) \S+$",
                                                      a.description)), None)
        if kernel is None:
            rows[pkg.label] = "no kernel compile step"
            continue
        for a in actions:   # the generated sources and headers the kernel reads
            if a.kind == "write":
                for out in a.outputs:
                    Path(out).parent.mkdir(parents=True, exist_ok=True)
                    Path(out).write_text(a.content)
        argv = [x for x in kernel.argv]
        i = argv.index("-o")
        argv = argv[:i] + argv[i + 2:] + ["-fsyntax-only"]
        argv = with_pch(argv)
        r = subprocess.run(argv, capture_output=True, text=True)
        errors = [line for line in r.stderr.splitlines() if ": error:" in line or "fatal error" in line]
        rows[pkg.label] = "compiles" if r.returncode == 0 else (errors[0] if errors else r.stderr[-300:])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", type=Path, required=True)
    ap.add_argument("--opbase", type=Path, required=True)
    ap.add_argument("--soc", default=SOC_950)
    snapshot.add_option(ap)
    ap.add_argument("--families", nargs="*", default=["activation"])
    ap.add_argument("--work", type=Path, default=Path("/tmp/opkg-kernel-compiles"))
    ap.add_argument("--no-import", action="store_true", help="reuse the work directory's earlier import")
    ap.add_argument("--only", nargs="*", default=None, help="operator directory names (default: all)")
    args = ap.parse_args()
    opkg = [sys.executable, "-m", "opkg"]
    start = time.time()
    if not args.no_import:
        import_families(opkg, args.repo, args.opbase, args.work.resolve(), args.families, args.soc)
    the_plan, ops = plan(args.work.resolve(), args.soc)
    chosen = [p for p in ops if p.kernel_source and (args.only is None or p.name in args.only)
              and (args.soc != SOC_950 or str(p.kernel_source).endswith("_apt.cpp"))]
    rows = compile_kernels(the_plan, chosen, args.soc)
    commit = subprocess.run(["git", "-C", str(args.repo), "rev-parse", "--short=8", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "(not a git checkout)"
    fam = defaultdict(lambda: [0, 0])
    for label, status in sorted(rows.items()):
        family = label.split("/")[-2]
        fam[family][1] += 1
        fam[family][0] += status == "compiles"
        print(f"{label}\t{status}")
    total = sum(v[0] for v in fam.values()), sum(v[1] for v in fam.values())
    print(json.dumps({"repo_commit": commit, "opkg": opkg_commit(), "families": {k: f"{v[0]}/{v[1]}" for k, v in fam.items()},
                      "kernels_compile": f"{total[0]}/{total[1]}", "seconds": round(time.time() - start)}))


if __name__ == "__main__":
    main()
