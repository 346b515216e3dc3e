"""GM buffers for one kernel launch, laid out as the device allocator hands them out.

`aclrtMalloc` rounds every buffer up to 32 bytes and adds 32 more, so a kernel's rounded-up tail
read stays inside the allocation on the device and returns garbage. Here each buffer gets that
padding, filled with `POISON` (the kernel runtime tracks it as undefined), and ends where its
last page ends, with `abi.GM_GUARD` inaccessible bytes after it (and before the first one): a raw
store or load far past a buffer faults at once and is reported with the buffer's name. The few
bytes between a buffer's first page and its start hold `abi.GM_CANARY`, checked after the run.

One anonymous mapping per layout (`arena`): one mmap and one mprotect per buffer, kept for the
next launch with the same buffer sizes (the verifier runs a case after another), so that its
pages are not faulted in anew each time.
"""

from __future__ import annotations

import ctypes as C
import mmap

import numpy as np

from opkg.sim import abi

POISON = 0xFF          # what allocator padding reads as (a NaN for every float type)
_PAGE = mmap.PAGESIZE
_PROT_NONE, _PROT_RW = 0, mmap.PROT_READ | mmap.PROT_WRITE
_MAP_FAILED = C.c_void_p(-1).value

_libc = C.CDLL(None, use_errno=True)
_libc.mmap.restype = C.c_void_p
_libc.mmap.argtypes = [C.c_void_p, C.c_size_t, C.c_int, C.c_int, C.c_int, C.c_long]
_libc.mprotect.restype = C.c_int
_libc.mprotect.argtypes = [C.c_void_p, C.c_size_t, C.c_int]
_libc.munmap.restype = C.c_int
_libc.munmap.argtypes = [C.c_void_p, C.c_size_t]
_libc.madvise.restype = C.c_int
_libc.madvise.argtypes = [C.c_void_p, C.c_size_t, C.c_int]
# Buffers of 2 MB or more start on a 2 MB boundary of a mapping advised for transparent huge
# pages: a kernel gathering from a large table otherwise misses the TLB on most loads (NumPy
# advises its large arrays the same way). Without THP the advice is a no-op.
_HUGE = 2 << 20
_MADV_HUGEPAGE = 14


def allocation(nbytes: int) -> int:
    """The bytes the device allocator reserves for a buffer of `nbytes`."""
    return (nbytes + 31) // 32 * 32 + 32


class GmArena:
    """Guarded GM buffers of the given sizes (0: no buffer). `view(i)` is buffer i's allocation as
    uint8 (tensor, then padding); `address(i)`, `canary(i)`; `close()` unmaps everything."""

    def __init__(self, sizes: list[int]):
        self.sizes = list(sizes)
        self._spans, self._starts = [], []
        offset = abi.GM_GUARD
        for n in self.sizes:
            pages = -(-allocation(n) // _PAGE) * _PAGE if n else 0
            if pages >= _HUGE:
                offset = -(-offset // _HUGE) * _HUGE
            self._spans.append((offset, pages))
            self._starts.append(offset + pages - allocation(n) if n else 0)
            offset += pages + (abi.GM_GUARD if n else 0)
        huge = any(p >= _HUGE for _, p in self._spans)
        self._length = offset + (_HUGE if huge else 0)
        self._mapped = _libc.mmap(None, self._length, _PROT_NONE,
                                  mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
        if self._mapped in (None, _MAP_FAILED):
            self._mapped = 0
            raise MemoryError(f"cannot map {self._length} bytes of GM buffers "
                              f"(errno {C.get_errno()})")
        self._base = -(-self._mapped // _HUGE) * _HUGE if huge else self._mapped
        if huge:
            _libc.madvise(self._base, offset, _MADV_HUGEPAGE)
        try:
            for n, (offset, pages) in zip(self.sizes, self._spans):
                if n and _libc.mprotect(self._base + offset, pages, _PROT_RW) != 0:
                    raise MemoryError(f"mprotect failed (errno {C.get_errno()})")
        except BaseException:
            self.close()
            raise
        self._shadows: dict[int, np.ndarray] = {}
        self._pages: list[tuple[np.ndarray, int] | None] = []
        self._views: list[np.ndarray | None] = []
        for i, n in enumerate(self.sizes):
            if not n:
                self._pages.append(None)
                self._views.append(None)
                continue
            offset, pages = self._spans[i]
            page = np.ctypeslib.as_array((C.c_uint8 * pages).from_address(self._base + offset))
            start = self._starts[i] - offset
            self._pages.append((page, start))
            self._views.append(page[start:])
        self.poison()

    def poison(self) -> None:
        """Canaries before each buffer, garbage in its padding (a launch may have changed both)."""
        for n, item in zip(self.sizes, self._pages):
            if item is not None:
                page, start = item
                page[:start] = abi.GM_CANARY
                page[start + n:] = POISON

    def view(self, i: int) -> np.ndarray | None:
        return self._views[i]

    def shadow(self, i: int) -> np.ndarray:
        """A zeroed byte per byte of buffer i's allocation, for the kernel runtime to mark what
        stores wrote (kept with the mapping, so that its pages stay faulted in too)."""
        got = self._shadows.get(i)
        if got is None:
            got = self._shadows[i] = np.zeros(allocation(self.sizes[i]), dtype=np.uint8)
        else:
            got.fill(0)
        return got

    def address(self, i: int) -> int:
        return self._base + self._starts[i] if self.sizes[i] else 0

    def canary(self, i: int) -> int:
        return self._starts[i] - self._spans[i][0] if self.sizes[i] else 0

    def close(self) -> None:
        if self._mapped:
            self._views = []
            _libc.munmap(self._mapped, self._length)
            self._mapped = self._base = 0



_cached: GmArena | None = None


def arena(sizes: list[int]) -> GmArena:
    """Guarded buffers of these sizes: the previous launch's mapping when the sizes are the same
    (re-poisoned; the buffers' contents are whatever the last launch left, as on a device)."""
    global _cached
    if _cached is not None and _cached.sizes == list(sizes):
        _cached.poison()
        return _cached
    if _cached is not None:
        _cached.close()
    _cached = None
    _cached = GmArena(sizes)
    return _cached
