"""`opkg query`: the package graph, for people and scripts."""

from __future__ import annotations


import click

from opkg.cli.options import complete_targets

from opkg.ui.ci_output import emit_json


def _workspace():
    from opkg.core.workspace import Workspace

    return Workspace.find()


def _one(ws, target):
    from opkg.core.errors import LabelError

    pkgs = ws.select([target])
    if len(pkgs) != 1:
        raise LabelError(f"{target!r} matches {len(pkgs)} packages; name exactly one",
                         hint="use a //label or a path to one package")
    return pkgs[0]


def _emit(labels, as_json, none: str):
    """The labels on stdout (for `$(opkg query ...)`); when there are none, `none` on stderr,
    so an empty answer is not mistaken for a failure."""
    if as_json:
        emit_json({"labels": list(labels)})
    else:
        for label in labels:
            click.echo(label)
        if not labels:
            click.echo(none, err=True)


@click.group()
def query():
    """Inspect the package graph.

    \b
    Examples:
      opkg query packages               every package, with version and SoCs
      opkg query deps //packages/layernorm
      opkg query rdeps //packages/common --direct
    """


@query.command()
@click.argument("target", shell_complete=complete_targets)
@click.option("--direct", is_flag=True, help="Only direct dependencies.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def deps(target, direct, as_json):
    """Packages TARGET depends on (transitively unless --direct).

    \b
    Examples:
      opkg query deps //packages/relu_add
      opkg query deps packages/relu_add --direct --json
    """
    ws = _workspace()
    # only TARGET's closure is loaded: a broken manifest elsewhere does not matter here
    label = _one(ws, target).label
    _emit([p.label for p in ws.deps_of(label)] if not direct else list(ws.node(label).deps),
          as_json, f"{label} depends on no package")


@query.command()
@click.argument("target", shell_complete=complete_targets)
@click.option("--direct", is_flag=True, help="Only direct dependents.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def rdeps(target, direct, as_json):
    """Packages that depend on TARGET (transitively unless --direct): what a change rebuilds.

    \b
    TARGET may be a library of an external repository: @opbase//:op_common.

    \b
    Examples:
      opkg query rdeps //packages/common
      opkg query rdeps @opbase//:op_common
      opkg build $(opkg query rdeps //packages/common)    rebuild what a header change touches
    """
    ws = _workspace()
    if target.startswith("@"):
        from opkg.core.errors import LabelError
        from opkg.core.external import spec

        try:
            repo, lib = spec.parse_library_label(target)
        except spec.LabelSyntaxError as exc:
            raise LabelError(exc.message, hint=exc.hint) from None
        known = ws.settings.repositories
        if repo not in known:
            raise spec.unknown_repository(repo, known, None)
        if lib not in known[repo].libraries:
            raise spec.unknown_library(known[repo], lib, None)
        label = target
        graph = ws.graph
        if label not in graph.edges:         # no package depends on it
            _emit([], as_json, f"no package depends on {label}")
            return
    else:
        label = _one(ws, target).label
        graph = ws.graph
    _emit([l for l in graph.rdeps(label, transitive=not direct) if not l.startswith("@")],
          as_json, f"no package depends on {label}")   # needs every manifest


@query.command()
@click.argument("patterns", nargs=-1, shell_complete=complete_targets)
@click.option("--json", "as_json", is_flag=True, help="Print JSON objects.")
def packages(patterns, as_json):
    """Packages matching PATTERNS (default //...).

    Packages whose manifest has errors (or that depend on one) are left out and their errors
    reported after the list (exit 2), as `opkg build --keep-going` would.

    \b
    Examples:
      opkg query packages
      opkg query packages //packages/... --json
    """
    ws = _workspace()
    if not patterns and not ws.manifest_paths():
        # an empty workspace is an answer here (`build //...` refuses it, saying how to fix it)
        if as_json:
            emit_json({"packages": []})
        else:
            click.echo(f"no packages yet: {ws.no_match_hint('//...').split('; ', 1)[1]}",
                       err=True)
        return
    selection = ws.load_targets(list(patterns))
    pkgs = selection.packages
    if as_json:
        emit_json({**({"errors": [e.to_json() for e in selection.problems]}
                      if selection.problems else {}), "packages": [{
            "label": p.label, "name": p.name, "version": p.version, "summary": p.summary,
            "kind": "operator" if p.is_operator else "library", "socs": list(p.socs),
            "deps": list(p.deps), "op_type": p.op.type if p.op else None,
            "variants": [v.name for v in p.op.variants()] if p.op else []} for p in pkgs]})
    else:
        for p in pkgs:
            kind = p.op.type if p.op else "library"
            socs = ",".join(p.socs)
            click.echo(f"{p.label:<32} {p.version:<10} {kind:<22} {socs}")
    if selection.problems:
        from opkg.core.errors import ManifestErrors

        problems = selection.problems
        err = ManifestErrors(problems) if len(problems) > 1 else problems[0]
        err.json_reported = as_json       # the list above already carries them
        raise err
