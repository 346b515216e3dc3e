// Block identity, synchronisation (the sim runs each block's instructions in program order;
// barriers and flags only feed the --sync-check hazard model, hazard.h), kernel printf, ASSERT,
// workspace helpers and tiling-key dispatch.
#ifndef OPKG_SIM_KMISC_H
#define OPKG_SIM_KMISC_H

#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"
#include "opkg_sim/basic_api/core/datacopy.h"
#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/vector/vector.h"

namespace AscendC {

// Block identity as the devkit's dav_c220 kernel_operator_sys_var_impl.h gives it: on a vector
// core GetBlockIdx is block_idx * GetTaskRation() + sub_block_idx (a mixed kernel's ration is 2,
// MIX_AIC_1_1's 1), on the cube core block_idx, with one sub-block and ration 1; GetBlockNum is
// blockDim, the AI cores of a mixed kernel. The block runner sets ai_core/sub/ration per body
// (kernel_runtime.h; apply_task_type for a split launch).
inline int64_t GetBlockIdx() {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (__builtin_expect(b.type_open, 0)) opkg_sim::fix_task_type(b);
    return b.core == 1 ? b.ai_core : b.ai_core * b.ration + b.sub;   // 1: AscendC::AIC (kcore.h)
}
inline int64_t GetBlockNum() { return opkg_sim::block().ai_cores; }
inline int64_t GetSubBlockIdx() {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (__builtin_expect(b.type_open, 0)) opkg_sim::fix_task_type(b);
    return b.core == 1 ? 0 : b.sub;
}
inline int64_t GetTaskRation() { return opkg_sim::block().core == 1 ? 1 : opkg_sim::block().ration; }
inline int64_t GetSubBlockNum() { return GetTaskRation(); }

// Integer helpers CANN's kernel utils declare in AscendC (uint32_t, as there: a kernel passing
// wider values gets the same narrowing it would get on the device).
__aicore__ inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2) { return num2 == 0 ? 0 : (num1 + num2 - 1) / num2; }

}  // namespace AscendC

// The CCE builtins the device compiler provides at global scope (CANN's own headers call them).
inline int64_t get_block_idx() {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (__builtin_expect(b.type_open, 0)) opkg_sim::fix_task_type(b);
    return b.ai_core;
}
inline int64_t get_block_num() { return opkg_sim::block().ai_cores; }
inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }
inline int64_t get_subblockdim() { return AscendC::GetTaskRation(); }
namespace opkg_sim {
// A built-in variable of the device compiler: it reads the running block's value where it is
// used; a local or a member of the same name hides it, as it hides the built-in.
struct BuiltinVar {
    int64_t (*read)();
    operator int64_t() const { return read(); }
};
}  // namespace opkg_sim
// The built-in variables get_block_idx() and friends read (ops-nn kernels use block_idx directly).
inline const opkg_sim::BuiltinVar block_idx{get_block_idx};
inline const opkg_sim::BuiltinVar block_num{get_block_num};
inline const opkg_sim::BuiltinVar sub_block_idx{get_subblockid};
// The CTRL register (get_ctrl/set_ctrl, with the bit helpers sbitset0/sbitset1), kept per block.
// Of its bits the sim models none: a schedule bit (51, the Mmad layout order cann-ops'
// BatchMatMulV3 sets) changes no value; a bit that would (46/47, HF32 rounding of the cube's
// float inputs) is refused where it is set rather than ignored.
inline int64_t get_ctrl() { return opkg_sim::block().ctrl; }
inline void set_ctrl(int64_t value, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    constexpr uint64_t hf32 = (uint64_t(1) << 46) | (uint64_t(1) << 47);
    if ((uint64_t(value) & hf32) & ~uint64_t(opkg_sim::block().ctrl)) {
        opkg_sim::fail(loc, "set_ctrl: the HF32 mode bits (46, 47) are not modelled by the sim: its cube computes "
                            "float inputs in full precision");
    }
    opkg_sim::block().ctrl = value;
}
inline int64_t sbitset0(int64_t value, int64_t bit) { return int64_t(uint64_t(value) & ~(uint64_t(1) << bit)); }
inline int64_t sbitset1(int64_t value, int64_t bit) { return int64_t(uint64_t(value) | (uint64_t(1) << bit)); }
// A device build defines ASSERT(x) as nothing, so kernels call GetBlockNum()/GetBlockIdx()
// unqualified inside ASSERT in code that never sees `using namespace AscendC`; the sim evaluates
// ASSERT, so it makes the two visible globally. A using-declaration (not a second function) keeps
// unqualified calls unambiguous when a kernel does say `using namespace AscendC`.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;

