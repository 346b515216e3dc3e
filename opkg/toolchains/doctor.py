"""`opkg toolchain doctor`: what opkg will run on this machine's CANN, and with which
environment, before the first build.

For each CANN toolkit a build would use it reports, as plain data:
  - the tools (msopgen, op_build, opc) and the bisheng opc will find first on PATH;
  - the environment every CANN step gets (cann_env: set_env.sh's variables for the toolkit),
    next to what the caller has, with the caller's path entries that are dropped because they
    lie inside another installed toolkit;
  - whether msopgen's and opc's Python packages (op_gen, tbe) import from that PYTHONPATH,
    and from where (a real import in a child Python with that environment);
  - per (package, SoC) the command lines of the CANN steps, as planned (nothing runs).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

MODULES = ("op_gen", "tbe")      # msopgen's and opc's packages under python/site-packages


def toolkit_report(backend) -> dict:
    """The environment part of the report for one CannToolchain."""
    from opkg.toolchains.cann_env import OPC_DEFAULTS, OPC_SET, compose, dropped

    spec = backend.env_spec()
    env = compose(spec)
    variables = []
    for var in (*spec["set"], *spec["prepend"]):
        variables.append({"name": var, "opkg": env.get(var, ""),
                          "caller": os.environ.get(var)})
    opc = {**{k: os.environ.get(k, v) for k, v in OPC_DEFAULTS.items()}, **OPC_SET}
    tools = {name: str(backend.toolkit.tool(name) or "") for name in ("msopgen", "op_build", "opc")}
    return {
        "toolchain": backend.id, "root": str(backend.toolkit.root),
        "tools": tools,
        "bisheng": shutil.which("bisheng", path=env["PATH"]),
        "caller_bisheng": shutil.which("bisheng"),
        "variables": variables,
        "dropped": {k: v for k, v in dropped(spec).items() if v},
        "opc_env": opc,
        "modules": _modules(env),
    }


def _modules(env: dict) -> dict[str, str | None]:
    """Where each module imports from with `env` (None: it does not)."""
    code = ("import importlib.util, json, sys\n"
            "out = {}\n"
            "for m in sys.argv[1:]:\n"
            "    try:\n"
            "        spec = importlib.util.find_spec(m)\n"
            "    except (ImportError, ValueError):\n"
            "        spec = None\n"
            "    out[m] = spec.origin if spec else None\n"
            "print(json.dumps(out))\n")
    import json

    try:
        proc = subprocess.run([sys.executable, "-c", code, *MODULES], capture_output=True,
                              text=True, env=env, timeout=60)
        return json.loads(proc.stdout)
    except (OSError, ValueError, subprocess.SubprocessError):
        return {m: None for m in MODULES}


def planned_commands(actions) -> list[dict]:
    """The CANN tool runs among a target's planned actions: step, what, argv and the
    step-specific environment."""
    out = []
    for a in actions:
        argv = list(a.argv) if a.argv else (a.params or {}).get("argv")
        if not argv or a.step == "verify":
            continue
        out.append({"step": a.step, "description": a.description, "argv": [str(x) for x in argv],
                    "env": dict((a.params or {}).get("opc_env", {}))})
    return out
