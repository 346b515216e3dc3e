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
    uint8_t* written = nullptr;   // outputs and workspace: one byte per GM byte, set once stored to
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

// The pipes of an AI Core that touch UB, as bits (a set of pipes is a mask). NONE: an access
// that orders itself (DumpTensor) and is not checked for hazards.
enum class Pipe : uint8_t { NONE = 0, S = 1, V = 2, MTE2 = 4, MTE3 = 8 };
struct SyncState;   // hazard.h: unordered accesses per UB byte, present only for --sync-check runs

// Thrown when block 0 reaches SyncAll while blocks run one after another: the launch is undone
// and rerun with every block on its own thread.
struct NeedConcurrent {};
// Thrown in blocks waiting at a barrier that can no longer complete (another block failed).
struct Aborted {};

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
    uint64_t mask_lo = ~0ull, mask_hi = ~0ull;   // ResetMask's value: every lane
    uint64_t max_min_cnt = 0;  // vcmax/vcmin's value (low bits) and index (high 32 bits), GetReduceMaxMinCount
    bool max_min_set = false;
    SrcLoc held{nullptr, 0};   // a queue tensor still allocated when its queue went away
    std::string held_message;
    bool lenient_copy = false; // --lenient-copy: ragged DataCopy lengths truncate, as on the device
    int truncations = 0;       // lenient truncations logged so far in this block
    SyncState* sync = nullptr; // set when the launch asked for --sync-check (hazard.h)
    OpkgBlockProfile prof{};   // profile counters (count_copy / count_vec / count_queue)
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

inline const GmRegion* region_of(const std::vector<GmRegion>& regions, const void* p) {
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (const GmRegion& r : regions) {
        if (q >= r.base && q < r.base + r.bytes) return &r;
    }
    return nullptr;
}

inline const GmRegion* gm_region(const void* p) { return region_of(block().gm, p); }

// Marks GM bytes of an output or the workspace as defined (any block, any kind of store).
inline void gm_defined(const void* p, uint64_t bytes) {
    const GmRegion* r = gm_region(p);
    if (!r || !r->written) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base);
    std::memset(r->written + off, 1, bytes < r->bytes - off ? bytes : r->bytes - off);
}

// Fails when a GM read covers output or workspace bytes that no store has written yet: on the
// device those hold whatever the previous user of the memory left there.
inline void check_gm_defined(const void* p, uint64_t bytes, const char* op, SrcLoc loc) {
    const GmRegion* r = gm_region(p);
    if (!r || !r->written || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base);
    uint64_t n = bytes < r->bytes - off ? bytes : r->bytes - off;
    const void* hole = std::memchr(r->written + off, 0, n);
    if (!hole) return;
    uint64_t first = uint64_t(static_cast<const uint8_t*>(hole) - r->written);
    fail(loc, format("%s reads byte %llu of '%s', which no block has written yet; on the device %s starts "
                     "with whatever the memory held before (not zeros). Write it before reading it back, or "
                     "read an input instead.", op, (unsigned long long)first, r->name,
                     std::strcmp(r->name, "workspace") == 0 ? "the workspace" : "an output"));
}

inline void record_write(const void* p, uint64_t bytes, SrcLoc loc) {
    BlockState& b = block();
    gm_defined(p, bytes);
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

private:
    void check_stuck() {
        if (arrived > 0 && arrived + finished == num) {
            aborted = true;
            cv.notify_all();
        }
    }
};

inline void sync_read(const uint8_t* p, uint64_t n, Pipe pipe, const char* op, const char* role, SrcLoc loc);
inline void sync_write(const uint8_t* p, uint64_t n, Pipe pipe, SrcLoc loc);

// Shadow byte values: what is known about a UB byte in this block.
enum : uint8_t { UB_UNWRITTEN = 0, UB_WRITTEN = 1, UB_STALE = 2 /* written, then its queue buffer handed out again */ };

// `pipe` is the pipe of the writing instruction (vector instructions unless said otherwise);
// the call site is the latest checked API call (every API checks its operands first).
inline void mark_written(const void* p, uint64_t bytes, Pipe pipe = Pipe::V) {
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    std::memset(b.shadow + off, UB_WRITTEN, n);
    if (off + n > b.prof.ub_touched_bytes) b.prof.ub_touched_bytes = off + n;
    if (b.sync) sync_write(b.ub + off, n, pipe, b.last);
}

// Profile counters (docs/profile.md). Each API call is counted once, by the copy or vector
// implementation it ends in; nothing here changes what the kernel computes.
enum CopyDir { COPY_GM_UB = 0, COPY_UB_GM = 1, COPY_UB_UB = 2 };

inline void count_copy(CopyDir dir, uint64_t bytes) {
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

inline void count_vec(const char* op, uint64_t elements, uint64_t bytes, uint64_t repeats) {
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

// Fails when [p, p+bytes) holds UB bytes nothing wrote in this block, or nothing wrote since
// AllocTensor handed their queue buffer out again: the hardware would read whatever an earlier
// kernel or tile left there. Then, under --sync-check, checks the read against the other pipes.
inline void check_read(const void* p, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
                       Pipe pipe = Pipe::V) {
    BlockState& b = block();
    if (!b.shadow || !bytes) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
    const uint8_t* hole = first_hole(b.shadow + off, n);
    if (hole) {
        uint64_t first = uint64_t(hole - b.shadow);
        const UbAlloc* a = alloc_at(first);
        std::string where = a ? format(" of a %s set up at %s:%d", a->kind.c_str(), a->file ? a->file : "?", a->line) : "";
        if (*hole == UB_STALE) {
            fail(loc, format("%s reads %s bytes at UB offset %llu (UB byte %llu, %llu bytes into the operand%s) that "
                             "an earlier tile wrote and nothing wrote since AllocTensor handed this buffer out "
                             "again; the hardware would read the earlier tile's data. Fill it first in this tile "
                             "(DataCopy, Duplicate, ...) or shorten the count.",
                             op, role, (unsigned long long)off, (unsigned long long)first,
                             (unsigned long long)(first - off), where.c_str()));
        }
        fail(loc, format("%s reads %s bytes at UB offset %llu that nothing wrote in this block (UB byte %llu, "
                         "%llu bytes into the operand%s); the hardware would read stale data. Fill it first "
                         "(DataCopy, Duplicate, ...) or shorten the count.",
                         op, role, (unsigned long long)off, (unsigned long long)first,
                         (unsigned long long)(first - off), where.c_str()));
    }
    if (b.sync && pipe != Pipe::NONE) sync_read(b.ub + off, n, pipe, op, role, loc);
}

// AllocTensor hands a queue buffer out for a new tile: what an earlier tile wrote there is stale.
inline void mark_stale(const void* p, uint64_t bytes) {
    BlockState& b = block();
    if (!b.shadow) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.ub_bytes) return;
    uint64_t n = bytes < b.ub_bytes - off ? bytes : b.ub_bytes - off;
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

#include "opkg_sim/hazard.h"
#endif
