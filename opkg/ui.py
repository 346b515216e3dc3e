"""What people see: build progress, failures and verification tables.

Progress goes to stderr (a live status line on a TTY, plain lines otherwise), results to
stdout, so `--json` output stays machine-readable. Nothing here decides anything.
"""

from __future__ import annotations

import sys
import time

import click


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return f"{x:.2e}" if x else "0"


class Progress:
    """Turns engine events into a status line (TTY) or one line per finished step."""

    def __init__(self, root, stream=None, quiet=False):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.root = str(root)
        self.quiet = quiet
        self.started = time.monotonic()
        self.ran = self.cached = self.failed = 0
        self.running: list[str] = []
        self.notes: dict[str, int] = {}

    def __call__(self, event: dict) -> None:
        kind = event["event"]
        if kind == "note":
            # one line per distinct note, however many targets it applies to
            if event["message"] not in self.notes and not self.quiet:
                self.line(click.style(f"note: {event['message']}", dim=True))
            self.notes[event["message"]] = self.notes.get(event["message"], 0) + 1
            return
        if kind == "warning":
            # something was wrong and has been dealt with (a damaged cache entry or output), or
            # a compiler warning about the package's own sources: always shown
            self.line(click.style("warning: ", fg="yellow")
                       + event["message"].replace(self.root + "/", ""))
            return
        if kind == "start":
            self.running.append(event["description"])
        elif kind in ("done", "fail"):
            if event["description"] in self.running:
                self.running.remove(event["description"])
            if kind == "done":
                self.ran += 1
                if not self.tty and not self.quiet:
                    self.line(f"  done  {event['description']} ({event['elapsed']:.2f}s)")
            else:
                self.failed += 1
                self.line(self.failure(event))
        elif kind == "cached":
            self.cached += 1
        if self.tty and not self.quiet:
            self._status()

    def failure(self, event: dict) -> str:
        output = event["output"].replace(self.root + "/", "")
        body = "\n".join("    " + l for l in output.splitlines()[:60])
        return click.style(f"FAILED {event['description']}  [{event['target']}]", fg="red",
                           bold=True) + ("\n" + body if body else "")

    def _status(self) -> None:
        elapsed = time.monotonic() - self.started
        current = self.running[-1] if self.running else ""
        text = f"[{self.ran} ran, {self.cached} cached, {elapsed:.1f}s] {current}"
        width = 100
        self.stream.write("\r\033[K" + text[:width])
        self.stream.flush()

    def line(self, text: str) -> None:
        """Print a line of its own, clearing the status line first on a terminal."""
        if self.tty:
            self.stream.write("\r\033[K")
        click.echo(text, file=self.stream)   # drops colour codes when not a terminal

    def finish(self) -> None:
        if self.tty and not self.quiet:
            self.stream.write("\r\033[K")
            self.stream.flush()


def verification_table(result, detail: bool = False) -> str:
    """One block per target; failing cases get their first wrong element."""
    lines = []
    for t in result.targets:
        status = "PASS" if t.passed else ("FAIL" if t.reports else "NOT VERIFIED")
        colour = "green" if t.passed else "red"
        lines.append(click.style(f"{t.package}  {t.soc}  {t.toolchain}  {status}", fg=colour,
                                 bold=True))
        if not t.reports:
            continue
        lines.append(f"  {'variant':<10}{'case':<22}{'result':<8}{'max abs err':>12}"
                     f"{'max rel err':>13}{'mismatch':>10}  blocks")
        for variant, report in sorted(t.reports.items()):
            if report.get("error"):
                lines.append(f"  {variant:<10}" + click.style("ERROR ", fg="red")
                             + report["error"])
                continue
            for case in report["results"]:
                outs = case["outputs"].values()
                worst = lambda k: max((o[k] for o in outs if isinstance(o.get(k), (int, float))),
                                      default=None)
                ratio = worst("mismatch_ratio")
                res = "pass" if case["passed"] else click.style("FAIL", fg="red", bold=True)
                blocks = case["run"]["block_dim"] if case.get("run") else "-"
                lines.append(f"  {variant:<10}{case['case']:<22}{res:<8}"
                             f"{_fmt(worst('max_abs_error')):>12}{_fmt(worst('max_rel_error')):>13}"
                             f"{(f'{ratio:.3%}' if ratio is not None else '-'):>10}  {blocks}")
                if not case["passed"]:
                    lines.extend("      " + l for l in case_failure(case, variant))
                if detail and case.get("log"):
                    lines.extend("      log: " + l for l in case["log"][:20])
    return "\n".join(lines)


def case_failure(case: dict, variant: str) -> list[str]:
    if case.get("error"):
        return case["error"].splitlines()
    out = []
    for name, o in case["outputs"].items():
        if o["passed"]:
            continue
        if o.get("error"):
            out.append(f"{name}: {o['error']}")
            continue
        fm = o["first_mismatch"]
        idx = ", ".join(str(i) for i in fm["index"]) if fm else "?"
        out.append(f"{name}[{idx}] = {fm['actual'] if fm else '?'}, expected "
                   f"{fm['expected'] if fm else '?'} ({o['mismatches']} of {o['elements']} "
                   f"elements off, {o['mismatch_ratio']:.3%} > allowed "
                   f"{o['error_ratio']:.3%}; rtol {o['rtol']}, atol {o['atol']})")
    return out


def remote_summary(remote: dict | None) -> str:
    """' (3 steps from the remote cache, 2 uploaded)' for the summary line; '' without one."""
    if not remote:
        return ""
    hits = remote["hits"]
    return (f" ({hits} step{'s' if hits != 1 else ''} from the remote cache, "
            f"{remote['uploads']} uploaded)")


def summary_line(result) -> str:
    n = len(result.targets)
    passed = sum(1 for t in result.targets if t.passed)
    text = (f"{n} target{'s' if n != 1 else ''}: {passed} verified, "
            f"{len(result.verification_failed)} failed verification, "
            f"{len(result.failures)} step{'s' if len(result.failures) != 1 else ''} failed; "
            f"{result.ran} steps ran, {result.cached} from cache"
            + remote_summary(getattr(result, "remote", None)) + f", {result.elapsed:.1f}s")
    return click.style(text, fg="green" if result.ok else "red")
