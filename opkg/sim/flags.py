"""Compiler and linker flags of the sim toolchain.

The build pipeline compiles a package's host sources with `common_flags() + host_flags(op)` into
one SoC-independent host library, and its kernel once per (SoC, dtype variant) with
`common_flags() + kernel_flags(...)` into a kernel library, linked with the block runner
(`runtime_source()`, compiled once per SoC architecture with `arch_flags(soc)`); host libraries
link `host_runtime_source()` compiled once. All link with `link_flags()`.
The flags point g++ at the emulation headers in `include/` (package data) and select the
kernel-mode tiling structs. `header_digest()` belongs in the toolchain identity so a header
change rebuilds everything.
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
from functools import lru_cache
from pathlib import Path

from opkg.core.model import DTYPES, OpSpec, SocInfo, Variant
from opkg.util.memo import once

_INCLUDE = Path(__file__).resolve().parent / "include"
_SRC = Path(__file__).resolve().parent / "src"

# __CCE_AICORE__ by build family, as bisheng defines it for the vector core.
_AICORE = {"c220": 220, "m200": 200, "m300": 300, "c100": 100, "c310": 310}


def include_dir() -> Path:
    return _INCLUDE


@lru_cache(maxsize=4)
def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def sources_digest(include: Path, runtime: Path) -> str:
    return hashlib.sha256((_digest(include) + _digest(runtime)).encode()).hexdigest()


def header_digest() -> str:
    """sha256 over every emulation header and the runtime source (path and content)."""
    return sources_digest(_INCLUDE, _SRC)


def runtime_source() -> Path:
    """The block runner every kernel library links, compiled once per toolchain and SoC
    architecture with `common_flags() + arch_flags(soc)`."""
    return _SRC / "kernel_runtime.cpp"


def host_runtime_source() -> Path:
    """The host machinery (gert contexts, registries) every host library links, compiled once
    per toolchain with `common_flags() + host_flags(op)`."""
    return _SRC / "host_runtime.cpp"


@lru_cache(maxsize=1)
def _isa_flags() -> tuple[str, ...]:
    """Hardware fp16 conversions where this CPU has them: fp16 kernels run several times faster,
    with the same round-to-nearest-even results as the software conversions."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return ("-mf16c",) if "f16c" in line.split() else ()
    except OSError:
        pass
    return ()


def common_flags() -> list[str]:
    return [
        "-std=c++17",
        "-O2",
        "-fPIC",
        # Kernels reinterpret GM bytes freely; IEEE results must not depend on the optimiser.
        "-fno-strict-aliasing",
        "-ffp-contract=off",
        "-fno-fast-math",
        # Each library keeps its own registries and block state even when several are loaded
        # into one process: g++ would otherwise bind inline-function statics process-wide
        # (STB_GNU_UNIQUE ignores RTLD_LOCAL). Only the entry points are exported.
        "-fvisibility=hidden",
        "-fvisibility-inlines-hidden",
        "-fno-gnu-unique",
        *_isa_flags(),
        f"-I{_INCLUDE}",
        # CANN toolkit headers some repositories ship copies of (the AOE tuning registries):
        # searched last, so a repository's own copy wins; kernels too, whose build reads tiling
        # data headers that include them (cann-ops' mat_mul_v3_base_tiling.h)
        f"-idirafter{_INCLUDE / 'opkg_sim' / 'host' / 'fallback'}",
    ]


def host_flags(op: OpSpec) -> list[str]:
    return ["-DOPKG_SIM_HOST=1"]


def arch_flags(soc: SocInfo) -> list[str]:
    """What every kernel translation unit for `soc`'s architecture is compiled with."""
    flags = [
        "-DOPKG_SIM_KERNEL=1",
        # ASCENDC_CPU_DEBUG drops `<<<>>>` launchers guarded by it; __CCE_KT_TEST__ is not here
        # (kernel_flags, `launcher`): the device build never defines it.
        "-DASCENDC_CPU_DEBUG=1",
        f"-D__NPU_ARCH__={soc.npu_arch}",
    ]
    if soc.family in _AICORE:
        flags.append(f"-D__CCE_AICORE__={_AICORE[soc.family]}")
    if soc.family == "c220":
        flags.append("-D__DAV_C220_VEC__=1")
    # ge::DataType values as macros, so `#if ORIG_DTYPE_X == DT_FLOAT16` works as in CANN builds.
    for d in sorted(DTYPES.values(), key=lambda d: d.ge_value):
        flags.append(f"-D{d.ge}={d.ge_value}")
    return flags


