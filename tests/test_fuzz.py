"""`make fuzz` in every test run: each target (manifests, versions, registry indexes and
records, bundle archives, OpDef sources, records read back from out/) replays its corpus
(tests/fuzz/corpus/) and runs hypothesis for a short budget; any traceback fails the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent / "fuzz" / "fuzz.py"
TARGETS = ["manifests", "versions", "registry", "archives", "opdef", "records"]
SECONDS_EACH = 4


@pytest.mark.slow      # ~20 s each with the interpreter's start: `make test`, not test-quick
@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_target_finds_no_traceback(target):
    env = dict(os.environ, FUZZ_SECONDS=str(SECONDS_EACH))
    r = subprocess.run([sys.executable, str(FUZZ), target], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"fuzz {target}: " in r.stdout and "no traceback" in r.stdout, r.stdout + r.stderr
    assert "Traceback" not in r.stderr, r.stderr


def test_every_target_has_a_corpus():
    corpus = FUZZ.parent / "corpus"
    assert sorted(p.name for p in corpus.iterdir() if p.is_dir()) == sorted(TARGETS)
    for target in TARGETS:
        assert any((corpus / target).iterdir()), target
