"""Which register-API names (AscendC::MicroAPI / AscendC::Reg) an ops repository's Ascend 950
kernels use, how often, and whether the sim declares each.

    python bench/regapi_names.py /work/.mirror/hicann+ops-nn/repo > bench/data/regapi_names_ops-nn.tsv

Reads the repository's HEAD (a bare mirror or a checkout) with git: the files under an
`op_kernel/` that use the register API (the `op_kernel/arch35/` files, the `*_apt.cpp` entries,
and the families' shared kernel headers such as `norm_common/op_kernel/`). A name counts once per occurrence of
`MicroAPI::<Name>` or `Reg::<Name>`, and once per unqualified call `<Name>(` or `<Name><` of a
function the devkit declares in the register API (its `include/basic_api/reg_compute/` and
`impl/basic_api/reg_compute/*_intf_impl.h`, read from `--devkit`) but nowhere else in its
`include/` (the classic basic and high-level APIs): kernels reach such names by `using namespace` or argument-
dependent lookup (ops-nn's norm kernels call `Mula` so). A name both APIs declare (`Add`,
`Cast`) counts only qualified, as its unqualified calls may be the classic ones. Whether the sim
has it is decided by g++: one translation unit with `using AscendC::Reg::<Name>;` per name,
compiled against the sim's headers for arch 3510; a name g++ reports as not declared is missing.
A declared name is "tested" when a kernel written here for the tests (tests/) uses it.

    python bench/regapi_names.py OPS_NN [--devkit ASC_DEVKIT]
"""
from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

NAME = re.compile(r"\b(?:MicroAPI|Reg)::([A-Za-z_][A-Za-z0-9_]*)")
# A function declaration's name (return type and specifiers before it, the parameter list after).
DECL = re.compile(r"^\s*(?:template\s*<[^;{]*?>\s*)?(?:__simd_callee__|__aicore__|__simd_vf__|inline|static|"
                  r"constexpr|\s)+[\w:<>, ]*?\b([A-Z]\w*)\s*\(", re.M)
REGISTER_API = re.compile(r"\b(?:MicroAPI|Reg)::|\bRegTensor\b")
UNQUALIFIED = r"(?<![\w:.>])({})\s*[<(]"
DEVKIT = "/work/.mirror/mirror-cann+asc-devkit/repo"
INCLUDE = Path(__file__).resolve().parent.parent / "opkg" / "sim" / "include"


def kernel_files(repo: str) -> list[str]:
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    return [p for p in out if "/op_kernel/" in p and p.endswith((".h", ".cpp"))]


def _show(repo: str, path: str) -> str:
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], capture_output=True,
                          text=True, errors="replace").stdout


def _declared(devkit: str, wanted) -> set[str]:
    """Function names declared in the devkit files `wanted` selects (constructors left out)."""
    files = subprocess.run(["git", "-C", devkit, "ls-tree", "-r", "--name-only", "HEAD"], check=True,
                           capture_output=True, text=True).stdout.split("\n")
    texts = [_show(devkit, p) for p in files if wanted(p)]
    types = {n for t in texts for n in re.findall(r"\b(?:struct|class)\s+(\w+)", t)}
    return {n for t in texts for n in DECL.findall(t)} - types


def register_only_names(devkit: str) -> set[str]:
    """Functions of the devkit's register API that the classic basic API does not also declare."""
    reg = _declared(devkit, lambda p: p.startswith("include/basic_api/reg_compute/") or (
        p.startswith("impl/basic_api/reg_compute/") and p.endswith("_intf_impl.h")))
    classic = _declared(devkit, lambda p: p.startswith("include/") and p.endswith(".h")
                        and not p.startswith("include/basic_api/reg_compute/"))
    return reg - classic


def count(repo: str, devkit: str | None = None) -> collections.Counter:
    names: collections.Counter = collections.Counter()
    only = sorted(register_only_names(devkit)) if devkit else []
    bare = re.compile(UNQUALIFIED.format("|".join(only))) if only else None
    for path in kernel_files(repo):
        text = _show(repo, path)
        if not REGISTER_API.search(text):     # a classic kernel, or no kernel of the 950
            continue
        names.update(NAME.findall(text))
        if bare:
            names.update(bare.findall(text))
    return names


def missing(names) -> set[str]:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.cpp"
        src.write_text('#include "kernel_operator.h"\n' + "".join(
            f"namespace probe_{n} {{ using AscendC::Reg::{n}; }}\n" for n in names))
        r = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-fmax-errors=0", "-DOPKG_SIM_KERNEL=1",
                            "-DASCENDC_CPU_DEBUG=1", "-D__NPU_ARCH__=3510", "-D__CCE_AICORE__=310",
                            f"-I{INCLUDE}", str(src)], capture_output=True, text=True,
                           env={**os.environ, "LC_ALL": "C"})
    # Quotes differ by locale (' or the typographic ones).
    return set(re.findall(r"['\u2018](\w+)['\u2019] has not been declared in ['\u2018]AscendC::Reg", r.stderr))


TESTS = Path(__file__).resolve().parent.parent / "tests"


def tested(names) -> set[str]:
    """The names a kernel written here for the tests (tests/**/*.cpp, *.h using the register API)
    calls or declares: run against NumPy by some test, not only compiled."""
    seen: set[str] = set()
    pattern = re.compile(r"\b({})\b".format("|".join(map(re.escape, names))))
    for path in [*TESTS.rglob("*.cpp"), *TESTS.rglob("*.h")]:
        text = path.read_text(errors="replace")
        if REGISTER_API.search(text):
            seen.update(pattern.findall(text))
    return seen


def main(repo: str, devkit: str | None) -> None:
    names = count(repo, devkit)
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    absent = missing(sorted(names))
    run = tested(sorted(names)) - absent
    have = sum(1 for n in names if n not in absent)
    print(f"# register-API names in {Path(repo).parent.name} {commit[:10]} op_kernel files using the register API: "
          f"{have}/{len(names)} declared by the sim ({100.0 * have / len(names):.1f} %), "
          f"{sum(c for n, c in names.items() if n not in absent)}/{sum(names.values())} uses; "
          f"{len(run)}/{len(names)} called by a test kernel here")
    print("# status: tested (a kernel of tests/ uses it), declared (compiles; no test kernel uses it), missing")
    print("name\tuses\tsim")
    for name, uses in names.most_common():
        print(f"{name}\t{uses}\t{'missing' if name in absent else 'tested' if name in run else 'declared'}")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repo", nargs="?", default="/work/.mirror/hicann+ops-nn/repo")
    ap.add_argument("--devkit", default=DEVKIT if Path(DEVKIT).exists() else None,
                    help="asc-devkit (bare mirror or checkout): also count unqualified calls of its "
                         "register-API functions")
    args = ap.parse_args()
    main(args.repo, args.devkit)
