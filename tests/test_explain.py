"""`opkg build --explain`: the reason for every step that ran, in plain words."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from opkg.build.explain import Explainer
from opkg.core.actions import Action, Plan

SOC = "Ascend910B1"


def opkg(*args, cwd, env=None, check=0):
    r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                       text=True, timeout=900, env=env)
    assert r.returncode == check, r.stdout + r.stderr
    return r.stdout


@pytest.fixture
def ws(workspace):
    workspace.copy_package("add_custom")
    return workspace.root


def test_explain_names_the_changed_input_flag_and_compiler(ws, tmp_path):
    first = opkg("build", "//...", "--soc", SOC, "--explain", cwd=ws)
    assert "checking every step: no record of a previous build" in first
    assert "compile add_custom kernel float16 (Ascend910B1) add_custom.cpp: " in first
    time.sleep(0.2)
    opkg("build", "//...", "--soc", SOC, cwd=ws)          # settle the fast-path record
    assert opkg("build", "//...", "--soc", SOC, "--explain", cwd=ws).startswith(
        "nothing to rebuild: no input, output, flag, toolchain or environment change")

    kernel = ws / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text().replace("Add(zLocal", "Add(zLocal ", 1))
    out = opkg("build", "//...", "--soc", SOC, "--explain", cwd=ws)
    assert "checking every step: packages/add_custom/op_kernel/add_custom.cpp changed" in out
    for variant in ("float16", "float32"):
        assert (f"compile add_custom kernel {variant} (Ascend910B1) add_custom.cpp: "
                f"op_kernel/add_custom.cpp changed") in out
    assert "host_entry.cpp:" not in out                    # not rebuilt, not explained

    manifest = ws / "packages/add_custom/opkg.yaml"
    manifest.write_text(manifest.read_text().replace("float32: {rtol: 1.0e-6",
                                                     "float32: {rtol: 2.0e-6"))
    out = opkg("build", "//...", "--soc", SOC, "--explain", cwd=ws)
    assert "plan verification add_custom float32: generated content changed " \
           "(tolerance.float32.rtol)" in out
    assert "compile " not in out

    wrapper = tmp_path / "bin" / "g++-wrapped"
    wrapper.parent.mkdir()
    wrapper.write_text('#!/bin/sh\nexec g++ "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, CXX=str(wrapper))
    out = opkg("build", "//...", "--soc", SOC, "--explain", "--json", cwd=ws, env=env)
    data = json.loads(out)
    assert data["explain"][0] == {"event": "fastpath", "used": False,
                                  "reason": "environment variable CXX changed",
                                  "description": None, "target": None, "reasons": None}
    steps = {e["description"]: e["reasons"] for e in data["explain"][1:]}
    why = steps["compile add_custom host host_entry.cpp"]
    assert any(r.startswith("compiler changed: ") and r.endswith(str(wrapper)) for r in why)
    assert any(r.startswith("toolchain identity changed: compiler path") for r in why)


# -- parsing SCons' explanations ------------------------------------------------------------------

def _plan(root: Path) -> Plan:
    pkg = root / "packages/op"
    obj = root / "out/sim/op/Ascend910B1/float16/kernel.o"
    lib = root / "out/sim/op/Ascend910B1/float16/libkernel.so"
    return Plan(str(root), str(root / "out"), None, [], [
        Action("exec", (str(obj),), (str(pkg / "op_kernel/op.cpp"),), argv=("g++", "-c"),
               target="//packages/op@Ascend910B1@sim", step="compile",
               description="compile op kernel float16 (Ascend910B1) op.cpp"),
        Action("exec", (str(lib),), (str(obj),), argv=("g++", "-shared"),
               target="//packages/op@Ascend910B1@sim", step="link",
               description="link op kernel float16 (Ascend910B1)"),
    ])


def _explain(root, lines):
    events = []
    ex = Explainer(_plan(root), root, events.append)
    consumed = [ex.feed(line) for line in lines]
    ex.flush()
    return events, consumed


def test_parses_single_and_multi_line_reasons(tmp_path):
    old = json.dumps({"argv": ["g++", "-O2", "-c"], "content": None, "function": None,
                      "kind": "exec", "params": {}, "signature": "sha256:a"})
    new = json.dumps({"argv": ["g++", "-O3", "-c"], "content": None, "function": None,
                      "kind": "exec", "params": {}, "signature": "sha256:a"})
    events, consumed = _explain(tmp_path, [
        "scons: rebuilding `out/sim/op/Ascend910B1/float16/kernel.o' because:",
        f"           `{old}' is no longer a dependency",
        "           `packages/op/include/new.h' is a new dependency",
        f"           `{new}' is a new dependency",
        "scons: rebuilding `out/sim/op/Ascend910B1/float16/libkernel.so' because "
        "`out/sim/op/Ascend910B1/float16/kernel.o' changed",
        "compiler noise",
    ])
    assert consumed == [True, True, True, True, True, False]
    assert events[0]["description"] == "compile op kernel float16 (Ascend910B1) op.cpp"
    assert events[0]["reasons"] == ["flag removed: -O2", "flag added: -O3",
                                    "now depends on include/new.h"]
    assert events[1]["reasons"] == ["out/sim/op/Ascend910B1/float16/kernel.o was rebuilt"]


def test_missing_output_and_unknown_history(tmp_path):
    events, _ = _explain(tmp_path, [
        "scons: building `out/sim/op/Ascend910B1/float16/kernel.o' because it doesn't exist",
        "scons: Cannot explain why `out/sim/op/Ascend910B1/float16/libkernel.so' is being "
        "rebuilt: No previous build information found",
        "scons: `out/other' is up to date.",
    ])
    assert events[0]["reasons"] == ["output missing (never built here, or deleted)"]
    assert events[1]["reasons"] == ["no record of a previous build of this output"]