namespace opkg_sim {

inline Pipe pipe_of(pipe_t p) {
    switch (p) {
        case PIPE_S: return Pipe::S;
        case PIPE_V: return Pipe::V;
        case PIPE_MTE2: return Pipe::MTE2;
        case PIPE_MTE3: return Pipe::MTE3;
        default: return Pipe::NONE;   // cube and fixpipe pipes never touch UB here
    }
}

// HardEvent A_B: (A, B) among the pipes that touch UB; NONE for the others.
inline std::pair<Pipe, Pipe> event_pipes(AscendC::HardEvent e) {
    using H = AscendC::HardEvent;
    switch (e) {
        case H::MTE2_V: return {Pipe::MTE2, Pipe::V};
        case H::V_MTE2: return {Pipe::V, Pipe::MTE2};
        case H::MTE3_V: return {Pipe::MTE3, Pipe::V};
        case H::V_MTE3: return {Pipe::V, Pipe::MTE3};
        case H::MTE3_MTE2: return {Pipe::MTE3, Pipe::MTE2};
        case H::MTE2_MTE3: return {Pipe::MTE2, Pipe::MTE3};
        case H::S_V: return {Pipe::S, Pipe::V};
        case H::V_S: return {Pipe::V, Pipe::S};
        case H::S_MTE2: return {Pipe::S, Pipe::MTE2};
        case H::MTE2_S: return {Pipe::MTE2, Pipe::S};
        case H::S_MTE3: return {Pipe::S, Pipe::MTE3};
        case H::MTE3_S: return {Pipe::MTE3, Pipe::S};
        default: return {Pipe::NONE, Pipe::NONE};
    }
}

inline void set_flag(std::pair<Pipe, Pipe> e, int32_t id) {
    if (e.first != Pipe::NONE && e.second != Pipe::NONE) sync_set_flag(e.first, e.second, id);
}
inline void wait_flag(std::pair<Pipe, Pipe> e, int32_t id) {
    if (e.first != Pipe::NONE && e.second != Pipe::NONE) sync_wait_flag(e.first, e.second, id);
}
// PipeBarrier<PIPE_X> orders pipe X with itself, which the hazard model never questions.
inline void pipe_barrier(pipe_t p) {
    if (p == PIPE_ALL) sync_barrier_all();
}

// A barrier across all blocks. Blocks first run one after another; block 0 reaching SyncAll
// switches the launch to one thread per block (see kernel_runtime.h). `before_wait` runs once the
// block is known to wait here for real (the soft SyncAll's counter store, ibsync.h).
template <class F>
inline void sync_all_blocks(SrcLoc loc, F before_wait) {
    BlockState& b = block();
    note(loc);
    if (b.num <= 1) {
        before_wait();
        sync_barrier_all();
        return;
    }
    if (b.cores && b.num > b.cores) {
        fail(loc, format(
            "SyncAll with blockDim %lld on %lld cores: the hardware starts the blocks beyond the first %lld "
            "only when earlier ones return, so the blocks waiting here would wait forever. A kernel that "
            "calls SyncAll needs blockDim <= the core count (GetCoreNumAiv()).",
            (long long)b.num, (long long)b.cores, (long long)b.cores));
    }
    if (!b.barrier) {
        if (b.idx == 0 || b.split) throw NeedConcurrent{};   // a split launch keeps every body's undo
        fail(loc, format(
            "block %lld reached SyncAll, but block 0 returned without reaching it; on hardware the "
            "blocks would wait here forever. Every block must call SyncAll the same number of times.",
            (long long)b.idx));
    }
    before_wait();
    b.barrier->arrive(loc);
    ++b.epoch;
    sync_barrier_all();   // every pipe of every core has drained
}

}  // namespace opkg_sim

