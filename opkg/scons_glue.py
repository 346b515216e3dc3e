"""SCons side of the build: read a plan (opkg.plan) and declare one SCons node per Action.

Imported only by SConstruct, inside the SCons process. It makes no decisions of its own:
every command, input and output comes from the plan. SCons contributes what it is good at:
content signatures, #include scanning, parallel jobs, CacheDir. Actions report progress as
`@@opkg {json}` lines on stdout, which opkg.engine turns into the user's display.

Each action's identity (argv, generated content, parameters, toolchain fingerprint) is a
Value source of its node, so changing any of them rebuilds, and the CacheDir key changes too.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from opkg.fsutil import atomic_write_text
from opkg.plan import Action, Plan
from opkg.procs import checkpoint, watch_parent

EVENT_PREFIX = "@@opkg "
_ACTIONS: list[Action] = []
_print_lock = threading.Lock()


def emit(event: str, **fields) -> None:
    line = EVENT_PREFIX + json.dumps({"event": event, **fields}) + "\n"
    with _print_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def declare(plan_path: str) -> None:
    from SCons.Action import Action as SConsAction
    from SCons.Script import CacheDir, Decider, Default, Environment, SConsignFile
    from SCons.Scanner.C import CScanner

    watch_parent()     # first: if opkg dies, this process and everything it started stop
    plan = Plan.from_json(json.loads(Path(plan_path).read_text()))
    state_dir = Path(plan.output_dir) / ".opkg"
    state_dir.mkdir(parents=True, exist_ok=True)
    SConsignFile(str(state_dir / "sconsign"))
    # content, not content-timestamp: an edit within the same second as the last build
    # (same mtime) must still rebuild
    Decider("content")
    if plan.cache_dir:
        Path(plan.cache_dir).mkdir(parents=True, exist_ok=True)
        CacheDir(str(Path(plan.cache_dir) / "scons"))
    env = Environment(ENV=os.environ, tools=[])
    scanner = CScanner()
    run = SConsAction(_run, strfunction=None)   # progress comes from our own events
    _ACTIONS[:] = plan.actions
    outputs = []
    aliases = sorted(plan.aliases.items(), key=lambda kv: -len(kv[0]))   # longest prefix first
    for index, action in enumerate(plan.actions):
        identity = json.dumps({"kind": action.kind, "argv": action.argv,
                               "content": action.content, "function": action.function,
                               "params": action.params, "signature": action.signature},
                              sort_keys=True)
        for prefix, alias in aliases:
            identity = identity.replace(prefix, alias)
        extra = {"source_factory": env.fs.File, "target_factory": env.fs.File}
        if action.scan_path:
            extra.update(source_scanner=scanner, CPPPATH=list(action.scan_path))
        nodes = env.Command(list(action.outputs), list(action.inputs), run,
                            OPKG_ACTION=index, **extra)
        # the identity is a dependency, not a source: it must not be #include-scanned
        env.Depends(nodes, env.Value(identity))
        outputs.extend(nodes)
    Default(outputs)


def _run(target, source, env) -> int:
    action = _ACTIONS[env["OPKG_ACTION"]]
    started = time.monotonic()
    emit("start", target=action.target, step=action.step, description=action.description,
         **({"command": list(action.argv)} if action.kind == "exec" else {}))   # for -v
    try:
        if action.kind == "write":
            atomic_write_text(Path(action.outputs[0]), action.content or "")
            error = None
        elif action.kind == "exec":
            error = _exec(action)
        elif action.kind == "python":
            module, name = action.function.split(":")
            error = getattr(importlib.import_module(module), name)(action.params)
        else:
            error = f"unknown action kind {action.kind!r}"
    except Exception as exc:  # report, never crash SCons with a traceback
        error = f"{type(exc).__name__}: {exc}"
    elapsed = round(time.monotonic() - started, 3)
    if error:
        emit("fail", target=action.target, step=action.step, description=action.description,
             output=error, elapsed=elapsed)
        for out in action.outputs:
            Path(out).unlink(missing_ok=True)
        return 1
    emit("done", target=action.target, step=action.step, description=action.description,
         elapsed=elapsed)
    return 0


def _exec(action: Action) -> str | None:
    """Run argv with its outputs redirected to temporary names, renamed only on success, so
    an interrupted compile never leaves a half-written object behind."""
    temps = {out: f"{out}.tmp-{os.getpid()}-{threading.get_ident()}" for out in action.outputs}
    argv = [temps.get(arg, arg) for arg in action.argv]
    for out in action.outputs:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    try:
        with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) as proc:
            checkpoint("exec")          # a test hook: a compiler is running
            stdout, stderr = proc.communicate()
        if proc.returncode != 0:
            return (stderr + stdout).strip() or f"exit status {proc.returncode}"
        for out, tmp in temps.items():
            os.replace(tmp, out)
        return None
    except OSError as exc:
        return f"cannot run {argv[0]}: {exc.strerror}"
    finally:
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)
