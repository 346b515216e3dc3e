"""Options shared by the commands that build (build, test, publish)."""

from __future__ import annotations

import click


def build_options(f):
    for decorator in reversed([
        click.argument("targets", nargs=-1),
        click.option("--soc", "socs", multiple=True, metavar="SOC",
                     help="Only these SoCs (repeatable). Default: each package's own list."),
        click.option("--toolchain", metavar="ID",
                     help="Force a toolchain: 'sim' or 'cann-<version>'. Default: resolution."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), metavar="N",
                     help="Parallel steps. Default: the number of CPUs."),
        click.option("-k", "--keep-going", is_flag=True,
                     help="Build everything that does not depend on a failed step."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print a JSON summary on stdout (progress stays on stderr)."),
    ]):
        f = decorator(f)
    return f


def sync_check_option(f):
    """--sync-check for the commands that verify (build, test)."""
    return click.option(
        "--sync-check", is_flag=True,
        help="Also fail verification on intra-core pipeline hazards: UB that one pipe (MTE2, V, "
             "MTE3, scalar) accesses while another pipe's access is unsynchronised (no queue "
             "hand-off, flag or PIPE_ALL barrier). Off by default: CANN inserts syncs itself.")(f)
