"""Generate benchmark workspaces: N vector operators derived from packages/add_custom.

Package i is `bench_op<i>` with op type `BenchOp<i>` (kernel `bench_op<i>`), two dtype variants
(float16, float32), one SoC (every fourth package: two), and every third package depends on the
shared header-only helper package `bench_helper` and includes its header from the kernel.

The large workspaces are populated by stand-ins that replay the outputs of really compiled
prototype packages (bench/replay_cxx.sh, bench/replay_python.sh), because compiling 200 packages
for real takes about an hour here.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = REPO / "packages" / "add_custom"
SOCS = ("Ascend910B1", "Ascend310P3")

MANIFEST = """\
name: {name}
version: 1.0.0
summary: benchmark operator {i} (z = x + y)
op:
  type: {op_type}
  inputs:
    - {{name: x, dtypes: [float16, float32], formats: [ND]}}
    - {{name: y, dtypes: [float16, float32], formats: [ND]}}
  outputs:
    - {{name: z, dtypes: [float16, float32], formats: [ND]}}
tiling:
  sources: [op_host/bench_op.cpp]
  data: op_host/bench_op_tiling.h
kernel:
  source: op_kernel/bench_op.cpp
socs: [{socs}]
deps: [{deps}]
{verify}"""

VERIFY = """\
verify:
  golden: golden.py:{kernel}
  seed: 0
  cases:
    - name: uneven_split
      shapes: {{x: [7, 1200], y: [7, 1200]}}
  tolerance:
    float32: {{rtol: 1.0e-6, atol: 1.0e-6, error_ratio: 0}}
    float16: {{rtol: 1.0e-3, atol: 1.0e-3, error_ratio: 0}}
"""

HELPER_H = "#pragma once\n// shared by the benchmark operators\n#define BENCH_HELPER_VERSION 1\n"


def snake(op_type: str) -> str:
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", op_type)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _subst(text: str, op_type: str, kernel: str) -> str:
    return (text.replace("AddCustom", op_type).replace("add_custom", kernel)
            .replace("ADD_CUSTOM", kernel.upper()))


def generate(root: Path, n: int, *, tiny: bool = False,
             cache_dir: Path | None = None) -> list[str]:
    """Write a workspace with n operators (+ the helper) at root; returns the package names.
    `tiny`: one 32-element verification case instead of 7x1200 (the large workspaces)."""
    if root.exists():
        shutil.rmtree(root)
    (root / "packages").mkdir(parents=True)
    ws = "package_roots: [packages]\noutput_dir: out\ndefault_toolchain: sim\n"
    if cache_dir is not None:
        ws += f"cache_dir: {cache_dir}\n"
    (root / "opkg-workspace.yaml").write_text(ws)
    helper = root / "packages" / "bench_helper"
    (helper / "include").mkdir(parents=True)
    (helper / "include" / "bench_helper.h").write_text(HELPER_H)
    (helper / "opkg.yaml").write_text("name: bench_helper\nversion: 0.1.0\n"
                                      "include_dirs: [include]\ndeps: []\n")
    sources = {
        "op_host/bench_op.cpp": (TEMPLATE / "op_host/add_custom.cpp").read_text()
        .replace('"add_custom_tiling.h"', '"bench_op_tiling.h"'),
        "op_host/bench_op_tiling.h": (TEMPLATE / "op_host/add_custom_tiling.h").read_text(),
        "op_kernel/bench_op.cpp": (TEMPLATE / "op_kernel/add_custom.cpp").read_text(),
        "golden.py": (TEMPLATE / "golden.py").read_text(),
    }
    names = []
    for i in range(n):
        name = f"bench_op{i:04d}"
        op_type = f"BenchOp{i:04d}"
        kernel = snake(op_type)
        d = root / "packages" / name
        uses_helper = i % 3 == 0
        two_socs = i % 4 == 3
        for rel, text in sources.items():
            text = _subst(text, op_type, kernel)
            if rel == "op_kernel/bench_op.cpp" and uses_helper:
                text = '#include "bench_helper.h"\n' + text
            if rel == "op_host/bench_op.cpp" and not two_socs:
                # the OpDef names the SoCs it supports; it must agree with the manifest
                text = text.replace('.AddConfig("ascend910b")\n            .AddConfig("ascend310p")',
                                    '.AddConfig("ascend910b")')
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text)
        socs = SOCS if two_socs else SOCS[:1]
        (d / "opkg.yaml").write_text(MANIFEST.format(
            name=name, i=i, op_type=op_type, socs=", ".join(socs),
            deps="//packages/bench_helper" if uses_helper else "",
            verify=VERIFY.format(kernel=kernel, **(
                {"case": "uneven_split", "shape": "[7, 1200]"} if not tiny
                else {"case": "small", "shape": "[32]"}))))
        names.append(name)
    return names


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path)
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--tiny", action="store_true")
    a = ap.parse_args()
    print(len(generate(a.root, a.n, tiny=a.tiny)), "packages")
