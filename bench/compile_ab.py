"""One sim kernel variant's compile under two opkg trees, in one run (issue 17): `make bench`'s
variant_compile measures one tree against the minimal <cstdint>/<cmath> file; this runs the same
kernel command with a base tree's emulation headers and with this tree's, each through its own
precompiled headers and without them, plus the block runner object (src/kernel_runtime.cpp) of
each, interleaved with the minimal file so that machine load falls on all alike. Wall and CPU
(user + sys) medians, ratios against the minimal file of the same run.

    git archive <base-commit> opkg | tar -x -C /tmp/base
    opkg build   # in a workspace holding packages/layernorm (its plan gives the commands)
    python bench/compile_ab.py --base /tmp/base --workspace WS [--reps 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(argv: list[str], out: Path) -> tuple[float, float]:
    argv = list(argv)
    argv[argv.index("-o") + 1] = str(out)
    c0, t0 = cpu(), time.perf_counter()
    subprocess.run(argv, check=True)
    return time.perf_counter() - t0, cpu() - c0


def without_pch(argv: list[str]) -> list[str]:
    argv = list(argv)
    i = argv.index("-Winvalid-pch")
    del argv[i:i + 3]               # -Winvalid-pch -include <pch>
    return argv


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="a tree holding the base opkg/")
    ap.add_argument("--workspace", type=Path, required=True,
                    help="a workspace built by this tree (its out/.opkg/plan.json)")
    ap.add_argument("--kernel", default="kernel float32 (Ascend910B1)",
                    help="the compile step, by its description")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path("/tmp/opkg-compile-ab"))
    a = ap.parse_args(argv)
    ws = a.workspace.resolve()
    plan = json.loads((ws / "out/.opkg/plan.json").read_text())
    acts = plan["actions"]
    kernel = next(x for x in acts if x["step"] == "compile" and a.kernel in x["description"])
    pch_dir = Path(kernel["argv"][kernel["argv"].index("-Winvalid-pch") + 2]).parent
    pch = next(x for x in acts if x["step"] == "pch" and str(pch_dir) in " ".join(x["argv"]))
    arch = pch_dir.name
    runtime = next(x for x in acts if x["description"] == f"compile sim kernel runtime ({arch})")
    trees = {"base": (a.base / "opkg/sim").resolve(), "new": (REPO / "opkg/sim").resolve()}
    new_sim = str(trees["new"])
    out = a.out
    out.mkdir(parents=True, exist_ok=True)

    def tree(argv, tag):
        return [x.replace(new_sim, str(trees[tag])).replace(str(pch_dir), str(out / tag))
                for x in argv]

    for tag in trees:
        (out / tag).mkdir(exist_ok=True)
        (out / tag / "opkg_sim_pch.h").write_text('#include "kernel_operator.h"\n')
        run(tree(pch["argv"], tag), out / tag / "opkg_sim_pch.h.gch")
    (out / "minimal.cpp").write_text("#include <cstdint>\n#include <cmath>\n"
                                     'extern "C" double f(double x) { return std::sqrt(x) + INT32_MAX; }\n')
    k = kernel["argv"]
    common = k[1:next(i for i, x in enumerate(k) if x.startswith("-ffile-prefix-map="))]
    minimal = [k[0], *common, "-c", str(out / "minimal.cpp"), "-o", str(out / "m.o")]
    runs: dict[str, list] = {}
    for _ in range(a.reps):
        for tag in trees:
            argv = tree(k, tag)
            runs.setdefault(f"{tag} kernel, through its PCH", []).append(run(argv, out / f"{tag}.o"))
            runs.setdefault(f"{tag} kernel, no PCH", []).append(
                run(without_pch(argv), out / f"{tag}-nopch.o"))
            runs.setdefault(f"{tag} block runner object", []).append(
                run(tree(runtime["argv"], tag), out / f"{tag}-runtime.o"))
        runs.setdefault("minimal file", []).append(run(minimal, out / "m.o"))
    med = {key: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for key, v in runs.items()}
    mw, mc = med["minimal file"]
    for key, (w, c) in med.items():
        print(f"{key:34s} wall {w:7.2f} s {w / mw:6.1f}x   CPU {c:6.2f} s {c / mc:6.1f}x")
    sizes = {tag: subprocess.run(["size", str(out / f"{tag}.o")], capture_output=True,
                                 text=True).stdout.split("\n")[1].split()[0] for tag in trees}
    print(f"text of the kernel object: base {sizes['base']} B, new {sizes['new']} B; "
          f"load average {os.getloadavg()[0]:.1f}; {a.reps} interleaved repetitions")
    (out / "results.json").write_text(json.dumps({"runs": runs, "median": med, "text": sizes},
                                                 indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
