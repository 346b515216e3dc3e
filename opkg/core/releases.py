"""Known CANN releases: toolchains/cann_releases.yaml -> ReleaseInfo rows.

The workspace's own file wins over opkg's shipped copy (opkg/toolchains_builtin/), as for the
SoC table. Resolution and `opkg toolchain check` ask a release for its driver minimum and SoC
support; the CANN backend asks for its msopgen framework and what its project template does
differently (param JSON fields, opc's impl mode, extra tiling libraries). bisheng's flags are
not here: opc chooses them. A value the file does not give is None: callers report "not known"
rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from opkg.core.errors import Location, ManifestError, VersionError
from opkg.core.versions import CannVersion, Specifier, driver_spec, parse_cann

BUILTIN = Path(__file__).resolve().parent.parent / "toolchains_builtin" / "cann_releases.yaml"
RELEASE_KEYS = ("driver", "socs", "msopgen_framework", "bin_param_fields", "opc_impl_mode",
                "tiling_extra_libs")
# keys of older tables: opkg once called bisheng itself; opc now chooses bisheng's flags
OBSOLETE_KEYS = ("bisheng_flags", "bisheng_extra_flags", "arch_flags", "defaults")
ALL_SOCS = "all"


@dataclass(frozen=True)
class ReleaseInfo:
    version: CannVersion
    driver: dict = field(default_factory=dict)       # short SoC name or 'all' -> Specifier
    socs: tuple[str, ...] | None = None               # None: not known from the data
    msopgen_framework: str | None = None
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

    def get(self, version) -> ReleaseInfo | None:
        return self.releases.get(parse_cann(version))

    def info(self, version) -> ReleaseInfo:
        """The row for a version, or an empty row that knows nothing."""
        v = parse_cann(version)
        return self.releases.get(v) or ReleaseInfo(v)

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
    from opkg.core import yamlloc

    where = Location(path)
    data = yamlloc.load_data(path) or {}  # size, depth and alias limits, file:line errors
    if not isinstance(data, dict) or not isinstance(data.get("releases", {}), dict):
        raise ManifestError("the CANN release table needs a 'releases:' mapping", location=where,
                            hint="releases: {\"8.0.RC2\": {driver: {all: \">=24.1.rc1\"}}}")
    _refuse_obsolete(data, where, None)
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
        _refuse_obsolete(row, where, name)
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
        fields = row.get("bin_param_fields") or {}
        if not isinstance(fields, dict):
            raise ManifestError("bin_param_fields must be a mapping", location=where,
                                field=f"{name}.bin_param_fields",
                                hint="bin_param_fields: {format_match_mode: FormatAgnostic}")
        releases[version] = ReleaseInfo(version, driver, socs, row.get("msopgen_framework"),
                                        dict(fields), str(row.get("opc_impl_mode") or ""),
                                        _flags(row.get("tiling_extra_libs", []), where,
                                               f"{name}.tiling_extra_libs"))
    return ReleaseTable(path, releases)


def _refuse_obsolete(mapping: dict, where: Location, prefix: str | None) -> None:
    for key in OBSOLETE_KEYS:
        if key in mapping and (prefix is None) == (key in ("arch_flags", "defaults")):
            field_ = f"{prefix}.{key}" if prefix else key
            raise ManifestError(f"{field_} is no longer read: opc chooses bisheng's flags for "
                                "each SoC", location=where, field=field_,
                                hint=f"delete {key} from the table")


def _flags(value, where: Location, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError("expected a list of strings", location=where, field=name,
                            hint="tiling_extra_libs: [nnopbase]")
    return tuple(value)
