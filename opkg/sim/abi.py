"""ctypes mirror of include/opkg_sim/runtime/abi.h: the structs the generated entry points exchange
with `runtime.py`. Keep the two files in step (OPKG_SIM_ABI guards against drift)."""

from __future__ import annotations

import ctypes as C

ABI_VERSION = 8
LAUNCH_SYNC_CHECK = 1   # OpkgKernelLaunch.flags bit: check intra-core pipeline hazards
LAUNCH_LENIENT_COPY = 2  # ... DataCopy truncates a ragged length to whole 32-byte blocks
LAUNCH_STRICT_BOUNDS = 4  # ... GM accesses must stay inside each tensor, not its allocation
GM_GUARD = 1 << 20       # inaccessible bytes around each GM buffer (opkg/sim/gm.py)
GM_CANARY = 0xA5         # the bytes between a buffer's first page and its start
MAX_DIMS = 8
MAX_WORKSPACES = 16
MAX_VEC_KINDS = 48
COPY_BUCKETS = 5

# OpkgError.kind; KIND_REFUSED: the operator's own TilingParse or tiling function returned
# failure (the sim's host checks are KIND_TILING)
KIND_RULE, KIND_ASSERT, KIND_TILING, KIND_INTERNAL, KIND_REFUSED = 1, 2, 3, 4, 5

# OpkgAttrValue.kind by manifest attr type
ATTR_KINDS = {"bool": 1, "int": 2, "float": 3, "str": 4, "list_int": 5, "list_float": 6, "list_bool": 7}


class OpkgError(C.Structure):
    _fields_ = [
        ("kind", C.c_int32),
        ("line", C.c_int32),
        ("block", C.c_int32),
        ("block_dim", C.c_int32),
        ("file", C.c_char * 1024),
        ("message", C.c_char * 16384),
    ]


class OpkgTensorDesc(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("present", C.c_int32),
        ("dtype", C.c_int32),
        ("format", C.c_int32),
        ("ndim", C.c_int32),
        ("dims", C.c_int64 * MAX_DIMS),
        ("data", C.c_void_p),
        ("data_bytes", C.c_uint64),
    ]


class OpkgAttrValue(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("kind", C.c_int32),
        ("count", C.c_int32),
        ("i", C.c_int64),
        ("f", C.c_double),
        ("s", C.c_char_p),
        ("ints", C.POINTER(C.c_int64)),
        ("floats", C.POINTER(C.c_double)),
    ]


class OpkgPlatform(C.Structure):
    _fields_ = [
        ("soc_version", C.c_char_p),
        ("short_soc", C.c_char_p),
        ("npu_arch", C.c_uint32),
        ("aiv_cores", C.c_uint32),
        ("aic_cores", C.c_uint32),
        ("lib_workspace", C.c_uint32),
        ("ub_bytes", C.c_uint64),
        ("l1_bytes", C.c_uint64),
        ("l0a_bytes", C.c_uint64),
        ("l0b_bytes", C.c_uint64),
        ("l0c_bytes", C.c_uint64),
        ("l2_bytes", C.c_uint64),
        ("platform_res", C.c_char_p),
    ]


class OpkgTilingResult(C.Structure):
    _fields_ = [
        ("block_dim", C.c_uint32),
        ("workspace_count", C.c_uint32),
        ("tiling_key", C.c_uint64),
        ("tiling_size", C.c_uint64),
        ("workspaces", C.c_uint64 * MAX_WORKSPACES),
        ("schedule_mode", C.c_uint32),
        ("reserved", C.c_uint32),
    ]


class OpkgGmArg(C.Structure):
    _fields_ = [("ptr", C.c_void_p), ("bytes", C.c_uint64), ("name", C.c_char_p),
                ("undefined", C.c_uint32), ("canary", C.c_uint32), ("alloc", C.c_uint64),
                ("written", C.c_void_p)]


