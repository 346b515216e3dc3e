"""The error hierarchy every stage raises and the CLI renders.

Each class carries its process exit code, so the CLI never decides codes case by case:
bad input (manifests, flags, labels) exits 2, a failed build or verification exits 1,
toolchain misalignment exits 3. Errors carry an optional source location and a hint; the
CLI prints `file:line:col: error: message` then `hint: ...`, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """A place in a user's file; line and column are 1-based (0 = unknown)."""

    path: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        text = _display_path(self.path)
        if self.line:
            text += f":{self.line}"
            if self.column:
                text += f":{self.column}"
        return text


def _display_path(path: Path) -> str:
    """Relative to the current directory when below it: shorter, and clickable in terminals."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


class OpkgError(Exception):
    """Base of every error opkg reports to a user."""

    exit_code = 1

    def __init__(self, message: str, *, location: Location | None = None,
                 hint: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        self.field = field

    def render(self) -> str:
        prefix = f"{self.location}: " if self.location else ""
        field = f"{self.field}: " if self.field else ""
        text = f"{prefix}error: {field}{self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text

    def to_json(self) -> dict:
        return {
            "kind": type(self).__name__,
            "message": self.message,
            "file": str(self.location.path) if self.location else None,
            "line": self.location.line if self.location else None,
            "column": self.location.column if self.location else None,
            "field": self.field,
            "hint": self.hint,
        }


class UsageError(OpkgError):
    """Bad input: a malformed manifest, label, flag or version string."""

    exit_code = 2


class ManifestError(UsageError):
    """A package manifest or the workspace file is invalid."""


class ManifestErrors(ManifestError):
    """Several manifest errors found in one pass, reported together as a compiler does: each
    at its file:line with its hint, then a count. Behaves as its first error otherwise."""

    def __init__(self, errors):
        flat = [e for err in errors for e in getattr(err, "errors", [err])]
        # in file and line order, as a compiler lists them (one without a place keeps its turn)
        self.errors = sorted(flat, key=lambda e: (str(e.location.path), e.location.line or 0,
                                                  e.location.column or 0) if e.location
                             else ("", 0, 0))
        first = self.errors[0]
        super().__init__(first.message, location=first.location, hint=first.hint,
                         field=first.field)

    def render(self) -> str:
        n = len(self.errors)
        files = len({str(e.location.path) for e in self.errors if e.location})
        return "\n".join(e.render() for e in self.errors) + (
            f"\n{n} errors in {files} file{'s' if files != 1 else ''}")

    def to_json(self) -> dict:
        # the first error's fields (as before), then every error
        return {**self.errors[0].to_json(), "errors": [e.to_json() for e in self.errors]}


def raise_all(errors) -> None:
    """Raise what `errors` found: nothing, the one error as it is, or ManifestErrors."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ManifestErrors(errors)


class LabelError(UsageError):
    """A target label or pattern is malformed or matches nothing."""


class GraphError(UsageError):
    """The package graph is invalid: a missing dependency or a cycle."""


class VersionError(UsageError):
    """A CANN, driver or package version (or specifier) is malformed."""


class BuildError(OpkgError):
    """A compile, link or bundle step failed."""

    exit_code = 1


class VerificationError(OpkgError):
    """A kernel's outputs disagree with the golden, or the kernel broke an Ascend C rule."""

    exit_code = 1


class ToolchainError(OpkgError):
    """Toolchain misalignment: CANN, driver or SoC do not satisfy the pins."""

    exit_code = 3


class RegistryError(OpkgError):
    """The registry refused an operation or is damaged."""

    exit_code = 1


class Interrupted(OpkgError):
    """The user pressed Ctrl-C; outputs written so far are complete or absent, never partial."""

    exit_code = 130


def did_you_mean(word: str, choices) -> str | None:
    """A 'did you mean ...?' hint for a misspelt name, or None when nothing is close."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
