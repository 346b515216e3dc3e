"""`opkg clean`: remove build outputs, and with --cache the shared build cache."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import click


def _remove(path: Path) -> bool:
    """Rename first, then delete: an interrupted clean never leaves a half-deleted tree where
    a build would look."""
    if not path.exists():
        return False
    doomed = path.with_name(f".{path.name}.deleting-{os.getpid()}")
    os.replace(path, doomed)
    shutil.rmtree(doomed, ignore_errors=True)
    return True


@click.command()
@click.option("--cache", is_flag=True, help="Also remove the build cache (shared by checkouts).")
def clean(cache):
    """Remove the output directory (and with --cache, the build cache).

    \b
    Examples:
      opkg clean             next build restores from the cache
      opkg clean --cache     next build compiles everything
    """
    from opkg.workspace import Workspace

    ws = Workspace.find()
    paths = [ws.settings.output_dir] + ([ws.settings.cache_dir] if cache else [])
    for path in paths:
        click.echo(f"{'removed' if _remove(path) else 'nothing at'} {path}")
