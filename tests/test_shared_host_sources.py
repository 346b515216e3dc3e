"""What a cann-ops project takes from outside itself for its host library, read from its
CMakeLists.txt (opkg/importers/shared_headers.py): the corpus's shared host library
(`host_library`: file(GLOB_RECURSE ...) sources named in target_sources(optiling ...), the corpus
directories of target_include_directories(optiling ...)), and the tiling sources of other projects
of the family behind the headers it includes, followed through every project they lead to
(`follow_siblings`). A small corpus written here in cann-ops' layout."""

from __future__ import annotations

from pathlib import Path

from opkg.importers import shared_headers


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def corpus(root: Path) -> Path:
    write(root / "CMakeLists.txt", "set(OP_COMMON_DIR ${CMAKE_CURRENT_SOURCE_DIR}/src/common)\n")
    write(root / "src/common/inc/x.h", "")
    write(root / "src/common/op_host/lib/sub/lib.cc", '#include "lib.h"\n')
    write(root / "src/common/op_host/lib/lib.h", "")
    # a -> b (header and source), b's source -> c (header and source)
    a = root / "src/fam/a"
    write(a / "CMakeLists.txt", """
# a comment: target_sources(optiling PRIVATE nothing.cc)
file(GLOB_RECURSE EXTRA_SRC "../../common/op_host/lib/*.cc")
file(GLOB UNUSED "../../common/op_host/lib/*.h")
target_sources(optiling PRIVATE op_host/a.cpp ${EXTRA_SRC})
target_include_directories(optiling PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/op_host
    ${CMAKE_CURRENT_SOURCE_DIR}/../../common/op_host/lib
    ${CMAKE_SOURCE_DIR}/src/common/inc
    ${ASCEND_CANN_PACKAGE_PATH}/include)
""")
    write(a / "op_host/a.cpp", '#include "../../b/op_host/b.h"\n')
    write(root / "src/fam/b/CMakeLists.txt", "target_sources(optiling PRIVATE op_host/b.cpp)\n")
    write(root / "src/fam/b/op_host/b.h", "")
    write(root / "src/fam/b/op_host/b.cpp", '#include "b.h"\n#include "../../c/op_host/c.h"\n')
    write(root / "src/fam/c/CMakeLists.txt", "target_sources(optiling PRIVATE op_host/c.cpp)\n")
    write(root / "src/fam/c/op_host/c.h", "")
    write(root / "src/fam/c/op_host/c.cpp", '#include "c.h"\n')
    return a


def test_the_shared_host_library_is_read_from_the_projects_cmake(tmp_path):
    project = corpus(tmp_path)
    lib = shared_headers.host_library(project)
    assert lib.root == tmp_path.resolve() and lib.name == "lib"
    assert lib.host_sources == ["src/common/op_host/lib/**/*.cc"]     # GLOB_RECURSE: every level
    assert lib.include_dirs == ["src/common/op_host/lib", "src/common/inc"]   # not the project's own


def test_a_project_whose_cmake_globs_nothing_outside_has_no_shared_library(tmp_path):
    corpus(tmp_path)
    assert shared_headers.host_library(tmp_path / "src/fam/b") is None


def test_sibling_sources_are_followed_through_every_project_they_lead_to(tmp_path):
    project = corpus(tmp_path)
    res = shared_headers.resolve([project / "op_host/a.cpp"], project, [])
    found = shared_headers.follow_siblings(res, project, [])
    assert sorted(found) == ["include/b/op_host/b.cpp", "include/c/op_host/c.cpp"]
    assert "include/c/op_host/c.h" in res.siblings           # reached only through b.cpp


def test_tiling_data_is_an_own_header_registering_another_projects_class(tmp_path):
    """cann-ops' gemm_v2: op_host/gemm_v2_tiling.h registers mat_mul_v3's MatmulTilingData for
    GemmV2 (the class itself is in a header of mat_mul_v3): that own header is tiling.data, so
    the kernel build sees the classes it includes."""
    from opkg.importers.project import _tiling_data_header

    project = tmp_path / "src/fam/g"
    write(project / "op_host/g_tiling.h", '#include "../../m/op_host/m_tiling.h"\n'
                                          "REGISTER_TILING_DATA_CLASS(GOp, MData)\n")
    write(project / "op_host/other.h", "REGISTER_TILING_DATA_CLASS(Else, MData)\n")
    res = shared_headers.Resolution()
    assert _tiling_data_header(project, tmp_path / "dest", res, "GOp") == "op_host/g_tiling.h"
    assert _tiling_data_header(project, tmp_path / "dest", res, "Nobody") is None