namespace AscendC {

template <pipe_t pipe = PIPE_ALL> inline void PipeBarrier() { opkg_sim::pipe_barrier(pipe); }
// Waits until the core's earlier accesses to that memory have completed (so that a SIMT function
// launched next reads the scalar unit's UB stores). The sim's scalar accesses complete at once.
template <MemDsbT mem> inline void DataSyncBarrier() {}

#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310
// The 950's scalar GM atomics (kernel_operator_atomic_intf.h): one read-modify-write of the
// element, returning the old value. Several blocks may update one element so (a counter in a
// workspace); the bytes are marked written but are not a block's store for the cross-block check.
template <typename T, typename Op>
inline T gm_atomic(__gm__ T* address, Op op, const char* name, opkg_sim::SrcLoc loc) {
    static_assert(std::is_arithmetic<T>::value, "the scalar GM atomics take arithmetic types");
    opkg_sim::check_gm_use(address, sizeof(T), name, loc);
    T old = __atomic_load_n(address, __ATOMIC_SEQ_CST);
    while (!__atomic_compare_exchange_n(address, &old, op(old), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    opkg_sim::gm_defined(address, sizeof(T));
    return old;
}
template <typename T>
inline T AtomicAdd(__gm__ T* address, T value, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return gm_atomic(address, [value](T old) { return static_cast<T>(old + value); }, "AtomicAdd", loc);
}
template <typename T>
inline T AtomicMax(__gm__ T* address, T value, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return gm_atomic(address, [value](T old) { return value > old ? value : old; }, "AtomicMax", loc);
}
template <typename T>
inline T AtomicMin(__gm__ T* address, T value, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return gm_atomic(address, [value](T old) { return value < old ? value : old; }, "AtomicMin", loc);
}
template <typename T>
inline T AtomicExch(__gm__ T* address, T value, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return gm_atomic(address, [value](T) { return value; }, "AtomicExch", loc);
}
// value1 is compared with the element, value2 stored when they are equal
template <typename T>
inline T AtomicCas(__gm__ T* address, T value1, T value2, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return gm_atomic(address, [value1, value2](T old) { return old == value1 ? value2 : old; }, "AtomicCas", loc);
}
#endif
template <HardEvent evt> inline void SetFlag(int32_t id) { opkg_sim::set_flag(opkg_sim::event_pipes(evt), id); }
template <HardEvent evt> inline void WaitFlag(int32_t id) { opkg_sim::wait_flag(opkg_sim::event_pipes(evt), id); }

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The Ascend 950's buffer-ID mutex between pipes (the devkit's kernel_common.h; ids 0..27): what a
// pipe did before Unlock<p>(id) is ordered before what another pipe does after Lock<q>(id).
// The sim runs the pipes in program order; under --sync-check the pair orders like
// SetFlag/WaitFlag, on flag ids of their own.
using MutexID = uint8_t;
constexpr MutexID MAX_MUTEXID = 27;
class Mutex {
public:
    template <pipe_t pipe>
    static inline void Lock(MutexID id, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        check(id, "Lock", loc);
        for (pipe_t from : {PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3}) {
            if (from != pipe) opkg_sim::wait_flag({opkg_sim::pipe_of(from), opkg_sim::pipe_of(pipe)}, flag(id));
        }
    }
    template <pipe_t pipe>
    static inline void Unlock(MutexID id, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        check(id, "Unlock", loc);
        for (pipe_t to : {PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3}) {
            if (to != pipe) opkg_sim::set_flag({opkg_sim::pipe_of(pipe), opkg_sim::pipe_of(to)}, flag(id));
        }
    }

private:
    static int32_t flag(MutexID id) { return 0x10000 + id; }   // apart from the event ids
    static void check(MutexID id, const char* op, opkg_sim::SrcLoc loc) {
        if (id > MAX_MUTEXID)
            opkg_sim::fail(loc, opkg_sim::format("Mutex::%s: mutex id %u is above MAX_MUTEXID (%u)", op, unsigned(id),
                                                 unsigned(MAX_MUTEXID)));
    }
};

// The CTRL register's bit fields (the devkit's dav_3510 SetCtrlSprImpl): bits 6..10 and the single
// bits 45, 48, 50, 53, 59, 60 may be set; the whole register reads back. The sim keeps the value
// per block; its computations do not consult it (bit 60, the float overflow mode ops-nn's
// gelu_quant sets to saturate, changes only results that overflow).
#define OPKG_SIM_CTRL_BITS_OK(s, e)                                                                            \
    static_assert(s <= e && s >= 0 && e < 64, "Invalid bit range on current device!");                        \
    static_assert((6 <= s && s <= 10 && 6 <= e && e <= 10) ||                                                  \
                      (s == e && (s == 45 || s == 48 || s == 50 || s == 53 || s == 59 || s == 60)),            \
                  "Invalid startBit/endBit on current device!")
template <int8_t startBit, int8_t endBit>
inline void SetCtrlSpr(int64_t value) {
    OPKG_SIM_CTRL_BITS_OK(startBit, endBit);
    const uint64_t mask = ((uint64_t(1) << (endBit - startBit + 1)) - 1) << startBit;
    int64_t& ctrl = opkg_sim::block().ctrl;
    ctrl = int64_t((uint64_t(ctrl) & ~mask) | ((uint64_t(value) << startBit) & mask));
}
template <int8_t startBit, int8_t endBit>
inline int64_t GetCtrlSpr() {
    static_assert(startBit <= endBit && startBit >= 0 && endBit < 64, "Invalid bit range on current device!");
    const uint64_t v = uint64_t(opkg_sim::block().ctrl);
    return endBit - startBit == 63 ? int64_t(v) : int64_t((v >> startBit) & ((uint64_t(1) << (endBit - startBit + 1)) - 1));
}
template <int8_t startBit, int8_t endBit>
inline void ResetCtrlSpr() {
    OPKG_SIM_CTRL_BITS_OK(startBit, endBit);
    const uint64_t mask = ((uint64_t(1) << (endBit - startBit + 1)) - 1) << startBit;
    int64_t& ctrl = opkg_sim::block().ctrl;
    ctrl = int64_t((uint64_t(ctrl) & ~mask) | (uint64_t(0x1000000000000008) & mask));
}
#undef OPKG_SIM_CTRL_BITS_OK
#endif
// The hard SyncAll is the all-core flag of A2/A3 and the Ascend 950 (dav_c220 and dav_3510
// SyncAllImpl); CANN's other architectures assert "unsupported hardware syncAll"
// (dav_m200/c100/m300) and offer the soft form.
inline void SyncAll(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
#if defined(__CCE_AICORE__) && __CCE_AICORE__ != 220 && __CCE_AICORE__ != 310
    opkg_sim::fail(loc, opkg_sim::format(
        "SyncAll(): the hardware all-core sync exists only on A2/A3 SoCs (910B, 910_93) and the Ascend 950; "
        "on this SoC "
        "(__CCE_AICORE__ %d) CANN asserts it is unsupported. Use SyncAll(gmWorkspace, ubWorkspace) "
        "(the soft sync through a zeroed GM workspace) here.", __CCE_AICORE__));
#endif
    opkg_sim::sync_all_blocks(loc, [] {});
}
template <bool isAIVOnly = true>
inline void SyncAll(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { SyncAll(loc); }
// The superkernel handshake (the devkit's kernel_operator_common_intf.h): in a fused superkernel
// WaitPreTaskEnd waits for the sub-kernel before this one to end, and SetNextTaskStart lets the
// next one start once this one's pipe has drained. An operator launched on its own (every
// launch of the sim) has no sub-kernel before or after it: the wait returns at once and the
// signal reaches no one, as the devkit's are without superkernel fusion (FORCE included: the
// stream runs this kernel only after the task before it ended).
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart() {}
template <bool FORCE = false>
inline void WaitPreTaskEnd() {}

// The kernel log levels (the devkit's kernel_log.h) that KERNEL_LOG and ASCENDC_ASSERT name.
enum class LogLevel : uint8_t {
    KERNEL_DEBUG = 0,
    KERNEL_INFO = 1,
    KERNEL_WARN = 2,
    KERNEL_ERROR = 3,
};
inline void SetAtomicNone() {
    opkg_sim::block().atomic = 0;
    opkg_sim::block().atomic_op = 0;
}
// DataCopy to GM accumulates while set; such stores may overlap between blocks by design.
template <class T> inline void SetAtomicAdd() {
    opkg_sim::block().atomic = opkg_sim::atomic_code<T>();
    opkg_sim::block().atomic_type = opkg_sim::type_name<T>();
    opkg_sim::block().atomic_op = 0;
}
// Stores keep the larger (Max) or smaller (Min) of GM's value and the stored one, element-wise.
template <class T> inline void SetAtomicMax() {
    SetAtomicAdd<T>();
    opkg_sim::block().atomic_op = 1;
}
template <class T> inline void SetAtomicMin() {
    SetAtomicAdd<T>();
    opkg_sim::block().atomic_op = 2;
}
// The data type of the atomic operation already set; with none set, stores stay plain.
template <class T> inline void SetAtomicType() {
    if (!opkg_sim::block().atomic) return;
    opkg_sim::block().atomic = opkg_sim::atomic_code<T>();
    opkg_sim::block().atomic_type = opkg_sim::type_name<T>();
}

enum class AtomicDtype { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp { ATOMIC_SUM = 0 };

template <AtomicDtype type, AtomicOp op> inline void SetStoreAtomicConfig() {
    switch (type) {
        case AtomicDtype::ATOMIC_NONE: SetAtomicNone(); break;
        case AtomicDtype::ATOMIC_F32: SetAtomicAdd<float>(); break;
        case AtomicDtype::ATOMIC_F16: SetAtomicAdd<half>(); break;
        case AtomicDtype::ATOMIC_S16: SetAtomicAdd<int16_t>(); break;
        case AtomicDtype::ATOMIC_S32: SetAtomicAdd<int32_t>(); break;
        case AtomicDtype::ATOMIC_S8: SetAtomicAdd<int8_t>(); break;
        case AtomicDtype::ATOMIC_BF16: SetAtomicAdd<bfloat16_t>(); break;
    }
}
// atomicType as AtomicDtype's value; atomicOp 0 (sum), or 1/2 after SetAtomicMax/Min.
inline void GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp) {
    static const uint16_t by_code[] = {0, 1, 2, 4, 3, 5, 6, 0};   // atomic_code() -> AtomicDtype
    const opkg_sim::BlockState& b = opkg_sim::block();
    atomicType = by_code[b.atomic >= 0 && b.atomic < 8 ? b.atomic : 0];
    atomicOp = uint16_t(b.atomic_op);
}

// The vector mask register; level-0 calls with isSetMask = false read it (vector.h, register_mask).
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

inline void SetMaskCount(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    opkg_sim::fail(loc, "SetMaskCount: Atlas training (910A) SoCs have no counter mode");
#endif
    opkg_sim::note(loc);
    opkg_sim::block().mask_counter = true;
}
inline void SetMaskNorm() { opkg_sim::block().mask_counter = false; }
inline void ResetMask() {
    opkg_sim::block().mask_lo = ~0ull;
    opkg_sim::block().mask_hi = ~0ull;
}
// The core's state a kernel starts from (the devkit's InitSocStateImpl): no atomic accumulation,
// the mask register in normal mode with every lane on.
inline void InitSocState() {
    SetAtomicNone();
    SetMaskNorm();
    ResetMask();
}
// Normal mode: a lane bit pattern (high 64 lanes, low 64 lanes). Counter mode: maskLow is the
// number of elements the next isSetMask = false calls process.
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow,
                          opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::BlockState& b = opkg_sim::block();
    opkg_sim::note(loc);
    if (mode == MaskMode::COUNTER && !b.mask_counter) {
        opkg_sim::fail(loc, "SetVectorMask<T, MaskMode::COUNTER> before SetMaskCount: in normal mode the vector "
                            "unit reads the count as a lane bit pattern");
    }
    b.mask_hi = mode == MaskMode::COUNTER ? 0 : maskHigh;
    b.mask_lo = maskLow;
}
// A length: in counter mode the element count, in normal mode the first `len` lanes.
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (mode == MaskMode::COUNTER || b.mask_counter) {
        SetVectorMask<T, mode>(0, uint64_t(uint32_t(len)), loc);
        return;
    }
    const opkg_sim::Mask m = opkg_sim::continuous_mask<T>(uint64_t(len), "SetVectorMask", loc);
    SetVectorMask<T, mode>(m.hi, m.lo, loc);
}
inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow) {
    opkg_sim::block().mask_hi = maskHigh;
    opkg_sim::block().mask_lo = maskLow;
}

