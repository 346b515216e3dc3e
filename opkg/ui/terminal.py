"""What people see: build progress, failures and verification tables.

Progress goes to stderr (a live display on a terminal, plain lines otherwise), results to
stdout, so `--json` output stays machine-readable. Nothing here decides anything. What needs
`rich` lives in ui_live, imported only when a terminal shows it.
"""

from __future__ import annotations

import os
import re
import sys
import time

import click


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return f"{x:.2e}" if x else "0"


def use_color(choice: str | None, stream) -> bool:
    """--color always|never|auto; auto: colour on a terminal unless NO_COLOR is set."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    return not os.environ.get("NO_COLOR") and stream.isatty()


class Progress:
    """Turns engine events into a live display (a terminal) or one line per finished step.

    On a terminal the display (ui_live.LiveDisplay, on `rich`) starts with the first step, so
    a build with nothing to do (and `--help`) never imports rich."""

    def __init__(self, root, stream=None, quiet=False, color: bool | None = None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.color = use_color(None, self.stream) if color is None else color
        self.root = str(root)
        self.quiet = quiet
        self.started = time.monotonic()
        self.ran = self.cached = self.failed = self.uptodate = 0
        self.steps: int | None = None          # the plan's step count, once SCons runs
        self.running: dict[str, float] = {}    # description -> when it started
        self.notes: dict[str, int] = {}
        self.live = None

    @property
    def finished(self) -> int:
        return self.ran + self.cached + self.failed + self.uptodate

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
        if kind == "plan":
            self.steps = event["steps"]
            if self.tty and not self.quiet and self.live is None:
                from opkg.ui.live import LiveDisplay

                self.live = LiveDisplay(self, self.stream, self.color)
        elif kind == "uptodate":
            self.uptodate += 1
        elif kind == "start":
            self.running[event["description"]] = time.monotonic()
        elif kind in ("done", "fail"):
            self.running.pop(event["description"], None)
            if kind == "done":
                self.ran += 1
                if not self.tty and not self.quiet:
                    self.line(f"  done  {event['description']} ({event['elapsed']:.2f}s)")
            else:
                self.failed += 1
                self.line(self.failure(event))
        elif kind == "cached":
            self.cached += 1

    def failure(self, event: dict) -> str:
        output = event["output"].replace(self.root + "/", "")
        body = "\n".join("    " + l for l in output.splitlines()[:60])
        return click.style(f"FAILED {event['description']}  [{event['target']}]", fg="red",
                           bold=True) + ("\n" + body if body else "")

    def line(self, text: str) -> None:
        """Print a line of its own (above the live display on a terminal)."""
        if self.live is not None:
            self.live.print(text)
        else:
            echo(text, self.color, self.stream)

    def finish(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


def _width(stream) -> int:
    """The width of the terminal `stream` writes to."""
    import shutil

    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size().columns


def echo(text: str, color: bool | None = None, stream=None) -> None:
    """A line on stdout (or `stream`). On a terminal a line wider than it is wrapped at word
    boundaries to its width, instead of the terminal cutting it mid-word; otherwise written
    as it is. (No rich here: a build with nothing to do prints long notes too.)"""
    out = stream or sys.stdout
    if out.isatty():
        width = _width(out)
        text = "\n".join(w for line in text.split("\n") for w in _wrap(line, width))
    click.echo(text, file=out, color=color)


_LEADING_STYLE = re.compile(r"^((?:\x1b\[[0-9;]*m)+)")


def _wrap(line: str, width: int) -> list[str]:
    """`line` cut at spaces into pieces of at most `width` columns; a line coloured as a whole
    (click.style) keeps its colour on each piece, colours inside a wrapped line are dropped."""
    import textwrap

    plain = click.unstyle(line)
    if len(plain) <= width:
        return [line]
    style = _LEADING_STYLE.match(line)
    prefix, suffix = (style.group(1), "\x1b[0m") if style else ("", "")
    indent = plain[:len(plain) - len(plain.lstrip())]
    pieces = textwrap.wrap(plain, width, subsequent_indent=indent, break_on_hyphens=False) \
        or [plain[:width]]
    return [prefix + p + suffix for p in pieces]


def target_status(t) -> str:
    """PASS only when every declared variant verified and passed."""
    if t.passed:
        return "PASS"
    if any(not r.get("passed") and not r.get("untested") for r in t.reports.values()):
        return "FAIL"
    if any(r.get("untested") for r in t.reports.values()):
        return "UNTESTED"
    return "NOT RUN" if t.reports or getattr(t, "not_run", None) else "NOT VERIFIED"


_RESULT = {"pass": ("pass", None), "fail": ("FAIL", "red"), "xfail": ("xfail", "yellow"),
           "xpass": ("XPASS", "red"), "refused": ("refused", "yellow")}


def case_result(case: dict) -> str:
    """pass, FAIL, xfail (failed as the manifest expects), XPASS (strict: passed though
    marked xfail), refused (the operator's tiling refused a case it may refuse)."""
    outcome = case.get("outcome") or ("pass" if case["passed"] else "fail")
    return _RESULT.get(outcome, (outcome, None))[0]


def tolerance_text(case: dict) -> str:
    """The tolerance a case was judged by: 'rtol/atol' (and the share of elements allowed
    outside it when not 0); several outputs with different ones: the loosest of each."""
    outs = [o for o in case.get("outputs", {}).values() if o.get("rtol") is not None]
    if not outs:
        return "-"
    rtol = max(o["rtol"] for o in outs)
    atol = max(o["atol"] for o in outs)
    ratio = max(o.get("error_ratio") or 0 for o in outs)
    return f"{rtol:g}/{atol:g}" + (f" <={ratio:.2%}" if ratio else "")


def host_lines(case: dict, everything: bool = False, limit: int = 20) -> list[str]:
    """What the operator's host functions (tiling, InferShape) printed for a case, and how
    they returned: a failed call always, the others with -v; nothing for a silent success."""
    lines = []
    for step, rec in (case.get("host") or {}).items():
        failed = rec.get("status") == "failed"
        printed = [(name, l) for name in ("stdout", "stderr")
                   for l in (rec.get(name) or "").rstrip().splitlines()]
        if not (failed or everything) or (not printed and not failed):
            continue
        lines.append(f"{step}: " + ("returned failure" if failed else "returned success")
                     + (f", printed:" if printed else ", printed nothing"))
        for name, l in printed[:limit]:
            lines.append(f"  {name}| {l}")
        if len(printed) > limit:
            lines.append(f"  ... {len(printed) - limit} more lines (--json has them all)")
    return lines


def verification_table(result, detail: bool = False, verbose: bool = False) -> str:
    """One block per target, failures first; every declared variant has a row (NOT RUN with
    why when it was not verified); failing cases get their first wrong element and what the
    host code printed."""
    lines = []
    order = sorted(result.targets, key=lambda t: target_status(t) == "PASS")
    for t in order:
        status = target_status(t)
        colour = "green" if status == "PASS" else "red"
        lines.append(click.style(f"{t.package}  {t.soc}  {t.toolchain}  {status}", fg=colour,
                                 bold=True))
        not_run = getattr(t, "not_run", None) or {}
        if not t.reports and not not_run:
            continue
        # columns as wide as the longest name (a long case or variant name kept them apart)
        names = [c["case"] for r in t.reports.values() for c in r.get("results", [])]
        cw = max([20] + [len(n) for n in names]) + 2
        vw = max([8] + [len(v) for v in [*t.reports, *not_run]]) + 2
        lines.append(f"  {'variant':<{vw}}{'case':<{cw}}{'result':<8}{'max abs err':>12}"
                     f"{'max rel err':>13}{'mismatch':>10}  {'rtol/atol':<12}blocks")
        for variant in sorted({*t.reports, *not_run}):
            if variant in not_run:
                lines.append(f"  {variant:<{vw}}" + click.style("NOT RUN ", fg="red")
                             + not_run[variant])
                continue
            report = t.reports[variant]
            if report.get("untested"):
                lines.append(f"  {variant:<{vw}}" + click.style("UNTESTED ", fg="yellow")
                             + report["untested"])
                continue
            if report.get("error"):
                lines.append(f"  {variant:<{vw}}" + click.style("ERROR ", fg="red")
                             + report["error"])
                continue
            for case in report["results"]:
                outs = case["outputs"].values()
                worst = lambda k: max((o[k] for o in outs if isinstance(o.get(k), (int, float))),
                                      default=None)
                ratio = worst("mismatch_ratio")
                word = case_result(case)
                colour_of = {w: c for w, c in _RESULT.values()}
                # padded before it is coloured: colour codes have no width on screen
                res = f"{word:<8}" if colour_of.get(word) is None else \
                    click.style(f"{word:<8}", fg=colour_of[word],
                                bold=word not in ("xfail", "refused"))
                blocks = case["run"]["block_dim"] if case.get("run") else "-"
                lines.append(f"  {variant:<{vw}}{case['case']:<{cw}}{res}"
                             f"{_fmt(worst('max_abs_error')):>12}{_fmt(worst('max_rel_error')):>13}"
                             f"{(f'{ratio:.3%}' if ratio is not None else '-'):>10}  "
                             f"{tolerance_text(case):<12}{blocks}")
                if not case["passed"]:
                    lines.extend("      " + l for l in case_failure(case, variant))
                elif case.get("outcome") == "xfail":
                    lines.append(f"      xfail: {case.get('xfail')}")
                elif case.get("outcome") == "refused":
                    lines.append(f"      refused: {case.get('refused')}")
                lines.extend("      " + l for l in host_lines(case, verbose or not case["passed"]))
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


def exec_summary(executed: dict | None) -> str:
    """' (12 on 2 remote workers)' when the build ran steps by remote execution."""
    if not executed:
        return ""
    n = sum(executed.values())
    return f" ({n} on {len(executed)} remote worker{'s' if len(executed) != 1 else ''})"


def summary_line(result) -> str:
    n = len(result.targets)
    passed = sum(1 for t in result.targets if t.passed)
    text = (f"{n} target{'s' if n != 1 else ''}: {passed} verified, "
            f"{len(result.verification_failed)} failed verification, "
            f"{len(result.failures)} step{'s' if len(result.failures) != 1 else ''} failed; "
            f"{result.ran} steps ran" + exec_summary(getattr(result, "executed", None))
            + f", {result.cached} from cache" + remote_summary(getattr(result, "remote", None)) + f", {result.elapsed:.1f}s")
    broken = len({str(e.location.path) if e.location else e.message
                  for e in getattr(result, "problems", ())})
    if broken:
        text += f"; {broken} manifest{'s' if broken != 1 else ''} with errors not built"
    return click.style(text, fg="green" if result.ok else "red")
