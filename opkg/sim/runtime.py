"""Runs one verification case of a sim-built operator: tiling on the host library, then the
kernel library over every block, on NumPy arrays, in this process (through ctypes).

The verifier calls `run_case` in a child process it owns, so a crash in user code cannot take
opkg down; everything that can be caught comes back as `SimError` with the kernel source
file:line and the block index where known.
"""

from __future__ import annotations

import ctypes as C
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from opkg.core.errors import VerificationError
from opkg.core.model import DTYPES, FORMATS, OpSpec, SimModes, SocInfo, Variant, has_numpy, numpy_dtype
from opkg.sim import abi, gm, packed, profile

TILING_CAPACITY = 64 * 1024       # bytes the tiling function may write (gert::TilingData capacity)
LOG_CAPACITY = 1 << 20            # kernel printf output kept per run
MAX_BLOCK_DIM = 65535            # blockDim the hardware accepts; above the core count, blocks run in waves
MAX_PROFILED_BLOCKS = 4096       # the kernel profile's per-block counters stop here (memory)
DEFAULT_LIB_WORKSPACE = 16 * 1024 * 1024   # GetLibApiWorkSpaceSize on Atlas A2; socs.yaml may override

_KINDS = {abi.KIND_RULE: "rule", abi.KIND_ASSERT: "assert", abi.KIND_TILING: "tiling",
          abi.KIND_INTERNAL: "internal", abi.KIND_REFUSED: "tiling"}


class SimError(VerificationError):
    """A kernel or tiling function broke an Ascend C rule, failed, or could not run.

    `.message` is complete on its own (file:line and block included); `.file`, `.line`,
    `.block`, `.block_dim` and `.kind` ('rule', 'assert', 'tiling', 'internal', 'usage')
    carry the same facts for tools; `.refused`: the operator's own TilingParse or tiling
    function returned failure (it refused the case; kind 'tiling').
    """

    def __init__(self, message: str, *, file: str | None = None, line: int = 0,
                 block: int | None = None, block_dim: int | None = None, kind: str = "rule",
                 hint: str | None = None):
        where = ""
        if file:
            where = f"{file}:{line}: " if line else f"{file}: "
        if block is not None and block >= 0:
            where += f"block {block}" + (f" of {block_dim}" if block_dim else "") + ": "
        super().__init__(where + message, hint=hint)
        self.detail = message
        self.file = file
        self.line = line
        self.block = block
        self.block_dim = block_dim
        self.kind = kind
        self.refused = False


@dataclass
class RunInfo:
    block_dim: int
    tiling_key: int
    workspace_bytes: int
    log: list[str] = field(default_factory=list)
    profile: dict | None = None      # opkg.sim.profile.counters(): what the blocks moved and computed
    # per output with elements no store wrote: a bool mask of them (the GM write shadow)
    unwritten: dict[str, np.ndarray] = field(default_factory=dict)


_LIBS: dict[tuple[str, str], C.CDLL] = {}


def _load(path: Path, role: str) -> C.CDLL:
    key = (str(Path(path).resolve()), role)
    lib = _LIBS.get(key)
    if lib is not None:
        return lib
    try:
        lib = C.CDLL(key[0], mode=os.RTLD_LOCAL | getattr(os, "RTLD_NOW", 2))
    except OSError as e:
        raise SimError(f"cannot load the {role} library {path}: {e}", kind="internal") from None
    try:
        lib = abi.bind_host(lib) if role == "host" else abi.bind_kernel(lib)
    except AttributeError as e:
        raise SimError(f"{path} is not an opkg sim {role} library (missing {e})", kind="internal") from None
    version = lib.opkg_sim_host_abi() if role == "host" else lib.opkg_sim_kernel_abi()
    if version != abi.ABI_VERSION:
        raise SimError(f"{path} was built for sim ABI {version}, this opkg speaks {abi.ABI_VERSION}; rebuild it",
                       kind="internal")
    _LIBS[key] = lib
    return lib


def _error(err: abi.OpkgError) -> SimError:
    file = err.file.decode("utf-8", "replace") or None
    message = _name_buffers(err.message.decode("utf-8", "replace"))
    block = int(err.block)
    e = SimError(message, file=file, line=int(err.line), block=block if block >= 0 else None,
                 block_dim=int(err.block_dim) or None, kind=_KINDS.get(int(err.kind), "internal"))
    e.refused = int(err.kind) == abi.KIND_REFUSED
    return e


