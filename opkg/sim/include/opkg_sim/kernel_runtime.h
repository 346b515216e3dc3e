// Runs a kernel over blockDim blocks, one after another: each block gets its index, a fresh
// UB arena (filled with 0xFF so reads of never-written UB show up as NaN), the GM regions for
// bounds checks, and the tiling key. Failures become an OpkgError for runtime.py.
// Included only by the generated kernel entry (templates/kernel_entry.cpp.j2).
#ifndef OPKG_SIM_KERNEL_RUNTIME_H
#define OPKG_SIM_KERNEL_RUNTIME_H

#include <csetjmp>
#include <csignal>
#include <algorithm>
#include <cstdlib>
#include <new>
#include "kernel_operator.h"
#include "opkg_sim/abi.h"

namespace opkg_sim {

inline void copy_text(char* dst, size_t cap, const std::string& s) {
    if (!dst || cap == 0) return;
    size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
}

inline void set_error(OpkgError* err, int kind, const std::string& file, int line, int64_t blk, int64_t dim,
                      const std::string& msg) {
    if (!err) return;
    err->kind = kind;
    err->line = line;
    err->block = static_cast<int32_t>(blk);
    err->block_dim = static_cast<int32_t>(dim);
    copy_text(err->file, sizeof err->file, file);
    copy_text(err->message, sizeof err->message, msg);
}

// Crashes in kernel code (a raw pointer past a buffer, integer division by zero, abort()) jump
// back here so they are reported like other failures, naming the last API call before them.
struct CrashGuard {
    static sigjmp_buf& jump() {
        static sigjmp_buf buf;
        return buf;
    }
    static volatile sig_atomic_t& signal_no() {
        static volatile sig_atomic_t sig = 0;
        return sig;
    }
    static void*& address() {
        static void* addr = nullptr;
        return addr;
    }
    static void handler(int sig, siginfo_t* info, void*) {
        signal_no() = sig;
        address() = info ? info->si_addr : nullptr;
        siglongjmp(jump(), 1);
    }
    static constexpr int kSignals[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
    struct sigaction old_[4];
    stack_t old_stack_{};
    std::vector<char> stack_;

    CrashGuard() : stack_(1 << 16) {
        stack_t ss{};
        ss.ss_sp = stack_.data();
        ss.ss_size = stack_.size();
        sigaltstack(&ss, &old_stack_);   // stack overflows still reach the handler
        struct sigaction sa{};
        sa.sa_sigaction = &CrashGuard::handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &sa, &old_[i]);
    }
    ~CrashGuard() {
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &old_[i], nullptr);
        sigaltstack(&old_stack_, nullptr);
    }
    static std::string describe(int sig, void* addr) {
        switch (sig) {
            case SIGSEGV: return format("segmentation fault at address %p: the kernel touched memory outside its "
                                        "GM buffers and UB through a raw pointer", addr);
            case SIGBUS: return format("bus error at address %p", addr);
            case SIGFPE: return "arithmetic exception (integer division by zero?) in kernel scalar code";
            case SIGABRT: return "abort() in kernel code (a failed assert()?)";
            default: return format("signal %d", sig);
        }
    }
};

inline const GmRegion* region_of(const std::vector<GmRegion>& regions, const uint8_t* p) {
    for (const GmRegion& r : regions) {
        if (p >= r.base && p < r.base + r.bytes) return &r;
    }
    return nullptr;
}

