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


def load_error(ws_root: Path, label: str = "//packages/addbase"):
    """The error a request for `label` reports (the workspace file is read first)."""
    from opkg.core.errors import OpkgError
    from opkg.core.workspace import Workspace

    with pytest.raises(OpkgError) as info:
        Workspace.load(ws_root).select([label], cwd=ws_root)
    return info.value


@pytest.fixture
def base(tmp_path) -> tuple[Path, str]:
    path = tmp_path / "base"
    return path, make_base_repo(path)


# -- the workspace file and labels ----------------------------------------------------------

def test_labels_parse_and_malformed_ones_are_refused():
    from opkg.core.external.spec import LabelSyntaxError, parse_library_label, parse_path_label

    assert parse_path_label("@opsnn//norm/rms_norm/op_kernel/rms_norm.cpp") == \
        ("opsnn", "norm/rms_norm/op_kernel/rms_norm.cpp")
    assert parse_path_label("@opbase//") == ("opbase", "")
    assert parse_library_label("@opbase//:op_common") == ("opbase", "op_common")
    for bad in ("@//x", "@op-base//x", "@opbase/x", "@opbase//../x", "@opbase///abs",
                "@opbase//a/./b"):
        with pytest.raises(LabelSyntaxError):
            parse_path_label(bad)
    for bad in ("@opbase//op_common", "@opbase//:", "@opbase//:op-common", "@opbase:op_common"):
        with pytest.raises(LabelSyntaxError):
            parse_library_label(bad)


def test_workspace_file_errors_name_their_line(tmp_path):
    from opkg.core.errors import ManifestError
    from opkg.core.workspace import Workspace

    def error(text: str) -> ManifestError:
        (tmp_path / "opkg-workspace.yaml").write_text("repositories:\n" + text)
        with pytest.raises(ManifestError) as info:
            Workspace.load(tmp_path)
        return info.value

    e = error("  base:\n    git: https://example.invalid/base.git\n")
    assert "pins no commit" in e.message and e.location.line == 2 and "commit:" in e.hint
    e = error("  base:\n    path: ../base\n    commit: abc123\n")
    assert "not a full commit SHA" in e.message and e.location.line == 4
    e = error("  base:\n    path: ../base\n    git: ../base\n")
    assert "exactly one of path: or git:" in e.message
    e = error("  base:\n    path: ../base\n    libraries:\n      lib: {include_dir: [x]}\n")
    assert "unknown key 'include_dir'" in e.message and "include_dirs" in e.hint
    assert e.location.line == 5
    e = error("  base:\n    path: ../base\n    libraries:\n      lib: {include_dirs: [../x]}\n")
    assert "not a path inside the repository" in e.message


def test_manifest_label_errors_name_the_entry_and_hint(tmp_path, base):
    root = make_workspace(tmp_path / "ws", "path: ../base", base[1])
    manifest = root / "packages/addbase/opkg.yaml"
    text = manifest.read_text()

    def error_for(old: str, new: str):
        manifest.write_text(text.replace(old, new))
        return load_error(root)

    e = error_for('"@base//:lib"', '"@bse//:lib"')
    assert e.message == "unknown repository 'bse'" and "did you mean 'base'?" in e.hint
    assert e.location.path == manifest and e.field == "deps[0]"
    assert e.location.line == text.splitlines().index('deps: ["@base//:lib"]') + 1
    e = error_for('"@base//:lib"', '"@base//:lb"')
    assert "has no library 'lb'" in e.message and "did you mean 'lib'?" in e.hint
    e = error_for('"@base//:lib"', '"@base//lib"')
    assert "is not a library label" in e.message and "@base//:library" in e.hint
    e = error_for('"@base//ops/add/add_custom.cpp"', '"@base//ops/add/nope.cpp"')
    assert "file not found: @base//ops/add/nope.cpp" in e.message and e.field == "kernel.source"
    e = error_for('"@base//ops/add/add_custom.cpp"', '"@base//../secret.cpp"')
    assert "invalid external label" in e.message


