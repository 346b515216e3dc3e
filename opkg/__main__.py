"""`opkg` and `python -m opkg`: the build server's thin client first (stdlib only, so that a
build through the server pays no import of the CLI), then the CLI."""

import sys


def main():
    from opkg.build.client import main as through_server

    status = through_server()
    if status is not None:
        sys.exit(status)
    from opkg.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
