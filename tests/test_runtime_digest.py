"""The sim toolchain's runtime digest (part of the verify and OpDef-check step signatures):
a change to any of opkg's verifier or sim modules must re-verify what was verified with it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import opkg

DIGEST = "from opkg.toolchains.sim import _runtime_digest; print(_runtime_digest())"


def _digest(root: Path) -> str:
    return subprocess.run([sys.executable, "-c", DIGEST], cwd=root, env={"PYTHONPATH": str(root)},
                          capture_output=True, text=True, check=True).stdout.strip()


def test_every_verifier_module_is_in_the_runtime_digest(tmp_path):
    copy = tmp_path / "opkg"
    shutil.copytree(Path(opkg.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = _digest(tmp_path)
    # artifacts.py (the saved arrays of a failing case) was once left out of the list
    for module in ("verify/artifacts.py", "verify/inputs.py", "sim/runtime.py"):
        path = copy / module
        path.write_text(path.read_text() + "\n# changed\n")
        after = _digest(tmp_path)
        assert after != before, module
        before = after
