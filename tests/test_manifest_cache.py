"""The parsed-manifest cache (opkg/core/manifest_cache.py): an unchanged manifest is not parsed again,
every kind of edit is seen, and a damaged cache file is ignored and rewritten."""

from __future__ import annotations

import os
import pickle
import time

import pytest

import opkg
from opkg.core import manifest as manifest_module
from opkg.core.errors import ManifestError
from opkg.core.manifest_cache import FILE_NAME
from tests.conftest import MINIMAL_MANIFEST

LABEL = "//packages/addone"


@pytest.fixture(autouse=True)
def output_dir(workspace):
    """The cache is written only where a build has made the output directory."""
    (workspace.root / "out").mkdir()


@pytest.fixture
def parses(monkeypatch):
    """The manifests parsed by each load (the real parser, counted)."""
    seen = []
    real = manifest_module.load_package

    def counted(path, label, **kw):
        seen.append(label)
        return real(path, label, **kw)

    monkeypatch.setattr(manifest_module, "load_package", counted)
    return seen


def settle():
    # files written in the tick a parse starts are not cached (racy timestamps); let it pass
    time.sleep(0.12)


def cache_file(workspace):
    return workspace.root / "out" / ".opkg" / FILE_NAME


def loaded(workspace):
    return workspace.load().packages


def cached_twice(workspace, parses):
    """Load, so the cache holds the workspace, and check a second load parses nothing."""
    settle()
    first = loaded(workspace)
    parses.clear()
    again = loaded(workspace)
    assert parses == [], "an unchanged manifest was parsed again"
    return first, again


def test_an_unchanged_workspace_is_not_parsed_again_and_the_packages_are_identical(
        workspace, parses):
    workspace.operator("addone")
    workspace.library("common")
    first, again = cached_twice(workspace, parses)
    assert again == first
    for label, pkg in first.items():
        # locations (file:line of deps and the op type, for later errors) come back too
        assert again[label].locations == pkg.locations
        assert repr(again[label]) == repr(pkg)
    cache_file(workspace).unlink()
    fresh = loaded(workspace)
    assert fresh == again and all(fresh[l].locations == again[l].locations for l in fresh)


def test_a_plan_is_the_same_with_and_without_the_cache(workspace, parses):
    from opkg.core.model import SimModes
    from opkg.build.plan import BuildRequest, make_plan
    from opkg.toolchains import _instances

    workspace.operator("addone")

    def plan_json():
        _instances.clear()
        ws = workspace.load()
        pkgs = tuple(ws.packages[l] for l in ws.graph.closure([LABEL]))
        return make_plan(ws, BuildRequest(pkgs, modes=SimModes())).to_json()

    settle()
    without = plan_json()
    parses.clear()
    with_cache = plan_json()
    assert parses == []
    assert with_cache == without


def edit_manifest(root):
    path = root / "packages/addone/opkg.yaml"
    path.write_text(path.read_text().replace("version: 1.0.0", "version: 1.0.1"))


