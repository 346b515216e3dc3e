"""`opkg clean`: remove build outputs, and with --cache the shared build cache."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import click

from opkg.core.errors import UsageError


def _registry_inside(path: Path) -> Path | None:
    """A registry (published versions: nothing rebuilds them) at or below `path`, however it
    got there (--registry on a publish, an earlier configuration)."""
    from opkg.registry.store import Store

    for dirpath, dirnames, _ in os.walk(path):
        store = Store(Path(dirpath))
        if store.blobs.is_dir() and store.records.is_dir():
            return Path(dirpath)
    return None


def _remove(path: Path, marker: str) -> bool:
    """Rename first, then delete: an interrupted clean never leaves a half-deleted tree where
    a build would look. Only a directory opkg made (it holds `marker`) and that holds no
    registry is ever deleted."""
    if not path.exists():
        return False
    if not (path / marker).exists():
        raise UsageError(f"refusing to delete {path}: it does not look like a directory opkg "
                         f"created (no {marker} inside)",
                         hint="check output_dir / cache_dir in opkg-workspace.yaml and "
                              "$OPKG_CACHE_DIR; delete it by hand if it really is opkg's")
    registry = _registry_inside(path)
    if registry is not None:
        raise UsageError(f"refusing to delete {path}: it holds the registry {registry}",
                         hint="`opkg clean` never deletes published versions; move the "
                              "registry out (and point 'registry:' or $OPKG_REGISTRY at its "
                              "new place), then clean again")
    doomed = path.with_name(f".{path.name}.deleting-{os.getpid()}")
    os.replace(path, doomed)
    shutil.rmtree(doomed, ignore_errors=True)
    return True


@click.command()
@click.option("--cache", is_flag=True, help="Also remove the build cache (shared by checkouts).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def clean(cache, as_json):
    """Remove the output directory (and with --cache, the build cache).

    \b
    Examples:
      opkg clean             next build restores from the cache
      opkg clean --cache     next build compiles everything
    """
    from opkg.core.workspace import Workspace

    from opkg.build.wslock import exclusive_or_refuse

    ws = Workspace.find()
    # markers: every build writes out/.opkg/; SCons' CacheDir writes scons/config
    paths = [(ws.settings.output_dir, ".opkg")]
    if cache:
        paths.append((ws.settings.cache_dir, "scons"))
    # a build running here would lose its outputs and SCons' database mid-way: refuse
    removed, absent = [], []
    with exclusive_or_refuse(ws.settings.output_dir, "clean"):
        for path, marker in paths:
            (removed if _remove(path, marker) else absent).append(str(path))
            if not as_json:
                click.echo(f"{'removed' if str(path) in removed else 'nothing at'} {path}")
    if as_json:
        from opkg.ui.ci_output import emit_json

        emit_json({"removed": removed, "absent": absent})
