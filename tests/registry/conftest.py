"""Fixtures for the registry tests (helpers live in registry_testlib.py)."""

from __future__ import annotations

import pytest

from registry_testlib import make_bundle


@pytest.fixture
def bundles(tmp_path):
    out = tmp_path / "bundles"
    out.mkdir()

    def make(*args, subdir=None, **kw):
        d = out / subdir if subdir else out
        d.mkdir(exist_ok=True)
        return make_bundle(d, *args, **kw)
    return make


@pytest.fixture
def registry(tmp_path):
    return tmp_path / "registry"


@pytest.fixture
def run_opkg(capsys, monkeypatch, tmp_path):
    """Run the real `opkg` entry point in-process; returns (exit code, stdout, stderr)."""
    from opkg.cli import main

    monkeypatch.chdir(tmp_path)

    def run(*args):
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        return code, out, err
    return run