_BUFFER_LINE = re.compile(r"^(\s*- )(.*) at (.+):(\d+)$")
_INIT_ARG = re.compile(r"InitBuffer\s*\(\s*([^,()]+?)\s*,")


_SET_UP = re.compile(r"a (T\w+<[^>]*>) set up at (\S+):(\d+)")


def _name_buffers(message: str) -> str:
    """Adds the variable a UB buffer was initialised into (read from its InitBuffer line)."""
    def named(m: re.Match) -> str:
        name = _source_arg(m.group(2), int(m.group(3)))
        return f"{m.group(0)} ('{name}')" if name else m.group(0)

    message = _SET_UP.sub(named, message)
    out = []
    for text in message.splitlines():
        m = _BUFFER_LINE.match(text)
        if m:
            name = _source_arg(m.group(3), int(m.group(4)))
            if name:
                text = f"{m.group(1)}{name} {m.group(2)} at {m.group(3)}:{m.group(4)}"
        out.append(text)
    return "\n".join(out)


def _source_arg(path: str, line: int) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    m = _INIT_ARG.search(text)
                    return m.group(1) if m else None
    except OSError:
        return None
    return None


def _np_dtype(dtype: str) -> np.dtype | None:
    return numpy_dtype(dtype) if has_numpy(dtype) else None


def _check_array(arr: np.ndarray, name: str, dtype: str, role: str) -> None:
    want = _np_dtype(dtype)
    if want is not None and arr.dtype != want:
        raise SimError(f"{role} '{name}' is {arr.dtype}, but this variant needs {dtype}", kind="usage")
    if want is None and arr.dtype.itemsize != DTYPES[dtype].itemsize:
        raise SimError(f"{role} '{name}' has {arr.dtype.itemsize}-byte elements, {dtype} needs "
                       f"{DTYPES[dtype].itemsize}", kind="usage")
    if arr.ndim > abi.MAX_DIMS:
        raise SimError(f"{role} '{name}' has {arr.ndim} dims; the sim supports up to {abi.MAX_DIMS}",
                       kind="usage")
    problem = packed.whole_bytes_problem(arr.size, dtype, f"{role} '{name}'")
    if problem:
        raise SimError(problem, kind="usage")


def _desc(name: str, shape: tuple[int, ...] | None, dtype: str, fmt: str, keep: list) -> abi.OpkgTensorDesc:
    d = abi.OpkgTensorDesc()
    label = name.encode()
    keep.append(label)
    d.name = label
    d.present = 0 if shape is None else 1
    d.dtype = DTYPES[dtype].ge_value
    d.format = FORMATS.get(fmt, FORMATS["ND"])
    if shape is not None:
        d.ndim = len(shape)
        for i, n in enumerate(shape):
            d.dims[i] = n
    return d


def _instances(t, value) -> list:
    """The tensors behind one IR input, each an array or a shape: [None] for an absent optional
    input (it keeps its index), one entry per tensor of a dynamic input."""
    if value is None:
        return [None]
    if t.param_type != "dynamic":
        return [value]
    if not isinstance(value, (list, tuple)) or not value or not all(
            isinstance(v, (np.ndarray, list, tuple)) for v in value):
        raise SimError(f"dynamic input '{t.name}' takes a non-empty list of tensors", kind="usage")
    return list(value)


def _input_descs(op: OpSpec, variant: Variant, values: dict, keep: list) -> tuple[C.Array, int]:
    """One OpkgTensorDesc per input tensor, in IR order; the tensors of a dynamic input share its
    name, which is how the host entry groups them back into one IR input. Arrays lend their
    values (offered to tiling and InferShape only for the inputs they depend on); shapes alone
    describe the input."""
    descs = []
    for t in op.inputs:
        for v in _instances(t, values.get(t.name)):
            shape = None if v is None else tuple(v.shape if isinstance(v, np.ndarray) else v)
            d = _desc(t.name, shape, variant.dtype_of(t.name), dict(variant.formats)[t.name], keep)
            if isinstance(v, np.ndarray) and v.nbytes:
                # host code reads the values as the device holds them (int4: packed)
                v = packed.gm_image(np.ascontiguousarray(v), variant.dtype_of(t.name), t.name)
                keep.append(v)
                d.data = v.ctypes.data
                d.data_bytes = v.nbytes
            descs.append(d)
    return (abi.OpkgTensorDesc * max(1, len(descs)))(*descs), len(descs)


