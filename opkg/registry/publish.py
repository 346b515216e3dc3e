"""Publishing: turn built bundles into immutable registry versions.

`publish_bundles` is the whole registry side of `opkg publish`: it reads each bundle whole
(archive integrity; the digest the build recorded for it, when known), refuses anything whose
verification did not fully pass (by its metadata and by the reports inside it), groups bundles by
(package, version), and for each group stores the bundle and its verification reports as blobs,
then commits one record (store.py). The CLI (cli/publish.py) builds first and calls this.

A version is immutable. Publishing bundles that are already in its record (same SoC, toolchain
and digest) is a no-op; anything else for an existing version is an error asking for a new
version.
"""

from __future__ import annotations

import getpass
import json
import socket
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from opkg import __version__
from opkg.core.bundle import FORMAT_VERSION, bundle_filename, read_metadata, scan_bundle
from opkg.core.errors import RegistryError, VerificationError
from opkg.registry.records import (NAME_RE, RECORD_FORMAT, checkpoint, parse_version,
                                   record_problem, sha256_bytes, sha256_file, version_key)
from opkg.registry.store import Store


@dataclass
class Bundle:
    """One bundle file, read and checked, ready to be stored."""

    path: Path
    meta: dict
    digest: str
    size: int
    reports: dict[str, bytes]       # variant name -> full verification report
    content: str = ""               # bundle.content_digest: identity minus circumstance
    report_files: dict[str, bytes] = field(default_factory=dict)   # every verification/*.json

    @property
    def key(self) -> tuple[str, str]:
        return (self.meta["soc"], self.meta["toolchain"]["id"])


@dataclass
class Outcome:
    name: str
    version: str
    status: str                      # published | unchanged | would-publish
    bundles: list[dict]
    record: str                      # path of the record
    writes: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)   # damaged blobs written again

    def to_json(self) -> dict:
        return {"name": self.name, "version": self.version, "status": self.status,
                "bundles": self.bundles, "record": self.record, "writes": self.writes,
                "restored": self.restored}


def publisher_identity() -> str:
    try:
        user = getpass.getuser()
    except Exception:  # no passwd entry (containers); still say something true
        user = "unknown"
    return f"{user}@{socket.gethostname()}"


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def load_bundle(path: Path, built_digest: str | None = None) -> Bundle:
    """Read and check one bundle file. `built_digest`: the SHA-256 (hex) the build recorded
    when it wrote this file (opkg.build.outputs), if it was built here."""
    path = Path(path)
    if not path.is_file():
        raise RegistryError(f"{path}: no such bundle file",
                            hint="build it first with `opkg build`, or check the path")
    # One pass over the whole archive: the gzip stream's CRC refuses a flipped bit or a cut,
    # every entry is checked as install checks it, and the JSON files (the metadata and the
    # verification reports it names) are kept.
    files, content = scan_bundle(path, keep=lambda name: name.endswith(".json"))
    digest = sha256_file(path)
    if built_digest and digest != "sha256:" + built_digest:
        raise RegistryError(f"{path} is not the bundle the build wrote (the build recorded "
                            f"sha256:{built_digest[:16]}…, the file hashes to {digest[:23]}…)",
                            hint="delete it and run `opkg build`: the build makes it "
                                 "again (from the build cache when it can)")
    meta = read_metadata(path)      # its first entry, with read_metadata's checks
    problem = metadata_problem(meta)
    if problem:
        raise RegistryError(f"{path}: not a publishable bundle: {problem}",
                            hint="rebuild it with this opkg (`opkg build`)")
    wanted = {v["report"]: v["name"] for v in meta["variants"] if v.get("report")}
    found = {variant: files[name] for name, variant in wanted.items() if name in files}
    report_files = {name: data for name, data in files.items() if _is_report(name)}
    missing = [p for p, n in wanted.items() if n not in found]
    if missing:
        raise RegistryError(f"{path}: verification report(s) named in the metadata are not in "
                            f"the bundle: {', '.join(missing)}", hint="rebuild it with `opkg build`")
    return Bundle(path, meta, digest, path.stat().st_size, found, content, report_files)


def _is_report(name: str) -> bool:
    return name.startswith("verification/") and name.endswith(".json")


