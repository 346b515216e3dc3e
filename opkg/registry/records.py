"""The registry's data, shared by both backends (store.py, oci.py) and the checker: package
names, version keys, version records and index entries, with their formats and checks, and
the writers' test hook."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from packaging.version import InvalidVersion, Version

from opkg.core.errors import RegistryError, UsageError

INDEX_FORMAT = 1
RECORD_FORMAT = 1
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DIGEST_RE = re.compile(r"^sha256:[0-9a-f]{64}$")

# Test hook: a writer that reaches the named step prints "paused at <step>" on stderr and
# waits, so a test can kill -9 it at exactly that point, or line several writers up at the
# same point and release them together by creating the file named in RESUME_ENV.
# Steps: blob-staged, blobs-written, record-staged, record-committed, index-staged.
PAUSE_ENV = "OPKG_REGISTRY_PAUSE_AT"
RESUME_ENV = "OPKG_REGISTRY_RESUME_FILE"


def checkpoint(step: str) -> None:
    if os.environ.get(PAUSE_ENV) == step:
        sys.stderr.write(f"opkg-registry: paused at {step}\n")
        sys.stderr.flush()
        resume = os.environ.get(RESUME_ENV)
        while not (resume and os.path.exists(resume)):
            time.sleep(0.01)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise UsageError(f"invalid package name {name!r}",
                         hint="names are lower case letters, digits and '_', starting with a letter")
    return name


def parse_version(text: str) -> Version:
    try:
        return Version(str(text))
    except InvalidVersion:
        raise UsageError(f"invalid version {text!r}",
                         hint="versions follow PEP 440, e.g. 1.0.0, 1.2.0rc1, 2.0.post1") from None


def version_key(text: str) -> str:
    """The spelling used in file names: PEP 440 normal form ('1.0.0-RC1' -> '1.0.0rc1')."""
    return str(parse_version(text))


def canonical_json(data) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


@dataclass
class VersionEntry:
    """What a reader knows about one version without opening its record."""

    name: str
    version: str                 # as published
    record_digest: str | None    # None: committed after the index was last written
    summary: str
    socs: list
    toolchains: list
    published: str | None
    yanked: bool = False
    reason: str | None = None
    indexed: bool = True
    record_present: bool = True

    @property
    def parsed(self) -> Version:
        return Version(self.version)


def index_problem(data) -> str | None:
    """What is wrong with an index, checked as strictly as `index_entry` writes it: every
    reader (search, info, install, yank) trusts what passes here."""
    if not isinstance(data, dict):
        return "expected a JSON object"
    if data.get("format") != INDEX_FORMAT:
        return f"unsupported format {data.get('format')!r} (this opkg reads format {INDEX_FORMAT})"
    pkgs = data.get("packages")
    if not isinstance(pkgs, dict):
        return "'packages' must be an object"
    for name, pkg in pkgs.items():
        if not NAME_RE.match(str(name)) or not isinstance(pkg, dict) \
                or not isinstance(pkg.get("versions"), dict):
            return f"package {name!r}: expected {{'versions': {{...}}}}"
        for key, e in pkg["versions"].items():
            problem = entry_problem(key, e)
            if problem:
                return f"{name} {key!r}: {problem}"
    return None


def _str_list(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def entry_problem(key, e) -> str | None:
    """What is wrong with one index entry stored under version `key`, or None."""
    if not isinstance(e, dict):
        return "expected an object"
    if not isinstance(e.get("version"), str):
        return "'version' must be a string"
    try:
        if version_key(e["version"]) != key:
            return f"is stored under a key that is not its version {e['version']!r}"
    except UsageError:
        return f"invalid version {e['version']!r}"
    if not DIGEST_RE.match(str(e.get("record"))):
        return "'record' must be a sha256 digest"
    for field, ok in (("summary", lambda v: isinstance(v, str)),
                      ("socs", _str_list), ("toolchains", _str_list),
                      ("published", lambda v: v is None or isinstance(v, str)),
                      ("yanked", lambda v: isinstance(v, bool)),
                      ("yank_reason", lambda v: v is None or isinstance(v, str))):
        if field in e and not ok(e[field]):
            return f"{field!r} has the wrong type ({type(e[field]).__name__})"
    return None


def refuse_malformed(record: dict, name: str, version: str) -> None:
    """What every reader would refuse is never written: a record is immutable, so a
    malformed one would break its version for good."""
    problem = record_problem(record, name, version_key(version))
    if problem:
        raise RegistryError(f"refusing to publish {name} {version}: its record would be "
                            f"malformed: {problem}", hint="rebuild the bundle with this "
                            "opkg (`opkg build`) and publish again")


def parse_record(data: bytes, path, name: str, key: str) -> dict:
    try:
        record = json.loads(data)
    except ValueError as exc:
        raise RegistryError(f"{path}: malformed version record: {exc}",
                            hint="run `opkg registry check` to list damaged records") from None
    problem = record_problem(record, name, key)
    if problem:
        raise RegistryError(f"{path}: malformed version record: {problem}",
                            hint="run `opkg registry check` to list damaged records")
    return record


def record_problem(r, name: str, key: str) -> str | None:
    """What is wrong with a version record, checked as strictly as publish writes it: what
    passes here is safe for every reader (install, info, search, check) to use unguarded."""
    if not isinstance(r, dict):
        return "expected a JSON object"
    if r.get("format") != RECORD_FORMAT:
        return f"unsupported format {r.get('format')!r}"
    if r.get("name") != name:
        return f"names package {r.get('name')!r} but is stored under {name!r}"
    try:
        if version_key(r.get("version", "")) != key:
            return f"names version {r.get('version')!r} but is stored as {key!r}"
    except UsageError:
        return f"invalid version {r.get('version')!r}"
    if not isinstance(r.get("version"), str):
        return "'version' must be a string"
    if not isinstance(r.get("summary", ""), str):
        return "'summary' must be a string"
    if not isinstance(r.get("published") or {}, dict) \
            or not all(isinstance(v, (str, type(None))) for v in (r.get("published") or {}).values()):
        return "'published' must be an object of strings"
    problem = _op_problem(r.get("op"))
    if problem:
        return problem
    bundles = r.get("bundles")
    if not isinstance(bundles, list) or not bundles:
        return "'bundles' must be a non-empty list"
    for b in bundles:
        if not isinstance(b, dict) or not isinstance(b.get("soc"), str) \
                or not isinstance(b.get("toolchain"), dict) \
                or not isinstance(b["toolchain"].get("id", ""), str) \
                or not DIGEST_RE.match(str(b.get("blob"))) or not isinstance(b.get("size"), int) \
                or isinstance(b.get("size"), bool) or b["size"] < 0:
            return "each bundle needs 'soc', 'toolchain', a sha256 'blob' and 'size'"
        for field in ("verification", "provenance"):
            if not isinstance(b.get(field) or {}, dict):
                return f"a bundle's {field!r} must be an object"
        variants = b.get("variants", [])
        if not isinstance(variants, list):
            return "a bundle's 'variants' must be a list"
        for v in variants:
            if not isinstance(v, dict) or not isinstance(v.get("name"), str) \
                    or not isinstance(v.get("verification") or {}, dict):
                return "each variant needs a 'name' and a 'verification' object"
            if v.get("report") is not None and not DIGEST_RE.match(str(v["report"])):
                return f"variant {v.get('name')!r}: 'report' must be a sha256 digest"
    return None


def _op_problem(op) -> str | None:
    """The prototype `opkg info` prints: type, tensors with dtypes, attrs."""
    if op is None:
        return None
    if not isinstance(op, dict) or not isinstance(op.get("type"), str):
        return "'op' must be an object with a 'type'"
    for part in ("inputs", "outputs"):
        tensors = op.get(part, [])
        if not isinstance(tensors, list) or not all(
                isinstance(t, dict) and isinstance(t.get("name"), str) and _str_list(t.get("dtypes"))
                for t in tensors):
            return f"'op.{part}' must list tensors with a 'name' and 'dtypes'"
    attrs = op.get("attrs", [])
    if not isinstance(attrs, list) or not all(
            isinstance(a, dict) and isinstance(a.get("name"), str) and isinstance(a.get("type"), str)
            for a in attrs):
        return "'op.attrs' must list attrs with a 'name' and 'type'"
    return None


def index_entry(record: dict, record_digest: str | None) -> dict:
    bundles = record["bundles"]
    return {
        "version": record["version"],
        "record": record_digest,
        "summary": record.get("summary", ""),
        "socs": sorted({b["soc"] for b in bundles}),
        "toolchains": sorted({b["toolchain"].get("id", "?") for b in bundles}),
        "published": (record.get("published") or {}).get("time"),
        "yanked": False,
        "yank_reason": None,
    }


def index_add(index: dict, record: dict, record_digest: str) -> None:
    pkg = index["packages"].setdefault(record["name"], {"versions": {}})
    pkg["versions"][version_key(record["version"])] = index_entry(record, record_digest)
    pkg["versions"] = dict(sorted(pkg["versions"].items(), key=lambda kv: Version(kv[0])))
    index["packages"] = dict(sorted(index["packages"].items()))
