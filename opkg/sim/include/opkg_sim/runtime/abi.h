// The C ABI between opkg's Python runtime (opkg/sim/abi.py mirrors these structs with ctypes)
// and the generated host/kernel entry points. Bump OPKG_SIM_ABI on any layout change.
#ifndef OPKG_SIM_ABI_H
#define OPKG_SIM_ABI_H
#include <cstdint>

#define OPKG_SIM_ABI 8
#define OPKG_SIM_EXPORT __attribute__((visibility("default")))
#define OPKG_SIM_MAX_DIMS 8
#define OPKG_SIM_MAX_WORKSPACES 16
// OpkgKernelLaunch.flags
#define OPKG_SIM_LAUNCH_SYNC_CHECK 1u   // check intra-core pipeline hazards (hazard.h)
#define OPKG_SIM_LAUNCH_LENIENT_COPY 2u // DataCopy truncates ragged lengths as the hardware does
#define OPKG_SIM_LAUNCH_STRICT_BOUNDS 4u // GM accesses must stay inside each tensor, not its allocation
// GM buffers (opkg/sim/gm.py): inaccessible guard pages of this many bytes around each buffer,
// and canary bytes between a buffer's first page and its start
#define OPKG_SIM_GM_GUARD (1u << 20)
#define OPKG_SIM_GM_CANARY 0xA5
#define OPKG_SIM_MAX_VEC_KINDS 48
#define OPKG_SIM_COPY_BUCKETS 5     // copy sizes: <512 B, <2 KiB, <8 KiB, <32 KiB, larger

