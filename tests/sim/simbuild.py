"""Test helper: compiles a package's host and kernel sources with the sim flags, the way the
build pipeline does, and caches the libraries by content hash (sources, flags, headers)."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from opkg.model import OpSpec, SocInfo, Variant
from opkg.sim import codegen, flags

CXX = os.environ.get("CXX", "g++")


class CompileError(Exception):
    pass


@dataclass(frozen=True)
class Built:
    host: Path
    kernel: Path
    op: OpSpec
    variant: Variant
    soc: SocInfo


def _run(cmds: list[list[str]]) -> None:
    """Runs compile commands two at a time (the CI box has 2 cores)."""
    procs = []
    for cmd in cmds:
        procs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
        if len(procs) >= 2:
            _wait(procs.pop(0))
    for p in procs:
        _wait(p)


def _wait(item) -> None:
    cmd, proc = item
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise CompileError(f"{' '.join(cmd)}\n{out}")


@lru_cache(maxsize=1)
def _compiler_version() -> str:
    return subprocess.run([CXX, "--version"], capture_output=True, text=True).stdout


def _hash(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(repr(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


def line_of(path: Path, marker: str) -> int:
    """The line of a test kernel marked `// @marker`: where a diagnostic must point."""
    for i, text in enumerate(Path(path).read_text().splitlines(), 1):
        if re.search(rf"// @{re.escape(marker)}(\s|$)", text):
            return i
    raise AssertionError(f"no '// @{marker}' in {path}")


def build(pkg: Path, op: OpSpec, variant: Variant, soc: SocInfo, cache: Path, *,
          stem: str | None = None, tiling_sources: list[str] | None = None,
          tiling_header: str | None = None, kernel_source: str | None = None,
          tiling_function: str | None = None) -> Built:
    """`stem` names the test packages' layout: op_host/<stem>.cpp, op_host/<stem>_tiling.h,
    op_kernel/<stem>.cpp; the keyword arguments override it."""
    pkg = Path(pkg)
    if stem:
        tiling_sources = tiling_sources or [f"op_host/{stem}.cpp"]
        tiling_header = tiling_header or f"op_host/{stem}_tiling.h"
        kernel_source = kernel_source or f"op_kernel/{stem}.cpp"
    host_src = [pkg / s for s in tiling_sources]
    kernel_src = pkg / kernel_source
    header = pkg / tiling_header if tiling_header else None
    content = [p.read_text() for p in sorted(pkg.rglob("*")) if p.is_file()]
    host_entry = codegen.host_entry_source(op, tiling_function)
    kernel_entry = codegen.kernel_entry_source(op)
    host_flags = flags.common_flags() + flags.host_flags(op) + [f"-I{pkg / 'op_host'}", f"-I{pkg}"]
    kernel_flags = (flags.common_flags() + flags.kernel_flags(op, variant, soc, header)
                    + [f"-I{pkg / 'op_kernel'}", f"-I{pkg}"])
    compiler = _compiler_version()
    key_host = _hash(str(pkg), content, host_entry, host_flags, flags.header_digest(), compiler)
    key_kernel = _hash(str(pkg), content, kernel_entry, kernel_flags, flags.header_digest(), compiler)
    host_dir, kernel_dir = cache / f"host-{key_host}", cache / f"kernel-{key_kernel}"
    host_lib, kernel_lib = host_dir / "host.so", kernel_dir / "kernel.so"
    compiles, links = [], []
    renames: list[Path] = []

    def shared_object(source: Path, obj_flags: list[str]) -> Path:
        """A runtime object the build pipeline compiles once and links into many libraries."""
        obj = cache / f"runtime-{_hash(str(source), obj_flags, flags.header_digest(), compiler)}" / "rt.o"
        if not obj.exists():
            obj.parent.mkdir(parents=True, exist_ok=True)
            compiles.append([CXX, *obj_flags, "-c", str(source), "-o", str(obj) + ".tmp"])
            renames.append(obj)
        return obj

    if not host_lib.exists():
        host_dir.mkdir(parents=True, exist_ok=True)
        (host_dir / "host_entry.cpp").write_text(host_entry)
        objs = [str(shared_object(flags.host_runtime_source(), flags.common_flags() + flags.host_flags(op)))]
        for i, src in enumerate(host_src + [host_dir / "host_entry.cpp"]):
            obj = host_dir / f"{i}.o"
            compiles.append([CXX, *host_flags, "-c", str(src), "-o", str(obj)])
            objs.append(str(obj))
        links.append([CXX, *flags.link_flags(), "-o", str(host_lib) + ".tmp", *objs])
    if not kernel_lib.exists():
        kernel_dir.mkdir(parents=True, exist_ok=True)
        (kernel_dir / "kernel_entry.cpp").write_text(kernel_entry)
        objs = [str(shared_object(flags.runtime_source(), flags.common_flags() + flags.arch_flags(soc)))]
        for i, src in enumerate([kernel_src, kernel_dir / "kernel_entry.cpp"]):
            obj = kernel_dir / f"{i}.o"
            compiles.append([CXX, *kernel_flags, "-c", str(src), "-o", str(obj)])
            objs.append(str(obj))
        links.append([CXX, *flags.link_flags(), "-o", str(kernel_lib) + ".tmp", *objs])
    _run(compiles)
    for obj in renames:
        Path(str(obj) + ".tmp").replace(obj)
    _run(links)
    for lib in (host_lib, kernel_lib):
        tmp = Path(str(lib) + ".tmp")
        if tmp.exists():
            tmp.replace(lib)
    return Built(host_lib, kernel_lib, op, variant, soc)