// Two blocks storing to the same GM bytes (outside atomic add) race on hardware.
inline bool check_conflicts(std::vector<GmWrite>& writes, const std::vector<GmRegion>& regions, OpkgError* err,
                            uint32_t block_dim) {
    std::sort(writes.begin(), writes.end(), [](const GmWrite& a, const GmWrite& b) {
        return a.begin < b.begin || (a.begin == b.begin && a.block < b.block);
    });
    const GmWrite* top = nullptr;     // the write reaching furthest so far
    const GmWrite* other = nullptr;   // the furthest-reaching write of any other block
    for (const GmWrite& w : writes) {
        const GmWrite* hit = nullptr;
        if (top && top->block != w.block && top->end > w.begin) hit = top;
        else if (other && other->block != w.block && other->end > w.begin) hit = other;
        if (hit) {
            const uint8_t* lo = w.begin;
            const uint8_t* hi = hit->end < w.end ? hit->end : w.end;
            const GmRegion* r = region_of(regions, lo);
            std::string msg = format(
                "blocks %lld and %lld both write bytes [%llu, %llu) of '%s' (block %lld at %s:%d); on hardware "
                "the result depends on timing. Give each block its own part of the output, or accumulate with "
                "SetAtomicAdd.",
                (long long)hit->block, (long long)w.block, (unsigned long long)(r ? lo - r->base : 0),
                (unsigned long long)(r ? hi - r->base : 0), r ? r->name : "?", (long long)hit->block,
                hit->loc.file ? hit->loc.file : "?", hit->loc.line);
            set_error(err, FAIL_RULE, w.loc.file ? w.loc.file : "", w.loc.line, w.block, block_dim, msg);
            return false;
        }
        if (!top || w.end > top->end) {
            if (top && top->block != w.block) other = top;
            top = &w;
        } else if (w.block != top->block && (!other || w.end > other->end)) {
            other = &w;
        }
    }
    return true;
}

inline int run_blocks(const OpkgKernelLaunch* launch, void (*entry)(uint8_t** args), OpkgError* err) {
    if (err) std::memset(err, 0, sizeof *err);
    if (!launch || launch->abi != OPKG_SIM_ABI) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, 0, "kernel library ABI mismatch: rebuild it with this opkg");
        return 1;
    }
    uint64_t ub_bytes = launch->ub_bytes;
    uint64_t arena_bytes = (ub_bytes + 63) / 64 * 64;
    uint8_t* arena = static_cast<uint8_t*>(std::aligned_alloc(64, arena_bytes ? arena_bytes : 64));
    if (!arena) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, launch->block_dim, "cannot allocate the Unified Buffer arena");
        return 1;
    }
    std::vector<uint8_t*> args(launch->arg_count);
    std::vector<GmRegion> regions;
    for (uint32_t i = 0; i < launch->arg_count; ++i) {
        args[i] = launch->args[i].ptr;
        if (launch->args[i].ptr) regions.push_back(GmRegion{launch->args[i].ptr, launch->args[i].bytes, launch->args[i].name});
    }
    std::string log;
    std::vector<GmWrite> writes;
    volatile int rc = 0;
    BlockState& b = block();
    CrashGuard guard;
    for (volatile uint32_t idx = 0; idx < launch->block_dim && rc == 0; ++idx) {
        b = BlockState();
        b.idx = idx;
        b.num = launch->block_dim;
        b.ub = arena;
        b.ub_bytes = ub_bytes;
        b.gm = regions;
        b.tiling_key = launch->tiling_key;
        b.sys_workspace = launch->sys_workspace;
        b.log = &log;
        b.writes = &writes;
        b.active = true;
        std::memset(arena, 0xFF, arena_bytes);
        if (sigsetjmp(CrashGuard::jump(), 1) != 0) {
            std::string msg = CrashGuard::describe(CrashGuard::signal_no(), CrashGuard::address());
            SrcLoc last = b.last;
            if (last.file) msg += format("; the last checked Ascend C call before it is at this line");
            else msg += "; no Ascend C call had been made in this block yet";
            set_error(err, FAIL_RULE, last.file ? last.file : "", last.line, idx, launch->block_dim, msg);
            rc = 1;
            break;
        }
        try {
            entry(args.data());
        } catch (const Failure& f) {
            set_error(err, f.kind, f.file, f.line, idx, launch->block_dim, f.message);
            rc = 1;
        } catch (const std::exception& e) {
            set_error(err, FAIL_INTERNAL, "", 0, idx, launch->block_dim, std::string("C++ exception: ") + e.what());
            rc = 1;
        } catch (...) {
            set_error(err, FAIL_INTERNAL, "", 0, idx, launch->block_dim, "unknown C++ exception");
            rc = 1;
        }
    }
    b = BlockState();
    std::free(arena);
    if (rc == 0 && !check_conflicts(writes, regions, err, launch->block_dim)) rc = 1;
    copy_text(launch->log, launch->log_cap, log);
    return rc;
}

}  // namespace opkg_sim
#endif
