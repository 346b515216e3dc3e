// The SIMT runtime (declared in opkg_sim/simt/simt.h): fibres for a block's threads, the
// barrier, and the per-access checks behind GCC's thread-sanitizer instrumentation. Included
// once, by src/kernel_runtime.cpp (OPKG_SIM_RUNTIME_TU), which is compiled without that
// instrumentation.
#ifndef OPKG_SIM_SIMT_RUNTIME_H
#define OPKG_SIM_SIMT_RUNTIME_H

#include <dlfcn.h>
#include <sys/mman.h>
#include <cstdio>
#include <exception>
#include <vector>
#include "opkg_sim/simt/simt.h"

// The runtime's own dim3 values carry no source location: a defaulted one would put this
// header's path, as the compiler was given it, into every kernel library, and a library built
// on a remote worker (another path) would then differ from a local one.
#define OPKG_SIMT_DIM3(x, y, z) dim3((x), (y), (z), opkg_sim::SrcLoc{nullptr, 0})
OPKG_SIMT_BUILTIN opkg_sim::simt::BuiltinDim3 threadIdx = {1, 1, 1};
OPKG_SIMT_BUILTIN opkg_sim::simt::BuiltinDim3 blockDim = {1, 1, 1};
OPKG_SIMT_BUILTIN opkg_sim::simt::BuiltinDim3 blockIdx = {1, 1, 1};
OPKG_SIMT_BUILTIN opkg_sim::simt::BuiltinDim3 gridDim = {1, 1, 1};

