"""Which tests' build caches start with the run's shared add_custom build (all of it, not only
the sim runtime objects of conftest's sim_runtime_seed).

A restored step shows the compiler warnings its fresh run showed (opkg.build.cache keeps a step's
diagnostics with its entry), so a test reads the same output whether its build compiled or
restored a step: sharing a build is safe for every test that asserts nothing about which steps
compile, the cache itself, `--explain`, distcc or interrupting a compiler. The entries are keyed
relative to the workspace, so they hit in each test's own workspace; a step a test changes
(an edited kernel, another SoC) misses and runs in the test's own cache, never in the shared one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# Files whose slow tests build the example add_custom for Ascend910B1 with the default compiler
# (among other things) and check the results, not how they were made.
ADD_CUSTOM_SEEDED_FILES = {"test_ci_output.py", "test_verify_inplace.py", "test_symlink_walk.py",
                           "test_profile_cli.py", "test_debug_loop.py", "test_packages.py"}


def cache_seed(request) -> Path | None:
    """The SCons cache directory a test's empty cache starts as a copy of, or None."""
    if request.node.get_closest_marker("slow") is None:
        return None          # quick tests never pay for the shared build
    if request.node.path.name in ADD_CUSTOM_SEEDED_FILES:
        return request.getfixturevalue("_add_custom_cache") / "scons"
    return None



# Files whose slow tests build one fixture package each, changing only what its verification
# reads (the golden, the cases) or single sources, and assert nothing about the cache or which
# steps ran: their tests share one cache (per worker; the file stays on one worker, see
# group_files), so a compile the previous test of the file made is restored, not repeated.
# Not files whose tests read a failing case's saved arrays (test_verify_inplace,
# test_dynamic_outputs, test_inplace_lists): a failing verification restored from the cache
# brings its report, not the arrays (`opkg test --no-cache` writes them), so two tests making
# the same failure would depend on their order.
FILE_CACHE_FILES = {"test_dynamic_inputs.py", "test_ref_tensor.py", "test_float64.py"}
_FILE_CACHES = pytest.StashKey[dict]()


def cache_dir_for(request, tmp_path_factory) -> tuple[Path, bool]:
    """The test's build cache directory, and whether it is new (to be seeded)."""
    name = request.node.path.name
    if name not in FILE_CACHE_FILES or request.node.get_closest_marker("slow") is None:
        return tmp_path_factory.mktemp("cache"), True
    caches = request.config.stash.setdefault(_FILE_CACHES, {})
    if name in caches:
        return caches[name], False
    caches[name] = tmp_path_factory.mktemp(f"cache-{request.node.path.stem}")
    return caches[name], True


def group_files(items) -> None:
    """Each file of FILE_CACHE_FILES on one xdist worker (`--dist loadgroup`): its shared cache
    then serves all its tests."""
    if not items or not items[0].config.pluginmanager.hasplugin("xdist"):
        return               # -p no:xdist: one process anyway
    for item in items:
        if item.path.name in FILE_CACHE_FILES:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
