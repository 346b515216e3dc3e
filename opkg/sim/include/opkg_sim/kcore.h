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
#include <mutex>
#include <string>
#include <utility>
#include <vector>
#include "opkg_sim/abi.h"

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

inline std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char* fmt, ...) {
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

[[noreturn]] inline void fail(SrcLoc loc, std::string msg, int kind = FAIL_RULE) {
    throw Failure(kind, loc.file, loc.line, std::move(msg));
}

// One UB allocation made by TPipe::InitBuffer, kept for overflow reports.
struct UbAlloc {
    std::string kind;     // "TQue<VECIN, depth 2>" / "TBuf<VECCALC>"
    uint32_t num;
    uint32_t len;         // rounded to 32 B
    uint64_t offset;
    const char* file;
    int line;
};

struct GmRegion {
    const uint8_t* base;
    uint64_t bytes;
    const char* name;
};

// One run of GM bytes a block wrote (without atomic add), for cross-block conflict checks.
struct GmWrite {
    const uint8_t* begin;
    const uint8_t* end;
    int64_t block;
    int64_t epoch;     // SyncAll barriers passed before the store; stores in different epochs are ordered
    SrcLoc loc;
};

struct Barrier;

// Thrown when block 0 reaches SyncAll while blocks run one after another: the launch is undone
// and rerun with every block on its own thread.
struct NeedConcurrent {};
// Thrown in blocks waiting at a barrier that can no longer complete (another block failed).
struct Aborted {};

struct BlockState {
    int64_t idx = 0;
    int64_t num = 1;
    uint8_t* ub = nullptr;
    uint8_t* shadow = nullptr;  // one byte per UB byte: nonzero once something wrote it in this block
    uint64_t ub_bytes = 0;
    uint64_t ub_cursor = 0;
    uint64_t ub_high = 0;      // highest UB offset any buffer reached: what the next block must reset
    std::vector<UbAlloc> allocs;
    std::vector<GmRegion> gm;
    uint64_t tiling_key = 0;
    uint64_t sys_workspace = 0;
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
    uint64_t pad_value = 0;    // DataCopyPad's padding register (SetPadValue, or isPad's paddingValue)
    bool pad_value_set = false;
};

inline BlockState& block() {
    static thread_local BlockState state;
    return state;
}

// Records an API call site; cheap enough to do on every checked call.
inline void note(SrcLoc loc) {
    if (loc.file) block().last = loc;
}

inline const char* basename_of(const char* path) {
    const char* slash = std::strrchr(path ? path : "", '/');
    return slash ? slash + 1 : (path ? path : "");
}

// Checks that [p, p+bytes) lies inside one GM buffer the kernel was given; returns the region.
inline const GmRegion* check_gm(const void* p, uint64_t bytes, const char* what, SrcLoc loc) {
    BlockState& b = block();
    note(loc);
    if (b.gm.empty()) return nullptr;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    const GmRegion* near = nullptr;
    for (const GmRegion& r : b.gm) {
        if (q >= r.base && q <= r.base + r.bytes) {
            if (q + bytes <= r.base + r.bytes) return &r;
            near = &r;
            break;
        }
    }
    if (near) {
        fail(loc, format("%s accesses GM bytes [%llu, %llu) of '%s', which has only %llu bytes",
                         what, (unsigned long long)(q - near->base),
                         (unsigned long long)(q - near->base + bytes), near->name,
                         (unsigned long long)near->bytes));
    }
    fail(loc, format("%s accesses %llu GM bytes at %p, outside every buffer passed to the kernel "
                     "(inputs, outputs, workspace, tiling)", what, (unsigned long long)bytes, p));
}

inline void record_write(const void* p, uint64_t bytes, SrcLoc loc) {
    BlockState& b = block();
    if (!b.writes || bytes == 0) return;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    if (!b.writes->empty()) {
        GmWrite& last = b.writes->back();
        if (last.block == b.idx && last.epoch == b.epoch && last.end == q) {   // sequential stores coalesce
            last.end = q + bytes;
            return;
        }
    }
    b.writes->push_back(GmWrite{q, q + bytes, b.idx, b.epoch, loc});
}

// Keeps the bytes a GM store is about to overwrite, so that a launch can be undone.
inline void save_undo(void* p, uint64_t bytes) {
    BlockState& b = block();
    if (b.undo && bytes) b.undo->emplace_back(static_cast<uint8_t*>(p), std::string(static_cast<const char*>(p), bytes));
}

// SyncAll across blocks running on their own threads. A block that returns while others wait
// can never release them: that is a hang on hardware and a failure here.
struct Barrier {
    std::mutex m;
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

private:
    void check_stuck() {
        if (arrived > 0 && arrived + finished == num) {
            aborted = true;
            cv.notify_all();
        }
    }
};

inline void mark_written(const void* p, uint64_t bytes) {
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off < b.ub_bytes) std::memset(b.shadow + off, 1, bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off);
}

inline const UbAlloc* alloc_at(uint64_t off) {
    for (const UbAlloc& a : block().allocs) {
        if (off >= a.offset && off < a.offset + uint64_t(a.num) * a.len) return &a;
    }
    return nullptr;
}

// Fails when [p, p+bytes) holds UB bytes nothing wrote in this block: the hardware would read
// whatever an earlier kernel or tile left there.
inline void check_read(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc) {
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    const void* hole = std::memchr(b.shadow + off, 0, n);
    if (!hole) return;
    uint64_t first = uint64_t(static_cast<const uint8_t*>(hole) - b.shadow);
    const UbAlloc* a = alloc_at(first);
    std::string where = a ? format(" of a %s set up at %s:%d", a->kind.c_str(), a->file ? a->file : "?", a->line) : "";
    fail(loc, format("%s reads %s bytes at UB offset %llu that nothing wrote in this block (UB byte %llu, "
                     "%llu bytes into the operand%s); the hardware would read stale data. Fill it first "
                     "(DataCopy, Duplicate, ...) or shorten the count.",
                     op, role, (unsigned long long)off, (unsigned long long)first,
                     (unsigned long long)(first - off), where.c_str()));
}

inline void log_line(const std::string& text) {
    BlockState& b = block();
    if (b.log) {
        *b.log += format("[block %lld] ", (long long)b.idx);
        *b.log += text;
        if (text.empty() || text.back() != '\n') *b.log += '\n';
    }
}

[[noreturn]] inline void assert_fail(const char* expr, const char* file, int line, const char* fmt = nullptr, ...) {
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

}  // namespace opkg_sim
#endif