class OpkgVecKind(C.Structure):
    _fields_ = [
        ("name", C.c_char * 24),
        ("calls", C.c_uint64),
        ("elements", C.c_uint64),
        ("bytes", C.c_uint64),
        ("repeats", C.c_uint64),
    ]


class OpkgBlockProfile(C.Structure):
    _fields_ = [
        ("gm_read_bytes", C.c_uint64),
        ("gm_write_bytes", C.c_uint64),
        ("copies", C.c_uint64 * 3),
        ("copy_bytes", C.c_uint64 * 3),
        ("copy_hist", (C.c_uint64 * COPY_BUCKETS) * 3),
        ("max_copy_bytes", C.c_uint64),
        ("ub_alloc_bytes", C.c_uint64),
        ("ub_touched_bytes", C.c_uint64),
        ("queues", C.c_uint32),
        ("min_queue_buffers", C.c_uint32),
        ("max_queue_buffers", C.c_uint32),
        ("vec_kinds", C.c_uint32),
        ("vec_other_calls", C.c_uint64),
        ("vec", OpkgVecKind * MAX_VEC_KINDS),
        ("cube_flops", C.c_uint64),
        ("cube_calls", C.c_uint64),
    ]


class OpkgKernelLaunch(C.Structure):
    _fields_ = [
        ("abi", C.c_uint32),
        ("block_dim", C.c_uint32),
        ("tiling_key", C.c_uint64),
        ("ub_bytes", C.c_uint64),
        ("sys_workspace", C.c_uint64),
        ("arg_count", C.c_uint32),
        ("extra_regions", C.c_uint32),
        ("args", C.POINTER(OpkgGmArg)),
        ("log", C.c_void_p),
        ("log_cap", C.c_uint64),
        ("flags", C.c_uint32),
        ("cores", C.c_uint32),
        ("profile", C.POINTER(OpkgBlockProfile)),
        ("l1_bytes", C.c_uint64),
        ("l0a_bytes", C.c_uint64),
        ("l0b_bytes", C.c_uint64),
        ("l0c_bytes", C.c_uint64),
        ("bt_bytes", C.c_uint64),
        ("fb_bytes", C.c_uint64),
    ]


def bind_host(lib: C.CDLL) -> C.CDLL:
    lib.opkg_sim_host_abi.restype = C.c_int
    lib.opkg_sim_host_abi.argtypes = []
    lib.opkg_sim_host_op_type.restype = C.c_char_p
    lib.opkg_sim_host_op_type.argtypes = []
    lib.opkg_sim_host_prototypes.restype = C.c_char_p
    lib.opkg_sim_host_prototypes.argtypes = []
    lib.opkg_sim_host_infer_shape.restype = C.c_int
    lib.opkg_sim_host_infer_shape.argtypes = [
        C.POINTER(OpkgTensorDesc), C.c_uint32, C.POINTER(OpkgAttrValue), C.c_uint32,
        C.POINTER(OpkgTensorDesc), C.c_uint32, C.POINTER(OpkgError),
    ]
    lib.opkg_sim_host_tiling.restype = C.c_int
    lib.opkg_sim_host_tiling.argtypes = [
        C.POINTER(OpkgTensorDesc), C.c_uint32, C.POINTER(OpkgTensorDesc), C.c_uint32,
        C.POINTER(OpkgAttrValue), C.c_uint32, C.POINTER(OpkgPlatform), C.c_void_p, C.c_uint64,
        C.POINTER(OpkgTilingResult), C.POINTER(OpkgError),
    ]
    return lib


def bind_kernel(lib: C.CDLL) -> C.CDLL:
    lib.opkg_sim_kernel_abi.restype = C.c_int
    lib.opkg_sim_kernel_abi.argtypes = []
    lib.opkg_sim_kernel_op_type.restype = C.c_char_p
    lib.opkg_sim_kernel_op_type.argtypes = []
    lib.opkg_sim_kernel_run.restype = C.c_int
    lib.opkg_sim_kernel_run.argtypes = [C.POINTER(OpkgKernelLaunch), C.POINTER(OpkgError)]
    return lib
