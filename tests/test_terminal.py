"""What a person at a terminal sees: `opkg build` run in a pseudo-terminal of a given size, its
output read back as the terminal received it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import stat
import struct
import subprocess
import sys
import termios
import time

import pytest

# escape sequences: CSI (colours, cursor moves, erase), OSC, and the lone ones rich writes
ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>78]")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def in_terminal(argv, cwd, columns, env, rows=24, timeout=900):
    """Run argv with stdin, stdout and stderr on a pseudo-terminal of columns x rows; returns
    the exit status and what it wrote, as (seconds since start, text) chunks."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    started, chunks = time.monotonic(), []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            assert ready, "no output for a long time: " + "".join(t for _, t in chunks)[-2000:]
            try:
                data = os.read(master, 65536)
            except OSError:          # EIO: the other side is closed, the command ended
                break
            if not data:
                break
            chunks.append((time.monotonic() - started, data.decode(errors="replace")))
    finally:
        proc.wait(timeout=60)
        os.close(master)
    return proc.returncode, chunks


def screen_lines(text: str) -> list[str]:
    """Every piece of text the terminal drew on one row: split at newlines and carriage returns
    and at cursor moves, escape sequences removed."""
    pieces = re.split(r"\r|\n|\x1b\[[0-9]*[ABCDGHJK]", text)
    return [ESCAPE.sub("", p) for p in pieces]


@pytest.fixture
def slow_cxx(tmp_path):
    """A g++ that takes two seconds longer per compile: a long compile the display must show
    with a moving clock."""
    wrapper = tmp_path / "bin" / "g++-slow"
    wrapper.parent.mkdir()
    wrapper.write_text('#!/bin/sh\ncase " $* " in *" -c "*) sleep 2;; esac\nexec g++ "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return wrapper


def environment(tmp_path, cxx, cache: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS")}
    env.update(TERM="xterm-256color", CXX=str(cxx), OPKG_CACHE_DIR=str(tmp_path / cache))
    env.update(extra)
    return env


@pytest.mark.parametrize("columns", [60, 120])
def test_live_display_in_a_terminal(workspace, tmp_path, slow_cxx, columns):
    workspace.copy_package("add_custom")
    argv = [sys.executable, "-m", "opkg", "build", "//...", "--soc", "Ascend910B1", "-j", "2"]
    code, chunks = in_terminal(argv, workspace.root, columns,
                               environment(tmp_path, slow_cxx, "cache"))
    text = "".join(t for _, t in chunks)
    assert code == 0, text[-3000:]
    lines = screen_lines(text)
    too_long = [l for l in lines if len(l) > columns]
    assert not too_long, too_long[:5]
    # total steps, percentage and an estimate of what is left
    figures = [re.search(r"(\d+)/(\d+) steps\s+(\d+)%", l) for l in lines]
    figures = [m for m in figures if m]
    assert figures, text[-3000:]
    total = int(figures[-1].group(2))
    assert total > 3 and all(int(m.group(2)) == total for m in figures)
    assert any("ETA" in l for l in lines)
    # a running step's own clock moves while it compiles (the wrapper takes 2 s a compile)
    clocks: dict[str, set] = {}
    for l in lines:
        m = re.match(r"\s+(compile .*?)\s+(\d+\.\d)s$", l)
        if m:
            clocks.setdefault(m.group(1), set()).add(m.group(2))
    assert any(len(v) >= 3 for v in clocks.values()), clocks
    # the display goes; the results and the summary stay, in the terminal's width
    tail = re.sub(r"\s+", " ", " ".join(lines[-12:]))     # wrapped lines joined again
    assert re.search(r"1 target: 1 verified, 0 failed verification, 0 steps failed; \d+ steps",
                     tail), lines[-12:]
    assert COLOUR.search(text)        # a terminal gets colour by default


def test_colour_choices_and_a_null_build_without_rich(workspace, tmp_path, add_custom_cache):
    """NO_COLOR and --color never take colour away on a terminal, --color always gives it to a
    pipe; a build with nothing to do never imports rich (start-up time)."""
    workspace.copy_package("add_custom")
    env = environment(tmp_path, "g++", "unused", OPKG_CACHE_DIR=str(add_custom_cache))
    argv = [sys.executable, "-m", "opkg", "build", "//...", "--soc", "Ascend910B1"]
    code, chunks = in_terminal(argv, workspace.root, 100, env)
    first = "".join(t for _, t in chunks)
    assert code == 0 and COLOUR.search(first), first[-2000:]
    code, chunks = in_terminal(argv, workspace.root, 100, {**env, "NO_COLOR": "1"})
    text = "".join(t for _, t in chunks)
    assert code == 0 and "1 verified" in text and not COLOUR.search(text), text
    code, chunks = in_terminal(argv + ["--color", "never"], workspace.root, 100, env)
    assert code == 0 and not COLOUR.search("".join(t for _, t in chunks))
    piped = subprocess.run(argv + ["--color", "always"], cwd=workspace.root, env=env,
                           capture_output=True, text=True)
    assert piped.returncode == 0 and COLOUR.search(piped.stdout)
    plain = subprocess.run(argv, cwd=workspace.root, env=env, capture_output=True, text=True)
    assert not COLOUR.search(plain.stdout + plain.stderr)
    code, chunks = in_terminal([sys.executable, "-X", "importtime", *argv[1:]], workspace.root,
                               100, env)
    imported = "".join(t for _, t in chunks)
    assert code == 0 and "opkg.cli" in imported
    assert not re.search(r"\|\s+rich\b", imported)
    code, chunks = in_terminal([sys.executable, "-X", "importtime", "-m", "opkg", "--help"],
                               workspace.root, 100, env)
    assert code == 0 and not re.search(r"\|\s+rich\b", "".join(t for _, t in chunks))
