"""bench/compat/run.py, the compatibility harness, on a tiny corpus of our own operators laid out
as AscendProjects is (operator/<X>Sample/FrameworkLaunch/<X>/, the prototype JSON beside it):
one verifies, one has no module ("no golden yet"), one is out of scope, one fails and takes
its classification from the hand-kept YAML. The public corpora are not used (no network in CI)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MSOPGEN = REPO / "tests" / "fixtures" / "msopgen"
RUN = REPO / "bench" / "compat" / "run.py"

MODULES = {
    "AddCustom.py": '''"""AddCustom: z = x + y."""
import numpy as np
PATH = "operator/AddCustomSample/FrameworkLaunch/AddCustom"
CASES = [{"name": "rows", "shapes": {"x": [8, 2048], "y": [8, 2048]}, "ranges": {"x": [1, 100]}},
         {"name": "ragged", "shapes": {"x": [1, 999], "y": [1, 999]}}]
def golden(x, y):
    return x.astype(np.float64) + y
OUT_OF_SCOPE = None
''',
    "LeakyReluCustom.py": '''"""LeakyReluCustom with a golden that is wrong on purpose (slope ignored)."""
import numpy as np
PATH = "operator/LeakyReluCustomSample/FrameworkLaunch/LeakyReluCustom"
SOCS = ["Ascend910B1"]
CASES = [{"name": "slope", "shapes": {"x": [4, 1024]}, "attrs": {"negative_slope": 0.5}}]
TOLERANCE = {"float32": {"rtol": 1e-4, "atol": 1e-4, "error_ratio": 0.0}}
def golden(x, *, negative_slope):
    return np.maximum(x.astype(np.float64), 0)
OUT_OF_SCOPE = None
''',
    "AddcdivCustom.py": '''"""AddcdivCustom: pretend it needs the cube."""
PATH = "operator/AddcdivCustomSample/FrameworkLaunch/AddcdivCustom"
CASES = []
def golden(*a):
    raise NotImplementedError
OUT_OF_SCOPE = "cube: Mmad"
''',
}


def corpus(root: Path) -> Path:
    for name in ("AddCustom", "LeakyReluCustom", "SubCustom", "AddcdivCustom"):
        launch = root / "operator" / f"{name}Sample" / "FrameworkLaunch"
        shutil.copytree(MSOPGEN / name, launch / name)
        # the prototype JSON beside the project, under a name of its own (as the samples do)
        for j in (launch / name).glob("*.json"):
            if j.name != "CMakePresets.json":
                j.rename(launch / f"proto_{name.lower()}.json")
    return root


def test_harness_on_a_corpus_of_our_own(tmp_path):
    root = corpus(tmp_path / "corpus")
    modules = tmp_path / "modules"
    modules.mkdir()
    for name, text in MODULES.items():
        (modules / name).write_text(text)
    classification = tmp_path / "classification.yaml"
    classification.write_text("LeakyReluCustom: {class: bug of the golden, "
                              "note: the test's golden ignores negative_slope}\n")
    results, doc = tmp_path / "results", tmp_path / "compat.md"
    r = subprocess.run([sys.executable, str(RUN), "--corpus", str(root), "--modules",
                        str(modules), "--classification", str(classification), "--results",
                        str(results), "--doc", str(doc), "--corpus-commit", "abc123",
                        "--work", str(tmp_path / "work")],
                       capture_output=True, text=True, timeout=1200, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ascendprojects: 1/3 verified" in r.stdout

    data = json.loads(next(results.glob("compat-ascendprojects-*.json")).read_text())
    assert data["commit"] == "abc123"
    rows = {row["operator"]: row for row in data["rows"]}
    add = rows["AddCustom"]
    assert (add["imported"], add["compiled"], add["verified"]) == (True, True, True)
    assert set(add["variants"]) == {"Ascend910B1/float16", "Ascend910B1/float32"}
    lrelu = rows["LeakyReluCustom"]
    assert (lrelu["compiled"], lrelu["verified"]) == (True, False)
    assert "slope" in lrelu["first_error"] and "mismatch" in lrelu["first_error"]
    assert lrelu["classification"] == ("bug of the golden: the test's golden ignores "
                                       "negative_slope")
    assert rows["SubCustom"]["imported"] is True
    assert rows["SubCustom"]["classification"] == "no golden yet"
    assert rows["AddcdivCustom"]["classification"] == "out of scope: cube: Mmad"
    assert rows["AddcdivCustom"]["imported"] is None
    # it measures the device's result: ragged DataCopy lengths truncate as on the device
    reports = list((tmp_path / "work" / "AddCustom").glob("out/sim/**/verification.json"))
    assert reports and all(json.loads(p.read_text())["modes"] == {"lenient_copy": True}
                           for p in reports)

    text = doc.read_text()
    assert "on commit `abc123`" in text and "**1/3 verified**" in text
    assert ("| AddCustom | `operator/AddCustomSample/FrameworkLaunch/AddCustom` | yes | yes | "
            "yes | – | – |") in text
    assert "| AddcdivCustom |" in text and "out of scope: cube: Mmad" in text
    # regenerating replaces the corpus's section and keeps the rest of the page
    doc.write_text(text.replace("# Compatibility", "# Compatibility (edited)"))
    r = subprocess.run([sys.executable, str(RUN), "--corpus", str(root), "--modules",
                        str(modules), "--classification", str(classification), "--results",
                        str(results), "--doc", str(doc), "--work", str(tmp_path / "work")],
                       capture_output=True, text=True, timeout=1200, cwd=REPO)
    assert r.returncode == 0, r.stderr
    again = doc.read_text()
    assert again.count("<!-- compat:ascendprojects:begin -->") == 1
    assert again.startswith("# Compatibility (edited)")


def test_corpus_layouts_are_told_apart():
    sys.path.insert(0, str(RUN.parent))
    try:
        import run as harness
    finally:
        sys.path.pop(0)
    cann = REPO / "tests" / "fixtures" / "cann_ops_layout"
    assert harness.corpus_kind(cann) == "cann-ops"
    assert list(harness.projects(cann, "cann-ops")) == ["scale_add", "scale_each"]
    assert harness.package_name("MoeSoftMaxTopkCustom") == "moe_soft_max_topk_custom"
