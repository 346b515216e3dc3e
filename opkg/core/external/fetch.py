"""Making an external repository present and proving what it holds.

- `path:` a checkout the user keeps: it must exist; with `commit:` its HEAD must be that commit.
- `git:` a URL or a local mirror: fetched once into the cache (`<cache_dir>/repositories/`) as a
  bare clone, and the pinned commit checked out into `checkouts/<commit>` through a temporary
  directory renamed into place (an interrupted fetch leaves no half checkout). A checkout is
  content-addressed by its commit, so every workspace pinning that commit shares it.

Every repository is checked by a tree digest: SHA-256 over each file's path, executable bit and
content (`.git` excluded), so an edited checkout or cache entry is seen. File hashes are reused
while a file's stat signature is unchanged (`<cache_dir>/repositories/trees/`, one file per
tree), with the fast path's racy-timestamp rule, so a warm check costs a stat per file.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from opkg.core.errors import ManifestError
from opkg.core.external.spec import RepositorySpec

GIT_TIMEOUT = 1800


@dataclass(frozen=True)
class Repository:
    """A repository made present: where it is and what it holds."""

    name: str
    source: str                 # as opkg.lock writes it: path+<dir> or git+<url>
    root: Path
    commit: str | None          # the pinned commit, or a path checkout's HEAD (None outside git)
    tree: str                   # sha256:<hex> over the tree (see module docstring)


class FetchError(ManifestError):
    """A repository could not be made present (exit 2: the workspace file names it)."""


def cache_root(cache_dir: Path) -> Path:
    return Path(cache_dir) / "repositories"


def checkout_dir(cache_dir: Path, commit: str) -> Path:
    return cache_root(cache_dir) / "checkouts" / commit


def planned_root(spec: RepositorySpec, ws_root: Path, cache_dir: Path) -> Path:
    """Where the repository's files are, known without fetching anything."""
    if spec.path is not None:
        return (Path(ws_root) / Path(spec.path).expanduser()).resolve()
    return checkout_dir(cache_dir, spec.commit)


def resolve(spec: RepositorySpec, ws_root: Path, cache_dir: Path, on_note=None) -> Repository:
    """The repository made present, with its commit and tree digest."""
    root, commit = present(spec, ws_root, cache_dir, on_note)
    return Repository(spec.name, spec.source, root, commit, tree_digest(root, memo_path(
        cache_dir, root)))


def memo_path(cache_dir: Path, root: Path) -> Path:
    """Where the file hashes of a tree are kept between runs (in the cache: a fresh checkout's
    `opkg lock` reuses them too)."""
    key = hashlib.sha256(str(root).encode()).hexdigest()[:24]
    return cache_root(cache_dir) / "trees" / f"{key}.json"


def present(spec: RepositorySpec, ws_root: Path, cache_dir: Path,
            on_note=None) -> tuple[Path, str | None]:
    """(root, commit) once the repository is there: a path checkout checked, a git commit
    fetched. No digest (that reads every file)."""
    root = planned_root(spec, ws_root, cache_dir)
    if spec.path is not None:
        where = spec.locations.get("path", spec.location)
        if not root.is_dir():
            raise FetchError(f"repository {spec.name!r}: {root} is not a directory",
                             location=where, field=f"repositories.{spec.name}.path",
                             hint="clone it there, or point path: at the checkout (relative to "
                                  "the workspace root)")
        head = git_head(root)
        if spec.commit is not None and head != spec.commit:
            raise FetchError(
                f"repository {spec.name!r}: the checkout at {root} is at "
                f"{head or 'no git commit'}, not the pinned {spec.commit}",
                location=spec.locations.get("commit", where),
                field=f"repositories.{spec.name}.commit",
                hint=f"run `git -C {root} checkout {spec.commit}`, or pin the checkout's "
                     "commit (or drop commit: to follow the checkout)")
        return root, head
    fetch_git(spec, ws_root, cache_dir, on_note)
    return root, spec.commit


def git_head(root: Path) -> str | None:
    """The commit a checkout is at, or None when it is not the top of a git work tree (a
    directory inside another repository's work tree does not count)."""
    try:
        top = _git(["rev-parse", "--show-toplevel", "HEAD"], cwd=root, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if top.returncode != 0:
        return None
    lines = top.stdout.split()
    if len(lines) != 2 or Path(lines[0]).resolve() != Path(root).resolve():
        return None
    return lines[1]


def _git(args, *, cwd=None, timeout=GIT_TIMEOUT, git_dir=None, env=None):
    argv = ["git", *(["--git-dir", str(git_dir)] if git_dir else []), *args]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "GIT_TERMINAL_PROMPT": "0", **(env or {})})


def _git_url(spec: RepositorySpec, ws_root: Path) -> str:
    """A URL as written; anything else is a local mirror, relative to the workspace root."""
    text = spec.git
    if "://" in text or (":" in text and "@" in text.split(":", 1)[0]):
        return text
    return str((Path(ws_root) / Path(text).expanduser()).resolve())