def metadata_problem(m) -> str | None:
    if not isinstance(m, dict):
        return "metadata is not an object"
    if m.get("format") != FORMAT_VERSION:
        return f"bundle format {m.get('format')!r}, this opkg publishes format {FORMAT_VERSION}"
    if not isinstance(m.get("name"), str) or not NAME_RE.match(m["name"]):
        return f"invalid package name {m.get('name')!r}"
    try:
        parse_version(m.get("version", ""))
    except Exception:
        return f"invalid version {m.get('version')!r}"
    if not isinstance(m.get("soc"), str) or not m["soc"]:
        return "missing 'soc'"
    tc = m.get("toolchain")
    if not isinstance(tc, dict) or not isinstance(tc.get("id"), str):
        return "missing 'toolchain.id'"
    if not isinstance(m.get("variants"), list):
        return "missing 'variants'"
    for v in m["variants"]:
        ver = v.get("verification") if isinstance(v, dict) else None
        if not isinstance(v, dict) or not isinstance(v.get("name"), str) or not isinstance(ver, dict) \
                or not isinstance(ver.get("cases"), int) or not isinstance(ver.get("passed"), int):
            return "each variant needs 'name' and 'verification' with 'cases' and 'passed' counts"
    if not isinstance(m.get("verification"), dict) or "passed" not in m["verification"]:
        return "missing 'verification' summary"
    return None   # 'op' and 'summary' are checked with the whole record (store.record_problem)


def verification_failures(b: Bundle) -> list[str]:
    """Why this bundle may not be published; empty when every case of every variant passed."""
    label = f"{b.meta['name']} {b.meta['version']} {b.meta['soc']}/{b.meta['toolchain']['id']}"
    out = []
    if b.meta.get("op") is not None and not b.meta["variants"]:
        out.append(f"{label}: no verified variants")
    for v in b.meta["variants"]:
        ver = v["verification"]
        if ver["cases"] == 0:
            out.append(f"{label} variant {v['name']}: no verification cases ran")
        elif ver["passed"] != ver["cases"]:
            cases = _failed_cases(b.reports.get(v["name"]))
            detail = "; ".join(cases) if cases else "see its verification report"
            out.append(f"{label} variant {v['name']}: {ver['cases'] - ver['passed']} of "
                       f"{ver['cases']} case(s) failed: {detail}")
    summary = b.meta["verification"]
    if not out and (summary.get("passed") is not True or summary.get("failed", 0)):
        out.append(f"{label}: verification summary says it did not pass")
    if not out:
        # the reports are the evidence; metadata is only their summary, and could lie
        for name, data in sorted(b.report_files.items()):
            problem = report_failure(data)
            if problem:
                out.append(f"{label}: {name} {problem}")
    return out


def report_failure(report: bytes) -> str | None:
    """What a full verification report says went wrong, or None when every case passed."""
    try:
        data = json.loads(report)
    except ValueError:
        return "is not a readable verification report"
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return "is not a verification report"
    results = data["results"]
    cases = _failed_cases(report)
    if cases:
        return "records failing case(s): " + "; ".join(cases)
    if data.get("error"):
        return f"records an error: {str(data['error']).splitlines()[0]}"
    if not results:
        return "records no verification case"
    if data.get("passed") is not True or data.get("failed"):
        return "says it did not pass"
    return None


def _failed_cases(report: bytes | None) -> list[str]:
    """Names and worst errors of the failing cases in a full verification report
    (opkg/verify/runner.py: {"results": [{"case", "passed", "error", "outputs"}], ...})."""
    try:
        data = json.loads(report or b"")
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    if data.get("error") and not data.get("results"):
        return [f"no case ran: {str(data['error']).splitlines()[0]}"]
    out = []
    for i, c in enumerate(data.get("results") or []):
        if not isinstance(c, dict) or c.get("passed", True):
            continue
        name = c.get("case") or c.get("name") or f"#{i}"
        if c.get("error"):
            out.append(f"{name} ({str(c['error']).splitlines()[0]})")
            continue
        errs = []
        for tensor, o in sorted((c.get("outputs") or {}).items()):
            if isinstance(o, dict) and not o.get("passed", True):
                nums = ", ".join(f"{k}={o[k]:.3g}" for k in ("max_abs_error", "mismatch_ratio")
                                 if isinstance(o.get(k), (int, float)))
                errs.append(f"{tensor}: {nums}" if nums else tensor)
        out.append(f"{name} ({'; '.join(errs)})" if errs else str(name))
    return out


