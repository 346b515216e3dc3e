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


def _clause_versions(spec) -> list[str]:
    """The versions a specifier's clauses name, as written (`>=24.1.rc2,<25` -> 24.1.rc2, 25)."""
    import re

    out = []
    for clause in str(spec).split(","):
        ver = re.sub(r"^\s*(~=|===|==|!=|<=|>=|<|>)?\s*", "", clause).strip()
        if ver and not ver.endswith("*"):
            out.append(ver)
    return out


def impossible_driver_pin(cann: str | None, driver: str, releases, shorts) -> str | None:
    """Why a package's driver pin can never hold together with its CANN pin, or None: on some
    SoC, every known CANN release inside the CANN pin needs a driver the driver pin excludes
    (e.g. `driver: "<24.0"` with `cann: ">=8.0.RC1"`, whose releases all need 24.1.rc1 or
    later). A release whose minimum the table does not give needs at least the nearest older
    release's (minimums only rise); with no older one known, nothing is called impossible."""
    from opkg.core.versions import DriverVersion

    pin = driver_spec(driver)
    known = releases.versions()
    in_pin = [v for v in known if cann is None or cann_spec(cann).contains(v)]
    if not in_pin:
        return None
    for short in dict.fromkeys(shorts):
        needs, last = {}, None
        for v in known:
            last = releases.info(v).driver_spec(short) or last
            if v in in_pin:
                needs[v] = last
        if any(n is None for n in needs.values()):
            continue

        def possible(need) -> bool:
            # a driver both allow, if any, is one of the versions their clauses name
            for ver in _clause_versions(need) + _clause_versions(pin):
                try:
                    DriverVersion.parse(ver)
                except VersionError:
                    continue
                if need.contains(ver) and pin.contains(ver):
                    return True
            return False

        if not any(possible(n) for n in needs.values()):
            within = f"inside cann {cann}" if cann else "known"
            oldest, need = next(iter(needs.items()))
            return (f"driver {driver} admits no driver that the CANN releases {within} run with "
                    f"on {short}: the oldest, {oldest}, needs driver{need} "
                    f"({releases.path.name})")
    return None
