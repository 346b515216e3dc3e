// Kernel-side emulation core: call-site locations, the failure exception, and the per-block
// state (block index, Unified Buffer arena, GM regions, log) that the Ascend C API consults.
// The generated kernel entry (templates/kernel_entry.cpp.j2) fills the state per block and
// turns Failure into an OpkgError at the C ABI boundary.
#ifndef OPKG_SIM_KCORE_H
#define OPKG_SIM_KCORE_H

#include <cstdint>
#include <cstdio>
#include <cstdarg>
#include <cstring>
#include <exception>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include "opkg_sim/runtime/abi.h"

// Non-template checking and bookkeeping (GM bounds, UB shadow, hazards, TPipe's carving, the
// error messages) is declared here and defined under OPKG_SIM_RUNTIME_TU, which only the block
// runner (src/kernel_runtime.cpp, one object per architecture) sets: a kernel object then
// optimises and emits only its own code and the templates it instantiates, not this machinery
// again. Call sites still pass their file:line (SrcLoc), so diagnostics are unchanged.

namespace opkg_sim {

// The caller's file:line, captured through a defaulted trailing parameter of each API call.
struct SrcLoc {
    const char* file;
    int line;
    static constexpr SrcLoc current(const char* f = __builtin_FILE(), int l = __builtin_LINE()) {
        return SrcLoc{f, l};
    }
};

struct Failure : std::exception {
    int kind;
    std::string file;
    int line;
    std::string message;
    Failure(int k, const char* f, int l, std::string m)
        : kind(k), file(f ? f : ""), line(l), message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
#ifdef OPKG_SIM_RUNTIME_TU
std::string format(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    va_list ap2;
    va_copy(ap2, ap);
    int n = std::vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    std::string out;
    if (n < (int)sizeof small) {
        out.assign(small, n > 0 ? n : 0);
    } else {
        out.resize(n + 1);
        std::vsnprintf(&out[0], n + 1, fmt, ap2);
        out.resize(n);
    }
    va_end(ap2);
    return out;
}
#endif

[[noreturn]] void fail(SrcLoc loc, std::string msg, int kind = FAIL_RULE);

// An access past a LocalTensor inside the UB (datacopy.h): the device's behaviour, warned once
// per call site; an error with --strict-bounds or past the UB.
void past_tensor(const void* ptr, uint64_t bytes, uint64_t held, const std::string& what, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
[[noreturn]] void fail(SrcLoc loc, std::string msg, int kind) {
    throw Failure(kind, loc.file, loc.line, std::move(msg));
}
#endif

// TPipe::InitBuffer does not check the UB size in a device build (CANN's checks are CPU-debug
// ASCENDC_ASSERTs), so a buffer may be set up past the end of the UB and the kernel only fails
// when it touches it. The sim's UB arena has this many inaccessible bytes after the UB for such
// buffers: an access faults and is reported naming the buffer (ub_beyond_note).
constexpr uint64_t UB_BEYOND = uint64_t(64) << 20;

// One UB allocation made by TPipe::InitBuffer, kept for overflow reports.
struct UbAlloc {
    std::string kind;     // "TQue<VECIN, depth 2>" / "TBuf<VECCALC>"
    uint32_t num;
    uint32_t len;         // rounded to 32 B
    uint64_t offset;
    const char* file;
    int line;
};

// One GM buffer as the device allocator (aclrtMalloc) hands it out: `bytes` of tensor, then
// padding up to `alloc` (rounded up to 32 bytes, plus 32) that the kernel may touch and that
// holds garbage.
struct GmRegion {
    const uint8_t* base;
    uint64_t bytes;
    const char* name;
    uint8_t* written = nullptr;   // outputs and workspace: one byte per GM byte of the allocation,
                                  // 1 once a store put a defined value there
    uint64_t alloc = 0;
    bool output = false;          // an output the kernel must write whole (no InitValue, not a ref)
    bool guarded = true;          // OPKG_SIM_GM_GUARD inaccessible bytes around it (opkg/sim/gm.py's
                                  // arena); the kernel's own static data has none: anything, a
                                  // thread's stack among it, may be mapped next to it
};

// One run of GM bytes a block wrote (without atomic add), for cross-block conflict checks.
struct GmWrite {
    const uint8_t* begin;
    const uint8_t* end;
    int64_t block;
    int64_t epoch;     // SyncAll barriers passed before the store; stores in different epochs are ordered
    SrcLoc loc;
    // Blocks on their own threads (SyncAll): the bytes as stored, since GM may hold another
    // block's by the time the launch ends. Empty when blocks run one after another, where GM
    // after each block holds its values.
    std::string values;
    // Which of its bytes the store took from UB bytes nothing wrote (1 a byte; empty: every byte
    // defined). Two blocks leaving different garbage in the same bytes is no race of values
    // (FinalValues): the bytes stay undefined, and a later use of them is reported.
    std::string undefined;
};

struct Barrier;
struct CrossCore;   // cross_core.h: the intra-AI-core flags of a split launch
struct CubeMem;   // cube_mem.h

// Where undefined values entered the computation: the instruction that first read UB bytes
// nothing wrote (or stale ones), or that loaded GM bytes holding garbage (allocator padding, an
// output or the workspace before any store).
enum OriginKind : uint8_t { ORIGIN_UB_UNWRITTEN, ORIGIN_UB_STALE, ORIGIN_GM_PADDING, ORIGIN_GM_UNWRITTEN,
                            ORIGIN_REG_UNSET /* a vector register read before anything wrote it (reg/) */ };
struct Origin {
    OriginKind kind;
    const char* op;
    const char* role;
    SrcLoc loc;
    uint64_t at;            // UB offset, or byte of the GM buffer
    const char* region;     // GM buffer name
    uint64_t region_bytes;
    uint64_t operand;       // UB offset of the operand read
};
// A UB operand the current instruction read that holds undefined bytes.
struct Taint {
    uint64_t off;           // UB offset
    uint64_t n;
    uint64_t snap;          // its shadow bytes start here in BlockState::taint_shadow
};

// The pipes of an AI Core that touch UB, as bits (a set of pipes is a mask). NONE: an access
// that orders itself (DumpTensor) and is not checked for hazards.
enum class Pipe : uint8_t { NONE = 0, S = 1, V = 2, MTE2 = 4, MTE3 = 8 };
struct SyncState;   // hazard.h: unordered accesses per UB byte, present only for --sync-check runs

// Thrown when block 0 reaches SyncAll while blocks run one after another: the launch is undone
// and rerun with every block on its own thread.
struct NeedConcurrent {};
// Thrown in blocks waiting at a barrier that can no longer complete (another block failed).
struct Aborted {};
// Thrown out of a body of a split launch that its AI core's declared task type does not start
// (a vector body of an AIC-only key, the cube body of a vector kernel): the body never ran.
struct LeaveBody {};

// An undefined value that LocalTensor::GetValue handed to scalar code. As with MemorySanitizer,
// loading it is not yet a use: a SetValue storing the same bits right after (a scalar move,
// `y.SetValue(j, x.GetValue(i))`) makes the destination undefined with the same origin. Any
// other API call first, or the kernel's return, reports it at the GetValue: the sim cannot
// follow the value through C++ code (a branch, an address, arithmetic).
struct PendingUse {
    bool active = false;
    uint8_t bits[8] = {};
    uint32_t size = 0;
    uint8_t origin = 0;        // the shadow value (origin) of its first undefined byte
    SrcLoc loc{nullptr, 0};
    std::string message;
};

// The call sites a launch has already warned about (past_tensor, datacopy.h): each warns once,
// whichever block gets there first, and blocks may run on threads of their own.
struct WarnedSites {
    std::mutex mu;
    std::vector<std::pair<std::string, int>> seen;
    bool first(SrcLoc loc) {
        std::lock_guard<std::mutex> lock(mu);
        std::pair<std::string, int> key(loc.file ? loc.file : "", loc.line);
        for (const auto& k : seen) {
            if (k == key) return false;
        }
        seen.push_back(std::move(key));
        return true;
    }
};

// One direction's loop-mode registers of the Ascend 950's DataCopyPad (SetLoopModePara): the copy
// runs size2 x size1 times, the src/dst moved by the strides (bytes) per iteration. Reset = 1 x 1.
struct CopyLoopMode {
    uint32_t size1 = 1, size2 = 1;
    uint64_t src1 = 0, dst1 = 0, src2 = 0, dst2 = 0;
    SrcLoc set{nullptr, 0};   // the SetLoopModePara that left it on
    bool normal() const { return size1 == 1 && size2 == 1; }
};

struct BlockState {
    int64_t idx = 0;
    int64_t num = 1;
    int64_t cores = 0;         // the SoC's cores (0 = unknown)
    uint8_t* ub = nullptr;
    uint8_t* shadow = nullptr;  // one byte per UB byte: nonzero once something wrote it in this block
    uint64_t ub_bytes = 0;
    uint64_t ub_cursor = 0;
    uint64_t ub_high = 0;      // highest UB offset any buffer reached: what the next block must reset
    std::vector<UbAlloc> allocs;
    std::vector<GmRegion> gm;
    uint64_t tiling_key = 0;
    uint64_t sys_workspace = 0;
    uint8_t* sys_workspace_ptr = nullptr;   // g_sysWorkspaceReserved: SetSysWorkspace's, per block
    std::string* log = nullptr;
    bool active = false;
    void* pipe = nullptr;      // the block's first live TPipe (GetTPipePtr)
    SrcLoc last{nullptr, 0};   // the latest checked API call, named if the kernel then crashes
    std::vector<GmWrite>* writes = nullptr;   // this block's GM stores
    std::vector<std::pair<uint8_t*, std::string>>* undo = nullptr;   // old GM bytes, block 0 only
    Barrier* barrier = nullptr;               // set when blocks run concurrently
    int64_t epoch = 0;
    int atomic = 0;            // SetAtomicAdd<T>: a code for T; 0 = plain stores
    const char* atomic_type = "";
    int atomic_op = 0;         // what an atomic store does: 0 add, 1 max, 2 min (SetAtomicAdd/Max/Min)
    bool mask_counter = false; // the vector mask register: counter mode (SetMaskCount) holds a count in mask_lo
    bool hf32 = false;         // SetHF32Mode: float Mmad inputs rounded to HF32 (11 mantissa bits)
    bool hf32_ties_away = false;  // SetHF32TransMode(NEAREST_ZERO): ties away from zero, else to even (cube_gemm.h hf32_of)
    uint64_t mask_lo = ~0ull, mask_hi = ~0ull;   // ResetMask's value: every lane
    uint64_t max_min_cnt = 0;  // vcmax/vcmin's value (low bits) and index (high 32 bits), GetReduceMaxMinCount
    bool max_min_set = false;
    // Scalar registers of the cast, compare and sort APIs (vector_cast_ops.h, sort.h); undefined until set.
    double deq_scale = 0;      // DEQSCALE (SetDeqScale(half))
    bool deq_set = false;
    uint8_t cmp_mask[16] = {}; // CMPMASK: 128 bits
    bool cmp_set = false;
    uint64_t acc_val = 0;      // the count-form ReduceSum's result bits (GetAccVal)
    bool acc_set = false;
    uint16_t mrg_sort[4] = {}; // VMS4_SR: records each list gave the last merge (GetMrgSortResult)
    SrcLoc held{nullptr, 0};   // a queue tensor still allocated when its queue went away
    std::string held_message;
    bool lenient_copy = false; // --lenient-copy: ragged DataCopy lengths truncate, as on the device
    int truncations = 0;       // lenient truncations logged so far in this block
    SyncState* sync = nullptr; // set when the launch asked for --sync-check (hazard.h)
    OpkgBlockProfile prof{};   // profile counters (count_copy / count_vec / count_queue)
    uint64_t pad_value = 0;    // DataCopyPad's padding register (SetPadValue, or isPad's paddingValue)
    bool pad_value_set = false;
    CopyLoopMode loop_out_ub, loop_ub_out;   // DataCopyMVType::OUT_TO_UB / UB_TO_OUT
    int64_t ctrl = 0x1000000000000008;       // the 950's CTRL register (SetCtrlSpr), at its reset value
    uint64_t ffts_base = 0;    // the FFTS base address register (SetSyncBaseAddr / set_ffts_base_addr)
    bool strict_bounds = false; // --strict-bounds: GM accesses inside the tensor, not its allocation; UB ones inside the LocalTensor
    WarnedSites* warned = nullptr;   // the launch's, for warnings given once per call site
    // Definedness (see check_read): where undefined values came from, and the operands of the
    // current instruction that carried some (their shadow bytes, copied when read).
    std::vector<Origin> origins;
    std::vector<Taint> taints;
    std::vector<uint8_t> taint_shadow;
    bool taint_done = false;   // the instruction's results were written: the next read starts anew
    uint64_t clean_off = UINT64_MAX, clean_n = 0;   // the last check_read, when all its bytes were defined
    PendingUse pending;        // an undefined GetValue result not yet moved or used
    // Compare masks hold one bit per element, finer than the byte shadow: for a mask byte with
    // some undefined bits, 0x100 | the defined bits (0: no such byte). Set by Compare, read by
    // Select, cleared by any other write (mark_written); empty until the block's first Compare.
    std::vector<uint16_t> mask_bits;
    uint64_t cube_caps[6] = {};       // L1, L0A, L0B, L0C, bias table, fixpipe buffer bytes (0 = unknown), cube_mem.h
    std::shared_ptr<CubeMem> cube;    // the block's cube buffers, made by its first cube InitBuffer
    int64_t ration = 1;        // AIV cores per AI core the kernel runs on (2: a mixed AIC/AIV kernel)
    int32_t core = 2;          // the core the body runs as: AIV (2), or AIC (1) (runtime/core_by_task_type.h)
    // Where the body runs, as the devkit's GetBlockIdx/GetSubBlockIdx read it: its AI core (the
    // cube body's GetBlockIdx) and its AIV index inside it; ai_cores is GetBlockNum.
    int64_t ai_core = 0;
    int64_t sub = 0;
    int64_t ai_cores = 1;
    // A split launch (a kernel compiled with core_by_task_type.h on A2/A3): every AI core runs
    // its cube body and two vector bodies; the declared task type decides which of them the device
    // starts. `task_type` is the type declared so far (-1: none yet), `type_open` holds until the
    // body's first API call fixes it (fix_task_type), `member` is whether the device starts it.
    bool split = false;
    bool type_open = false;
    bool member = true;
    int32_t task_type = -1;
    CrossCore* cross = nullptr;   // split launches running concurrently: the AI cores' flag counters
    // Whose GM stores these are for the cross-block race checks: the block, or in a split launch
    // its AI core (the bodies of one AI core order their stores by their cross-core flags, which
    // the race checks do not follow; stores of different AI cores are checked as blocks' are).
    int64_t store_id = 0;
};

// The kernel's task ration: 2 when it is a mixed kernel on A2/A3 (hl_matmul.h sets it as the
// kernel library loads), whose body runs on both AIV cores of each of blockDim AI cores.
inline int& kernel_task_ration() {
    static int ration = 1;
    return ration;
}
// Whether the kernel runs split (cube and vector bodies per AI core): set as the library loads by
// runtime/core_by_task_type.h, which A2/A3 kernels that declare task types or test the core
// type are compiled with: 1 always, 2 when the kernel is mixed (kernel_task_ration() 2), 0 never.
inline int& kernel_split_cores() {
    static int split = 0;
    return split;
}

// The calling thread's block state. The state itself (a thread_local with a constructor and a
// destructor) lives in the block runner; every inlined call here only tests a constant-initialised
// pointer, instead of carrying BlockState's construction and guard into each API call.
BlockState& thread_block_state();
#ifdef OPKG_SIM_RUNTIME_TU
BlockState& thread_block_state() {
    static thread_local BlockState state;
    return state;
}
#endif

inline BlockState& block() {
    static thread_local BlockState* state = nullptr;
    if (__builtin_expect(state == nullptr, 0)) state = &thread_block_state();
    return *state;
}

inline void clear_taints(BlockState& b) {
    b.taints.clear();
    b.taint_shadow.clear();
    b.taint_done = false;
}

// Records an API call site; cheap enough to do on every checked call. A call from another call
// site, or after the previous instruction wrote its results, starts a new instruction for
// definedness propagation (check_read / mark_written).
void report_pending(BlockState& b);
#ifdef OPKG_SIM_RUNTIME_TU
void report_pending(BlockState& b) {
    b.pending.active = false;
    fail(b.pending.loc, b.pending.message);
}
#endif

// The body's task type is fixed by its first API call (core_by_task_type.h); defined in the runtime.
void fix_task_type(BlockState& b);
// Where a body of a split launch runs under task type `t` (a KernelMetaType value), and whether
// the device starts it (BlockState::member). The vector bodies are the launch's slots
// [0, 2 x blockDim), the cube bodies follow. As on the device: a vector-only type (AIV_ONLY,
// MIX_AIV_1_0) runs blockDim vector cores, GetBlockIdx 0..blockDim-1, and no cube body; a cube-only
// one (AIC_ONLY, MIX_AIC_1_0) the cube bodies alone; MIX_AIC_1_1 one vector core per AI core
// (GetTaskRation 1); MIX_AIC_1_2 both (devkit kernel_operator_sys_var_impl.h, GetBlockIdxImpl:
// block_idx * ration + sub_block_idx on an AIV, block_idx on the AIC).
void apply_task_type(BlockState& b, int t);
#ifdef OPKG_SIM_RUNTIME_TU
void apply_task_type(BlockState& b, int t) {
    enum { AIV_ONLY, AIC_ONLY, MIX_AIV_1_0, MIX_AIC_1_0, MIX_AIC_1_1, MIX_AIC_1_2, AICORE, VECTORCORE };
    const bool vector_only = t == AIV_ONLY || t == MIX_AIV_1_0 || t == VECTORCORE;
    const bool cube_only = t == AIC_ONLY || t == MIX_AIC_1_0;
    const int64_t n = b.ai_cores;
    b.task_type = t;
    b.ration = t == MIX_AIC_1_1 ? 1 : 2;
    if (b.core == 1) {   // the cube body of AI core idx - 2n
        b.ai_core = b.idx - 2 * n;
        b.sub = 0;
        b.member = !vector_only;
        b.num = n;
        return;
    }
    if (vector_only) {
        b.ai_core = b.idx;
        b.sub = 0;
        b.ration = 1;
        b.member = b.idx < n;
        b.num = n;
        return;
    }
    b.ai_core = b.idx / 2;
    b.sub = b.idx % 2;
    b.member = !cube_only && b.sub < b.ration;
    b.num = n * b.ration;
}
void fix_task_type(BlockState& b) {
    b.type_open = false;
    if (b.task_type < 0) apply_task_type(b, kernel_task_ration() > 1 ? 5 /* MIX_AIC_1_2 */ : 0 /* AIV_ONLY */);
    if (!b.member) throw LeaveBody{};
}
#endif

inline void note(SrcLoc loc) {
    BlockState& b = block();
    if (__builtin_expect(b.type_open, 0)) fix_task_type(b);
    if (b.pending.active) report_pending(b);
    if (!b.taints.empty() && (b.taint_done || loc.line != b.last.line || loc.file != b.last.file)) clear_taints(b);
    if (loc.file) b.last = loc;
    b.clean_off = UINT64_MAX;
}

inline const char* basename_of(const char* path) {
    const char* slash = std::strrchr(path ? path : "", '/');
    return slash ? slash + 1 : (path ? path : "");
}

// The bytes of a GM buffer a kernel may touch: its allocation, or with --strict-bounds only the
// tensor itself.
inline uint64_t gm_limit(const GmRegion& r, bool strict) {
    return strict || r.alloc < r.bytes ? r.bytes : r.alloc;
}

inline uint64_t gm_span(const GmRegion& r) { return r.alloc > r.bytes ? r.alloc : r.bytes; }

// Checks that [p, p+bytes) lies inside one GM buffer the kernel was given (the kernel's own
// static __gm__ data among them, see add_kernel_data_regions); returns the region.
const GmRegion* check_gm(const void* p, uint64_t bytes, const char* what, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
const GmRegion* check_gm(const void* p, uint64_t bytes, const char* what, SrcLoc loc) {
    BlockState& b = block();
    note(loc);
    if (b.gm.empty()) return nullptr;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    const GmRegion* near = nullptr;
    for (const GmRegion& r : b.gm) {
        if (q >= r.base && q <= r.base + gm_span(r)) {
            if (q + bytes <= r.base + gm_limit(r, b.strict_bounds)) return &r;
            near = &r;
            break;
        }
    }
    if (near && b.strict_bounds) {
        fail(loc, format("%s accesses GM bytes [%llu, %llu) of '%s', which has only %llu bytes (--strict-bounds; "
                         "the device allocation extends to byte %llu, so the hardware would read or write "
                         "allocator padding there)",
                         what, (unsigned long long)(q - near->base), (unsigned long long)(q - near->base + bytes),
                         near->name, (unsigned long long)near->bytes, (unsigned long long)gm_span(*near)));
    }
    if (near) {
        fail(loc, format("%s accesses GM bytes [%llu, %llu) of '%s', past its %llu-byte allocation (%llu bytes of "
                         "tensor, rounded up to 32 bytes plus 32 as the device allocator pads buffers); on the "
                         "device this touches whatever memory follows",
                         what, (unsigned long long)(q - near->base), (unsigned long long)(q - near->base + bytes),
                         near->name, (unsigned long long)gm_span(*near), (unsigned long long)near->bytes));
    }
    // name the buffer the access ran past (or before), the nearest one
    const GmRegion* before = nullptr;
    const GmRegion* after = nullptr;
    for (const GmRegion& r : b.gm) {
        if (r.base <= q && (!before || r.base > before->base)) before = &r;
        if (r.base > q && (!after || r.base < after->base)) after = &r;
    }
    uint64_t past = before ? uint64_t(q - (before->base + gm_span(*before))) : UINT64_MAX;
    uint64_t ahead = after ? uint64_t(after->base - q) : UINT64_MAX;
    std::string nearest = past <= ahead && before
        ? format(": %llu bytes past the end of the %llu-byte allocation of '%s'", (unsigned long long)past,
                 (unsigned long long)gm_span(*before), before->name)
        : after ? format(": %llu bytes before the start of '%s'", (unsigned long long)ahead, after->name) : "";
    fail(loc, format("%s accesses %llu GM bytes at %p, outside every buffer passed to the kernel "
                     "(inputs, outputs, workspace, tiling)%s", what, (unsigned long long)bytes, p, nearest.c_str()));
}
#endif

inline const GmRegion* region_of(const std::vector<GmRegion>& regions, const void* p) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (const GmRegion& r : regions) {
        if (q >= r.base && q < r.base + (r.alloc > r.bytes ? r.alloc : r.bytes)) return &r;
    }
    return nullptr;
}

inline const GmRegion* gm_region(const void* p) { return region_of(block().gm, p); }

void gm_defined(const void* p, uint64_t bytes);

void record_write(const void* p, uint64_t bytes, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void record_write(const void* p, uint64_t bytes, SrcLoc loc) {
    BlockState& b = block();
    gm_defined(p, bytes);
    if (!b.writes || bytes == 0) return;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    if (!b.writes->empty()) {
        GmWrite& last = b.writes->back();
        if (last.block == b.store_id && last.epoch == b.epoch && last.end == q) {   // sequential stores coalesce
            last.end = q + bytes;
            if (b.barrier) last.values.append(reinterpret_cast<const char*>(q), bytes);
            if (!last.undefined.empty()) last.undefined.append(bytes, '\0');
            return;
        }
    }
    // Read right after the store: another block storing to these bytes in between would hide a
    // difference, a window of a few instructions.
    b.writes->push_back(GmWrite{q, q + bytes, b.store_id, b.epoch, loc,
                                b.barrier ? std::string(reinterpret_cast<const char*>(q), bytes) : std::string()});
}
#endif

// Drops this block's stores to [p, p + bytes) since the last SyncAll from the cross-block
// conflict check: a soft SyncAll's flag words, which every block may zero (CANN's documented
// initialisation) and whose protocol tolerates the overlap.
void forget_writes(const void* p, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void forget_writes(const void* p, uint64_t bytes) {
    BlockState& b = block();
    if (!b.writes) return;
    const uint8_t* lo = static_cast<const uint8_t*>(p);
    const uint8_t* hi = lo + bytes;
    std::vector<GmWrite> kept;
    for (const GmWrite& w : *b.writes) {
        if (w.block != b.store_id || w.epoch != b.epoch || w.end <= lo || w.begin >= hi) {
            kept.push_back(w);
            continue;
        }
        // the kept parts keep their own stored bytes
        auto part = [&w](const uint8_t* a, const uint8_t* z) {
            return GmWrite{a, z, w.block, w.epoch, w.loc,
                           w.values.empty() ? std::string() : w.values.substr(size_t(a - w.begin), size_t(z - a)),
                           w.undefined.empty() ? std::string() : w.undefined.substr(size_t(a - w.begin), size_t(z - a))};
        };
        if (w.begin < lo) kept.push_back(part(w.begin, lo));
        if (w.end > hi) kept.push_back(part(hi, w.end));
    }
    b.writes->swap(kept);
}
#endif

// Keeps the bytes a GM store is about to overwrite, so that a launch can be undone.
void save_undo(void* p, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void save_undo(void* p, uint64_t bytes) {
    BlockState& b = block();
    if (b.undo && bytes) b.undo->emplace_back(static_cast<uint8_t*>(p), std::string(static_cast<const char*>(p), bytes));
}
#endif

// SyncAll across blocks running on their own threads. A block that returns while others wait
// can never release them: that is a hang on hardware and a failure here.
struct Barrier {
    std::mutex m;
    std::mutex atomics;   // SetAtomicAdd stores of blocks on their own threads: one at a time
    std::condition_variable cv;
    int64_t num = 0;
    int64_t arrived = 0;
    int64_t finished = 0;
    uint64_t generation = 0;
    bool aborted = false;
    int64_t deadlock_block = -1;     // the first block to return; names the culprit of a hang
    SrcLoc wait_loc{nullptr, 0};

    void arrive(SrcLoc loc) {
        std::unique_lock<std::mutex> lk(m);
        if (aborted) throw Aborted{};
        uint64_t gen = generation;
        if (++arrived == num) {
            arrived = 0;
            ++generation;
            cv.notify_all();
            return;
        }
        wait_loc = loc;
        check_stuck();
        cv.wait(lk, [&] { return generation != gen || aborted; });
        if (generation == gen) throw Aborted{};
    }
    void finish(int64_t idx) {
        std::lock_guard<std::mutex> lk(m);
        ++finished;
        if (deadlock_block < 0) deadlock_block = idx;   // only read when the barrier got stuck
        check_stuck();
    }
    void abort() {
        std::lock_guard<std::mutex> lk(m);
        aborted = true;
        cv.notify_all();
    }
    // A body the device never started (LeaveBody): the barrier waits for one block fewer.
    void leave() {
        std::lock_guard<std::mutex> lk(m);
        --num;
        if (arrived > 0 && arrived == num) {
            arrived = 0;
            ++generation;
            cv.notify_all();
            return;
        }
        check_stuck();
    }

private:
    void check_stuck() {
        if (arrived > 0 && arrived + finished == num) {
            aborted = true;
            cv.notify_all();
        }
    }
};

void sync_read(const uint8_t* p, uint64_t n, Pipe pipe, const char* op, const char* role, SrcLoc loc);
void sync_write(const uint8_t* p, uint64_t n, Pipe pipe, SrcLoc loc);

// Shadow byte values: what is known about a UB byte in this block.
enum : uint8_t { UB_UNWRITTEN = 0, UB_WRITTEN = 1, UB_STALE = 2 /* written, then its queue buffer handed out again */ };
// An undefined value (computed from, or loaded as, garbage): UB_POISON + 2 * its index in
// BlockState::origins. Even, so that mark_stale leaves it alone.
constexpr uint8_t UB_POISON = 4;
constexpr size_t MAX_ORIGINS = 126;   // later origins share the last slot

inline uint8_t add_origin(const Origin& o) {
    BlockState& b = block();
    if (b.origins.size() < MAX_ORIGINS) b.origins.push_back(o);
    return uint8_t(UB_POISON + 2 * (b.origins.size() - 1));
}

// The instruction's operands that held undefined bytes decide which of the n destination bytes
// at UB offset `off` are undefined: destination byte j depends on the same proportion of each
// operand (exact for element-wise instructions and casts, the whole source for a reduction).
inline void propagate(uint64_t off, uint64_t n) {
    BlockState& b = block();
    b.clean_off = UINT64_MAX;
    uint8_t* d = b.shadow + off;
    for (uint64_t j = 0; j < n; ++j) {
        uint8_t v = UB_WRITTEN;
        for (const Taint& t : b.taints) {
            uint64_t lo = j * t.n / n, hi = ((j + 1) * t.n + n - 1) / n;
            if (hi > t.n) hi = t.n;
            if (hi <= lo) hi = lo + 1 <= t.n ? lo + 1 : lo;
            const uint8_t* s = b.taint_shadow.data() + t.snap;
            for (uint64_t k = lo; k < hi; ++k) {
                if (s[k] != UB_WRITTEN) {
                    v = s[k];
                    break;
                }
            }
            if (v != UB_WRITTEN) break;
        }
        d[j] = v;
    }
}

// `pipe` is the pipe of the writing instruction (vector instructions unless said otherwise);
// the call site is the latest checked API call (every API checks its operands first). The
// bytes become defined, unless the instruction read undefined ones (check_read).
void mark_written(const void* p, uint64_t bytes, Pipe pipe = Pipe::V);
#ifdef OPKG_SIM_RUNTIME_TU
void mark_written(const void* p, uint64_t bytes, Pipe pipe) {
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    if (b.taints.empty()) std::memset(b.shadow + off, UB_WRITTEN, n);
    else propagate(off, n);
    if (!b.mask_bits.empty()) std::memset(b.mask_bits.data() + off, 0, n * sizeof(uint16_t));
    b.taint_done = true;
    if (off + n > b.prof.ub_touched_bytes) b.prof.ub_touched_bytes = off + n;
    if (b.sync) sync_write(b.ub + off, n, pipe, b.last);
}
#endif

// Profile counters (docs/profile.md). Each API call is counted once, by the copy or vector
// implementation it ends in; nothing here changes what the kernel computes.
enum CopyDir { COPY_GM_UB = 0, COPY_UB_GM = 1, COPY_UB_UB = 2 };

void count_copy(CopyDir dir, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void count_copy(CopyDir dir, uint64_t bytes) {
    OpkgBlockProfile& p = block().prof;
    static const uint64_t edges[OPKG_SIM_COPY_BUCKETS - 1] = {512, 2048, 8192, 32768};
    int bucket = 0;
    while (bucket < OPKG_SIM_COPY_BUCKETS - 1 && bytes >= edges[bucket]) ++bucket;
    p.copies[dir] += 1;
    p.copy_bytes[dir] += bytes;
    p.copy_hist[dir][bucket] += 1;
    if (dir == COPY_GM_UB) p.gm_read_bytes += bytes;
    if (dir == COPY_UB_GM) p.gm_write_bytes += bytes;
    if (dir != COPY_UB_UB && bytes > p.max_copy_bytes) p.max_copy_bytes = bytes;
}
#endif

void count_vec(const char* op, uint64_t elements, uint64_t bytes, uint64_t repeats);
#ifdef OPKG_SIM_RUNTIME_TU
void count_vec(const char* op, uint64_t elements, uint64_t bytes, uint64_t repeats) {
    OpkgBlockProfile& p = block().prof;
    uint32_t i = 0;
    while (i < p.vec_kinds && std::strncmp(p.vec[i].name, op, sizeof p.vec[i].name - 1) != 0) ++i;
    if (i == p.vec_kinds) {
        if (i == OPKG_SIM_MAX_VEC_KINDS) {
            p.vec_other_calls += 1;
            return;
        }
        std::strncpy(p.vec[i].name, op, sizeof p.vec[i].name - 1);
        ++p.vec_kinds;
    }
    p.vec[i].calls += 1;
    p.vec[i].elements += elements;
    p.vec[i].bytes += bytes;
    p.vec[i].repeats += repeats;
}
#endif

// Count-form (level-2) vector calls: repeats are the 256-byte repeats the API issues.
inline void count_vec(const char* op, uint64_t elements, uint64_t bytes) {
    count_vec(op, elements, bytes, (bytes + 255) / 256);
}

inline void count_queue(uint32_t buffers) {
    OpkgBlockProfile& p = block().prof;
    p.min_queue_buffers = p.queues == 0 || buffers < p.min_queue_buffers ? buffers : p.min_queue_buffers;
    if (buffers > p.max_queue_buffers) p.max_queue_buffers = buffers;
    p.queues += 1;
}

inline const UbAlloc* alloc_at(uint64_t off) {
    for (const UbAlloc& a : block().allocs) {
        if (off >= a.offset && off < a.offset + uint64_t(a.num) * a.len) return &a;
    }
    return nullptr;
}

// The first shadow byte in [s, s+n) that is not UB_WRITTEN, or nullptr.
inline const uint8_t* first_hole(const uint8_t* s, uint64_t n) {
    const uint64_t all_written = 0x0101010101010101ull * UB_WRITTEN;
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        std::memcpy(&w, s, 8);
        if (w != all_written) break;
    }
    for (; n; ++s, --n) {
        if (*s != UB_WRITTEN) return s;
    }
    return nullptr;
}

// Where an undefined value came from, in words.
std::string describe_origin(uint8_t v);
#ifdef OPKG_SIM_RUNTIME_TU
std::string describe_origin(uint8_t v) {
    BlockState& b = block();
    size_t i = (v - UB_POISON) / 2;
    if (v < UB_POISON || i >= b.origins.size()) return "undefined data";
    const Origin& o = b.origins[i];
    const char* file = o.loc.file ? o.loc.file : "?";
    switch (o.kind) {
        case ORIGIN_UB_UNWRITTEN:
        case ORIGIN_UB_STALE: {
            const UbAlloc* a = alloc_at(o.at);
            std::string where = a ? format(", of a %s set up at %s:%d", a->kind.c_str(), a->file ? a->file : "?", a->line) : "";
            return format("%s at %s:%d read %s bytes %s: UB byte %llu, %llu bytes into the operand at UB offset %llu%s",
                          o.op, file, o.loc.line, o.role,
                          o.kind == ORIGIN_UB_STALE
                              ? "that an earlier tile wrote and nothing wrote since AllocTensor handed this buffer "
                                "out again (the hardware would read the earlier tile's data)"
                              : "that nothing wrote in this block (the hardware would read stale data)",
                          (unsigned long long)o.at, (unsigned long long)(o.at - o.operand),
                          (unsigned long long)o.operand, where.c_str());
        }
        case ORIGIN_GM_PADDING:
            return format("%s at %s:%d loaded byte %llu of '%s', in the allocator padding after its %llu bytes (the "
                          "device allocator rounds a buffer up to 32 bytes and adds 32; the padding holds garbage)",
                          o.op, file, o.loc.line, (unsigned long long)o.at, o.region, (unsigned long long)o.region_bytes);
        case ORIGIN_GM_UNWRITTEN:
            return format("%s at %s:%d loaded byte %llu of '%s', which no block had written yet (device memory "
                          "starts with whatever it held before, not zeros)", o.op, file, o.loc.line,
                          (unsigned long long)o.at, o.region);
        case ORIGIN_REG_UNSET:
            return format("%s at %s:%d read a vector register that nothing had written (the device would compute "
                          "with whatever it held)", o.op, file, o.loc.line);
    }
    return "undefined data";
}
#endif

// Reads of an instruction's UB operand. Bytes nothing wrote in this block (or stale ones) are not
// an error by themselves, as with MemorySanitizer: they become undefined values, this read their
// origin, and the instruction's results computed from them are undefined too (mark_written).
// What is reported is an undefined value reaching GM (check_store), scalar code (check_use) or
// an address. Then, under --sync-check, checks the read against the other pipes.
void check_read(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
                Pipe pipe = Pipe::V);
#ifdef OPKG_SIM_RUNTIME_TU
void check_read(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
                Pipe pipe) {
    BlockState& b = block();
    if (!b.shadow || !bytes || pipe == Pipe::NONE) return;   // NONE: DumpTensor, whose reads feed nothing
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    if (b.taint_done) {                   // a read after the results were written: the next instruction
        if (!b.taints.empty()) clear_taints(b);
        b.taint_done = false;
    }
    uint8_t* s = b.shadow + off;
    const uint8_t* hole = first_hole(s, n);
    b.clean_off = hole ? UINT64_MAX : off;
    b.clean_n = n;
    if (hole) {
        uint8_t fresh = 0;
        for (uint64_t k = uint64_t(hole - s); k < n; ++k) {
            if (s[k] == UB_UNWRITTEN || s[k] == UB_STALE) {
                if (!fresh) {
                    fresh = add_origin(Origin{s[k] == UB_STALE ? ORIGIN_UB_STALE : ORIGIN_UB_UNWRITTEN, op, role, loc,
                                              off + k, nullptr, 0, off});
                }
                s[k] = fresh;
            }
        }
        b.taints.push_back(Taint{off, n, b.taint_shadow.size()});
        b.taint_shadow.insert(b.taint_shadow.end(), s, s + n);
    }
    if (b.sync && pipe != Pipe::NONE) sync_read(b.ub + off, n, pipe, op, role, loc);
}
#endif

// A read whose value scalar code uses (GetValue: a branch, a count, an address): an undefined
// value there is reported at once, naming where it came from.
void check_use(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
               Pipe pipe = Pipe::S);
#ifdef OPKG_SIM_RUNTIME_TU
void check_use(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
               Pipe pipe) {
    check_read(p, bytes, op, role, loc, pipe);
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    const uint8_t* hole = first_hole(b.shadow + off, n);
    if (!hole) return;
    fail(loc, format("%s reads %s at UB offset %llu that holds an undefined value: %s. Scalar code would use "
                     "garbage on the device; fill it first (DataCopy, Duplicate, ...) or read a defined element.",
                     op, role, (unsigned long long)off, describe_origin(*hole).c_str()));
}
#endif

// LocalTensor::GetValue: an undefined element becomes the block's pending value (PendingUse)
// instead of an error at once.
void check_scalar_load(const void* p, uint64_t bytes, const char* op, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void check_scalar_load(const void* p, uint64_t bytes, const char* op, SrcLoc loc) {
    check_read(p, bytes, op, "an element", loc, Pipe::S);
    BlockState& b = block();
    if (!b.shadow || !bytes || bytes > sizeof b.pending.bits) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes || bytes > b.ub_bytes - off) return;
    const uint8_t* hole = first_hole(b.shadow + off, bytes);
    if (!hole) return;
    b.pending.active = true;
    std::memcpy(b.pending.bits, p, bytes);
    b.pending.size = uint32_t(bytes);
    b.pending.origin = *hole;
    b.pending.loc = loc;
    b.pending.message = format("%s reads an element at UB offset %llu that holds an undefined value: %s. Scalar "
                               "code would use garbage on the device; fill it first (DataCopy, Duplicate, ...) or "
                               "read a defined element.", op, (unsigned long long)off, describe_origin(*hole).c_str());
}
#endif

// Takes the pending value before a SetValue's own note() would report it.
inline PendingUse take_pending() {
    BlockState& b = block();
    PendingUse p;
    if (b.pending.active) std::swap(p, b.pending);
    b.pending.active = false;
    return p;
}

// After a SetValue stored `bytes` at p (marked written): the moved pending value makes them
// undefined again; a value with other bits was computed from it, which is reported.
inline void settle_pending(const PendingUse& moved, const void* p, uint64_t bytes) {
    if (!moved.active) return;
    BlockState& b = block();
    if (bytes != moved.size || std::memcmp(p, moved.bits, bytes) != 0) fail(moved.loc, moved.message);
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (b.shadow && off < b.ub_bytes && bytes <= b.ub_bytes - off) std::memset(b.shadow + off, moved.origin, bytes);
}

// Compare wrote `count` mask bits at `mask` (already marked written) from elements of `elem`
// bytes at a and b (b may be null: a scalar): records which bits of its undefined bytes are
// defined, so that Select can use them element by element.
inline void record_mask_bits(const void* mask, uint32_t count, const void* a, const void* b_or_null, uint64_t elem) {
    BlockState& b = block();
    if (!b.shadow) return;
    const uint64_t moff = uint64_t(static_cast<const uint8_t*>(mask) - b.ub);
    const uint64_t nbytes = (uint64_t(count) + 7) / 8;
    if (moff >= b.ub_bytes || nbytes > b.ub_bytes - moff || !first_hole(b.shadow + moff, nbytes)) return;
    auto defined = [&](const void* src, uint32_t i) {
        if (!src) return true;
        const uint64_t off = uint64_t(static_cast<const uint8_t*>(src) - b.ub) + uint64_t(i) * elem;
        return off < b.ub_bytes && elem <= b.ub_bytes - off && !first_hole(b.shadow + off, elem);
    };
    if (b.mask_bits.empty()) b.mask_bits.assign(b.ub_bytes, 0);
    for (uint64_t j = 0; j < nbytes; ++j) {
        if (b.shadow[moff + j] == UB_WRITTEN) continue;
        uint16_t bits = 0x100;
        for (uint32_t k = 0; k < 8 && j * 8 + k < count; ++k) {
            const uint32_t i = uint32_t(j * 8 + k);
            if (defined(a, i) && defined(b_or_null, i)) bits |= uint16_t(1u << k);
        }
        b.mask_bits[moff + j] = bits;
    }
}

// Whether the n UB bytes at p are all defined, as a query: check_read would mark and record them.
inline bool ub_defined(const void* p, uint64_t n) {
    const BlockState& b = block();
    if (!b.shadow) return true;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return true;
    return first_hole(b.shadow + off, n < b.ub_bytes - off ? n : b.ub_bytes - off) == nullptr;
}

// After a mask byte was written (mark_written): when it came out undefined, which of its bits are
// defined (bit k of `bits`, 0x100 set), in record_mask_bits' encoding.
inline void record_bit_definedness(const void* byte, uint16_t bits) {
    BlockState& b = block();
    if (!b.shadow) return;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(byte) - b.ub);
    if (off >= b.ub_bytes || b.shadow[off] == UB_WRITTEN) return;
    if (b.mask_bits.empty()) b.mask_bits.assign(b.ub_bytes, 0);
    b.mask_bits[off] = bits;
}

// The shadow value of mask bit i at `mask`: UB_WRITTEN when defined, else its byte's origin.
inline uint8_t mask_bit_shadow(const void* mask, uint32_t i) {
    const BlockState& b = block();
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(mask) - b.ub) + i / 8;
    if (!b.shadow || off >= b.ub_bytes) return UB_WRITTEN;
    const uint8_t v = b.shadow[off];
    if (v == UB_WRITTEN || b.mask_bits.empty()) return v;
    const uint16_t bits = b.mask_bits[off];
    return (bits & 0x100) && (bits >> (i % 8) & 1u) ? UB_WRITTEN : v;
}

// Select wrote `count` elements of `elem` bytes at dst (marked written by proportion, which
// makes every element of a mask byte with one undefined bit undefined): each element is exactly
// as defined as its mask bit and the source that bit selects. Shadows were taken before the write.
void select_shadow(void* dst, uint32_t count, uint64_t elem, const uint8_t* mask_bits_value,
                   const std::vector<uint8_t>& mask_shadow, const std::vector<uint8_t>& src0_shadow,
                   const std::vector<uint8_t>& src1_shadow);
#ifdef OPKG_SIM_RUNTIME_TU
void select_shadow(void* dst, uint32_t count, uint64_t elem, const uint8_t* mask_bits_value,
                   const std::vector<uint8_t>& mask_shadow, const std::vector<uint8_t>& src0_shadow,
                   const std::vector<uint8_t>& src1_shadow) {
    BlockState& b = block();
    if (!b.shadow) return;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(dst) - b.ub);
    if (off >= b.ub_bytes || uint64_t(count) * elem > b.ub_bytes - off) return;
    uint8_t* d = b.shadow + off;
    for (uint32_t i = 0; i < count; ++i) {
        const uint8_t m = mask_shadow[i];
        if (m != UB_WRITTEN) {
            std::memset(d + i * elem, m, elem);
        } else {
            const bool pick0 = (mask_bits_value[i / 8] >> (i % 8)) & 1u;
            const std::vector<uint8_t>& s = pick0 ? src0_shadow : src1_shadow;
            if (s.empty()) std::memset(d + i * elem, UB_WRITTEN, elem);   // a scalar
            else std::memcpy(d + i * elem, s.data() + i * elem, elem);
        }
    }
}
#endif

// Bitwise instructions (And, Or, Not, Xor) are tracked per bit, as MemorySanitizer does: a result
// bit of Not/Xor is defined where the source bits are; one of And is also defined where either
// source bit is a defined 0, one of Or where either is a defined 1, since that bit decides the
// result whatever the other holds (x & 0 is 0 even for garbage x: cann-ops DiagV2 ANDs stale
// lanes with a zero assist matrix). So the per-bit record of Compare masks survives `Not(mask)`
// and `Or(m1, m2)`, and `And(garbage, 0)` is defined. Returns the defined bits of each result
// byte over [a, a+bytes) (b may be null: a unary instruction), or nothing when the byte shadow
// the result gets by proportion is already exact. Taken before dst is written.
enum class BitwiseKind { PLAIN, AND, OR };

BitwiseKind bitwise_kind(const char* op);
#ifdef OPKG_SIM_RUNTIME_TU
BitwiseKind bitwise_kind(const char* op) {
    return !std::strcmp(op, "And") ? BitwiseKind::AND : !std::strcmp(op, "Or") ? BitwiseKind::OR : BitwiseKind::PLAIN;
}
#endif

std::vector<uint8_t> defined_bits(const void* a, const void* b_or_null, uint64_t bytes,
                                  BitwiseKind kind = BitwiseKind::PLAIN);
#ifdef OPKG_SIM_RUNTIME_TU
std::vector<uint8_t> defined_bits(const void* a, const void* b_or_null, uint64_t bytes, BitwiseKind kind) {
    const BlockState& b = block();
    std::vector<uint8_t> out;
    if (!b.shadow) return out;
    const bool deciding = kind != BitwiseKind::PLAIN && b_or_null;
    if (b.mask_bits.empty() && !(deciding && (!ub_defined(a, bytes) || !ub_defined(b_or_null, bytes)))) return out;
    auto bits_of = [&](const void* p, uint64_t k) -> uint8_t {
        if (!p) return 0xFF;
        const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub) + k;
        if (off >= b.ub_bytes || b.shadow[off] == UB_WRITTEN) return 0xFF;
        if (b.mask_bits.empty()) return 0;
        const uint16_t m = b.mask_bits[off];
        return (m & 0x100) ? uint8_t(m) : 0;
    };
    bool partial = false;
    out.resize(bytes);
    for (uint64_t k = 0; k < bytes; ++k) {
        const uint8_t da = bits_of(a, k), db = bits_of(b_or_null, k);
        uint8_t d = uint8_t(da & db);
        if (deciding) {
            const uint8_t va = static_cast<const uint8_t*>(a)[k], vb = static_cast<const uint8_t*>(b_or_null)[k];
            // the bits that decide the result: zeros for And, ones for Or
            const uint8_t sa = kind == BitwiseKind::AND ? uint8_t(~va) : va;
            const uint8_t sb = kind == BitwiseKind::AND ? uint8_t(~vb) : vb;
            d = uint8_t(d | (da & sa) | (db & sb));
            partial = partial || d != (da == 0xFF && db == 0xFF ? 0xFF : 0);
        }
        out[k] = d;
        partial = partial || (d != 0 && d != 0xFF);
    }
    if (!partial) out.clear();
    return out;
}
#endif

// After a bitwise instruction wrote dst (marked written by proportion): a byte whose bits are all
// defined becomes defined, a partly defined one keeps its defined bits.
void keep_defined_bits(const void* dst, const std::vector<uint8_t>& bits);
#ifdef OPKG_SIM_RUNTIME_TU
void keep_defined_bits(const void* dst, const std::vector<uint8_t>& bits) {
    BlockState& b = block();
    if (bits.empty() || !b.shadow) return;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(dst) - b.ub);
    if (off >= b.ub_bytes || bits.size() > b.ub_bytes - off) return;
    for (uint64_t k = 0; k < bits.size(); ++k) {
        if (b.shadow[off + k] == UB_WRITTEN || bits[k] == 0) continue;
        if (bits[k] == 0xFF) {
            b.shadow[off + k] = UB_WRITTEN;
            if (!b.mask_bits.empty()) b.mask_bits[off + k] = 0;
        } else {
            if (b.mask_bits.empty()) b.mask_bits.assign(b.ub_bytes, 0);
            b.mask_bits[off + k] = uint16_t(0x100 | bits[k]);
        }
    }
}
#endif

bool bitwise_op(const char* op);
#ifdef OPKG_SIM_RUNTIME_TU
bool bitwise_op(const char* op) {
    return !std::strcmp(op, "And") || !std::strcmp(op, "Or") || !std::strcmp(op, "Not") || !std::strcmp(op, "Xor");
}
#endif

// The shadow bytes of [p, p+bytes) (all UB_WRITTEN outside the UB or without a shadow).
inline std::vector<uint8_t> shadow_of(const void* p, uint64_t bytes) {
    const BlockState& b = block();
    std::vector<uint8_t> out(bytes, UB_WRITTEN);
    if (!b.shadow) return out;
    const uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off < b.ub_bytes) std::memcpy(out.data(), b.shadow + off, std::min<uint64_t>(bytes, b.ub_bytes - off));
    return out;
}

