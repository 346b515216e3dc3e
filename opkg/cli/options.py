"""Options shared by the commands that build (build, test, publish)."""

from __future__ import annotations

import click


def _complete(name):
    """A completion function of opkg.cli.completion, imported only when the shell asks."""
    def complete(ctx, param, incomplete):
        from opkg.cli import completion

        return getattr(completion, name)(ctx, param, incomplete)
    return complete


complete_targets = _complete("complete_targets")
complete_socs = _complete("complete_socs")
complete_toolchains = _complete("complete_toolchains")
complete_cases = _complete("complete_cases")
complete_variants = _complete("complete_variants")
complete_published = _complete("complete_published")


def build_options(f):
    for decorator in reversed([
        click.argument("targets", nargs=-1, shell_complete=complete_targets),
        click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
                     help="Only these SoCs (repeatable). Default: each package's own list."),
        click.option("--toolchain", metavar="ID", shell_complete=complete_toolchains,
                     help="Force a toolchain: 'sim' or 'cann-<version>'. Default: resolution."),
        click.option("-j", "--jobs", type=click.IntRange(min=1), metavar="N",
                     help="Parallel steps. Default: the number of CPUs."),
        # long form only: pytest users read -k as a test filter (see --case/--variant)
        click.option("--keep-going", is_flag=True,
                     help="Build everything that does not depend on a failed step or on a "
                          "package whose manifest has errors (those are reported; exit 2)."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print a JSON summary on stdout (progress stays on stderr)."),
        click.option("--no-wait", is_flag=True,
                     help="Fail (exit 4) instead of waiting when another build runs in this "
                          "workspace."),
        *remote_cache_options(),
    ]):
        f = decorator(f)
    return f


def server_option(f):
    """--server is read by the thin client (opkg.build.client) before the CLI starts; here it
    is only listed in --help and accepted when the command runs without the server."""
    return click.option("--server", is_flag=True, expose_value=False,
                        help="Run through this workspace's resident build server (also "
                             "OPKG_SERVER=1); `opkg shutdown` stops it.")(f)


def remote_cache_options():
    """--remote-cache, --remote-exec and --remote-cache-required set the environment variables
    they stand for (opkg.remote.config), so the workspace file, the environment and the flag
    resolve in one place and no command's signature changes."""
    import os

    def url_setter(variable: str):
        def set_url(ctx, param, value):
            if value is None:
                return
            from opkg.remote import config

            if value.strip().lower() not in config.OFF:
                try:
                    config.parse_url(value)
                except config.BadURL as exc:
                    raise click.BadParameter(f"{exc} ({exc.hint})") from None
            os.environ[getattr(config, variable)] = value
        return set_url

    def set_required(ctx, param, value):
        if value:
            from opkg.remote import config

            os.environ[config.ENV_REQUIRED] = "1"

    return [
        click.option("--remote-cache", metavar="URL", expose_value=False, callback=url_setter("ENV_URL"),
                     help="REAPI remote cache, grpc[s]://HOST:PORT[/INSTANCE] ('off': none). "
                          "Default: $OPKG_REMOTE_CACHE, else remote_cache in the workspace."),
        click.option("--remote-exec", metavar="URL", expose_value=False, callback=url_setter("ENV_EXEC"),
                     help="Run compiles, links and verification on the workers of a REAPI "
                          "execution service, grpc[s]://HOST:PORT[/INSTANCE] ('off': none). "
                          "Default: $OPKG_REMOTE_EXEC, else remote_exec in the workspace."),
        click.option("--remote-cache-required", is_flag=True, expose_value=False,
                     callback=set_required,
                     help="Fail when the remote cache cannot be used (for CI that must fill "
                          "it), instead of one warning and a local build."),
    ]


def verify_mode_options(f):
    """For the commands that verify (build, test): --explain, and how the sim verifies (runtime
    switches of the same kernel libraries, kept apart from default results)."""
    for decorator in reversed([
        click.option("--explain", is_flag=True,
                     help="Say why each step ran: which input, flag or toolchain identity changed."),
        click.option("--sync-check", is_flag=True,
                     help="Also fail verification on intra-core pipeline hazards: UB that one pipe "
                          "(MTE2, V, MTE3, scalar) accesses while another pipe's access is "
                          "unsynchronised (no queue hand-off, flag or PIPE_ALL barrier). Off by "
                          "default: CANN inserts syncs itself."),
        click.option("--lenient-copy", is_flag=True,
                     help="A DataCopy whose length is not whole 32-byte blocks copies the whole "
                          "blocks and drops the rest, as the hardware silently does (logged), "
                          "instead of failing. To reproduce what a device computed."),
        click.option("--strict-bounds", is_flag=True,
                     help="Fail on any GM access past a tensor's last byte, and on any UB "
                          "access past a LocalTensor. By default the sim allows what the device "
                          "allows: the allocator rounds each GM buffer up to 32 bytes and adds "
                          "32, and a kernel may read (garbage) or write there; a vector count "
                          "past a LocalTensor acts on the next UB bytes (warned once per line). Also "
                          "fails on the queue slips the device tolerates (warned by default): "
                          "a tensor never FreeTensor'd, a FreeTensor of a buffer already free."),
    ]):
        f = decorator(f)
    return f


def report_options(f):
    """For the commands that verify (build, test): what CI and people see of the results."""
    for decorator in reversed([
        click.option("--junit-xml", "junit_xml", metavar="FILE",
                     type=click.Path(dir_okay=False, writable=True),
                     help="Also write a JUnit XML report: one testcase per case x variant x SoC."),
        click.option("--annotations", type=click.Choice(["github", "none"]),
                     help="Print GitHub Actions ::error annotations (file:line) on stderr for "
                          "manifest errors, compile errors and kernel diagnostics. Default: "
                          "github when GITHUB_ACTIONS=true."),
        click.option("-q", "--quiet", is_flag=True,
                     help="Only failures and the summary."),
        click.option("-v", "--verbose", is_flag=True,
                     help="Show every command as it runs, and every toolchain note."),
        click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
                     show_default=True,
                     help="Colour in the output; auto: on a terminal, unless NO_COLOR is set."),
    ]):
        f = decorator(f)
    return f
