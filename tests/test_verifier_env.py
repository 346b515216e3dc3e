"""The verifier (the process that runs the golden and the kernel) gets a scrubbed environment
and the workspace as its working directory: a golden is code you run, like a test, and has no
use for the credentials exported in the shell that started the build."""

from __future__ import annotations

import json
import os
import subprocess
import sys

SPY_GOLDEN = """\
import json, os


def golden(x, *, alpha):
    with open("golden-saw.json", "w") as fh:   # relative: lands in the working directory
        json.dump({"env": sorted(os.environ), "cwd": os.getcwd()}, fh)
    return x + alpha
"""


def test_the_golden_sees_no_secrets_and_runs_in_the_workspace(workspace, tmp_path):
    workspace.operator("addone")
    workspace.write("packages/addone/golden.py", SPY_GOLDEN)
    env = dict(os.environ, MY_API_TOKEN="s3cret", AWS_SECRET_ACCESS_KEY="s3cret")
    r = subprocess.run([sys.executable, "-m", "opkg", "build", "//...", "--soc", "Ascend910B1"],
                       cwd=workspace.root / "packages", env=env, capture_output=True, text=True,
                       timeout=900)
    assert "verify addone" in r.stderr, r.stdout + r.stderr   # the verification step ran
    saw = json.loads((workspace.root / "golden-saw.json").read_text())
    assert saw["cwd"] == str(workspace.root.resolve())
    assert "MY_API_TOKEN" not in saw["env"] and "AWS_SECRET_ACCESS_KEY" not in saw["env"]
    assert "PATH" in saw["env"] and "OPKG_CACHE_DIR" in saw["env"]
