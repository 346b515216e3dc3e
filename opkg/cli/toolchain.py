"""`opkg toolchain list` and `opkg toolchain check`: what is installed, and whether each
(package, SoC) has a toolchain that fits its pins, SoC and driver."""

from __future__ import annotations

import click

from opkg.cli.options import complete_socs, complete_targets, complete_toolchains

from opkg.ui.ci_output import emit_json

from opkg.core.errors import ManifestError


def _workspace_or_none():
    from opkg.core.workspace import Workspace

    try:
        return Workspace.find()
    except ManifestError:
        return None


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


@click.group()
def toolchain():
    """Inspect installed toolchains and check toolchain alignment.

    \b
    Examples:
      opkg toolchain list
      opkg toolchain check //...
      opkg toolchain check packages/layernorm --for-run
    """


@toolchain.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def list_(as_json):
    """Known and installed toolchains (sim, each CANN toolkit found), with paths, and the driver.

    CANN toolkits are looked for in $ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME,
    $ASCEND_CANN_PACKAGE_PATH and under /usr/local/Ascend and $HOME/Ascend
    (ascend-toolkit/<version>, cann-<version>); set OPKG_ASCEND_ROOTS to search elsewhere.

    \b
    Examples:
      opkg toolchain list
      OPKG_ASCEND_ROOTS=/opt/cann opkg toolchain list --json
    """
    from opkg import __version__
    from opkg.toolchains.discovery import discover
    from opkg.core.releases import release_table

    ws = _workspace_or_none()
    inst = discover()
    table = ws.releases if ws else release_table()
    installed = {t.version for t in inst.toolkits}
    if as_json:
        data = inst.to_json()
        data["sim"] = {"id": "sim", "version": __version__}
        data["known_releases"] = [str(v) for v in table.versions()]
        emit_json(data, sort_keys=True)
        return
    rows = [["toolchain", "version", "path", "found via", "tools"],
            ["sim", __version__, "(built in: g++ and opkg's Ascend C emulation)", "-", "g++"]]
    for t in inst.toolkits:
        tools = ", ".join(n if t.tool(n) else f"{n} MISSING" for n in ("msopgen", "bisheng", "op_build"))
        rows.append([t.id, str(t.version), str(t.root), t.found_via, tools])
    click.echo(_table(rows))
    if not inst.toolkits:
        click.echo(f"no CANN toolkit found (searched {', '.join(inst.searched)}); packages "
                   "build with sim")
    if inst.driver:
        click.echo(f"driver: {inst.driver.version} at {inst.driver.version_file}")
    else:
        click.echo("driver: none found (normal on a build host without an NPU)")
    known = ", ".join(f"{v}*" if v in installed else str(v) for v in table.versions())
    click.echo(f"known CANN releases ({table.path.name}; * installed): {known or 'none'}")
    for w in inst.warnings:
        click.echo(f"warning: {w}", err=True)


@toolchain.command()
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs, help="Only these SoCs (repeatable).")
@click.option("--toolchain", "requested", metavar="ID", shell_complete=complete_toolchains,
              help="Check this toolchain: sim, cann (highest that fits) or cann-<version>.")
