"""Dynamic (list) inputs end to end: a manifest input with `param_type: dynamic` takes one shape
per tensor in each case; the golden gets a list of arrays; tiling reads the tensors through
GetDynamicInputShape / GetInputInstanceInfo; the kernel reads them through ListTensorDesc."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "add_n"
SOC = "Ascend910B1"


@pytest.fixture
def addn_ws(workspace):
    shutil.copytree(FIXTURE, workspace.root / "packages" / "add_n")
    return workspace


def _report(ws, variant):
    return json.loads((ws.root / "out/sim/add_n" / SOC / variant / "verification.json").read_text())


def test_a_dynamic_input_builds_and_verifies_for_every_variant(addn_ws):
    r = opkg("build", "packages/add_n", "--json", cwd=addn_ws.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"] and set(target["variants"]) == {"float16", "float32"}
    report = _report(addn_ws, "float32")
    by_case = {c["case"]: c for c in report["results"]}
    assert set(by_case) == {"three", "one", "five_uneven"}
    assert by_case["three"]["shapes"] == {"x": [[8, 64], [8, 64], [8, 64]]}
    # the tiling counted the tensors and split their 512 elements across cores
    assert by_case["three"]["run"]["block_dim"] == 32
    assert all(c["passed"] for c in report["results"])


def test_the_golden_sees_every_tensor_of_the_list(addn_ws):
    # A golden that ignores all but the first tensor disagrees with the kernel's sum.
    (addn_ws.root / "packages/add_n/golden.py").write_text(
        "def add_n(x):\n    return x[0]\n")
    r = opkg("build", "packages/add_n", cwd=addn_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "FAIL" in r.stdout


def test_indexing_past_the_list_names_the_kernel_line_and_block(addn_ws):
    kernel = addn_ws.root / "packages/add_n/op_kernel/add_n_list.cpp"
    text = kernel.read_text()
    assert "i < tensorNum_" in text
    kernel.write_text(text.replace("i < tensorNum_", "i <= tensorNum_"))
    line = next(n for n, s in enumerate(kernel.read_text().splitlines(), 1) if "GetDataPtr" in s)
    r = opkg("build", "packages/add_n", cwd=addn_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    msg = _report(addn_ws, "float32")["results"][0]["error"]
    assert f"add_n_list.cpp:{line}:" in msg and "block 0 of" in msg
    assert "GetDataPtr(3): the list holds 3 tensors" in msg


def test_reading_past_one_tensor_of_the_list_is_reported(addn_ws):
    kernel = addn_ws.root / "packages/add_n/op_kernel/add_n_list.cpp"
    text = kernel.read_text()
    # Reads a whole extra element per core: the last core reads past the tensor's end, into the
    # allocator's padding (allowed, as on the device), and stores the garbage it summed.
    kernel.write_text(text.replace("xGm.SetGlobalBuffer(list_.GetDataPtr<DTYPE_Y>(i) + start_, length_);",
                                   "xGm.SetGlobalBuffer(list_.GetDataPtr<DTYPE_Y>(i) + start_ + 1, length_);"))
    r = opkg("build", "packages/add_n", cwd=addn_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    msg = _report(addn_ws, "float32")["results"][0]["error"]
    assert "add_n_list.cpp:" in msg and "stores undefined values into bytes" in msg
    assert "loaded byte 2048 of 'x[0]', in the allocator padding after its 2048 bytes" in msg
    # the exact check, as a lint
    r = opkg("build", "packages/add_n", "--strict-bounds", cwd=addn_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    msg = _report(addn_ws, "float32")["results"][0]["error"]
    assert "add_n_list.cpp:" in msg and "of 'x[0]', which has only 2048 bytes (--strict-bounds" in msg


@pytest.mark.parametrize("shapes, message", [
    ("[8, 64]", "'x' is a dynamic input: give a non-empty list of shapes"),
    ("[]", "'x' is a dynamic input: give a non-empty list of shapes"),
    ("[[8, 64], [8, -1]]", "dimension must be a non-negative integer, got -1"),
])
def test_a_dynamic_input_needs_a_list_of_shapes(addn_ws, shapes, message):
    manifest = addn_ws.root / "packages/add_n/opkg.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace("shapes: {x: [[8, 64], [8, 64], [8, 64]]}", f"shapes: {{x: {shapes}}}"))
    line = next(n for n, s in enumerate(manifest.read_text().splitlines(), 1) if f"x: {shapes}" in s)
    r = opkg("build", "packages/add_n", cwd=addn_ws.root)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"opkg.yaml:{line}:" in r.stderr and message in r.stderr


def test_an_msopgen_project_with_a_dynamic_input_imports_and_verifies(workspace, tmp_path):
    project = tmp_path / "AddNList"
    for d in ("op_host", "op_kernel"):
        shutil.copytree(FIXTURE / d, project / d)
    (project / "add_n_list.json").write_text(json.dumps([{
        "op": "AddNList", "language": "cpp",
        "input_desc": [{"name": "x", "param_type": "dynamic", "format": ["ND", "ND"],
                        "type": ["float", "fp16"]}],
        "output_desc": [{"name": "y", "param_type": "required", "format": ["ND", "ND"],
                         "type": ["float", "fp16"]}]}]))
    opkg("import", str(project), "--dest", "packages/addn", "--golden",
         f"{FIXTURE / 'golden.py'}:add_n", cwd=workspace.root, check=0)
    manifest = (workspace.root / "packages/addn/opkg.yaml").read_text()
    assert "param_type: dynamic" in manifest and "x: [[8, 256], [8, 256]]" in manifest
    r = opkg("build", "packages/addn", "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"]


def test_each_tensor_of_a_dynamic_input_may_have_its_own_range(addn_ws):
    """An ops repository's ttk row gives each tensor of a dynamic input its own range (ops-nn's
    foreach tables): a case may say one [low, high] per tensor, and each tensor is drawn from
    its own; as many as the case has tensors."""
    manifest = addn_ws.root / "packages/add_n/opkg.yaml"
    text = manifest.read_text()
    manifest.write_text(text.replace(
        "      shapes: {x: [[8, 64], [8, 64], [8, 64]]}\n",
        "      shapes: {x: [[8, 64], [8, 64], [8, 64]]}\n"
        "      ranges: {x: [[0, 0.5], [10, 10], [-3, -2]]}\n"))
    (addn_ws.root / "packages/add_n/golden.py").write_text(
        "import numpy as np\n\n"
        "def add_n(x):\n"
        "    if len(x) == 3:\n"
        "        assert 0 <= x[0].min() and x[0].max() <= 0.5, 'x[0] outside [0, 0.5]'\n"
        "        assert (x[1] == 10).all(), 'x[1] is not all 10'\n"
        "        assert -3 <= x[2].min() and x[2].max() <= -2, 'x[2] outside [-3, -2]'\n"
        "    out = x[0].copy()\n"
        "    for t in x[1:]:\n"
        "        out = (out + t).astype(x[0].dtype)\n"
        "    return out\n")
    r = opkg("build", "packages/add_n", "--json", cwd=addn_ws.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    manifest.write_text(text.replace(
        "      shapes: {x: [[8, 64], [8, 64], [8, 64]]}\n",
        "      shapes: {x: [[8, 64], [8, 64], [8, 64]]}\n"
        "      ranges: {x: [[0, 0.5], [10, 10]]}\n"))
    r = opkg("build", "packages/add_n", cwd=addn_ws.root)
    assert r.returncode != 0
    assert "2 ranges for the 3 tensors of 'x' in this case" in r.stdout + r.stderr