def runtime_name(soc: SocInfo) -> str:
    """One runtime object per distinct `arch_flags`: the architecture's name in file names."""
    return f"{soc.family}-{soc.npu_arch}"


# Kernel translation units (and the precompiled headers they read, which must match) are
# optimised at -Og, everything else at -O2: a kernel object is the package's control flow around
# API calls, and its compile was dominated by optimising what the API templates inline into it
# (LayerNorm's float32 kernel: 0.74 s CPU at -Og against 1.30 s at -O2). The definedness shadow,
# the checks, the queues and the cube's matrix products are in the block runner, compiled at -O2,
# so the sim runs about as fast (docs/performance.md); results are the same to the bit (SSE
# arithmetic, -ffp-contract=off, no fast-math: the optimiser never changes an IEEE result here).
# The last -O on the command line wins.
KERNEL_OPT = "-Og"


# The precompiled emulation headers: a kernel translation unit force-includes PCH_HEADER (a
# one-line header naming kernel_operator.h) first; g++ takes PCH_HEADER + ".gch" beside it
# instead whenever it was compiled with the same compiler and flags, and reads the header
# itself otherwise, so an object is byte-identical with or without it.
PCH_HEADER = "opkg_sim_pch.h"


def pch_enabled() -> bool:
    """OPKG_SIM_PCH=0 builds without the precompiled headers (same objects, every kernel parses
    the headers): for measuring, and for test runs whose every build starts from an empty cache,
    where the one-off precompile costs more than the few kernels it serves save."""
    import os

    return os.environ.get("OPKG_SIM_PCH", "1").strip().lower() not in ("0", "off", "no", "false")


def pch_source() -> str:
    return '#include "kernel_operator.h"\n'


def pch_flags(soc: SocInfo, simt: bool = False) -> list[str]:
    """What PCH_HEADER is compiled with after `common_flags()` (then `-c <header> -o
    <header>.gch`): every flag of a kernel TU that the headers can see, and nothing per op or
    per variant (kernel_flags' -D macros are tested only after the headers, in
    opkg_sim/runtime/kernel_tu.h). `simt`: the instrumented kernels' set (SIMT_FLAGS), a .gch
    of its own, since g++ takes a .gch only where the sanitizer and debug flags match."""
    return arch_flags(soc) + [KERNEL_OPT, "-x", "c++-header"] + (list(SIMT_FLAGS) if simt else [])


def pch_dir_name(soc: SocInfo, simt: bool = False) -> str:
    """The directory (under out/sim/.pch) of the precompiled headers of a flag set."""
    return runtime_name(soc) + ("-simt" if simt else "")


_LAUNCH = re.compile(r"<<<.*?>>>", re.S)
_SIMT = re.compile(r'#\s*include\s*[<"]simt_api/')


def uses_simt(texts) -> bool:
    """Whether any of the kernel's sources (texts) includes asc-devkit's SIMT API (`simt_api/...`)."""
    return any(_SIMT.search(t) for t in texts)


# clang's `typedef T name __attribute__((ext_vector_type(N)))` (ops-nn's SIMT kernels: int4 of
# int32_t) is an N-lane vector of T; g++ ignores that attribute and makes `name` a plain T. GCC's
# own vector_size(bytes) gives the same type when the macro knows T's width, so the kernel's
# typedefs are read first and the macro is defined for their one element width.
_EXT_VECTOR = re.compile(r"\btypedef\s+([\w:\s]+?)\s+\w+\s+__attribute__\s*\(\(\s*ext_vector_type\s*\(")
_WIDTHS = {"int8_t": 1, "uint8_t": 1, "char": 1, "int16_t": 2, "uint16_t": 2, "half": 2, "short": 2,
           "int32_t": 4, "uint32_t": 4, "int": 4, "unsigned": 4, "unsigned int": 4, "float": 4,
           "int64_t": 8, "uint64_t": 8, "double": 8}


