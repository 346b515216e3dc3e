"""`opkg query` answers a newcomer can read: an empty answer says so (on stderr, stdout stays a
list for `$(opkg query ...)`), and a target that matches nothing gets a hint that leads
somewhere: a close name, the packages there are, or how to make one, never `opkg query
packages` again."""

from __future__ import annotations

import json

from tests.conftest import opkg


def test_deps_and_rdeps_say_when_there_are_none(workspace):
    workspace.library("common")
    workspace.operator("addone", deps=["//packages/common"])
    r = opkg("query", "deps", "packages/common", cwd=workspace.root, check=0)
    assert r.stdout == "" and r.stderr.strip() == "//packages/common depends on no package"
    r = opkg("query", "rdeps", "packages/addone", cwd=workspace.root, check=0)
    assert r.stdout == "" and r.stderr.strip() == "no package depends on //packages/addone"
    r = opkg("query", "deps", "packages/addone", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["labels"] == ["//packages/common"] and r.stderr == ""
    r = opkg("query", "deps", "packages/common", "--json", cwd=workspace.root, check=0)
    assert json.loads(r.stdout)["labels"] == [] and r.stderr == ""


def test_a_target_matching_nothing_gets_a_hint_that_leads_somewhere(workspace):
    workspace.operator("addone")
    workspace.operator("subone", op_type="SubOne")
    for args in (("query", "packages", "//nosuch"), ("build", "//nosuch")):
        r = opkg(*args, cwd=workspace.root, check=2)
        assert "hint: packages here: //packages/addone, //packages/subone" in r.stderr
        assert "opkg query packages" not in r.stderr
    r = opkg("query", "packages", "//packages/adone", cwd=workspace.root, check=2)
    assert "did you mean '//packages/addone'?" in r.stderr


def test_an_empty_workspace_says_how_to_make_a_package(tmp_path):
    opkg("init", ".", "--no-sample", cwd=tmp_path, check=0)
    r = opkg("query", "packages", cwd=tmp_path, check=0)
    assert r.stdout == ""
    assert r.stderr.strip() == ("no packages yet: create one with: opkg new NAME, or opkg "
                                "import PROJECT_DIR")
    assert json.loads(opkg("query", "packages", "--json", cwd=tmp_path, check=0).stdout)[
        "packages"] == []
    r = opkg("build", cwd=tmp_path, check=2)
    assert "the workspace has no packages (no opkg.yaml under packages)" in r.stderr
    assert "opkg new NAME" in r.stderr
