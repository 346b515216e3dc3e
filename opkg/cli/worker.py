"""`opkg worker URL`: execute actions for a REAPI execution service (BuildGrid's bots API)."""

from __future__ import annotations

import os
import signal
import socket
import threading

import click


@click.command()
@click.argument("url")
@click.option("--name", metavar="ID", help="This bot's id, unique on the server. Default: "
                                           "HOST-PID.")
@click.option("--work-dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Where actions run (each in its own scratch directory, removed after). "
                   "Default: the system's temporary directory.")
def worker(url, name, work_dir):
    """Lease actions from the execution service at URL (grpc[s]://HOST:PORT[/INSTANCE], the
    server `opkg build --remote-exec` talks to) and run them here, one at a time, until
    interrupted. Credentials: as for the remote cache ($OPKG_REMOTE_CACHE_TOKEN...).

    \b
    Examples:
      opkg worker grpc://buildgrid.example:50051 --name build1-a
      opkg build //... --remote-exec grpc://buildgrid.example:50051   (elsewhere)

    Start one worker per core; see docs/team.md, "Remote execution".
    """
    from opkg.core.errors import UsageError
    from opkg.remote import config as cfg

    try:
        target, instance, tls = cfg.parse_url(url)
    except cfg.BadURL as exc:
        raise UsageError(str(exc), field="URL", hint=exc.hint) from None
    config = cfg.RemoteConfig(url=url, target=target, instance=instance, tls=tls,
                              **{k: os.environ[e] for k, e in cfg.FILE_KEYS.items()
                                 if os.environ.get(e)})
    from opkg.remote.worker import Worker

    if work_dir:
        os.makedirs(work_dir, exist_ok=True)
    bot = Worker(config, name or f"{socket.gethostname()}-{os.getpid()}", work_dir,
                 log=lambda line: click.echo(line, err=True))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        bot.serve(stop.is_set)
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        from opkg.remote.client import RemoteError, _describe
        import grpc

        if isinstance(exc, grpc.RpcError):
            raise UsageError(f"execution service {url}: {_describe(exc)}",
                             hint="is it a BuildGrid server with an !execution service?") from None
        if isinstance(exc, RemoteError):
            raise UsageError(f"execution service {url}: {exc}") from None
        raise
    finally:
        bot.close()
    click.echo(f"opkg worker {bot.name}: stopped after {bot.executed} actions", err=True)
