"""Plain data shared by every stage: dtypes, formats, operator prototypes, dtype variants, SoCs.

Nothing here reads files or runs tools. The manifest loader produces these objects, the planner
combines them, the toolchains and the sim runtime consume them. Keep them frozen and JSON-able
(`to_json` / `from_json`) because they cross the process boundary into SCons and the verifier.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class DType:
    name: str          # manifest spelling, also NumPy's where NumPy has the type
    c_type: str        # what -DDTYPE_<NAME>= expands to in Ascend C kernels
    ge: str            # CANN's ge::DataType enumerator
    ge_value: int      # its numeric value (graph/types.h)
    itemsize: int
    numpy: str | None  # NumPy dtype name; None where NumPy has no such type
    kind: str          # 'float' | 'int' | 'uint' | 'bool' | 'complex'
    # values per GM byte: 2 for int4, which CANN packs two a byte, the first element in the low
    # nibble (asc-devkit kernel_tensor_impl.h GetValue: `val >> (4 * (offset % 2))`; metadef's
    # GetSizeByDataType gives DT_INT4 as 4 bits). NumPy holds such a tensor one value a byte
    # (ml_dtypes' int4); the sim packs it at the GM boundary (opkg/sim/packed.py).
    per_byte: int = 1


DTYPES: dict[str, DType] = {d.name: d for d in (
    DType("float32", "float", "DT_FLOAT", 0, 4, "float32", "float"),
    DType("float16", "half", "DT_FLOAT16", 1, 2, "float16", "float"),
    DType("float64", "double", "DT_DOUBLE", 11, 8, "float64", "float"),
    DType("int8", "int8_t", "DT_INT8", 2, 1, "int8", "int"),
    DType("int32", "int32_t", "DT_INT32", 3, 4, "int32", "int"),
    DType("uint8", "uint8_t", "DT_UINT8", 4, 1, "uint8", "uint"),
    DType("int16", "int16_t", "DT_INT16", 6, 2, "int16", "int"),
    DType("uint16", "uint16_t", "DT_UINT16", 7, 2, "uint16", "uint"),
    DType("uint32", "uint32_t", "DT_UINT32", 8, 4, "uint32", "uint"),
    DType("int64", "int64_t", "DT_INT64", 9, 8, "int64", "int"),
    DType("uint64", "uint64_t", "DT_UINT64", 10, 8, "uint64", "uint"),
    DType("bool", "bool", "DT_BOOL", 12, 1, "bool", "bool"),
    DType("bfloat16", "bfloat16_t", "DT_BF16", 27, 2, "bfloat16", "float"),   # ml_dtypes' bfloat16
    # signed 4-bit, -8..7 (the kernel type is asc-devkit's int4b_t)
    DType("int4", "int4b_t", "DT_INT4", 29, 1, "int4", "int", per_byte=2),
    # one bit, 0 or 1 (CANN's DT_UINT1: ops-nn's relu_v2 mask), eight a byte, the first element in
    # bit 0 (the order ops-nn's goldens pack and read it in: np.packbits(bitorder="little"), and
    # relu_grad_v2's bit-by-bit `mask % 2`); NumPy holds one value a byte (uint8). The kernel's
    # tensors of it are bytes (atvoss' uint1_t placeholder), as the macro's uint8_t says.
    DType("uint1", "uint8_t", "DT_UINT1", 30, 1, "uint8", "uint", per_byte=8),
    # (real, imag) pairs; kernels usually read them as floats (CANN's Muls on complex64)
    DType("complex64", "opkg_sim::complex64", "DT_COMPLEX64", 16, 8, "complex64", "complex"),
    DType("complex128", "opkg_sim::complex128", "DT_COMPLEX128", 17, 16, "complex128", "complex"),
    # Ascend 950's 8-bit floats: ge names and values of metadef's graph/types.h, kernel types as
    # asc-devkit's ascendc_impl_build.py maps them; NumPy types from ml_dtypes (e8m0 is its
    # float8_e8m0fnu). ml_dtypes has no hifloat8: NumPy has it through en_dtypes, the package
    # ops-nn's goldens cast with (opkg/core/hifloat8.py is opkg's own emulation of the encoding).
    DType("hifloat8", "hifloat8_t", "DT_HIFLOAT8", 34, 1, "hifloat8", "float"),
    DType("float8_e5m2", "fp8_e5m2_t", "DT_FLOAT8_E5M2", 35, 1, "float8_e5m2", "float"),
    DType("float8_e4m3fn", "fp8_e4m3fn_t", "DT_FLOAT8_E4M3FN", 36, 1, "float8_e4m3fn", "float"),
    DType("float8_e8m0", "fp8_e8m0_t", "DT_FLOAT8_E8M0", 37, 1, "float8_e8m0fnu", "float"),
)}

# Sub-byte floats of the same table, not accepted in manifests yet: the device packs two fp4
# values a byte (fp4x2_e2m1_t), which the sim's tensor transfer models only for int4 so far. itemsize is one
# NumPy element (ml_dtypes stores one value a byte); ml_dtypes has no float4_e1m2, and the devkit
# names no kernel type for the float6 formats.
PACKED_DTYPES: dict[str, DType] = {d.name: d for d in (
    DType("float6_e3m2", "", "DT_FLOAT6_E3M2", 38, 1, "float6_e3m2fn", "float"),
    DType("float6_e2m3", "", "DT_FLOAT6_E2M3", 39, 1, "float6_e2m3fn", "float"),
    DType("float4_e2m1", "fp4x2_e2m1_t", "DT_FLOAT4_E2M1", 40, 1, "float4_e2m1fn", "float"),
    DType("float4_e1m2", "fp4x2_e1m2_t", "DT_FLOAT4_E1M2", 41, 1, None, "float"),
)}

# NumPy has these only through ml_dtypes (float casts round to nearest even, like the device;
# a cast into int4 wraps, so goldens are checked for range: verify/runner.py).
ML_DTYPES = ("bfloat16", "int4", "float8_e5m2", "float8_e4m3fn", "float8_e8m0fnu", "float6_e3m2fn",
              "float6_e2m3fn", "float4_e2m1fn")
# ... and these only through en_dtypes (not a dependency of opkg: a variant of such a dtype runs
# where it is installed, as the repository goldens that return one need it anyway).
EN_DTYPES = ("hifloat8",)


def has_numpy(name: str) -> bool:
    """Whether a manifest dtype has a NumPy type here (en_dtypes' need the package)."""
    info = DTYPES.get(name) or PACKED_DTYPES[name]
    if info.numpy in EN_DTYPES:
        import importlib.util

        return importlib.util.find_spec("en_dtypes") is not None
    return info.numpy is not None

def numpy_dtype(name: str):
    """The NumPy dtype of a manifest dtype. bfloat16 and the 950's float8/float6/float4 are
    ml_dtypes' (the types JAX uses: round-to-nearest-even casts), imported only when needed."""
    import numpy as np

    info = DTYPES.get(name) or PACKED_DTYPES[name]
    if info.numpy in ML_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, info.numpy))
    if info.numpy in EN_DTYPES:
        try:
            import en_dtypes
        except ImportError:
            from opkg.core.errors import UsageError

            raise UsageError(f"dtype {name} needs the Python package en_dtypes (ml_dtypes has no "
                             f"{name})", hint="pip install en-dtypes into opkg's Python (the `lowfloat` extra)") from None
        return np.dtype(getattr(en_dtypes, info.numpy))
    if info.numpy is None:
        raise ValueError(f"dtype {name} has no NumPy type")
    return np.dtype(info.numpy)


