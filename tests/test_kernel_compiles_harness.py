"""bench/compat/kernel_compiles.py's syntax check through the plan's precompiled sim headers:
the plan's `pch` step runs once, the first time a kernel names its header, and every kernel of
that flag set keeps `-include <header>`; when the step fails, the kernels are checked without
it (g++ reads the headers), as before."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench" / "compat"))
import kernel_compiles  # noqa: E402


@dataclass
class Act:
    kind: str
    outputs: tuple
    step: str = "compile"
    argv: tuple = ()
    content: str = ""


def _plan(tmp_path: Path, pch_ok: bool):
    header = tmp_path / "out" / "sim" / ".pch" / "c220" / "opkg_sim_pch.h"
    runs = tmp_path / "runs"
    pch_cmd = f"echo x >> {runs}; test {int(pch_ok)} = 1 && touch {header}.gch"
    actions = [Act("write", (str(header),), "generate", content='#include "kernel_operator.h"\n'),
               Act("exec", (str(header) + ".gch",), "pch", ("sh", "-c", pch_cmd))]
    return type("Plan", (), {"actions": actions})(), header, runs


def _kernel(header: Path, name: str) -> list[str]:
    return ["g++", "-Winvalid-pch", "-include", str(header), "-include", "other.h", "-c",
            f"{name}.cpp", "-fsyntax-only"]


def test_kernels_keep_the_precompiled_headers_built_once(tmp_path):
    plan, header, runs = _plan(tmp_path, pch_ok=True)
    argv_for = kernel_compiles.precompiler(plan)
    assert argv_for(_kernel(header, "a")) == _kernel(header, "a")
    assert argv_for(_kernel(header, "b")) == _kernel(header, "b")
    assert runs.read_text().split() == ["x"]            # one pch step for both kernels
    assert header.read_text() == '#include "kernel_operator.h"\n'


def test_kernels_are_checked_without_them_when_the_step_fails(tmp_path):
    plan, header, runs = _plan(tmp_path, pch_ok=False)
    argv_for = kernel_compiles.precompiler(plan)
    for name in ("a", "b"):
        assert argv_for(_kernel(header, name)) == [
            "g++", "-Winvalid-pch", "-include", "other.h", "-c", f"{name}.cpp", "-fsyntax-only"]
    assert runs.read_text().split() == ["x"]            # not tried again per kernel
