// Block identity, synchronisation (no-ops: the sim runs each block's instructions in program
// order), kernel printf, ASSERT, workspace helpers and tiling-key dispatch.
#ifndef OPKG_SIM_KMISC_H
#define OPKG_SIM_KMISC_H

#include "opkg_sim/kcore.h"
#include "opkg_sim/ktypes.h"
#include "opkg_sim/datacopy.h"
#include "opkg_sim/tensor.h"

namespace AscendC {

inline int64_t GetBlockIdx() { return opkg_sim::block().idx; }
inline int64_t GetBlockNum() { return opkg_sim::block().num; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetTaskRation() { return 1; }
inline int64_t GetSubBlockNum() { return 1; }

template <pipe_t pipe = PIPE_ALL> inline void PipeBarrier() {}
template <HardEvent evt> inline void SetFlag(int32_t) {}
template <HardEvent evt> inline void WaitFlag(int32_t) {}
// A barrier across all blocks. Blocks first run one after another; block 0 reaching SyncAll
// switches the launch to one thread per block (see kernel_runtime.h).
inline void SyncAll(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::BlockState& b = opkg_sim::block();
    opkg_sim::note(loc);
    if (b.num <= 1) return;
    if (!b.barrier) {
        if (b.idx == 0) throw opkg_sim::NeedConcurrent{};
        opkg_sim::fail(loc, opkg_sim::format(
            "block %lld reached SyncAll, but block 0 returned without reaching it; on hardware the "
            "blocks would wait here forever. Every block must call SyncAll the same number of times.",
            (long long)b.idx));
    }
    b.barrier->arrive(loc);
    ++b.epoch;
}
template <bool isAIVOnly = true>
inline void SyncAll(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { SyncAll(loc); }
inline void SetAtomicNone() {
    opkg_sim::block().atomic = 0;
}
// DataCopy to GM accumulates while set; such stores may overlap between blocks by design.
template <class T> inline void SetAtomicAdd() {
    opkg_sim::block().atomic = opkg_sim::atomic_code<T>();
    opkg_sim::block().atomic_type = opkg_sim::type_name<T>();
}
inline void SetMaskNorm() {}
inline void SetMaskCount() {}
inline void ResetMask() {}
inline void SetVectorMask(uint64_t, uint64_t) {}
template <class T, bool = true> inline void SetVectorMask(uint64_t, uint64_t) {}
template <class T, bool = true> inline void SetVectorMask(int32_t) {}
inline void SetKernelMode(KernelMode) {}
inline void SetSysWorkspace(GM_ADDR) {}

inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    return workspace ? workspace + opkg_sim::block().sys_workspace : workspace;
}
inline GM_ADDR GetSysWorkSpacePtr() { return nullptr; }

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

// Prints up to dumpSize elements into the run log (RunInfo.log), like the NPU's dump channel.
template <class T>
inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint32_t n = dumpSize < t.size_ ? dumpSize : t.size_;
    opkg_sim::check_read(t.ptr_, uint64_t(n) * sizeof(T), "DumpTensor", "the tensor", loc);
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
inline void pipe_barrier(pipe_t) {}
inline void set_flag(pipe_t, pipe_t, event_t) {}
inline void wait_flag(pipe_t, pipe_t, event_t) {}

#ifndef ASSERT
#define ASSERT(expr) ((expr) ? (void)0 : ::opkg_sim::assert_fail(#expr, __FILE__, __LINE__))
#endif
#ifndef ascendc_assert
#define ascendc_assert(expr, ...) ((expr) ? (void)0 : ::opkg_sim::assert_fail(#expr, __FILE__, __LINE__, __VA_ARGS__))
#endif

// The kernel binary is built for one tiling key at a time on hardware; here the key chosen by
// the tiling function is known at run time.
#define TILING_KEY_IS(k) (::opkg_sim::block().tiling_key == static_cast<uint64_t>(k))
#define KERNEL_TASK_TYPE_DEFAULT(x)
#define KERNEL_TASK_TYPE(key, x)

#endif
