"""`opkg completion bash|zsh|fish`: the shell script that completes opkg's commands, options,
target labels and SoC names (click's shell completion, asking `opkg` itself as you type)."""

from __future__ import annotations

import click

SHELLS = ("bash", "zsh", "fish")


def _workspace():
    from opkg.core.errors import OpkgError
    from opkg.core.workspace import Workspace

    try:
        ws = Workspace.find()
        ws.packages
        return ws
    except OpkgError:
        return None        # outside a workspace or a broken manifest: nothing to offer


def complete_targets(ctx, param, incomplete: str):
    """What a target can be, as typed: labels (//packages/NAME), the patterns of the package
    directories (//packages/..., //...), package names, and paths from here (packages/NAME)."""
    import os

    ws = _workspace()
    if ws is None:
        return []
    packages = ws.packages
    patterns = {"//..."}
    for label in packages:
        parts = label[2:].split("/")[:-1]
        patterns.update("//" + "/".join(parts[:i]) + "/..." for i in range(1, len(parts) + 1))
    words = [*packages, *sorted(patterns), *sorted(p.name for p in packages.values())]
    if not incomplete.startswith("/"):
        words += sorted(os.path.relpath(p.dir, os.getcwd()) for p in packages.values())
    return list(dict.fromkeys(w for w in words if w.startswith(incomplete)))


def complete_toolchains(ctx, param, incomplete: str):
    """sim, cann (the highest that fits) and cann-<version> of every CANN toolkit found."""
    from opkg.core.errors import OpkgError

    words = ["sim", "cann"]
    try:
        from opkg.toolchains.discovery import discover

        words += [t.id for t in discover().toolkits]
    except OpkgError:
        pass
    return [w for w in dict.fromkeys(words) if w.startswith(incomplete)]


def _selected(ctx):
    """The packages the targets typed so far select (all of them when none or unparsable)."""
    from opkg.core.errors import OpkgError

    ws = _workspace()
    if ws is None:
        return []
    try:
        return ws.select(list(ctx.params.get("targets") or []))
    except OpkgError:
        return list(ws.packages.values())


def complete_cases(ctx, param, incomplete: str):
    """Case names of the packages selected so far."""
    names = {c.name for p in _selected(ctx) if p.verify for c in p.verify.cases}
    return sorted(n for n in names if n.startswith(incomplete))


def complete_variants(ctx, param, incomplete: str):
    """Dtype variant names (float16, float16_float32, ...) of the packages selected so far."""
    names = {v.name for p in _selected(ctx) if p.op for v in p.op.variants()}
    return sorted(n for n in names if n.startswith(incomplete))


def complete_published(ctx, param, incomplete: str):
    """Published package names, and NAME==VERSION once a name is typed, from a directory
    registry (an OCI registry is not asked: completion must not wait on the network)."""
    from pathlib import Path

    from opkg.core.errors import OpkgError

    try:
        from opkg.registry.location import registry_root
        from opkg.registry.store import Store

        root = registry_root(ctx.params.get("registry"))
        if not isinstance(root, Path) or not root.is_dir():
            return []
        catalog = Store(root).catalog()
    except (OpkgError, OSError):
        return []
    words = sorted(catalog)
    name = incomplete.split("=", 1)[0]
    if name in catalog:
        words += [f"{name}=={e.version}" for e in catalog[name].values()]
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

    It completes commands, options, target labels, patterns, paths and package names, SoC
    names, toolchains, case and variant names, and published packages (of a directory
    registry), for both command names, `opkg` and `ascend-opkg`.

    \b
    Examples:
      eval "$(opkg completion bash)"          in ~/.bashrc
      eval "$(opkg completion zsh)"           in ~/.zshrc
      opkg completion fish > ~/.config/fish/completions/opkg.fish
    """
    from click.shell_completion import get_completion_class

    from opkg.cli import cli

    # one script per command name: `ascend-opkg` (the alias) runs the same program, which reads
    # _OPKG_COMPLETE whatever it was called as
    for name in ("opkg", "ascend-opkg"):
        click.echo(get_completion_class(shell)(cli, {}, name, "_OPKG_COMPLETE").source())
