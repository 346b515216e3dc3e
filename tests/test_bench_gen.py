"""The benchmark's workspace generator (bench/gen.py) writes valid packages (no timing here)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import gen  # noqa: E402

from opkg.core.workspace import Workspace  # noqa: E402


def test_generated_workspace_loads_with_variants_socs_and_helper_deps(tmp_path):
    names = gen.generate(tmp_path / "ws", 8)
    ws = Workspace.load(tmp_path / "ws")
    assert sorted(p.name for p in ws.packages.values()) == sorted(names + ["bench_helper"])
    ops = {p.name: p for p in ws.packages.values() if p.is_operator}
    assert len({p.op.type for p in ops.values()}) == 8          # op types are unique
    assert all(len(p.op.variants()) == 2 for p in ops.values())
    assert [n for n, p in sorted(ops.items()) if len(p.socs) == 2] == ["bench_op0003",
                                                                        "bench_op0007"]
    helped = sorted(n for n, p in ops.items() if "//packages/bench_helper" in p.deps)
    assert helped == ["bench_op0000", "bench_op0003", "bench_op0006"]
    for n in helped:
        assert '#include "bench_helper.h"' in ops[n].kernel_source.read_text()
    # one SoC: the OpDef must not claim the second one
    assert "ascend310p" not in (ops["bench_op0001"].dir / "op_host/bench_op.cpp").read_text()
    assert "ascend310p" in (ops["bench_op0003"].dir / "op_host/bench_op.cpp").read_text()