def ext_vector_flags(texts) -> list[str]:
    """-D flags that make clang's ext_vector_type(N) a GCC vector_size attribute of the right width
    for the kernel's sources (texts); ValueError naming the element types when they differ in
    width or are unknown (the sim then cannot give every typedef its lanes)."""
    elems = {" ".join(m.group(1).split()) for t in texts for m in _EXT_VECTOR.finditer(t)}
    if not elems:
        return []
    widths = {_WIDTHS.get(e.removeprefix("std::")) for e in elems}
    if None in widths or len(widths) > 1:
        raise ValueError(f"ext_vector_type over {', '.join(sorted(elems))}: the sim emulates clang's "
                         "ext_vector_type with GCC's vector_size for one known element width per kernel")
    return [f"-Dext_vector_type(n)=vector_size((n) * {widths.pop()})"]


# What makes a kernel's code depend on the core it runs on: a cube or mixed task type declared for
# a key (classic or template kernels), or a sync between the cube and vector cores of an AI core.
_CORE_TYPED = re.compile(r"KERNEL_TYPE_AIC_ONLY|KERNEL_TYPE_MIX_AIC_1_[012]|ASCENDC_TPL_AIC_ONLY|"
                         r"ASCENDC_TPL_MIX_AIC_1_[012]|\bNotifyEvent\b|\bWaitEvent\b|"
                         r"CrossCoreSetFlag\s*<\s*[12]\b|__DAV_C220_CUBE__")
_CORE_TEST = re.compile(r"\bASCEND_IS_(?:NOT_)?AI[CV]\b|\bg_coreType\b")
_CUBE_MACRO = re.compile(r"\b__DAV_C220_CUBE__\b")

# The cube core's compile of an A2/A3 kernel: bisheng builds a mixed kernel once per core type,
# dav-c220-vec with __DAV_C220_VEC__ and dav-c220-cube with __DAV_C220_CUBE__ (CANN 8.1.RC1's
# op compiler, tbe/tikcpp/ascendc_compile_v220.py); the sim's kernel TU is the vector one.
CUBE_BODY_FLAGS = ("-U__DAV_C220_VEC__", "-D__DAV_C220_CUBE__=1")


def needs_cube_body(texts, soc: SocInfo) -> bool:
    """Whether an A2/A3 kernel's sources (texts) test __DAV_C220_CUBE__: its cube body is then other
    code than its vector body, and the sim compiles it a second time with CUBE_BODY_FLAGS for the
    cube bodies of a split launch (opkg_sim/runtime/core_by_task_type.h)."""
    return soc.family == "c220" and any(_CUBE_MACRO.search(_strip_comments(t)) for t in texts)


def core_type_flags(texts) -> list[str]:
    """The flags of a kernel whose sources (texts) declare a tiling key a cube or mixed body
    (KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIC_*, a template kernel's ASCENDC_TPL_AIC_ONLY or
    ASCENDC_TPL_MIX_AIC_* selection) or sync the cube and vector cores (NotifyEvent, WaitEvent,
    CrossCoreSetFlag modes 1 and 2): it runs split, each AI core's cube and vector bodies with
    their own core type (opkg_sim/runtime/core_by_task_type.h); other kernels keep the constant
    vector core."""
    stripped = [_strip_comments(t) for t in texts]
    if not any(_CORE_TYPED.search(t) for t in stripped):
        # a kernel that only tests the core it runs on (`if ASCEND_IS_AIV { return; }`, cann-ops'
        # gemm_v2) runs split when it is mixed, i.e. uses the Matmul API (decided as it launches)
        if not any(_CORE_TEST.search(t) for t in stripped):
            return []
        return ["-include", str(_INCLUDE / "opkg_sim" / "runtime" / "core_by_task_type.h"),
                "-DOPKG_SIM_SPLIT_IF_MIXED=1"]
    return ["-include", str(_INCLUDE / "opkg_sim" / "runtime" / "core_by_task_type.h")]


