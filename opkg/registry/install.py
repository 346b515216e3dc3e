"""Installing: pick a version, check it is what was published, unpack it safely.

Selection follows pip and PEP 592: the highest version that matches the specifier and has a
bundle for the SoC (and toolchain, when given); yanked versions only when pinned exactly
(`==V`), with a warning. Before unpacking, the record is checked against the index digest and
the bundle against the record digest, on a private copy, so what is unpacked is what was hashed.

Layout under DEST:
    <name>/...                      the bundle's files (manifest, lib/, verification/, ...)
    vendors/<vendor>/...            CANN bundles: their opp/ tree, as ASCEND_CUSTOM_OPP_PATH expects
    .opkg/installed/<name>.json     receipt: what is installed and each file's digest
The receipt is written last; an install killed halfway leaves no receipt for the new version,
so running it again redoes the work, and installing the same thing twice is a no-op.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from opkg.core.bundle import read_metadata, safe_extract, verify_archive
from opkg.core.errors import RegistryError, ToolchainError, UsageError, did_you_mean
from opkg.util.fsutil import atomic_write_json
from opkg.registry.records import DIGEST_RE, VersionEntry, sha256_file, version_key
from opkg.registry.store import Store

_REQ_RE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*(.*?)\s*$")
RECEIPTS = Path(".opkg") / "installed"


@dataclass
class Requirement:
    name: str
    spec: SpecifierSet
    text: str

    @property
    def pinned(self) -> str | None:
        """The exact version when the spec is `==V` (no wildcard) or `===V`."""
        specs = list(self.spec)
        if len(specs) == 1 and specs[0].operator in ("==", "===") and "*" not in specs[0].version:
            return specs[0].version
        return None


def parse_requirement(text: str) -> Requirement:
    m = _REQ_RE.match(text or "")
    if not m:
        raise UsageError(f"invalid requirement {text!r}",
                         hint="write NAME, NAME==1.0.0 or NAME>=1.0,<2 (PEP 440 specifiers)")
    name, spec = m.group(1), m.group(2)
    if name != name.lower():
        raise UsageError(f"invalid package name {name!r}", hint=f"did you mean '{name.lower()}'?")
    try:
        return Requirement(name, SpecifierSet(spec), text)
    except InvalidSpecifier:
        raise UsageError(f"unknown version spec {spec!r} in {text!r}",
                         hint="use PEP 440 specifiers: ==1.0.0, >=1.0,<2, ~=1.2, !=1.1") from None


@dataclass
class Selection:
    entry: VersionEntry
    record: dict
    bundle: dict
    warnings: list[str] = field(default_factory=list)


def select(store: Store, req: Requirement, soc: str, toolchain: str | None = None) -> Selection:
    catalog = store.catalog(names=[req.name])
    versions = catalog.get(req.name)
    if not versions:
        raise RegistryError(f"no package {req.name!r} in registry {store.root}",
                            hint=did_you_mean(req.name, catalog) or "see `opkg search`")
    pinned = req.pinned
    by_version = {e.parsed: e for e in versions.values()}
    matching = [e for e in versions.values()
                if e.parsed in set(req.spec.filter(by_version, prereleases=None))]
    if pinned and not matching:
        matching = [e for e in versions.values() if e.parsed in req.spec]
    candidates = [e for e in matching if not e.yanked or pinned]
    if not candidates:
        known = ", ".join(f"{e.version}{' (yanked)' if e.yanked else ''}"
                          for e in sorted(versions.values(), key=lambda e: e.parsed))
        if not matching:
            raise RegistryError(f"{req.name}: no version matches {req.spec}",
                                hint=f"published: {known}")
        yanked = sorted(matching, key=lambda e: e.parsed)
        within = f" matching {req.spec}" if str(req.spec) else ""
        raise RegistryError(f"{req.name}: every published version{within} is yanked "
                            f"({', '.join(e.version for e in yanked)})",
                            hint="a yanked version installs only when pinned exactly, with a "
                                 f"warning: {req.name}=={yanked[-1].version}; `opkg info "
                                 f"{req.name}` says why it was yanked; published: {known}")
    seen = []
    for e in sorted(candidates, key=lambda e: e.parsed, reverse=True):
        record = store.read_record(req.name, version_key(e.version), e.record_digest)
        bundles = [b for b in record["bundles"] if b["soc"] == soc
                   and (toolchain is None or b["toolchain"].get("id") == toolchain)]
        seen.append(f"{e.version}: " + ", ".join(f"{b['soc']}/{b['toolchain'].get('id')}"
                                                 for b in record["bundles"]))
        if not bundles:
            continue
        if len(bundles) > 1:
            ids = ", ".join(b["toolchain"]["id"] for b in bundles)
            raise UsageError(f"{req.name} {e.version} has bundles for {soc} built with several "
                             f"toolchains: {ids}", hint="choose one with --toolchain")
        warnings = []
        if e.yanked:
            warnings.append(f"{req.name} {e.version} is yanked: {e.reason or 'no reason given'}; "
                            "installing it because it was pinned exactly")
        return Selection(e, record, bundles[0], warnings)
    want = soc + (f"/{toolchain}" if toolchain else "")
    raise RegistryError(f"{req.name}: no version matching {str(req.spec) or '(any)'} has a "
                        f"bundle for {want}", hint="available: " + "; ".join(seen))


@dataclass
class Installed:
    name: str
    version: str
    soc: str
    toolchain: str
    dest: Path
    status: str                  # installed | unchanged
    files: int
    warnings: list[str]
    env: dict[str, str]          # variables the user should set (CANN bundles)
    vendors: tuple[str, ...] = ()   # CANN bundles: the vendors/<vendor> trees installed

    def to_json(self) -> dict:
        return {"name": self.name, "version": self.version, "soc": self.soc,
                "toolchain": self.toolchain, "dest": str(self.dest), "status": self.status,
                "files": self.files, "warnings": self.warnings, "env": self.env}


def install(store: Store, requirement: str, *, soc: str, dest: Path, toolchain: str | None = None,
            force: bool = False, runtime_check=None) -> Installed:
    """`runtime_check(package, toolchain: dict, soc, driver_pin) -> None` raises ToolchainError
    when the local CANN/driver cannot run a CANN bundle; `force` turns that into a warning."""
    req = parse_requirement(requirement)
    sel = select(store, req, soc, toolchain)
    b, name = sel.bundle, req.name
    version = sel.record["version"]
    tc_id = b["toolchain"].get("id", "")
    warnings = list(sel.warnings)
    if tc_id == "sim":
        # a sim bundle is for checking and CPU use; someone installing it may expect an NPU one
        warnings.append(f"{name} {version} ({soc}/sim) is a sim bundle: its libraries run the "
                        "kernel on the CPU emulation and hold no device binary, so nothing of "
                        "it runs on an NPU; for that, publish and install a bundle built with "
                        "CANN (--toolchain cann-<version>; `opkg info "
                        f"{name}` lists the bundles)")

    dest = Path(dest)
    try:
        receipt_path = _under(dest, str(RECEIPTS / f"{name}.json"))
        old = _read_receipt(receipt_path, name)
        if old and old.get("blob") == b["blob"] and _intact(dest, old):
            return Installed(name, version, soc, tc_id, dest, "unchanged", len(old["files"]),
                             warnings, _env(dest, old), _vendors(old))
        work = _under(dest, f".opkg/tmp-{os.getpid()}")
    except OSError as exc:
        raise RegistryError(f"cannot install into {dest}: {exc.strerror or exc}"
                            f" ({exc.filename or dest})",
                            hint="check the directory's permissions or choose --dest DIR") from None
    try:
        shutil.rmtree(work, ignore_errors=True)
        _mkdirs_under(dest, f"{work.relative_to(dest)}/-")   # DEST/.opkg/tmp-<pid>/
        copy = work / "bundle.opkg.tgz"
        store.fetch_blob(name, b["blob"], copy)
        actual = sha256_file(copy)
        if actual != b["blob"]:
            blob = store.blob_location(name, b["blob"])
            raise RegistryError(f"{name} {version}: bundle {blob} does not match its published "
                                f"digest (record: {b['blob']}, file: {actual}); it was modified "
                                "after publishing", hint="do not use it; run `opkg registry check`")
        verify_archive(copy)     # the whole stream, before any file of it is unpacked
        meta = read_metadata(copy)
        if (meta.get("name"), version_key(str(meta.get("version"))), meta.get("soc"),
                (meta.get("toolchain") or {}).get("id")) != (name, version_key(version), soc, tc_id):
            raise RegistryError(f"{name} {version}: the bundle's metadata does not match its "
                                "record", hint="run `opkg registry check`")
        stage = work / "stage"
        members = safe_extract(copy, stage)
        if tc_id.startswith("cann-"):
            try:
                (runtime_check or default_runtime_check)(
                    name, dict(b["toolchain"], opp_compiler_version=_compiler_version(stage)),
                    soc, _driver_pin(stage / "opkg.yaml"))
            except ToolchainError as exc:
                if not force:
                    raise
                warnings.append(f"--force: installing although {exc.message}")
        placed = {m: _target(name, m) for m in members}
        _check_conflicts(dest, name, placed.values(), set((old or {}).get("files", {})), force,
                         warnings, {rel: stage / m for m, rel in placed.items()})
        for member, rel in sorted(placed.items()):
            target = _under(dest, rel)
            _mkdirs_under(dest, rel)
            if target.is_dir() and not target.is_symlink():
                raise RegistryError(f"cannot install {target}: a directory is in the way")
            os.replace(stage / member, target)   # replaces a link itself, never its target
        new_files = {rel: sha256_file(_under(dest, rel)) for rel in placed.values()}
        for rel in (old or {}).get("files", {}):
            if rel not in new_files:
                _under(dest, rel).unlink(missing_ok=True)
        receipt = {"name": name, "version": version, "soc": soc, "toolchain": b["toolchain"],
                   "blob": b["blob"], "files": dict(sorted(new_files.items()))}
        _mkdirs_under(dest, str(RECEIPTS / f"{name}.json"))
        atomic_write_json(receipt_path, receipt)
    except OSError as exc:
        raise RegistryError(f"cannot install into {dest}: {exc.strerror or exc}"
                            f" ({exc.filename or dest})",
                            hint="check the directory's permissions or choose --dest DIR") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return Installed(name, version, soc, tc_id, dest, "installed", len(new_files), warnings,
                     _env(dest, receipt), _vendors(receipt))


def _target(name: str, member: str) -> str:
    """Where a bundle member goes under DEST (POSIX relative path)."""
    p = PurePosixPath(member)
    # Only a vendor tree leaves the package's own directory; anything else under opp/ stays
    # inside it, so a bundle cannot place files beside other packages or over receipts.
    if p.parts[:2] == ("opp", "vendors") and len(p.parts) > 3:
        return str(PurePosixPath(*p.parts[1:]))
    return str(PurePosixPath(name, *p.parts))


def _check_conflicts(dest: Path, name: str, targets, mine: set[str], force: bool,
                     warnings: list[str], staged: dict[str, Path]) -> None:
    """Refuse to overwrite a file another installed package owns (two packages sharing a
    CANN vendor tree) or one nobody installed, even inside DEST/<name>/ (DEST may be a
    directory the user keeps other things in). A file that already holds exactly what would
    be written is no clash: that is what an install killed before its receipt leaves."""
    owners = {}
    receipts = dest / RECEIPTS
    if receipts.is_dir():
        for r in receipts.glob("*.json"):
            data = _read_receipt(r, r.name[:-len(".json")])
            if data and data.get("name") != name:
                for f in data.get("files", {}):
                    owners[f] = data["name"]
    clashes = []
    for rel in targets:
        path = _under(dest, rel)
        if rel in owners:
            clashes.append(f"{rel} (installed by {owners[rel]})")
        elif os.path.lexists(path) and rel not in mine and not (
                path.is_file() and not path.is_symlink()
                and sha256_file(path) == sha256_file(staged[rel])):
            clashes.append(f"{rel} (not installed by opkg)")
    if clashes and not force:
        raise RegistryError(f"installing {name} would overwrite files it does not own:\n  "
                            + "\n  ".join(clashes[:20]),
                            hint="use another --dest, or --force to overwrite")
    if clashes:
        warnings.append(f"--force: overwrote {len(clashes)} file(s) owned by others")


def _read_receipt(path: Path, name: str) -> dict | None:
    """The receipt of package `name`, None when there is none. Its file list decides what an
    upgrade deletes, so an entry that could point outside DEST makes it an error, not data."""
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        problem = f"unreadable ({exc.strerror if isinstance(exc, OSError) else exc})"
    else:
        problem = _receipt_problem(data, name)
    if problem:
        raise RegistryError(f"{path}: malformed install receipt: {problem}",
                            hint="it was edited or damaged; delete it, then install again with "
                                 "--force to take over the files it listed")
    return data


def _receipt_problem(data, name: str) -> str | None:
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return "expected an object with 'files'"
    if data.get("name") != name:
        return f"names package {data.get('name')!r} but is stored as {name!r}"
    for rel, digest in data["files"].items():
        if not _safe_rel(rel):
            return f"file {rel!r} is not a plain path inside the install directory"
        if not isinstance(digest, str) or not DIGEST_RE.match(digest):
            return f"file {rel!r}: its digest is not a sha256 digest"
    return None


def _safe_rel(rel) -> bool:
    p = PurePosixPath(rel) if isinstance(rel, str) else None
    return bool(p is not None and p.parts and not p.is_absolute() and "\\" not in rel
                and not any(part in ("..", ".") for part in p.parts) and str(p) == rel)


def _under(dest: Path, rel: str) -> Path:
    """DEST/rel, refusing a path that could leave DEST: `rel` must be plain and relative, and
    no directory between DEST and the file may be a symbolic link (a link at DEST/<name>
    would otherwise carry every file of the package wherever it points)."""
    if not _safe_rel(rel):
        raise RegistryError(f"refusing to touch {rel!r}: not a plain path inside {dest}")
    here = dest
    for part in PurePosixPath(rel).parts[:-1]:
        here = here / part
        if here.is_symlink():
            raise RegistryError(f"cannot install into {dest}: {here} is a symbolic link "
                                f"(to {os.readlink(here)})", hint="opkg never follows links "
                                "out of DEST; remove the link or choose another --dest")
    return dest / rel


def _mkdirs_under(dest: Path, rel: str) -> None:
    """Create the directories of DEST/rel one by one, each checked to be a real directory."""
    dest.mkdir(parents=True, exist_ok=True)
    here = dest
    for part in PurePosixPath(rel).parts[:-1]:
        here = here / part
        try:
            here.mkdir()
        except FileExistsError:
            pass
        if here.is_symlink() or not here.is_dir():
            raise RegistryError(f"cannot install into {dest}: {here} is not a directory",
                                hint="opkg never follows links out of DEST; move it aside or "
                                     "choose another --dest")


def _intact(dest: Path, receipt: dict) -> bool:
    for rel, digest in receipt["files"].items():
        path = _under(dest, rel)
        if not path.is_file() or path.is_symlink() or sha256_file(path) != digest:
            return False
    return True


def _vendors(receipt: dict) -> tuple[str, ...]:
    return tuple(sorted({PurePosixPath(f).parts[1] for f in receipt["files"]
                         if PurePosixPath(f).parts[0] == "vendors"
                         and len(PurePosixPath(f).parts) > 2}))


def _env(dest: Path, receipt: dict) -> dict[str, str]:
    vendors = _vendors(receipt)
    if not vendors:
        return {}
    paths = ":".join(str(dest.resolve() / "vendors" / v) for v in vendors)
    env = {"ASCEND_CUSTOM_OPP_PATH": f"{paths}:${{ASCEND_CUSTOM_OPP_PATH}}"}
    libs = op_api_lib_path(dest.resolve(), vendors, receipt["files"])
    if libs:
        env["LD_LIBRARY_PATH"] = libs
    return env


def op_api_lib_path(root: Path, vendors, files) -> str | None:
    """LD_LIBRARY_PATH for an aclnn caller of the vendors installed under root/vendors (their
    op_api/lib holds libcust_opapi.so), as the custom-op package's install.sh writes it into
    vendors/<vendor>/bin/set_env.bash (CANN 8.1.RC1 template, scripts/install.sh)."""
    libs = [str(root / "vendors" / v / "op_api" / "lib") for v in vendors
            if any(str(f).startswith(f"vendors/{v}/op_api/lib/") for f in files)]
    return ":".join(libs) + ":${LD_LIBRARY_PATH}" if libs else None


def _compiler_version(stage: Path) -> str | None:
    """custom_opp_compiler_version of the bundle's vendor tree (opp/vendors/*/version.info)."""
    for info in sorted(stage.glob("opp/vendors/*/version.info")):
        for line in info.read_text(errors="replace").splitlines():
            key, sep, value = line.partition("=")
            if sep and key.strip() == "custom_opp_compiler_version":
                return value.strip()
    return None


