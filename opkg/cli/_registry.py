"""Options and output helpers shared by the registry commands (publish, search, info, install,
yank, registry); each command still lives in its own module."""

from __future__ import annotations

import click

from opkg.registry.location import ENV


def registry_option(f):
    return click.option(
        "--registry", "registry", metavar="DIR|oci://HOST/NS", default=None,
        help=f"Registry directory or OCI registry (default: ${ENV}, else the workspace's "
             "`registry:` setting, else <workspace>/registry).")(f)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True,
                        help="Print machine-readable JSON on stdout.")(f)


def open_store(option):
    from opkg.registry.backend import open_registry
    from opkg.registry.location import registry_root

    return open_registry(registry_root(option))


def human_size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def short(digest: str | None) -> str:
    return (digest or "-")[:19]
