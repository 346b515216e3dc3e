"""Opt-in: opkg's opc steps against the CANN custom-op template's own scripts.

Set OPKG_CANN_TEMPLATE to the template directory of a CANN toolkit
(`<toolkit>/tools/op_project_templates/ascendc/customize`; the leideng/CANN-8.1.RC1 mirror
holds 8.1.RC1's at Ascend/ascend-toolkit/8.1.RC1/tools/op_project_templates/ascendc/customize).
For packages/add_custom on each of its compute units, the template's own
cmake/util/ascendc_bin_param_build.py writes the param JSONs and the gen/<Op>-<kernel>-<i>.sh
scripts from the op's ops-info ini; each script is run as the template's make file runs it
(`bash <sh> --kernel-src=<kernel> <adapter> <out>`) with a recording `opc` first on PATH. What
the scripts ran (tools, argv per compute unit, environment) and wrote (the param JSONs, byte
for byte) is compared with opkg's planned opc steps for the same release. The template's
CMake build itself (build.sh) is not run: see docs/cann.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cann_standin import install_stand_in_tools, make_toolkit, make_workspace, use_stand_in_roots

TEMPLATE = os.environ.get("OPKG_CANN_TEMPLATE")
pytestmark = pytest.mark.skipif(
    not TEMPLATE, reason="differential run against the CANN custom-op template: set "
                         "OPKG_CANN_TEMPLATE to <toolkit>/tools/op_project_templates/ascendc/"
                         "customize")

RECORDING_OPC = '''#!{python}
import json, os, sys
with open(os.environ["OPKG_DIFF_LOG"], "a") as fh:
    fh.write(json.dumps({{"argv": sys.argv, "cwd": os.getcwd(), "env": {{
        k: v for k, v in os.environ.items()
        if k.startswith("ASCEND_") or k in ("BUILD_KERNEL_SRC", "HI_PYTHON",
                                            "TILINGKEY_PAR_COMPILE")}}}}) + "\\n")
out = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--output=")][0]
param = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--input_param=")][0]
name = json.load(open(param))["op_list"][0]["bin_filename"]
os.makedirs(out, exist_ok=True)
for ext in (".o", ".json"):
    open(os.path.join(out, name + ext), "w").write("recorded\\n")
'''


def ops_info_ini(op) -> str:
    """op_build's aic-<unit>-ops-info.ini for the op: opkg's ops-info JSON in ini form."""
    from opkg.toolchains.cann import ops_info

    lines = []
    for op_type, sections in ops_info(op).items():
        lines.append(f"[{op_type}]")
        for key, fields in sections.items():
            lines += [f"{key}.{field}={value}" for field, value in fields.items()]
    return "\n".join(lines) + "\n"


def test_opc_steps_match_the_templates_generated_scripts(tmp_path, monkeypatch):
    from opkg.core.workspace import Workspace
    from opkg.toolchains import cann

    template = Path(TEMPLATE)
    util = template / "cmake" / "util"
    assert (util / "ascendc_bin_param_build.py").is_file(), f"not a template: {template}"
    ascend = tmp_path / "Ascend"
    use_stand_in_roots(monkeypatch, ascend)
    install_stand_in_tools(make_toolkit(ascend, "8.1.RC1"))
    root = make_workspace(tmp_path / "ws", packages=("add_custom",))
    ws = Workspace.load(root)
    pkg = ws.packages["//packages/add_custom"]
    backend = cann.CannToolchain("cann-8.1.RC1", ws)

    opc_dir = tmp_path / "recording"
    opc_dir.mkdir()
    (opc_dir / "opc").write_text(RECORDING_OPC.format(python=sys.executable))
    (opc_dir / "opc").chmod(0o755)
    log = tmp_path / "opc.log"
    differences = []
    for soc_name in pkg.socs:
        soc = ws.socs.get_soc(soc_name)
        op = pkg.op.for_soc(soc.short)
        _, actions = backend.plan_target(pkg, soc, [], ws.settings.output_dir, provenance={},
                                         verify=False, bundle=False)
        ours = [a for a in actions if a.step == "compile" and f"/{soc.name}/" in a.outputs[0]]
        (params,) = [a for a in actions if a.function == "opkg.toolchains.cann:scons_params"
                     and f"/{soc.name}/" in a.outputs[0]]

        # the template's scripts, from the same ops-info
        work = tmp_path / soc.short
        (work / "autogen").mkdir(parents=True)
        ini = work / "autogen" / f"aic-{soc.short}-ops-info.ini"
        ini.write_text(ops_info_ini(op))
        gen = work / "gen"
        gen.mkdir()
        done = subprocess.run([sys.executable, str(util / "ascendc_bin_param_build.py"), str(ini),
                               str(gen), soc.short], capture_output=True, text=True, cwd=work)
        assert done.returncode == 0, done.stdout + done.stderr
        theirs = {p.name: p.read_text() for p in gen.glob("*_param.json")}
        planned = {Path(dest).name: text for dest, text in params.params["write"].items()}
        if theirs != planned:
            differences.append(f"{soc.short}: param JSONs {sorted(theirs)} != {sorted(planned)}")
        log.unlink(missing_ok=True)
        kernel = ours[0].params["opc_env"]["BUILD_KERNEL_SRC"]
        env = {k: v for k, v in os.environ.items()
               if k not in ("ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_SLOG_PRINT_TO_STDOUT")}
        env.update(PATH=f"{opc_dir}{os.pathsep}{env['PATH']}", OPKG_DIFF_LOG=str(log))
        for sh in sorted(gen.glob("*.sh")):
            out = work / "out"
            ran = subprocess.run(["bash", str(sh), f"--kernel-src={kernel}", "ADAPTER", str(out)],
                                 capture_output=True, text=True, env=env, cwd=work)
            assert ran.returncode == 0, ran.stdout + ran.stderr
        recorded = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(recorded) == len(theirs) > 0     # one opc call per param JSON

        def norm(argv, param_dir, out_dir):
            return [a.replace(str(param_dir), "<gen>").replace(str(out_dir), "<out>")
                    for a in argv[2:]]
        got = sorted(norm(r["argv"], gen, work / "out") for r in recorded)
        want = sorted(norm(a.params["argv"], Path(params.outputs[0]).parent,
                           Path(a.outputs[0]).parent) for a in ours)
        if got != want:
            differences.append(f"{soc.short}: opc arguments\n  template: {got}\n  opkg:     {want}")
        from opkg.toolchains.cann_env import OPC_DEFAULTS

        for r in recorded:
            for var in ("ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_SLOG_PRINT_TO_STDOUT",
                        "BUILD_KERNEL_SRC"):
                opkg_value = {**OPC_DEFAULTS, **ours[0].params["opc_env"]}.get(var)
                if r["env"].get(var) != opkg_value:
                    differences.append(f"{soc.short}: {var}={r['env'].get(var)!r} in the "
                                       f"template's script, {opkg_value!r} in opkg's opc step")
    assert not differences, "\n".join(differences)
