"""Target labels and patterns, Bazel style, turned into workspace-relative selectors.

`//packages/layernorm` names one package; `//packages/...` every package below a directory;
`//...` the whole workspace. Plain paths (`packages/layernorm`, `./packages/layernorm/`) are
relative to the current directory; a bare name (`layernorm`) matches a package's name. Pure
string work: the workspace module matches selectors against the packages it found.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from opkg.core.errors import LabelError


@dataclass(frozen=True)
class Selector:
    path: str            # workspace-relative POSIX directory, "" for the root
    recursive: bool      # pattern ended in '...'
    name: str | None = None   # a bare package name instead of a path
    text: str = ""       # what the user typed, for messages

    def matches(self, rel_dir: str, name: str) -> bool:
        if self.name is not None:
            return name == self.name
        if self.recursive:
            return self.path == "" or rel_dir == self.path or rel_dir.startswith(self.path + "/")
        return rel_dir == self.path


def label_for(rel_dir: str) -> str:
    return "//" + rel_dir


def parse(pattern: str, root: Path, cwd: Path | None = None) -> Selector:
    text = pattern
    if not pattern or pattern.strip() != pattern:
        raise LabelError(f"invalid target {pattern!r}", hint="try //packages/NAME or //...")
    if pattern.startswith("//"):
        body = pattern[2:]
        rel = _clean(body, pattern)
    elif pattern.startswith("/") and not Path(pattern).exists():
        raise LabelError(f"invalid target {pattern!r}",
                         hint="workspace labels start with two slashes: //packages/NAME")
    else:
        cwd = (cwd or Path.cwd()).resolve()
        body = pattern
        recursive = body == "..." or body.endswith("/...")
        base = body[: -3].rstrip("/") if recursive else body
        is_name = ("/" not in body and not recursive and body not in (".", "..")
                   and not (cwd / body).exists())
        if is_name:
            if not _is_identifier(body):
                raise LabelError(f"no such package or path: {pattern!r}",
                                 hint="give a path, a //label, or a package name")
            return Selector("", False, name=body, text=text)
        absolute = (cwd / base).resolve() if base else cwd
        try:
            rel_path = absolute.relative_to(root.resolve())
        except ValueError:
            raise LabelError(f"{pattern!r} is outside the workspace at {root}",
                             hint="run opkg inside the workspace, or give a //label") from None
        rel = rel_path.as_posix()
        rel = "" if rel == "." else rel
        return Selector(rel, recursive, text=text)
    recursive = rel == "..." or rel.endswith("/...")
    if recursive:
        rel = rel[:-3].rstrip("/")
    return Selector(rel, recursive, text=text)


def _clean(body: str, pattern: str) -> str:
    body = body.rstrip("/") if body not in ("", "...") else body
    parts = PurePosixPath(body).parts if body else ()
    if any(p in ("..", ".") for p in parts) or ":" in body or "\\" in body:
        raise LabelError(f"invalid label {pattern!r}",
                         hint="labels are //dir/subdir or //dir/... with no '.', '..' or ':'")
    if "..." in body and not (body == "..." or body.endswith("/...")) or \
            body.count("...") > 1:
        raise LabelError(f"invalid label {pattern!r}", hint="'...' may only end a pattern")
    return body


def _is_identifier(text: str) -> bool:
    return text.replace("_", "a").replace("-", "a").isalnum()


def relpath_label(path: Path, root: Path) -> str:
    rel = os.path.relpath(path, root)
    return label_for(PurePosixPath(Path(rel)).as_posix())


def suggest(target: str, packages) -> str | None:
    """A 'did you mean' hint for a target that matched no package: its last name is compared
    with each package's name and directory name (two whole labels share '//packages/', which
    makes any two look alike), and the hint is a target that selects that package."""
    import difflib

    body = target.rstrip("/")
    body = body[:-3].rstrip("/") if body.endswith("...") else body
    word = body.rsplit("/", 1)[-1]
    bare = "/" not in target
    names: dict[str, str] = {}
    for label, name in packages:
        names.setdefault(name, name if bare else label)
        names.setdefault(label.rsplit("/", 1)[-1], label)
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return f"did you mean '{names[close[0]]}'?" if close else None