def test_path_repository_missing_or_at_another_commit(tmp_path, base):
    path, commit = base
    root = make_workspace(tmp_path / "ws", "path: ../nothere", None)
    e = load_error(root)
    assert "is not a directory" in e.message and e.location.path.name == "opkg-workspace.yaml"
    assert e.location.line == 5 and "clone it there" in e.hint
    other = "a" * 40
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("path: ../base", other))
    e = load_error(root)
    assert f"is at {commit}, not the pinned {other}" in e.message
    assert e.location.line == 6 and "git -C" in e.hint
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("path: ../base", commit))
    from opkg.core.workspace import Workspace

    pkg = Workspace.load(root).select(["//packages/addbase"], cwd=root)[0]
    assert pkg.kernel_source == path.resolve() / "ops/add/add_custom.cpp"
    assert pkg.repositories == (("base", path.resolve()),)
    assert pkg.source_label(pkg.kernel_source) == "@base//ops/add/add_custom.cpp"


def test_library_dirs_and_globs_are_checked_when_used(tmp_path, base):
    root = make_workspace(tmp_path / "ws", "path: ../base", base[1])
    ws_file = root / "opkg-workspace.yaml"
    ws_file.write_text(ws_file.read_text().replace("src/*.cpp", "source/*.cpp"))
    e = load_error(root)
    assert "host_sources 'source/*.cpp' matches no C++ source" in e.message
    assert e.location.path == ws_file and e.location.line == 11
    ws_file.write_text(ws_file.read_text().replace("[include, kinclude]", "[include, kincl]"))
    e = load_error(root)
    assert "'kincl' is not a directory" in "\n".join(x.message for x in e.errors)


def test_tree_digest_sees_content_mode_and_new_files(tmp_path, base):
    from opkg.core.external.fetch import tree_digest

    path, _ = base
    memo = tmp_path / "cache" / "trees" / "base.json"
    first = tree_digest(path, memo)
    assert tree_digest(path, memo) == first
    assert tree_digest(path) == first                       # the memo changes nothing
    header = path / "include/base/tiling_util.h"
    header.write_text(header.read_text() + "// edited\n")
    edited = tree_digest(path, memo)
    assert edited != first
    header.chmod(0o755)
    assert tree_digest(path, memo) != edited
    header.chmod(0o644)
    assert tree_digest(path, memo) == edited
    (path / "src" / "new.cpp").write_text("int x;\n")
    assert tree_digest(path, memo) != edited


def test_git_repository_is_fetched_once_into_the_cache_atomically(tmp_path, base, monkeypatch):
    from opkg.core.errors import ManifestError
    from opkg.core.external import fetch
    from opkg.core.workspace import Workspace

    path, commit = base
    cache = tmp_path / "cache"
    monkeypatch.setenv("OPKG_CACHE_DIR", str(cache))
    root = make_workspace(tmp_path / "ws", "git: ../base", commit)
    ws = Workspace.load(root)
    pkg = ws.select(["//packages/addbase"], cwd=root)[0]
    checkout = cache / "repositories" / "checkouts" / commit
    assert pkg.kernel_source == checkout / "ops/add/add_custom.cpp"
    assert (checkout / "src/tiling_util.cpp").read_text() == TILING_CPP
    assert not list((cache / "repositories" / "checkouts").glob(".tmp-*"))
    repo = ws.repositories.get("base")
    assert repo.commit == commit and repo.source == "git+../base"
    assert repo.tree == fetch.tree_digest(path)            # the same files as the commit
    # a commit the source does not have: an error at the commit line, nothing left behind
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("git: ../base", "b" * 40))
    e = load_error(root)
    assert f"commit {'b' * 40} is not in ../base" in e.message and e.location.line == 6
    assert sorted(p.name for p in (cache / "repositories" / "checkouts").iterdir()) == [commit]
    # a source that cannot be cloned
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("git: ../nothere", "b" * 40))
    e = load_error(root)
    assert "cannot clone ../nothere" in e.message and e.location.line == 5


