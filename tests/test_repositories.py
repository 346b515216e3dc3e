"""External repositories (docs/repositories.md): a tiny base library kept in a repository of
its own (a real git repository with a commit), named by the workspace file, pinned, digested,
locked, and used by a package through `@base//:lib` and `@base//path` labels."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO, opkg

TILING_H = """\
#pragma once
#include <cstdint>
namespace base {
// how many tiles a core's range is cut into: buffers x tiles per buffer (compiled in src/)
uint64_t WantTiles(uint32_t buffers, uint32_t tilesPerBuffer);
}
"""
TILING_CPP = """\
#include "base/tiling_util.h"
namespace base {
uint64_t WantTiles(uint32_t buffers, uint32_t tilesPerBuffer) { return uint64_t(buffers) * tilesPerBuffer; }
}
"""
KERNEL_H = "#pragma once\n#include <cstdint>\nconstexpr int32_t BASE_BUFFER_NUM = 2;\n"


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def make_base_repo(path: Path) -> str:
    """The base library repository: host headers, kernel headers, host sources, and an
    operator kernel kept in the repository (as ops-nn keeps its kernels). Returns the commit."""
    path.mkdir(parents=True)
    (path / "include" / "base").mkdir(parents=True)
    (path / "include" / "base" / "tiling_util.h").write_text(TILING_H)
    (path / "kinclude" / "base").mkdir(parents=True)
    (path / "kinclude" / "base" / "kernel_const.h").write_text(KERNEL_H)
    (path / "src").mkdir()
    (path / "src" / "tiling_util.cpp").write_text(TILING_CPP)
    kernel = (REPO / "packages/add_custom/op_kernel/add_custom.cpp").read_text()
    kernel = kernel.replace('#include "kernel_operator.h"',
                            '#include "kernel_operator.h"\n#include "base/kernel_const.h"')
    kernel = kernel.replace("constexpr int32_t BUFFER_NUM = 2;",
                            "constexpr int32_t BUFFER_NUM = BASE_BUFFER_NUM;")
    assert "BASE_BUFFER_NUM;" in kernel
    (path / "ops" / "add").mkdir(parents=True)
    (path / "ops" / "add" / "add_custom.cpp").write_text(kernel)
    git("init", "-q", "-b", "main", cwd=path)
    git("add", ".", cwd=path)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base", cwd=path)
    return git("rev-parse", "HEAD", cwd=path)


def repositories_yaml(source: str, commit: str | None) -> str:
    pin = f"    commit: {commit}\n" if commit else ""
    return ("package_roots: [packages]\n"
            "default_socs: [Ascend910B1]\n"
            "repositories:\n"
            "  base:\n"
            f"    {source}\n" + pin +
            "    libraries:\n"
            "      lib:\n"
            "        include_dirs: [include]\n"
            "        kernel_include_dirs: [include, kinclude]\n"
            "        host_sources: [src/*.cpp]\n")


def make_workspace(root: Path, source: str, commit: str | None) -> Path:
    """A workspace whose package `addbase` keeps its host code, takes its kernel from the
    repository and its tiling helper from the library."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "opkg-workspace.yaml").write_text(repositories_yaml(source, commit))
    pkg = root / "packages" / "addbase"
    shutil.copytree(REPO / "packages" / "add_custom", pkg)
    shutil.rmtree(pkg / "op_kernel")
    host = pkg / "op_host" / "add_custom.cpp"
    text = host.read_text().replace('#include "add_custom_tiling.h"',
                                    '#include "add_custom_tiling.h"\n#include "base/tiling_util.h"')
    text = text.replace("const uint64_t wantTiles = BUFFER_NUM * TILES_PER_BUFFER;",
                        "const uint64_t wantTiles = base::WantTiles(BUFFER_NUM, TILES_PER_BUFFER);")
    assert "base::WantTiles" in text
    host.write_text(text)
    manifest = pkg / "opkg.yaml"
    text = manifest.read_text().replace("name: add_custom", "name: addbase")
    text = text.replace("source: op_kernel/add_custom.cpp", "source: \"@base//ops/add/add_custom.cpp\"")
    text = text.replace("socs: [Ascend910B1, Ascend310P3]", "socs: [Ascend910B1]")
    text = text.replace("deps: []", "deps: [\"@base//:lib\"]")
    manifest.write_text(text)
    return root
