"""`opkg registry check`: recompute every digest and cross-check index, records, yanks and blobs.

Errors are things a user could be hurt by: a blob or record that no longer matches its digest,
a bundle blob that is not a whole, readable archive, a missing blob, an index entry whose record is gone, a malformed file. Warnings are the
harmless leftovers of interrupted writers (records the index lags behind, unreferenced blobs,
staging files). `repair` rewrites only the index (adopting committed records, dropping entries
whose record is gone) and clears old staging files; it never rewrites a record or a blob, and
it keeps the digests the index already holds, so a tampered record stays reported.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from opkg.core.bundle import verify_archive
from opkg.core.errors import RegistryError, UsageError
from opkg.registry.records import (DIGEST_RE, NAME_RE, entry_problem, parse_record, sha256_bytes,
                                   version_key)

if TYPE_CHECKING:
    from opkg.registry.store import Store

STALE_TMP_SECONDS = 3600


@dataclass
class Problem:
    severity: str      # error | warning
    where: str
    message: str

    def to_json(self) -> dict:
        return {"severity": self.severity, "where": self.where, "message": self.message}


@dataclass
class Report:
    root: str
    packages: int = 0
    versions: int = 0
    blobs: int = 0
    problems: list[Problem] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict:
        return {"registry": self.root, "ok": self.ok, "packages": self.packages,
                "versions": self.versions, "blobs_checked": self.blobs,
                "problems": [p.to_json() for p in self.problems], "repaired": self.repaired}


def check(store: Store, *, repair: bool = False) -> Report:
    store.ensure_readable()
    report = Report(str(store.root))
    if repair:
        store.ensure_writable()
        report.repaired = _repair(store)
    err = lambda where, msg: report.problems.append(Problem("error", str(where), msg))  # noqa: E731
    warn = lambda where, msg: report.problems.append(Problem("warning", str(where), msg))  # noqa: E731

    try:
        index = store.load_index()
    except RegistryError as exc:
        err(store.index_path, exc.message.split(": ", 1)[-1] + " (`--repair` rebuilds it)")
        index = None

    records: dict[tuple[str, str], dict] = {}
    for name, key, path in store.record_files():
        try:
            data = path.read_bytes()
            record = parse_record(data, path, name, key)
        except (OSError, RegistryError) as exc:
            err(path, getattr(exc, "message", str(exc)).split(": ", 1)[-1])
            continue
        records[(name, key)] = record
        if index is None:
            continue
        entry = index["packages"].get(name, {}).get("versions", {}).get(key)
        if entry is None:
            warn(path, "not in the index yet (a publish stopped after its commit point); "
                       "`--repair` or the next publish adds it")
        elif entry["record"] != sha256_bytes(data):
            err(path, f"modified after publishing: the index says {entry['record']}, the file "
                      f"hashes to {sha256_bytes(data)}")
    if index is not None:
        for name, pkg in index["packages"].items():
            for key in pkg["versions"]:
                if not store.record_path(name, key).is_file() and (name, key) not in records:
                    err(f"{name} {key}", "listed in the index but its record is missing")

    referenced: dict[str, list[str]] = {}
    for (name, key), record in records.items():
        for b in record["bundles"]:
            label = f"{name} {record['version']} {b['soc']}/{b['toolchain'].get('id')}"
            referenced.setdefault(b["blob"], []).append((label + " bundle", b["size"]))
            for v in b.get("variants", []):
                if v.get("report"):
                    referenced.setdefault(v["report"], []).append(
                        (f"{label} {v.get('name')} report", None))
    for digest, users in sorted(referenced.items()):
        report.blobs += 1
        size = next((s for _, s in users if s is not None), None)
        problem = store.verify_blob(digest, size)
        if problem is None and size is not None:
            # a bundle: its digest only says it was stored intact, not that what was stored
            # was a whole archive (an older opkg published without reading it through)
            try:
                verify_archive(store.blob_path(digest))
            except RegistryError as exc:
                # the line names the blob already: the reason without the file name
                reason = getattr(exc, "reason", None) \
                    or exc.message.removeprefix(f"{store.blob_path(digest)}: ")
                problem = "not a readable bundle archive: " + reason
        if problem:
            err(store.blob_path(digest), f"{problem}; used by " + ", ".join(u for u, _ in users))

    if store.blobs.is_dir():
        orphans = [p for p in store.blobs.iterdir()
                   if not DIGEST_RE.match("sha256:" + p.name) or f"sha256:{p.name}" not in referenced]
        if orphans:
            warn(store.blobs, f"{len(orphans)} blob(s) no record refers to (left by interrupted "
                              "or refused publishes; harmless)")

    for name, key, f in _yank_files(store):
        if not _valid_key(name, key):
            warn(f, "yank mark whose name is not a package and version (`--repair` removes it)")
            continue
        try:
            store.read_yank(name, key)
        except RegistryError as exc:
            err(f, exc.message)
            continue
        if (name, key) not in records:
            warn(f, "yank mark for a version that has no record (`--repair` removes it, so a "
                    "republish does not inherit it)")
        elif index is not None:
            entry = index["packages"].get(name, {}).get("versions", {}).get(key)
            if entry and not entry.get("yanked"):
                warn(f, "yanked, but the index does not say so yet (`--repair` updates it)")

    if store.tmp.is_dir():
        leftovers = list(store.tmp.iterdir())
        if leftovers:
            warn(store.tmp, f"{len(leftovers)} staging file(s) left by interrupted writers")

    report.packages = len({n for n, _ in records})
    report.versions = len(records)
    return report


def _repair(store: Store) -> list[str]:
    done: list[str] = []
    try:
        store.load_index()
        rebuild = False
    except RegistryError:
        rebuild = True
    # From a malformed index, keep the record digests of the entries that are still well
    # formed: they are what a tampered record is caught by.
    salvaged = _salvage(store) if rebuild else {}

    def drop_dangling(index: dict) -> None:
        for name in list(index["packages"]):
            versions = index["packages"][name]["versions"]
            for key in list(versions):
                if not store.record_path(name, key).is_file():
                    del versions[key]
                    done.append(f"dropped index entry {name} {key}: its record is missing")
            if not versions:
                del index["packages"][name]

    def rebuild_from_records(index: dict) -> None:
        for (name, key), entry in salvaged.items():
            found = index["packages"].get(name, {}).get("versions", {}).get(key)
            if found is not None:
                found["record"] = entry["record"]

    before = set() if rebuild else {
        (n, k) for n, p in store.load_index()["packages"].items() for k in p["versions"]}
    index = store.update_index(rebuild_from_records if rebuild else drop_dangling,
                               rebuild=rebuild)
    if rebuild:
        kept = sum(1 for n, k in salvaged if k in index["packages"].get(n, {}).get("versions", {}))
        done.append("rebuilt the index from the version records (the malformed index's "
                    f"digests kept for {kept} well-formed entr{'y' if kept == 1 else 'ies'}; "
                    "other records are trusted as they are)")
    with store.lock():
        done += _drop_stale_yanks(store)
    for n, p in index["packages"].items():
        for k in p["versions"]:
            if (n, k) not in before and not rebuild:
                done.append(f"added {n} {k} to the index")
    now = time.time()
    if store.tmp.is_dir():
        for f in store.tmp.iterdir():
            try:
                if now - f.stat().st_mtime > STALE_TMP_SECONDS:
                    f.unlink()
                    done.append(f"removed stale staging file {f.name}")
            except OSError:
                pass
    return done


def _salvage(store: Store) -> dict[tuple[str, str], dict]:
    """(name, key) -> entry, for each well-formed entry of a malformed index."""
    try:
        data = json.loads(store.index_path.read_bytes())
        pkgs = data["packages"]
        return {(name, key): e for name, pkg in pkgs.items() if NAME_RE.match(str(name))
                for key, e in pkg["versions"].items() if entry_problem(key, e) is None}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def _drop_stale_yanks(store: Store) -> list[str]:
    """Remove yank marks of versions that have no record, so a version republished under the
    same number starts unyanked (a mark is only written for a version that has a record)."""
    done = []
    for pkg, key, path in _yank_files(store):
        if _valid_key(pkg, key) and store.record_path(pkg, key).is_file():
            continue
        try:
            path.unlink()
            done.append(f"removed yank mark {pkg}/{key}: the version has no record")
        except OSError:
            pass
    return done


def _yank_files(store: Store):
    if not store.yanks.is_dir():
        return
    for pkg in sorted(store.yanks.iterdir()):
        for f in sorted(pkg.glob("*.json")) if pkg.is_dir() else []:
            yield pkg.name, f.name[:-len(".json")], f


def _valid_key(name: str, key: str) -> bool:
    """A yanks/ or records/ file name that names a package and a version in normal form."""
    try:
        return bool(NAME_RE.match(name)) and version_key(key) == key
    except UsageError:
        return False
