"""A verifier that dies names the step of the case it died in: a crash in the operator's own host
code (its InferShape, its tiling function) is not reported as a crash of the kernel, and what
that code printed before it crashed is in the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import opkg

# A read through the null address CANN hands out for an input's values when nothing declares a
# dependency on them (x is no ValueDepend input): SIGSEGV on the device's host as here.
NULL_READ = "    volatile float crash = context->GetInputTensor(0)->GetData<float>()[0];\n    (void)crash;\n"
# what the host code says before it crashes (stderr is unbuffered: it is written at once)
SAYS = '    std::fprintf(stderr, "reading x before the crash\\n");\n'


@pytest.mark.parametrize("function, step", [
    ("AddNListInferShape", "the operator's InferShape"),
    ("AddNListTiling", "the operator's tiling function"),
])
def test_a_crash_in_host_code_names_the_step(workspace, function, step):
    pkg = workspace.root / "packages" / "add_n"
    shutil.copytree(Path(__file__).parent / "fixtures" / "add_n", pkg)
    host = pkg / "op_host" / "add_n_list.cpp"
    source = host.read_text()
    head = f"{function}(gert::{'InferShape' if 'Infer' in function else 'Tiling'}Context* context)\n{{\n"
    assert head in source
    host.write_text("#include <cstdio>\n" + source.replace(head, head + SAYS + NULL_READ))
    r = opkg("build", "packages/add_n", "--json", cwd=workspace.root, check=None)
    [target] = json.loads(r.stdout)["targets"]
    assert not target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/add_n/Ascend910B1/float32/"
                         "verification.json").read_text())
    # and what it printed before, although the crash took the verifier down
    assert report["error"] == (f"{step} crashed (SIGSEGV) while running case 'three'\n"
                               "stderr of the host code before the crash:\n"
                               "  reading x before the crash"), report
