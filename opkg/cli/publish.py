"""`opkg publish`: build what is missing (engine.build), then hand the bundles to
registry.publish.publish_bundles. All registry decisions live there; this is the adapter."""

from __future__ import annotations

import json
import os

import click

from opkg.ui.ci_output import emit_json
from opkg.cli._registry import human_size, open_store, registry_option
from opkg.cli.options import build_options


@click.command()
@build_options
@click.option("--bundle", "bundles", multiple=True, type=click.Path(dir_okay=False),
              metavar="FILE", help="Publish this already-built bundle instead of building "
              "(repeatable; for CI stages that build and publish separately).")
@click.option("--dry-run", is_flag=True, help="Build and check, then show what would be "
              "written without writing it.")
@registry_option
def publish(targets, socs, toolchain, jobs, keep_going, as_json, no_wait, bundles, dry_run,
            registry):
    """Publish verified operator bundles to the registry.

    Builds TARGETS first (default //...; up-to-date bundles are not rebuilt), then stores
    each bundle and its verification reports by digest and records the version. Refuses
    unless every verification case passed for every variant. A published version never
    changes: publishing the same bundles again does nothing; different contents need a new
    version in opkg.yaml.

    \b
    Examples:
      opkg publish //packages/add_custom           build if needed, then publish
      opkg publish //... --dry-run                 what would be written, for every package
      opkg publish --bundle out/bundles/add_custom-1.0.0-Ascend910B1-sim.opkg.tgz
      opkg publish //packages/layernorm --registry /shared/opkg-registry --json
      opkg publish //... --registry oci://registry.example.com/opkg

    Exit status: 0 published (or already published), 1 verification or build failed or the
    version exists with other contents, 2 bad input, 3 toolchain misalignment, 4 another
    build runs in this workspace (--no-wait).
    """
    from opkg.core.errors import BuildError, UsageError, VerificationError
    from opkg.registry.publish import _failed_cases, publish_bundles

    if bundles and targets:
        raise UsageError("give TARGETS or --bundle files, not both")
    store = open_store(registry)
    if store.exists():
        store.ensure_readable()  # a registry path that is a file (or a registry that cannot
                                 # be reached) fails before a long build
    paths = list(bundles)
    ws = None
    if not paths:
        from opkg.build import engine
        from opkg.ui.terminal import Progress, summary_line
        from opkg.core.workspace import Workspace

        ws = Workspace.find()
        progress = Progress(ws.root)
        try:
            result = engine.build(ws, list(targets), socs=list(socs) or None,
                                  toolchain=toolchain, jobs=jobs, keep_going=keep_going,
                                  bundle=True, on_event=progress, wait=not no_wait)
        finally:
            progress.finish()
        failing = []
        for t in result.verification_failed:
            for variant, report in sorted(t.reports.items()):
                if not report.get("passed"):
                    cases = _failed_cases(json.dumps(report).encode())
                    failing.append(f"{t.package} {t.soc}/{t.toolchain} variant {variant}: "
                                   + ("; ".join(cases) or "failed"))
            for variant, why in sorted(t.not_run.items()):
                failing.append(f"{t.package} {t.soc}/{t.toolchain} variant {variant}: not "
                               f"verified ({why})")
        if failing:
            raise VerificationError("refusing to publish: verification did not pass\n  "
                                    + "\n  ".join(failing),
                                    hint="`opkg test` shows the full report; fix, rebuild, "
                                         "then publish")
        if not result.ok:
            raise BuildError("refusing to publish: the build failed ("
                             + summary_line(result).strip() + ")",
                             hint="run `opkg build` on the same targets to see why")
        # The build includes dependencies; publish only what was asked for.
        wanted = {p.label for p in ws.select(list(targets))}
        paths = [t.bundle for t in result.targets if t.bundle and t.package in wanted]
        if not paths:
            raise UsageError("nothing to publish: the targets produce no operator bundles",
                             hint="header-only library packages are not published on their own")
    outcomes = publish_bundles(store, paths, dry_run=dry_run,
                               built_digests=_built_digests(ws, bool(bundles)))
    if as_json:
        emit_json({"registry": str(store.root), "dry_run": dry_run,
                   "versions": [o.to_json() for o in outcomes]}, sort_keys=True)
        return
    for o in outcomes:
        if o.status == "unchanged":
            click.echo(f"unchanged {o.name} {o.version}: already published with these bundles")
            for digest in o.restored:
                click.echo(f"  restored blob {digest[:19]}… (it was missing or damaged)")
            continue
        click.echo(f"{'published' if o.status == 'published' else 'would publish'} "
                   f"{o.name} {o.version}")
        for b in o.bundles:
            cases = ", ".join(f"{v} {n}" for v, n in sorted(b["verification"].items()))
            click.echo(f"  {b['soc']}/{b['toolchain']}  {human_size(b['size'])}  "
                       f"{b['blob'][:19]}…  cases passed: {cases}")
        for w in o.writes:
            click.echo(f"  write {w}")
    click.echo(f"registry: {store.root}")


def _built_digests(ws, given: bool):
    """What the build recorded for each bundle it wrote (opkg.build.outputs), so a bundle replaced or
    damaged in the output directory after the build is refused. `--bundle` files are looked up
    in the enclosing workspace's record, if there is one; files built elsewhere have none."""
    from opkg.core.errors import OpkgError
    from opkg.build.outputs import OutputRecord

    if ws is None and given:
        from opkg.core.workspace import Workspace

        try:
            ws = Workspace.find()
        except OpkgError:
            return None
    if ws is None:
        return None
    # read the record once for all bundles (OutputRecord.digest_of reads it on every call)
    record = OutputRecord(ws.settings.output_dir)
    digests = {os.path.join(record.root, key): rec["sha256"] for key, rec in record.load().items()}
    return lambda path: digests.get(os.path.abspath(path))