// The value and index register the last WholeReduceMax/Min left (A2/A3: value and index; 310P:
// the value only, as documented). The index comes back as raw bits in a T, as on the device.
template <class T>
inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetReduceMaxMinCount takes half or float");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
    opkg_sim::fail(loc, "GetReduceMaxMinCount(value, index): Atlas inference (310P) SoCs have only the value form");
#endif
    const opkg_sim::BlockState& b = opkg_sim::block();
    if (!b.max_min_set) opkg_sim::fail(loc, "GetReduceMaxMinCount before any WholeReduceMax/WholeReduceMin");
    const uint32_t value = uint32_t(b.max_min_cnt & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
    const uint32_t index = uint32_t(b.max_min_cnt >> 32);
    std::memcpy(&maxMinValue, &value, sizeof(T));
    std::memcpy(&maxMinIndex, &index, sizeof(T));
}
template <class T>
inline void GetReduceMaxMinCount(T& maxMinValue, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetReduceMaxMinCount takes half or float");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
    opkg_sim::fail(loc, "GetReduceMaxMinCount(value): A2/A3 SoCs have only the (value, index) form");
#endif
    const opkg_sim::BlockState& b = opkg_sim::block();
    if (!b.max_min_set) opkg_sim::fail(loc, "GetReduceMaxMinCount before any WholeReduceMax/WholeReduceMin");
    const uint32_t value = uint32_t(b.max_min_cnt & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
    std::memcpy(&maxMinValue, &value, sizeof(T));
}
inline void SetKernelMode(KernelMode) {}
// As CANN's g_sysWorkspaceReserved (block-local, set to the workspace by the kernel entry, see
// run_one): SetSysWorkspace keeps what is set, GetSysWorkSpacePtr returns it (cann-ops'
// ForeachNorm and Rfft1D return early on nullptr).
inline void SetSysWorkspace(GM_ADDR workspace) {
    if (!opkg_sim::block().sys_workspace_ptr) opkg_sim::block().sys_workspace_ptr = workspace;
}
inline void SetSysWorkspaceForce(GM_ADDR workspace) { opkg_sim::block().sys_workspace_ptr = workspace; }

// The device's ignores its argument and returns the framework's system workspace plus the
// reserved part (asc-devkit impl/basic_api/dav_c220/kernel_operator_common_impl.h and
// dav_3510's GetUserWorkspace): never null, also when the tiling asked for no workspace (ops-nn's
// dynamic_block_quant asks 0 bytes and returns on a null user workspace). Without one here, an
// address no buffer holds: a kernel that goes on to use it is told so at its access.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    static uint8_t* const none = new uint8_t[32];   // not the kernel's static data, which it may use
    return workspace ? workspace + opkg_sim::block().sys_workspace : none;
}
inline GM_ADDR GetSysWorkSpacePtr() { return opkg_sim::block().sys_workspace_ptr; }

