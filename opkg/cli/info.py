"""`opkg info`: one version's record: variants, toolchains, verification, provenance, yank."""

from __future__ import annotations

import click

from opkg.cli.options import complete_published

from opkg.ui.ci_output import emit_json
from opkg.cli._registry import human_size, json_option, open_store, registry_option, short


@click.command()
@click.argument("package", shell_complete=complete_published)
@registry_option
@json_option
def info(package, registry, as_json):
    """Show PACKAGE (NAME or NAME==VERSION) as published: prototype, bundles per SoC and
    toolchain, verification per dtype variant, provenance, yanked status.

    Without a version, shows the highest version that is not yanked.

    \b
    Examples:
      opkg info add_custom
      opkg info layernorm==1.0.0 --json
    """
    from opkg.cli.search import latest
    from opkg.core.errors import RegistryError, did_you_mean
    from opkg.registry.install import parse_requirement
    from opkg.registry.records import version_key

    req = parse_requirement(package)
    store = open_store(registry)
    catalog = store.catalog(names=[req.name])
    versions = catalog.get(req.name)
    if not versions:
        raise RegistryError(f"no package {req.name!r} in registry {store.root}",
                            hint=did_you_mean(req.name, catalog) or "see `opkg search`")
    if str(req.spec):
        matching = [e for e in versions.values() if req.spec.contains(e.parsed, prereleases=True)]
        if not matching:
            known = ", ".join(e.version for e in sorted(versions.values(), key=lambda e: e.parsed))
            raise RegistryError(f"{req.name}: no version matches {req.spec}",
                                hint=f"published: {known}")
        entry = max(matching, key=lambda e: e.parsed)
    else:
        entry = latest(versions)
    record = store.read_record(req.name, version_key(entry.version), entry.record_digest)
    all_versions = [{"version": e.version, "yanked": e.yanked}
                    for e in sorted(versions.values(), key=lambda e: e.parsed)]
    if as_json:
        emit_json({"record": record, "record_digest": entry.record_digest,
                   "yanked": entry.yanked, "yank_reason": entry.reason,
                   "versions": all_versions}, sort_keys=True)
        return
    out = click.echo
    head = f"{record['name']} {record['version']}"
    if entry.yanked:
        head += f"  YANKED: {entry.reason or 'no reason given'}"
    out(head)
    if record.get("summary"):
        out(f"  {record['summary']}")
    op = record.get("op")
    if op:
        def tensors(ts):
            return ", ".join(f"{t['name']}:{'|'.join(t['dtypes'])}" for t in ts)
        attrs = ", ".join(f"{a['name']}:{a['type']}={a.get('default')}" for a in op.get("attrs", []))
        out(f"  op:        {op['type']}({tensors(op['inputs'])}) -> {tensors(op['outputs'])}"
            + (f"  attrs: {attrs}" if attrs else ""))
    pub = record.get("published", {})
    out(f"  published: {pub.get('time')} by {pub.get('by')} (opkg {pub.get('opkg_version')})")
    out("  versions:  " + ", ".join(v["version"] + (" (yanked)" if v["yanked"] else "")
                                   for v in all_versions))
    out("  bundles:")
    for b in record["bundles"]:
        tc = b["toolchain"]
        ver = b.get("verification", {})
        status = "passed" if ver.get("passed") else "FAILED"
        out(f"    {b['soc']}  {tc.get('id')} {tc.get('version', '')}  {human_size(b['size'])}  "
            f"{short(b['blob'])}…  verification {status} ({ver.get('cases', '?')} cases)")
        for v in b.get("variants", []):
            s = v.get("verification", {})
            errs = "  ".join(f"{label} {s[k]:.3g}" for k, label in (
                ("max_abs_error", "max abs"), ("max_rel_error", "max rel"),
                ("mismatch_ratio", "mismatch")) if isinstance(s.get(k), (int, float)))
            out(f"      {v['name']:<10} {s.get('passed')}/{s.get('cases')} passed  {errs}")
        prov = b.get("provenance") or {}
        git = prov.get("git_commit")
        git = f"git {git[:12]}{' (dirty)' if prov.get('git_dirty') else ''}" if git else "no git"
        out(f"      provenance: source {short(prov.get('source_digest'))}…, {git}, "
            f"opkg {prov.get('opkg_version', '?')}, toolchain {short(tc.get('fingerprint'))}…")
