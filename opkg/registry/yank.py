"""Yank and unyank: mark a published version as not to be picked, without deleting anything.

A yank is a small file beside the record (store.py's yanks/), so the record stays immutable
and its digest keeps matching; the index carries a copy of the flag for readers that fetch
only the index. Installing a yanked version still works when it is pinned exactly.
"""

from __future__ import annotations

from opkg.core.errors import RegistryError, UsageError, did_you_mean
from opkg.registry.publish import publisher_identity, utc_now
from opkg.registry.store import Store
from opkg.registry.records import check_name, parse_version


def parse_pinned(text: str) -> tuple[str, str]:
    """'name==1.0.0' -> ('name', '1.0.0')."""
    name, sep, version = text.partition("==")
    if not sep or not version.strip():
        raise UsageError(f"expected NAME==VERSION, got {text!r}",
                         hint="yank names one exact version, e.g. `opkg yank add_custom==1.0.0`")
    name, version = name.strip(), version.strip()
    check_name(name)
    parse_version(version)
    return name, version


def _require(store: Store, name: str, version: str) -> str:
    catalog = store.catalog(names=[name])
    if name not in catalog:
        raise RegistryError(f"no package {name!r} in registry {store.root}",
                            hint=did_you_mean(name, catalog) or "see `opkg search`")
    wanted = parse_version(version)
    for key, entry in catalog[name].items():
        if entry.parsed == wanted:
            if not entry.record_present:
                # A mark for a version without a record would wait for whoever publishes
                # that number next; only `registry check --repair` clears such marks.
                raise RegistryError(f"{name} {entry.version} has no record in {store.root} "
                                    "(the index lists it, the record file is gone)",
                                    hint="run `opkg registry check --repair`, then publish it "
                                         "again if it should exist")
            return key
    known = ", ".join(e.version for e in catalog[name].values())
    raise RegistryError(f"{name} has no version {version}", hint=f"published: {known}")


def yank(store: Store, name: str, version: str, reason: str) -> tuple[str, bool]:
    """Returns (version key, changed)."""
    if not reason or not reason.strip():
        raise UsageError("a yank needs a reason", hint='pass --reason "why users should not pick it"')
    store.ensure_writable()
    key = _require(store, name, version)
    current = store.read_yank(name, key)
    if current and current.get("reason") == reason:
        return key, False
    store.set_yank(name, key, {"reason": reason, "time": utc_now(), "by": publisher_identity()})
    return key, True


def unyank(store: Store, name: str, version: str) -> tuple[str, bool]:
    store.ensure_writable()
    key = _require(store, name, version)
    if store.read_yank(name, key) is None:
        return key, False
    store.set_yank(name, key, None)
    return key, True
