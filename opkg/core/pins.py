"""Workspace-wide toolchain pins: toolchains/pins.yaml.

A platform team pins CANN and the driver for every package of a workspace in one place:

    cann: ">=8.0.RC3,<8.2"
    driver: ">=24.1.rc2"

These apply in addition to each package's own `toolchain:` pins (both must hold). The file is
optional; the alignment adapter combines the pins before resolution.
"""

from __future__ import annotations

from pathlib import Path

from opkg.core.errors import Location, ManifestError, VersionError
from opkg.core.versions import cann_spec, driver_spec

PINS_FILE = Path("toolchains") / "pins.yaml"


def load_pins(workspace_root: Path | None) -> dict:
    """{"cann": str | None, "driver": str | None}; both None without the file."""
    pins = {"cann": None, "driver": None}
    if workspace_root is None:
        return pins
    path = Path(workspace_root) / PINS_FILE
    if not path.is_file():
        return pins
    from opkg.core import yamlloc

    where = Location(path)
    data = yamlloc.load_data(path) or {}  # size, depth and alias limits, file:line errors
    if not isinstance(data, dict):
        raise ManifestError("the pins file must be a mapping", location=where,
                            hint='cann: ">=8.0.RC3,<8.2"')
    for key, value in data.items():
        if key not in pins:
            raise ManifestError(f"unknown key {key!r}", location=where, field=str(key),
                                hint="keys: cann, driver")
        try:
            (cann_spec if key == "cann" else driver_spec)(value, location=where, field=key)
        except VersionError as exc:
            raise ManifestError(exc.message, location=where, field=key, hint=exc.hint) from None
        pins[key] = value.strip()
    return pins


def combine(own: str | None, workspace: str | None) -> str | None:
    """Both specifiers must hold: their clauses joined."""
    return ",".join(p for p in (own, workspace) if p) or None
