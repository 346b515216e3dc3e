"""`opkg install`: select, verify and unpack a published bundle (registry.install)."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.ci_output import emit_json
from opkg.cli._registry import json_option, open_store, registry_option


@click.command()
@click.argument("requirement", metavar="NAME[==VERSION|SPEC]")
@click.option("--soc", required=True, help="SoC the operator will run on, e.g. Ascend910B1.")
@click.option("--toolchain", default=None,
              help="Toolchain id of the bundle (sim, cann-8.0.RC2, ...); needed when several fit.")
@click.option("--dest", type=click.Path(file_okay=False), default=None,
              help="Install root (default: <workspace>/installed). CANN bundles go to "
                   "DEST/vendors/<vendor>, the layout ASCEND_CUSTOM_OPP_PATH expects.")
@click.option("--force", is_flag=True, help="Install even if the local CANN/driver check fails "
              "or files opkg did not install (or another package owns) would be overwritten.")
@registry_option
@json_option
def install(requirement, soc, toolchain, dest, force, registry, as_json):
    """Install the highest matching, non-yanked version of a package.

    The bundle is checked against the digest recorded at publish time before anything is
    unpacked. A yanked version is installed only when pinned exactly (==), with a warning.
    Installing what is already installed does nothing.

    \b
    Examples:
      opkg install add_custom --soc Ascend910B1 --dest /tmp/ops
      opkg install "layernorm>=1.0,<2" --soc Ascend910B1 --toolchain sim
      opkg install layernorm==1.0.0 --soc Ascend910B1 --toolchain cann-8.0.RC2 --dest /opt/ops
    """
    from opkg.errors import UsageError
    from opkg.registry.install import install as do_install

    store = open_store(registry)
    if dest is None:
        from opkg.workspace import Workspace
        try:
            dest = Workspace.find().root / "installed"
        except UsageError:
            raise UsageError("no --dest given and not inside an opkg workspace",
                             hint="pass --dest DIR") from None
    result = do_install(store, requirement, soc=soc, dest=Path(dest), toolchain=toolchain,
                        force=force)
    for w in result.warnings:
        click.secho(f"warning: {w}", err=True, fg="yellow")
    if as_json:
        emit_json(result.to_json(), sort_keys=True)
        return
    if result.status == "unchanged":
        click.echo(f"{result.name} {result.version} ({result.soc}/{result.toolchain}) is already "
                   f"installed in {result.dest}")
    else:
        click.echo(f"installed {result.name} {result.version} ({result.soc}/{result.toolchain}) "
                   f"into {result.dest}: {result.files} file(s)")
    for k, v in result.env.items():
        click.echo(f"  export {k}={v}")