template <class... Args>
inline void printf(const char* fmt, Args... args) {
    if constexpr (sizeof...(Args) == 0) {
        opkg_sim::log_line(fmt);
    } else {
        opkg_sim::log_line(opkg_sim::format(fmt, args...));
    }
}
template <class... Args>
inline void PRINTF(const char* fmt, Args... args) { AscendC::printf(fmt, args...); }

template <class T>
inline void dump_values(const char* where, const T* p, uint32_t desc, uint32_t n) {
    std::string line = opkg_sim::format("DumpTensor %s desc=%u size=%u:", where, desc, n);
    for (uint32_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                      std::is_same<T, bfloat16_t>::value) {
            line += opkg_sim::format(" %.9g", static_cast<double>(static_cast<float>(p[i])));
        } else {
            line += opkg_sim::format(" %lld", static_cast<long long>(p[i]));
        }
    }
    opkg_sim::log_line(line);
}

// The dump channel's setup (the devkit's InitDump): on A2/A3 (dav_c220) and the Ascend 950 it does
// nothing, and here the channel is the launch's own log, which needs no GM space either.
inline void InitDump(bool mixFlag, uint32_t gmLen) { (void)mixFlag, (void)gmLen; }
inline void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen) { (void)mixFlag, (void)dumpStartAddr, (void)gmLen; }