// AllocTensor hands a queue buffer out for a new tile: what an earlier tile wrote there is stale.
void mark_stale(const void* p, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void mark_stale(const void* p, uint64_t bytes) {
    BlockState& b = block();
    if (!b.shadow) return;
    b.clean_off = UINT64_MAX;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    if (!b.mask_bits.empty()) std::memset(b.mask_bits.data() + off, 0, n * sizeof(uint16_t));   // stale bits too
    uint8_t* s = b.shadow + off;
    // Eight shadow bytes at a time: only UB_WRITTEN (1) has bit 0 set, so adding each byte's
    // bit 0 turns 1 into UB_STALE (2) and leaves 0 and 2 alone, without carries.
    static_assert(UB_UNWRITTEN == 0 && UB_WRITTEN == 1 && UB_STALE == 2, "shadow encoding");
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        std::memcpy(&w, s, 8);
        w += w & 0x0101010101010101ull;
        std::memcpy(s, &w, 8);
    }
    for (; n; ++s, --n) {
        if (*s == UB_WRITTEN) *s = UB_STALE;
    }
}
#endif

// GM definedness. Inputs and the tiling data hold their tensor, and garbage in the allocator
// padding after it; outputs and the workspace hold what stores put there (GmRegion::written).

inline bool gm_byte_defined(const GmRegion& r, uint64_t off) {
    return r.written ? r.written[off] != 0 : off < r.bytes;
}