def bundle_entry(b: Bundle, report_digests: dict[str, str]) -> dict:
    m = b.meta
    return {
        "soc": m["soc"],
        "toolchain": m["toolchain"],
        "blob": b.digest,
        "content": b.content,
        "size": b.size,
        "filename": bundle_filename(m["name"], m["version"], m["soc"], m["toolchain"]["id"]),
        "variants": [dict({k: v[k] for k in v if k != "report"},
                          report=report_digests.get(v["name"])) for v in m["variants"]],
        "verification": m["verification"],
        "provenance": m.get("provenance") or {},
    }


def publish_bundles(store: Store, paths, *, dry_run: bool = False, publisher: str | None = None,
                    now: str | None = None, built_digests=None) -> list[Outcome]:
    """`built_digests(path) -> hex digest | None`: what the build recorded for a bundle."""
    bundles = [load_bundle(Path(p), built_digests(Path(p)) if built_digests else None)
               for p in paths]
    if not bundles:
        raise RegistryError("nothing to publish: no bundles", hint="build packages first")
    failures = [f for b in bundles for f in verification_failures(b)]
    if failures:
        raise VerificationError(
            "refusing to publish: verification did not pass\n  " + "\n  ".join(failures),
            hint="fix the kernel or the tolerance, rebuild with `opkg build`, then publish")

    groups: dict[tuple[str, str], list[Bundle]] = {}
    for b in bundles:
        groups.setdefault((b.meta["name"], version_key(b.meta["version"])), []).append(b)
    for (name, key), group in groups.items():
        _check_group(name, key, group)

    if not dry_run:
        store.ensure_writable()
    store.preflight()   # a damaged registry stops us before anything is written
    # Refuse up front when any version is taken with other contents, so a multi-package
    # publish does not stop halfway on a predictable error.
    for (name, key), group in groups.items():
        existing = store.existing_key(name, key)
        if existing is not None:
            _compare(store.read_record(name, existing), group)

    publisher = publisher or publisher_identity()
    now = now or utc_now()
    # Every record is built and checked before any blob is stored and before a dry run
    # answers: what readers would refuse is refused here, leaving nothing behind.
    records = {}
    for (name, key), group in sorted(groups.items()):
        record = version_record(name, group, publisher, now)
        problem = record_problem(record, name, key)
        if problem:
            raise RegistryError(f"refusing to publish {name} {key}: its record "
                                f"would be malformed: {problem}", hint="rebuild the bundle "
                                "with this opkg (`opkg build`) and publish again")
        records[name, key] = record
    return [_publish_group(store, name, key, group, dry_run, records[name, key])
            for (name, key), group in sorted(groups.items())]


def version_record(name: str, group: list[Bundle], publisher: str, now: str) -> dict:
    """The record publishing `group` commits; blob digests are computed from the bytes
    read, so it exists before anything is stored."""
    meta = group[0].meta
    entries = [bundle_entry(b, {v: sha256_bytes(data) for v, data in b.reports.items()})
               for b in sorted(group, key=lambda b: b.key)]
    return {
        "format": RECORD_FORMAT,
        "name": name,
        "version": meta["version"],
        "summary": meta.get("summary", ""),
        "op": meta.get("op"),
        "socs": sorted({b.meta["soc"] for b in group}),
        "bundles": entries,
        "published": {"time": now, "by": publisher, "opkg_version": __version__},
    }


def _check_group(name: str, key: str, group: list[Bundle]) -> None:
    first = group[0].meta
    seen: dict[tuple[str, str], Bundle] = {}
    for b in group:
        for fld in ("summary", "op"):
            if b.meta.get(fld) != first.get(fld):
                raise RegistryError(f"{name} {key}: bundles {group[0].path} and {b.path} "
                                    f"disagree on '{fld}'",
                                    hint="rebuild all of them from the same sources")
        other = seen.get(b.key)
        if other and other.digest != b.digest:
            raise RegistryError(f"{name} {key}: two different bundles for {b.key[0]}/{b.key[1]}: "
                                f"{other.path} and {b.path}", hint="publish one of them")
        seen[b.key] = b
    group[:] = list(seen.values())


