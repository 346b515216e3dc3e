"""Find installed CANN toolkits and the NPU driver, the way CANN's own scripts do.

Toolkits, in this order (the first place a toolkit is seen names it in `found_via`):
  1. $ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME, $ASCEND_CANN_PACKAGE_PATH (set by set_env.sh);
  2. under each Ascend root: ascend-toolkit/latest, ascend-toolkit/<version>, cann, cann-<version>
     (CANN 8.5 and later install to <root>/cann-<version>, with <root>/cann pointing at one).
Ascend roots: $OPKG_ASCEND_ROOTS (os.pathsep-separated) when set, else /usr/local/Ascend and
$HOME/Ascend (the default for non-root installs). A toolkit's version is read from
<arch>-linux/ascend_toolkit_install.info (`version=8.1.RC1`), else from version.cfg, whose lines
are `<package>_running_version=[<inner version>:<CANN version>]` (the CANN version is the text
after the colon: `toolkit_running_version=[7.7.0.1.238:8.1.RC1]` is CANN 8.1.RC1).

The driver: <root>/driver/version.info (`Version=24.1.rc2`) under each Ascend root, and the driver
install path recorded in /etc/ascend_install.info (`Driver_Install_Path_Param=`); that file is
$OPKG_ASCEND_INSTALL_INFO when set (empty: none).

Everything takes explicit `env`/`roots` so tests build stand-in trees in temporary directories.
Nothing here decides anything: resolution (resolve.py) and the CLI judge what is found.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from opkg.core.errors import VersionError
from opkg.core.versions import CannVersion, DriverVersion, parse_cann, parse_driver

TOOLKIT_ENV_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_CANN_PACKAGE_PATH")
DEFAULT_INSTALL_INFO = "/etc/ascend_install.info"

# Where each tool lives inside a toolkit, across releases (first match wins).
TOOL_PATHS = {
    # the bisheng opc runs is the first on set_env.sh's PATH (the template's adapter takes
    # shutil.which("bisheng")): bin, then compiler/ccec_compiler/bin, then tools/ccec_compiler/bin
    "bisheng": ("bin/bisheng", "compiler/ccec_compiler/bin/bisheng",
                "tools/ccec_compiler/bin/bisheng", "ccec_compiler/bin/bisheng"),
    # compiles one binary variant of a kernel: generates the tiling header, then calls bisheng
    "opc": ("bin/opc", "compiler/bin/opc"),
    "msopgen": ("python/site-packages/bin/msopgen", "bin/msopgen", "tools/msopgen/bin/msopgen"),
    # generates op_proto.cc and the aclnn_<op>.{h,cpp} sources from the registered OpDefs
    "op_build": ("tools/opbuild/op_build", "toolkit/tools/opbuild/op_build"),
}
PLATFORM_CONFIG_DIRS = ("{arch}/data/platform_config", "compiler/data/platform_config")


@dataclass(frozen=True)
class Toolkit:
    """One installed CANN toolkit."""

    version: CannVersion
    root: Path                      # the toolkit directory (what ASCEND_HOME_PATH names)
    version_file: Path
    found_via: str                  # "$ASCEND_HOME_PATH" or "/usr/local/Ascend/ascend-toolkit/latest"
    arch_dir: Path | None = None    # <root>/<arch>-linux
    tools: dict = field(default_factory=dict, compare=False)   # name -> Path
    socs: tuple[str, ...] | None = None   # SoC names with a platform_config ini; None: no such dir
    platform_dir: Path | None = None      # the platform_config directory those inis live in

    @property
    def id(self) -> str:
        return f"cann-{self.version}"

    def tool(self, name: str) -> Path | None:
        return self.tools.get(name)

    def opp_abi_range(self) -> str | None:
        """required_opp_abi_version of the toolkit's runtime (runtime/version.info, else
        compiler/version.info): the custom-op compiler versions (major.minor of a package's
        custom_opp_compiler_version) this runtime loads, e.g. ">=6.3, <=7.7" in CANN 8.1.RC1."""
        for rel in ("runtime/version.info", "compiler/version.info"):
            text = _key(self.root / rel, "required_opp_abi_version")
            if text:
                return text
        return None

    def supports_soc(self, soc_name: str) -> bool | None:
        if self.socs is None:
            return None
        return soc_name.lower() in {s.lower() for s in self.socs}

    def platform_version(self, soc_name: str) -> dict[str, str]:
        """The [version] section of platform_config/<SoC>.ini (SoC_version, Short_SoC_version,
        CCEC_AIC_version, CCEC_AIV_version, ...); {} when the toolkit has no ini for the SoC."""
        if self.platform_dir is None:
            return {}
        return read_ini_section(self.platform_dir / f"{soc_name}.ini", "version")

    def fingerprint_inputs(self) -> list[Path]:
        """The compiler binaries and version files whose bytes identify this toolkit."""
        files = [self.version_file]
        for extra in (self.root / "version.cfg", self.root / "compiler" / "version.info"):
            if extra.is_file() and extra not in files:
                files.append(extra)
        files += [p for _, p in sorted(self.tools.items())]
        return files

    def fingerprint(self) -> str:
        return fingerprint_files(self.fingerprint_inputs(), base=self.root)

    def to_json(self) -> dict:
        return {"id": self.id, "version": str(self.version), "root": str(self.root),
                "version_file": str(self.version_file), "found_via": self.found_via,
                "tools": {k: str(v) for k, v in sorted(self.tools.items())},
                "socs": list(self.socs) if self.socs is not None else None}


@dataclass(frozen=True)
class Driver:
    version: DriverVersion
    version_file: Path
    found_via: str

    def to_json(self) -> dict:
        return {"version": str(self.version), "version_file": str(self.version_file),
                "found_via": self.found_via}


@dataclass(frozen=True)
class Installation:
    """What discovery found: toolkits (in discovery order), the driver, and what was unreadable."""

    toolkits: tuple[Toolkit, ...]
    driver: Driver | None
    searched: tuple[str, ...]            # places looked at, for "nothing found" messages
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"toolkits": [t.to_json() for t in self.toolkits],
                "driver": self.driver.to_json() if self.driver else None,
                "searched": list(self.searched), "warnings": list(self.warnings)}


def ascend_roots(env=None, roots=None) -> list[Path]:
    env = os.environ if env is None else env
    if roots is not None:
        return [Path(r) for r in roots]
    if env.get("OPKG_ASCEND_ROOTS") is not None:
        return [Path(r) for r in env["OPKG_ASCEND_ROOTS"].split(os.pathsep) if r]
    found = [Path("/usr/local/Ascend")]
    if env.get("HOME"):
        found.append(Path(env["HOME"]) / "Ascend")
    return found


def discover(env=None, roots=None, install_info: str | Path | None = None) -> Installation:
    """Every toolkit and the driver visible from `env` (default os.environ) and `roots`."""
    env = os.environ if env is None else env
    root_dirs = ascend_roots(env, roots)
    candidates: list[tuple[Path, str]] = []
    for var in TOOLKIT_ENV_VARS:
        if env.get(var):
            candidates.append((Path(env[var]), f"${var}"))
    for root in root_dirs:
        tk = root / "ascend-toolkit"
        if (tk / "latest").is_dir():
            candidates.append((tk / "latest", str(tk / "latest")))
        if tk.is_dir():
            for sub in sorted(tk.iterdir()):
                if sub.name != "latest" and sub.is_dir():
                    candidates.append((sub, str(sub)))
        if (root / "cann").is_dir():
            candidates.append((root / "cann", str(root / "cann")))
        if root.is_dir():
            for sub in sorted(root.glob("cann-*")):
                if sub.is_dir():
                    candidates.append((sub, str(sub)))

    toolkits: list[Toolkit] = []
    seen: set[Path] = set()
    warnings: list[str] = []
    for path, via in candidates:
        try:
            real = path.resolve()
        except OSError:
            continue
        if real in seen or not path.is_dir():
            if not path.is_dir() and via.startswith("$"):
                warnings.append(f"{via} is {path}, which is not a directory")
            continue
        seen.add(real)
        toolkit, problem = read_toolkit(path, via)
        if toolkit is not None:
            toolkits.append(toolkit)
        elif problem:
            warnings.append(problem)

    driver, driver_warnings = find_driver(root_dirs, env, install_info)
    searched = [f"${v}" for v in TOOLKIT_ENV_VARS] + [str(r) for r in root_dirs]
    return Installation(tuple(toolkits), driver, tuple(searched),
                        tuple(warnings + driver_warnings))


def read_toolkit(path: Path, via: str) -> tuple[Toolkit | None, str | None]:
    """A Toolkit for one directory, or (None, why not) when it holds no readable version."""
    arch_dirs = sorted(p for p in path.glob("*-linux") if p.is_dir())
    version = version_file = None
    arch_dir = None
    for ad in arch_dirs:
        info = ad / "ascend_toolkit_install.info"
        if info.is_file():
            text = _key(info, "version")
            if text is None:
                return None, f"{info}: no 'version=' line"
            version, version_file, arch_dir = text, info, ad
            break
    if version is None:
        cfg = path / "version.cfg"
        if cfg.is_file():
            version, version_file = _version_cfg(cfg), cfg
            if version is None:
                return None, f"{cfg}: no CANN version found in it"
            arch_dir = arch_dirs[0] if arch_dirs else None
    if version is None:
        # An ascend-toolkit/ entry with no version files (set_env.sh, a stray dir) is not a toolkit.
        return None, (f"{via} ({path}) has no <arch>-linux/ascend_toolkit_install.info or "
                      f"version.cfg" if via.startswith("$") else None)
    try:
        cann = parse_cann(version)
    except VersionError as exc:
        return None, f"{version_file}: {exc.message}"
    tools = {}
    for name, rels in TOOL_PATHS.items():
        for rel in rels:
            candidate = path / rel
            if candidate.is_file():
                tools[name] = candidate
                break
    socs = platform_dir = None
    for pattern in PLATFORM_CONFIG_DIRS:
        if "{arch}" in pattern and arch_dir is None:
            continue
        d = path / pattern.format(arch=arch_dir.name if arch_dir else "")
        if d.is_dir():
            socs = tuple(sorted(p.stem for p in d.glob("*.ini")))
            platform_dir = d
            break
    return Toolkit(cann, path, version_file, via, arch_dir, tools, socs, platform_dir), None


def read_ini_section(path: Path, section: str) -> dict[str, str]:
    """key=value pairs of one [section] of a platform_config ini ({} when unreadable). The inis
    carry '#' comment lines and keys configparser would lower-case, so they are read by hand."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return {}
    out: dict[str, str] = {}
    current = None
    for line in lines:
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            continue
        key, sep, value = line.partition("=")
        if sep and current == section:
            out[key.strip()] = value.strip()
    return out