def fetch_git(spec: RepositorySpec, ws_root: Path, cache_dir: Path, on_note=None) -> Path:
    """The pinned commit checked out in the cache (fetched first when missing)."""
    dest = checkout_dir(cache_dir, spec.commit)
    if dest.is_dir():
        return dest
    where = spec.locations.get("git", spec.location)
    url = _git_url(spec, ws_root)
    base = cache_root(cache_dir)
    base.mkdir(parents=True, exist_ok=True)
    bare = base / "git" / (hashlib.sha256(url.encode()).hexdigest()[:24] + ".git")

    def fail(what: str, result=None, hint: str | None = None):
        detail = f": {result.stderr.strip().splitlines()[-1]}" if result is not None and \
            result.stderr.strip() else ""
        raise FetchError(f"repository {spec.name!r}: {what}{detail}", location=where,
                         field=f"repositories.{spec.name}.git",
                         hint=hint or "check the URL or mirror path and your network; opkg "
                                      "runs `git clone --bare` and `git fetch` on it")

    with open(base / ".lock", "a+") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)     # one fetch at a time per cache
        if dest.is_dir():                              # another process fetched it meanwhile
            return dest
        if on_note:
            on_note(f"fetching repository {spec.name} at {spec.commit[:12]} from {spec.git}")
        try:
            if not (bare / "HEAD").is_file():
                tmp = bare.with_name(bare.name + f".tmp-{os.getpid()}")
                shutil.rmtree(tmp, ignore_errors=True)
                r = _git(["clone", "--bare", "--quiet", url, str(tmp)])
                if r.returncode != 0:
                    shutil.rmtree(tmp, ignore_errors=True)
                    fail(f"cannot clone {spec.git}", r)
                os.replace(tmp, bare)
            if not _has_commit(bare, spec.commit):
                # branches and tags first; then the commit itself (servers that allow it)
                _git(["fetch", "--quiet", url, "+refs/heads/*:refs/heads/*",
                      "+refs/tags/*:refs/tags/*"], git_dir=bare)
                if not _has_commit(bare, spec.commit):
                    _git(["fetch", "--quiet", url, spec.commit], git_dir=bare)
            if not _has_commit(bare, spec.commit):
                raise FetchError(f"repository {spec.name!r}: commit {spec.commit} is not in "
                                 f"{spec.git}", location=spec.locations.get("commit", where),
                                 field=f"repositories.{spec.name}.commit",
                                 hint="check the SHA (`git ls-remote` lists the branches' "
                                      "commits), or push the commit")
            tmp = dest.with_name(f".tmp-{spec.commit}-{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            index = tmp.with_name(tmp.name + ".index")
            env = {"GIT_INDEX_FILE": str(index)}
            try:
                for args in (["read-tree", spec.commit], ["checkout-index", "--all", "--force"]):
                    r = _git(["--work-tree", str(tmp), *args], git_dir=bare, env=env)
                    if r.returncode != 0:
                        fail(f"cannot check out {spec.commit}", r, "the cache may be damaged: "
                             f"remove {bare} and build again")
                os.replace(tmp, dest)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
                index.unlink(missing_ok=True)
        except subprocess.TimeoutExpired:
            fail(f"git did not finish within {GIT_TIMEOUT} s")
        except OSError as exc:
            fail(f"cannot run git: {exc}", hint="install git")
    return dest


def _has_commit(bare: Path, commit: str) -> bool:
    r = _git(["cat-file", "-e", f"{commit}^{{commit}}"], git_dir=bare, timeout=60)
    return r.returncode == 0


def tree_digest(root: Path, memo_path: Path | None = None) -> str:
    """sha256 over (path, executable bit, content) of every file below root, `.git` excluded;
    a link is digested as its target's text. File hashes are reused from `memo_path` while
    their stat signature holds (not for a racy one, written in this tick)."""
    from opkg.core.statsig import is_racy as _racy, stat_signature as _sig

    memo = {}
    if memo_path is not None:
        try:
            memo = json.loads(Path(memo_path).read_text())
            if memo.get("root") != str(root):
                memo = {}
        except (OSError, ValueError):
            memo = {}
    old = memo.get("files", {})
    now = time.time_ns()
    files, entries = {}, []
    root = Path(root)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                st = os.lstat(path)
            except OSError:
                continue
            sig = _sig(st)
            if os.path.islink(path):
                digest = "link:" + hashlib.sha256(os.readlink(path).encode()).hexdigest()
            else:
                prev = old.get(rel)
                if prev and prev[0] == sig:
                    digest = prev[1]
                else:
                    h = hashlib.sha256()
                    with open(path, "rb") as fh:
                        for chunk in iter(lambda: fh.read(1 << 20), b""):
                            h.update(chunk)
                    digest = h.hexdigest()
                if not _racy(sig, now):
                    files[rel] = [sig, digest]
            entries.append(f"{rel}\0{'x' if st.st_mode & 0o111 else '-'}\0{digest}\n")
    total = hashlib.sha256("".join(sorted(entries)).encode()).hexdigest()
    if memo_path is not None and files != old:
        from opkg.util.fsutil import atomic_write_text

        try:
            atomic_write_text(Path(memo_path), json.dumps({"root": str(root), "files": files}))
        except OSError:
            pass
    return "sha256:" + total