namespace opkg_sim {
namespace simt {

#if defined(__x86_64__)
// A fibre switch saves the callee-saved registers and the SSE/x87 control words on the old
// stack and pops them from the new one: tens of nanoseconds, where swapcontext makes a system
// call (the signal mask) on every switch.
extern "C" void opkg_simt_switch(void** save_sp, void* to_sp);
extern "C" void opkg_simt_start();
asm(R"(
    .text
    .globl opkg_simt_switch
    .hidden opkg_simt_switch
    .type opkg_simt_switch,@function
opkg_simt_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size opkg_simt_switch,.-opkg_simt_switch
    .globl opkg_simt_start
    .hidden opkg_simt_start
    .type opkg_simt_start,@function
opkg_simt_start:
    pushq %rbp
    movq %r12, %rdi
    call *%rbx
    ud2
    .size opkg_simt_start,.-opkg_simt_start
)");
#else
#error "the sim's SIMT fibres need an x86-64 host"
#endif

constexpr size_t STACK_BYTES = size_t(256) << 10;   // per suspended thread, NORESERVE

struct Fibre {
    void* sp = nullptr;
    uint8_t* stack = nullptr;
    uint32_t tid = 0;
    bool done = false;
    SrcLoc wait{nullptr, 0};
};

// Stacks of finished fibres, reused by the next thread (a launch without barriers needs one).
class StackPool {
public:
    ~StackPool() {
        for (uint8_t* s : free_) munmap(s, STACK_BYTES);
    }
    uint8_t* take() {
        if (!free_.empty()) {
            uint8_t* s = free_.back();
            free_.pop_back();
            return s;
        }
        void* m = mmap(nullptr, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) throw Failure(FAIL_INTERNAL, "", 0, "cannot allocate a SIMT thread stack");
        mprotect(m, 4096, PROT_NONE);   // overflow faults instead of corrupting the next stack
        return static_cast<uint8_t*>(m);
    }
    void give(uint8_t* s) { free_.push_back(s); }

private:
    std::vector<uint8_t*> free_;
};

// One GM buffer or the block's UB, with one shadow cell per 4-byte word (allocated on first
// access; a cell per byte made the shadow 8x the data and the gather benchmark memory-bound):
// bits 0-23 the barrier epoch of the cell's accesses, 24-35 the writing thread + 1, 36-47 the
// reading thread + 1, bit 48 several readers, 49-52 the bytes written, 53-56 the bytes read.
// Threads touching different bytes of one word do not race; the word then names the latest
// writer (reader) for all its written (read) bytes, so such a race names one of the threads
// that wrote (read) there. An epoch never repeats while a shadow lives (release_areas at the
// wrap), so cells of an older epoch read as empty without clearing.
constexpr uint32_t EPOCH_BITS = 24;
constexpr uint64_t EPOCH_MASK = (uint64_t(1) << EPOCH_BITS) - 1;

// A read of an area no thread has written in the current epoch cannot race yet: it is appended
// to the area's read log (sequential stores) instead of updating its cell (a random
// read-modify-write, a cache miss for a gathered table). The area's first write of the epoch
// replays the log into the cells, which from then on are checked on every access. A gathered
// table no thread writes never has its cells touched.
// A logged read in 8 bytes (half the log's memory traffic of a struct): the offset in bits
// 0-39, the byte count - 1 in 40-43, the thread in 44-55. A read the word cannot hold (more
// than 16 bytes, an offset past 1 TiB) goes to the cells at once.
struct LoggedRead {
    uint64_t word;
    static constexpr bool fits(uint64_t off, uint32_t n) { return n <= 16 && off < (uint64_t(1) << 40); }
    static LoggedRead of(uint64_t off, uint32_t n, uint32_t tid) {
        return LoggedRead{off | (uint64_t(n - 1) << 40) | (uint64_t(tid) << 44)};
    }
    uint64_t off() const { return word & ((uint64_t(1) << 40) - 1); }
    uint32_t n() const { return uint32_t((word >> 40) & 0xF) + 1; }
    uint32_t tid() const { return uint32_t(word >> 44); }
};
static_assert(MAX_THREADS <= (1u << 12), "a logged read holds the thread in 12 bits");
constexpr size_t READ_LOG_MAX = size_t(1) << 20;   // then the cells take over (bounded memory)

struct Area {
    const uint8_t* base = nullptr;
    uint64_t len = 0;
    uint64_t* cells = nullptr;
    const GmRegion* gm = nullptr;   // null: the UB
    uint32_t live = 0;              // the epoch whose accesses the cells hold in full
    uint32_t log_epoch = 0;         // the epoch of the reads in log
    std::vector<LoggedRead> log;
    // this launch's plain stores to a GM area, one bit per byte, recorded as the block's GM
    // writes when the launch ends (blocks storing different values to the same bytes are
    // reported as for other stores); [stored_lo, stored_hi) the 64-byte groups touched
    uint64_t* stored = nullptr;
    uint64_t stored_lo = UINT64_MAX, stored_hi = 0;
};

struct Run {
    bool active = false;
    uint32_t n = 0;
    void (*body)(void*) = nullptr;
    void* closure = nullptr;
    void* sched_sp = nullptr;
    Fibre* cur = nullptr;
    std::exception_ptr error;
    uint32_t epoch = 0;
    SrcLoc loc{nullptr, 0};
    std::vector<Area> areas;
    const uint8_t* lo = nullptr;   // every area and its guard zone lie in [lo, hi)
    const uint8_t* hi = nullptr;
    // the area each load or store instruction touched last (by its return address): a gather
    // loop's three accesses each find theirs at once, where one `last` area for all of them
    // missed on every access and scanned the areas
    struct PcArea {
        const void* pc = nullptr;
        Area* ar = nullptr;
    } by_pc[64];
    void forget_areas() {
        for (PcArea& e : by_pc) e = PcArea{};
    }
    StackPool stacks;
    // A store to bytes another thread stored since the last barrier, decided once the store has
    // run (the hook comes before it): the same bytes again leave memory as either order would,
    // which is no race on the device; other bytes are (settle).
    struct PendingStore {
        const Area* ar = nullptr;
        uint64_t off = 0;
        uint32_t n = 0, tid = 0, other = 0;
        uint8_t before[16] = {};
        const void* pc = nullptr;
    } pending;
};

// This OS thread's launch state (a block runs on one thread). The hooks reach it through a
// constant-initialised pointer in the library's local-dynamic TLS, one TLS lookup without an
// initialisation guard per access (a thread_local Run, which has a destructor, took a guard
// check and a second lookup on every hook call). The Run is made on the thread's first use
// and freed when the thread ends.
OPKG_SIMT_BUILTIN Run* run_state = nullptr;

struct RunOwner {
    Run* run = nullptr;
    ~RunOwner() {
        run_state = nullptr;
        delete run;
    }
};

__attribute__((noinline, cold)) inline Run& first_run() {
    static thread_local RunOwner owner;
    owner.run = run_state = new Run;
    return *run_state;
}

inline Run& run() {
    Run* r = run_state;
    return __builtin_expect(r != nullptr, 1) ? *r : first_run();
}

bool in_launch() { return run().active; }
uint32_t linear_tid() { return run().cur ? run().cur->tid : 0; }

inline uint64_t cells_bytes(const Area& a) { return (a.len / 4 + 2) * sizeof(uint64_t); }
inline uint64_t stored_bytes(const Area& a) { return (a.len / 64 + 2) * sizeof(uint64_t); }

inline void* map_zeros(uint64_t bytes, const char* what) {
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw Failure(FAIL_INTERNAL, "", 0, format("cannot allocate the SIMT %s", what));
    return m;
}

inline void release_areas(Run& r) {
    for (Area& a : r.areas) {
        if (a.cells) munmap(a.cells, cells_bytes(a));
        if (a.stored) munmap(a.stored, stored_bytes(a));
    }
    r.areas.clear();
    r.forget_areas();
    r.lo = r.hi = nullptr;
}

// The block's GM buffers and UB as areas; kept from launch to launch while they stay the same.
inline void prepare_areas(Run& r, const BlockState& b) {
    std::vector<std::pair<const uint8_t*, uint64_t>> want;
    for (const GmRegion& g : b.gm) {
        if (gm_span(g)) want.emplace_back(g.base, gm_span(g));
    }
    if (b.ub) want.emplace_back(b.ub, b.ub_bytes);
    bool same = want.size() == r.areas.size();
    for (size_t i = 0; same && i < want.size(); ++i) {
        same = r.areas[i].base == want[i].first && r.areas[i].len == want[i].second;
    }
    if (!same) {
        release_areas(r);
        for (auto& w : want) r.areas.push_back(Area{w.first, w.second, nullptr, nullptr});
    }
    r.lo = reinterpret_cast<const uint8_t*>(UINTPTR_MAX);
    r.hi = nullptr;
    for (Area& a : r.areas) {
        a.gm = nullptr;
        for (const GmRegion& g : b.gm) {
            if (g.base == a.base && a.base != b.ub) a.gm = &g;
        }
        const uint64_t guard = a.gm && a.gm->guarded ? OPKG_SIM_GM_GUARD : 0;
        const uint8_t* lo = a.base - guard;
        const uint8_t* hi = a.base + a.len + guard;
        if (lo < r.lo) r.lo = lo;
        if (hi > r.hi) r.hi = hi;
    }
    r.forget_areas();
}

// file:line of a code address in a kernel library (its line tables: SIMT kernels are built with
// -g1), preferring the innermost frame outside the sim's own headers.
inline SrcLoc where(const void* pc) {
    static thread_local std::string file_store;
    Dl_info info{};
    if (!pc || !dladdr(pc, &info) || !info.dli_fname) return SrcLoc{nullptr, 0};
    const uintptr_t off = reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(info.dli_fbase) - 1;
    std::string cmd = format("addr2line -i -e '%s' 0x%llx 2>/dev/null", info.dli_fname, (unsigned long long)off);
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return SrcLoc{nullptr, 0};
    char line[4096];
    std::string best;
    int best_line = 0;
    while (fgets(line, sizeof line, f)) {
        std::string s(line);
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
        const size_t colon = s.rfind(':');
        if (colon == std::string::npos) continue;
        std::string file = s.substr(0, colon);
        // a repository's source is `@name//path` in the line tables (the build's prefix maps),
        // which addr2line joins to the compile directory
        const size_t label = file.find("/@");
        if (label != std::string::npos && file.find("//", label + 2) != std::string::npos) file.erase(0, label + 1);
        int ln = std::atoi(s.c_str() + colon + 1);
        if (file == "??" || ln <= 0) continue;
        const bool ours = file.find("/opkg_sim/") != std::string::npos || file.find("/simt_api/") != std::string::npos;
        if (best.empty() || !ours) {
            best = file;
            best_line = ln;
            if (!ours) break;
        }
    }
    pclose(f);
    if (best.empty()) return SrcLoc{nullptr, 0};
    file_store = best;
    return SrcLoc{file_store.c_str(), best_line};
}

[[noreturn]] inline void fail_at(const void* pc, SrcLoc fallback, const std::string& msg) {
    SrcLoc at = where(pc);
    if (!at.file) at = fallback;
    throw Failure(FAIL_RULE, at.file, at.line, msg);
}

constexpr uint32_t ANOTHER = UINT32_MAX;   // a thread the shadow no longer names

inline std::string thread_name(uint32_t tid) {
    if (tid == ANOTHER) return "another thread";
    const dim3 d = blockDim;
    if (d.y == 1 && d.z == 1) return format("thread %u", tid);
    return format("thread (%u, %u, %u)", tid % d.x, (tid / d.x) % d.y, tid / (d.x * d.y));
}

inline void out_of_bounds(Run& r, const uint8_t* a, uint32_t n, bool write, const void* pc) {
    const BlockState& b = block();
    for (const Area& ar : r.areas) {
        if (!ar.gm || !ar.gm->guarded) continue;
        const uint8_t* end = ar.base + ar.len;
        if (a + n > end && a < end + OPKG_SIM_GM_GUARD) {
            fail_at(pc, r.loc, format("SIMT %s of block %lld %s %u bytes at byte %llu of '%s', past the end of its "
                                      "%llu-byte allocation: the thread's index ran past the buffer",
                                      thread_name(r.cur->tid).c_str(), (long long)b.idx, write ? "writes" : "reads",
                                      n, (unsigned long long)(a - ar.base), ar.gm->name, (unsigned long long)ar.len));
        }
        if (a < ar.base && a + OPKG_SIM_GM_GUARD >= ar.base) {
            fail_at(pc, r.loc, format("SIMT %s of block %lld %s %u bytes %llu bytes before the start of '%s': a "
                                      "negative or wrapped-around index",
                                      thread_name(r.cur->tid).c_str(), (long long)b.idx, write ? "writes" : "reads",
                                      n, (unsigned long long)(ar.base - a), ar.gm->name));
        }
    }
}

[[noreturn]] inline void race(Run& r, const Area& ar, uint64_t off, bool write, uint32_t other, bool other_wrote,
                              const void* pc, uint32_t me = ANOTHER) {
    const std::string what = ar.gm ? format("byte %llu of '%s'", (unsigned long long)off, ar.gm->name)
                                   : format("UB byte %llu", (unsigned long long)off);
    fail_at(pc, r.loc, format(
        "data race between SIMT threads: %s of block %lld %s %s, which %s %s since the last "
        "asc_syncthreads(); on hardware the result depends on timing. Separate the accesses with "
        "asc_syncthreads(), give each thread its own bytes, or use an asc_atomic_* function",
        thread_name(me != ANOTHER ? me : r.cur->tid).c_str(), (long long)block().idx, write ? "writes" : "reads",
        what.c_str(),
        thread_name(other).c_str(), other_wrote ? "wrote" : "read"));
}

// The cells of [off, off + n) of an area for an access by thread tid: a race with another
// thread's access since the last barrier fails at pc.
// A store over another thread's store of this epoch is left to `*ww` (that thread) when given.
inline void check_cells(Run& r, const Area& ar, uint64_t off, uint32_t n, bool write, uint32_t tid,
                        const void* pc, uint32_t* ww = nullptr) {
    // the area's base is at least 4-byte aligned (GM buffers and the UB are): words of the area
    const uint64_t me = uint64_t(tid) + 1, epoch = r.epoch;
    uint64_t first = off, left = n;
    while (left) {
        const uint64_t word = first / 4, lo = first % 4, take = std::min<uint64_t>(left, 4 - lo);
        const uint64_t bytes = ((uint64_t(1) << take) - 1) << lo;   // this access's bytes of the word
        uint64_t& cell = ar.cells[word];
        uint64_t v = cell;
        if ((v & EPOCH_MASK) != epoch) v = epoch;
        const uint64_t writer = (v >> 24) & 0xFFF, reader = (v >> 36) & 0xFFF;
        const bool many = (v >> 48) & 1;
        const uint64_t wbytes = (v >> 49) & 0xF, rbytes = (v >> 53) & 0xF;
        if (writer && writer != me && (wbytes & bytes)) {
            if (write && ww) {
                if (*ww == ANOTHER) *ww = uint32_t(writer - 1);
            } else {
                race(r, ar, word * 4 + uint64_t(__builtin_ctzll(wbytes & bytes)), write, uint32_t(writer - 1), true,
                     pc);
            }
        }
        if (write) {
            if (reader && (reader != me || many) && (rbytes & bytes)) {
                race(r, ar, word * 4 + uint64_t(__builtin_ctzll(rbytes & bytes)), true,
                     reader != me ? uint32_t(reader - 1) : ANOTHER, false, pc);
            }
            v = (v & ~(uint64_t(0xFFF) << 24)) | (me << 24) | (bytes << 49);
        } else {
            if (!reader) {
                v |= me << 36;
            } else if (reader != me) {
                v = (v & ~(uint64_t(0xFFF) << 36)) | (me << 36) | (uint64_t(1) << 48);
            }
            v |= bytes << 53;
        }
        cell = v;
        first += take;
        left -= take;
    }
}

// The pending store over another thread's (Run::PendingStore), now that it has run.
inline void settle(Run& r) {
    Run::PendingStore& s = r.pending;
    if (!s.ar) return;
    const Area& ar = *s.ar;
    s.ar = nullptr;
    if (std::memcmp(ar.base + s.off, s.before, s.n) != 0) race(r, ar, s.off, true, s.other, true, s.pc, s.tid);
}

// Bytes [off, off + n) of a GM area in its store map: whole words of the bitmap at a time.
inline void mark_stored(Area& ar, uint64_t off, uint32_t n) {
    for (uint64_t k = off, end = off + n; k < end;) {
        const uint64_t bit = k % 64, take = std::min<uint64_t>(end - k, 64 - bit);
        ar.stored[k / 64] |= (take == 64 ? ~uint64_t(0) : ((uint64_t(1) << take) - 1)) << bit;
        k += take;
    }
    ar.stored_lo = std::min(ar.stored_lo, off / 64);
    ar.stored_hi = std::max(ar.stored_hi, (off + n - 1) / 64 + 1);
}

// One plain load or store of n bytes at p by the current thread.
inline void access(const void* p, uint32_t n, bool write, const void* pc) {
    Run* const state = run_state;
    if (!state || !state->active || !state->cur || n == 0) return;   // no launch on this thread
    Run& r = *state;
    settle(r);
    const uint8_t* a = static_cast<const uint8_t*>(p);
    if (a < r.lo || a >= r.hi) return;                 // the stack, the tiling data, host memory
    Run::PcArea& hint = r.by_pc[(reinterpret_cast<uintptr_t>(pc) >> 2) % 64];
    Area* ar = hint.ar;
    if (!ar || hint.pc != pc || a < ar->base || a >= ar->base + ar->len) {
        ar = nullptr;
        for (size_t k = r.areas.size(); k-- > 0;) {     // the last that holds it
            Area& x = r.areas[k];
            if (a >= x.base && a < x.base + x.len) {
                ar = &x;
                break;
            }
        }
        if (!ar) {
            // the thread's own stack may be mapped right below the kernel library's data
            // segment, which counts as GM and has no guard pages around it
            if (r.cur->stack && a >= r.cur->stack && a < r.cur->stack + STACK_BYTES) return;
            // [lo, hi) also holds memory that is no area's: a fibre's stack or the launch's
            // closure may be mapped between the GM buffers. Only an address in a GM buffer's
            // guard zone is an access past that buffer.
            for (const Area& x : r.areas) {
                if (x.gm && x.gm->guarded && a + n > x.base - OPKG_SIM_GM_GUARD && a < x.base + x.len + OPKG_SIM_GM_GUARD) {
                    out_of_bounds(r, a, n, write, pc);
                    return;
                }
            }
            return;
        }
        hint = Run::PcArea{pc, ar};
    }
    const uint64_t off = uint64_t(a - ar->base);
    if (off + n > ar->len) {
        if (ar->gm) out_of_bounds(r, a + (ar->len - off), n - uint32_t(ar->len - off), write, pc);
        n = uint32_t(ar->len - off);
    }
    if (write) {
        if (ar->gm) {
            if (!ar->stored) ar->stored = static_cast<uint64_t*>(map_zeros(stored_bytes(*ar), "store map"));
            mark_stored(*ar, off, n);
            if (ar->gm->written) {
                if (n == 4) {
                    const uint32_t ones = 0x01010101u;
                    std::memcpy(ar->gm->written + off, &ones, 4);
                } else {
                    std::memset(ar->gm->written + off, 1, n);
                }
            }
        } else if (uint8_t* ub = block().shadow) {
            std::memset(ub + off, UB_WRITTEN, n);
        }
    }
    if (ar->live != r.epoch) {
        if (ar->log_epoch != r.epoch) {
            ar->log.clear();
            ar->log_epoch = r.epoch;
        }
        if (!write && ar->log.size() < READ_LOG_MAX && LoggedRead::fits(off, n)) {
            ar->log.push_back(LoggedRead::of(off, n, r.cur->tid));
            return;
        }
        // the area's first write of the epoch (or a full log): its reads so far into the cells
        if (!ar->cells) ar->cells = static_cast<uint64_t*>(map_zeros(cells_bytes(*ar), "race shadow"));
        ar->live = r.epoch;
        for (const LoggedRead& l : ar->log) check_cells(r, *ar, l.off(), l.n(), false, l.tid(), pc);
        ar->log.clear();
    }
    const bool defer = write && n <= sizeof(r.pending.before);
    uint32_t other = ANOTHER;
    check_cells(r, *ar, off, n, write, r.cur->tid, pc, defer ? &other : nullptr);
    if (other != ANOTHER) {
        Run::PendingStore& s = r.pending;
        s.ar = ar;
        s.off = off;
        s.n = n;
        s.tid = r.cur->tid;
        s.other = other;
        s.pc = pc;
        std::memcpy(s.before, ar->base + off, n);   // the other thread's bytes: the store comes after this hook
    }
}

void atomic_access(const void* p, uint32_t bytes, SrcLoc loc) {
    Run& r = run();
    if (!r.active) return;
    settle(r);
    const uint8_t* a = static_cast<const uint8_t*>(p);
    block().last = loc;
    if (a < r.lo || a >= r.hi) return;
    for (Area& x : r.areas) {
        if (a >= x.base && a + bytes <= x.base + x.len) {
            const uint64_t off = uint64_t(a - x.base);
            if (x.gm && x.gm->written) std::memset(x.gm->written + off, 1, bytes);
            if (!x.gm && block().shadow) std::memset(block().shadow + off, UB_WRITTEN, bytes);
            return;
        }
    }
    out_of_bounds(r, a, bytes, true, nullptr);
}

inline void fibre_main(void* p) {
    Run& r = run();
    Fibre* f = static_cast<Fibre*>(p);
    try {
        r.body(r.closure);
        settle(r);
    } catch (...) {
        r.error = std::current_exception();
    }
    f->done = true;
    opkg_simt_switch(&f->sp, r.sched_sp);
    __builtin_unreachable();
}

inline void set_thread(const Fibre& f) {
    const dim3 d = blockDim;
    threadIdx = OPKG_SIMT_DIM3(f.tid % d.x, (f.tid / d.x) % d.y, f.tid / (d.x * d.y));
}

// Runs f until it returns or waits at a barrier.
inline void resume(Run& r, Fibre& f) {
    set_thread(f);
    r.cur = &f;
    opkg_simt_switch(&r.sched_sp, f.sp);
    r.cur = nullptr;
    if (f.done) {
        r.stacks.give(f.stack);
        f.stack = nullptr;
    }
}

inline void start(Run& r, Fibre& f) {
    f.stack = r.stacks.take();
    uint64_t* top = reinterpret_cast<uint64_t*>(f.stack + STACK_BYTES);
    uint32_t ctl[2];
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(ctl[0]), "=m"(ctl[1]));
    top[-1] = 0;
    top[-2] = reinterpret_cast<uint64_t>(&opkg_simt_start);
    top[-3] = 0;                                                    // rbp
    top[-4] = reinterpret_cast<uint64_t>(&fibre_main);              // rbx
    top[-5] = reinterpret_cast<uint64_t>(&f);                       // r12
    top[-6] = top[-7] = top[-8] = 0;                                // r13-r15
    std::memcpy(&top[-9], ctl, sizeof(uint64_t));
    f.sp = &top[-9];
    resume(r, f);
}

// The launch's GM stores as runs of bytes (kcore.h record_write, at the asc_vf_call's line);
// the store maps are clear again afterwards.
inline void record_gm_stores(Run& r) {
    std::vector<Area*> order;
    for (Area& a : r.areas) {
        if (a.stored && a.stored_lo < a.stored_hi) order.push_back(&a);
    }
    std::sort(order.begin(), order.end(), [](const Area* x, const Area* y) { return x->base < y->base; });
    for (Area* a : order) {
        uint64_t run_begin = UINT64_MAX;
        for (uint64_t g = a->stored_lo; g < a->stored_hi; ++g) {
            uint64_t bits = a->stored[g];
            a->stored[g] = 0;
            for (uint64_t k = 0; k < 64;) {
                const uint64_t rest = bits >> k;
                if (run_begin == UINT64_MAX) {         // looking for a stored byte
                    if (!rest) break;
                    k += uint64_t(__builtin_ctzll(rest));
                    run_begin = g * 64 + k;
                } else {                                // looking for the run's end
                    const uint64_t gap = ~rest & (~uint64_t(0) >> k);   // bits past the group are not a gap
                    if (!gap) break;
                    k += uint64_t(__builtin_ctzll(gap));
                    record_write(a->base + run_begin, g * 64 + k - run_begin, r.loc);
                    run_begin = UINT64_MAX;
                }
            }
        }
        if (run_begin != UINT64_MAX) record_write(a->base + run_begin, a->stored_hi * 64 - run_begin, r.loc);
        a->stored_lo = UINT64_MAX;
        a->stored_hi = 0;
    }
}

inline void clear_stores(Run& r) {
    for (Area& a : r.areas) {
        if (a.stored && a.stored_lo < a.stored_hi) {
            std::memset(a.stored + a.stored_lo, 0, (a.stored_hi - a.stored_lo) * sizeof(uint64_t));
        }
        a.stored_lo = UINT64_MAX;
        a.stored_hi = 0;
    }
}

inline void end_launch(Run& r, std::vector<Fibre>& fibres) {
    for (Fibre& f : fibres) {       // threads left waiting: their frames are abandoned
        if (f.stack) r.stacks.give(f.stack);
        f.stack = nullptr;
    }
    r.active = false;
    r.cur = nullptr;
    r.pending.ar = nullptr;
    clear_stores(r);
    threadIdx = blockDim = blockIdx = gridDim = OPKG_SIMT_DIM3(0, 0, 0);
}

// A fresh barrier epoch; at the counter's wrap the shadows start over (zero pages again).
inline uint32_t next_epoch(Run& r) {
    static thread_local uint32_t epochs = 0;
    if (++epochs > EPOCH_MASK) {
        for (Area& a : r.areas) {
            if (a.cells) munmap(a.cells, cells_bytes(a));
            a.cells = nullptr;
            a.live = a.log_epoch = 0;
            a.log.clear();
        }
        epochs = 1;
    }
    return epochs;
}

void launch(dim3 dims, void (*body)(void*), void* closure, SrcLoc loc) {
    Run& r = run();
    BlockState& b = block();
    b.last = loc;
    if (r.active) {
        throw Failure(FAIL_RULE, loc.file, loc.line,
                      "asc_vf_call inside a SIMT function: SIMT functions are launched from the vector kernel only");
    }
    const uint64_t n = uint64_t(dims.x) * dims.y * dims.z;
    if (n == 0 || n > MAX_THREADS) {
        throw Failure(FAIL_RULE, loc.file, loc.line, format(
            "asc_vf_call with dim3(%u, %u, %u) = %llu threads; a thread block has 1 to %u threads "
            "(blockDim.x * blockDim.y * blockDim.z)", dims.x, dims.y, dims.z, (unsigned long long)n, MAX_THREADS));
    }
    r.active = true;
    r.n = uint32_t(n);
    r.body = body;
    r.closure = closure;
    r.loc = loc;
    r.error = nullptr;
    r.epoch = next_epoch(r);
    blockDim = dims;
    blockIdx = OPKG_SIMT_DIM3(uint32_t(b.idx), 0, 0);
    gridDim = OPKG_SIMT_DIM3(uint32_t(b.num), 1, 1);
    prepare_areas(r, b);
    std::vector<Fibre> fibres(n);
    std::vector<Fibre*> waiting, phase;
    auto check = [&]() {
        if (r.error) {
            std::exception_ptr e = r.error;
            end_launch(r, fibres);
            std::rethrow_exception(e);
        }
    };
    for (uint32_t t = 0; t < n; ++t) {
        fibres[t].tid = t;
        start(r, fibres[t]);
        check();
        if (!fibres[t].done) waiting.push_back(&fibres[t]);
    }
    while (!waiting.empty()) {
        if (waiting.size() != n) {
            uint32_t gone = 0;
            while (gone < n && !fibres[gone].done) ++gone;
            const SrcLoc w = waiting.front()->wait;
            const std::string msg = format(
                "%s returned while %llu threads of block %lld wait in asc_syncthreads() here; every thread of "
                "the block must reach each barrier (a barrier inside a branch or after an early return?)",
                thread_name(gone).c_str(), (unsigned long long)waiting.size(), (long long)b.idx);
            end_launch(r, fibres);
            throw Failure(FAIL_RULE, w.file, w.line, msg);
        }
        for (Fibre* f : waiting) {
            if (f->wait.line != waiting.front()->wait.line || f->wait.file != waiting.front()->wait.file) {
                const SrcLoc w = f->wait, w0 = waiting.front()->wait;
                const std::string msg = format(
                    "%s waits in asc_syncthreads() here while %s waits in a different one at %s:%d; the "
                    "threads of a block must reach the same barrier", thread_name(f->tid).c_str(),
                    thread_name(waiting.front()->tid).c_str(), w0.file ? w0.file : "?", w0.line);
                end_launch(r, fibres);
                throw Failure(FAIL_RULE, w.file, w.line, msg);
            }
        }
        r.epoch = next_epoch(r);
        phase.swap(waiting);
        waiting.clear();
        for (Fibre* f : phase) {
            resume(r, *f);
            check();
            if (!f->done) waiting.push_back(f);
        }
    }
    record_gm_stores(r);
    end_launch(r, fibres);
}

void syncthreads(SrcLoc loc) {
    Run& r = run();
    if (!r.active || !r.cur) {
        throw Failure(FAIL_RULE, loc.file, loc.line,
                      "asc_syncthreads() outside a SIMT function (launch it with asc_vf_call<f>(dim3(n), ...))");
    }
    settle(r);
    Fibre* f = r.cur;
    f->wait = loc;
    opkg_simt_switch(&f->sp, r.sched_sp);
}

// After a crash or at the end of a kernel run: no launch is under way, the shadows go.
inline void reset() {
    Run& r = run();
    r.active = false;
    r.cur = nullptr;
    release_areas(r);
}

}  // namespace simt
}  // namespace opkg_sim

