"""Test helper: compiles a package's host and kernel sources with the sim flags, the way the
build pipeline does, and caches the libraries by content hash (sources, flags, headers)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from opkg.core.model import OpSpec, SocInfo, Variant
from opkg.sim import hostlink, codegen, flags

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
    kernel_text = kernel_src.read_text()
    if codegen.template_kernel(kernel_src, kernel_text, op.kernel_name):
        # as the sim toolchain does: a unit including the template kernel, then its entry
        namespace = codegen.tpl_decl_namespace(kernel_src, kernel_text, [pkg / "op_kernel", pkg])
        unit = codegen.tpl_kernel_source(str(kernel_src.resolve()), op, namespace)
        kernel_src = cache / f"tpl-{_hash(unit)}.cpp"
        cache.mkdir(parents=True, exist_ok=True)
        if not kernel_src.exists():
            tmp = kernel_src.with_name(f"{kernel_src.name}.{os.getpid()}")
            tmp.write_text(unit)
            os.replace(tmp, kernel_src)
    header = pkg / tiling_header if tiling_header else None
    content = [p.read_text() for p in sorted(pkg.rglob("*")) if p.is_file()]
    host_entry = codegen.host_entry_source(op, tiling_function)
    kernel_entry = codegen.kernel_entry_source(op)
    host_flags = flags.common_flags() + flags.host_flags(op) + [f"-I{pkg / 'op_host'}", f"-I{pkg}"]
    if header is not None:   # the tiling header as kernels read it, as the sim toolchain writes it
        text = flags.kernel_tiling_source(header, header.read_text(), cache)
        header = cache / f"tiling-{_hash(text)}.h"
        if not header.exists():   # whole or not at all: test workers share the cache
            cache.mkdir(parents=True, exist_ok=True)
            tmp = header.with_name(f"{header.name}.{os.getpid()}")
            tmp.write_text(text)
            os.replace(tmp, header)
    compiler = _compiler_version()
    texts = [p.read_text() for p in sorted(pkg.rglob("*")) if p.is_file() and p.suffix in (".h", ".cpp")]
    simt = flags.uses_simt(texts)
    pch = precompiled(soc, cache, compiler, simt)
    kernel_flags = (flags.common_flags()
                    + flags.kernel_flags(op, variant, soc, header, pch,
                                         flags.has_chevron_launch(kernel_src.read_text()), simt)
                    + flags.core_type_flags(texts)   # as the sim backend adds them
                    + [f"-I{pkg / 'op_kernel'}", f"-I{pkg}"])
    key_host = _hash(str(pkg), content, host_entry, host_flags, flags.header_digest(), compiler)
    key_kernel = _hash(str(pkg), content, kernel_entry, kernel_flags, flags.header_digest(), compiler)
    host_lib = cache / f"host-{key_host}" / "host.so"
    kernel_lib = cache / f"kernel-{key_kernel}" / "kernel.so"
    if host_lib.exists() and kernel_lib.exists():
        return Built(host_lib, kernel_lib, op, variant, soc)
    # Parallel test workers (pytest-xdist) may build the same key at once: each builds in its
    # own scratch directory and renames only finished files into place (same bytes either way).
    cache.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="build-", dir=cache))
    try:
        _build_into(scratch, host_lib, kernel_lib, host_src, kernel_src, host_entry,
                    kernel_entry, host_flags, kernel_flags, op, soc, cache, compiler,
                    flags.needs_cube_body(texts, soc))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return Built(host_lib, kernel_lib, op, variant, soc)


def precompiled(soc: SocInfo, cache: Path, compiler: str, simt: bool = False) -> Path:
    """The emulation headers precompiled for `soc`'s architecture (and the instrumented SIMT
    kernels' flags with `simt`), as the build pipeline makes them (flags.pch_flags), once per
    cache: the header to force-include, its .gch beside it."""
    pch_flags = flags.common_flags() + flags.pch_flags(soc, simt)
    pch_dir = cache / f"pch-{_hash(pch_flags, flags.header_digest(), compiler)}"
    header, gch = pch_dir / flags.PCH_HEADER, pch_dir / (flags.PCH_HEADER + ".gch")
    if gch.exists():
        return header
    pch_dir.mkdir(parents=True, exist_ok=True)
    # the same race-safe rename as the libraries: written in a scratch directory, then moved
    scratch = Path(tempfile.mkdtemp(prefix="pch-", dir=cache))
    try:
        (scratch / flags.PCH_HEADER).write_text(flags.pch_source())
        _run([[CXX, *pch_flags, "-c", str(scratch / flags.PCH_HEADER), "-o",
               str(scratch / (flags.PCH_HEADER + ".gch"))]])
        os.replace(scratch / flags.PCH_HEADER, header)
        os.replace(scratch / (flags.PCH_HEADER + ".gch"), gch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return header


def _build_into(scratch: Path, host_lib: Path, kernel_lib: Path, host_src, kernel_src,
                host_entry: str, kernel_entry: str, host_flags, kernel_flags, op, soc,
                cache: Path, compiler: str, cube: bool = False) -> None:
    compiles, links = [], []
    renames: list[tuple[Path, Path]] = []          # (finished file in scratch, its place)

    def shared_object(source: Path, obj_flags: list[str]) -> Path:
        """A runtime object the build pipeline compiles once and links into many libraries."""
        obj = cache / f"runtime-{_hash(str(source), obj_flags, flags.header_digest(), compiler)}" / "rt.o"
        if obj.exists():
            return obj
        built = scratch / f"rt-{len(renames)}.o"
        compiles.append([CXX, *obj_flags, "-c", str(source), "-o", str(built)])
        renames.append((built, obj))
        return built

    def library(kind: str, sources, entry: str, lib_flags, runtime, lib: Path) -> None:
        if lib.exists():
            return
        (scratch / f"{kind}_entry.cpp").write_text(entry)
        objs = [str(runtime())]
        for i, src in enumerate([*sources, scratch / f"{kind}_entry.cpp"]):
            obj = scratch / f"{kind}-{i}.o"
            compiles.append([CXX, *lib_flags, "-c", str(src), "-o", str(obj)])
            objs.append(str(obj))
        links.append([CXX, *flags.link_flags(), "-o", str(scratch / lib.name), *objs])
        renames.append((scratch / lib.name, lib))

    library("host", host_src, host_entry, host_flags, lambda: shared_object(
        flags.host_runtime_source(), flags.common_flags() + flags.host_flags(op)), host_lib)
    library("kernel", [kernel_src], kernel_entry, kernel_flags, lambda: shared_object(
        flags.runtime_source(), flags.common_flags() + flags.arch_flags(soc)), kernel_lib)
    cube = cube and not kernel_lib.exists()
    if cube:   # as the sim backend does: the cube core's compile, made linkable beside the vector one
        compiles.append([CXX, *kernel_flags, *flags.CUBE_BODY_FLAGS, "-c", str(kernel_src), "-o",
                         str(scratch / "kernel-cube.o")])
    _run(compiles)
    if cube:
        error = hostlink.cube_body(CXX, str(scratch / "kernel-cube.o"), str(scratch / "kernel-0.o"),
                                   links[-1][-3], op.kernel_name, str(scratch / "cube_body.o"))
        assert error is None, error
        links[-1].append(str(scratch / "cube_body.o"))
    _run(links)
    for built, place in renames:
        place.parent.mkdir(parents=True, exist_ok=True)
        os.replace(built, place)
