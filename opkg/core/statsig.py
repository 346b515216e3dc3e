"""One definition of "unchanged" for opkg: a file's stat signature, and the racy rule.

A signature equal to the recorded one means unchanged, unless the file was written within the
clock's granularity of the recording (racy): then only its content can tell. Used by the
null-build fast path and the parsed-manifest cache."""

from __future__ import annotations

import os

# Racy window: coarse clocks tick every few ms on fine-grained filesystems; filesystems that store
# whole seconds (or FAT's two) show it as an mtime that is a multiple of one second.
FINE_WINDOW_NS = 50_000_000
COARSE_WINDOW_NS = 2_000_000_000


def stat_signature(st: os.stat_result) -> list[int]:
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode]


def is_racy(sig: list[int] | None, now_ns: int) -> bool:
    if sig is None:
        return False
    mtime, ctime = sig[0], sig[1]
    window = COARSE_WINDOW_NS if mtime % 1_000_000_000 == 0 else FINE_WINDOW_NS
    return max(mtime, ctime) >= now_ns - window
