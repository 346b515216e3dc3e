"""The `opkg` command line: one module per command, loaded only when that command runs.

COMMANDS is the single registration point. Keeping imports lazy keeps `opkg --help` and
`opkg --version` fast (no NumPy, no SCons). Every OpkgError is rendered by `main` with its
location and hint, and exits with the code its class carries; no traceback reaches a user.
"""

from __future__ import annotations

import importlib
import sys

import click

from opkg import __version__

# command name -> ("module:function", one-line help); add new commands here and nowhere else.
# The help line lives here so that `opkg --help` lists commands without importing them.
COMMANDS = {
    "build": ("opkg.cli.build:build", "Build, verify and bundle packages."),
    "test": ("opkg.cli.build:test", "Verify packages against their NumPy goldens and print the report."),
    "query": ("opkg.cli.query:query", "Inspect the package graph (deps, rdeps, packages)."),
    "profile": ("opkg.cli.profile:profile", "Kernel profile of built packages: a modelled time estimate, GM traffic, copies."),
    "report": ("opkg.cli.report:report", "Write an HTML report of built packages: cases, errors, profile, graph."),
    "clean": ("opkg.cli.clean:clean", "Remove build outputs (and optionally the cache)."),
    "cache": ("opkg.cli.cache:cache", "Build cache statistics and least-recently-used pruning."),
    "toolchain": ("opkg.cli.toolchain:toolchain", "List toolchains; check CANN/driver/SoC alignment."),
    "lock": ("opkg.cli.lock:lock", "Write opkg.lock: the resolved toolchain per (package, SoC)."),
    "publish": ("opkg.cli.publish:publish", "Build if needed, then publish verified bundles to the registry."),
    "search": ("opkg.cli.search:search", "Search the registry by name or summary."),
    "info": ("opkg.cli.info:info", "Show a published version: bundles, verification, provenance."),
    "install": ("opkg.cli.install:install", "Install a published operator (digest-checked)."),
    "yank": ("opkg.cli.yank:yank", "Yank a published version (kept, but skipped unless pinned)."),
    "unyank": ("opkg.cli.yank:unyank", "Undo a yank."),
    "registry": ("opkg.cli.registry:registry", "Check (and repair) the registry."),
    "new": ("opkg.cli.new:new", "Create an operator package from a template that builds as is."),
    "import": ("opkg.cli.import_:import_", "Turn an msopgen project into an operator package."),
    "init": ("opkg.cli.init:init", "Create a workspace: opkg-workspace.yaml, a sample package, .gitignore."),
    "schema": ("opkg.cli.schema:schema", "Print where the JSON Schemas of opkg.yaml and the workspace file are."),
    "completion": ("opkg.cli.completion:completion", "Print the shell completion script (bash, zsh, fish)."),
    "worker": ("opkg.cli.worker:worker", "Run build actions for a REAPI execution service (a BuildGrid bot)."),
    "shutdown": ("opkg.cli.serve:shutdown", "Stop this workspace's build server (opkg build --server)."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name][0].split(":")
        return getattr(importlib.import_module(module), attr)

    def resolve_command(self, ctx, args):
        # click suggests among the commands it holds; these are loaded on demand, so name them
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            raise click.exceptions.NoSuchCommand(click.utils.make_str(args[0]),
                                                 possibilities=list(COMMANDS), ctx=ctx) from None

    def format_commands(self, ctx, formatter):
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in sorted(COMMANDS)])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="opkg")
def cli():
    """opkg: build, verify and share Ascend C custom operators.

    \b
    Examples:
      opkg init my_ops                     a new workspace, with a sample package
      opkg build packages/layernorm        build, verify and bundle one package
      opkg build //...                     everything in the workspace
      opkg test //packages/add_custom      verification report only
      opkg query rdeps //packages/NAME     who depends on a package

    Without CANN, packages build with the built-in `sim` toolchain: the same Ascend C
    sources compiled with g++ and run on NumPy data.
    """


def main(argv=None):
    try:
        _main(argv)
    except KeyboardInterrupt:
        # another Ctrl-C (or SIGTERM) while the first was being answered: the same exit, not
        # death by SIGINT (status -2)
        _stop_interrupts()
        click.echo("interrupted", err=True)
        sys.exit(130)


def _stop_interrupts() -> None:
    """Once opkg answers an interrupt, more of them change nothing: ignored from here on."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)


def _main(argv=None):
    from opkg.core.errors import Interrupted, OpkgError
    from opkg.util.procs import checkpoint

    args = list(sys.argv[1:] if argv is None else argv)
    _interrupt_on_termination()
    try:
        cli.main(args=args, prog_name="opkg", standalone_mode=False)
    except OpkgError as exc:
        if isinstance(exc, Interrupted):
            checkpoint("interrupted")     # a test hook: a second Ctrl-C lands here
            _stop_interrupts()
        _fail(exc, "--json" in args, args)
    except OSError as exc:
        # the file system said no (a path that is a file, a full disk, no permission):
        # name the path, never show a traceback
        from opkg.core.errors import OpkgError as Base

        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        _fail(Base(f"{exc.strerror or exc}{where}",
                   hint="check the path and its permissions"), "--json" in args, args)
    except (click.exceptions.Abort, KeyboardInterrupt):
        checkpoint("interrupted")
        _stop_interrupts()
        click.echo("interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        if "--json" in args:
            from opkg.ui.ci_output import emit_json

            emit_json({"ok": False, "error": {"kind": "UsageError" if isinstance(
                exc, click.UsageError) else type(exc).__name__, "message": exc.format_message(),
                "file": None, "line": None, "column": None, "field": None, "hint": None}})
        sys.exit(2 if isinstance(exc, click.UsageError) else exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(0)


def _fail(exc, as_json: bool, args=()):
    """Render an error for people on stderr, with --json for machines on stdout, and in CI as
    an annotation at the error's file:line (`--annotations github`, or GITHUB_ACTIONS=true)."""
    from opkg.ui import ci_output

    click.echo(exc.render(), err=True)
    if ci_output.annotation_mode(_option_value(args, "--annotations")) == "github":
        click.echo(ci_output.error_annotation(exc), err=True)
    if as_json and not getattr(exc, "json_reported", False):
        ci_output.emit_json({"ok": False, "error": exc.to_json()})
    sys.exit(exc.exit_code)


def _option_value(args, name: str) -> str | None:
    """An option's value read from argv (errors can happen before click parsed it)."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def _interrupt_on_termination():
    """CI cancels with SIGTERM and a closed terminal sends SIGHUP: treat both like Ctrl-C, so
    the build engine stops SCons and its compilers and nothing is left half-written."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupt)
