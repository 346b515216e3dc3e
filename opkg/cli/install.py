"""`opkg install`: select, verify and unpack a published bundle (registry.install)."""

from __future__ import annotations

from pathlib import Path

import click

from opkg.cli.options import complete_published, complete_socs, complete_toolchains

from opkg.ui.ci_output import emit_json
from opkg.cli._registry import json_option, open_store, registry_option


@click.command()
@click.argument("requirement", metavar="NAME[==VERSION|SPEC]", shell_complete=complete_published)
@click.option("--soc", required=True, shell_complete=complete_socs, help="SoC the operator will run on, e.g. Ascend910B1.")
@click.option("--toolchain", default=None, shell_complete=complete_toolchains,
              help="Toolchain id of the bundle (sim, cann-8.0.RC2, ...); needed when several fit.")
@click.option("--dest", type=click.Path(file_okay=False), default=None,
              help="Install root (default: <workspace>/installed). CANN bundles go to "
                   "DEST/vendors/<vendor>, the layout ASCEND_CUSTOM_OPP_PATH expects.")
@click.option("--into-opp", "into_opp", is_flag=True,
              help="CANN bundles: also run the bundle's custom_opp_<os>_<arch>.run without "
                   "--install-path, installing into $ASCEND_OPP_PATH/vendors/<vendor> first in "
                   "vendors/config.ini, as a CMake-built package installs (nothing to export).")
@click.option("--print-env", "print_env", is_flag=True,
              help="Print only the shell exports the installed package needs on stdout (messages "
                   "go to stderr): eval \"$(opkg install ... --print-env)\".")
@click.option("--force", is_flag=True, help="Install even if the local CANN/driver check fails "
              "or files opkg did not install (or another package owns) would be overwritten.")
@registry_option
@json_option
def install(requirement, soc, toolchain, dest, into_opp, print_env, force, registry, as_json):
    """Install the highest matching, non-yanked version of a package.

    The bundle is checked against the digest recorded at publish time before anything is
    unpacked. A yanked version is installed only when pinned exactly (==), with a warning.
    Installing what is already installed does nothing.

    A CANN bundle prints the environment its callers need: ASCEND_CUSTOM_OPP_PATH for the
    graph and opc, and LD_LIBRARY_PATH=<vendor>/op_api/lib for an aclnn caller, which loads
    libcust_opapi.so by name.

    \b
    Examples:
      opkg install add_custom --soc Ascend910B1 --dest /tmp/ops
      opkg install "layernorm>=1.0,<2" --soc Ascend910B1 --toolchain sim
      opkg install layernorm==1.0.0 --soc Ascend910B1 --toolchain cann-8.0.RC2 --dest /opt/ops
      opkg install layernorm --soc Ascend910B1 --toolchain cann-8.0.RC2 --into-opp
      eval "$(opkg install add_custom --soc Ascend910B1 --toolchain cann-8.0.RC2 --print-env)"
    """
    from opkg.core.errors import UsageError
    from opkg.registry.install import install as do_install

    store = open_store(registry)
    if dest is None:
        from opkg.core.workspace import Workspace
        try:
            dest = Workspace.find().root / "installed"
        except UsageError:
            raise UsageError("no --dest given and not inside an opkg workspace",
                             hint="pass --dest DIR") from None
    result = do_install(store, requirement, soc=soc, dest=Path(dest), toolchain=toolchain,
                        force=force)
    opp_vendors = None
    if into_opp:
        import os

        from opkg.registry.install import install_into_opp

        opp_vendors = install_into_opp(result, os.environ.get("ASCEND_OPP_PATH"))
    env = dict(result.env)
    if opp_vendors is not None:
        # the copy under $ASCEND_OPP_PATH is found through vendors/config.ini; its aclnn library
        # still needs LD_LIBRARY_PATH (install.sh says so), and it comes first
        from opkg.registry.install import op_api_lib_path

        files = [p.relative_to(opp_vendors.parent).as_posix()
                 for p in opp_vendors.glob("*/op_api/lib/*")]
        libs = op_api_lib_path(opp_vendors.parent, result.vendors, files)
        if libs:
            env["LD_LIBRARY_PATH"] = libs.removesuffix("${LD_LIBRARY_PATH}") + env.get(
                "LD_LIBRARY_PATH", "${LD_LIBRARY_PATH}")
    for w in result.warnings:
        click.secho(f"warning: {w}", err=True, fg="yellow")
    if as_json:
        data = {**result.to_json(), "env": env}
        if opp_vendors is not None:
            data["opp_vendors"] = str(opp_vendors)
        emit_json(data, sort_keys=True)
        return
    say = (lambda text: click.echo(text, err=True)) if print_env else click.echo
    if result.status == "unchanged":
        say(f"{result.name} {result.version} ({result.soc}/{result.toolchain}) is already "
            f"installed in {result.dest}")
    else:
        say(f"installed {result.name} {result.version} ({result.soc}/{result.toolchain}) "
            f"into {result.dest}: {result.files} file(s)")
    if opp_vendors is not None:
        say(f"  and into {opp_vendors} (first in its config.ini)")
    if print_env:
        for k, v in env.items():
            click.echo(f"export {k}={_shell_value(v)}")
        return
    for k, v in env.items():
        click.echo(f"  export {k}={v}")


def _shell_value(value: str) -> str:
    """Double-quoted for eval, keeping ${VAR} references live."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
