"""The build pipeline's precompiled emulation headers (opkg.toolchains.sim): compiled once per
architecture before the kernels that use it, restored from the cache like any step, left alone
by kernel edits, and made again when an emulation header or a flag changes."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import REPO, compiles, opkg

SOC = "Ascend910B1"
PCH = "out/sim/.pch/c220-2201/opkg_sim_pch.h"


@pytest.fixture
def pch_ws(workspace, monkeypatch, tmp_path):
    """add_custom in a workspace, built by a copy of opkg (its headers and flags are edited)
    with the precompiled headers on."""
    copy = tmp_path / "opkg-copy"
    shutil.copytree(REPO / "opkg", copy / "opkg", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("PYTHONPATH", str(copy))
    monkeypatch.setenv("OPKG_SIM_PCH", "1")
    workspace.copy_package("add_custom")
    workspace.opkg = copy / "opkg"
    return workspace


def kernel_compile(root) -> list[str]:
    plan = json.loads((root / "out/.opkg/plan.json").read_text())
    return next(a["argv"] for a in plan["actions"] if a["step"] == "compile"
                and "kernel float32" in a["description"])


def build(ws):
    return opkg("build", "//...", "--soc", SOC, cwd=ws.root, check=0)


def test_pch_is_built_once_used_by_the_kernels_and_cached(pch_ws, cxx_log, tmp_path):
    r = build(pch_ws)
    assert "invalid-pch" not in r.stdout + r.stderr
    assert sorted(compiles(cxx_log)).count("opkg_sim_pch.h") == 1
    kernels = [line for line in cxx_log.read_text().splitlines() if "op_kernel/add_custom" in line]
    assert len(kernels) == 2 and all(f"-include {pch_ws.root / PCH} " in k for k in kernels)
    # g++ takes it (-H marks a used precompiled header with '!')
    argv = kernel_compile(pch_ws.root)
    argv[argv.index("-o") + 1] = str(tmp_path / "k.o")
    used = subprocess.run([*argv, "-H"], capture_output=True, text=True)
    assert used.returncode == 0 and f"! {pch_ws.root / PCH}.gch" in used.stderr.splitlines()
    assert (tmp_path / "k.o").read_bytes() == (
        pch_ws.root / f"out/sim/add_custom/{SOC}/float32/kernel.o").read_bytes()

    # a kernel edit recompiles the two variants, not the headers
    cxx_log.unlink()
    kernel = pch_ws.root / "packages/add_custom/op_kernel/add_custom.cpp"
    kernel.write_text(kernel.read_text() + "\n// touched\n")
    build(pch_ws)
    assert sorted(compiles(cxx_log)) == ["add_custom.cpp", "add_custom.cpp"]

    # restored from the cache like every other output
    cxx_log.unlink(missing_ok=True)
    opkg("clean", cwd=pch_ws.root, check=0)
    r = opkg("build", "//...", "--soc", SOC, "--json", cwd=pch_ws.root, check=0)
    assert compiles(cxx_log) == [] and (pch_ws.root / (PCH + ".gch")).is_file()


def test_pch_is_rebuilt_when_a_header_or_a_flag_changes(pch_ws, cxx_log):
    build(pch_ws)
    cxx_log.unlink()
    header = pch_ws.opkg / "sim/include/opkg_sim/basic_api/core/kcore.h"
    header.write_text(header.read_text() + "\n// an edit\n")
    r = build(pch_ws)
    assert "invalid-pch" not in r.stdout + r.stderr
    assert compiles(cxx_log).count("opkg_sim_pch.h") == 1

    cxx_log.unlink()
    flags = pch_ws.opkg / "sim/flags.py"
    text = flags.read_text()
    assert '"-DASCENDC_CPU_DEBUG=1",' in text
    flags.write_text(text.replace('"-DASCENDC_CPU_DEBUG=1",',
                                  '"-DASCENDC_CPU_DEBUG=1", "-DOPKG_TEST_NEW_FLAG=1",'))
    r = build(pch_ws)
    assert "invalid-pch" not in r.stdout + r.stderr
    pch_lines = [line for line in cxx_log.read_text().splitlines() if "opkg_sim_pch.h.gch" in line
                 and " -c " in line]
    assert len(pch_lines) == 1 and "-DOPKG_TEST_NEW_FLAG=1" in pch_lines[0]
    assert compiles(cxx_log).count("opkg_sim_pch.h") == 1