def find_driver(root_dirs, env, install_info=None) -> tuple[Driver | None, list[str]]:
    warnings: list[str] = []
    candidates: list[tuple[Path, str]] = []
    if install_info is None:
        install_info = env.get("OPKG_ASCEND_INSTALL_INFO", DEFAULT_INSTALL_INFO)
    if install_info:
        info = Path(install_info)
        if info.is_file():
            base = _key(info, "Driver_Install_Path_Param")
            if base:
                candidates.append((Path(base) / "driver" / "version.info", str(info)))
    for root in root_dirs:
        candidates.append((root / "driver" / "version.info", str(root / "driver")))
    for path, via in candidates:
        if not path.is_file():
            continue
        text = _key(path, "Version")
        if text is None:
            warnings.append(f"{path}: no 'Version=' line")
            continue
        try:
            return Driver(parse_driver(text), path, via), warnings
        except VersionError as exc:
            warnings.append(f"{path}: {exc.message}")
    return None, warnings


def fingerprint_files(paths, base: Path | None = None) -> str:
    """sha256 over each file's name (relative to base) and bytes, in the given order."""
    h = hashlib.sha256()
    for p in paths:
        p = Path(p)
        name = str(p.relative_to(base)) if base is not None and p.is_relative_to(base) else p.name
        h.update(name.encode() + b"\0")
        st = p.stat()
        h.update(_file_digest(str(p), st.st_size, st.st_mtime_ns).encode() + b"\0")
    return "sha256:" + h.hexdigest()


@lru_cache(maxsize=256)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """A file's sha256; compiler binaries are large and a lock asks once per target, so the
    digest is kept while the file's size and mtime are unchanged."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _key(path: Path, key: str) -> str | None:
    """The value of `key=value` in a CANN info file (keys compared case-insensitively)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in lines:
        name, sep, value = line.partition("=")
        if sep and name.strip().lower() == key.lower():
            return value.strip().strip('"') or None
    return None


_CFG_LINE = re.compile(r"^\s*(\w+)_running_version\s*=\s*\[([^\]]*)\]", re.M)


def _version_cfg(path: Path) -> str | None:
    """The CANN version in version.cfg: a `version=` line, else the text after the colon of
    toolkit_running_version (any *_running_version when the toolkit line is absent). The text
    before the colon is an inner build number (7.7.0.1.238), never the CANN version."""
    direct = _key(path, "version")
    if direct:
        return direct
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return None
    found = {}
    for m in _CFG_LINE.finditer(text):
        inner, sep, cann = m.group(2).partition(":")
        found.setdefault(m.group(1), (cann if sep else inner).strip())
    for package in ("toolkit", *found):
        value = found.get(package)
        if value:
            try:
                parse_cann(value)
                return value
            except VersionError:
                continue
    return None
