"""The registry kept in an OCI registry (CNCF distribution, Harbor, Artifactory, SWR, GHCR, ...).

`registry: oci://HOST[:PORT]/NAMESPACE` stores package NAME in repository NAMESPACE/NAME:

    bundle artifact   an image manifest, artifactType application/vnd.opkg.bundle.v1: the
                      bundle archive as a layer, each verification report as its own layer,
                      the bundle's metadata and the package's prototype as annotations;
                      tagged VERSION-SOC-TOOLCHAIN (e.g. 1.0.0-Ascend910B1-sim)
    version           an image index, artifactType application/vnd.opkg.version.v1, listing
                      the version's bundle artifacts, with the version record (the same
                      record the directory registry writes) as its annotation; tagged
                      VERSION. Its digest plays the record digest's part.
    yank / unyank     an artifact (application/vnd.opkg.yank.v1) whose `subject` is the
                      version; the newest one says whether the version is yanked. Found
                      with the referrers API, or, where the registry lacks it (distribution
                      2.8), with the OCI 1.1 fallback: an index tagged sha256-<hex> listing
                      the referrers, which opkg keeps up to date itself.

Every manifest and blob read is hashed against the digest that names it, so a tampered or
truncated blob is refused as in the directory registry.

The commit point of a publish is the PUT of the version tag. OCI registries have no "create
if absent" for tags (some can make tags immutable, which turns a second PUT into an error that
is handled here as a lost race); so a publisher first claims the version: it points the tag
claim-VERSION at an artifact only it wrote, waits OPKG_OCI_SETTLE seconds (default 2), and
commits only if the claim is still its own and the version is still untagged (Fischer's
timed mutual exclusion). Exactly one of several concurrent publishers commits as long as a
publisher's commit PUT completes within the settle time of its last look; the others wait for
that version and compare it with what they meant to publish, as after any lost race.

Connection settings come from the environment, never from the workspace file:
OPKG_OCI_USERNAME / OPKG_OCI_PASSWORD (else ORAS_USER / ORAS_PASS, else the `auths` or
credential helpers of $DOCKER_CONFIG/config.json or ~/.docker/config.json, as `oras login`
and `docker login` write them), OPKG_OCI_CA_FILE (a CA bundle), OPKG_OCI_INSECURE=1 (TLS
without certificate checks) and OPKG_OCI_PLAIN_HTTP=1 (no TLS, for loopback registries).
Basic and bearer-token authentication are both answered (oras' auth helpers).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

from packaging.version import InvalidVersion, Version

from opkg.core.errors import RegistryError, UsageError
from opkg.core.settings import OCI_COMPONENT as _COMPONENT, parse_location
from opkg.registry.records import (NAME_RE, VersionEntry, check_name, checkpoint, index_entry,
                                   parse_record, refuse_malformed, sha256_bytes, version_key)

MANIFEST = "application/vnd.oci.image.manifest.v1+json"
INDEX = "application/vnd.oci.image.index.v1+json"
EMPTY = "application/vnd.oci.empty.v1+json"
EMPTY_DATA = b"{}"
BUNDLE_TYPE = "application/vnd.opkg.bundle.v1"
VERSION_TYPE = "application/vnd.opkg.version.v1"
YANK_TYPE = "application/vnd.opkg.yank.v1"
CLAIM_TYPE = "application/vnd.opkg.claim.v1"
BUNDLE_LAYER = "application/vnd.opkg.bundle.layer.v1.tar+gzip"
REPORT_LAYER = "application/vnd.opkg.verification.v1+json"
A = "vnd.opkg."                           # prefix of opkg's own annotations
TITLE = "org.opencontainers.image.title"
SETTLE_ENV = "OPKG_OCI_SETTLE"
DEFAULT_SETTLE = 2.0

# distribution's grammar for a tag (a repository path component: core.settings)
_TAG = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")


def version_tag(key: str) -> str:
    """The tag of a version (PEP 440 normal form); '+' (a local label) is not allowed in
    tags and '_' never occurs in normal form, so it stands in for it."""
    if "!" in key:
        raise UsageError(f"version {key}: an epoch ('!') cannot be an OCI tag",
                         hint="publish it without an epoch, or to a directory registry")
    return key.replace("+", "_")


def tag_version(tag: str) -> str | None:
    """The version key a tag names, or None for the other tags (bundles, claims, referrers)."""
    key = tag.replace("_", "+")
    try:
        return key if version_key(key) == key else None
    except UsageError:
        return None


def bundle_tag(key: str, soc: str, toolchain: str) -> str:
    tag = f"{version_tag(key)}-{soc}-{toolchain}"
    if not _TAG.match(tag):
        raise RegistryError(f"cannot tag bundle {tag!r}: not a valid OCI tag",
                            hint="SoC and toolchain ids must be letters, digits, '.', '_', '-'")
    return tag


def _descriptor(media_type: str, digest: str, size: int, **extra) -> dict:
    return {"mediaType": media_type, "digest": digest, "size": size,
            **{k: v for k, v in extra.items() if v}}


def _json_bytes(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


class Http:
    """The registry's HTTP API (OCI distribution spec) with oras' credential and token helpers.
    No retries with sleeps: a registry that is down fails the command at once."""

    def __init__(self, url: str, host: str):
        import requests

        self.url, self.host = url, host
        self.base = ("http" if _truthy("OPKG_OCI_PLAIN_HTTP") else "https") + f"://{host}"
        self.verify = False if _truthy("OPKG_OCI_INSECURE") else \
            (os.environ.get("OPKG_OCI_CA_FILE") or True)
        self.session = requests.Session()
        self.authorization: str | None = None

    def _basic(self) -> str | None:
        """base64 user:password from the environment or the docker/oras config file."""
        import oras.auth.utils as auth_utils
        from oras.auth.basic import BasicAuth

        for user, password in (("OPKG_OCI_USERNAME", "OPKG_OCI_PASSWORD"),
                               ("ORAS_USER", "ORAS_PASS")):
            if os.environ.get(user) and os.environ.get(password):
                return auth_utils.get_basic_auth(os.environ[user], os.environ[password])
        auth = BasicAuth()
        configs = [os.path.join(os.environ["DOCKER_CONFIG"], "config.json")] \
            if os.environ.get("DOCKER_CONFIG") else None
        auth._auth_config = auth_utils.load_configs(configs)
        for name in (self.host, f"{self.base}/", self.base):
            if auth._load_auth(name):
                return auth._basic_auth
        return None

    def _authorize(self, challenge: str) -> str | None:
        import oras.auth.utils as auth_utils
        from oras.auth.token import TokenAuth

        basic = self._basic()
        if challenge.lower().startswith("basic"):
            return f"Basic {basic}" if basic else None
        if challenge.lower().startswith("bearer"):
            token = TokenAuth()
            token.session, token._tls_verify = self.session, self.verify
            token.prefix = self.base.split(":")[0]
            if basic:
                token._basic_auth = basic
            got = token.request_token(auth_utils.parse_auth_header(challenge))
            return f"Bearer {got}" if got else None
        return None

    def request(self, method: str, path: str, *, data=None, headers=None, stream=False,
                accept=(200, 201, 202, 204, 404)):
        import requests

        url = path if path.startswith("http") else self.base + path
        # reads and manifest PUTs are idempotent: a 5xx (distribution answers 500 when it reads
        # a tag another client is writing) is retried a few times
        retries = 3 if method in ("GET", "HEAD") or "/manifests/" in path else 0
        attempt = 0
        while True:
            h = dict(headers or {})
            if self.authorization:
                h["Authorization"] = self.authorization
            if hasattr(data, "seek"):
                data.seek(0)
            try:
                r = self.session.request(method, url, data=data, headers=h, stream=stream,
                                         verify=self.verify, timeout=(10, 300))
            except requests.exceptions.SSLError as exc:
                raise RegistryError(f"cannot reach OCI registry {self.url}: TLS failed: "
                                    f"{_first_line(exc)}", hint="set OPKG_OCI_CA_FILE to the "
                                    "registry's CA bundle (OPKG_OCI_INSECURE=1 skips the check; "
                                    "OPKG_OCI_PLAIN_HTTP=1 for a registry without TLS)") from None
            except requests.exceptions.RequestException as exc:
                raise RegistryError(f"cannot reach OCI registry {self.url}: {_first_line(exc)}",
                                    hint="check the host and port, and that the registry runs "
                                         "(OPKG_OCI_PLAIN_HTTP=1 for one without TLS)") from None
            attempt += 1
            if r.status_code == 401 and attempt == 1:
                auth = self._authorize(r.headers.get("WWW-Authenticate", ""))
                if auth and auth != self.authorization:
                    self.authorization = auth
                    continue
            if retries > 0 and (r.status_code >= 500 or _blob_link_race(r, method, path)):
                retries -= 1
                time.sleep(0.2 * attempt)
                continue
            break
        if r.status_code in (401, 403) and r.status_code not in accept:
            raise RegistryError(f"OCI registry {self.url} refused {method} {path}: "
                                f"{_errors(r) or r.reason} (HTTP {r.status_code})",
                                hint="log in (`oras login` / `docker login`, or set "
                                     "OPKG_OCI_USERNAME and OPKG_OCI_PASSWORD)")
        if r.status_code not in accept:
            raise RegistryError(f"OCI registry {self.url}: {method} {path} failed: "
                                f"{_errors(r) or r.reason} (HTTP {r.status_code})")
        return r


def _blob_link_race(r, method: str, path: str) -> bool:
    """A manifest PUT refused because a blob it names is unknown. distribution rewrites a
    repository's blob link in place (truncate, then write) whenever a client finishes uploading
    that blob, so a manifest verified at that moment sees an empty link, even though the blob was
    there before and is there after: another publisher uploading the same blob (the empty config,
    an identical bundle) causes it. Worth a retry; a blob that is really missing still fails."""
    return (method == "PUT" and "/manifests/" in path and r.status_code == 400
            and "MANIFEST_BLOB_UNKNOWN" in _errors(r))


def _first_line(exc) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _errors(r) -> str:
    try:
        return "; ".join(f"{e.get('code')}: {e.get('message')}" for e in r.json()["errors"])
    except Exception:
        return ""


class OciStore:
    """The registry backend for oci:// locations (see backend.py for the interface)."""

    def __init__(self, url: str):
        self.root = str(url).rstrip("/")
        self.host, self.namespace = parse_location(self.root)
        self._http: Http | None = None
        self._sizes: dict[tuple[str, str], int] = {}   # (repo, digest) -> size, pushed here
        self._pinged = False

    @property
    def http(self) -> Http:
        if self._http is None:
            self._http = Http(self.root, self.host)
        return self._http

    def repo(self, name: str) -> str:
        check_name(name)
        if not _COMPONENT.match(name):
            raise UsageError(f"package name {name!r} cannot be an OCI repository name",
                             hint="OCI names do not end in '_' nor hold '___'; rename the package")
        return f"{self.namespace}/{name}"

    # -- opening ---------------------------------------------------------------------------

    def exists(self) -> bool:
        return True

    def ensure_readable(self) -> None:
        if self._pinged:
            return
        r = self.http.request("GET", "/v2/")
        if r.status_code != 200:
            raise RegistryError(f"{self.root}: {self.http.base}/v2/ answered HTTP "
                                f"{r.status_code}; not an OCI registry",
                                hint="check the host and port of the registry URL")
        self._pinged = True

    ensure_writable = ensure_readable     # push permission shows at the first push
    preflight = ensure_readable

    # -- low level -------------------------------------------------------------------------

    def _tags(self, repo: str) -> list[str]:
        out, path = [], f"/v2/{repo}/tags/list?n=1000"
        while path:
            r = self.http.request("GET", path)
            if r.status_code == 404:
                return []
            out += (r.json() or {}).get("tags") or []
            path = _next_link(r)
        return out

    def _repositories(self, optional: bool = False) -> list[str]:
        """The registry's repositories (catalog API). `optional`: a registry that hides its
        catalog (GHCR, Docker Hub; Harbor below admin rights) gives [] instead of an error."""
        out, path = [], "/v2/_catalog?n=1000"
        while path:
            r = self.http.request("GET", path, accept=(200, 401, 403, 404) if optional
                                  else (200, 404))
            if r.status_code != 200 and optional:
                return out
            if r.status_code == 404:
                raise RegistryError(f"{self.root}: the registry does not list its repositories "
                                    "(no /v2/_catalog)", hint="search needs the catalog API; "
                                    "install and info work with a package name")
            out += (r.json() or {}).get("repositories") or []
            path = _next_link(r)
        return out

    def _manifest(self, repo: str, ref: str, what: str) -> tuple[bytes, str] | None:
        """(body, digest) of a manifest by tag or digest, or None when there is none. The body
        must hash to the digest that names it (by tag: the digest the registry reports)."""
        r = self.http.request("GET", f"/v2/{repo}/manifests/{ref}",
                              headers={"Accept": f"{INDEX}, {MANIFEST}"})
        if r.status_code == 404:
            return None
        body = r.content
        digest = ref if ref.startswith("sha256:") else r.headers.get("Docker-Content-Digest")
        actual = sha256_bytes(body)
        if digest and actual != digest:
            raise RegistryError(f"{what}: the manifest {repo}@{digest} the registry returned "
                                f"hashes to {actual}; it was modified after publishing",
                                hint="do not use it; run `opkg registry check`")
        return body, actual

    def _manifest_json(self, repo: str, ref: str, what: str) -> tuple[dict, str, int] | None:
        """(parsed manifest, digest, size) as _manifest reads it."""
        got = self._manifest(repo, ref, what)
        if got is None:
            return None
        try:
            data = json.loads(got[0])
        except ValueError:
            raise RegistryError(f"{what}: manifest {repo}@{got[1]} is not JSON") from None
        if not isinstance(data, dict):
            raise RegistryError(f"{what}: manifest {repo}@{got[1]} is not a JSON object")
        return data, got[1], len(got[0])

    def _put_manifest(self, repo: str, ref: str, body: bytes, media_type: str):
        return self.http.request("PUT", f"/v2/{repo}/manifests/{ref}", data=body,
                                 headers={"Content-Type": media_type},
                                 accept=(200, 201, 202))

    def _blob_size(self, repo: str, digest: str) -> int | None:
        if (repo, digest) in self._sizes:
            return self._sizes[repo, digest]
        r = self.http.request("HEAD", f"/v2/{repo}/blobs/{digest}")
        return int(r.headers.get("Content-Length", 0)) if r.status_code == 200 else None

    def _push_blob(self, repo: str, digest: str, size: int, data=None, src=None) -> None:
        if self._blob_size(repo, digest) == size:
            self._sizes[repo, digest] = size
            return
        r = self.http.request("POST", f"/v2/{repo}/blobs/uploads/", accept=(202,))
        location = urllib.parse.urljoin(self.http.base + "/", r.headers["Location"])
        location += ("&" if "?" in location else "?") + urllib.parse.urlencode({"digest": digest})
        headers = {"Content-Type": "application/octet-stream", "Content-Length": str(size)}
        try:
            if src is not None:
                with open(src, "rb") as fh:
                    self.http.request("PUT", location, data=fh, headers=headers, accept=(201,))
            else:
                self.http.request("PUT", location, data=data, headers=headers, accept=(201,))
        except RegistryError:
            # another publisher uploading the same content at the same moment can make the
            # registry refuse ours; what matters is that the blob is there
            self._sizes.pop((repo, digest), None)
            if self._blob_size(repo, digest) != size:
                raise
        self._sizes[repo, digest] = size

    # -- blobs -----------------------------------------------------------------------------

    def blob_location(self, name: str, digest: str) -> str:
        return f"{self.host}/{self.repo(name)}@{digest}"

    def put_blob(self, *, data: bytes | None = None, src: Path | None = None,
                 name: str | None = None) -> tuple[str, int]:
        if data is not None:
            digest, size = sha256_bytes(data), len(data)
        else:
            h, size = hashlib.sha256(), 0
            with open(src, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
                    size += len(chunk)
            digest = "sha256:" + h.hexdigest()
        self._push_blob(self.repo(name), digest, size, data=data, src=src)
        checkpoint("blob-staged")
        return digest, size

    def fetch_blob(self, name: str, digest: str, dest: Path) -> None:
        """Download a blob as served (the caller hashes the copy)."""
        import requests

        repo = self.repo(name)
        r = self.http.request("GET", f"/v2/{repo}/blobs/{digest}", stream=True)
        if r.status_code == 404:
            raise RegistryError(f"{name}: blob {digest} is missing from {self.root}",
                                hint="the registry is damaged; run `opkg registry check`")
        try:
            with open(dest, "wb") as out:
                for chunk in r.iter_content(1 << 20):
                    out.write(chunk)
        except requests.exceptions.RequestException:
            pass    # a short body: what arrived is hashed by the caller and refused there
        finally:
            r.close()

    def verify_blob(self, digest: str, size: int | None = None, *,
                    name: str | None = None) -> str | None:
        from opkg.registry.records import sha256_file

        with tempfile.TemporaryDirectory(prefix="opkg-oci-") as tmp:
            copy = Path(tmp) / "blob"
            try:
                self.fetch_blob(name, digest, copy)
            except RegistryError as exc:
                if "is missing" in exc.message:
                    return "missing"
                raise
            actual = sha256_file(copy)
            if actual != digest:
                return f"corrupt (content hashes to {actual})"
            if size is not None and copy.stat().st_size != size:
                return f"size {copy.stat().st_size}, record says {size}"
            return None

    def _archive_problem(self, name: str, digest: str) -> str | None:
        """verify_blob, then the whole archive read through (as check.py does for bundles)."""
        from opkg.core.bundle import verify_archive

        with tempfile.TemporaryDirectory(prefix="opkg-oci-") as tmp:
            copy = Path(tmp) / "bundle.opkg.tgz"
            try:
                self.fetch_blob(name, digest, copy)
            except RegistryError as exc:
                return "missing" if "is missing" in exc.message else exc.message
            from opkg.registry.records import sha256_file

            actual = sha256_file(copy)
            if actual != digest:
                return f"corrupt (content hashes to {actual})"
            try:
                verify_archive(copy)
            except RegistryError as exc:
                return "not a readable bundle archive: " + (
                    getattr(exc, "reason", None) or exc.message.removeprefix(f"{copy}: "))
            return None

    # -- versions --------------------------------------------------------------------------

    def record_location(self, name: str, version: str) -> str:
        return f"{self.host}/{self.repo(name)}:{version_tag(version_key(version))}"

    def existing_key(self, name: str, version: str) -> str | None:
        wanted = Version(version_key(version))
        for tag in self._tags(self.repo(name)):
            key = tag_version(tag)
            if key is not None and Version(key) == wanted:
                return key
        return None

    def _version(self, name: str, key: str, expected: str | None = None):
        """(record, version index, its descriptor) of a published version."""
        repo, what = self.repo(name), f"{name} {key}"
        got = self._manifest_json(repo, expected or version_tag(key), what)
        if got is None:
            raise RegistryError(f"{what}: its version manifest is missing from {self.root}",
                                hint="run `opkg registry check`")
        index, digest, size = got
        if expected and digest != expected:
            raise RegistryError(f"{what}: the version manifest does not match the digest the "
                                f"catalog listed ({expected}, got {digest})",
                                hint="do not use this version; run `opkg registry check`")
        where = f"{self.host}/{repo}@{digest}"
        if index.get("artifactType") != VERSION_TYPE:
            raise RegistryError(f"{where}: tag {version_tag(key)} is not an opkg version "
                                f"(artifactType {index.get('artifactType')!r})",
                                hint="something else was pushed under opkg's namespace")
        text = (index.get("annotations") or {}).get(A + "record")
        if not isinstance(text, str):
            raise RegistryError(f"{where}: malformed version manifest: no record annotation",
                                hint="run `opkg registry check` to list damaged versions")
        subject = _descriptor(INDEX, digest, size, artifactType=VERSION_TYPE)
        return parse_record(text.encode(), where, name, key), index, subject

    def read_record(self, name: str, version: str, expected_digest: str | None = None) -> dict:
        return self._version(name, version_key(version), expected_digest)[0]

    def catalog(self, names=None) -> dict[str, dict[str, VersionEntry]]:
        """name -> version key -> entry. `names`: only these packages' versions are read (the
        others are listed without versions, for did-you-mean hints)."""
        self.ensure_readable()
        prefix = self.namespace + "/"
        packages = sorted(r[len(prefix):] for r in self._repositories(optional=names is not None)
                          if r.startswith(prefix) and NAME_RE.match(r[len(prefix):]))
        if names is not None:
            packages = sorted(set(packages) | {n for n in names if NAME_RE.match(n)})
        out: dict[str, dict[str, VersionEntry]] = {}
        for name in packages:
            versions = {}
            if names is None or name in names:
                for tag in self._tags(self.repo(name)):
                    key = tag_version(tag)
                    if key is None:
                        continue
                    record, _, subject = self._version(name, key)
                    row = index_entry(record, subject["digest"])
                    mark = self._yank_mark(self.repo(name), subject)
                    versions[key] = VersionEntry(
                        name=name, version=record["version"], record_digest=subject["digest"],
                        summary=row["summary"], socs=row["socs"], toolchains=row["toolchains"],
                        published=row["published"], yanked=bool(mark),
                        reason=(mark or {}).get("reason"))
            if versions or names is None or name not in names:
                out[name] = versions
        return out

    # -- publishing ------------------------------------------------------------------------

    def planned_writes(self, name: str, key: str, group) -> list[str]:
        repo = f"{self.host}/{self.repo(name)}"
        writes = [f"{repo}@{b.digest} (bundle layer)" for b in group]
        writes += [f"{repo}: {b.meta['soc']}/{b.meta['toolchain']['id']} {v} report layer"
                   for b in group for v in sorted(b.reports)]
        writes += [f"{repo}:{bundle_tag(key, *b.key)} (bundle artifact)" for b in group]
        return writes + [f"{repo}:{version_tag(key)} (version)"]

    def _bundle_manifest(self, repo: str, record: dict, b: dict) -> bytes:
        layers = [_descriptor(BUNDLE_LAYER, b["blob"], b["size"],
                              annotations={TITLE: b.get("filename") or "bundle.opkg.tgz"})]
        for v in b.get("variants", []):
            if v.get("report"):
                size = self._blob_size(repo, v["report"])
                if size is None:
                    raise RegistryError(f"{record['name']} {record['version']}: verification "
                                        f"report {v['report']} was not pushed")
                layers.append(_descriptor(REPORT_LAYER, v["report"], size,
                                          annotations={TITLE: f"verification/{v['name']}.json"}))
        return _json_bytes({
            "schemaVersion": 2, "mediaType": MANIFEST, "artifactType": BUNDLE_TYPE,
            "config": _descriptor(EMPTY, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA)),
            "layers": layers,
            "annotations": {
                TITLE: record["name"],
                "org.opencontainers.image.version": record["version"],
                "org.opencontainers.image.description": record.get("summary", ""),
                "org.opencontainers.image.created": (record.get("published") or {}).get("time")
                or "",
                A + "soc": b["soc"], A + "toolchain": b["toolchain"].get("id", ""),
                A + "metadata": json.dumps(b, sort_keys=True),
                A + "manifest": json.dumps({"name": record["name"],
                                            "version": record["version"],
                                            "summary": record.get("summary", ""),
                                            "op": record.get("op")}, sort_keys=True)}})

    def commit_record(self, name: str, key: str, record: dict) -> tuple[bool, str]:
        """Push the bundle artifacts and the version index by digest, then commit the version
        tag under a claim (module docstring). Returns (created, digest of the version)."""
        refuse_malformed(record, name, key)
        repo = self.repo(name)
        self._push_blob(repo, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA), data=EMPTY_DATA)
        manifests = []
        for b in record["bundles"]:
            body = self._bundle_manifest(repo, record, b)
            digest = sha256_bytes(body)
            self._put_manifest(repo, digest, body, MANIFEST)
            manifests.append(_descriptor(MANIFEST, digest, len(body), artifactType=BUNDLE_TYPE,
                                         annotations={A + "soc": b["soc"], A + "toolchain":
                                                      b["toolchain"].get("id", "")}))
        index = _json_bytes({
            "schemaVersion": 2, "mediaType": INDEX, "artifactType": VERSION_TYPE,
            "manifests": manifests,
            "annotations": {A + "record": json.dumps(record, sort_keys=True),
                            "org.opencontainers.image.version": record["version"]}})
        digest = sha256_bytes(index)
        self._put_manifest(repo, digest, index, INDEX)
        checkpoint("record-staged")
        if not self._claim_and_commit(repo, key, digest, index):
            return False, digest
        checkpoint("record-committed")
        return True, digest

    def _claim_and_commit(self, repo: str, key: str, digest: str, index: bytes) -> bool:
        tag = version_tag(key)
        settle = float(os.environ.get(SETTLE_ENV) or DEFAULT_SETTLE)
        for _ in range(5):
            if self._manifest(repo, tag, f"{repo}:{tag}") is not None:
                return False
            claim = _json_bytes({
                "schemaVersion": 2, "mediaType": MANIFEST, "artifactType": CLAIM_TYPE,
                "config": _descriptor(EMPTY, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA)),
                "layers": [_descriptor(EMPTY, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA))],
                "annotations": {A + "claim": uuid.uuid4().hex, A + "version": digest}})
            self._put_manifest(repo, f"claim-{tag}", claim, MANIFEST)
            time.sleep(settle)
            now = self._manifest(repo, f"claim-{tag}", f"{repo}:claim-{tag}")
            if now is None or now[1] != sha256_bytes(claim):
                # another publisher claimed it after us: wait for its commit
                if self._wait_for(repo, tag, 6 * settle + 10):
                    return False
                continue            # it died before committing: claim again
            if self._manifest(repo, tag, f"{repo}:{tag}") is not None:
                return False
            r = self.http.request("PUT", f"/v2/{repo}/manifests/{tag}", data=index,
                                  headers={"Content-Type": INDEX},
                                  accept=(200, 201, 202, 400, 409, 412))
            if r.status_code not in (200, 201, 202):
                return False        # a registry with immutable tags refused: it is taken
            return True
        raise RegistryError(f"{self.root}: could not commit {repo}:{tag}: other publishers "
                            "kept claiming it without committing",
                            hint="publish again; if it persists, check the registry's health")

    def _wait_for(self, repo: str, tag: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self._manifest(repo, tag, f"{repo}:{tag}") is not None:
                return True
            time.sleep(0.2)
        return False

    def finish_publish(self, name: str, key: str, record: dict | None = None,
                       digest: str | None = None) -> None:
        """After the commit point: point each bundle tag at its bundle artifact (also what
        repairs the tags of a publish that stopped between its commit and its tags)."""
        self._retag(name, key)

    def _retag(self, name: str, key: str) -> list[str]:
        repo = self.repo(name)
        record, index, _ = self._version(name, key)
        done = []
        for d in index.get("manifests") or []:
            ann = d.get("annotations") or {}
            tag = bundle_tag(key, ann.get(A + "soc", ""), ann.get(A + "toolchain", ""))
            current = self.http.request("HEAD", f"/v2/{repo}/manifests/{tag}",
                                        headers={"Accept": MANIFEST})
            if current.status_code == 200 and \
                    current.headers.get("Docker-Content-Digest") == d["digest"]:
                continue
            got = self._manifest(repo, d["digest"], f"{name} {key}")
            if got is None:
                raise RegistryError(f"{name} {key}: bundle artifact {d['digest']} is missing",
                                    hint="run `opkg registry check`")
            self._put_manifest(repo, tag, got[0], MANIFEST)
            done.append(f"tagged {repo}:{tag}")
        return done

    # -- yanks -----------------------------------------------------------------------------

    def _referrers(self, repo: str, digest: str) -> tuple[list[dict], bool]:
        """(descriptors of the artifacts whose subject is `digest`, whether the registry has
        the referrers API)."""
        r = self.http.request("GET", f"/v2/{repo}/referrers/{digest}",
                              headers={"Accept": INDEX}, accept=(200, 400, 404, 405))
        if r.status_code == 200 and INDEX in r.headers.get("Content-Type", ""):
            try:
                return list(r.json().get("manifests") or []), True
            except ValueError:
                pass
        got = self._manifest_json(repo, digest.replace(":", "-"), f"{repo} referrers")
        return (list(got[0].get("manifests") or []) if got else []), False

    def _yank_mark(self, repo: str, subject: dict) -> dict | None:
        marks = [d for d in self._referrers(repo, subject["digest"])[0]
                 if d.get("artifactType") == YANK_TYPE]
        if not marks:
            return None
        ann = max(marks, key=lambda d: int((d.get("annotations") or {}).get(A + "sequence", 0)))
        ann = ann.get("annotations") or {}
        if ann.get(A + "yanked") != "true":
            return None
        return {"reason": ann.get(A + "reason"), "time": ann.get("org.opencontainers.image."
                                                                 "created"), "by": ann.get(A + "by")}

    def read_yank(self, name: str, version: str) -> dict | None:
        return self._yank_mark(self.repo(name), self._version(name, version_key(version))[2])

    def set_yank(self, name: str, version: str, mark: dict | None) -> None:
        """Push a yank (or unyank) artifact whose subject is the version; the newest wins."""
        from opkg.registry.publish import publisher_identity, utc_now

        key = version_key(version)
        repo = self.repo(name)
        subject = self._version(name, key)[2]
        digest = subject["digest"]
        mark = mark or {}
        ann = {A + "yanked": "true" if mark else "false", A + "reason": mark.get("reason") or "",
               "org.opencontainers.image.created": mark.get("time") or utc_now(),
               A + "by": mark.get("by") or publisher_identity(),
               A + "sequence": str(time.time_ns())}
        self._push_blob(repo, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA), data=EMPTY_DATA)
        body = _json_bytes({
            "schemaVersion": 2, "mediaType": MANIFEST, "artifactType": YANK_TYPE,
            "config": _descriptor(EMPTY, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA)),
            "layers": [_descriptor(EMPTY, sha256_bytes(EMPTY_DATA), len(EMPTY_DATA))],
            "subject": subject, "annotations": ann})
        r = self._put_manifest(repo, sha256_bytes(body), body, MANIFEST)
        if r.headers.get("OCI-Subject"):
            return                  # the registry keeps the referrers list itself
        # OCI 1.1 referrers tag schema: sha256-<hex> lists the referrers of sha256:<hex>
        current, _ = self._referrers(repo, digest)
        entry = _descriptor(MANIFEST, sha256_bytes(body), len(body), artifactType=YANK_TYPE,
                            annotations=ann)
        fallback = _json_bytes({"schemaVersion": 2, "mediaType": INDEX,
                                "manifests": current + [entry]})
        self._put_manifest(repo, digest.replace(":", "-"), fallback, INDEX)

    # -- check -----------------------------------------------------------------------------

    def check(self, *, repair: bool = False):
        from opkg.registry.check import Problem, Report

        self.ensure_readable()
        report = Report(self.root)
        err = lambda where, msg: report.problems.append(Problem("error", str(where), msg))  # noqa: E731
        warn = lambda where, msg: report.problems.append(Problem("warning", str(where), msg))  # noqa: E731
        prefix = self.namespace + "/"
        checked: set[tuple[str, str]] = set()
        retag: set[tuple[str, str]] = set()       # versions whose bundle tags are off
        for repo in sorted(self._repositories()):
            name = repo[len(prefix):] if repo.startswith(prefix) else None
            if name is None or not NAME_RE.match(name):
                continue
            versions = 0
            for tag in self._tags(repo):
                key = tag_version(tag)
                if key is None:
                    continue
                where = f"{self.host}/{repo}:{tag}"
                try:
                    record, index, subject = self._version(name, key)
                except RegistryError as exc:
                    err(where, exc.message)
                    continue
                versions += 1
                if self._check_version(name, repo, key, record, index, where, err, warn,
                                       report, checked):
                    retag.add((name, key))
                try:
                    self._yank_mark(repo, subject)
                except (RegistryError, ValueError, TypeError) as exc:
                    err(where, f"unreadable yank marks: {getattr(exc, 'message', exc)}")
            if versions:
                report.packages += 1
                report.versions += versions
        if repair:
            for name, key in sorted(retag):
                report.repaired += self._retag(name, key)
            report.problems = [p for p in report.problems if not (
                p.severity == "warning" and p.message.startswith("bundle tag "))]
        return report

    def _check_version(self, name, repo, key, record, index, where, err, warn, report,
                       checked) -> bool:
        """Errors for what a reader could be hurt by; True when a bundle tag needs repointing."""
        tags_off = False
        manifests = {((d.get("annotations") or {}).get(A + "soc"),
                      (d.get("annotations") or {}).get(A + "toolchain")): d
                     for d in index.get("manifests") or []}
        for b in record["bundles"]:
            label = f"{name} {record['version']} {b['soc']}/{b['toolchain'].get('id')}"
            d = manifests.get((b["soc"], b["toolchain"].get("id")))
            if d is None:
                err(where, f"{label}: the version lists no bundle artifact for it")
                continue
            try:
                got = self._manifest_json(repo, d["digest"], label)
            except RegistryError as exc:
                err(f"{self.host}/{repo}@{d['digest']}", exc.message)
                continue
            if got is None:
                err(f"{self.host}/{repo}@{d['digest']}", f"{label}: bundle artifact is missing")
                continue
            layers = {layer.get("digest"): layer for layer in got[0].get("layers") or []}
            wanted = [(b["blob"], b["size"], "bundle")] + [
                (v["report"], None, f"{v.get('name')} report")
                for v in b.get("variants", []) if v.get("report")]
            for digest, size, what in wanted:
                blob_where = f"{self.host}/{repo}@{digest}"
                if digest not in layers:
                    err(blob_where, f"{label} {what}: not a layer of its bundle artifact")
                    continue
                if (repo, digest) in checked:
                    continue
                checked.add((repo, digest))
                report.blobs += 1
                problem = self._archive_problem(name, digest) if what == "bundle" \
                    else self.verify_blob(digest, name=name)
                if problem is None and size is not None and layers[digest].get("size") != size:
                    problem = f"size {layers[digest].get('size')}, record says {size}"
                if problem:
                    err(blob_where, f"{problem}; used by {label} {what}")
            tag = bundle_tag(key, b["soc"], b["toolchain"].get("id", ""))
            r = self.http.request("HEAD", f"/v2/{repo}/manifests/{tag}",
                                  headers={"Accept": MANIFEST})
            if r.status_code != 200 or r.headers.get("Docker-Content-Digest") != d["digest"]:
                tags_off = True
                warn(f"{self.host}/{repo}:{tag}",
                     f"bundle tag {'missing' if r.status_code != 200 else 'points elsewhere'} "
                     "(a publish stopped after its commit point, or the tag was moved); "
                     "`--repair` or publishing the version again re-points it")
        return tags_off


def _next_link(r) -> str | None:
    link = r.headers.get("Link")
    if not link:
        return None
    m = re.match(r'\s*<([^>]+)>\s*;\s*rel="?next"?', link)
    return m.group(1) if m else None
