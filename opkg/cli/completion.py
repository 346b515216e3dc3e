"""`opkg completion bash|zsh|fish`: the shell script that completes opkg's commands, options,
target labels and SoC names (click's shell completion, asking `opkg` itself as you type)."""

from __future__ import annotations

import click

SHELLS = ("bash", "zsh", "fish")


def complete_targets(ctx, param, incomplete: str):
    """Labels (//packages/NAME) and package names of the workspace that start as typed."""
    from opkg.core.errors import OpkgError
    from opkg.core.workspace import Workspace

    try:
        packages = Workspace.find().packages
    except OpkgError:
        return []          # outside a workspace or a broken manifest: nothing to offer
    words = list(packages) + ["//..."] + sorted(p.name for p in packages.values())
    return [w for w in words if w.startswith(incomplete)]


def complete_socs(ctx, param, incomplete: str):
    """SoC names known to the workspace's SoC table (toolchains/socs.yaml, else built in)."""
    from opkg.core.errors import OpkgError
    from opkg.core.socs import soc_table

    root = None
    try:
        from opkg.core.workspace import Workspace

        root = Workspace.find().root
    except OpkgError:
        pass
    try:
        return [s for s in soc_table(root) if s.startswith(incomplete)]
    except OpkgError:
        return []


@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
def completion(shell):
    """Print the shell completion script for SHELL.

    It completes commands, options, target labels and package names, and SoC names.

    \b
    Examples:
      eval "$(opkg completion bash)"          in ~/.bashrc
      eval "$(opkg completion zsh)"           in ~/.zshrc
      opkg completion fish > ~/.config/fish/completions/opkg.fish
    """
    from click.shell_completion import get_completion_class

    from opkg.cli import cli

    script = get_completion_class(shell)(cli, {}, "opkg", "_OPKG_COMPLETE").source()
    click.echo(script)
