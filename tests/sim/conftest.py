from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from opkg.core.socs import get_soc
from tests.conftest import run_shared_root

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def lib_cache(request, tmp_path_factory) -> Path:
    """Compiled libraries, keyed by everything that goes into them (sources, generated entries,
    flags, emulation headers, compiler version), kept in pytest's cache between sessions and shared by parallel workers;
    OPKG_SIM_TEST_FRESH=1 (or -p no:cacheprovider) compiles everything anew, once per run."""
    if shutil.which(os.environ.get("CXX", "g++")) is None:
        pytest.fail("tests/sim needs g++ (C++17) on PATH, or CXX naming one")
    cache = getattr(request.config, "cache", None)      # None under -p no:cacheprovider
    if os.environ.get("OPKG_SIM_TEST_FRESH") or cache is None:
        # one directory for the whole run, shared by the pytest-xdist workers: each uses what
        # the others compiled (simbuild is race-safe)
        root = run_shared_root(tmp_path_factory)
        (root / "sim-libs").mkdir(exist_ok=True)
        return root / "sim-libs"
    return Path(cache.mkdir("opkg-sim-libs"))


@pytest.fixture(scope="session")
def soc910b():
    return get_soc("Ascend910B1")


@pytest.fixture(scope="session")
def pkgs() -> Path:
    return HERE / "pkgs"


def pytest_collection_modifyitems(items):
    """Under `pytest -n ... --dist loadgroup` a sim test file runs whole on one worker: its tests
    share the libraries they compile (parametrized fixtures), which would otherwise be compiled
    by two workers at once on a clean cache."""
    for item in items:
        if item.path.parent == HERE:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