def _driver_pin(manifest: Path) -> str | None:
    """The package's `toolchain.driver` pin, from the manifest inside the bundle."""
    from opkg.core import yamlloc
    from opkg.core.errors import OpkgError

    try:
        data = yamlloc.load_data(manifest)   # the bundle's manifest is untrusted input too
        pin = (data.get("toolchain") or {}).get("driver")
    except (OpkgError, AttributeError):
        return None
    return pin if isinstance(pin, str) else None


def default_runtime_check(package: str, toolchain: dict, soc: str,
                          driver_pin: str | None = None) -> None:
    """Can this machine run a bundle built with `toolchain` (cann-<v>) for `soc`? Asks the
    toolchain resolver, as `opkg toolchain check --for-run` would: that CANN version must be
    installed and support the SoC, and the driver must satisfy the release's driver matrix
    and the package's driver pin. Raises ToolchainError (exit 3) when not."""
    from opkg.core.socs import get_soc
    from opkg.toolchains.discovery import discover
    from opkg.core.releases import release_table
    from opkg.toolchains.resolve import Request, resolve

    root = _workspace_root()
    installation = discover()
    requested, by = toolchain["id"], "the bundle"
    abi = opp_abi(toolchain.get("opp_compiler_version"))
    if abi is not None:
        requested, by = _abi_toolkit(package, requested, abi, installation)
    request = Request(package, get_soc(soc, root), None, driver_pin)
    result = resolve([request], installation, release_table(root), requested=requested,
                     for_run=True, requested_by=by)
    error = result.error()
    if error is not None:
        raise error