def test_lock_records_repositories_and_locked_refuses_a_moved_commit(tmp_path, base,
                                                                     monkeypatch):
    from opkg.toolchains import lock

    path, commit = base
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    root = make_workspace(tmp_path / "ws", "git: ../base", commit)
    opkg("lock", cwd=root, check=0)
    targets, repos = lock.read_all(root / "opkg.lock")
    from opkg.core.external.fetch import tree_digest

    assert repos == [lock.RepositoryEntry("base", "git+../base", commit, tree_digest(path))]
    assert [t.package for t in targets] == ["//packages/addbase"]
    assert "[[repository]]" in (root / "opkg.lock").read_text()
    opkg("lock", "--check", cwd=root, check=0)
    # a new commit pinned without re-locking
    (path / "src" / "tiling_util.cpp").write_text(TILING_CPP + "// v2\n")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "v2", cwd=path)
    new = git("rev-parse", "HEAD", cwd=path)
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("git: ../base", new))
    r = opkg("lock", "--check", cwd=root, check=3)
    assert f"repository base: locked at commit {commit}, now {new}" in r.stderr
    assert "opkg lock" in r.stderr
    opkg("lock", cwd=root, check=0)
    opkg("lock", "--check", cwd=root, check=0)


def test_locked_sees_an_edited_path_checkout(tmp_path, base):
    path, commit = base
    root = make_workspace(tmp_path / "ws", "path: ../base", None)
    opkg("lock", cwd=root, check=0)
    header = path / "include/base/tiling_util.h"
    header.write_text(header.read_text() + "// local edit\n")
    r = opkg("lock", "--check", cwd=root, check=3)
    assert "repository base: its files differ from the locked tree" in r.stderr
    assert f"git -C {path.resolve()} status" in r.stderr


# -- built for real on the sim ----------------------------------------------------------------

def test_a_package_on_a_git_base_library_builds_and_verifies_on_the_sim(tmp_path, base):
    """The tiling calls a function compiled from the library's host sources, the kernel comes
    from the repository and includes a kernel-only header of the library."""
    path, commit = base
    root = make_workspace(tmp_path / "ws", "git: ../base", commit)
    data = json.loads(opkg("build", "//packages/addbase", "--json", cwd=root, check=0).stdout)
    assert data["ok"] and [t["passed"] for t in data["targets"]] == [True]
    assert sorted(data["targets"][0]["variants"]) == ["float16", "float32"]
    obj = root / "out/sim/.external/base_lib/src/tiling_util.o"
    host = root / "out/sim/addbase/host/libhost.so"
    symbols = subprocess.run(["nm", "-C", str(host)], capture_output=True, text=True).stdout
    assert "base::WantTiles(unsigned int, unsigned int)" in symbols
    checkout = Path(json.loads((root / "out/.opkg/plan.json").read_text())["cache_dir"]) / \
        "repositories" / "checkouts" / commit
    plan = json.loads((root / "out/.opkg/plan.json").read_text())
    assert plan["aliases"][str(checkout)] == "@base/"
    kernel = next(a for a in plan["actions"] if a["outputs"][0].endswith("float16/kernel.o"))
    assert f"-I{checkout}/kinclude" in kernel["argv"]
    assert f"-ffile-prefix-map={checkout}/=@base//" in kernel["argv"]
    host_compile = next(a for a in plan["actions"] if a["outputs"][0].endswith("add_custom.o"))
    assert f"-I{checkout}/include" in host_compile["argv"]
    assert f"-I{checkout}/kinclude" not in host_compile["argv"]
    # the bundle says where the sources came from, by repository, never by path
    bundle = root / "out/bundles/addbase-1.0.0-Ascend910B1-sim.opkg.tgz"
    import tarfile

    with tarfile.open(bundle) as tar:
        meta = json.loads(tar.extractfile("opkg-bundle.json").read())
        report = json.loads(tar.extractfile("verification/float32.json").read())
    from opkg.core.external.fetch import tree_digest

    assert meta["provenance"]["repositories"] == {
        "base": {"source": "git+../base", "commit": commit, "tree": tree_digest(path)}}
    assert str(checkout) not in json.dumps(meta) and str(checkout) not in json.dumps(report)
    # locked, then the pin moves to a commit that changes the library's host source
    opkg("lock", cwd=root, check=0)
    opkg("build", "//packages/addbase", "--locked", cwd=root, check=0)
    before = obj.read_bytes()
    (path / "src" / "tiling_util.cpp").write_text(TILING_CPP.replace(
        "return uint64_t(buffers) * tilesPerBuffer;", "return 2 * uint64_t(buffers) * tilesPerBuffer;"))
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "smaller tiles", cwd=path)
    new = git("rev-parse", "HEAD", cwd=path)
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("git: ../base", new))
    r = opkg("build", "//packages/addbase", "--locked", cwd=root, check=3)
    assert f"repository base: locked at commit {commit}, now {new}" in r.stderr
    data = json.loads(opkg("build", "//packages/addbase", "--json", cwd=root, check=0).stdout)
    assert data["ok"] and data["ran"] > 0
    assert obj.read_bytes() != before           # the library's new source was compiled


