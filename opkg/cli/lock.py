"""`opkg lock`: write opkg.lock, the toolchain resolution of every (package, SoC)."""

from __future__ import annotations

import click

from opkg.cli.options import complete_socs, complete_targets, complete_toolchains


@click.command()
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs, help="Only these SoCs (repeatable).")
@click.option("--toolchain", "requested", metavar="ID", shell_complete=complete_toolchains,
              help="Lock this toolchain: sim, cann (highest that fits) or cann-<version>.")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 3 if opkg.lock differs from the current resolution.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def lock(targets, socs, requested, check, as_json):
    """Resolve toolchains and record them in opkg.lock at the workspace root.

    Every external repository the workspace declares is recorded too: its source, commit
    and tree digest (fetched first when it is a git repository not yet in the cache).

    For each (package, SoC): the toolchain id, its version and a fingerprint (a digest of the
    compiler binaries and version files). Entries are sorted, one group per target, so merges
    rarely conflict; locking some TARGETS updates only their entries. CI builds with
    `opkg build --locked`, which fails when resolution differs from the lock.

    \b
    Examples:
      opkg lock                  lock everything (//...)
      opkg lock packages/layernorm --toolchain cann-8.0.RC2
      opkg lock --check
    """
    from opkg.util.fsutil import atomic_write_text
    from opkg.toolchains import lock as lockfile
    from opkg.toolchains.alignment import check_alignment
    from opkg.core.workspace import Workspace

    ws = Workspace.find()
    ws.repositories.on_note = lambda message: click.echo(message, err=True)
    packages = ws.select(list(targets))
    res = check_alignment(ws, packages, socs or None, requested)
    err = res.error()
    if err is not None:
        raise err
    current = lockfile.entries_from(res)
    path = ws.root / lockfile.LOCK_FILE
    # every repository the workspace declares, as it is now (fetched when not yet present)
    repos = [ws.repositories.get(n) for n in sorted(ws.settings.repositories)]
    current_repos = [lockfile.RepositoryEntry.of(r) for r in repos]

    def report(message, written, entries, changed=()):
        if as_json:
            from opkg.ui.ci_output import emit_json

            emit_json({"path": str(path), "written": written, "check": check,
                       "targets": [{f: getattr(e, f) for f in lockfile.FIELDS}
                                   for e in entries],
                       "repositories": [{f: getattr(r, f) for f in lockfile.REPO_FIELDS}
                                        for r in current_repos], "changed": list(changed)})
            return
        click.echo(message)
        for line in changed:
            click.echo(f"  {line}")

    if check:
        lockfile.verify(path, current, current_repos, {r.name: r.root for r in repos})
        report(f"{lockfile.LOCK_FILE} matches the current resolution ({len(current)} targets"
               + (f", {len(repos)} repositories" if repos else "") + ")", False, current)
        return
    old, old_repos = lockfile.read_all(path) if path.exists() else ([], [])
    # entries for packages or SoCs the workspace no longer has would pass `--check` forever;
    # a package whose manifest has errors keeps its entries (nothing is known to be gone)
    everything = ws.load_targets(["//..."])
    alive = {(p.label, soc) for p in everything.closure if p.op is not None for soc in p.socs}
    merged = [e for e in lockfile.merge(old, current)
              if e.key in alive or e.package in everything.broken]
    text = lockfile.render(merged, current_repos)
    if path.exists() and path.read_text() == text:
        report(f"{lockfile.LOCK_FILE} is up to date ({len(merged)} targets)", False, merged)
        return
    atomic_write_text(path, text)
    changed = (lockfile.differences(old, current) if old else []) + \
        (lockfile.repository_differences(old_repos, current_repos) if old_repos else [])
    report(f"wrote {lockfile.LOCK_FILE}: {len(merged)} targets"
           + (f", {len(changed)} changed" if old else ""), True, merged, changed)