def int_limits(name: str) -> tuple[int, int]:
    """(min, max) of an integer manifest dtype; NumPy's iinfo does not know ml_dtypes' int4."""
    import numpy as np

    info = DTYPES[name]
    if info.kind == "uint" and info.per_byte > 1:     # uint1: the bits of one value
        return 0, (1 << (8 // info.per_byte)) - 1
    if info.numpy in ML_DTYPES:
        import ml_dtypes

        limits = ml_dtypes.iinfo(numpy_dtype(name))
    else:
        limits = np.iinfo(info.numpy)
    return int(limits.min), int(limits.max)


# Other spellings users write (msopgen JSON, PyTorch habits) mapped to the manifest spelling.
DTYPE_ALIASES = {
    "float": "float32", "fp32": "float32", "half": "float16", "fp16": "float16",
    "bf16": "bfloat16", "int": "int32", "double": "float64", "fp64": "float64",
}

# ge::Format enumerators (graph/types.h) by manifest spelling.
FORMATS: dict[str, int] = {
    "NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "NCDHW": 30, "NDHWC": 27,
    "FRACTAL_NZ": 29, "NDC1HWC0": 32, "FRACTAL_Z_3D": 33,
}

PARAM_TYPES = ("required", "optional", "dynamic")

# Attribute types as the manifest spells them -> msopgen's prototype-JSON spelling (op_gen's
# config/transform.json IR_ATTR_TYPE_MAP; msopgen drops any other spelling with only a warning).
ATTR_TYPES: dict[str, str] = {
    "bool": "bool", "int": "int", "float": "float", "str": "string",
    "list_int": "list_int", "list_float": "list_float", "list_bool": "list_bool",
}


def snake_case(op_type: str) -> str:
    """CANN's kernel entry name for an op type: 'LayerNormCustom' -> 'layer_norm_custom'."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", op_type)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


@dataclass(frozen=True)
class TensorSpec:
    """One input or output of an operator prototype. dtypes/formats are matched by position
    across all tensors (msopgen's rule): variant i uses dtypes[i] of every tensor."""

    name: str
    dtypes: tuple[str, ...]
    formats: tuple[str, ...] = ("ND",)
    param_type: str = "required"

    def format_at(self, i: int) -> str:
        return self.formats[i] if len(self.formats) > 1 else self.formats[0]


@dataclass(frozen=True)
class AttrSpec:
    name: str
    type: str                 # a key of ATTR_TYPES
    default: Any = None
    required: bool = False


@dataclass(frozen=True)
class Variant:
    """One dtype variant of an operator: the kernel is compiled once per variant."""

    index: int
    dtypes: tuple[tuple[str, str], ...]   # (tensor name, dtype), inputs then outputs
    formats: tuple[tuple[str, str], ...]  # (tensor name, format), same order
    name: str                             # unique among the op's variants (variant_names)

    def dtype_of(self, tensor: str) -> str:
        return dict(self.dtypes)[tensor]


class DuplicateVariant(ValueError):
    """Two dtype combinations of one prototype are the same in every tensor's dtype and
    format: one kernel would be built for both, so the prototype is rejected."""

    position = 0          # the later of the two positions


def _short_name(dtypes: tuple[tuple[str, str], ...]) -> str:
    """'float16' when every tensor shares one dtype, else the distinct dtypes in order."""
    return "_".join(dict.fromkeys(d for _, d in dtypes))


def variant_names(combos: list[tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]]
                  ) -> list[str]:
    """A name per (dtypes, formats) combination, unique and the same for the same prototype:
    the distinct dtypes in order ('float16_float32'), as long as no other combination has that
    name; combinations sharing one (RmsNorm: x float16 with gamma float32 or float16) each add
    the tensors whose dtype tells them apart ('float16_float32__gamma_float16'), then those
    whose format does. Identical combinations raise DuplicateVariant: one name for two kernels
    would lose one silently."""
    groups: dict[str, list[int]] = {}
    for i, (dtypes, _) in enumerate(combos):
        groups.setdefault(_short_name(dtypes), []).append(i)
    names = [""] * len(combos)
    for short, members in groups.items():
        if len(members) == 1:
            names[members[0]] = short
            continue
        tensors = [t for t, _ in combos[members[0]][0]]
        varies = [[k for k in range(len(tensors))
                   if len({combos[i][part][k][1] for i in members}) > 1] for part in (0, 1)]
        for i in members:
            parts = [f"{tensors[k]}_{combos[i][0][k][1]}" for k in varies[0]]
            parts += [f"{tensors[k]}_{combos[i][1][k][1]}" for k in varies[1]]
            names[i] = short + "__" + "_".join(parts)
        seen: dict[str, int] = {}
        for i in members:
            if names[i] in seen:
                e = DuplicateVariant(
                    f"dtype combinations {seen[names[i]]} and {i} are the same "
                    f"({', '.join(f'{t} {d}' for t, d in combos[i][0])}) in every format too")
                e.position = i
                raise e
            seen[names[i]] = i
    return names


@dataclass(frozen=True)
class OpSpec:
    """An operator prototype: what msopgen's JSON and an OpDef describe."""

    type: str
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    attrs: tuple[AttrSpec, ...] = ()
    # Per-SoC dtype/format lists (CANN's AICore().AddConfig(short, OpAICoreConfig)): (short SoC
    # name, inputs, outputs) replacing the tensors' lists on that SoC; other SoCs use the above.
    soc_configs: tuple[tuple[str, tuple[TensorSpec, ...], tuple[TensorSpec, ...]], ...] = ()
    # the kernel function's name when it is not snake_case(type): CANN's
    # ExtendCfgInfo("opInterface.value", ...) (ops-nn's MaxPool3DGradWithArgmax is
    # max_pool3d_grad_with_argmax, where snake_case gives max_pool3_d_grad_with_argmax)
    interface: str = ""

    def for_soc(self, short: str) -> "OpSpec":
        """The prototype on SoCs of CANN short name `short`: its variants are what is built
        and verified there."""
        for name, inputs, outputs in self.soc_configs:
            if name == short:
                return OpSpec(self.type, inputs, outputs, self.attrs, interface=self.interface)
        return (OpSpec(self.type, self.inputs, self.outputs, self.attrs, interface=self.interface)
                if self.soc_configs else self)

    @property
    def kernel_name(self) -> str:
        return self.interface or snake_case(self.type)

    @property
    def tensors(self) -> tuple[TensorSpec, ...]:
        return self.inputs + self.outputs

    @property
    def ref_outputs(self) -> tuple[str, ...]:
        """Outputs named like an input: CANN's ref tensors (a rewritten input), one buffer that
        the kernel gets at both positions."""
        names = {t.name for t in self.inputs}
        return tuple(t.name for t in self.outputs if t.name in names)

    def variants(self) -> tuple[Variant, ...]:
        """One per position of the dtype lists, each with its unique name (variant_names;
        DuplicateVariant when two positions are the same combination)."""
        count = max(len(t.dtypes) for t in self.tensors)
        combos = [(tuple((t.name, t.dtypes[i if len(t.dtypes) > 1 else 0]) for t in self.tensors),
                   tuple((t.name, t.format_at(i)) for t in self.tensors)) for i in range(count)]
        return tuple(Variant(i, dtypes, formats, name) for i, ((dtypes, formats), name)
                     in enumerate(zip(combos, variant_names(combos))))

    def every_variant(self) -> tuple[Variant, ...]:
        """The variants of the op's own lists, then those only a SoC config has (by name: what
        a `per_variant` value is given for)."""
        seen: dict[str, Variant] = {}
        for o in [self] + [self.for_soc(short) for short, _, _ in self.soc_configs]:
            for v in o.variants():
                seen.setdefault(v.name, v)
        return tuple(seen.values())

    def variant(self, name: str) -> Variant:
        for v in self.variants():
            if v.name == name:
                return v
        raise KeyError(name)

    def to_json(self) -> dict:
        data = {
            "type": self.type,
            "inputs": [_tensor_json(t) for t in self.inputs],
            "outputs": [_tensor_json(t) for t in self.outputs],
            "attrs": [{"name": a.name, "type": a.type, "default": a.default,
                       "required": a.required} for a in self.attrs],
        }
        if self.soc_configs:   # absent otherwise: the JSON (and so step identities) stay as before
            data["soc_configs"] = {name: {"inputs": [_tensor_json(t) for t in ins],
                                          "outputs": [_tensor_json(t) for t in outs]}
                                   for name, ins, outs in self.soc_configs}
        if self.interface:     # likewise
            data["interface"] = self.interface
        return data

    @classmethod
    def from_json(cls, data: dict) -> "OpSpec":
        return cls(
            type=data["type"],
            inputs=tuple(_tensor_from(t) for t in data["inputs"]),
            outputs=tuple(_tensor_from(t) for t in data["outputs"]),
            attrs=tuple(AttrSpec(**a) for a in data.get("attrs", ())),
            soc_configs=tuple((name, tuple(_tensor_from(t) for t in c["inputs"]),
                               tuple(_tensor_from(t) for t in c["outputs"]))
                              for name, c in (data.get("soc_configs") or {}).items()),
            interface=data.get("interface", ""),
        )


def _tensor_json(t: TensorSpec) -> dict:
    return {"name": t.name, "dtypes": list(t.dtypes), "formats": list(t.formats),
            "param_type": t.param_type}


def _tensor_from(d: dict) -> TensorSpec:
    return TensorSpec(d["name"], tuple(d["dtypes"]), tuple(d["formats"]), d["param_type"])


@dataclass(frozen=True)
class SocInfo:
    """One Ascend SoC as the toolchains and the sim see it (row of toolchains/socs.yaml).

    A value that is not known is None, never a guess; code that needs it says so.
    """

    name: str                     # Ascend910B1
    short: str                    # CANN's short SoC version: ascend910b
    family: str                   # build family: c220, m200, m300, c100, c310
    npu_arch: int                 # __NPU_ARCH__: 2201, 2002, 3002, 1001
    vec_arch: str | None          # bisheng --cce-aicore-arch for vector kernels
    cube_arch: str | None
    ub_bytes: int                 # Unified Buffer per core
    vector_cores: int | None
    cube_cores: int | None
    l1_bytes: int | None = None
    # Kernel profile model inputs (docs/profile.md); None = not publicly known, no estimate.
    gm_bandwidth_gbps: float | None = None       # GM (HBM/DDR) bandwidth of the chip, GB/s (1e9 B/s)
    clock_ghz: float | None = None               # AI core clock
    vector_bytes_per_cycle: float | None = None  # vector unit throughput per core
    # Cube buffers per core (the sim's cube_mem.h); None = not in the table.
    l0a_bytes: int | None = None
    l0b_bytes: int | None = None
    l0c_bytes: int | None = None
    bt_bytes: int | None = None                  # bias table
    fb_bytes: int | None = None                  # fixpipe buffer's quantisation part
    l2_bytes: int | None = None                  # the chip's L2 cache (GetCoreMemSize(L2))
    arch_dir: str | None = None                  # arch35: op_host/arch35/, op_kernel/arch35/
    vreg_bytes: int | None = None                # vector register width (VL) of the register API
    # sections of CANN's platform config ini beyond the fields above ({label: {key: value}}),
    # answered by GetPlatformRes (toolchains/socs.yaml `platform:`)
    platform: dict = field(default_factory=dict, compare=False)
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def block_dim_limit(self) -> int:
        """How many blocks a vector kernel can run in parallel (AIV cores, else AI cores)."""
        return self.vector_cores or self.cube_cores or 1

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in (
            "name", "short", "family", "npu_arch", "vec_arch", "cube_arch", "ub_bytes",
            "vector_cores", "cube_cores", "l1_bytes", "gm_bandwidth_gbps", "clock_ghz",
            "vector_bytes_per_cycle", "l0a_bytes", "l0b_bytes", "l0c_bytes", "bt_bytes", "fb_bytes", "l2_bytes")} | (
            {"platform": self.platform} if self.platform else {})   # absent: the JSON of other SoCs stays

    @classmethod
    def from_json(cls, data: dict) -> "SocInfo":
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class SimModes:
    """Runtime switches of sim verification. The same kernel libraries run (nothing
    recompiles); the verification step's identity includes the modes, so results of different
    modes never mix."""

    sync_check: bool = False      # also fail on intra-core pipeline hazards (--sync-check)
    lenient_copy: bool = False    # ragged DataCopy lengths truncate as on the device (--lenient-copy)
    strict_bounds: bool = False   # GM accesses inside each tensor, not its padded allocation; UB ones inside the LocalTensor (--strict-bounds)

    def __or__(self, other: SimModes) -> SimModes:
        return SimModes(**{f.name: getattr(self, f.name) or getattr(other, f.name) for f in fields(self)})

    def to_json(self) -> dict[str, bool]:
        """Only the modes that are on: the default modes add nothing to a job or a key."""
        return {k: True for k, v in asdict(self).items() if v}

    @classmethod
    def from_json(cls, data: dict | None) -> SimModes:
        return cls(**{f.name: bool((data or {}).get(f.name)) for f in fields(cls)})
