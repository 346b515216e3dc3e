"""The SoC table: toolchains/socs.yaml -> SocInfo rows.

A workspace's own `toolchains/socs.yaml` is read when it exists; otherwise opkg's copy shipped
in opkg/toolchains_builtin/. Family rows give defaults that each SoC row may override. A
workspace loads its table once (`Workspace.socs`) and hands it down as a value; `soc_table` and
`get_soc` serve code that has no workspace (the builtin table, or a root given explicitly).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from opkg.core import yamlloc
from opkg.core.errors import ManifestError, Location, did_you_mean
from opkg.core.model import SocInfo

BUILTIN_DIR = Path(__file__).parent.parent / "toolchains_builtin"


def table_path(workspace_root: Path | None) -> Path:
    if workspace_root is not None:
        own = workspace_root / "toolchains" / "socs.yaml"
        if own.is_file():
            return own
    return BUILTIN_DIR / "socs.yaml"


# Kernel profile model fields (opkg/sim/profile.py): positive numbers when present.
MODEL_FIELDS = {"gm_bandwidth_gbps": "GB/s", "clock_ghz": "GHz", "vector_bytes_per_cycle": "bytes per cycle"}


class SocTable(dict):
    """SoC name -> SocInfo, in the table's order."""

    def get_soc(self, name: str) -> SocInfo:
        if name not in self:
            raise ManifestError(f"unknown SoC {name!r}",
                                hint=did_you_mean(name, self) or f"known SoCs: {', '.join(self)}")
        return self[name]


@lru_cache(maxsize=8)
def _load(path: Path) -> SocTable:
    doc = yamlloc.load(path)
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("socs"), dict):
        raise ManifestError("the SoC table needs a 'socs:' mapping", location=Location(path))
    families = data.get("families") or {}
    if not isinstance(families, dict):
        raise ManifestError("'families:' must be a mapping of family name to fields",
                            location=doc.loc(("families",)))
    for where, rows in (("families", families), ("socs", data["socs"])):
        for name, row in rows.items():
            if row is not None and not isinstance(row, dict):
                raise ManifestError(f"{name}: expected a mapping of fields, got {type(row).__name__}",
                                    location=doc.loc((where, name)), hint="e.g. {family: c220, vector_cores: 48}")
    for fam, row in families.items():
        _check_model_fields(doc, ("families", fam), row or {})
    table = SocTable()
    for name, row in data["socs"].items():
        row = dict(row or {})
        family = row.get("family")
        if family not in families:
            raise ManifestError(f"SoC {name}: unknown family {family!r}", location=doc.loc(("socs", name)),
                                hint=f"families: {', '.join(sorted(families))}")
        _check_model_fields(doc, ("socs", name), row)
        merged = {**families[family], **row, "name": name}
        merged.setdefault("vector_cores", None)
        merged.setdefault("cube_cores", None)
        # Keys SocInfo has no field for stay available in .extra.
        extra = {k: v for k, v in merged.items() if k not in SocInfo.__dataclass_fields__}
        try:
            table[name] = SocInfo(**{k: v for k, v in merged.items() if k not in extra},
                                  extra=extra)
        except TypeError as exc:
            raise ManifestError(f"SoC {name}: {exc}", location=doc.loc(("socs", name))) from None
    return table


def _check_model_fields(doc: yamlloc.Document, where: tuple, row: dict) -> None:
    platform = row.get("platform")
    if platform is not None and not (isinstance(platform, dict) and all(
            isinstance(keys, dict) and all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                           for v in keys.values()) for keys in platform.values())):
        raise doc.error(where + ("platform",), "must map platform-config labels to {key: value} mappings",
                        hint="e.g. platform: {AICoreintrinsicDtypeMap: {Intrinsic_fix_pipe_l0c2out: \"f32,s32,f16\"}}")
    for key, unit in MODEL_FIELDS.items():
        if key not in row:
            continue
        value = row[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise doc.error(where + (key,), f"must be a positive number ({unit}), got {value!r}",
                            hint="leave the field out when the figure is not publicly known; "
                                 "the profile then names it instead of guessing")


def soc_table(workspace_root: Path | None = None) -> SocTable:
    return _load(table_path(workspace_root))


def get_soc(name: str, workspace_root: Path | None = None) -> SocInfo:
    return soc_table(workspace_root).get_soc(name)
