"""The resident build server's process (`python -m opkg.cli.serve`, started by the thin client
opkg.build.client) and `opkg shutdown`.

The server runs each request through the same `main` as the `opkg` command, in process, so a
build through it prints, fails and exits exactly as one without it.
"""

from __future__ import annotations

import argparse
import os
import sys

import click


def run_command(argv: list[str]) -> int:
    from opkg.cli import main

    try:
        main(argv)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    return 0


def serve(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m opkg.cli.serve")
    parser.add_argument("--root", required=True)
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("--idle", type=float, default=0.0,
                        help="exit after this many seconds without a request (0: never)")
    args = parser.parse_args(argv)

    from pathlib import Path

    from opkg.build.server import Server
    from opkg.core.errors import OpkgError
    from opkg.core.workspace import Workspace

    try:
        ws = Workspace.load(Path(args.root))
    except OpkgError as exc:
        print(exc.render(), file=sys.stderr)
        return 2
    if os.path.realpath(ws.settings.output_dir) != os.path.realpath(args.output_dir):
        # the client read output_dir without a YAML parser; never serve another directory
        print(f"the workspace's output_dir is {ws.settings.output_dir}, the client expected "
              f"{args.output_dir}; not serving", file=sys.stderr)
        return 2
    import opkg.cli.build  # noqa: F401  the first request pays no import
    return Server(ws, run_command, args.idle).serve()


@click.command()
def shutdown():
    """Stop this workspace's build server (`opkg build --server`, OPKG_SERVER=1).

    \b
    Examples:
      opkg build --server //...     start it (on first use) and build through it
      opkg shutdown                 stop it

    The server also stops on its own after OPKG_SERVER_IDLE seconds without a request
    (default 3 hours), and restarts when opkg, Python or the workspace file change.
    """
    from opkg.build.client import shutdown as stop

    click.echo(stop())


if __name__ == "__main__":
    sys.exit(serve())