// Prints up to dumpSize elements into the run log (RunInfo.log), like the NPU's dump channel.
template <class T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint32_t n = dumpSize < t.size_ ? dumpSize : t.size_;
    // DumpTensor waits for the pipes itself: no hazard check
    opkg_sim::check_read(t.ptr_, uint64_t(n) * sizeof(T), "DumpTensor", "the tensor", loc, opkg_sim::Pipe::NONE);
    dump_values(opkg_sim::format("UB@%llu", (unsigned long long)t.ub_offset()).c_str(), t.ptr_, desc, n);
}

template <class T>
inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_gm(t.ptr_, uint64_t(dumpSize) * sizeof(T), "DumpTensor", loc);
    dump_values("GM", t.ptr_, desc, dumpSize);
}

}  // namespace AscendC

// Old-style intrinsic spellings some samples still use.
inline void pipe_barrier(pipe_t p) { opkg_sim::pipe_barrier(p); }
inline void set_flag(pipe_t from, pipe_t to, event_t id) {
    opkg_sim::set_flag({opkg_sim::pipe_of(from), opkg_sim::pipe_of(to)}, id);
}
inline void wait_flag(pipe_t from, pipe_t to, event_t id) {
    opkg_sim::wait_flag({opkg_sim::pipe_of(from), opkg_sim::pipe_of(to)}, id);
}
// The mask-mode builtins under SetMaskNorm/SetMaskCount (FlashAttentionScore calls them directly).
inline void set_mask_norm() { AscendC::SetMaskNorm(); }
inline void set_mask_count(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { AscendC::SetMaskCount(loc); }

// A device build defines ASSERT(x) as nothing (kernel_macros.h), so real kernels compile with it
// directly after an expression (`this->n = n ASSERT(n != 0);`, no `;` between) and with no `;`
// after it (`ASSERT(c)` then a declaration, cann-ops MulSigmoid). Here it still checks, like
// CANN's CPU-debug build, and compiles in all three places: `+ opkg_sim::assert_at_end(...);` is
// a no-op binary `+` after an expression (it returns the left operand unchanged) or a void unary
// `+` statement of its own, and ends the statement itself (the kernel's own `;` is then an empty
// statement; only `if (c) ASSERT(x); else` no longer compiles, which no known kernel writes).
// The condition is evaluated when the temporary dies, at the end of the full-expression: after
// the variable a declaration initialises, so `uint32_t n = t.n ASSERT(n != 0);` checks the new n
// (the device never reads it uninitialised).
namespace opkg_sim {
template <class F>
class AssertAtEnd {
public:
    AssertAtEnd(F cond, const char* expr, const char* file, int line)
        : cond_(cond), expr_(expr), file_(file), line_(line), unwinding_(std::uncaught_exceptions()) {}
    AssertAtEnd(const AssertAtEnd&) = delete;
    AssertAtEnd& operator=(const AssertAtEnd&) = delete;
    ~AssertAtEnd() noexcept(false) {
        // not while the expression itself is throwing a failure: that one is reported
        if (std::uncaught_exceptions() == unwinding_ && !cond_()) assert_fail(expr_, file_, line_);
    }

private:
    F cond_;
    const char* expr_;
    const char* file_;
    int line_;
    int unwinding_;
};
template <class F>
inline AssertAtEnd<F> assert_at_end(F cond, const char* expr, const char* file, int line) {
    return AssertAtEnd<F>(cond, expr, file, line);
}
template <class T, class F> inline T operator+(T value, const AssertAtEnd<F>&) { return value; }
template <class F> inline void operator+(const AssertAtEnd<F>&) {}
}  // namespace opkg_sim
namespace AscendC {
// SetFlag/WaitFlag between two pipes named once in the type (CANN's TQueSync<src, dst>).
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    static_assert(src != dst, "TQueSync: src and dst pipe must differ");
    void SetFlag(int32_t id) { ::set_flag(src, dst, event_t(id)); }
    void WaitFlag(int32_t id) { ::wait_flag(src, dst, event_t(id)); }
};
}  // namespace AscendC