# A SIMT kernel's loads and stores through raw pointers are what the sim must see (GM written,
# UB defined, out of bounds, races between threads): GCC's thread-sanitizer pass instruments each
# with a hook call, and the hooks are the sim's own (opkg_sim/simt/simt_runtime.h; libtsan is never
# linked). Volatile accesses count (ops-nn's `__gm__ volatile T*` outputs). Line tables (-g1) turn a
# racing access's code address into its file:line.
SIMT_FLAGS = ("-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0",
              "--param=tsan-distinguish-volatile=1", "-g1")


def has_chevron_launch(kernel_text: str) -> bool:
    """Whether a kernel source holds a `<<<...>>>` launch (a host-side launcher, which g++ cannot
    parse), comments aside."""
    return bool(_LAUNCH.search(re.sub(r"/\*.*?\*/|//[^\n]*", "", kernel_text, flags=re.S)))


def kernel_flags(op: OpSpec, variant: Variant, soc: SocInfo, tiling_header: Path | None,
                 pch: Path | None = None, launcher: bool = False, simt: bool = False,
                 tiling_default: str | None = None) -> list[str]:
    """`pch`: PCH_HEADER in the directory of its .gch (built with `pch_flags(soc)`), or None to
    parse the headers in every kernel. `launcher`: the kernel source holds a `<<<>>>` launch
    (`has_chevron_launch`); it then gets `__CCE_KT_TEST__`, CANN's CPU-debug macro, which drops
    launchers guarded by `#ifndef __CCE_KT_TEST__` (CANN's samples) as tikicpulib's build does.
    Otherwise it is left undefined as in the device build, which keeps code guarded by it: cann-ops'
    MoeInitRoutingV2 and CrossEntropyLossGrad hide their SyncAll from the CPU-debug build that
    way, and their blocks need it. `simt`: the kernel uses the SIMT API (`uses_simt`); it is
    instrumented (SIMT_FLAGS), and `pch` must then be the one built with `pch_flags(soc,
    simt=True)`. `tiling_default`: the struct the kernel names in
    REGISTER_TILING_DEFAULT (`registered_tiling_default`), which CANN's build applies to
    GET_TILING_DATA wherever the registration stands in the function."""
    pre = ["-Winvalid-pch", "-include", str(pch)] if pch is not None else []
    flags = arch_flags(soc) + [KERNEL_OPT] + pre + [
        f"-DOPKG_SIM_OP_TYPE={op.type}",
        f"-DOPKG_SIM_KERNEL_NAME={op.kernel_name}",
        "-include", str(_INCLUDE / "opkg_sim" / "runtime" / "kernel_tu.h"),
        # An entry named like a C library function (`tanh`) is renamed after the emulation's own
        # headers are read (include/opkg_sim/runtime/entry_names.h; the generated entry does the same).
        "-DOPKG_SIM_KERNEL_TU=1",
        f"-DOPKG_SIM_ENTRY_IS_{op.kernel_name}=1",
        "-include", str(_INCLUDE / "opkg_sim" / "runtime" / "entry_names.h"),
    ]
    if launcher:
        flags.append("-D__CCE_KT_TEST__=1")
    if tiling_default:
        flags.append(f"-DOPKG_SIM_TILING_DEFAULT={tiling_default}")
    if simt:
        flags += SIMT_FLAGS
    # a ref tensor's output position is <name>_ref, with macros of its own as CANN's build
    # defines them (cann-ops' EyeFp64 reads DTYPE_Y_REF); its name comes twice in the variant
    refs = {f"{t}_ref": variant.dtype_of(t) for t in op.ref_outputs}
    for name, dtype in {**dict(variant.dtypes), **refs}.items():
        d = DTYPES[dtype]
        flags.append(f"-DDTYPE_{name.upper()}={d.c_type}")
        flags.append(f"-DORIG_DTYPE_{name.upper()}={d.ge}")
    # each tensor's format, as CANN's op compiler passes it (-DFORMAT_X=FORMAT_ND); the values
    # are kernel_type.h's macros, which the sim's kernel_operator.h defines
    formats = dict(variant.formats)
    tensor_of = {**{n: n for n, _ in variant.dtypes}, **{f"{t}_ref": t for t in op.ref_outputs}}
    for name, tensor in tensor_of.items():
        flags.append(f"-DFORMAT_{name.upper()}=FORMAT_{formats.get(tensor, 'ND')}")
    if tiling_header is not None:
        # CANN builds give kernels the tiling struct without an #include; here the package's
        # header, read in kernel mode through kernel_tiling_source(), declares it as a plain struct.
        flags += ["-include", str(Path(tiling_header).resolve())]
    return flags


