"""The harnesses' `--opkg-at REV`: a commit's opkg/ (and the toolchains/ it links to) extracted
once, atomically, then first on the import path of the harness and of every process it starts,
so a long run measures one commit however the checkout changes under it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

SNAPSHOT = Path(__file__).resolve().parents[1] / "bench" / "compat" / "snapshot.py"


def _module():
    spec = importlib.util.spec_from_file_location("compat_snapshot", SNAPSHOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "opkg-checkout"
    (repo / "opkg" / "data").mkdir(parents=True)
    (repo / "toolchains").mkdir()
    (repo / "opkg" / "__init__.py").write_text("VERSION = 'first'\n")
    (repo / "toolchains" / "socs.yaml").write_text("socs: first\n")
    os.symlink("../../toolchains/socs.yaml", repo / "opkg" / "data" / "socs.yaml")
    (repo / "README").write_text("not part of the snapshot\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    return repo


def test_a_commit_is_extracted_once_with_what_its_links_point_to(repo, tmp_path):
    snapshot = _module()
    first = _git(repo, "rev-parse", "HEAD")
    # the checkout moves on after the run started
    (repo / "opkg" / "__init__.py").write_text("VERSION = 'second'\n")
    _git(repo, "commit", "-qam", "second")
    sha, dest = snapshot.extract("HEAD~1", repo=repo, base=tmp_path)
    assert sha == first and dest == tmp_path / f"opkg-at-{first[:12]}"
    assert (dest / "opkg" / "__init__.py").read_text() == "VERSION = 'first'\n"
    assert (dest / "opkg" / "data" / "socs.yaml").read_text() == "socs: first\n"
    assert not (dest / "README").exists()
    # a second run reuses the extracted tree; nothing half-written is left beside it
    (dest / "opkg" / "marker").write_text("kept")
    assert snapshot.extract(first[:8], repo=repo, base=tmp_path) == (first, dest)
    assert (dest / "opkg" / "marker").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["opkg-checkout", dest.name])


def test_an_unknown_revision_is_refused_with_a_hint(repo, tmp_path):
    with pytest.raises(SystemExit) as info:
        _module().extract("no-such-branch", repo=repo, base=tmp_path)
    assert "--opkg-at no-such-branch: not a commit of" in str(info.value)
    assert "hint:" in str(info.value)


def test_the_revision_is_read_from_the_command_line_before_the_environment(monkeypatch):
    snapshot = _module()
    monkeypatch.setenv("OPKG_AT", "from-env")
    assert snapshot.requested(["x.py", "--opkg-at", "abc123", "--jobs", "1"]) == "abc123"
    assert snapshot.requested(["x.py", "--opkg-at=abc123"]) == "abc123"
    assert snapshot.requested(["x.py", "--jobs", "1"]) == "from-env"
    monkeypatch.delenv("OPKG_AT")
    assert snapshot.requested(["x.py"]) is None


def test_a_pinned_harness_and_its_children_import_the_snapshot(repo, tmp_path):
    """The harness's process and an `opkg` it starts both import the commit's opkg."""
    script = tmp_path / "harness.py"
    script.write_text(
        "import subprocess, sys\n"
        f"sys.path.insert(0, {str(SNAPSHOT.parent)!r})\n"
        "import snapshot\n"
        f"snapshot.REPO = __import__('pathlib').Path({str(repo)!r})\n"
        "short = snapshot.pin(sys.argv)\n"
        "import opkg\n"
        "child = subprocess.run([sys.executable, '-c', 'import opkg; print(opkg.VERSION)'],\n"
        "                       capture_output=True, text=True).stdout.strip()\n"
        "print(short, opkg.VERSION, child)\n")
    first = _git(repo, "rev-parse", "HEAD")
    (repo / "opkg" / "__init__.py").write_text("VERSION = 'live'\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPKG_AT", "PYTHONPATH")}
    env["TMPDIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, str(script), "--opkg-at", "HEAD"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == [first[:8], "first", "first"]