def _output_descs(op: OpSpec, variant: Variant, shapes: dict, keep: list) -> tuple[C.Array, int]:
    """One OpkgTensorDesc per output tensor, in IR order: a dynamic output's shapes are a list,
    one desc per tensor, sharing its name (as a dynamic input's do)."""
    descs = []
    for t in op.outputs:
        shape = shapes.get(t.name, ())
        many = t.param_type == "dynamic" and isinstance(shape, (list, tuple)) and shape and isinstance(
            shape[0], (list, tuple))
        for s in (shape if many else [shape]):
            descs.append(_desc(t.name, tuple(s), variant.dtype_of(t.name), dict(variant.formats)[t.name], keep))
    return (abi.OpkgTensorDesc * max(1, len(descs)))(*descs), len(descs)


def tensor_list(arrays: list[np.ndarray], addresses: list[int] | None = None) -> np.ndarray:
    """A dynamic input as the kernel receives it, in CANN's ListTensorDesc layout (uint64 words):
    the byte offset of the pointer table, then per tensor (dim | index << 32) and its dims, then
    one data pointer per tensor (`addresses`, else the arrays' own)."""
    words = [0]
    for k, a in enumerate(arrays):
        words.append(a.ndim | (k << 32))
        words.extend(int(n) for n in a.shape)
    words[0] = len(words) * 8
    words.extend(addresses if addresses is not None else [a.ctypes.data for a in arrays])
    return np.array(words, dtype=np.uint64)


def _attr_values(op: OpSpec, attrs: dict) -> tuple[C.Array, list]:
    keep: list = []
    values = (abi.OpkgAttrValue * max(1, len(op.attrs)))()
    for i, spec in enumerate(op.attrs):
        v = values[i]
        name = spec.name.encode()
        keep.append(name)
        v.name = name
        value = attrs.get(spec.name, spec.default)
        if value is None:
            continue          # unset: GetAttrs()->Get*(i) returns nullptr, as for an absent optional attr
        kind = abi.ATTR_KINDS.get(spec.type)
        if kind is None:
            raise SimError(f"attr '{spec.name}' has type {spec.type!r}, which the sim cannot pass", kind="usage")
        v.kind = kind
        try:
            if spec.type == "bool":
                v.i = 1 if value else 0
            elif spec.type == "int":
                v.i = int(value)
            elif spec.type == "float":
                v.f = float(value)
            elif spec.type == "str":
                s = str(value).encode()
                keep.append(s)
                v.s = s
            elif spec.type in ("list_int", "list_bool"):
                arr = (C.c_int64 * max(1, len(value)))(*[int(x) for x in value])
                keep.append(arr)
                v.ints = C.cast(arr, C.POINTER(C.c_int64))
                v.count = len(value)
            elif spec.type == "list_float":
                arr = (C.c_double * max(1, len(value)))(*[float(x) for x in value])
                keep.append(arr)
                v.floats = C.cast(arr, C.POINTER(C.c_double))
                v.count = len(value)
        except (TypeError, ValueError):
            raise SimError(f"attr '{spec.name}' = {value!r} is not a valid {spec.type}", kind="usage") from None
    return values, keep


@lru_cache(maxsize=1)
def _log_buffer():
    """The kernel's printf buffer, reused across runs (it is NUL-terminated by the kernel
    library; zeroing 1 MiB per case would cost more than a small kernel's run)."""
    return C.create_string_buffer(LOG_CAPACITY)


def core_count(soc: SocInfo) -> int:
    """Cores a vector kernel may use: AIV cores, else AI cores; a clear error when unknown."""
    n = soc.vector_cores or soc.cube_cores
    if not n:
        raise SimError(
            f"SoC {soc.name} has neither vector_cores nor cube_cores, so the sim cannot check blockDim "
            f"or answer GetCoreNum*()", kind="usage",
            hint=f"add vector_cores (AIV cores) or cube_cores (AI cores) to {soc.name} in toolchains/socs.yaml")
    return int(n)


