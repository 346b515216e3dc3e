from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from opkg.socs import get_soc

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def lib_cache(request, tmp_path_factory) -> Path:
    """Compiled libraries, keyed by everything that goes into them (sources, generated entries,
    flags, emulation headers, compiler version), kept in pytest's cache between sessions;
    OPKG_SIM_TEST_FRESH=1 compiles everything anew."""
    if shutil.which(os.environ.get("CXX", "g++")) is None:
        pytest.fail("tests/sim needs g++ (C++17) on PATH, or CXX naming one")
    if os.environ.get("OPKG_SIM_TEST_FRESH"):
        return tmp_path_factory.mktemp("sim-libs")
    return Path(request.config.cache.mkdir("opkg-sim-libs"))


@pytest.fixture(scope="session")
def soc910b():
    return get_soc("Ascend910B1")


@pytest.fixture(scope="session")
def pkgs() -> Path:
    return HERE / "pkgs"
