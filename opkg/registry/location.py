"""Which registry: --registry DIR|URL, else $OPKG_REGISTRY, else the workspace's `registry:`
setting (default <workspace>/registry). Outside a workspace only the first two work, so a
registry can be installed from anywhere. A value starting with oci:// names an OCI registry
(oci.py); anything else is a directory (store.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from opkg.core.errors import UsageError
from opkg.core.settings import is_oci

ENV = "OPKG_REGISTRY"
def registry_root(option: str | os.PathLike | None = None, start: Path | None = None) -> Path | str:
    from opkg.core.settings import parse_location

    for given in (option, os.environ.get(ENV)):
        if given and is_oci(str(given)):
            parse_location(str(given))    # a malformed URL is a usage error here, not later
            return str(given)
        if given:
            return Path(given).expanduser().absolute()
    from opkg.core.workspace import WORKSPACE_FILE, Workspace

    here = (start or Path.cwd()).resolve()
    if not any((d / WORKSPACE_FILE).is_file() for d in (here, *here.parents)):
        raise UsageError("no registry given and not inside an opkg workspace",
                         hint=f"pass --registry DIR or oci://HOST/NAMESPACE, or set {ENV}")
    return Workspace.find(here).settings.registry

