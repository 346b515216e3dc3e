"""The environment CANN's tools run with: what the toolkit's `set_env.sh` exports, and what the
msopgen project's generated opc scripts add.

A platform team runs msopgen, op_build and opc after `source <toolkit>/set_env.sh`; opkg gives
every CANN step that environment for the chosen toolkit instead of trusting the caller's. The
variables and their order are those of CANN 8.1.RC1's `ascend-toolkit/set_env.sh` (the
leideng/CANN-8.1.RC1 mirror, `Ascend/ascend-toolkit/8.1.RC1/aarch64-linux/script/set_env.sh`):

    LD_LIBRARY_PATH  tools/aml/lib64, tools/aml/lib64/plugin, lib64, lib64/plugin/opskernel,
                     lib64/plugin/nnengine, opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/<arch>
    PYTHONPATH       python/site-packages (op_gen, tbe, ...), opp/built-in/op_impl/ai_core/tbe
    PATH             bin, compiler/ccec_compiler/bin, tools/ccec_compiler/bin
    ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH, ASCEND_AICPU_PATH = the toolkit,
    ASCEND_OPP_PATH = <toolkit>/opp, TOOLCHAIN_HOME = <toolkit>/toolkit

each prepended to what the caller has. Entries of the caller's paths that lie inside another
installed toolkit are dropped: set_env.sh only prepends, so a module or library present in
the other toolkit alone would otherwise be picked up silently.

opc steps also get what the project's cmake/util/ascendc_bin_param_build.py writes into each
gen/<Op>-<kernel>-<i>.sh (ASCEND_GLOBAL_LOG_LEVEL=3 and ASCEND_SLOG_PRINT_TO_STDOUT=1 unless
the caller set them, so a failing opc prints its log) and what ascendc_compile_kernel.py exports
before running them (HI_PYTHON=python3, TILINGKEY_PAR_COMPILE=1 unless set).
"""

from __future__ import annotations

import os
from pathlib import Path

PATH_VARS = {
    "LD_LIBRARY_PATH": ("tools/aml/lib64", "tools/aml/lib64/plugin", "lib64",
                        "lib64/plugin/opskernel", "lib64/plugin/nnengine",
                        "opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/{arch}"),
    "PYTHONPATH": ("python/site-packages", "opp/built-in/op_impl/ai_core/tbe"),
    "PATH": ("bin", "compiler/ccec_compiler/bin", "tools/ccec_compiler/bin"),
}
# opc's log and parallelism, set only where the caller has not set them (as the .sh scripts do)
OPC_DEFAULTS = {"ASCEND_GLOBAL_LOG_LEVEL": "3", "ASCEND_SLOG_PRINT_TO_STDOUT": "1",
                "TILINGKEY_PAR_COMPILE": "1"}
OPC_SET = {"HI_PYTHON": "python3"}


def set_env_spec(root: Path, arch: str, others=()) -> dict:
    """What `source <root>/set_env.sh` does, as data: variables set, path entries prepended, and
    the roots of other toolkits whose entries are dropped from the caller's paths."""
    root = Path(root)
    return {
        "set": {"ASCEND_TOOLKIT_HOME": str(root), "ASCEND_HOME_PATH": str(root),
                "ASCEND_AICPU_PATH": str(root), "ASCEND_OPP_PATH": str(root / "opp"),
                "TOOLCHAIN_HOME": str(root / "toolkit")},
        "prepend": {var: [str(root / rel.format(arch=arch)) for rel in rels]
                    for var, rels in PATH_VARS.items()},
        "drop": sorted(_forms(others) - _forms([root])),
    }


def _forms(roots) -> set[str]:
    """Each root as given and resolved (ascend-toolkit/latest is a link to a version)."""
    out = set()
    for r in roots:
        out.add(os.path.normpath(str(r)))
        try:
            out.add(str(Path(r).resolve()))
        except OSError:
            pass
    return out


def compose(spec: dict, base=None, extra: dict | None = None, defaults: dict | None = None) -> dict:
    """The environment a tool runs with: `base` (default os.environ) with spec applied, then
    `defaults` where `base` lacks them, then `extra` (the step's own variables) on top."""
    env = dict(os.environ if base is None else base)
    env.update(spec["set"])
    for var, entries in spec["prepend"].items():
        inherited = [p for p in env.get(var, "").split(os.pathsep)
                     if p and not _inside(p, spec["drop"])]
        env[var] = os.pathsep.join([*entries, *(p for p in inherited if p not in entries)])
    for var, value in (defaults or {}).items():
        env.setdefault(var, value)
    env.update(extra or {})
    return env


def dropped(spec: dict, base=None) -> dict[str, list[str]]:
    """The caller's path entries compose() drops (they belong to another toolkit)."""
    env = os.environ if base is None else base
    return {var: [p for p in env.get(var, "").split(os.pathsep) if p and _inside(p, spec["drop"])]
            for var in spec["prepend"]}


def _inside(path: str, roots) -> bool:
    p = os.path.normpath(path)
    return any(p == r or p.startswith(r.rstrip(os.sep) + os.sep) for r in roots)