def edit_manifest_same_size_and_mtime(root):
    # the same size, mtime put back: only ctime (and the inode for a rename) tells
    path = root / "packages/addone/opkg.yaml"
    st = path.stat()
    path.write_text(path.read_text().replace("version: 1.0.0", "version: 1.0.1"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def rename_kernel_entry(root):
    path = root / "packages/addone/op_kernel/op.cpp"
    path.write_text(path.read_text().replace("add_one(", "add_two("))


def drop_golden_function(root):
    (root / "packages/addone/golden.py").write_text("def other(x):\n    return x\n")


def delete_tiling_source(root):
    (root / "packages/addone/op_host/op.cpp").unlink()


def unknown_default_soc(root):
    (root / "opkg-workspace.yaml").write_text("package_roots: [packages]\noutput_dir: out\n")


def soc_table_without_the_soc(root):
    from opkg.core.socs import BUILTIN_DIR

    # the workspace's own table, with the SoC renamed
    text = (BUILTIN_DIR / "socs.yaml").read_text()
    assert "  Ascend910B1: {" in text
    (root / "toolchains").mkdir()
    (root / "toolchains/socs.yaml").write_text(text.replace("  Ascend910B1: {",
                                                            "  Ascend910B7: {"))


def move_package(root):
    (root / "packages/addone").rename(root / "packages/moved")


# (edit, what a fresh parse says after it: a version, or the error the cache must not hide)
EDITS = [
    (edit_manifest, "1.0.1"),
    (edit_manifest_same_size_and_mtime, "1.0.1"),
    (rename_kernel_entry, "kernel entry mismatch"),
    (drop_golden_function, "defines no function 'golden'"),
    (delete_tiling_source, "file not found: op_host/op.cpp"),
    (unknown_default_soc, None),
    (soc_table_without_the_soc, "unknown SoC 'Ascend910B1'"),
    (move_package, "moved"),
]


@pytest.mark.parametrize("edit,seen", EDITS, ids=[e[0].__name__ for e in EDITS])
def test_each_kind_of_edit_is_seen(workspace, parses, edit, seen):
    if edit is unknown_default_soc:
        # the package takes its SoCs from the workspace's default_socs
        workspace.operator("addone", manifest=MINIMAL_MANIFEST.format(
            name="addone", op_type="AddOne", deps="[]").replace("socs: [Ascend910B1]\n", ""))
    else:
        workspace.operator("addone")
    if edit is soc_table_without_the_soc:
        # the workspace file checks its default_socs against the table itself
        unknown_default_soc(workspace.root)
    cached_twice(workspace, parses)
    edit(workspace.root)
    if edit is unknown_default_soc:
        with pytest.raises(ManifestError, match="no SoCs"):
            loaded(workspace)
    elif edit is move_package:
        packages = loaded(workspace)
        assert list(packages) == ["//packages/moved"]
        assert packages["//packages/moved"].dir == workspace.root / "packages/moved"
    elif seen.startswith("1."):
        assert loaded(workspace)[LABEL].version == seen
    else:
        with pytest.raises(ManifestError, match=seen):
            loaded(workspace)
    assert parses, "the edit was not seen: nothing was parsed"


def test_a_new_opkg_version_parses_again(workspace, parses, monkeypatch):
    workspace.operator("addone")
    cached_twice(workspace, parses)
    monkeypatch.setattr(opkg, "__version__", opkg.__version__ + ".post1")
    loaded(workspace)
    assert parses == [LABEL]


@pytest.mark.parametrize("damage", [
    b"",                                               # empty
    b"not a pickle at all\n",                          # garbage
    None,                                              # truncated
    pickle.dumps({"key": ["another opkg"], "entries": {}}),  # another version's file
    pickle.dumps(["a list, not the cache's mapping"]),
    pickle.dumps({"key": None}),
])
def test_a_damaged_or_foreign_cache_file_is_ignored_and_rewritten(workspace, parses, damage):
    workspace.operator("addone")
    first, _ = cached_twice(workspace, parses)
    path = cache_file(workspace)
    good = path.read_bytes()
    path.write_bytes(good[: len(good) // 2] if damage is None else damage)
    parses.clear()
    assert loaded(workspace) == first           # no error, the same packages
    assert parses == [LABEL]
    parses.clear()
    assert loaded(workspace) == first
    assert parses == [], "the damaged file was not rewritten"


def test_a_cache_entry_made_for_another_path_is_not_used(workspace, parses):
    """An entry whose package data came from elsewhere (a copied output directory) is not
    trusted for this workspace's manifest: its files are another workspace's."""
    workspace.operator("addone")
    cached_twice(workspace, parses)
    path = cache_file(workspace)
    data = pickle.loads(path.read_bytes())
    (entry,) = data["entries"].values()
    data["entries"] = {"/elsewhere/packages/addone/opkg.yaml": entry}
    path.write_bytes(pickle.dumps(data))
    parses.clear()
    loaded(workspace)
    assert parses == [LABEL]


def test_a_manifest_with_errors_is_reported_every_time(workspace, parses):
    workspace.operator("addone", manifest=MINIMAL_MANIFEST.format(
        name="addone", op_type="AddOne", deps="[]").replace("version: 1.0.0", "version: one"))
    settle()
    for _ in range(2):
        with pytest.raises(ManifestError, match="not a PEP 440 version"):
            loaded(workspace)


def test_a_manifest_stamped_in_the_future_is_never_cached(workspace, parses):
    """Racy timestamps: a file written in the tick the parse starts (or, by clock skew, later)
    could change again without its signature changing, so it is parsed on every load."""
    path = workspace.operator("addone")
    future = time.time_ns() + 3600 * 10**9
    os.utime(path, ns=(future, future))
    for _ in range(2):
        parses.clear()
        assert loaded(workspace)[LABEL].version == "1.0.0"
        assert parses == [LABEL]


def test_loading_a_workspace_without_an_output_directory_does_not_create_it(workspace, parses):
    (workspace.root / "out").rmdir()
    workspace.operator("addone")
    settle()
    for _ in range(2):
        loaded(workspace)
    assert not (workspace.root / "out").exists()
    assert parses == [LABEL, LABEL]