_GUARD = re.compile(r"\A\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+)")


_QUOTE_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def kernel_reads_host_tiling(kernel_source: Path, tiling_header: Path, classes: list[str],
                             roots: tuple[Path, ...] = ()) -> str:
    """What a kernel compile needs of the op_host tiling header, judged from the kernel source and
    the files it includes by a quoted path (relative to the including file or to one of `roots`):
    - "none": it names none of `classes` and reads no registered tiling (`GET_TILING_DATA(` only
      under its own `REGISTER_TILING_DEFAULT`): ops-nn's Ascend 950 kernels with their struct in
      op_kernel/arch35;
    - "classes": it reads the registered classes (`GET_TILING_DATA`, `..._WITH_STRUCT`) and does
      not include the header itself: CANN's kernel build gives it the structs generated from the
      registered classes, never the header's own includes (opbase's host util/math_util.h, whose
      `Ops::Base::CeilDiv` would meet op_kernel/math_util.h's; atvoss's host broadcast_tiling.h,
      whose BROADCAST_MAX_DIMS would meet the kernel's broadcast_utils.h);
    - "header": it includes the header, or its classes were not found by reading it."""
    if not classes:
        return "header"
    seen: set[Path] = set()
    todo = [Path(kernel_source).resolve()]
    texts = []
    header = Path(tiling_header).resolve()
    while todo:
        f = todo.pop()
        if f in seen or not f.is_file():
            continue
        if f == header:   # the kernel includes the host header itself
            return "header"
        seen.add(f)
        text = _strip_comments(f.read_text(errors="replace"))
        texts.append(text)
        for inc in _QUOTE_INCLUDE.findall(text):
            for base in (f.parent, *roots):
                cand = (base / inc).resolve()
                if cand.is_file():
                    todo.append(cand)
                    break
    code = "\n".join(texts)
    if "GET_TILING_DATA(" in code and "REGISTER_TILING_DEFAULT" not in code:
        return "classes"
    return "classes" if any(re.search(rf"\b{re.escape(c)}\b", code) for c in classes) else "none"


# END_TILING_DATA_DEF with or without its `;` (the macro ends the class itself; ops-nn's
# scatter_nd_update_tiling.h writes none)
_BLOCK = re.compile(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*\w+\s*\)(.*?)\bEND_TILING_DATA_DEF\b\s*;?"
                    r"|\bREGISTER_TILING_DATA_CLASS\s*\([^)]*\)\s*;?", re.S)
_STRUCT = re.compile(r"\bTILING_DATA_FIELD_DEF_STRUCT\s*\(\s*([\w:]+)\s*,")
# an integer constant an array size may name: `constexpr int64_t N = 8;` or `#define N 8`
_CONST = re.compile(r"(?:\bconstexpr\s+(?:static\s+)?[\w:]+\s+|^[ \t]*#[ \t]*define[ \t]+)(\w+)(?:\s*=\s*|[ \t]+)"
                    r"\(?(\d+)[uUlL]*\)?\s*;?[ \t]*$", re.M)
_ARR = re.compile(r"\bTILING_DATA_FIELD_DEF_ARR\s*\(\s*[\w:]+\s*,\s*([^,]+?)\s*,")


@lru_cache(maxsize=1)
def _library_tiling_structs() -> frozenset[str]:
    """The high-level libraries' tiling structs the generated header always gives kernels
    (opkg_sim/adv_api/kernel_tiling_lib.h and the lib/ headers it includes)."""
    lib = _INCLUDE / "opkg_sim" / "adv_api" / "kernel_tiling_lib.h"
    names = set()
    for f in [lib, *(_INCLUDE / inc for inc in _QUOTE_INCLUDE.findall(lib.read_text()))]:
        if f.is_file():
            text = f.read_text(errors="replace")
            names.update(re.findall(r"\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)", text))
            names.update(re.findall(r"\busing\s+::optiling::(\w+)\s*;", text))
    return frozenset(names)


