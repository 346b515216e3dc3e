from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from opkg.socs import get_soc

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def lib_cache(tmp_path_factory) -> Path:
    """Compiled libraries shared by every test of the session."""
    return tmp_path_factory.mktemp("sim-libs")


@pytest.fixture(scope="session")
def soc910b():
    return get_soc("Ascend910B1")


@pytest.fixture(scope="session")
def pkgs() -> Path:
    return HERE / "pkgs"


def pytest_configure(config):
    if shutil.which("g++") is None:
        raise pytest.UsageError("tests/sim needs g++ (C++17) on PATH")
