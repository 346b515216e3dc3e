"""Which verification cases a run executes: `opkg test -k EXPR`, `--case`, `--variant`, `--lf`.

A selection is plain data. The plan puts only the selected cases into each variant's
verification job (so a selection is its own job: the cache keeps it apart from the full run,
and going back to the full run restores that one without running anything), and plans no
verification at all for a variant or a target with none selected.

`-k` is pytest's: words joined by `and`, `or`, `not` and parentheses; a word matches a case
when it is a substring (ignoring case) of one of the case's keywords: its name, its dtype
variant's name, each dtype of the variant, its SoC, and its package's name and label.

The last failures live in `out/.opkg/last-failed.json`: each run adds what failed and drops
what passed, so `--lf` runs again exactly what is still failing.
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass
from pathlib import Path

LAST_FAILED = Path(".opkg") / "last-failed.json"
ANY = "*"            # a last-failed entry for a whole variant, or a whole target


class BadExpression(ValueError):
    pass


@dataclass(frozen=True)
class Selection:
    keyword: str | None = None
    cases: tuple[str, ...] = ()          # --case patterns (fnmatch)
    variants: tuple[str, ...] = ()       # --variant patterns (fnmatch)
    # --lf: (package label, SoC, variant or '*', case or '*') that failed last time
    only: frozenset[tuple[str, str, str, str]] | None = None

    def __post_init__(self):
        if self.keyword is not None:
            _parse(self.keyword)         # a bad expression fails before anything builds

    def __bool__(self) -> bool:
        return bool(self.keyword or self.cases or self.variants or self.only is not None)

    def keep(self, package: str, soc: str, variant: str, case: str,
             dtypes: tuple[str, ...] = (), name: str | None = None) -> bool:
        if self.variants and not any(fnmatch.fnmatchcase(variant, p) for p in self.variants):
            return False
        if self.cases and not any(fnmatch.fnmatchcase(case, p) for p in self.cases):
            return False
        if self.only is not None and not any(k in self.only for k in (
                (package, soc, variant, case), (package, soc, variant, ANY),
                (package, soc, ANY, ANY))):
            return False
        if self.keyword:
            words = [case, variant, soc, package, *(dtypes or ()), *([name] if name else [])]
            return _parse(self.keyword)(lambda w: any(w.lower() in k.lower() for k in words))
        return True

    def to_json(self) -> dict:
        return {"keyword": self.keyword, "cases": list(self.cases),
                "variants": list(self.variants),
                "only": sorted(list(k) for k in self.only) if self.only is not None else None}

    def describe(self) -> str:
        parts = [f"-k {self.keyword!r}"] if self.keyword else []
        parts += [f"--case {c}" for c in self.cases] + [f"--variant {v}" for v in self.variants]
        if self.only is not None:
            parts.append("--lf")
        return " ".join(parts)


def rerun_command(package: str, soc: str, variant: str, case: str | None) -> str:
    """The command that runs one case (or a whole variant) alone."""
    import shlex

    argv = ["opkg", "test", package, "--soc", soc, "--variant", variant]
    if case:
        argv += ["--case", case]
    return " ".join(shlex.quote(a) for a in argv)


# ---- -k expressions --------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def _parse(expr: str):
    """EXPR -> a function of `has(word) -> bool`; raises BadExpression with the position."""
    tokens = []
    pos = 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or not m.group(1):
            break
        tokens.append((m.group(1), m.start(1)))
        pos = m.end()
    at = [0]

    def peek():
        return tokens[at[0]][0] if at[0] < len(tokens) else None

    def fail(what):
        col = tokens[at[0]][1] + 1 if at[0] < len(tokens) else len(expr) + 1
        raise BadExpression(f"{expr!r}: {what} at column {col}")

    def take():
        at[0] += 1
        return tokens[at[0] - 1][0]

    def or_expr():
        left = and_expr()
        while peek() == "or":
            take()
            right = and_expr()
            left = (lambda a, b: lambda has: a(has) or b(has))(left, right)
        return left

    def and_expr():
        left = not_expr()
        while peek() == "and":
            take()
            right = not_expr()
            left = (lambda a, b: lambda has: a(has) and b(has))(left, right)
        return left

    def not_expr():
        if peek() == "not":
            take()
            inner = not_expr()
            return lambda has: not inner(has)
        if peek() == "(":
            take()
            inner = or_expr()
            if peek() != ")":
                fail("expected ')'")
            take()
            return inner
        word = peek()
        if word is None or word in ("and", "or", ")"):
            fail("expected a word, 'not' or '('")
        take()
        return lambda has: has(word)

    if not tokens:
        raise BadExpression("-k needs an expression, e.g. -k 'float16 and not small'")
    fn = or_expr()
    if at[0] != len(tokens):
        fail(f"unexpected {peek()!r}")
    return fn


# ---- the last failures -----------------------------------------------------------------------

def last_failed_path(output_dir) -> Path:
    return Path(output_dir) / LAST_FAILED


def read_last_failed(output_dir) -> set[tuple[str, str, str, str]]:
    try:
        data = json.loads(last_failed_path(output_dir).read_text())
        return {tuple(k) for k in data["failed"] if len(k) == 4}
    except (OSError, ValueError, KeyError, TypeError):
        return set()


def update_last_failed(output_dir, result, rows: list[dict]) -> set:
    """Add what failed in this run, drop what passed; entries this run did not reach stay."""
    from opkg.util.fsutil import atomic_write_text

    failed = read_last_failed(output_dir)
    for t in result.targets:
        for variant in t.not_run:            # never verified: all of its cases are owed
            failed.add((t.package, t.soc, variant, ANY))
        for variant, report in t.reports.items():
            if report.get("results"):
                failed.discard((t.package, t.soc, variant, ANY))
    for row in rows:
        key = (row["package"], row["soc"], row["variant"], row["case"] or ANY)
        if row["passed"]:
            failed.discard(key)
        else:
            failed.add(key)
    path = last_failed_path(output_dir)
    text = json.dumps({"failed": sorted(list(k) for k in failed)}, indent=1) + "\n"
    try:
        unchanged = Path(path).read_text() == text
    except (OSError, UnicodeDecodeError):
        unchanged = False
    if not unchanged:                    # a null build writes nothing (the build server's
        atomic_write_text(path, text)    # watcher sees no change made by opkg itself)
    return failed
