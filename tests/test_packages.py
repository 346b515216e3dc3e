"""Every package shipped in packages/ builds and verifies on the sim for every SoC and dtype
variant it declares, and with --sync-check: the examples are what users copy from."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import REPO, opkg


def test_every_shipped_package_verifies_on_every_soc_and_variant(workspace):
    names = sorted(p.parent.name for p in (REPO / "packages").glob("*/opkg.yaml"))
    for name in names:
        workspace.copy_package(name)
    ws = workspace.load()
    r = opkg("build", "//...", "--json", cwd=workspace.root)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    result = json.loads(r.stdout)
    built = {(t["package"], t["soc"]): t for t in result["targets"]}
    for pkg in ws.packages.values():
        if not pkg.is_operator:
            continue
        for soc in pkg.socs:
            target = built[(pkg.label, soc)]
            assert target["passed"], (pkg.label, soc)
            for variant in pkg.op.variants():
                report = json.loads((workspace.root / "out/sim" / pkg.name / soc / variant.name /
                                     "verification.json").read_text())
                assert report["passed"] and report["cases"] == len(pkg.verify.cases), \
                    (pkg.label, soc, variant.name)
    # the same kernel libraries pass the pipeline hazard check (nothing recompiles)
    r = opkg("test", "//...", "--sync-check", "--json", cwd=workspace.root)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert all(t["passed"] for t in json.loads(r.stdout)["targets"])
