"""Which directory is the registry: --registry DIR, else $OPKG_REGISTRY, else the workspace's
`registry:` setting (default <workspace>/registry). Outside a workspace only the first two work,
so a registry can be installed from anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

from opkg.errors import UsageError

ENV = "OPKG_REGISTRY"


def registry_root(option: str | os.PathLike | None = None, start: Path | None = None) -> Path:
    if option:
        return Path(option).expanduser().absolute()
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser().absolute()
    from opkg.workspace import WORKSPACE_FILE, Workspace

    here = (start or Path.cwd()).resolve()
    if not any((d / WORKSPACE_FILE).is_file() for d in (here, *here.parents)):
        raise UsageError("no registry given and not inside an opkg workspace",
                         hint=f"pass --registry DIR or set {ENV}")
    return Workspace.find(here).settings.registry