def _platform(soc: SocInfo, keep: list) -> abi.OpkgPlatform:
    cores = core_count(soc)
    p = abi.OpkgPlatform()
    name, short = soc.name.encode(), soc.short.encode()
    keep += [name, short]
    p.soc_version = name
    p.short_soc = short
    p.npu_arch = soc.npu_arch
    p.aiv_cores = soc.vector_cores or cores
    p.aic_cores = soc.cube_cores or cores
    p.lib_workspace = int(soc.extra.get("lib_workspace_bytes", DEFAULT_LIB_WORKSPACE))
    p.ub_bytes = soc.ub_bytes
    p.l1_bytes = soc.l1_bytes or 0
    p.l0a_bytes, p.l0b_bytes, p.l0c_bytes = soc.l0a_bytes or 0, soc.l0b_bytes or 0, soc.l0c_bytes or 0
    p.l2_bytes = soc.l2_bytes or 0
    res = platform_res(soc)
    if res:
        keep.append(res)
        p.platform_res = res
    return p


def platform_res(soc: SocInfo) -> bytes:
    """The SoC table's `platform:` entries (the platform config ini's sections and keys, for
    GetPlatformRes) as the C ABI carries them: one "Label\\tkey\\tvalue\\n" line each."""
    table = soc.platform or {}
    return "".join(f"{label}\t{key}\t{value}\n" for label, keys in sorted(table.items())
                   for key, value in sorted((keys or {}).items())).encode()


def run_tiling(host_lib: Path, op: OpSpec, variant: Variant, soc: SocInfo,
               inputs: dict[str, np.ndarray | None], output_shapes: dict[str, tuple[int, ...]],
               attrs: dict) -> tuple[abi.OpkgTilingResult, bytes]:
    """Calls the package's tiling function; returns its result and the tiling bytes."""
    lib = _load(host_lib, "host")
    keep: list = []
    ins, n_ins = _input_descs(op, variant, inputs, keep)
    outs, n_outs = _output_descs(op, variant, output_shapes, keep)
    attr_values, attr_keep = _attr_values(op, attrs)
    platform = _platform(soc, keep)
    tiling = C.create_string_buffer(TILING_CAPACITY)
    result = abi.OpkgTilingResult()
    err = abi.OpkgError()
    rc = lib.opkg_sim_host_tiling(ins, n_ins, outs, n_outs, attr_values, len(op.attrs),
                                  C.byref(platform), tiling, TILING_CAPACITY, C.byref(result), C.byref(err))
    if rc != 0:
        e = _error(err)
        e.kind = "tiling" if e.kind == "rule" else e.kind
        raise e
    if result.tiling_size > TILING_CAPACITY:
        raise SimError(f"the tiling function set a tiling data size of {result.tiling_size} bytes, more than "
                       f"the {TILING_CAPACITY}-byte capacity of GetRawTilingData()", kind="tiling")
    # The device copies only the size SetDataSize gave to the kernel's tiling buffer: bytes
    # written past it never arrive, and the kernel reads garbage in their place.
    raw = tiling.raw
    written = len(raw.rstrip(b"\0"))
    if written > result.tiling_size:
        said = ("never called SetDataSize (the size stays 0)" if result.tiling_size == 0 else
                f"called SetDataSize({result.tiling_size})")
        raise SimError(f"the tiling function wrote {written} bytes of tiling data but {said}: "
                       f"the device copies only {result.tiling_size} bytes to the kernel, which "
                       "reads garbage for the rest", kind="tiling",
                       hint="after tiling.SaveToBuffer(...), call context->GetRawTilingData()->"
                            "SetDataSize(tiling.GetDataSize())")
    return result, raw


def _check_output(arr, label: str, variant: Variant) -> None:
    _check_array(arr, label, variant.dtype_of(label.split("[")[0]), "output")
    if not (arr.flags.c_contiguous and arr.flags.writeable):
        raise SimError(f"output '{label}' must be a writeable C-contiguous array", kind="usage")


def _shape_of(value):
    """An output's shape, or a dynamic output's list of shapes."""
    return [a.shape for a in value] if isinstance(value, list) else value.shape


def _listed(shape) -> list:
    """A shape, or a list of shapes, as plain lists (for messages)."""
    return [list(s) for s in shape] if isinstance(shape, list) else list(shape)


