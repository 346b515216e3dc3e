"""One REAPI action run in a scratch directory: its input root laid out, its command run, its
outputs read back (the executing side of remote execution; `opkg worker` leases actions to it).

The input root is all the action may read: every path in its Command is relative to it
(opkg.remote.actions writes them so), and the command runs with it as working directory. Two
kinds of command come from opkg:

- a compiler or linker argv (an `exec` step), run as it is;
- `opkg-step python` (a Python step such as verification): the step's identity in
  `.opkg-step.json` names the function and its parameters; paths in the parameters that lie in
  the input root are made absolute there, and `python` (the interpreter that runs the
  verifier) is this worker's own, the one opkg runs under here.

Outputs are only those the Command declares; one that the command did not write fails the
action (exit status 1 and a message on stderr), as a local step fails.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from opkg.remote.actions import STEP_FILE


def lay_out(client, root_digest, dest: Path) -> None:
    """Fetch the Directory tree under root_digest and its files (digest-checked) into dest."""
    from opkg.remote.client import re_pb2

    dirs = [(root_digest, dest)]
    files: dict[str, list] = {}             # hash -> [(path, executable)]
    digests = {}
    while dirs:
        batch, dirs = dirs, []
        fetched = client.download([d for d, _ in batch], dest.parent)
        for digest, where in batch:
            node = re_pb2.Directory.FromString(fetched[digest.hash].read_bytes())
            where.mkdir(parents=True, exist_ok=True)
            for f in node.files:
                files.setdefault(f.digest.hash, []).append((where / f.name, f.is_executable))
                digests[f.digest.hash] = f.digest
            dirs += [(d.digest, where / d.name) for d in node.directories]
    blobs = dest.parent / "blobs"
    blobs.mkdir(exist_ok=True)
    fetched = client.download(list(digests.values()), blobs) if digests else {}
    for h, places in files.items():
        for path, executable in places:
            if not path.exists():
                os.link(fetched[h], path)
            if executable:
                os.chmod(path, 0o755)


_PLACEHOLDER = re.compile(r"<([\w.-]+)>(/.*)?$")


def _absolute(value, root: Path, top: set[str]):
    """Parameters of a Python step with their input-root paths made absolute: the step's
    identity names them `<workspace>/...` (the plan's placeholders), the input root holds them
    under the placeholder's name."""
    if isinstance(value, dict):
        return {k: _absolute(v, root, top) for k, v in value.items()}
    if isinstance(value, list):
        return [_absolute(v, root, top) for v in value]
    if isinstance(value, str):
        m = _PLACEHOLDER.match(value)
        if m and m.group(1) in top:
            return str(root / m.group(1)) + (m.group(2) or "")
        if value.split("/", 1)[0] in top:
            return str(root / value)
    return value


def run(command, root: Path, outputs: list[str]) -> tuple[int, str, str]:
    """Run the Command in root: (exit status, stdout, stderr)."""
    for rel in outputs:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
    args = list(command.arguments)
    if args[:1] == ["opkg-step"]:
        step = json.loads((root / STEP_FILE).read_text())
        if step["kind"] != "python":
            return 1, "", f"opkg worker: cannot run a {step['kind']!r} step"
        top = {p.name for p in root.iterdir()} - {STEP_FILE}
        params = _absolute(step["params"], root, top)
        if "python" in params:
            params["python"] = sys.executable
        module, name = step["function"].split(":")
        try:
            error = getattr(importlib.import_module(module), name)(params)
        except Exception as exc:           # reported as the step's failure, like a local run
            error = f"{type(exc).__name__}: {exc}"
        status, out, err = (1, "", str(error)) if error else (0, "", "")
    else:
        try:
            proc = subprocess.run(args, cwd=root, capture_output=True, text=True)
        except OSError as exc:
            return 1, "", f"cannot run {args[0]}: {exc.strerror}"
        status, out, err = proc.returncode, proc.stdout, proc.stderr
    if status == 0:
        missing = [rel for rel in outputs if not (root / rel).is_file()]
        if missing:
            return 1, out, err + f"\nopkg worker: the step did not write {', '.join(missing)}"
    return status, out, err
