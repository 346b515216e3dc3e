"""`opkg import` of an OpDef whose AddConfig(short, config) carries the config's own dtype
lists (CANN's OpAICoreConfig; cann-ops' DiagV2 adds bfloat16 for ascend910b that way) writes
them as op.soc_configs, so the build's OpDef check passes and each SoC builds its own variants.
The project is our own fixture tests/fixtures/per_soc_add in cann-ops' layout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "per_soc_add"


def test_import_writes_a_configs_own_dtype_lists_as_soc_configs(workspace, tmp_path):
    project = tmp_path / "src" / "math" / "per_soc_add"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    opkg("import", str(project), "--dest", "packages/per_soc_add", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "per_soc_add"
    written = yaml.safe_load((pkg / "opkg.yaml").read_text())["op"]
    hand = yaml.safe_load((FIXTURE / "opkg.yaml").read_text())["op"]
    config = written["soc_configs"]["ascend310p"]
    assert [(t["name"], t["dtypes"]) for t in config["inputs"] + config["outputs"]] == \
        [(t["name"], t["dtypes"]) for c in [hand["soc_configs"]["ascend310p"]]
         for t in c["inputs"] + c["outputs"]]
    shutil.copyfile(FIXTURE / "golden.py", pkg / "golden.py")    # the stub, written
    r = opkg("build", "packages/per_soc_add", "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    variants = {t["soc"]: set(t["variants"]) for t in result["targets"]}
    assert {"float16", "float32"} in variants.values(), r.stdout + r.stderr    # the 310P config
    assert {"float16", "float32", "bfloat16"} in variants.values(), r.stdout + r.stderr
