"""`opkg cache stats` and `opkg cache prune`: the shared build cache (see opkg/build/cache.py)."""

from __future__ import annotations

import time

import click

from opkg.ui.ci_output import emit_json


def _cache_dir():
    from opkg.core.errors import ManifestError
    from opkg.core.workspace import Workspace, default_cache_dir

    try:
        return Workspace.find().settings.cache_dir
    except ManifestError:
        return default_cache_dir()      # outside a workspace: $OPKG_CACHE_DIR or the default


@click.group()
def cache():
    """Inspect and trim the shared build cache.

    \b
    Examples:
      opkg cache stats                  size, entries, hit rate of the last builds
      opkg cache prune --max-size 2G    drop least recently used entries down to 2 GiB
    """


@cache.command()
@click.option("--last", default=10, show_default=True, type=click.IntRange(min=1),
              help="Hit rate over this many recent builds.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats(last, as_json):
    """Size, entries and the hit rate of recent builds.

    Steps are counted as each build's summary line counts them ("N steps ran, M from cache"):
    a step restored from the remote cache ran (it fetched its outputs), steps found up to date
    count in neither, and a build answered without starting SCons (nothing changed) is not
    recorded. An entry is one step's outputs; entries outlive the builds that wrote them.

    \b
    Examples:
      opkg cache stats
      opkg cache stats --last 50 --json
    """
    from opkg.build import cache as cache_mod

    s = cache_mod.stats(_cache_dir(), last)
    if as_json:
        emit_json(s)
        return
    click.echo(f"cache:    {s['cache_dir']}")
    click.echo(f"size:     {cache_mod.format_size(s['size'])} in {s['entries']} entries")
    if s["oldest_use"]:
        click.echo(f"used:     {_ago(s['newest_use'])} (newest), {_ago(s['oldest_use'])} (oldest)")
    if s["builds"]:
        # the words and numbers of each build's summary line ("N steps ran, M from cache")
        rate = f"{s['hit_rate']:.0%}" if s["hit_rate"] is not None else "-"
        click.echo(f"hit rate: {rate} over the last {len(s['builds'])} build(s) that ran SCons: "
                   f"{s['misses']} steps ran, {s['hits']} from cache")
        for b in s["builds"][-5:]:
            remote = b.get("remote") or {}
            fetched = f" ({remote['hits']} from the remote cache)" if remote.get("hits") else ""
            click.echo(f"  {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(b['time']))}  "
                       f"{b['misses']:>5} steps ran{fetched}, {b['hits']:>5} from cache  "
                       f"{b['workspace']}")
    else:
        click.echo("hit rate: no builds recorded yet")
    remote = s.get("remote")
    if remote:
        rate = f"{remote['hit_rate']:.0%}" if remote["hit_rate"] is not None else "-"
        click.echo(f"remote:   {rate} hit rate over the last {remote['builds']} build(s) that "
                   f"used the remote cache ({remote['hits']} steps restored, "
                   f"{remote['misses']} not found, {remote['uploads']} uploaded)")


@cache.command()
@click.option("--max-size", required=True, metavar="SIZE",
              help="Keep at most this much (e.g. 500M, 2G; units are powers of 1024).")
@click.option("--wait", default=60.0, show_default=True, metavar="SECONDS",
              help="How long to wait for running builds to release the cache.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def prune(max_size, wait, as_json):
    """Remove least recently used entries until the cache fits in SIZE.

    Safe while builds run: it waits for builds that are reading the cache, and builds that
    start meanwhile wait for it.

    \b
    Examples:
      opkg cache prune --max-size 2G
      opkg cache prune --max-size 500M --json
    """
    from opkg.build import cache as cache_mod
    from opkg.core.errors import UsageError

    try:
        limit = cache_mod.parse_size(max_size)
    except ValueError as exc:
        raise UsageError(str(exc), field="--max-size") from None
    try:
        r = cache_mod.prune(_cache_dir(), limit, wait=wait)
    except TimeoutError:
        raise UsageError(f"builds kept the cache busy for {wait:g}s; nothing was removed",
                         hint="run it again when builds are idle, or pass a longer --wait") \
            from None
    if as_json:
        emit_json(r)
        return
    click.echo(f"removed {r['removed']} entries ({cache_mod.format_size(r['freed'])}); "
               f"{cache_mod.format_size(r['size'])} in {r['entries']} entries left")


def _ago(t: float) -> str:
    s = max(0, time.time() - t)
    for unit, n in (("d", 86400), ("h", 3600), ("min", 60)):
        if s >= n:
            return f"{s / n:.0f} {unit} ago"
    return f"{s:.0f} s ago"