// The first byte of [off, off+n) of r that holds no defined value, or n.
uint64_t gm_first_undefined(const GmRegion& r, uint64_t off, uint64_t n);
#ifdef OPKG_SIM_RUNTIME_TU
uint64_t gm_first_undefined(const GmRegion& r, uint64_t off, uint64_t n) {
    if (r.written) {
        const void* h = std::memchr(r.written + off, 0, n);
        return h ? uint64_t(static_cast<const uint8_t*>(h) - (r.written + off)) : n;
    }
    return off + n <= r.bytes ? n : (off >= r.bytes ? 0 : r.bytes - off);
}
#endif

// Marks GM bytes of an output or the workspace as defined (any block, any kind of store).
void gm_defined(const void* p, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void gm_defined(const void* p, uint64_t bytes) {
    const GmRegion* r = gm_region(p);
    if (!r || !r->written) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base), span = gm_span(*r);
    std::memset(r->written + off, 1, bytes < span - off ? bytes : span - off);
}
#endif

// After a load of `bytes` from GM into UB (already marked written): the UB bytes that came from
// GM bytes without a defined value hold undefined values whose origin is this load.
void gm_taint(const void* ub, const void* gm, uint64_t bytes, const char* op, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void gm_taint(const void* ub, const void* gm, uint64_t bytes, const char* op, SrcLoc loc) {
    BlockState& b = block();
    const GmRegion* r = gm_region(gm);
    if (!b.shadow || !r || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(gm) - r->base), span = gm_span(*r);
    uint64_t n = bytes < span - off ? bytes : span - off;
    uint64_t k = gm_first_undefined(*r, off, n);
    if (k == n) return;
    uint64_t uoff = uint64_t(static_cast<const uint8_t*>(ub) - b.ub);
    if (uoff >= b.ub_bytes) return;
    if (n > b.ub_bytes - uoff) n = b.ub_bytes - uoff;
    b.clean_off = UINT64_MAX;
    uint8_t origin = add_origin(Origin{off + k >= r->bytes ? ORIGIN_GM_PADDING : ORIGIN_GM_UNWRITTEN, op, "", loc,
                                       off + k, r->name, r->bytes, 0});
    for (; k < n; ++k) {
        if (!gm_byte_defined(*r, off + k)) b.shadow[uoff + k] = origin;
    }
}
#endif

// Before a UB->GM store: undefined values may land in the allocator padding after a tensor (never
// part of it), not in the tensor. Returns whether every byte stored is defined. Reports name whole
// elements of `elem` bytes (a value with one undefined byte is undefined).
bool check_store(const void* gm, const void* ub, uint64_t bytes, const char* op, SrcLoc loc,
                 uint64_t elem = 1);
#ifdef OPKG_SIM_RUNTIME_TU
bool check_store(const void* gm, const void* ub, uint64_t bytes, const char* op, SrcLoc loc,
                 uint64_t elem) {
    BlockState& b = block();
    b.taint_done = true;   // the copy's reads end here
    if (!b.shadow || !bytes) return true;
    uint64_t uoff = uint64_t(static_cast<const uint8_t*>(ub) - b.ub);
    if (uoff >= b.ub_bytes) return true;
    uint64_t n = bytes < b.ub_bytes - uoff ? bytes : b.ub_bytes - uoff;
    if (b.clean_off == uoff && b.clean_n == n) return true;   // the copy's own check_read saw it all defined
    const uint8_t* s = b.shadow + uoff;
    const uint8_t* hole = first_hole(s, n);
    if (!hole) return true;
    const GmRegion* r = gm_region(gm);
    uint64_t goff = r ? uint64_t(static_cast<const uint8_t*>(gm) - r->base) : 0;
    // the workspace is the kernel's GM scratch: undefined values stored there stay undefined
    // (gm_undefine) and are reported if a later load carries them into an output, as
    // MemorySanitizer treats a store to memory (not a use)
    if (r && std::strcmp(r->name, "workspace") == 0) return false;
    for (uint64_t k = uint64_t(hole - s); k < n; ++k) {
        if (s[k] == UB_WRITTEN || (r && goff + k >= r->bytes)) continue;
        uint64_t e = k + 1;
        while (e < n && s[e] != UB_WRITTEN && (!r || goff + e < r->bytes)) ++e;
        uint8_t v = s[k];
        uint64_t back = (goff + k) % elem;
        k = k >= back ? k - back : 0;
        e += (elem - (goff + e) % elem) % elem;
        fail(loc, format("%s stores undefined values into bytes [%llu, %llu) of '%s': %s. On the device the result "
                         "would hold garbage there; store only what was computed from defined data (a shorter "
                         "count, DataCopyPad) or fill the source first.",
                         op, (unsigned long long)(goff + k), (unsigned long long)(goff + e), r ? r->name : "?",
                         describe_origin(v).c_str()));
    }
    return false;
}
#endif

// After a store that check_store found partly undefined (into padding only): those GM bytes stay undefined.
void gm_undefine(const void* gm, const void* ub, uint64_t bytes);
#ifdef OPKG_SIM_RUNTIME_TU
void gm_undefine(const void* gm, const void* ub, uint64_t bytes) {
    BlockState& b = block();
    const GmRegion* r = gm_region(gm);
    if (!r || !r->written || !b.shadow) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(gm) - r->base), span = gm_span(*r);
    uint64_t uoff = uint64_t(static_cast<const uint8_t*>(ub) - b.ub);
    if (uoff >= b.ub_bytes) return;
    // the store record_write just kept (GmWrite::undefined), when it covers these bytes
    const uint8_t* q = static_cast<const uint8_t*>(gm);
    GmWrite* w = b.writes && !b.writes->empty() ? &b.writes->back() : nullptr;
    if (w && (w->block != b.store_id || w->begin > q || w->end < q + bytes)) w = nullptr;
    for (uint64_t k = 0; k < bytes && off + k < span && uoff + k < b.ub_bytes; ++k) {
        if (b.shadow[uoff + k] == UB_WRITTEN) continue;
        r->written[off + k] = 0;
        if (w) {
            if (w->undefined.empty()) w->undefined.assign(size_t(w->end - w->begin), '\0');
            w->undefined[size_t(q + k - w->begin)] = 1;
        }
    }
}
#endif

