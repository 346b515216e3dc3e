"""Values that stay the same for one planning pass, computed once in it.

Planning asks some questions once per target (the digest of opkg's own runtime code: three
times per target) whose answers cannot change while a plan is made; between plans they can
(the build server plans many times in one process), so nothing is kept past the pass.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Callable, TypeVar

T = TypeVar("T")
_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("opkg_planning_memo",
                                                                    default=None)


@contextlib.contextmanager
def planning_pass():
    """Within this block, `once` computes each key's value once."""
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def once(key, compute: Callable[[], T]) -> T:
    """compute(), remembered under `key` for the current planning pass (outside one: every
    call computes)."""
    memo = _MEMO.get()
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]
