"""The arrays of a failing case, saved next to its verification report for a closer look.

`<variant dir>/failed/<case>/` holds expected.npy and actual.npy (expected.<output>.npy and
actual.<output>.npy when the op has several outputs) and input.<name>.npy per input
(input.<name>.<k>.npy for each tensor of a dynamic input, as it was before the run; an in-place
dynamic input's result is expected.<name>.<k>.npy and actual.<name>.<k>.npy), all loadable with
numpy.load, and reproduce.sh: the one command that runs the case alone again.
The directory is emptied each time the variant verifies, so it only ever shows the last run.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

DIR = "failed"


def reset(report_path: Path) -> Path:
    root = Path(report_path).parent / DIR
    shutil.rmtree(root, ignore_errors=True)
    return root


def save_case(root: Path, case: str, inputs: dict, expected: dict, actual: dict,
              command: str | None = None) -> str:
    """Write one failing case's arrays (and `command`, the line that runs it again, as
    reproduce.sh, run from the workspace root); returns the directory relative to the
    report's (the report is a cached, bundled build output: it must not name this
    checkout)."""
    import numpy as np

    from opkg.util.fsutil import atomic_write_bytes

    def put(name: str, array) -> None:
        import io

        array = np.asarray(array)
        if array.dtype.kind not in "biufc":     # bfloat16 (ml_dtypes): numpy.load needs no import
            array = array.astype(np.float32)
        buf = io.BytesIO()
        np.save(buf, array, allow_pickle=False)
        atomic_write_bytes(d / name, buf.getvalue())

    d = Path(root) / _safe(case)
    d.mkdir(parents=True, exist_ok=True)
    single = len(expected) == 1
    for name in expected:
        if expected[name] is None:         # not compared in this case
            continue
        if isinstance(expected[name], list):   # an in-place dynamic input: each tensor
            for k, want in enumerate(expected[name]):
                put(f"expected.{_safe(name)}.{k}.npy", want)
                put(f"actual.{_safe(name)}.{k}.npy", actual[name][k])
            continue
        suffix = "" if single else f".{_safe(name)}"
        put(f"expected{suffix}.npy", expected[name])
        if name in actual:
            put(f"actual{suffix}.npy", actual[name])
    for name, value in inputs.items():
        if isinstance(value, list):
            for k, v in enumerate(value):
                put(f"input.{_safe(name)}.{k}.npy", v)
        else:
            put(f"input.{_safe(name)}.npy", value)
    if command:
        import os
        import shlex

        from opkg.util.fsutil import atomic_write_text

        # the verifier runs in the workspace root
        script = d / "reproduce.sh"
        atomic_write_text(script, "#!/bin/sh\n# runs this case alone again; its arrays are "
                          "written here anew\n"
                          f"cd {shlex.quote(os.getcwd())} && exec {command} \"$@\"\n")
        script.chmod(0o755)
    return f"{DIR}/{d.name}"


def _safe(name: str) -> str:
    # case names come from manifests: keep them readable but never a path
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "_"
