"""Toolchain backends, registered by name in one place and imported only when used.

A backend turns (package, SoC) into a Target and its Actions (opkg.build.plan). `sim` is built in
and always available; CANN backends (`cann-<version>`) drive msopgen and bisheng.
"""

from __future__ import annotations

import importlib

from opkg.core.errors import UsageError, did_you_mean

# toolchain family -> "module:class"; the one registration point.
BACKENDS = {
    "sim": "opkg.toolchains.sim:SimToolchain",
    "cann": "opkg.toolchains.cann:CannToolchain",
}

_instances: dict = {}


def family_of(toolchain_id: str) -> str:
    return toolchain_id.split("-", 1)[0]


def get_toolchain(toolchain_id: str, ws=None):
    family = family_of(toolchain_id)
    if family not in BACKENDS:
        raise UsageError(f"unknown toolchain {toolchain_id!r}",
                         hint=did_you_mean(toolchain_id, BACKENDS)
                         or f"known toolchains: {', '.join(BACKENDS)} (cann-<version> where "
                            "CANN is installed)")
    key = (toolchain_id, ws.root if ws is not None else None)
    if key not in _instances:
        module, cls = BACKENDS[family].split(":")
        _instances[key] = getattr(importlib.import_module(module), cls)(toolchain_id, ws)
    return _instances[key]
