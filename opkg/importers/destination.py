"""Where a new or imported package goes: the package-name and op-type rules, the enclosing
workspace, and the checks made before anything is written (an empty destination, a name and op
type new to the workspace, known SoCs)."""

from __future__ import annotations

import re
from pathlib import Path

from opkg.core.errors import UsageError, did_you_mean


OP_TYPE_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")


NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def find_workspace():
    """The enclosing workspace (its settings validated), or None outside one."""
    from opkg.core.workspace import WORKSPACE_FILE, Workspace

    here = Path.cwd().resolve()
    for d in (here, *here.parents):
        if (d / WORKSPACE_FILE).is_file():
            return Workspace.load(d)
    return None


def workspace_root() -> Path | None:
    ws = find_workspace()
    return ws.root if ws is not None else None


def check_dest(dest: Path) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UsageError(f"{dest} already exists and is not empty",
                         hint="choose another --dest, or remove it first (opkg import "
                              "--force replaces a package there)")


def check_unique(name: str, op_type: str, replacing: Path | None = None) -> None:
    """A second package with a name or op type already in the workspace would break every
    later command: refuse before writing anything. `replacing`: the package directory an
    import with --force replaces, which does not count."""
    ws = find_workspace()
    if ws is None:
        return
    for pkg in ws.packages.values():
        if replacing is not None and pkg.dir.resolve() == replacing.resolve():
            continue
        if pkg.name == name:
            raise UsageError(f"the workspace already has a package named {name!r} "
                             f"({pkg.label})", hint="choose another name")
        if pkg.op is not None and pkg.op.type == op_type:
            raise UsageError(f"the workspace already has op type {op_type!r} ({pkg.label})",
                             hint="operator types are unique in a workspace; choose another")


def soc_rows(socs, root):
    from opkg.core.socs import soc_table

    table = soc_table(root)
    rows = []
    for s in socs:
        if s not in table:
            raise UsageError(f"unknown SoC {s!r}", field="--soc",
                             hint=did_you_mean(s, table) or f"known SoCs: {', '.join(table)}")
        rows.append(table[s])
    return rows
