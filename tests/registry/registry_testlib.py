"""Helpers for the registry tests: bundles made with the real bundle writer, and `opkg` as a
child process. (A uniquely named module: `conftest` is ambiguous across test directories.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from opkg.core.bundle import bundle_filename, write_bundle

REPO = Path(__file__).resolve().parents[2]

OP = {"type": "AddCustom",
      "inputs": [{"name": "x", "dtypes": ["float32", "float16"], "formats": ["ND"],
                  "param_type": "required"},
                 {"name": "y", "dtypes": ["float32", "float16"], "formats": ["ND"],
                  "param_type": "required"}],
      "outputs": [{"name": "z", "dtypes": ["float32", "float16"], "formats": ["ND"],
                   "param_type": "required"}],
      "attrs": []}


def make_bundle(out_dir: Path, name="add_custom", version="1.0.0", soc="Ascend910B1",
                toolchain="sim", *, payload=b"\x7fELF fake kernel", failed_case=None,
                cases=3, extra_files=None, summary="Element-wise add",
                git_commit="abc123def456") -> Path:
    """A bundle shaped like the ones `opkg build` writes. `failed_case` makes the float16
    variant fail that case."""
    variants, files = [], {}
    for dtype in ("float32", "float16"):
        failing = dtype == "float16" and failed_case is not None
        out = {"passed": True, "max_abs_error": 1e-6, "max_rel_error": 2e-5,
               "mismatch_ratio": 0.0}
        case_list = [{"case": f"case{i}", "passed": True, "error": None, "outputs": {"z": out}}
                     for i in range(cases)]
        if failing:
            case_list[0] = {"case": failed_case, "passed": False, "error": None,
                            "outputs": {"z": {"passed": False, "max_abs_error": 0.5,
                                              "max_rel_error": 1.0, "mismatch_ratio": 0.25}}}
        passed = sum(c["passed"] for c in case_list)
        report = {"variant": dtype, "passed": passed == cases, "cases": cases,
                  "failed": cases - passed, "results": case_list}
        files[f"verification/{dtype}.json"] = json.dumps(report).encode()
        files[f"lib/lib{name}_{dtype}.so"] = payload + dtype.encode()
        variants.append({"name": dtype, "dtypes": {"x": dtype, "y": dtype, "z": dtype},
                         "verification": {"cases": cases, "passed": passed,
                                          "max_abs_error": 1e-6, "max_rel_error": 2e-5,
                                          "mismatch_ratio": 0.0},
                         "report": f"verification/{dtype}.json"})
    total = 2 * cases
    failed = 0 if failed_case is None else 1
    prov = {"source_digest": "sha256:" + "1" * 64, "git_commit": git_commit,
            "git_dirty": False, "opkg_version": "0.1.0", "lock_digest": None}
    files["opkg.yaml"] = f"name: {name}\nversion: {version}\n".encode()
    files["provenance.json"] = json.dumps(prov).encode()
    files.update(extra_files or {})
    tc_version = toolchain.split("-", 1)[1] if toolchain.startswith("cann-") else "0.1.0"
    meta = {"name": name, "version": version, "summary": summary, "soc": soc,
            "toolchain": {"id": toolchain, "version": tc_version,
                          "fingerprint": "sha256:" + "2" * 64},
            "op": OP, "variants": variants,
            "verification": {"passed": failed == 0, "cases": total, "failed": failed},
            "provenance": prov}
    dest = Path(out_dir) / bundle_filename(name, version, soc, toolchain)
    write_bundle(dest, meta, files)
    return dest


def child_env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    env.pop("OPKG_REGISTRY", None)
    env.update(extra)
    return env


def spawn_opkg(*args, env=None, **kw) -> subprocess.Popen:
    """`opkg` as a real child process."""
    return subprocess.Popen([sys.executable, "-m", "opkg", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env or child_env(), **kw)


def cann_standin():
    """tests/cann_standin.py (stand-in CANN installs and tools), loaded by path: this
    directory's tests may run without tests/ on sys.path."""
    import importlib.util

    path = REPO / "tests" / "cann_standin.py"
    spec = importlib.util.spec_from_file_location("cann_standin_for_registry", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