def test_a_broken_manifest_leaves_every_other_package_buildable(workspace, add_custom_cache):
    """Only what a request needs is loaded; `//...` stops on a broken manifest unless
    --keep-going, which builds the rest and still exits 2 (Bazel's --keep_going)."""
    workspace.copy_package("add_custom")
    broken = workspace.write("packages/broken/opkg.yaml", "name: broken\nversion: 1.0.0\nop: [\n")
    workspace.library("needs_broken", deps=["//packages/broken"])
    root = workspace.root
    soc = ("--soc", "Ascend910B1")
    opkg("build", "//packages/add_custom", *soc, cwd=root, check=0)
    r = opkg("query", "deps", "//packages/add_custom", cwd=root, check=0)
    assert r.stdout == ""
    r = opkg("build", "//...", *soc, cwd=root, check=2)
    assert "packages/broken/opkg.yaml:4:1: error: invalid YAML" in r.stderr
    assert "//packages/needs_broken depends on //packages/broken, which has errors" in r.stderr
    assert "verified" not in r.stdout
    r = opkg("build", "//...", *soc, "--keep-going", "--json", cwd=root, check=2)
    data = json.loads(r.stdout)
    from tests.test_ci_output import validate

    validate(data, "build.schema.json")
    assert not data["ok"] and [(t["package"], t["passed"]) for t in data["targets"]] == [
        ("//packages/add_custom", True)]
    assert sorted(e["file"].rsplit("/", 2)[-2] for e in data["load_errors"]) == [
        "broken", "needs_broken"]
    r = opkg("build", "//...", *soc, "--keep-going", cwd=root, check=2)
    assert "//packages/add_custom  Ascend910B1  sim  PASS" in r.stdout
    assert "2 manifests with errors not built" in r.stdout
    assert f"{broken.relative_to(root)}:4:1: error" in r.stderr
    r = opkg("query", "packages", cwd=root, check=2)
    assert r.stdout.split()[0] == "//packages/add_custom"
    assert r.stderr.rstrip().endswith("2 errors in 2 files")


def test_lock_of_one_package_keeps_the_entries_of_a_broken_one(workspace):
    from opkg.toolchains import lock

    workspace.operator("addone")
    other = workspace.operator("other", op_type="Other")
    root = workspace.root
    opkg("lock", cwd=root, check=0)
    other.write_text(other.read_text().replace("version:", "versoin:"))
    r = opkg("lock", "//packages/addone", cwd=root, check=0)
    assert "error" not in r.stderr
    assert [e.package for e in lock.read(root / "opkg.lock")] == ["//packages/addone",
                                                                   "//packages/other"]
    r = opkg("lock", cwd=root, check=2)
    assert "packages/other/opkg.yaml" in r.stderr and "versoin" in r.stderr