// A GM read whose value scalar code uses (GlobalTensor::GetValue): it must be defined.
void check_gm_use(const void* p, uint64_t bytes, const char* op, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void check_gm_use(const void* p, uint64_t bytes, const char* op, SrcLoc loc) {
    const GmRegion* r = gm_region(p);
    if (!r || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base), span = gm_span(*r);
    uint64_t n = bytes < span - off ? bytes : span - off;
    uint64_t k = gm_first_undefined(*r, off, n);
    if (k == n) return;
    uint64_t first = off + k;
    if (first >= r->bytes) {
        fail(loc, format("%s reads byte %llu of '%s', in the allocator padding after its %llu bytes: garbage on the "
                         "device (the allocator rounds a buffer up to 32 bytes and adds 32), which scalar code would "
                         "use here", op, (unsigned long long)first, r->name, (unsigned long long)r->bytes));
    }
    fail(loc, format("%s reads byte %llu of '%s', which no block has written yet; on the device %s starts "
                     "with whatever the memory held before (not zeros). Write it before reading it back, or "
                     "read an input instead.", op, (unsigned long long)first, r->name,
                     std::strcmp(r->name, "workspace") == 0 ? "the workspace" : "an output"));
}
#endif

void log_line(const std::string& text);
#ifdef OPKG_SIM_RUNTIME_TU
void log_line(const std::string& text) {
    BlockState& b = block();
    if (b.log) {
        *b.log += format("[block %lld] ", (long long)b.idx);
        *b.log += text;
        if (text.empty() || text.back() != '\n') *b.log += '\n';
    }
}
#endif

[[noreturn]] void assert_fail(const char* expr, const char* file, int line, const char* fmt = nullptr, ...);
#ifdef OPKG_SIM_RUNTIME_TU
[[noreturn]] void assert_fail(const char* expr, const char* file, int line, const char* fmt, ...) {
    std::string msg = format("ASSERT(%s) failed", expr);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        char buf[1024];
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        msg += ": ";
        msg += buf;
    }
    throw Failure(FAIL_ASSERT, file, line, msg);
}
#endif

}  // namespace opkg_sim

#include "opkg_sim/basic_api/core/hazard.h"
#endif