def opp_abi(compiler_version: str | None):
    """The ABI a custom-op package was built for: major.minor of its version.info's
    custom_opp_compiler_version (7.7 for 7.7.0.1.238, CANN 8.1.RC1's compiler), or None when
    that is no compiler build number (an older bundle, or a stand-in's release name)."""
    from packaging.version import Version

    m = re.fullmatch(r"(\d+)\.(\d+)\.\d+(\.\d+)*", (compiler_version or "").strip())
    return Version(f"{m.group(1)}.{m.group(2)}") if m else None


def _abi_toolkit(package: str, requested: str, abi, installation) -> tuple[str, str]:
    """The installed toolkit to run a bundle of ABI `abi` with, as CANN checks it: one whose
    runtime's required_opp_abi_version range holds the ABI (the bundle's own toolkit when
    installed and fitting, else the highest that fits). Toolkits without the field are judged
    by the bundle's exact version, as before."""
    fits, ranges = [], []
    for tk in installation.toolkits:
        text = tk.opp_abi_range()
        if text is None:
            continue
        try:
            spec = SpecifierSet(text.replace(" ", ""))
        except InvalidSpecifier:
            continue
        ranges.append(f"{tk.id} loads {text}")
        if abi in spec:
            fits.append(tk)
    if not ranges or any(tk.id == requested for tk in fits):
        return requested, "the bundle"
    if not fits:
        raise ToolchainError(
            f"{package} was built for custom-op ABI {abi} ({requested}); no installed CANN "
            f"runtime loads it: {'; '.join(ranges)} (required_opp_abi_version)",
            hint=f"install a CANN release whose runtime accepts {abi}, or rebuild the package "
                 "with an installed toolkit")
    best = max(fits, key=lambda tk: tk.version)
    return best.id, (f"the bundle's custom-op ABI {abi} ({requested}; {best.id}'s "
                     f"required_opp_abi_version is {best.opp_abi_range()})")


