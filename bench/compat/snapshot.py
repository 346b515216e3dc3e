"""Measure a given opkg commit, not the live checkout: `--opkg-at REV` (or OPKG_AT=REV).

A harness run takes an hour; the checkout it runs from keeps changing under it (a header
edited mid-run mixes two versions into one figure). With a pin, the commit's `opkg/` is
extracted once with `git archive` into a directory of its own and comes first on the import
path of the harness and of every process it starts (opkg, SCons, the verifier), so each row
is measured by exactly that commit and says so.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HELP = ("measure this opkg commit (a snapshot of its opkg/ extracted once), not the live "
        "checkout, which may change during the run (also: OPKG_AT=REV)")


def add_option(parser) -> None:
    parser.add_argument("--opkg-at", metavar="REV", help=HELP)


def requested(argv: list[str]) -> str | None:
    """The revision asked for on the command line (read before argparse runs: opkg is imported
    before the arguments are parsed) or in OPKG_AT."""
    for i, arg in enumerate(argv):
        if arg == "--opkg-at" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--opkg-at="):
            return arg.split("=", 1)[1]
    return os.environ.get("OPKG_AT") or None


def extract(rev: str, repo: Path | None = None, base: Path | None = None) -> tuple[str, Path]:
    """(full commit, directory holding its opkg/ and toolchains/, which opkg/ links to): extracted once, atomically (a directory
    renamed into place), so concurrent harness runs share it and a crash leaves no half tree."""
    repo = repo or REPO
    r = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"error: --opkg-at {rev}: not a commit of {repo}\n"
                         "hint: a branch, tag or commit hash of the opkg checkout (git log --oneline)")
    sha = r.stdout.strip()
    dest = (base or Path(tempfile.gettempdir())) / f"opkg-at-{sha[:12]}"
    if not (dest / "opkg" / "__init__.py").is_file():
        archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", sha, "opkg", "toolchains"],
                                 capture_output=True, check=True).stdout
        tmp = Path(tempfile.mkdtemp(prefix=f"{dest.name}.tmp-", dir=dest.parent))
        try:
            subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
            os.rename(tmp, dest)
        except OSError:
            if not (dest / "opkg" / "__init__.py").is_file():
                raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)     # another run renamed its copy first
    return sha, dest


def pin(argv: list[str]) -> str | None:
    """Put the requested commit's opkg first on the import path of this process and its
    children; its short hash, or None when no commit is asked for."""
    rev = requested(argv)
    if rev is None:
        return None
    sha, dest = extract(rev)
    if str(dest) in sys.path:
        return sha[:8]                                  # pinned already (run.py, then its caller)
    if "opkg" in sys.modules and not sys.modules["opkg"].__file__.startswith(str(dest)):
        raise RuntimeError("opkg was imported before the snapshot was pinned")
    sys.path.insert(0, str(dest))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(dest), os.environ.get("PYTHONPATH")) if p)
    os.environ["OPKG_AT"] = sha
    return sha[:8]
