"""A library package's host_sources (Bazel's cc_library srcs): compiled once, with its deps'
include directories, its own and its private host_include_dirs, and linked into the host
library of every operator that depends on it; the manifest refuses them on an operator. (The
import writes CMake DEPENDENCIES modules as such libraries: tests/test_import_repository.py
builds one for real.)"""

from __future__ import annotations

import pytest

from opkg.core.errors import ManifestError


def _workspace(workspace):
    workspace.library("base")                       # a library the helper library depends on
    workspace.write("packages/helper/src/util.cpp", "int helper_util() { return 1; }\n")
    workspace.write("packages/helper/private/util_impl.h", "#pragma once\n")
    workspace.write("packages/helper/include/helper.h", "#pragma once\n")
    workspace.write("packages/helper/opkg.yaml",
                    "name: helper\nversion: 0.1.0\ninclude_dirs: [include]\n"
                    "host_sources: [src/util.cpp]\nhost_include_dirs: [private]\n"
                    "deps: [//packages/base]\n")
    for name in ("a", "b"):
        workspace.operator(name, op_type=f"AddOne{name.upper()}", deps=["//packages/helper"])
    return workspace.load()


def _plan(ws):
    from opkg.build.plan import BuildRequest, make_plan
    from opkg.core.model import SimModes

    pkgs = tuple(p for p in ws.packages.values() if p.is_operator)
    return make_plan(ws, BuildRequest(pkgs, modes=SimModes())).to_json()


def test_a_librarys_host_sources_compile_once_and_link_into_every_dependent(workspace):
    ws = _workspace(workspace)
    helper = ws.packages["//packages/helper"]
    assert helper.host_sources == (workspace.root / "packages/helper/src/util.cpp",)
    assert helper.host_include_dirs == (workspace.root / "packages/helper/private",)
    plan = _plan(ws)
    root = workspace.root
    compiles = [a for a in plan["actions"] if list(a["inputs"][:1]) == [str(root / "packages/helper/src/util.cpp")]]
    assert len(compiles) == 1, [a["description"] for a in compiles]
    argv = compiles[0]["argv"]
    obj = compiles[0]["outputs"][0]
    assert obj == str(root / "out/sim/.external/helper/src/util.o")
    # its deps' include directories, then its own, then its private ones
    inc = [f for f in argv if f.startswith(f"-I{root}")]     # after the sim's own
    assert inc == [f"-I{root}/packages/base/include", f"-I{root}/packages/helper/include",
                   f"-I{root}/packages/helper/private"]
    links = [a for a in plan["actions"] if a["outputs"][0].endswith("host/libhost.so")]
    assert len(links) == 2 and all(obj in a["argv"] for a in links)
    # the private directory is the library's own: its dependents' compiles do not see it
    for a in plan["actions"]:
        if a["step"] == "compile" and a is not compiles[0]:
            assert f"-I{root}/packages/helper/private" not in a["argv"], a["description"]


def test_host_sources_on_an_operator_are_refused_with_where_they_go(workspace):
    workspace.operator("a")
    path = workspace.root / "packages/a/opkg.yaml"
    path.write_text(path.read_text() + "host_sources: [op_host/op.cpp]\n")
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    err = info.value
    assert "'host_sources' is for library packages (no 'op:')" in err.message
    assert "tiling.sources" in err.hint
    assert err.location.line == path.read_text().splitlines().index(
        "host_sources: [op_host/op.cpp]") + 1


def test_a_missing_library_host_source_names_the_file_and_line(workspace):
    workspace.write("packages/helper/opkg.yaml",
                    "name: helper\nversion: 0.1.0\nhost_sources: [src/nope.cpp]\n")
    with pytest.raises(ManifestError) as info:
        workspace.load().packages
    assert "src/nope.cpp" in info.value.message and info.value.location.line == 3