@click.option("--for-run", is_flag=True,
              help="Check the targets can run on an NPU here: a driver (pin and CANN's minimum) "
                   "and a CANN build (a sim build holds no device binary).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def check(targets, socs, requested, for_run, as_json):
    """Check toolchain alignment for each (package, SoC).

    For each package and SoC: its pins, the toolchain resolution picks, the driver found, and
    whether that CANN release supports the SoC. Exits 3 with what to install or change on any
    misalignment. Without a driver (a build host), driver requirements are listed, to be
    checked where the bundle runs (--for-run checks them here, and fails without a driver or
    for a target that builds with sim).

    TARGETS as for `opkg build` (default //...).

    \b
    Examples:
      opkg toolchain check
      opkg toolchain check packages/layernorm --soc Ascend910B1 --for-run
    """
    from opkg.toolchains.alignment import check_alignment
    from opkg.toolchains.discovery import discover
    from opkg.core.workspace import Workspace

    ws = Workspace.find()
    packages = ws.select(list(targets))
    inst = discover()
    res = check_alignment(ws, packages, socs or None, requested, for_run=for_run,
                          installation=inst)
    if as_json:
        data = res.to_json()
        data["installation"] = inst.to_json()
        emit_json(data, sort_keys=True)
    else:
        click.echo(render_check(res, inst))
    err = res.error()
    if err is not None:
        err.json_reported = as_json   # the JSON above already carries the problems
        raise err


def _pins_text(pins: dict) -> str:
    return ", ".join(f"{k}{v}" if v[:1] in "<>=!~" else f"{k}=={v}"
                     for k, v in sorted(pins.items()) if v) or "-"


def render_check(res, inst) -> str:
    """The table, then each distinct note once with the targets it applies to. Problems are
    not repeated here: the ToolchainError lists them on stderr."""
    rows = [["package", "soc", "pins", "toolchain", "driver", "status"]]
    failed: dict = {}
    for p in res.problems:
        failed.setdefault((p.package, p.soc), p)
    for c in res.choices:
        driver = c.driver or ("-" if c.toolchain == "sim" else "none here")
        status = f"FAIL ({failed[(c.package, c.soc)].kind})" if (c.package, c.soc) in failed \
            else "ok"
        rows.append([c.package, c.soc, _pins_text(c.pins), c.toolchain, driver, status])
    chosen = {(c.package, c.soc) for c in res.choices}
    for key, p in failed.items():
        if key not in chosen:
            rows.append([p.package, p.soc, _pins_text(p.pins), "-", "-", f"FAIL ({p.kind})"])
    lines = [_table(rows)]
    notes: dict[str, list[str]] = {}
    for c in res.choices:
        for n in c.notes:
            notes.setdefault(n, []).append(f"{c.package} ({c.soc})")
    if notes:
        lines.append("")
        for text, where in notes.items():
            scope = "" if len(where) == len(res.choices) > 1 else f"{', '.join(where)}: "
            lines.append(f"note: {scope}{text}")
    for w in inst.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


@toolchain.command()
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@click.option("--soc", "socs", multiple=True, metavar="SOC", shell_complete=complete_socs,
              help="Only these SoCs (repeatable).")
@click.option("--toolchain", "requested", metavar="ID", shell_complete=complete_toolchains,
              help="Explain this toolchain: cann (highest that fits) or cann-<version>.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
def doctor(targets, socs, requested, as_json):
    """What opkg will run on this machine's CANN, and with which environment.

    For each CANN toolkit the resolution picks for TARGETS (outside a workspace: every
    installed toolkit): its tools, the bisheng opc will find first, the environment every CANN
    step gets (set_env.sh's for that toolkit) next to yours, the path entries of yours that are
    dropped because they belong to another toolkit, whether msopgen's op_gen and opc's tbe
    import from that environment, and the command lines of each package's CANN steps as
    planned. Nothing is built. Exits 3 when a tool is missing or a module does not import.

    \b
    Examples:
      opkg toolchain doctor
      opkg toolchain doctor packages/add_custom --soc Ascend910B1 --toolchain cann-8.1.RC1
    """
    from opkg.core.errors import ToolchainError
    from opkg.toolchains.alignment import check_alignment
    from opkg.toolchains.cann import CannToolchain
    from opkg.toolchains.discovery import discover
    from opkg.toolchains.doctor import planned_commands, toolkit_report

    inst = discover()
    ws = _workspace_or_none()
    plans: dict[str, list[tuple]] = {}
    if ws is not None:
        packages = [p for p in ws.select(list(targets)) if p.is_operator]
        res = check_alignment(ws, packages, socs or None, requested, installation=inst)
        for c in res.choices:
            if c.toolchain.startswith("cann-"):
                plans.setdefault(c.toolchain, []).append((ws.packages[c.package], c.soc))
    else:
        plans = {t.id: [] for t in inst.toolkits
                 if requested in (None, "cann", t.id)}
    reports = []
    for tc_id, targets_ in sorted(plans.items()):
        backend = CannToolchain(tc_id, ws, installation=inst)
        report = toolkit_report(backend)
        report["targets"] = []
        for pkg, soc_name in targets_:
            soc = ws.socs.get_soc(soc_name)
            deps = [ws.packages[d] for d in ws.graph.deps(pkg.label)]
            _, actions = backend.plan_target(pkg, soc, deps, ws.settings.output_dir,
                                             provenance={}, verify=False, bundle=False)
            report["targets"].append({"package": pkg.label, "soc": soc_name,
                                      "commands": planned_commands(actions)})
        reports.append(report)
    problems = [f"{r['toolchain']}: {name} not found in {r['root']}"
                for r in reports for name, path in r["tools"].items() if not path]
    problems += [f"{r['toolchain']}: bisheng is on none of its set_env.sh PATH entries"
                 for r in reports if not r["bisheng"]]
    problems += [f"{r['toolchain']}: `import {m}` fails with its set_env.sh PYTHONPATH "
                 f"({'msopgen' if m == 'op_gen' else 'opc'} would stop with ModuleNotFoundError)"
                 for r in reports for m, where in r["modules"].items() if where is None]
    if as_json:
        emit_json({"toolchains": reports, "problems": problems}, sort_keys=True)
    else:
        click.echo(render_doctor(reports, inst))
        for p in problems:
            click.echo(f"problem: {p}")
    if problems:
        err = ToolchainError(problems[0] + (f" (and {len(problems) - 1} more)"
                                            if len(problems) > 1 else ""),
                             hint="repair or reinstall the toolkit's development tools")
        err.json_reported = as_json
        raise err


def render_doctor(reports, inst) -> str:
    if not reports:
        return (f"no CANN toolchain to explain: no CANN toolkit found (searched "
                f"{', '.join(inst.searched)}) or every target builds with sim")
    lines = []
    for r in reports:
        lines.append(f"{r['toolchain']} at {r['root']}")
        for name, path in r["tools"].items():
            lines.append(f"  {name:9} {path or 'MISSING'}")
        lines.append(f"  {'bisheng':9} {r['bisheng'] or 'MISSING'} (first on the PATH below)")
        if r["caller_bisheng"] and r["caller_bisheng"] != r["bisheng"]:
            lines.append(f"            yours first on PATH is {r['caller_bisheng']}: not used")
        for m, where in r["modules"].items():
            lines.append(f"  import {m:6} {where or 'FAILS'}")
        lines.append("  environment of every CANN step (set_env.sh of this toolkit):")
        for v in r["variables"]:
            same = v["caller"] == v["opkg"]
            lines.append(f"    {v['name']}={v['opkg']}")
            if not same:
                lines.append(f"      yours: {v['caller'] if v['caller'] is not None else '(unset)'}")
        for var, entries in r["dropped"].items():
            lines.append(f"    dropped from your {var} (another toolkit): {', '.join(entries)}")
        lines.append("  opc also gets: " + " ".join(f"{k}={v}" for k, v in
                                                    sorted(r["opc_env"].items())))
        for t in r["targets"]:
            lines.append(f"  {t['package']} ({t['soc']}):")
            for c in t["commands"]:
                env = "".join(f"{k}={v} " for k, v in sorted(c["env"].items()))
                lines.append(f"    [{c['step']}] {env}{' '.join(c['argv'])}")
    return "\n".join(lines)