def tiling_blocks(header: Path, text: str, roots: tuple = (), keyed: tuple = ()) -> str | None:
    """The tiling data class definitions of `header` and its relative includes, and their
    REGISTER_TILING_DATA_CLASS lines, as text in namespace optiling: what CANN generates the
    kernel's structs from. None when a definition depends on the header's other content (an
    array size that is not a literal), so the whole header is needed. `keyed`: (path, text) of
    the headers `keyed_tiling_headers` found, whose classes come after the header's, each once."""
    parts = []
    seen: set[Path] = set()
    wanted = {c for h, t in ((header, text), *keyed)   # those directly in namespace optiling
              for c in tiling_classes(Path(h), t, roots)}

    defined: set[str] = set()
    consts: dict[str, str] = {}

    def walk(h: Path, t: str) -> bool:
        seen.add(h.resolve())
        code = _strip_comments(t)
        consts.update(_CONST.findall(code))
        for inc in _QUOTE_INCLUDE.findall(code):   # included definitions first: STRUCT fields name them
            path = _quoted_include(h, inc, roots)
            if path is not None and path not in seen and not walk(path, path.read_text(errors="replace")):
                return False
        for m in _BLOCK.finditer(code):
            block = m.group(0)
            name = re.match(r"\s*BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)", block)
            if name and name.group(1) not in wanted:
                continue
            for size in _ARR.findall(block):   # CANN's structs have the sizes the classes evaluate to
                size = size.strip()
                if not size.isdigit():
                    if size not in consts:
                        return False
                    block = re.sub(rf"\b{size}\b", consts[size], block)
            if any(t not in wanted and t.split("::")[-1] not in _library_tiling_structs()
                   for t in _STRUCT.findall(block)):   # a struct defined elsewhere
                return False
            if name and name.group(1) in defined:   # alternatives under #if: not decidable here
                return False
            if name:
                defined.add(name.group(1))
            parts.append(block if block.rstrip().endswith(";") else block + ";")
        return True

    for h, t in ((header, text), *keyed):
        if Path(h).resolve() not in seen and not walk(Path(h), t):
            return None
    return "namespace optiling {\n" + "\n".join(parts) + "\n}  // namespace optiling\n"


_REGISTERS = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,")


def keyed_tiling_headers(tiling_header: Path, text: str, dirs: tuple = ()) -> list[Path]:
    """Headers next to the tiling header, or in `dirs` (those of the package's host sources),
    that register tiling data of the same operator for given tiling keys
    (`REGISTER_TILING_DATA_CLASS(<OpType>_<key>, ...)`, ops-nn's
    gather_elements_no_contiguous_tiling.h beside gather_elements' header; avg_pool3_d's
    classes in pool_3d_common/op_host/arch35, a unit its CMake DEPENDENCIES compile with it):
    CANN generates the kernel's structs from every class registered for the operator in the
    host sources it builds, so its kernels name them too."""
    header = Path(tiling_header)
    ops = {op for op in _REGISTERS.findall(_strip_comments(text)) if not re.search(r"_\d+$", op)}
    if not ops:
        return []
    keyed = re.compile(r"\bREGISTER_TILING_DATA_CLASS\s*\(\s*(?:%s)_\d+\s*,"
                       % "|".join(map(re.escape, sorted(ops))))
    known = set(tiling_classes(header, text))
    found = []
    places = {header.parent.resolve(), *(Path(d).resolve() for d in dirs)}
    for h in sorted({h.resolve() for d in places for h in d.glob("*.h")}):
        if h == header.resolve():
            continue
        t = h.read_text(errors="replace")
        if keyed.search(_strip_comments(t)) and not set(tiling_classes(h, t)) <= known:
            found.append(h)
    return found


