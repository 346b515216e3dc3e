"""`opkg registry ...`: maintenance of the registry itself."""

from __future__ import annotations

import click

from opkg.ui.ci_output import emit_json
from opkg.cli._registry import json_option, open_store, registry_option


@click.group()
def registry():
    """Inspect and repair the registry.

    \b
    Examples:
      opkg registry check
      opkg registry check --repair --registry /shared/opkg-registry
    """


@registry.command()
@click.option("--repair", is_flag=True, help="Rebuild the index from the records and clear old "
              "staging files (never changes records or blobs).")
@registry_option
@json_option
def check(repair, registry, as_json):
    """Recompute every digest; report missing or corrupt blobs, modified or dangling records,
    and a malformed index. Exits 1 if anything is wrong. On an OCI registry: every version
    manifest, bundle manifest and blob is downloaded and hashed; `--repair` re-points bundle
    tags at the bundles their version lists.

    \b
    Examples:
      opkg registry check
      opkg registry check --json
      opkg registry check --repair
      opkg registry check --registry oci://registry.example.com/opkg
    """
    from opkg.core.errors import RegistryError

    store = open_store(registry)
    report = store.check(repair=repair)
    if as_json:
        emit_json(report.to_json(), sort_keys=True)
    else:
        for r in report.repaired:
            click.echo(f"repaired: {r}")
        for p in report.problems:
            click.echo(f"{p.severity}: {p.where}: {p.message}", err=p.severity == "error")
        click.echo(f"checked {report.versions} version(s) of {report.packages} package(s), "
                   f"{report.blobs} blob(s): "
                   + ("ok" if report.ok else f"{len(report.errors)} error(s)"))
    if report.ok:
        return
    if as_json:
        raise SystemExit(RegistryError.exit_code)  # the JSON already says what is wrong
    raise RegistryError(f"registry {store.root} has {len(report.errors)} problem(s)",
                        hint="tampered or missing files must be republished by their owners "
                             "(publishing the same bundle again restores a damaged or missing "
                             "blob); `--repair` fixes only the index")