def run_case(host_lib: Path, kernel_lib: Path, op: OpSpec, variant: Variant, soc: SocInfo,
             inputs: dict[str, np.ndarray], outputs: dict[str, np.ndarray], attrs: dict, *,
             modes: SimModes = SimModes(), copy_back: tuple[str, ...] = (),
             on_step=None, host_output: dict | None = None, capture_dir: Path | None = None
             ) -> RunInfo:
    """Tiling, then the kernel over every block; writes `outputs` in place. `modes.sync_check`
    also fails on intra-core pipeline hazards (accesses of one UB byte by two pipes,
    unsynchronised); `modes.lenient_copy` truncates ragged DataCopy lengths as the device does;
    `modes.strict_bounds` fails on GM accesses past a tensor even inside its allocation's padding.
    `RunInfo.unwritten` masks the output elements no store wrote. The inputs named in
    `copy_back` (an in-place operator's, verify.inplace) get what the kernel left in their
    buffers (a dynamic input: each array of its list); every other input array is left as
    given. `on_step("tiling")` and `on_step("kernel")` are called as each starts (the verifier
    names the one a crash happened in). `host_output` gets what the tiling function printed
    and whether it succeeded (opkg.sim.hostio.captured; its files in `capture_dir`)."""
    from opkg.sim.hostio import captured

    in_arrays: dict[str, np.ndarray | None] = {}
    for t in op.inputs:
        arr = inputs.get(t.name)
        if arr is None:
            if t.param_type == "required":
                raise SimError(f"required input '{t.name}' of {op.type} was not given", kind="usage")
            in_arrays[t.name] = None
            continue
        if t.param_type == "dynamic":
            arrs = [np.ascontiguousarray(a) for a in _instances(t, arr)]
            for k, a in enumerate(arrs):
                _check_array(a, f"{t.name}[{k}]", variant.dtype_of(t.name), "input")
            in_arrays[t.name] = arrs
            continue
        arr = np.ascontiguousarray(arr)
        _check_array(arr, t.name, variant.dtype_of(t.name), "input")
        in_arrays[t.name] = arr
    refs = set(op.ref_outputs)
    for t in op.outputs:
        arr = outputs.get(t.name)
        if arr is None:
            raise SimError(f"output '{t.name}' of {op.type} was not preallocated", kind="usage")
        if t.param_type == "dynamic":   # a list of tensors, each its own preallocated array
            if not isinstance(arr, list) or not arr:
                raise SimError(f"dynamic output '{t.name}' of {op.type} takes a non-empty list of "
                               f"preallocated arrays", kind="usage")
            for k, a in enumerate(arr):
                _check_output(a, f"{t.name}[{k}]", variant)
        else:
            _check_output(arr, t.name, variant)
        if t.name in refs and _shape_of(arr) != _shape_of(in_arrays[t.name]):
            raise SimError(f"output '{t.name}' is a ref tensor (the input of that name, rewritten): "
                           f"it has the input's shape {_listed(_shape_of(in_arrays[t.name]))}, not "
                           f"{_listed(_shape_of(arr))}", kind="usage")

    cores = core_count(soc)
    if on_step:
        on_step("tiling")
    with captured(host_output, "tiling", capture_dir):
        result, tiling_bytes = run_tiling(host_lib, op, variant, soc, in_arrays,
                                          {t.name: _shape_of(outputs[t.name]) for t in op.outputs},
                                          attrs)
    block_dim = int(result.block_dim)
    if block_dim == 0:
        raise SimError(f"the tiling function for {op.type} left blockDim at 0; call context->SetBlockDim(n) "
                       f"with 1 <= n <= {cores}", kind="tiling")
    if block_dim > MAX_BLOCK_DIM:
        raise SimError(f"the tiling function for {op.type} set blockDim {block_dim}, above the hardware's "
                       f"limit of {MAX_BLOCK_DIM}", kind="tiling",
                       hint="size blockDim from PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv()")
    workspace_bytes = int(sum(result.workspaces[i] for i in range(result.workspace_count)))

    # Every GM buffer as the device allocates it (opkg/sim/gm.py): (name, contents, bytes).
    keep: list = []
    entries: list[tuple[str, np.ndarray | None, int]] = []
    extra: list[tuple[str, np.ndarray | None, int]] = []   # reached only through a tensor list
    lists: dict[int, tuple[list[np.ndarray], int]] = {}
    def image(name: str, a: np.ndarray) -> np.ndarray:   # the GM bytes behind an array
        return packed.gm_image(a, variant.dtype_of(name.split("[")[0]), name)

    for t in op.inputs:
        value = in_arrays[t.name]
        if isinstance(value, list):
            lists[len(entries)] = (value, len(extra))
            entries.append((t.name, None, tensor_list(value).nbytes))
            extra += [(f"{t.name}[{k}]", image(t.name, a), image(t.name, a).nbytes)
                      for k, a in enumerate(value)]
        elif value is not None:
            entries.append((t.name, image(t.name, value), image(t.name, value).nbytes))
        else:
            entries.append((t.name, None, 0))
    undefined_from = len(entries)
    # The buffers behind each output: (entry index, array, label), a dynamic output's tensors
    # in `extra` (its position holds the tensor list, which the framework writes: defined).
    # A ref output has no buffer of its own: the kernel gets its input's (below), a dynamic
    # ref output its input's tensor list.
    out_buffers: dict[str, list] = {}
    for t in op.outputs:
        value = outputs[t.name]
        if t.name in refs:
            entries.append((t.name, None, 0))
        elif isinstance(value, list):
            lists[len(entries)] = (value, len(extra))
            entries.append((t.name, None, tensor_list(value).nbytes))
            out_buffers[t.name] = [(("extra", len(extra) + k), a, f"{t.name}[{k}]") for k, a in enumerate(value)]
            extra += [(f"{t.name}[{k}]", image(t.name, a), image(t.name, a).nbytes)
                      for k, a in enumerate(value)]
        else:
            out_buffers[t.name] = [(len(entries), value, t.name)]
            entries.append((t.name, image(t.name, value), image(t.name, value).nbytes))
    entries.append(("workspace", None, max(workspace_bytes, 0)))
    workspace_at = len(entries) - 1
    entries.append(("tiling", np.frombuffer(tiling_bytes, dtype=np.uint8), len(tiling_bytes)))
    params = len(entries)
    entries += extra
    # the tensors of dynamic outputs, now that `params` places them
    out_buffers = {name: [(params + i[1] if isinstance(i, tuple) else i, a, label) for i, a, label in bufs]
                   for name, bufs in out_buffers.items()}
    arena = gm.arena([n for _, _, n in entries])
    for i, (_, arr, n) in enumerate(entries):
        if n and arr is not None:   # outputs too: what the caller pre-filled (SetAtomicAdd adds to it)
            arena.view(i)[:n] = arr.reshape(-1).view(np.uint8)
    # An output the OpDef gives an InitValue holds it when the kernel starts (the framework fills
    # it first): defined, and every element counts as written. Every other output tensor and the
    # workspace start undefined on the device; an output's shadow records which bytes were stored.
    init = _init_values(host_lib, op, variant)
    undefined = {workspace_at}
    for name, bufs in out_buffers.items():
        for i, a, _ in bufs:
            if name not in init:
                undefined.add(i)
            elif a.nbytes:
                filled = image(name, np.full(a.shape, init[name], a.dtype))
                arena.view(i)[:filled.nbytes] = filled.reshape(-1).view(np.uint8)
    for i, (value, first) in lists.items():
        words = tensor_list(value, [arena.address(params + first + k) for k in range(len(value))])
        arena.view(i)[:words.nbytes] = words.view(np.uint8)
    args = (abi.OpkgGmArg * len(entries))()
    shadows: dict[int, np.ndarray] = {}
    for i, (name, _, n) in enumerate(entries):
        label = name.encode()
        keep.append(label)
        args[i].name = label
        args[i].undefined = 1 if i in undefined else 0
        if n:
            args[i].ptr = arena.address(i)
            args[i].bytes = n
            args[i].alloc = gm.allocation(n)
            args[i].canary = arena.canary(i)
            if i in undefined and i != workspace_at:   # outputs: which bytes the kernel stored
                shadows[i] = arena.shadow(i)
                args[i].written = shadows[i].ctypes.data
    # CANN passes a ref tensor's one buffer at its input and its output position (aclnn takes it
    # once, as `<name>Ref`): the same GM address twice, holding the input's values; a dynamic
    # ref tensor's one tensor list likewise (the list's buffers are the outputs)
    ref_input = {t.name: i for i, t in enumerate(op.inputs)}
    for i, t in enumerate(op.outputs, undefined_from):
        if t.name in refs:
            j = ref_input[t.name]
            args[i].ptr, args[i].bytes, args[i].alloc, args[i].canary = (
                args[j].ptr, args[j].bytes, args[j].alloc, args[j].canary)
            args[i].undefined = 0
    if on_step:
        on_step("kernel")
    rc, err, lines, blocks = _launch(kernel_lib, args, params, len(extra), block_dim, result, soc, cores,
                                     modes)
    # Inputs are device buffers too: an in-place operator rewrites them, so what the kernel
    # left there goes back to the caller's arrays, as outputs do. Only those: the others stay
    # the inputs the case ran with (saved beside a failing case).
    for i, (name, arr, n) in enumerate(entries[:undefined_from]):
        if name not in copy_back:
            continue
        if i in lists:      # a dynamic input: each tensor from its own buffer
            value, first = lists[i]
            for k, a in enumerate(value):
                if a.nbytes:
                    back = np.empty_like(a)
                    packed.from_gm(arena.view(params + first + k)[:extra[first + k][2]], back,
                                   variant.dtype_of(name))
                    inputs[name][k][...] = back
        elif n and arr is not None:
            back = np.empty_like(in_arrays[name])
            packed.from_gm(arena.view(i)[:n], back, variant.dtype_of(name))
            inputs[name][...] = back
    unwritten = {}
    for i, t in enumerate(op.outputs, undefined_from):
        if t.name in refs:     # what the kernel left in the input's buffer; all of it defined
            out, j = outputs[t.name], ref_input[t.name]
            if j in lists:     # a dynamic ref tensor: each tensor of the input's list
                first = lists[j][1]
                for k, a in enumerate(out):
                    n = extra[first + k][2]
                    if n:
                        packed.from_gm(arena.view(params + first + k)[:n], a, variant.dtype_of(t.name))
            elif entries[j][2]:
                packed.from_gm(arena.view(j)[:entries[j][2]], out, variant.dtype_of(t.name))
            continue
        # a dynamic output's tensors each as `name[k]`
        dtype = variant.dtype_of(t.name)
        for at, out, label in out_buffers[t.name]:
            n = packed.gm_nbytes(out, dtype)
            if not n:
                continue
            packed.from_gm(arena.view(at)[:n], out, dtype)
            if at not in shadows:
                continue
            shadow = shadows[at][:n]
            if not shadow.view(bool).all():
                unwritten[label] = ~packed.written_elements(shadow, out, dtype)
    if rc != 0:
        e = _error(err)
        if lines:
            e.hint = "kernel printf output before the failure:\n" + "\n".join(lines[-20:])
        raise e
    return RunInfo(block_dim=block_dim, tiling_key=int(result.tiling_key), workspace_bytes=workspace_bytes,
                   log=lines, profile=profile.counters(blocks, cores) if blocks is not None else None,
                   unwritten=unwritten)