def test_fast_path_watches_a_path_checkout_and_a_git_checkout_by_presence(tmp_path, base,
                                                                          monkeypatch):
    from opkg.build.fastpath import difference, snapshot
    from opkg.core.workspace import Workspace

    path, commit = base
    root = make_workspace(tmp_path / "ws", "path: ../base", None)
    ws = Workspace.load(root)
    before = snapshot(ws)
    header = path / "include/base/tiling_util.h"
    header.write_text(header.read_text() + "// edited\n")
    assert difference(before, snapshot(ws)) == f"{header.resolve()} changed"
    monkeypatch.setenv("OPKG_CACHE_DIR", str(tmp_path / "cache"))
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("git: ../base", commit))
    ws = Workspace.load(root)
    before = snapshot(ws)                    # not fetched yet: recorded as absent
    ws.repositories.root("base")
    checkout = tmp_path / "cache/repositories/checkouts" / commit
    assert difference(before, snapshot(ws)) == f"{checkout} changed"
    assert not any(p.startswith(str(checkout) + "/") for p in snapshot(ws)["files"])


def test_query_names_library_deps_and_their_dependents(tmp_path, base):
    root = make_workspace(tmp_path / "ws", "path: ../base", base[1])
    assert opkg("query", "deps", "//packages/addbase", cwd=root, check=0).stdout == "@base//:lib\n"
    r = opkg("query", "rdeps", "@base//:lib", cwd=root, check=0)
    assert r.stdout == "//packages/addbase\n"
    r = opkg("query", "rdeps", "@base//:lb", cwd=root, check=2)
    assert "repository 'base' has no library 'lb'" in r.stderr and "did you mean 'lib'?" in r.stderr


def test_a_moved_checkout_restores_from_the_cache_and_an_edited_one_rebuilds(tmp_path, base):
    """Identities name the repository, not where it is checked out: the same base library
    elsewhere restores every step from the cache. An edited kernel header of the checkout
    recompiles the kernels that include it."""
    path, commit = base
    root = make_workspace(tmp_path / "ws", "path: ../base", commit)
    first = json.loads(opkg("build", "//packages/addbase", "--json", cwd=root, check=0).stdout)
    assert first["ok"] and first["ran"] > 0
    libs = sorted((root / "out/sim/addbase").rglob("*.so"))
    before = {p: p.read_bytes() for p in libs}
    moved = tmp_path / "elsewhere" / "base"
    moved.parent.mkdir()
    path.rename(moved)
    (root / "opkg-workspace.yaml").write_text(repositories_yaml("path: ../elsewhere/base", commit))
    shutil.rmtree(root / "out")
    again = json.loads(opkg("build", "//packages/addbase", "--json", cwd=root, check=0).stdout)
    # every compile, link and verification restored; one step runs: the bundle, whose
    # provenance names the new source
    assert again["ok"] and again["ran"] == 1 and again["cached"] == first["ran"] - 1
    assert {p: p.read_bytes() for p in libs} == before
    import tarfile

    with tarfile.open(root / "out/bundles/addbase-1.0.0-Ascend910B1-sim.opkg.tgz") as tar:
        meta = json.loads(tar.extractfile("opkg-bundle.json").read())
    assert meta["provenance"]["repositories"]["base"]["source"] == "path+../elsewhere/base"
    header = moved / "kinclude/base/kernel_const.h"
    header.write_text(header.read_text() + "// edited, same value\n")
    r = opkg("build", "//packages/addbase", "--explain", cwd=root, check=0)
    recompiled = [l for l in r.stdout.splitlines()
                  if l.startswith("compile addbase kernel float")]
    assert len(recompiled) == 2 and all("kernel_const.h" in l for l in recompiled), r.stdout
    assert "tiling_util" not in r.stdout        # the host side does not include it


def test_the_workspace_schema_accepts_repositories_as_opkg_does():
    import jsonschema
    import yaml

    import opkg as opkg_module

    schema = json.loads((Path(opkg_module.__file__).parent / "schema" /
                         "opkg-workspace.schema.json").read_text())
    check = jsonschema.Draft202012Validator(schema)
    sha = "a" * 40
    for source, pin in (("path: ../base", None), ("path: ../base", sha), ("git: ../base", sha)):
        assert not list(check.iter_errors(yaml.safe_load(repositories_yaml(source, pin))))
    for source, pin in (("git: ../base", None), ("path: ../base", "abc")):
        assert list(check.iter_errors(yaml.safe_load(repositories_yaml(source, pin))))
