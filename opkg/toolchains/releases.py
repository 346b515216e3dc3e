"""Known CANN releases: toolchains/cann_releases.yaml -> ReleaseInfo rows.

The workspace's own file wins over opkg's shipped copy (opkg/toolchains_builtin/), as for the
SoC table. Resolution and `opkg toolchain check` ask a release for its driver minimum and SoC
support; the CANN backend asks for its msopgen framework, bisheng flags and the flags of a core
arch (`arch_flags`, keyed by the --cce-aicore-arch a SoC's platform_config ini names). A value the file
does not give is None: callers report "not known" rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from opkg.errors import Location, ManifestError, VersionError
from opkg.versions import CannVersion, Specifier, driver_spec, parse_cann

BUILTIN = Path(__file__).resolve().parent.parent / "toolchains_builtin" / "cann_releases.yaml"
RELEASE_KEYS = ("driver", "socs", "msopgen_framework", "bisheng_flags", "bisheng_extra_flags",
                "bin_param_fields", "opc_impl_mode", "tiling_extra_libs")
ALL_SOCS = "all"


@dataclass(frozen=True)
class ReleaseInfo:
    version: CannVersion
    driver: dict = field(default_factory=dict)       # short SoC name or 'all' -> Specifier
    socs: tuple[str, ...] | None = None               # None: not known from the data
    msopgen_framework: str | None = None
    bisheng_flags: tuple[str, ...] = ()
    bin_param_fields: dict = field(default_factory=dict)   # extra fields of each param tensor
    opc_impl_mode: str = ""                                # opc --impl_mode=
    tiling_extra_libs: tuple[str, ...] = ()                # linked first into the tiling lib

    def driver_spec(self, short: str) -> Specifier | None:
        """The driver this release needs for a SoC, or None when the data does not say."""
        return self.driver.get(short) or self.driver.get(ALL_SOCS)

    def supports(self, short: str) -> bool | None:
        if self.socs is None:
            return None
        return short in self.socs


@dataclass(frozen=True)
class ReleaseTable:
    path: Path
    releases: dict          # CannVersion -> ReleaseInfo
    default_bisheng_flags: tuple[str, ...]
    arch_flags: dict = field(default_factory=dict)   # core arch (dav-m200) -> flags

    def flags_for_arch(self, arch: str) -> tuple[str, ...] | None:
        """bisheng's flags for one --cce-aicore-arch, or None when the table does not know it."""
        return self.arch_flags.get(arch)

    def get(self, version) -> ReleaseInfo | None:
        return self.releases.get(parse_cann(version))

    def info(self, version) -> ReleaseInfo:
        """The row for a version, or an empty row that knows only the defaults."""
        v = parse_cann(version)
        return self.releases.get(v) or ReleaseInfo(v, bisheng_flags=self.default_bisheng_flags)

    def versions(self) -> list[CannVersion]:
        return sorted(self.releases)


def table_path(workspace_root: Path | None) -> Path:
    if workspace_root is not None:
        own = Path(workspace_root) / "toolchains" / "cann_releases.yaml"
        if own.is_file():
            return own
    return BUILTIN


def release_table(workspace_root: Path | None = None) -> ReleaseTable:
    return _load(table_path(workspace_root))


@lru_cache(maxsize=8)
def _load(path: Path) -> ReleaseTable:
    from opkg import yamlloc

    where = Location(path)
    data = yamlloc.load_data(path) or {}  # size, depth and alias limits, file:line errors
    if not isinstance(data, dict) or not isinstance(data.get("releases", {}), dict):
        raise ManifestError("the CANN release table needs a 'releases:' mapping", location=where,
                            hint="releases: {\"8.0.RC2\": {driver: {all: \">=24.1.rc1\"}}}")
    defaults = data.get("defaults") or {}
    default_flags = _flags(defaults.get("bisheng_flags", []), where, "defaults.bisheng_flags")
    arch_flags = data.get("arch_flags") or {}
    if not isinstance(arch_flags, dict):
        raise ManifestError("arch_flags must map a core arch to a list of flags", location=where,
                            field="arch_flags", hint="arch_flags: {dav-m200: [--cce-mask-opt]}")
    arch_flags = {str(k): _flags(v, where, f"arch_flags.{k}") for k, v in arch_flags.items()}
    releases = {}
    for key, row in (data.get("releases") or {}).items():
        name = f"releases.{key}"
        try:
            version = parse_cann(str(key), location=where, field=name)
        except VersionError as exc:
            raise ManifestError(exc.message, location=where, field=name, hint=exc.hint) from None
        row = row or {}
        if not isinstance(row, dict):
            raise ManifestError("a release row must be a mapping", location=where, field=name,
                                hint=f"keys: {', '.join(RELEASE_KEYS)}")
        unknown = sorted(set(row) - set(RELEASE_KEYS))
        if unknown:
            raise ManifestError(f"unknown key {unknown[0]!r}", location=where, field=name,
                                hint=f"keys: {', '.join(RELEASE_KEYS)}")
        driver = {}
        for short, spec in (row.get("driver") or {}).items():
            try:
                driver[str(short)] = driver_spec(spec, location=where,
                                                 field=f"{name}.driver.{short}")
            except VersionError as exc:
                raise ManifestError(exc.message, location=where, field=exc.field,
                                    hint=exc.hint) from None
        socs = row.get("socs")
        if socs is not None:
            if not isinstance(socs, list) or not all(isinstance(s, str) for s in socs):
                raise ManifestError("socs must be a list of short SoC names", location=where,
                                    field=f"{name}.socs", hint="socs: [ascend910b, ascend310p]")
            socs = tuple(socs)
        flags = (_flags(row["bisheng_flags"], where, f"{name}.bisheng_flags")
                 if "bisheng_flags" in row else default_flags)
        flags += _flags(row.get("bisheng_extra_flags", []), where, f"{name}.bisheng_extra_flags")
        fields = row.get("bin_param_fields") or {}
        if not isinstance(fields, dict):
            raise ManifestError("bin_param_fields must be a mapping", location=where,
                                field=f"{name}.bin_param_fields",
                                hint="bin_param_fields: {format_match_mode: FormatAgnostic}")
        releases[version] = ReleaseInfo(version, driver, socs, row.get("msopgen_framework"), flags,
                                        dict(fields), str(row.get("opc_impl_mode") or ""),
                                        _flags(row.get("tiling_extra_libs", []), where,
                                               f"{name}.tiling_extra_libs"))
    return ReleaseTable(path, releases, default_flags, arch_flags)


def _flags(value, where: Location, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError("expected a list of strings", location=where, field=name,
                            hint="bisheng_flags: [-O2, -std=c++17]")
    return tuple(value)