def kernel_tiling_classes(tiling_header: Path, text: str, keyed: tuple = (), roots: tuple = ()
                          ) -> list[str]:
    """The tiling classes a kernel may read: the tiling header's and those of its keyed headers
    ((path, text) pairs from `keyed_tiling_headers`). A kernel may read only a keyed one (ops-nn's
    inplace_index_add: GET_TILING_DATA_WITH_STRUCT(InplaceIndexAddSimtTilingData, ...))."""
    return [*tiling_classes(tiling_header, text, roots),
            *(c for h, t in keyed for c in tiling_classes(h, t, roots))]


def registered_tiling_default(kernel_text: str, soc: SocInfo | None = None) -> str | None:
    """The one struct a kernel source registers with REGISTER_TILING_DEFAULT (None: none, or
    several, which the C++ order of the kernel then decides as before); with `soc`, only a
    registration in a branch its architecture builds (codegen.active_code: ops-nn's Ascend 950
    entry under `#if __CCE_AICORE__ == 310` registers a struct the classic kernel never declares)."""
    from opkg.sim import codegen

    text = _strip_comments(kernel_text)
    if soc is not None:
        text = codegen.active_code(text, codegen.arch_defines(arch_flags(soc)))
    names = set(re.findall(r"\bREGISTER_TILING_DEFAULT\s*\(\s*([\w:]+)\s*\)", text))
    return names.pop() if len(names) == 1 else None


def kernel_tiling_source(tiling_header: Path, text: str, at: Path, reads: str = "header",
                         keyed: tuple = (), roots: tuple = ()) -> str:
    """The header a kernel build force-includes (pass its path to `kernel_flags`), to be written
    into directory `at`: the package's tiling header `tiling_header` (whose content is `text`)
    read in kernel mode. Its paths are relative (to `at`, and to the sim's include directory on
    the -I path), so the same package in another checkout or under another opkg install gives
    the same bytes and the same cache key, local or remote. CANN's kernels
    never read the op_host header (they get structs generated from the registered classes), so
    reading it must leave the kernel's own sources as CANN compiles them:
    - the kernel build's DT_* macros are suspended around it, so host code in it that names
      `ge::DT_FLOAT16` compiles (cann-ops' dequant_swiglu_quant_tiling.h);
    - its include guard is undefined after it: a kernel header may use the same guard and must
      still be read (cann-ops' CTCLossV3Grad has CTC_LOSS_V3_GRAD_H_ in op_host and op_kernel).
    `keyed`: (path, text) of the headers `keyed_tiling_headers` found, read the same way (their
    classes only, too, where `reads == "classes"`: their host code may need what the kernel
    build does not have, ops-nn's pool_3d_common tiling classes deriving TilingBaseClass). `roots`: the
    kernel build's include directories, where the header's quoted includes may be found."""
    # `reads` (kernel_reads_host_tiling): the kernel reads none of the header, its classes only,
    # or the whole header
    lib = '#include "opkg_sim/basic_api/core/tiling_slot.h"\n#include "opkg_sim/adv_api/kernel_tiling_lib.h"\n'
    if reads == "none":
        return "// generated by opkg: the kernel reads its own tiling struct, not the package's tiling header\n" + lib
    blocks = tiling_blocks(tiling_header, text, roots, keyed) if reads == "classes" else None
    if blocks is not None:
        classes = kernel_tiling_classes(Path(tiling_header), text, keyed, roots)
        return ("// generated by opkg: the package's tiling classes as the kernel build gets them (no host includes)\n"
                + lib + '#include "register/tilingdata_base.h"\n' + blocks
                + "".join(f"using ::optiling::{c};\n" for c in classes))
    names = [d.ge for d in sorted(DTYPES.values(), key=lambda d: d.ge_value)]
    lines = ["// generated by opkg: the package's tiling header as the sim's kernel build reads it"]
    classes: list[str] = []
    guards: list[str] = []
    for header, body in ((tiling_header, text), *keyed):
        lines += [f'#pragma push_macro("{n}")' for n in names] + [f"#undef {n}" for n in names]
        lines.append('#include "opkg_sim/runtime/format_macros_push.h"')   # kernel_type.h's FORMAT_*
        lines.append(f'#include "{os.path.relpath(Path(header).resolve(), Path(at).resolve())}"')
        lines.append('#include "opkg_sim/runtime/format_macros_pop.h"')
        lines += [f'#pragma pop_macro("{n}")' for n in names]
        m = _GUARD.match(_strip_comments(body))
        if m and m.group(1) == m.group(2):
            guards.append(m.group(1))
        classes += [c for c in tiling_classes(Path(header), body, roots) if c not in classes]
    # after every header: a keyed header that includes the main one must not read it twice
    lines += [f"#undef {g}" for g in guards]
    if classes:
        # CANN's kernels name the tiling structs opc generates from the registered classes, at
        # global scope, and nothing else of op_host's: only those names come out of optiling
        # (a kernel's own MAX_DIM_NUM must not clash with op_host's optiling::MAX_DIM_NUM), with
        # the libraries' structs (TCubeTiling...) that CANN's kernel_tiling.h gives every kernel
        lines.append('#include "opkg_sim/basic_api/core/tiling_slot.h"')
        lines.append('#include "opkg_sim/adv_api/kernel_tiling_lib.h"')
        lines += [f"using ::optiling::{c};" for c in classes]
    else:   # none found in optiling by reading the text: every name, as before
        lines.append('#include "opkg_sim/runtime/kernel_tiling_using.h"')
    return "\n".join(lines) + "\n"