def _workspace_root() -> Path | None:
    from opkg.core.workspace import WORKSPACE_FILE

    here = Path.cwd().resolve()
    return next((d for d in (here, *here.parents) if (d / WORKSPACE_FILE).is_file()), None)


def install_into_opp(result: Installed, opp_path: str | None) -> Path:
    """The other kind of CANN install: run the installed bundle's custom_opp_<os>_<arch>.run
    without --install-path, as a CMake-built package is installed; its install.sh copies the
    vendor tree into $ASCEND_OPP_PATH/vendors/<vendor> and lists the vendor first in
    vendors/config.ini. ASCEND_CUSTOM_OPP_PATH is cleared for the run (install.sh would
    install there instead). Returns $ASCEND_OPP_PATH/vendors."""
    import subprocess

    if not result.toolchain.startswith("cann-"):
        raise UsageError(f"{result.name} ({result.toolchain}) is not a CANN bundle: only CANN "
                         "bundles install into $ASCEND_OPP_PATH",
                         hint="drop --into-opp, or install a cann-<version> bundle")
    if not opp_path:
        raise UsageError("--into-opp needs ASCEND_OPP_PATH (the CANN opp directory)",
                         hint="source the toolkit's set_env.sh, or export ASCEND_OPP_PATH")
    runs = sorted((result.dest / result.name).glob("custom_opp_*.run"))
    if not runs:
        raise RegistryError(f"{result.name} {result.version} has no custom_opp_*.run to run "
                            f"(in {result.dest / result.name})",
                            hint="rebuild and republish it with this opkg, which packs the .run")
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_CUSTOM_OPP_PATH"}
    env["ASCEND_OPP_PATH"] = opp_path
    try:
        proc = subprocess.run(["bash", str(runs[0]), "--quiet"], capture_output=True, text=True,
                              env=env, cwd=str(result.dest))
    except OSError as exc:
        raise RegistryError(f"cannot run {runs[0]}: {exc.strerror or exc}") from None
    if proc.returncode != 0:
        raise RegistryError(f"{runs[0].name} failed (exit {proc.returncode}) installing into "
                            f"{opp_path}:\n{(proc.stdout + proc.stderr).strip()}",
                            hint="check that ASCEND_OPP_PATH exists and is writable")
    return Path(opp_path) / "vendors"
