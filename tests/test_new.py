"""`opkg new`: the generated package builds and verifies as is; bad names are refused."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import opkg

SOC = "Ascend910B1"


def test_new_package_builds_and_verifies(workspace):
    r = opkg("new", "my_add", "--op-type", "MyAddCustom", cwd=workspace.root, check=0)
    pkg = workspace.root / "packages" / "my_add"
    assert "created" in r.stdout and (pkg / "opkg.yaml").is_file()
    assert sorted(p.relative_to(pkg).as_posix() for p in pkg.rglob("*") if p.is_file()) == [
        "golden.py", "op_host/my_add_custom.cpp", "op_host/my_add_custom_tiling.h",
        "op_kernel/my_add_custom.cpp", "opkg.yaml"]
    r = opkg("build", "packages/my_add", "--soc", SOC, "--json", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"]
    for variant in ("float16", "float32"):
        assert target["variants"][variant] == {"passed": True, "cases": 4, "failed": 0,
                                               "status": "PASS", "why": None}
    report = json.loads((workspace.root / "out/sim/my_add" / SOC / "float16" /
                         "verification.json").read_text())
    names = {c["case"] for c in report["results"]}
    assert {"uneven_split", "ragged_tail", "single_element"} <= names
    # the OpDef check ran and found the generated prototype consistent
    check = json.loads((workspace.root / "out/sim/my_add/host/prototype-check.json").read_text())
    assert check["opdef"] and check["differences"] == []


def test_new_refuses_bad_names_and_existing_dest(workspace):
    r = opkg("new", "MyAdd", "--op-type", "MyAddCustom", cwd=workspace.root, check=2)
    assert "is not a package name" in r.stderr and "hint:" in r.stderr
    r = opkg("new", "my_add", "--op-type", "my_add", cwd=workspace.root, check=2)
    assert "--op-type" in r.stderr and "CamelCase" in r.stderr
    r = opkg("new", "my_add", "--op-type", "MyAddCustom", "--soc", "Ascend310P3",
             cwd=workspace.root, check=2)
    assert "DataCopyPad" in r.stderr
    opkg("new", "my_add", "--op-type", "MyAddCustom", cwd=workspace.root, check=0)
    r = opkg("new", "my_add", "--op-type", "MyAddCustom", cwd=workspace.root, check=2)
    assert "already exists" in r.stderr


def test_new_help_has_examples(workspace):
    r = opkg("new", "--help", cwd=workspace.root, check=0)
    assert "Examples:" in r.stdout and "opkg new my_add --op-type MyAddCustom" in r.stdout


def test_new_refuses_a_name_or_op_type_the_workspace_already_has(tmp_path, monkeypatch):
    import subprocess
    import sys

    from tests.conftest import REPO

    for args in (["add_custom", "--op-type", "FooCustom"], ["foo", "--op-type", "AddCustom"]):
        dest = tmp_path / args[0]
        r = subprocess.run([sys.executable, "-m", "opkg", "new", *args, "--dest", str(dest)],
                           cwd=REPO, capture_output=True, text=True)
        assert r.returncode == 2 and "already has" in r.stderr, r.stderr
        assert not dest.exists()


def test_new_refuses_names_past_the_manifest_limits(workspace):
    r = opkg("new", "a" * 240, "--op-type", "MyAddCustom", cwd=workspace.root, check=2)
    assert "is 240 characters long; at most 64" in r.stderr, r.stderr
    r = opkg("new", "my_add", "--op-type", "M" + "y" * 200, cwd=workspace.root, check=2)
    assert "is 201 characters long; at most 128" in r.stderr, r.stderr
    assert not (workspace.root / "packages" / "my_add").exists()
