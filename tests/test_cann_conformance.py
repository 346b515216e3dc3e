"""The conformance tier: the same CANN build the stand-in tests run, against a real toolkit.

Runs only with OPKG_CANN_CONFORMANCE=1 on a machine with CANN installed (set_env.sh sourced, or
under /usr/local/Ascend): `OPKG_CANN_CONFORMANCE=1 make test`. It builds packages/add_custom
with the newest discovered toolkit for the first SoC both the package and the toolkit support,
then checks the .run against the recorded install manifest and installs it both ways (with
--install-path, and into $ASCEND_OPP_PATH with vendors/config.ini). Everything else in tests/ runs against stand-in tools (docs/cann.md)."""

import os
import subprocess

import pytest

from cann_standin import expected_run_files, make_workspace, staged_files

ENABLED = os.environ.get("OPKG_CANN_CONFORMANCE") == "1"
pytestmark = pytest.mark.skipif(
    not ENABLED, reason="conformance against a real CANN toolkit: set OPKG_CANN_CONFORMANCE=1 on "
                        "a machine with CANN installed")


def _real_toolkit():
    from opkg.toolchains.discovery import discover

    inst = discover()
    if not inst.toolkits:
        pytest.skip(f"OPKG_CANN_CONFORMANCE=1 but no CANN toolkit found "
                    f"(searched {', '.join(inst.searched)})")
    return max(inst.toolkits, key=lambda t: t.version)


def test_real_toolkit_builds_an_installable_run(tmp_path, monkeypatch, capsys):
    from opkg.cli import main
    from opkg.core.socs import get_soc
    from opkg.toolchains import cann
    from opkg.core.workspace import Workspace

    tk = _real_toolkit()
    root = make_workspace(tmp_path / "ws", packages=("add_custom",))
    monkeypatch.chdir(root)
    pkg = Workspace.load(root).packages["//packages/add_custom"]
    socs = [s for s in pkg.socs if tk.supports_soc(s)]
    if not socs:
        pytest.skip(f"{tk.id} supports none of add_custom's SoCs ({', '.join(pkg.socs)})")
    with pytest.raises(SystemExit) as exc:
        main(["build", "packages/add_custom", "--soc", socs[0], "--toolchain", tk.id])
    out, err = capsys.readouterr()
    assert exc.value.code == 0, out + err
    soc = get_soc(socs[0])
    sdir = root / "out" / "cann" / tk.id / "add_custom"
    units = {get_soc(s).short for s in socs}     # the package's one .run holds every unit
    assert staged_files(sdir / "run_stage") == set().union(*(
        expected_run_files(pkg.op, "add_custom", unit, cann.host_arch()) for unit in units))
    run = sdir / f"custom_opp_{cann.host_os()}_{cann.host_arch()}.run"
    target = tmp_path / "installed"
    done = subprocess.run(["bash", str(run), f"--install-path={target}"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "vendors/add_custom/bin/set_env.bash").is_file()
    # the other kind: into $ASCEND_OPP_PATH/vendors, first in vendors/config.ini
    opp = tmp_path / "opp"
    (opp / "vendors").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "ASCEND_CUSTOM_OPP_PATH"}
    done = subprocess.run(["bash", str(run), "--quiet"], capture_output=True, text=True,
                          cwd=tmp_path, env=dict(env, ASCEND_OPP_PATH=str(opp)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (opp / "vendors/config.ini").read_text().startswith("load_priority=add_custom")
    # real opc records a staticKey per binary; the project's ascendc_ops_config.py carries it
    import json

    cfg = json.loads((opp / f"vendors/add_custom/op_impl/ai_core/tbe/kernel/config/{soc.short}/"
                      "add_custom.json").read_text())
    assert all(b.get("staticKey") for b in cfg["binList"])
