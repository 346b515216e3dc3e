import pytest

from opkg.core.errors import GraphError, LabelError


def test_deps_rdeps_and_closure(workspace):
    workspace.library("base")
    workspace.library("common", deps=["//packages/base"])
    workspace.operator("addone", deps=["//packages/common"])
    workspace.operator("other", op_type="Other", deps=["//packages/base"])
    ws = workspace.load()
    g = ws.graph
    assert g.deps("//packages/addone") == ["//packages/common", "//packages/base"]
    assert g.deps("//packages/addone", transitive=False) == ["//packages/common"]
    assert g.rdeps("//packages/base") == ["//packages/addone", "//packages/common",
                                          "//packages/other"]
    assert g.rdeps("//packages/base", transitive=False) == ["//packages/common",
                                                            "//packages/other"]
    assert g.closure(["//packages/addone"]) == ["//packages/base", "//packages/common",
                                                "//packages/addone"]


def test_cycle_is_reported_with_its_path(workspace):
    workspace.library("a", deps=["//packages/b"])
    workspace.library("b", deps=["//packages/c"])
    workspace.library("c", deps=["//packages/a"])
    with pytest.raises(GraphError) as info:
        workspace.load().graph
    assert "dependency cycle: //packages/a -> //packages/b -> //packages/c -> //packages/a" \
        in info.value.message
    assert info.value.exit_code == 2 and "DAG" in info.value.hint


def test_missing_dependency_suggests_the_close_label(workspace):
    workspace.library("common")
    workspace.operator("addone", deps=["//packages/comon"])
    with pytest.raises(GraphError) as info:
        workspace.load().graph
    assert "depends on //packages/comon, which is not a package" in info.value.message
    assert "//packages/common" in info.value.hint
    assert info.value.location.path.name == "opkg.yaml"


def test_self_dependency(workspace):
    workspace.library("a", deps=["//packages/a"])
    with pytest.raises(GraphError, match="depends on itself"):
        workspace.load().graph


def test_select_patterns(workspace):
    workspace.library("common")
    workspace.operator("addone")
    workspace.operator("other", op_type="Other")
    ws = workspace.load()
    labels = lambda pats: [p.label for p in ws.select(pats, cwd=ws.root)]
    assert labels(["//..."]) == ["//packages/addone", "//packages/common", "//packages/other"]
    assert labels([]) == labels(["//..."])
    assert labels(["packages/addone", "other"]) == ["//packages/addone", "//packages/other"]
    with pytest.raises(LabelError) as info:
        labels(["//packages/adone"])
    assert "matches no package" in info.value.message and "addone" in info.value.hint


def test_dependency_errors_point_at_the_entry(workspace):
    workspace.library("common")
    path = workspace.library("lib", deps=["//packages/common", "//packages/nothere"])
    with pytest.raises(GraphError) as info:
        workspace.load().graph
    err = info.value
    assert err.location.path == path and err.location.line == 4 and err.field == "deps[1]"
    assert "//packages/lib" not in (err.hint or "")


def test_duplicate_op_types_are_refused(workspace):
    from opkg.core.errors import ManifestError

    workspace.operator("addone")
    workspace.operator("addtwo")      # same op type AddOne
    workspace.write("packages/addtwo/opkg.yaml", workspace.root.joinpath(
        "packages/addtwo/opkg.yaml").read_text().replace("name: addtwo", "name: addtwo"))
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert "op type 'AddOne' is already defined by //packages/addone" in info.value.message
    assert info.value.location.line == 5


def test_a_chain_of_thousands_of_packages_is_no_recursion_error(workspace):
    from tests.conftest import opkg

    n = 1500      # past Python's recursion limit of 1000
    for i in range(n):
        workspace.library(f"l{i}", deps=[f"//packages/l{i + 1}"] if i + 1 < n else [])
    r = opkg("query", "deps", "//packages/l0", cwd=workspace.root)
    assert r.returncode == 0 and "RecursionError" not in r.stderr, r.stderr[-2000:]
    assert len(r.stdout.split()) == n - 1
    workspace.library(f"l{n - 1}", deps=["//packages/l0"])          # close the loop
    r = opkg("query", "deps", "//packages/l0", cwd=workspace.root)
    assert r.returncode == 2 and "RecursionError" not in r.stderr, r.stderr[-2000:]
    assert "dependency cycle: //packages/l0 -> //packages/l1 -> " in r.stderr
