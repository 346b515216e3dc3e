"""The workspace file's `repositories:` section and `@repo//...` labels, as plain data.

A repository is `path:` (a checkout, relative to the workspace root) or `git:` (a URL or a local
mirror) with `commit:` (a full SHA, required with git, checked against a checkout's HEAD when
given with path). Its `libraries:` are the BUILD-file overlay these repositories lack: per
library the include directories, the host sources (globs) compiled into every dependent host
library, and the kernel include directories (default: the include directories).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from opkg.core.errors import Location, ManifestError, did_you_mean

NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
SHA_RE = re.compile(r"^[0-9a-f]{40}$")
REPO_KEYS = ("path", "git", "commit", "libraries")
LIBRARY_KEYS = ("include_dirs", "host_sources", "kernel_include_dirs")
LABEL_HINT = "an external label is @repository//path/in/repo, a library @repository//:library"


@dataclass(frozen=True)
class LibrarySpec:
    name: str
    include_dirs: tuple[str, ...]            # relative to the repository root
    host_sources: tuple[str, ...]            # glob patterns, relative to the repository root
    kernel_include_dirs: tuple[str, ...]
    location: Location = field(compare=False)
    # where each include dir / glob is written: (key, index) -> Location
    locations: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class RepositorySpec:
    name: str
    path: str | None                         # a checkout, relative to the workspace root
    git: str | None                          # a URL or a local mirror
    commit: str | None                       # full SHA; required with git
    libraries: dict                          # name -> LibrarySpec
    location: Location = field(compare=False)
    locations: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def source(self) -> str:
        """How opkg.lock names where it comes from."""
        return f"git+{self.git}" if self.git else f"path+{self.path}"


class LabelSyntaxError(ValueError):
    def __init__(self, message: str, hint: str = LABEL_HINT):
        super().__init__(message)
        self.message, self.hint = message, hint


def is_external(text) -> bool:
    return isinstance(text, str) and text.startswith("@")


def parse_path_label(text: str) -> tuple[str, str]:
    """`@repo//path/in/repo` -> (repo, 'path/in/repo'); the path may be empty (the root)."""
    repo, body = _split(text)
    if body.startswith(":"):
        raise LabelSyntaxError(f"{text!r} names a library, not a file or directory",
                               "a file or directory in a repository is @repo//path/in/repo")
    _check_path(body, text)
    return repo, body.rstrip("/")


def parse_library_label(text: str) -> tuple[str, str]:
    """`@repo//:library` -> (repo, library)."""
    repo, body = _split(text)
    if not body.startswith(":"):
        raise LabelSyntaxError(f"{text!r} is not a library label",
                               f"a dependency on a repository's library is @{repo}//:library")
    lib = body[1:]
    if not NAME_RE.match(lib):
        raise LabelSyntaxError(f"{text!r}: {lib!r} is not a library name",
                               "library names are letters, digits and '_', starting with a letter")
    return repo, lib


def library_label(repo: str, lib: str) -> str:
    return f"@{repo}//:{lib}"


def _split(text: str) -> tuple[str, str]:
    if not isinstance(text, str) or not text.startswith("@") or "//" not in text:
        raise LabelSyntaxError(f"invalid external label {text!r}")
    repo, body = text[1:].split("//", 1)
    if not NAME_RE.match(repo):
        raise LabelSyntaxError(f"invalid external label {text!r}: {repo!r} is not a repository "
                               "name", "repository names are letters, digits and '_', starting "
                               "with a letter, as declared under repositories: in "
                               "opkg-workspace.yaml")
    return repo, body


def _check_path(body: str, text: str) -> None:
    parts = body.split("/") if body else []
    if body.startswith("/") or any(p in (".", "..") for p in parts) or "\\" in body \
            or ":" in body:
        raise LabelSyntaxError(f"invalid external label {text!r}",
                               "the path after // is relative to the repository root, with no "
                               "'.', '..' or ':'")


def _glob_ok(pattern: str) -> bool:
    try:
        _check_path(pattern, pattern)
    except LabelSyntaxError:
        return False
    return bool(pattern)


def from_workspace(value, doc) -> dict[str, RepositorySpec]:
    """The `repositories:` section, every value checked and located (errors at their line)."""
    if value is None:
        return {}
    where = ("repositories",)
    if not isinstance(value, dict):
        raise doc.error(where, "expected a mapping of repository names",
                        "repositories:\n  opbase: {path: ../opbase, libraries: {...}}")
    out = {}
    for name, raw in value.items():
        w = where + (name,)
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise doc.error(w, f"{name!r} is not a repository name",
                            "letters, digits and '_', starting with a letter", at_key=True)
        if not isinstance(raw, dict):
            raise doc.error(w, "expected a mapping with path: or git: and commit:")
        for key in raw:
            if key not in REPO_KEYS:
                raise doc.error(w + (key,), f"unknown key {key!r}",
                                did_you_mean(key, REPO_KEYS) or f"allowed: {', '.join(REPO_KEYS)}",
                                at_key=True)
        path, git, commit = raw.get("path"), raw.get("git"), raw.get("commit")
        if (path is None) == (git is None):
            raise doc.error(w, f"repository {name!r} needs exactly one of path: or git:",
                            "path: a checkout relative to the workspace root; git: a URL or a "
                            "local mirror, with commit:", at_key=True)
        for key, v in (("path", path), ("git", git)):
            if v is not None and (not isinstance(v, str) or not v.strip()):
                raise doc.error(w + (key,), f"expected a string, got {v!r}")
        if isinstance(commit, (int, float)) and not isinstance(commit, bool):
            raise doc.error(w + ("commit",), "the commit is a number to YAML",
                            "quote it: commit: \"<40 hex digits>\"")
        if commit is not None and (not isinstance(commit, str) or not SHA_RE.match(commit)):
            raise doc.error(w + ("commit",), f"{commit!r} is not a full commit SHA",
                            "give all 40 hex digits, as `git rev-parse HEAD` prints them (a "
                            "branch or a short SHA could move)")
        if git is not None and commit is None:
            raise doc.error(w, f"repository {name!r} is fetched with git but pins no commit",
                            "add commit: <40-digit SHA> (a git repository is always pinned)",
                            at_key=True)
        libs = _libraries(raw.get("libraries"), w + ("libraries",), doc)
        locs = {k: doc.loc(w + (k,)) for k in ("path", "git", "commit") if k in raw}
        out[name] = RepositorySpec(name, path, git, commit, libs, doc.loc(w, at_key=True), locs)
    return out


def _libraries(value, where, doc) -> dict[str, LibrarySpec]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise doc.error(where, "expected a mapping of library names",
                        "libraries:\n  op_common: {include_dirs: [include]}")
    out = {}
    for name, raw in value.items():
        w = where + (name,)
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise doc.error(w, f"{name!r} is not a library name",
                            "letters, digits and '_', starting with a letter", at_key=True)
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise doc.error(w, "expected a mapping", f"allowed keys: {', '.join(LIBRARY_KEYS)}")
        for key in raw:
            if key not in LIBRARY_KEYS:
                raise doc.error(w + (key,), f"unknown key {key!r}",
                                did_you_mean(key, LIBRARY_KEYS)
                                or f"allowed: {', '.join(LIBRARY_KEYS)}", at_key=True)
        lists, locs = {}, {}
        for key in LIBRARY_KEYS:
            items = raw.get(key)
            if items is None:
                continue
            if not isinstance(items, list):
                raise doc.error(w + (key,), "expected a list of paths relative to the "
                                "repository root")
            for i, item in enumerate(items):
                if not isinstance(item, str) or not (_glob_ok(item) or item == "."):
                    raise doc.error(w + (key, i), f"{item!r} is not a path inside the repository",
                                    "relative to the repository root, with no '..'")
                locs[(key, i)] = doc.loc(w + (key, i))
            lists[key] = tuple(items)
        include = lists.get("include_dirs", ())
        out[name] = LibrarySpec(name, include, lists.get("host_sources", ()),
                                lists.get("kernel_include_dirs", include),
                                doc.loc(w, at_key=True), locs)
    return out


def unknown_repository(name: str, known, location: Location | None, field_: str | None = None):
    return ManifestError(f"unknown repository {name!r}", location=location, field=field_,
                         hint=did_you_mean(name, known) or (
                             f"declared repositories: {', '.join(sorted(known))}" if known else
                             "declare it under repositories: in opkg-workspace.yaml"))


def unknown_library(repo: RepositorySpec, lib: str, location: Location | None,
                    field_: str | None = None):
    known = sorted(repo.libraries)
    return ManifestError(f"repository {repo.name!r} has no library {lib!r}", location=location,
                         field=field_, hint=did_you_mean(lib, known) or (
                             f"its libraries: {', '.join(known)}" if known else
                             f"declare it under repositories: {repo.name}: libraries: in "
                             "opkg-workspace.yaml"))
