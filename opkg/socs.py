"""The SoC table: toolchains/socs.yaml -> SocInfo rows.

A workspace's own `toolchains/socs.yaml` is read when it exists; otherwise opkg's copy shipped
in opkg/toolchains_builtin/. Family rows give defaults that each SoC row may override.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from opkg.errors import ManifestError, Location, did_you_mean
from opkg.model import SocInfo

BUILTIN_DIR = Path(__file__).parent / "toolchains_builtin"


def table_path(workspace_root: Path | None) -> Path:
    if workspace_root is not None:
        own = workspace_root / "toolchains" / "socs.yaml"
        if own.is_file():
            return own
    return BUILTIN_DIR / "socs.yaml"


@lru_cache(maxsize=8)
def _load(path: Path) -> dict[str, SocInfo]:
    import yaml

    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ManifestError(f"cannot read the SoC table: {exc}", location=Location(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("socs"), dict):
        raise ManifestError("the SoC table needs a 'socs:' mapping", location=Location(path))
    families = data.get("families") or {}
    table: dict[str, SocInfo] = {}
    for name, row in data["socs"].items():
        row = dict(row or {})
        family = row.get("family")
        if family not in families:
            raise ManifestError(f"SoC {name}: unknown family {family!r}", location=Location(path),
                                hint=f"families: {', '.join(sorted(families))}")
        merged = {**families[family], **row, "name": name}
        merged.setdefault("vector_cores", None)
        merged.setdefault("cube_cores", None)
        # Keys SocInfo has no field for (l2_bytes, ...) stay available in .extra.
        extra = {k: v for k, v in merged.items() if k not in SocInfo.__dataclass_fields__}
        try:
            table[name] = SocInfo(**{k: v for k, v in merged.items() if k not in extra},
                                  extra=extra)
        except TypeError as exc:
            raise ManifestError(f"SoC {name}: {exc}", location=Location(path)) from None
    return table


def soc_table(workspace_root: Path | None = None) -> dict[str, SocInfo]:
    return _load(table_path(workspace_root))


def get_soc(name: str, workspace_root: Path | None = None) -> SocInfo:
    table = soc_table(workspace_root)
    if name not in table:
        raise ManifestError(f"unknown SoC {name!r}",
                            hint=did_you_mean(name, table) or f"known SoCs: {', '.join(table)}")
    return table[name]
