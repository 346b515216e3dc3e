"""`opkg yank` / `opkg unyank`: hide a version from selection without deleting it."""

from __future__ import annotations

import click

from opkg.ui.ci_output import emit_json
from opkg.cli.options import complete_published
from opkg.cli._registry import json_option, open_store, registry_option


@click.command()
@click.argument("package", metavar="NAME==VERSION", shell_complete=complete_published)
@click.option("--reason", required=True, help="Why users should not pick this version.")
@registry_option
@json_option
def yank(package, reason, registry, as_json):
    """Yank a published version: installs skip it unless pinned exactly (NAME==VERSION).

    Nothing is deleted; the record and bundles stay, so pinned users keep working.

    \b
    Examples:
      opkg yank add_custom==1.0.0 --reason "wrong results for odd row counts"
      opkg unyank add_custom==1.0.0
    """
    from opkg.registry.yank import parse_pinned, yank as do_yank

    name, version = parse_pinned(package)
    store = open_store(registry)
    published, changed = do_yank(store, name, version, reason)
    if as_json:
        emit_json({"name": name, "version": published, "yanked": True, "reason": reason,
                   "changed": changed}, sort_keys=True)
    else:
        click.echo(f"yanked {name} {published}: {reason}" if changed
                   else f"{name} {published} was already yanked for that reason")
        click.echo(f"  installs skip it; `opkg install {name}=={published}` still "
                   f"installs it, with a warning; undo: opkg unyank {name}=={published}")


@click.command()
@click.argument("package", metavar="NAME==VERSION", shell_complete=complete_published)
@registry_option
@json_option
def unyank(package, registry, as_json):
    """Undo a yank: the version can be selected again.

    \b
    Examples:
      opkg unyank add_custom==1.0.0
    """
    from opkg.registry.yank import parse_pinned, unyank as do_unyank

    name, version = parse_pinned(package)
    store = open_store(registry)
    published, changed = do_unyank(store, name, version)
    if as_json:
        emit_json({"name": name, "version": published, "yanked": False, "changed": changed},
                  sort_keys=True)
    else:
        click.echo(f"unyanked {name} {published}" if changed
                   else f"{name} {published} is not yanked")
