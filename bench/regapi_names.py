"""Which register-API names (AscendC::MicroAPI / AscendC::Reg) an ops repository's Ascend 950
kernels use, how often, and whether the sim declares each.

    python bench/regapi_names.py /work/.mirror/hicann+ops-nn/repo > bench/data/regapi_names_ops-nn.tsv

Reads the repository's HEAD (a bare mirror or a checkout) with git: the files under
`op_kernel/arch35/` and the `op_kernel/*_apt.cpp` entries. A name counts once per occurrence of
`MicroAPI::<Name>` or `Reg::<Name>`. Whether the sim has it is decided by g++: one translation
unit with `using AscendC::Reg::<Name>;` per name, compiled against the sim's headers for arch
3510; a name g++ reports as not declared is missing.
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
INCLUDE = Path(__file__).resolve().parent.parent / "opkg" / "sim" / "include"


def kernel_files(repo: str) -> list[str]:
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    return [p for p in out if "/op_kernel/arch35/" in p or re.search(r"/op_kernel/[^/]*_apt\.cpp$", p)]


def count(repo: str) -> collections.Counter:
    names: collections.Counter = collections.Counter()
    for path in kernel_files(repo):
        text = subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], capture_output=True,
                              text=True, errors="replace").stdout
        names.update(NAME.findall(text))
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


def main(repo: str) -> None:
    names = count(repo)
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    absent = missing(sorted(names))
    have = sum(1 for n in names if n not in absent)
    print(f"# register-API names in {Path(repo).parent.name} {commit[:10]} op_kernel/arch35 + *_apt.cpp: "
          f"{have}/{len(names)} declared by the sim ({100.0 * have / len(names):.1f} %), "
          f"{sum(c for n, c in names.items() if n not in absent)}/{sum(names.values())} uses")
    print("name\tuses\tsim")
    for name, uses in names.most_common():
        print(f"{name}\t{uses}\t{'missing' if name in absent else 'yes'}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+ops-nn/repo")