def _strip_comments(text: str) -> str:
    # once per planning pass: each target's kernel and headers are read by several questions
    return once(("strip_comments", text),
                lambda: re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S))


_SCOPE = re.compile(r'\bnamespace\s+([\w:]+)\s*\{|\bBEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)|[{}]'
                    r'|^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def _quoted_include(including: Path, inc: str, roots: tuple = ()) -> Path | None:
    """Where the compiler finds `#include "inc"` of file `including`: beside it first, then in
    the include directories `roots`, in order."""
    def find() -> Path | None:
        for base in (Path(including).parent, *roots):
            path = (Path(base) / inc).resolve()
            if path.is_file():
                return path
        return None

    return once(("quoted_include", str(Path(including).parent), inc, tuple(map(str, roots))),
                find)


def tiling_classes(header: Path, text: str, roots: tuple = (), _seen: set | None = None) -> list[str]:
    """The tiling data classes (BEGIN_TILING_DATA_DEF) declared directly in namespace optiling by
    `header` (content `text`) and the headers it includes by a quoted path, found beside the
    including file or in the include directories `roots` (cann-ops' circular_pad_grad_tiling.h
    reads circular_pad_common.h so; batch_mat_mul_v3_tiling.h reaches mat_mul_v3's header,
    copied into the package's include directory, through its `../../mat_mul_v3/op_host/` path),
    in order of appearance."""
    if _seen is None:     # asked several times per target in a planning pass
        return list(once(("tiling_classes", str(header), text, tuple(map(str, roots))),
                         lambda: _tiling_classes(header, text, roots, set())))
    return _tiling_classes(header, text, roots, _seen)


def _tiling_classes(header: Path, text: str, roots: tuple, seen: set) -> list[str]:
    seen.add(Path(header).resolve())
    found: list[str] = []
    scopes: list[str | None] = []   # the name of each open namespace brace, None for other braces
    for m in _SCOPE.finditer(_strip_comments(text)):
        ns, cls, inc = m.group(1), m.group(2), m.group(3)
        if ns:
            scopes.append(ns)
        elif cls:
            if scopes == ["optiling"] and cls not in found:
                found.append(cls)
        elif inc:
            path = _quoted_include(header, inc, roots)
            if path is not None and path not in seen:
                found += [c for c in tiling_classes(path, path.read_text(errors="replace"), roots, seen)
                          if c not in found]
        elif m.group(0) == "{":
            scopes.append(None)
        elif scopes:
            scopes.pop()
    return found


def link_flags() -> list[str]:
    # -z defs: an undefined symbol (e.g. a static tiling function named in the manifest) fails
    # the link with the symbol's name instead of failing later at load time.
    return ["-shared", "-Wl,-z,defs"]