extern "C" {

// Where and why something failed; filled by the entry points, read by runtime.py.
struct OpkgError {
    int32_t kind;        // 0 none, 1 rule violation / API misuse, 2 ASSERT, 3 tiling failure, 4 internal
    int32_t line;        // 0 = unknown
    int32_t block;       // -1 = not inside a block (host side)
    int32_t block_dim;
    char file[1024];
    char message[16384];
};

struct OpkgTensorDesc {
    const char* name;
    int32_t present;     // 0: optional input not given
    int32_t dtype;       // ge::DataType value
    int32_t format;      // ge::Format value
    int32_t ndim;
    int64_t dims[OPKG_SIM_MAX_DIMS];
    const void* data;    // the input's values, offered to tiling only for ValueDepend inputs
    uint64_t data_bytes;
};

// kind: 0 unset, 1 bool, 2 int, 3 float, 4 str, 5 list_int, 6 list_float, 7 list_bool
struct OpkgAttrValue {
    const char* name;
    int32_t kind;
    int32_t count;
    int64_t i;
    double f;
    const char* s;
    const int64_t* ints;
    const double* floats;
};

struct OpkgPlatform {
    const char* soc_version;   // Ascend910B1
    const char* short_soc;     // ascend910b
    uint32_t npu_arch;
    uint32_t aiv_cores;
    uint32_t aic_cores;
    uint32_t lib_workspace;    // GetLibApiWorkSpaceSize
    uint64_t ub_bytes;
    uint64_t l1_bytes;         // 0 = unknown
    uint64_t l0a_bytes;        // 0 = unknown (as the next two)
    uint64_t l0b_bytes;
    uint64_t l0c_bytes;
    uint64_t l2_bytes;         // 0 = unknown
    const char* platform_res;  // more platform-config entries, "Label\tkey\tvalue\n" each (null: none)
};

struct OpkgTilingResult {
    uint32_t block_dim;
    uint32_t workspace_count;
    uint64_t tiling_key;
    uint64_t tiling_size;
    uint64_t workspaces[OPKG_SIM_MAX_WORKSPACES];
    uint32_t schedule_mode;
    uint32_t reserved;
};

struct OpkgGmArg {
    uint8_t* ptr;
    uint64_t bytes;
    const char* name;
    uint32_t undefined;        // 1: starts with undefined contents (outputs, workspace): reads of
                               // bytes no store wrote yet are reported
    uint32_t canary;           // bytes before ptr holding OPKG_SIM_GM_CANARY, checked after the run
    uint64_t alloc;            // the allocation: bytes rounded up to 32, plus 32 (0: just bytes)
    uint8_t* written;          // undefined buffers: the caller's zeroed shadow of alloc bytes, set
                               // to 1 where a store put a defined value (null: the runtime's own)
};

// Kernel profile (docs/profile.md): what one block moved and computed, counted per API call.
struct OpkgVecKind {
    char name[24];       // the Ascend C API: "Add", "Exp", "ReduceSum", ...
    uint64_t calls;
    uint64_t elements;   // elements computed (level-0: selected by the mask, times the repeats)
    uint64_t bytes;      // elements x element size (Cast: the wider of source and destination)
    uint64_t repeats;    // 256-byte repeats issued (level-0: repeatTimes; count form: rounded up)
};

struct OpkgBlockProfile {
    uint64_t gm_read_bytes;
    uint64_t gm_write_bytes;
    uint64_t copies[3];        // by direction: 0 GM->UB, 1 UB->GM, 2 UB->UB (DataCopy / DataCopyPad calls)
    uint64_t copy_bytes[3];
    uint64_t copy_hist[3][OPKG_SIM_COPY_BUCKETS];
    uint64_t max_copy_bytes;   // the largest GM<->UB copy: the tile size
    uint64_t ub_alloc_bytes;   // peak UB that TPipe::InitBuffer carved
    uint64_t ub_touched_bytes; // highest UB offset written, plus one
    uint32_t queues;           // TQue/TQueBind InitBuffer calls
    uint32_t min_queue_buffers;   // fewest buffers (BUFFER_NUM) any queue got; 0 = no queue
    uint32_t max_queue_buffers;
    uint32_t vec_kinds;        // entries used in vec
    uint64_t vec_other_calls;  // calls of kinds past OPKG_SIM_MAX_VEC_KINDS (counted, not named)
    OpkgVecKind vec[OPKG_SIM_MAX_VEC_KINDS];
    uint64_t cube_flops;       // 2 x m x n x k per Mmad and per high-level Matmul share computed
    uint64_t cube_calls;       // Mmad calls and Matmul share computations
};

struct OpkgKernelLaunch {
    uint32_t abi;
    uint32_t block_dim;
    uint64_t tiling_key;
    uint64_t ub_bytes;
    uint64_t sys_workspace;    // bytes at the start of the workspace reserved for the library
    uint32_t arg_count;        // inputs, outputs, workspace, tiling (kernel parameter order)
    uint32_t extra_regions;    // args[arg_count...] are further GM buffers the kernel may reach
                               // only through pointers (the tensors of a dynamic input's list)
    const OpkgGmArg* args;
    char* log;                 // kernel printf output, NUL-terminated
    uint64_t log_cap;
    uint32_t flags;            // OPKG_SIM_LAUNCH_* bits
    uint32_t cores;            // the SoC's cores: blockDim above it runs in waves (no SyncAll then)
    OpkgBlockProfile* profile; // block_dim entries filled per block, or null
    // The cube unit's buffers (cube_mem.h), bytes per core from the SoC table; 0 = unknown.
    uint64_t l1_bytes;
    uint64_t l0a_bytes;
    uint64_t l0b_bytes;
    uint64_t l0c_bytes;
    uint64_t bt_bytes;         // bias table (C2 on A2/A3 and 310B)
    uint64_t fb_bytes;         // fixpipe buffer's quantisation part (C2PIPE2GM)
};

}  // extern "C"

namespace opkg_sim {
// OpkgError.kind values. FAIL_REFUSED: the operator's own TilingParse or tiling function
// returned failure (it refused the case), where FAIL_TILING is the sim's or a rule's.
enum FailKind { FAIL_RULE = 1, FAIL_ASSERT = 2, FAIL_TILING = 3, FAIL_INTERNAL = 4, FAIL_REFUSED = 5 };
}
#endif
