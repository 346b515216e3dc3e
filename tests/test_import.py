"""`opkg import`: a stand-in msopgen project (prototype JSON, op_host/, op_kernel/) becomes a
package; without a golden the build fails saying so; malformed JSON is bad input (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
from tests.conftest import opkg

SOC = "Ascend910B1"

PROTOTYPE = [{
    "op": "LeakyReluCustom", "language": "cpp",
    "input_desc": [{"name": "x", "param_type": "required", "format": ["ND", "ND"],
                    "type": ["fp16", "float"]}],
    "output_desc": [{"name": "y", "param_type": "required", "format": ["ND", "ND"],
                     "type": ["fp16", "float"]}],
    "attr": [{"name": "negative_slope", "param_type": "optional", "type": "float",
              "default_value": "0.01"}],
}]

GOLDEN = """\
import numpy as np


def reference(x, *, negative_slope):
    x = x.astype(np.float64)
    return np.where(x >= 0, x, x * negative_slope)
"""


def msopgen_project(root: Path, prototype=PROTOTYPE) -> Path:
    """An msopgen-shaped project: the prototype JSON beside op_host/ and op_kernel/ (the
    sources are the leaky_relu package's own), plus files msopgen generates that opkg ignores."""
    project = root / "LeakyReluCustom"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(REPO / "packages" / "leaky_relu" / d, project / d)
    # the package takes its work split from //packages/common; a standalone msopgen project
    # carries such a helper header in op_host/ itself
    shutil.copytree(REPO / "packages" / "common" / "include" / "opkg_common",
                    project / "op_host" / "opkg_common")
    (project / "CMakePresets.json").write_text('{"version": 1}\n')
    (project / "build.sh").write_text("#!/bin/sh\n")
    text = prototype if isinstance(prototype, str) else json.dumps(prototype, indent=4)
    (project / "leaky_relu_custom.json").write_text(text)
    return project


def test_import_with_golden_builds_and_verifies(workspace, tmp_path):
    project = msopgen_project(tmp_path)
    golden = tmp_path / "reference.py"
    golden.write_text(GOLDEN)
    r = opkg("import", str(project), "--dest", "packages/lrelu", "--golden",
             f"{golden}:reference", cwd=workspace.root, check=0)
    assert 'AddConfig("ascend910b") -> Ascend910B1' in r.stdout
    pkg = workspace.root / "packages" / "lrelu"
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["op"] == {
        "type": "LeakyReluCustom",
        "inputs": [{"name": "x", "dtypes": ["float16", "float32"], "formats": ["ND"]}],
        "outputs": [{"name": "y", "dtypes": ["float16", "float32"], "formats": ["ND"]}],
        "attrs": [{"name": "negative_slope", "type": "float", "default": 0.01}]}
    assert manifest["socs"] == [SOC]
    assert manifest["verify"]["golden"] == "reference.py:reference"
    assert "REVIEW" in (pkg / "opkg.yaml").read_text()
    # sources copied unchanged
    for rel in ("op_host/leaky_relu_custom.cpp", "op_kernel/leaky_relu_custom.cpp"):
        assert (pkg / rel).read_bytes() == (project / rel).read_bytes()
    r = opkg("build", "packages/lrelu", "--soc", SOC, "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"] and set(target["variants"]) == {"float16", "float32"}


def test_import_without_golden_fails_the_build_saying_so(workspace, tmp_path):
    project = msopgen_project(tmp_path)
    r = opkg("import", str(project), "--dest", "packages/lrelu", cwd=workspace.root, check=0)
    assert "golden missing" in r.stdout
    stub = (workspace.root / "packages/lrelu/golden.py").read_text()
    assert "def leaky_relu_custom(x, *, negative_slope):" in stub
    r = opkg("build", "packages/lrelu", "--soc", SOC, "--json", cwd=workspace.root, check=1)
    [target] = json.loads(r.stdout)["targets"]
    assert not target["passed"]
    report = json.loads((workspace.root / "out/sim/lrelu" / SOC / "float16" /
                         "verification.json").read_text())
    assert not report["passed"]
    assert report["error"].startswith("golden missing: write golden.py:leaky_relu_custom")


def test_malformed_json_given_with_prototype_is_bad_input_with_file_and_hint(workspace, tmp_path):
    text = json.dumps(PROTOTYPE, indent=4).replace('"required",', '"required"', 1)
    assert text != json.dumps(PROTOTYPE, indent=4)
    project = msopgen_project(tmp_path, text)
    r = opkg("import", str(project), "--dest", "packages/lrelu", "--prototype",
             str(project / "leaky_relu_custom.json"), cwd=workspace.root, check=2)
    assert "leaky_relu_custom.json:" in r.stderr and "invalid JSON" in r.stderr
    assert r.stderr.split("leaky_relu_custom.json:")[1].split(":")[0].isdigit()   # a line
    assert "hint:" in r.stderr
    assert not (workspace.root / "packages" / "lrelu").exists()
    # found on its own, a file that is no prototype is not one: the OpDef is the source of truth
    r = opkg("import", str(project), "--dest", "packages/lrelu", cwd=workspace.root, check=0)
    assert "prototype from the OpDef in op_host/ (LeakyReluCustom)" in r.stdout


def test_prototype_json_found_by_content_beside_or_absent(workspace, tmp_path):
    # CANN's samples keep msopgen's input next to the generated project, under any name
    project = msopgen_project(tmp_path)
    (project / "leaky_relu_custom.json").rename(tmp_path / "lrelu_proto.json")
    r = opkg("import", str(project), "--dest", "packages/lrelu", cwd=workspace.root, check=0)
    assert "compared with the prototype JSON lrelu_proto.json beside the project directory" in r.stdout
    manifest = yaml.safe_load((workspace.root / "packages/lrelu/opkg.yaml").read_text())
    assert manifest["op"]["type"] == "LeakyReluCustom"
    (tmp_path / "lrelu_proto.json").unlink()
    shutil.rmtree(workspace.root / "packages" / "lrelu")     # op types are unique
    r = opkg("import", str(project), "--dest", "packages/lrelu2", cwd=workspace.root, check=0)
    assert "prototype from the OpDef" in r.stdout and "compared with" not in r.stdout
    manifest2 = yaml.safe_load((workspace.root / "packages/lrelu2/opkg.yaml").read_text())
    assert manifest2["op"] == manifest["op"]


def test_json_that_disagrees_with_the_opdef_loses_with_a_note(workspace, tmp_path):
    wrong = json.loads(json.dumps(PROTOTYPE))
    wrong[0]["input_desc"][0]["type"] = ["fp16", "fp16"]              # OpDef: float16, float32
    wrong[0]["attr"][0]["param_type"] = "required"
    project = msopgen_project(tmp_path, wrong)
    r = opkg("import", str(project), "--dest", "packages/lrelu", cwd=workspace.root, check=0)
    assert ("leaky_relu_custom.json says input 'x' dtypes ['float16', 'float16'] "
            "(OpDef: ['float16', 'float32']); the OpDef wins") in r.stdout
    assert "attr 'negative_slope' required (OpDef: optional); the OpDef wins" in r.stdout
    manifest = yaml.safe_load((workspace.root / "packages/lrelu/opkg.yaml").read_text())
    assert manifest["op"]["inputs"][0]["dtypes"] == ["float16", "float32"]
    assert manifest["op"]["attrs"] == [{"name": "negative_slope", "type": "float",
                                        "default": 0.01}]


def test_bad_prototype_fields_name_the_field(workspace, tmp_path):
    bad = json.loads(json.dumps(PROTOTYPE))
    bad[0]["input_desc"][0]["type"] = ["fp16", "float65"]
    project = msopgen_project(tmp_path, bad)
    proto = str(project / "leaky_relu_custom.json")
    r = opkg("import", str(project), "--dest", "packages/lrelu", "--prototype", proto,
             cwd=workspace.root, check=2)
    assert "[0].input_desc[0].type[1]" in r.stderr and "float65" in r.stderr
    r = opkg("import", str(project), "--dest", "packages/lrelu", cwd=workspace.root, check=0)
    assert "prototype JSON leaky_relu_custom.json ignored" in r.stdout and "float65" in r.stdout
    r = opkg("import", str(tmp_path / "nowhere"), "--dest", "packages/x", cwd=workspace.root,
             check=2)
    assert "no such project directory" in r.stderr


def test_import_help_has_examples(workspace):
    r = opkg("import", "--help", cwd=workspace.root, check=0)
    assert "Examples:" in r.stdout and "--golden" in r.stdout


def test_import_json_is_machine_output_and_prototype_names_the_file(workspace, tmp_path):
    project = msopgen_project(tmp_path)
    proto = project / "leaky_relu_custom.json"
    other = tmp_path / "elsewhere" / "proto.json"
    other.parent.mkdir()
    proto.rename(other)
    r = opkg("import", str(project), "--dest", "packages/lrelu", "--prototype",
             str(tmp_path / "missing.json"), "--json", cwd=workspace.root, check=2)
    error = json.loads(r.stdout)["error"]
    assert not json.loads(r.stdout)["ok"] and "missing.json" in error["message"]
    r = opkg("import", str(project), "--dest", "packages/lrelu", "--prototype", str(other),
             "--json", cwd=workspace.root, check=0)
    result = json.loads(r.stdout)
    assert result["ok"] and result["op_type"] == "LeakyReluCustom"
    assert result["socs"] == [SOC] and result["golden_missing"] is True
    assert "compared with the prototype JSON proto.json" in result["notes"]


def test_import_defaults_dest_and_replaces_only_with_force(workspace, tmp_path):
    """Without --dest the package goes under the first package root, named after the project
    directory; a second import refuses the existing package unless --force, and a failed
    --force import leaves the old package as it was."""
    project = msopgen_project(tmp_path)
    r = opkg("import", str(project), cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "leaky_relu_custom"
    assert f"into packages/leaky_relu_custom" in r.stdout and (pkg / "opkg.yaml").is_file()
    (pkg / "NOTES.md").write_text("mine\n")

    r = opkg("import", str(project), cwd=workspace.root, check=2)
    assert "already exists and is not empty" in r.stderr and "--force" in r.stderr
    assert (pkg / "NOTES.md").is_file()

    broken = tmp_path / "broken" / "LeakyReluCustom"
    shutil.copytree(project, broken)
    shutil.rmtree(broken / "op_kernel")
    (broken / "op_kernel").mkdir()
    r = opkg("import", str(broken), "--dest", "packages/leaky_relu_custom", "--force",
             cwd=workspace.root, check=2)
    assert (pkg / "NOTES.md").is_file()                     # untouched by the failed import
    assert not [p.name for p in pkg.parent.iterdir() if p.name.startswith(".")]

    r = opkg("import", str(project), "--force", cwd=workspace.root, check=0)
    assert "replaced the package that was in packages/leaky_relu_custom (--force)" in r.stdout
    assert not (pkg / "NOTES.md").exists() and (pkg / "opkg.yaml").is_file()
    assert not [p.name for p in pkg.parent.iterdir() if p.name.startswith(".")]
    r = opkg("query", "packages", cwd=workspace.root, check=0)
    assert r.stdout.count("LeakyReluCustom") == 1


def test_import_outside_a_workspace_needs_dest(tmp_path):
    project = msopgen_project(tmp_path)
    r = opkg("import", str(project), cwd=tmp_path, check=2)
    assert "no --dest" in r.stderr and "opkg init" in r.stderr