def _launch(kernel_lib: Path, args, params: int, extra: int, block_dim: int, result, soc: SocInfo,
            cores: int, modes: SimModes):
    """Runs the kernel library over every block; (status, OpkgError, log lines, profiles)."""
    lib = _load(kernel_lib, "kernel")
    log = _log_buffer()
    log[0] = b"\0"
    launch = abi.OpkgKernelLaunch()
    launch.abi = abi.ABI_VERSION
    launch.block_dim = block_dim
    launch.tiling_key = int(result.tiling_key)
    launch.ub_bytes = soc.ub_bytes
    launch.sys_workspace = int(soc.extra.get("lib_workspace_bytes", DEFAULT_LIB_WORKSPACE))
    launch.arg_count = params
    launch.extra_regions = extra
    launch.cores = cores
    # cube buffers per core (0 = not in the SoC table: the first cube InitBuffer says so)
    for field in ("l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "bt_bytes", "fb_bytes"):
        setattr(launch, field, getattr(soc, field) or 0)
    launch.flags = ((abi.LAUNCH_SYNC_CHECK if modes.sync_check else 0)
                    | (abi.LAUNCH_LENIENT_COPY if modes.lenient_copy else 0)
                    | (abi.LAUNCH_STRICT_BOUNDS if modes.strict_bounds else 0))
    launch.args = args
    launch.log = C.cast(log, C.c_void_p)
    launch.log_cap = LOG_CAPACITY
    # ~3 KB of counters per block: launches of more blocks than MAX_PROFILED_BLOCKS go unprofiled
    blocks = (abi.OpkgBlockProfile * block_dim)() if block_dim <= MAX_PROFILED_BLOCKS else None
    launch.profile = blocks
    err = abi.OpkgError()
    rc = lib.opkg_sim_kernel_run(C.byref(launch), C.byref(err))
    lines = log.value.decode("utf-8", "replace").splitlines()
    return rc, err, lines, blocks


def infer_output_shapes(host_lib: Path, op: OpSpec, variant: Variant,
                        inputs: dict[str, np.ndarray | tuple[int, ...] | None], attrs: dict,
                        output_counts: dict[str, int] | None = None
                        ) -> dict[str, tuple[tuple[int, ...], str | None]] | None:
    """What the OpDef's InferShape/InferDataType say the outputs are: {name: (shape, dtype)},
    for a dynamic output of `output_counts[name]` tensors a list of them, one per tensor.

    `inputs` gives each input's array (or a list of them), whose values InferShape sees for the
    inputs it depends on (ValueDepend, InputsDataDependency), or only its shape.
    None when the host sources register no InferShape. dtype is a manifest dtype name, or the
    variant's dtype when no InferDataType is registered (None for a dtype opkg does not know).
    """
    lib = _load(host_lib, "host")
    keep: list = []
    ins, n_ins = _input_descs(op, variant, inputs, keep)
    counts = {t.name: (output_counts or {}).get(t.name) for t in op.outputs if t.param_type == "dynamic"}
    outs, n_outs = _output_descs(op, variant, {name: [()] * n for name, n in counts.items() if n}, keep)
    attr_values, attr_keep = _attr_values(op, attrs)
    err = abi.OpkgError()
    rc = lib.opkg_sim_host_infer_shape(ins, n_ins, attr_values, len(op.attrs), outs, n_outs, C.byref(err))
    if rc == 2:
        return None
    if rc != 0:
        raise _error(err)
    by_ge = {d.ge_value: d.name for d in DTYPES.values()}
    found, i = {}, 0
    for t in op.outputs:
        n = counts.get(t.name) or 1
        got = [(tuple(int(outs[j].dims[d]) for d in range(outs[j].ndim)), by_ge.get(int(outs[j].dtype)))
               for j in range(i, i + n)]
        found[t.name] = got if counts.get(t.name) else got[0]
        i += n
    return found


def _init_values(host_lib: Path, op: OpSpec, variant: Variant) -> dict[str, float]:
    """output name -> the value its OpDef's InitValue gives it in this variant (one value, or
    one per dtype of the output's DataType list)."""
    proto = next((p for p in host_prototypes(host_lib) if p.get("type") == op.type), None)
    found = {}
    for t in (proto or {}).get("outputs", []):
        values = t.get("init_values") or []
        if len(values) == 1:
            found[t["name"]] = values[0]
        elif values:
            dtype = variant.dtype_of(t["name"])
            if len(values) != len(t["dtypes"]) or dtype not in t["dtypes"]:
                raise SimError(f"output '{t['name']}' of {op.type}: InitValue lists {len(values)} values for "
                               f"{len(t['dtypes'])} dtypes, none for {dtype}", kind="usage")
            found[t["name"]] = values[t["dtypes"].index(dtype)]
    return found


def host_prototypes(host_lib: Path) -> list[dict]:
    """The OpDefs the host sources registered (OP_ADD), dtypes/formats in manifest spelling."""
    lib = _load(host_lib, "host")
    data = json.loads(lib.opkg_sim_host_prototypes().decode("utf-8"))
    if data.get("error"):
        raise SimError(data["error"], kind="internal")
    return manifest_spelling(data["ops"])


def manifest_spelling(ops: list[dict]) -> list[dict]:
    """The host library's prototype entries with dtypes and formats in manifest spelling (in
    place), per-SoC config lists included."""
    by_ge = {d.ge: d.name for d in DTYPES.values()}
    by_format = {f"FORMAT_{k}": k for k in FORMATS}
    for op in ops:
        configs = op.get("aicore", {}).get("soc_configs", {}).values()
        for t in op["inputs"] + op["outputs"] + [t for c in configs for t in c["inputs"] + c["outputs"]]:
            t["dtypes"] = [by_ge.get(x, x) for x in t["dtypes"]]
            t["formats"] = [by_format.get(x, x) for x in t["formats"]]
            t["unknown_shape_formats"] = [by_format.get(x, x) for x in t.get("unknown_shape_formats", [])]
    return ops