// The devkit's kernel_log.h macros as its device build compiles them (not its CPU-debug build):
// KERNEL_LOG prints nothing and ASCENDC_ASSERT checks nothing on the device. The level must
// still be one of LogLevel's, and the condition and the behaviour must compile (never run).
#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...) ((void)::AscendC::LogLevel::level)
#endif
#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior) \
    do {                               \
        if (false) {                   \
            (void)(cond);              \
            behavior;                  \
        }                              \
    } while (0)
#endif

#ifndef ASSERT
#define ASSERT(expr) \
    + ::opkg_sim::assert_at_end([&]() -> bool { return static_cast<bool>(expr); }, #expr, __FILE__, __LINE__);
#endif
#ifndef ascendc_assert
#define ascendc_assert(expr, ...) \
    ((expr) ? (void)0 : ::opkg_sim::assert_fail(#expr, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__))
#endif
// The kernel's `assert(expr)` and `assert(expr, fmt, args...)`: the devkit's asc_assert.h
// (included by kernel_operator.h) replaces the C library's with this two-form macro, so kernels
// call it with a message and without <cassert> (ops-nn's masked_scatter). Off under NDEBUG, as
// there.
#include <cassert>
#undef assert
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
#define assert(expr, ...) \
    ((expr) ? (void)0 : ::opkg_sim::assert_fail(#expr, __FILE__, __LINE__ __VA_OPT__(, ) __VA_ARGS__))
#endif

// The kernel binary is built for one tiling key at a time on hardware; here the key chosen by
// the tiling function is known at run time.
#define TILING_KEY_IS(k) (::opkg_sim::block().tiling_key == static_cast<uint64_t>(k))
// The task types a kernel declares per tiling key (the devkit's kernel_utils_macros.h). A kernel
// that declares a key KERNEL_TYPE_AIC_ONLY is compiled with runtime/core_by_task_type.h, which
// gives the two macros their effect; for the others the sim runs the vector body, as declared.
#ifndef __PLUGIN__KERNEL_META_TYPE_ENUME_DEFINED__
#define __PLUGIN__KERNEL_META_TYPE_ENUME_DEFINED__
enum KernelMetaType : uint8_t {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};
#endif
#define KERNEL_TASK_TYPE_DEFAULT(x)
#define KERNEL_TASK_TYPE(key, x)

#endif
