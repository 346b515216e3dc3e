// IBSet / IBWait: the inter-block flags of CANN 8.1 in a zeroed GM workspace. The flag of
// (blockIdx, eventID) is the int32 at gmWorkspace[blockNum * 8 * eventID + blockIdx * 8]; IBSet
// waits for it to be 0 and writes 1, IBWait waits for 1 and writes 0, each moving the 32-byte block
// through ubWorkspace as CANN does. Blocks first run one after another: a wait that no earlier
// block satisfied switches the launch to one thread per block when block 0 meets it (as SyncAll
// does), and is reported otherwise (a limit of the sequential run; docs/api.md). Running
// concurrently, a wait that lasts longer than OPKG_IB_WAIT_SECONDS (10 s) is reported as a hang.
#ifndef OPKG_SIM_IBSYNC_H
#define OPKG_SIM_IBSYNC_H

#include <chrono>
#include <thread>
#include "opkg_sim/basic_api/core/kmisc.h"
#include "opkg_sim/basic_api/core/datacopy.h"

namespace opkg_sim {

constexpr int OPKG_IB_WAIT_SECONDS = 10;

inline void ib_flag(const AscendC::GlobalTensor<int32_t>& gm, const AscendC::LocalTensor<int32_t>& ub,
                    int32_t blockIdx, int32_t eventID, bool aiv_only, int32_t from, int32_t to, const char* op,
                    SrcLoc loc) {
    BlockState& b = block();
    note(loc);
    int64_t num = b.num;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
    if (!aiv_only) num *= 2;   // the cube cores' flags follow the vector cores'
#else
    (void)aiv_only;
#endif
    if (blockIdx < 0 || blockIdx >= num || eventID < 0) {
        fail(loc, format("%s: blockIdx %d outside [0, %lld) or eventID %d negative", op, blockIdx, (long long)num,
                         eventID));
    }
    int32_t* slot = gm.ptr_ + (num * 8 * eventID + int64_t(blockIdx) * 8);
    check_gm(slot, 32, op, loc);
    check_ub(ub, 32, op, "ubWorkspace", loc);
    check_gm_use(slot, 4, op, loc);   // a workspace nobody zeroed: the device would read garbage
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        {
            std::unique_lock<std::mutex> one_at_a_time;
            if (b.barrier) one_at_a_time = std::unique_lock<std::mutex>(b.barrier->atomics);
            if (__atomic_load_n(slot, __ATOMIC_SEQ_CST) == from) {
                std::memcpy(ub.ptr_, slot, 32);
                ub.ptr_[0] = to;
                mark_written(ub.ptr_, 32, Pipe::MTE2);
                save_undo(slot, 32);
                for (int k = 1; k < 8; ++k) __atomic_store_n(slot + k, ub.ptr_[k], __ATOMIC_SEQ_CST);
                __atomic_store_n(slot, to, __ATOMIC_SEQ_CST);
                gm_defined(slot, 32);   // a flag, not data: exempt from the cross-block store check
                return;
            }
        }
        if (!b.barrier) {
            if ((b.idx == 0 || b.split) && b.num > 1 && !(b.cores && b.num > b.cores)) throw NeedConcurrent{};
            fail(loc, format("%s(blockIdx %d, eventID %d) waits for the flag to become %d, and no block that ran "
                             "before block %lld set it. The sim runs blocks one after another (concurrently only "
                             "when block 0 waits or reaches SyncAll), so a wait for a later block is reported "
                             "here; on hardware it may be fine if that block sets the flag, a hang if none does.",
                             op, blockIdx, eventID, from, (long long)b.idx));
        }
        if (b.barrier->aborted) throw Aborted{};   // another block failed: this wait can never end
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(OPKG_IB_WAIT_SECONDS)) {
            fail(loc, format("%s(blockIdx %d, eventID %d) waited %d s for the flag: no block changes it, a hang on "
                             "hardware", op, blockIdx, eventID, OPKG_IB_WAIT_SECONDS));
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

// The soft SyncAll (CANN 8.1's SoftSyncAllImpl): block i keeps a counter in the int32 at
// gmWorkspace[i * 8], which must start zeroed (the host, or every block before its first call).
// A call raises the block's counter to n (its n-th call; a counter still 0 when it rechecks, i.e.
// zeroed by a later block, is set back to 1 as the device does), then waits until the counters
// of all `usedCores` blocks (0: blockDim) add up to usedCores * n, loading them through
// ubWorkspace. Here the wait is the hard SyncAll's barrier followed by that check, repeated until
// it holds or OPKG_IB_WAIT_SECONDS pass (a hang on the device).
inline void soft_sync_all(const AscendC::GlobalTensor<int32_t>& gm, const AscendC::LocalTensor<int32_t>& ub,
                          int32_t usedCores, bool aiv_only, SrcLoc loc) {
    const char* op = "SyncAll(gmWorkspace, ubWorkspace)";
    BlockState& b = block();
    note(loc);
    if (!aiv_only) fail(loc, format("%s: the soft SyncAll has no isAIVOnly = false form (CANN documents it for the "
                                    "hard SyncAll only)", op));
    if (usedCores < 0 || usedCores > b.num) {
        fail(loc, format("%s: usedCores %d outside [0, blockDim %lld]", op, usedCores, (long long)b.num));
    }
    if (usedCores != 0 && usedCores != b.num) {
        fail(loc, format("%s: usedCores %d with blockDim %lld (a sync of some of the blocks) is not emulated; the sim "
                         "syncs all blocks (usedCores 0 or blockDim)", op, usedCores, (long long)b.num));
    }
    const int64_t total = b.num;
    const uint64_t bytes = uint64_t(total) * 32;
    if (gm.sized_ && uint64_t(gm.size_) * 4 < bytes) {
        fail(loc, format("%s: gmWorkspace holds %llu int32 (SetGlobalBuffer) but %lld blocks need %llu bytes (32 "
                         "per block)", op, (unsigned long long)gm.size_, (long long)total, (unsigned long long)bytes));
    }
    check_gt(gm, bytes, op, loc);
    check_ub(ub, bytes, op, "ubWorkspace", loc);
    sync_barrier_all();   // the device's PipeBarrier<PIPE_ALL> first
    int32_t* mine = gm.ptr_ + b.idx * 8;
    int32_t target = 0;
    sync_all_blocks(loc, [&] {
        forget_writes(gm.ptr_, bytes);
        // a counter nobody zeroed: the device would count garbage
        check_gm_use(mine, 4, op, loc);
        std::unique_lock<std::mutex> one_at_a_time;
        if (b.barrier) one_at_a_time = std::unique_lock<std::mutex>(b.barrier->atomics);
        target = __atomic_load_n(mine, __ATOMIC_SEQ_CST) + 1;
        save_undo(mine, 4);
        __atomic_store_n(mine, target, __ATOMIC_SEQ_CST);
        gm_defined(mine, 4);
    });
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        int64_t count = 0;
        {
            std::unique_lock<std::mutex> one_at_a_time;
            if (b.barrier) one_at_a_time = std::unique_lock<std::mutex>(b.barrier->atomics);
            if (target == 1) __atomic_store_n(mine, 1, __ATOMIC_SEQ_CST);
            for (int64_t i = 0; i < total * 8; ++i) ub.ptr_[i] = __atomic_load_n(gm.ptr_ + i, __ATOMIC_SEQ_CST);
            for (int64_t i = 0; i < total; ++i) count += ub.ptr_[i * 8];
        }
        mark_written(ub.ptr_, bytes, Pipe::MTE2);
        gm_taint(ub.ptr_, gm.ptr_, bytes, op, loc);
        if (count >= total * int64_t(target)) return;
        if (b.barrier && b.barrier->aborted) throw Aborted{};
        if (!b.barrier || std::chrono::steady_clock::now() - start > std::chrono::seconds(OPKG_IB_WAIT_SECONDS)) {
            fail(loc, format("%s: the %lld blocks' counters in gmWorkspace add up to %lld, never %lld (this block's "
                             "call %d): on the device the blocks would wait here forever. gmWorkspace must start "
                             "zeroed, and every block must call SyncAll the same number of times.", op,
                             (long long)total, (long long)count, (long long)(total * int64_t(target)), target));
        }
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::ib_flag(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, 0, 1, "IBSet", loc);
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::ib_flag(gmWorkspace, ubWorkspace, blockIdx, eventID, isAIVOnly, 1, 0, "IBWait", loc);
}

// The soft SyncAll, through a zeroed GM workspace of 32 bytes per block and a UB buffer as large.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                    const int32_t usedCores = 0, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::soft_sync_all(gmWorkspace, ubWorkspace, usedCores, isAIVOnly, loc);
}

}  // namespace AscendC
#endif
