"""The live build display on a terminal, drawn with `rich`.

ui.Progress counts steps from engine events; this module only draws them: a bar with the steps
finished of the plan's total, the percentage, the time so far and an estimate of what is left,
then one line per running step with its own clock (they move while a long compile runs, the
display redraws four times a second). Everything is cut to the terminal's width, which rich
reads from the terminal itself. Imported only when a terminal shows a build: rich costs start-up
time that `--help` and a build with nothing to do should not pay.
"""

from __future__ import annotations

import time

from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text


def _console(stream, color: bool) -> Console:
    return Console(file=stream, force_terminal=True, no_color=not color,
                   color_system="auto" if color else None, highlight=False, emoji=False)


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else \
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class LiveDisplay:
    def __init__(self, progress, stream, color: bool):
        self.progress = progress
        self.console = _console(stream, color)
        # transient: the display is gone when the build ends; the results and the summary
        # line that follow are what stays on screen
        self.live = Live(console=self.console, get_renderable=self.render,
                         refresh_per_second=4, transient=True, redirect_stdout=False,
                         redirect_stderr=False)
        self.live.start()

    def print(self, text: str) -> None:
        """A line above the display (a failure, a warning, a note), wrapped to the width."""
        self.console.print(Text.from_ansi(text))

    def stop(self) -> None:
        self.live.stop()

    def render(self):
        p = self.progress
        now = time.monotonic()
        elapsed = now - p.started
        total = max(p.steps or 0, p.finished)
        done = p.finished
        head = Table.grid(expand=True, padding=(0, 1))
        head.add_column(ratio=1)               # the bar takes what the text leaves
        head.add_column(no_wrap=True, justify="right")
        figures = f"{done}/{total} steps {done * 100 // total if total else 0:>3}%  " \
                  f"{_clock(elapsed)}"
        if 0 < done < total:
            # from the pace so far; steps found up to date or restored cost almost nothing,
            # so the estimate starts with the first step that ran
            worked = p.ran + p.failed
            if worked:
                figures += f"  ETA {_clock(elapsed / done * (total - done))}"
        # rich's default bar colour while running is a pinkish red: read as failure on a build
        # that is going well. Red only once a step has failed.
        colour = "red" if p.failed else "cyan"
        head.add_row(ProgressBar(total=total or None, completed=done, complete_style=colour,
                                 finished_style="red" if p.failed else "green",
                                 pulse_style=colour), figures)
        parts = [head]
        counts = [f"{p.ran} ran", f"{p.cached} cached", f"{p.uptodate} up to date"]
        if p.failed:
            counts.append(f"[red]{p.failed} failed[/red]")
        counts.append(f"{len(p.running)} running")
        line = Text.from_markup(", ".join(counts), overflow="ellipsis")
        line.no_wrap = True
        parts.append(line)
        steps = Table.grid(expand=True, padding=(0, 1))
        steps.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        steps.add_column(no_wrap=True, justify="right")
        room = max(1, self.console.height - 3)
        running = sorted(p.running.items(), key=lambda kv: kv[1])
        for description, started in running[:room]:
            steps.add_row(Text("  " + description, overflow="ellipsis", no_wrap=True),
                          f"{now - started:5.1f}s")
        if len(running) > room:
            steps.add_row(f"  ... and {len(running) - room} more", "")
        parts.append(steps)
        return Group(*parts)