def _compare(record: dict, group: list[Bundle]) -> None:
    """Raise unless every bundle in `group` is already in `record`, byte for byte."""
    have = {(b["soc"], b["toolchain"]["id"]): b for b in record["bundles"]}
    diffs = []
    for b in group:
        entry = have.get(b.key)
        old = entry["blob"] if entry else None
        if old is None:
            diffs.append(f"{b.key[0]}/{b.key[1]} is not part of the published version")
        elif old != b.digest and entry.get("content") != b.content:
            # same content, other commit: a rebuild of what is published, not a change
            diffs.append(f"{b.key[0]}/{b.key[1]} differs (published {old[:19]}…, "
                         f"now {b.digest[:19]}…)")
    if diffs:
        raise RegistryError(
            f"{record['name']} {record['version']} is already published with different "
            "contents; published versions are immutable:\n  " + "\n  ".join(diffs),
            hint=f"bump 'version' in the package's opkg.yaml (e.g. to a later release than "
                 f"{record['version']}) and publish again")


def _restore_blobs(store: Store, record: dict, group: list[Bundle]) -> list[str]:
    """Republishing what is already published writes back any of its blobs that are missing
    or damaged (same digest, same bytes: a blob is named by its content)."""
    restored = []
    have = {(b["soc"], b["toolchain"]["id"]): b for b in record["bundles"]}
    for b in group:
        entry = have.get(b.key)
        if entry is None or entry["blob"] != b.digest:
            continue             # same content from another commit: the published bytes differ
        wanted = [(b.digest, None, b.path)]
        reports = {v.get("name"): v.get("report") for v in entry.get("variants", [])}
        wanted += [(reports.get(v), data, None) for v, data in b.reports.items()
                   if reports.get(v) == sha256_bytes(data)]
        for digest, data, src in wanted:
            if store.verify_blob(digest, name=record["name"]) is not None:
                if store.put_blob(data=data, src=src, name=record["name"])[0] != digest:
                    raise RegistryError(f"{b.path} changed while it was being published",
                                        hint="wait for the build writing it to finish, then "
                                             "publish again")
                problem = store.verify_blob(digest, name=record["name"])
                if problem:
                    # an OCI registry keeps the first copy of a digest it has, damaged or not
                    raise RegistryError(f"{store.blob_location(record['name'], digest)} is "
                                        f"damaged ({problem}) and the registry did not take the "
                                        "intact copy", hint="ask the registry's administrator "
                                        "to delete the damaged blob, then publish again")
                restored.append(digest)
    return restored


def _publish_group(store: Store, name: str, key: str, group: list[Bundle], dry_run: bool,
                   record: dict) -> Outcome:
    meta = group[0].meta
    summary = [{"soc": b.meta["soc"], "toolchain": b.meta["toolchain"]["id"], "blob": b.digest,
                "size": b.size,
                "verification": {v["name"]: f"{v['verification']['passed']}/"
                                            f"{v['verification']['cases']}"
                                 for v in b.meta["variants"]}}
               for b in sorted(group, key=lambda b: b.key)]
    existing = store.existing_key(name, key)
    if existing is not None:
        restored = [] if dry_run else _restore_blobs(store, store.read_record(name, existing),
                                                     group)
        if not dry_run:
            store.finish_publish(name, existing)  # an earlier publish stopped after its commit
        return Outcome(name, meta["version"], "unchanged", summary,
                       store.record_location(name, existing), restored=restored)
    if dry_run:
        return Outcome(name, meta["version"], "would-publish", summary,
                       store.record_location(name, key), store.planned_writes(name, key, group))

    for b in sorted(group, key=lambda b: b.key):
        digest, size = store.put_blob(src=b.path, name=name)
        if digest != b.digest:
            raise RegistryError(f"{b.path} changed while it was being published",
                                hint="wait for the build writing it to finish, then publish again")
        for data in b.reports.values():
            store.put_blob(data=data, name=name)
    checkpoint("blobs-written")
    created, digest = store.commit_record(name, key, record)
    if not created:
        # Another publisher committed this version between our check and our commit.
        _compare(store.read_record(name, key), group)
        store.finish_publish(name, key)
        return Outcome(name, meta["version"], "unchanged", summary,
                       store.record_location(name, key))
    store.finish_publish(name, key, record, digest)
    return Outcome(name, meta["version"], "published", summary, store.record_location(name, key))
