"""`opkg search`: find packages by name or summary in the registry index."""

from __future__ import annotations

import click

from opkg.ui.ci_output import emit_json
from opkg.cli._registry import json_option, open_store, registry_option


def latest(versions):
    """Highest non-yanked version entry, else the highest one."""
    ordered = sorted(versions.values(), key=lambda e: e.parsed, reverse=True)
    return next((e for e in ordered if not e.yanked), ordered[0])


@click.command()
@click.argument("text", required=False, default="")
@registry_option
@json_option
def search(text, registry, as_json):
    """Search published packages whose name or summary contains TEXT (all when omitted).

    \b
    Examples:
      opkg search norm
      opkg search --registry /shared/opkg-registry
      opkg search add --json
    """
    store = open_store(registry)
    catalog = store.catalog()
    needle = text.lower()
    rows = []
    for name, versions in sorted(catalog.items()):
        top = latest(versions)
        if needle and needle not in name.lower() and needle not in (top.summary or "").lower():
            continue
        rows.append((name, top, versions))
    if as_json:
        emit_json({"results": [
            {"name": n, "latest": t.version, "summary": t.summary, "socs": t.socs,
             "toolchains": t.toolchains,
             "versions": [{"version": e.version, "yanked": e.yanked, "yank_reason": e.reason}
                          for e in sorted(v.values(), key=lambda e: e.parsed)]}
            for n, t, v in rows]}, sort_keys=True)
        return
    if not rows:
        click.echo(f"no packages match {text!r}" if text else "the registry is empty")
        return
    width = max(len(n) for n, _, _ in rows)
    for name, top, versions in rows:
        flag = " (yanked)" if top.yanked else ""
        click.echo(f"{name:<{width}}  {top.version}{flag}  [{', '.join(top.socs)}; "
                   f"{', '.join(top.toolchains)}]  {top.summary}")