// GCC's -fsanitize=thread instrumentation calls these around every load and store of a SIMT
// kernel's translation unit (opkg/sim/flags.py). Outside a SIMT launch they return at once.
#define OPKG_SIMT_HOOK(n)                                                                                         \
    extern "C" void __tsan_read##n(void* p) { opkg_sim::simt::access(p, n, false, __builtin_return_address(0)); }  \
    extern "C" void __tsan_write##n(void* p) { opkg_sim::simt::access(p, n, true, __builtin_return_address(0)); }  \
    extern "C" void __tsan_unaligned_read##n(void* p) {                                                            \
        opkg_sim::simt::access(p, n, false, __builtin_return_address(0));                                          \
    }                                                                                                              \
    extern "C" void __tsan_unaligned_write##n(void* p) {                                                           \
        opkg_sim::simt::access(p, n, true, __builtin_return_address(0));                                           \
    }                                                                                                              \
    extern "C" void __tsan_volatile_read##n(void* p) {                                                             \
        opkg_sim::simt::access(p, n, false, __builtin_return_address(0));                                          \
    }                                                                                                              \
    extern "C" void __tsan_volatile_write##n(void* p) {                                                            \
        opkg_sim::simt::access(p, n, true, __builtin_return_address(0));                                           \
    }
OPKG_SIMT_HOOK(1)
OPKG_SIMT_HOOK(2)
OPKG_SIMT_HOOK(4)
OPKG_SIMT_HOOK(8)
OPKG_SIMT_HOOK(16)
#undef OPKG_SIMT_HOOK
extern "C" void __tsan_read_range(void* p, unsigned long n) {
    opkg_sim::simt::access(p, uint32_t(n), false, __builtin_return_address(0));
}
extern "C" void __tsan_write_range(void* p, unsigned long n) {
    opkg_sim::simt::access(p, uint32_t(n), true, __builtin_return_address(0));
}
extern "C" void __tsan_init() {}
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}
// Atomics in instrumented code (std::atomic in headers): the operation itself, memory order
// aside (the sim's threads that share memory synchronise through the runtime).
#define OPKG_SIMT_ATOMICS(bits, T)                                                                                  \
    extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
    extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                                          \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int) {                                         \
        return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                          \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int) {                                         \
        return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                          \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int) {                                         \
        return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                                          \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int) {                                          \
        return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                           \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int) {                                         \
        return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                          \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int) {                                        \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                                         \
    }                                                                                                               \
    extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {              \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    }                                                                                                               \
    extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {                \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    }                                                                                                               \
    extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {                    \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                           \
        return c;                                                                                                   \
    }
OPKG_SIMT_ATOMICS(8, uint8_t)
OPKG_SIMT_ATOMICS(16, uint16_t)
OPKG_SIMT_ATOMICS(32, uint32_t)
OPKG_SIMT_ATOMICS(64, uint64_t)
#undef OPKG_SIMT_ATOMICS
extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

#endif
