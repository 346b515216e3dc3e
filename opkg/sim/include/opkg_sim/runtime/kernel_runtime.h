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
#include <memory>
#include <new>
#include <set>
#include <thread>
#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>
#include "kernel_operator.h"
#include "opkg_sim/runtime/abi.h"

namespace opkg_sim {

namespace simt {
inline void reset();   // opkg_sim/simt/simt_runtime.h: no SIMT launch under way any more
}

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
// back to the block's runner so they are reported like other failures, naming the last API
// call before them. Handlers are process-wide; each thread running a block arms its own jump.
struct Crash {
    static sigjmp_buf& jump() {
        static thread_local sigjmp_buf buf;
        return buf;
    }
    static bool& armed() {
        static thread_local bool on = false;
        return on;
    }
    static int& signal_no() {
        static thread_local int sig = 0;
        return sig;
    }
    static void*& address() {
        static thread_local void* addr = nullptr;
        return addr;
    }
    static void handler(int sig, siginfo_t* info, void*) {
        if (!armed()) {            // not a kernel thread: behave as if we were not here
            signal(sig, SIG_DFL);
            raise(sig);
            return;
        }
        armed() = false;
        signal_no() = sig;
        address() = info ? info->si_addr : nullptr;
        siglongjmp(jump(), 1);
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

class CrashHandlers {
public:
    CrashHandlers() {
        struct sigaction sa{};
        sa.sa_sigaction = &Crash::handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &sa, &old_[i]);
    }
    ~CrashHandlers() {
        for (int i = 0; i < 4; ++i) sigaction(kSignals[i], &old_[i], nullptr);
    }

private:
    static constexpr int kSignals[4] = {SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
    struct sigaction old_[4];
};

// Per thread: an alternate signal stack, so that stack overflows still reach the handler.
class AltStack {
public:
    AltStack() : mem_(1 << 16) {
        stack_t ss{};
        ss.ss_sp = mem_.data();
        ss.ss_size = mem_.size();
        sigaltstack(&ss, &old_);
    }
    ~AltStack() { sigaltstack(&old_, nullptr); }

private:
    std::vector<char> mem_;
    stack_t old_{};
};

// Names the GM buffer whose guard pages a faulting address lies in (opkg/sim/gm.py puts
// OPKG_SIM_GM_GUARD inaccessible bytes before and after every buffer).
inline std::string gm_guard_note(const std::vector<GmRegion>& regions, const void* addr) {
    const uint8_t* a = static_cast<const uint8_t*>(addr);
    for (const GmRegion& r : regions) {
        const uint8_t* end = r.base + gm_span(r);
        if (a >= end && a < end + OPKG_SIM_GM_GUARD) {
            return format(" (byte %llu of '%s', %llu bytes past the end of its %llu-byte allocation: a raw "
                          "pointer or an unchecked access ran past the buffer)",
                          (unsigned long long)(a - r.base), r.name, (unsigned long long)(a - end),
                          (unsigned long long)gm_span(r));
        }
        if (a < r.base && a + OPKG_SIM_GM_GUARD + 4096 >= r.base) {
            return format(" (%llu bytes before the start of '%s': a raw pointer or an unchecked access ran "
                          "before the buffer)", (unsigned long long)(r.base - a), r.name);
        }
    }
    return "";
}

// One block's UB: `bytes` (the UB rounded up to 64) ending at a page boundary, then UB_BEYOND
// bytes of inaccessible pages where TPipe::InitBuffer puts buffers that lie past the UB (the
// device does not check; the first access faults here), then the definedness shadow.
class UbArena {
public:
    explicit UbArena(uint64_t bytes) {
        const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
        const uint64_t lead = (bytes + page - 1) / page * page;
        len_ = lead + UB_BEYOND + lead;
        void* m = mmap(nullptr, len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) return;
        map_ = static_cast<uint8_t*>(m);
        if (mprotect(map_ + lead, UB_BEYOND, PROT_NONE) != 0) return;
        ub = map_ + lead - bytes;
        shadow = map_ + lead + UB_BEYOND;
    }
    ~UbArena() {
        if (map_) munmap(map_, len_);
    }
    UbArena(const UbArena&) = delete;
    UbArena& operator=(const UbArena&) = delete;
    uint8_t* ub = nullptr;
    uint8_t* shadow = nullptr;

private:
    uint8_t* map_ = nullptr;
    uint64_t len_ = 0;
};

// Names the buffer a fault past the end of the UB lies in: one TPipe::InitBuffer set up beyond
// the SoC's UB, which the kernel then used.
inline std::string ub_beyond_note(const void* addr) {
    const BlockState& b = block();
    const uint8_t* a = static_cast<const uint8_t*>(addr);
    if (!b.ub || a < b.ub + b.ub_bytes || a >= b.ub + b.ub_bytes + UB_BEYOND) return "";
    const uint64_t off = uint64_t(a - b.ub);
    const UbAlloc* al = alloc_at(off);
    std::string in = al ? format(": it lies in the %s set up at %s:%d, which TPipe::InitBuffer placed at UB "
                                 "bytes [%llu, %llu)", al->kind.c_str(), al->file ? al->file : "?", al->line,
                                 (unsigned long long)al->offset,
                                 (unsigned long long)(al->offset + uint64_t(al->num) * al->len))
                        : "";
    return format("the kernel accessed UB byte %llu, past the end of the SoC's %llu-byte Unified Buffer%s. A "
                  "device build of InitBuffer does not check the UB size, so such a buffer is harmless until the "
                  "kernel touches it, as here; shrink the tiles or the buffers so that they fit",
                  (unsigned long long)off, (unsigned long long)b.ub_bytes, in.c_str());
}

struct BlockError {
    bool set = false;
    int kind = 0;
    std::string file;
    int line = 0;
    std::string message;
};

struct Launch {
    const OpkgKernelLaunch* in;
    void (*entry)(uint8_t** args);
    void (*cube_entry)(uint8_t** args);   // the cube-core compile of the kernel, or null (launch.h)
    std::vector<uint8_t*> args;
    std::vector<GmRegion> regions;
    uint64_t arena_bytes;
    uint32_t ration;      // AIV cores per AI core (kernel_task_ration)
    uint32_t blocks;      // block_dim x ration: the kernel's vector bodies
    bool split;           // kernel_split_cores(): a cube body per AI core too, after the vector bodies
    uint32_t bodies;      // every body the launch runs: blocks, and block_dim cube bodies when split
    // GmRegion::written storage, from calloc: the OS hands out zero pages on first touch, so
    // a large workspace costs nothing until the kernel stores to it
    std::vector<std::unique_ptr<uint8_t, void (*)(void*)>> defined;
    mutable WarnedSites warned;
    mutable CrossCore* cross = nullptr;   // a split launch's flags, while its bodies run concurrently
    mutable std::mutex profile_mu;
};

// Runs one block on the calling thread. Returns false when it failed (error filled); throws
// NeedConcurrent out of block 0 in sequential mode.
inline bool run_one(const Launch& L, int64_t idx, const UbArena& arena, uint64_t& dirty, std::string& log,
                    std::vector<GmWrite>& writes, std::vector<std::pair<uint8_t*, std::string>>* undo,
                    Barrier* barrier, BlockError& err) {
    BlockState& b = block();
    b = BlockState();
    // the body's place among its AI core's flags (cross_core.h): by its launch slot
    const int64_t group = idx >= L.blocks ? idx - int64_t(L.blocks) : idx / 2;
    const int role = idx >= L.blocks ? 0 : 1 + int(idx % 2);
    std::unique_ptr<SyncState> sync;
    if (L.in->flags & OPKG_SIM_LAUNCH_SYNC_CHECK) sync.reset(new SyncState(L.in->ub_bytes));
    b.sync = sync.get();
    b.lenient_copy = (L.in->flags & OPKG_SIM_LAUNCH_LENIENT_COPY) != 0;
    b.strict_bounds = (L.in->flags & OPKG_SIM_LAUNCH_STRICT_BOUNDS) != 0;
    b.warned = &L.warned;
    b.idx = idx;
    b.num = L.blocks;
    b.ration = L.ration;
    b.ai_cores = L.in->block_dim;
    b.ai_core = idx / L.ration;
    b.sub = idx % L.ration;
    b.store_id = L.split ? group : idx;
    if (L.split) {   // the task type is fixed at the body's first API call (kcore.h, apply_task_type)
        b.split = true;
        b.type_open = true;
        b.cross = L.cross;
        if (idx >= L.blocks) {
            b.core = 1;   // AscendC::AIC
            b.ai_core = idx - L.blocks;
            b.sub = 0;
            b.num = L.in->block_dim;
        }
    }
    b.cores = L.in->cores;
    b.ub = arena.ub;
    b.shadow = arena.shadow;
    b.ub_bytes = L.in->ub_bytes;
    const uint64_t caps[6] = {L.in->l1_bytes, L.in->l0a_bytes, L.in->l0b_bytes, L.in->l0c_bytes, L.in->bt_bytes,
                              L.in->fb_bytes};
    std::memcpy(b.cube_caps, caps, sizeof caps);
    b.gm = L.regions;
    b.tiling_key = L.in->tiling_key;
    b.sys_workspace = L.in->sys_workspace;
    // CANN's generated kernel entry calls SetSysWorkspaceForce(workspace) before the operator's
    // body (g_sysWorkspaceReserved), so GetSysWorkSpacePtr() is the workspace from the start:
    // null only when the tiling asked for none (the framework then passes nullptr).
    if (L.in->arg_count >= 2) b.sys_workspace_ptr = L.args[L.in->arg_count - 2];
    b.log = &log;
    b.writes = &writes;
    b.undo = undo;
    b.barrier = barrier;
    b.active = true;
    // Only the part of UB an earlier block on this arena used needs resetting.
    std::memset(arena.ub, 0xFF, dirty);
    std::memset(arena.shadow, 0, dirty);
    dirty = 0;
    bool ok = true;
    if (sigsetjmp(Crash::jump(), 1) != 0) {
        std::string msg = Crash::signal_no() == SIGSEGV ? ub_beyond_note(Crash::address()) : "";
        if (msg.empty()) msg = Crash::describe(Crash::signal_no(), Crash::address());
        if (Crash::signal_no() == SIGSEGV) msg += gm_guard_note(L.regions, Crash::address());
        SrcLoc last = block().last;
        msg += last.file ? "; the last checked Ascend C call before it is at this line"
                         : "; no Ascend C call had been made in this block yet";
        err = BlockError{true, FAIL_RULE, last.file ? last.file : "", last.line, msg};
        if (barrier) barrier->abort();
        if (L.cross) {
            L.cross->abort();
            L.cross->body_done(group, role);
        }
        simt::reset();   // a crash inside a SIMT thread left its launch behind
        block() = BlockState();
        dirty = L.arena_bytes;
        return false;
    }
    Crash::armed() = true;
    try {
        (idx >= L.blocks && L.cube_entry ? L.cube_entry : L.entry)(const_cast<uint8_t**>(L.args.data()));
        if (block().pending.active) report_pending(block());   // an undefined value the kernel kept
        if (block().held.file) throw Failure(FAIL_RULE, block().held.file, block().held.line, block().held_message);
        if (block().type_open) {   // no API call: the body's type is what it declared, or the default
            try {
                fix_task_type(block());
            } catch (const LeaveBody&) {
            }
        }
        if (barrier) {
            if (block().member) barrier->finish(idx);
            else barrier->leave();
        }
    } catch (const LeaveBody&) {   // a body the declared task type does not start
        if (barrier) barrier->leave();
    } catch (const NeedConcurrent&) {
        Crash::armed() = false;
        dirty = L.arena_bytes;
        block() = BlockState();
        throw;
    } catch (const Aborted&) {
        ok = false;                 // another block failed first; it reports
    } catch (const Failure& f) {
        err = BlockError{true, f.kind, f.file, f.line, f.message};
        ok = false;
    } catch (const std::exception& e) {
        err = BlockError{true, FAIL_INTERNAL, "", 0, std::string("C++ exception: ") + e.what()};
        ok = false;
    } catch (...) {
        err = BlockError{true, FAIL_INTERNAL, "", 0, "unknown C++ exception"};
        ok = false;
    }
    Crash::armed() = false;
    if (!ok && barrier) barrier->abort();
    if (L.cross) {
        if (!ok) L.cross->abort();
        L.cross->body_done(group, role);
    }
    dirty = std::min(block().ub_high, L.arena_bytes);   // buffers past the UB were never accessible
    if (L.in->profile && (idx >= L.blocks || idx % L.ration == 0)) {
        // per AI core: its first AIV's counters, and the cube body's traffic and products added
        std::lock_guard<std::mutex> lk(L.profile_mu);
        OpkgBlockProfile& p = L.in->profile[idx >= L.blocks ? idx - L.blocks : idx / L.ration];
        const OpkgBlockProfile keep = p;
        const OpkgBlockProfile& mine = block().prof;
        if (idx < L.blocks) {
            p = mine;
            p.ub_alloc_bytes = block().ub_high;
        }
        const OpkgBlockProfile& add = idx < L.blocks ? keep : mine;
        p.gm_read_bytes += add.gm_read_bytes;
        p.gm_write_bytes += add.gm_write_bytes;
        p.cube_flops += add.cube_flops;
        p.cube_calls += add.cube_calls;
    }
    block() = BlockState();
    return ok;
}


// The value each block's last store left in a GM byte, compared across blocks, between the same
// SyncAll barriers. Blocks that store the same value to a byte race harmlessly on hardware
// (whichever store lands last, the byte ends the same: cann-ops Gather and Reshape have every
// core copy the whole output, cann-ops DiagFlat and PadV3GradReplication have every core zero
// the same workspace before SyncAll), and so do stores into an output's allocator padding
// (never part of it); check_final_values reports the first byte of a tensor whose final values
// differ. Identical stores are benign only where they are deliberate: when blocks store the same
// values to the same bytes of an output and part of that output is never written, they were
// sent to the same rows (a wrong per-block offset), and that is reported as the race it is. The one rule for both ways blocks run: one after another, GM after a block holds its
// values; on their own threads, each store carries the bytes it stored (GmWrite::values).
class FinalValues {
public:
    explicit FinalValues(const std::vector<GmRegion>& regions)
        : regions_(regions), refs_(regions.size()), same(regions.size()) {}

    // After block `writes[from..]` ran (one after another): GM holds its last value for every
    // byte it stored to.
    void after_block(const std::vector<GmWrite>& writes, size_t from) {
        for (size_t i = from; i < writes.size(); ++i) add(writes[i]);
    }
    // One store, in its block's program order, the blocks one after another.
    void add(const GmWrite& w) {
        const GmRegion* r = region_of(regions_, w.begin);
        if (!r) return;
        std::vector<std::unique_ptr<Chunk>>& chunks = refs_[size_t(r - regions_.data())];
        if (chunks.empty()) chunks.resize((r->bytes + CHUNK - 1) / CHUNK);
        const uint64_t lo = uint64_t(w.begin - r->base), hi = std::min<uint64_t>(uint64_t(w.end - r->base), r->bytes);
        const uint16_t owner = uint16_t(w.block + 1);
        for (uint64_t k = lo; k < hi;) {   // a chunk's share of the store at a time
            std::unique_ptr<Chunk>& c = chunks[k / CHUNK];
            if (!c) c.reset(new Chunk());
            const uint64_t j0 = k % CHUNK, len = std::min<uint64_t>(hi - k, CHUNK - j0);
            const uint8_t* v = w.values.empty() ? r->base + k : reinterpret_cast<const uint8_t*>(w.values.data()) + (k - lo);
            // the store's undefined bytes (GmWrite::undefined), from this chunk's first
            const char* u = w.undefined.empty() ? nullptr : w.undefined.data() + (r->base + k - w.begin);
            if (only_mine(c->owner + j0, len, owner)) {   // no other block stored here (the usual case)
                std::memcpy(c->value + j0, v, len);
                std::fill(c->owner + j0, c->owner + j0 + len, owner);
                if (u) std::memcpy(c->undefined + j0, u, len);
                else std::fill(c->undefined + j0, c->undefined + j0 + len, 0);
            } else {
                for (uint64_t j = j0; j < j0 + len; ++j) {
                    const uint8_t garbage = u ? uint8_t(u[j - j0]) : 0;
                    if (!c->owner[j] || c->owner[j] == owner) {   // a block's later store replaces its value
                        c->value[j] = v[j - j0];
                        c->owner[j] = owner;
                        c->undefined[j] = garbage;
                    } else if (c->undefined[j] && garbage) {
                        // both stored garbage (UB bytes nothing wrote): no value to race for; the
                        // bytes stay undefined in GM and a later use is reported
                    } else if (c->value[j] != v[j - j0]) {
                        if (!diff.at) diff = Difference{r->base + (k + j - j0), int64_t(c->owner[j]) - 1, w.block, w.epoch};
                    } else if (!same[size_t(r - regions_.data())].at) {
                        same[size_t(r - regions_.data())] = Difference{r->base + (k + j - j0), int64_t(c->owner[j]) - 1, w.block, w.epoch};
                    }
                }
            }
            k += len;
        }
    }
    // The first byte whose final value differs between two blocks (at == nullptr: none).
    struct Difference {
        const uint8_t* at = nullptr;
        int64_t first = 0, second = 0, epoch = 0;
    } diff;
    // Per region: the first byte two blocks stored the same value to.
    std::vector<Difference> same;

private:
    // Whether each of the n owners is none or `owner`: eight at a time (O2 does not vectorise it).
    static bool only_mine(const uint16_t* o, uint64_t n, uint16_t owner) {
        typedef uint16_t V __attribute__((vector_size(16)));
        const V mine = V{} + owner;
        V bad = V{};
        uint64_t j = 0;
        for (; j + 8 <= n; j += 8) {
            V x;
            std::memcpy(&x, o + j, sizeof x);
            bad |= (V)((x != 0) & (x != mine));
        }
        for (; j < n; ++j) bad[0] |= o[j] != 0 && o[j] != owner;
        for (int q = 0; q < 8; ++q) {
            if (bad[q]) return false;
        }
        return true;
    }
    // Only the parts of a tensor that blocks store to get a reference (a large workspace costs
    // nothing until used): the first stored value and its block + 1 (blockDim <= 65535).
    static constexpr uint64_t CHUNK = 4096;
    struct Chunk {
        uint8_t value[CHUNK];
        uint16_t owner[CHUNK] = {};
        uint8_t undefined[CHUNK] = {};   // the owner's store took the byte from UB nothing wrote
    };
    const std::vector<GmRegion>& regions_;
    std::vector<std::vector<std::unique_ptr<Chunk>>> refs_;
};

// The write of `block` in `epoch` covering byte `at` (the latest in program order), or nullptr.
inline const GmWrite* write_at(const std::vector<GmWrite>& writes, int64_t block, int64_t epoch, const uint8_t* at) {
    const GmWrite* found = nullptr;
    for (const GmWrite& w : writes) {
        if (w.block == block && w.epoch == epoch && w.begin <= at && at < w.end) found = &w;
    }
    return found;
}

// Two blocks race only where they leave different values.
inline bool check_final_values(const std::vector<GmWrite>& writes, const std::vector<GmRegion>& regions,
                               const FinalValues& finals, OpkgError* err, uint32_t block_dim) {
    const FinalValues::Difference& d = finals.diff;
    if (!d.at) return true;
    const GmWrite* a = write_at(writes, d.first, d.epoch, d.at);
    const GmWrite* b = write_at(writes, d.second, d.epoch, d.at);
    const GmRegion* r = region_of(regions, d.at);
    if (!a || !b || !r) return true;
    const uint8_t* lo = std::max(a->begin, b->begin);
    const uint8_t* hi = std::min(a->end, b->end);
    std::string msg = format(
        "blocks %lld and %lld both write bytes [%llu, %llu) of '%s' and leave different values there (first at "
        "byte %llu) (block %lld at %s:%d); on hardware the result depends on timing. Give each block its own part "
        "of the output, separate the stores with SyncAll, or accumulate with SetAtomicAdd.",
        (long long)d.first, (long long)d.second, (unsigned long long)(lo - r->base),
        (unsigned long long)(hi - r->base), r->name, (unsigned long long)(d.at - r->base), (long long)d.first,
        a->loc.file ? a->loc.file : "?", a->loc.line);
    set_error(err, FAIL_RULE, b->loc.file ? b->loc.file : "", b->loc.line, d.second, block_dim, msg);
    return false;
}

// Blocks that stored the same values to the same bytes of an output of which some bytes were
// never written: several blocks were given the same part of it (a wrong per-block offset). On
// hardware they race for those bytes, and the rest of the output is whatever GM held.
inline bool check_duplicated_stores(const std::vector<GmWrite>& writes, const std::vector<GmRegion>& regions,
                                    const FinalValues& finals, OpkgError* err, uint32_t block_dim) {
    for (size_t i = 0; i < regions.size(); ++i) {
        const FinalValues::Difference& d = finals.same[i];
        const GmRegion& r = regions[i];
        if (!d.at || !r.output || !r.written) continue;
        uint64_t unwritten = 0;
        for (uint64_t k = 0; k < r.bytes; ++k) unwritten += r.written[k] == 0;
        if (!unwritten) continue;      // every block copies the whole output: deliberate
        const GmWrite* a = write_at(writes, d.first, d.epoch, d.at);
        const GmWrite* b = write_at(writes, d.second, d.epoch, d.at);
        if (!a || !b) continue;
        const uint8_t* lo = std::max(a->begin, b->begin);
        const uint8_t* hi = std::min(a->end, b->end);
        std::string msg = format(
            "blocks %lld and %lld both write bytes [%llu, %llu) of '%s' (block %lld at %s:%d), while %llu of its "
            "%llu bytes are never written: the blocks were given the same part of the output (a wrong per-block "
            "offset, such as one missing GetBlockIdx()?); on hardware their stores race and the rest of '%s' holds "
            "whatever GM held. Give each block its own part of the output.",
            (long long)d.first, (long long)d.second, (unsigned long long)(lo - r.base),
            (unsigned long long)(hi - r.base), r.name, (long long)d.first, a->loc.file ? a->loc.file : "?",
            a->loc.line, (unsigned long long)unwritten, (unsigned long long)r.bytes, r.name);
        set_error(err, FAIL_RULE, b->loc.file ? b->loc.file : "", b->loc.line, d.second, block_dim, msg);
        return false;
    }
    return true;
}

// Blocks on their own threads: stores between the same SyncAll barriers (outside atomic add),
// checked epoch by epoch with their stored bytes; `writes` holds each block's stores in program
// order, one block after another.
inline bool check_concurrent_values(const std::vector<GmWrite>& writes, const std::vector<GmRegion>& regions,
                                    OpkgError* err, uint32_t block_dim) {
    std::set<int64_t> epochs;
    for (const GmWrite& w : writes) epochs.insert(w.epoch);
    for (int64_t e : epochs) {
        FinalValues finals(regions);
        for (const GmWrite& w : writes) {
            if (w.epoch == e) finals.add(w);
        }
        if (!check_final_values(writes, regions, finals, err, block_dim)) return false;
        if (!check_duplicated_stores(writes, regions, finals, err, block_dim)) return false;
    }
    return true;
}

// The bytes between a GM buffer's first page and its start are not guard pages (a buffer ends
// where its page ends, so that the guard after it starts right there): a store into them shows
// only afterwards, as a changed canary.
inline bool check_canaries(const OpkgKernelLaunch* launch, OpkgError* err) {
    for (uint32_t i = 0; i < launch->arg_count + launch->extra_regions; ++i) {
        const OpkgGmArg& a = launch->args[i];
        if (!a.ptr) continue;
        // eight bytes at a time first: almost always every canary is intact
        const uint64_t pattern = 0x0101010101010101ull * OPKG_SIM_GM_CANARY;
        const uint8_t* c = a.ptr - a.canary;
        uint32_t m = 0;
        for (; m + 8 <= a.canary; m += 8) {
            uint64_t w;
            std::memcpy(&w, c + m, 8);
            if (w != pattern) break;
        }
        while (m < a.canary && c[m] == OPKG_SIM_GM_CANARY) ++m;
        if (m == a.canary) continue;
        for (uint32_t k = 1; k <= a.canary; ++k) {
            if (a.ptr[-int64_t(k)] == OPKG_SIM_GM_CANARY) continue;
            uint32_t far = k;
            for (uint32_t j = k; j <= a.canary; ++j) {
                if (a.ptr[-int64_t(j)] != OPKG_SIM_GM_CANARY) far = j;
            }
            set_error(err, FAIL_RULE, "", 0, -1, launch->block_dim,
                      format("the kernel wrote to GM from %u to %u bytes before the start of '%s', outside every "
                             "buffer (found after the kernel returned: a raw pointer or an unchecked access such "
                             "as GlobalTensor::operator() with a negative or wrapped-around index)",
                             k, far, a.name));
            return false;
        }
    }
    return true;
}

inline int report(const BlockError& e, int64_t idx, uint32_t dim, OpkgError* err) {
    set_error(err, e.kind, e.file, e.line, idx, dim, e.message);
    return 1;
}

// Blocks one after another on this thread: deterministic and cheap. Returns 2 when block 0
// reached SyncAll (its GM stores are undone first).
inline int run_sequential(const Launch& L, std::string& log, std::vector<GmWrite>& writes, FinalValues& finals,
                          OpkgError* err) {
    UbArena arena(L.arena_bytes);
    if (!arena.ub) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, L.in->block_dim, "cannot allocate the Unified Buffer arena");
        return 1;
    }
    std::vector<std::pair<uint8_t*, std::string>> undo;
    int rc = 0;
    AltStack alt;
    uint64_t dirty = L.arena_bytes;
    for (uint32_t idx = 0; idx < L.bodies && rc == 0; ++idx) {
        BlockError e;
        const size_t from = writes.size();
        try {
            // a split launch's cross-core flags switch to threads from any body: all keep their undo
            if (!run_one(L, idx, arena, dirty, log, writes, idx == 0 || L.split ? &undo : nullptr, nullptr, e)) {
                rc = report(e, idx, L.blocks, err);
            } else {
                finals.after_block(writes, from);
            }
        } catch (const NeedConcurrent&) {
            for (auto it = undo.rbegin(); it != undo.rend(); ++it) {
                std::memcpy(it->first, it->second.data(), it->second.size());
            }
            rc = 2;
        }
    }
    return rc;
}

// One thread per block, so that SyncAll is a real barrier.
inline int run_concurrent(const Launch& L, std::string& log, std::vector<GmWrite>& writes, OpkgError* err) {
    const uint32_t n = L.bodies;
    Barrier barrier, cube_barrier;   // SyncAll of the vector bodies, and of the cube bodies
    barrier.num = L.blocks;
    cube_barrier.num = n - L.blocks;
    std::unique_ptr<CrossCore> cross;
    if (L.split) {
        cross.reset(new CrossCore(L.in->block_dim));
        cross->barriers[0] = &barrier;
        cross->barriers[1] = &cube_barrier;
    }
    L.cross = cross.get();
    std::vector<std::string> logs(n);
    std::vector<std::vector<GmWrite>> block_writes(n);
    std::vector<BlockError> errors(n);
    std::vector<std::thread> threads;
    threads.reserve(n);
    for (uint32_t idx = 0; idx < n; ++idx) {
        threads.emplace_back([&, idx] {
            AltStack alt;
            UbArena arena(L.arena_bytes);
            if (!arena.ub) {
                errors[idx] = BlockError{true, FAIL_INTERNAL, "", 0, "cannot allocate the Unified Buffer arena"};
                barrier.abort();
                return;
            }
            uint64_t dirty = L.arena_bytes;
            // with a barrier, SyncAll waits instead of throwing NeedConcurrent
            run_one(L, idx, arena, dirty, logs[idx], block_writes[idx], nullptr,
                    idx < L.blocks ? &barrier : &cube_barrier, errors[idx]);
        });
    }
    for (std::thread& t : threads) t.join();
    L.cross = nullptr;
    for (uint32_t idx = 0; idx < n; ++idx) {
        log += logs[idx];
        writes.insert(writes.end(), block_writes[idx].begin(), block_writes[idx].end());
    }
    for (uint32_t idx = 0; idx < n; ++idx) {
        if (errors[idx].set) return report(errors[idx], idx, n, err);
    }
    for (Barrier* stuck : {&barrier, &cube_barrier}) {     // no block failed, yet a barrier could not complete
        if (!stuck->aborted) continue;
        const Barrier& barrier = *stuck;
        int64_t idx = barrier.deadlock_block >= 0 ? barrier.deadlock_block : 0;
        std::string msg = format(
            "block %lld returned from the kernel while other blocks wait in SyncAll; on hardware they would "
            "wait forever. Every block must call SyncAll the same number of times.", (long long)idx);
        set_error(err, FAIL_RULE, barrier.wait_loc.file ? barrier.wait_loc.file : "", barrier.wait_loc.line, idx, n, msg);
        return 1;
    }
    return 0;
}

// A kernel's `static const __gm__` arrays (cann-ops DiagV2's assist matrices) are GM on the
// device: the kernel binary's data is loaded into global memory with its code. Here they live in
// the kernel library's data segments, which therefore count as GM buffers too (defined, read as
// any other; a store into read-only data faults and is reported as a crash).
inline void add_kernel_data_regions(std::vector<GmRegion>& regions, const void* entry) {
    struct Found { const uint8_t* entry; std::vector<GmRegion>* out; } found{static_cast<const uint8_t*>(entry), &regions};
    dl_iterate_phdr([](dl_phdr_info* info, size_t, void* data) -> int {
        Found* f = static_cast<Found*>(data);
        bool ours = false;
        for (int i = 0; i < info->dlpi_phnum && !ours; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            const uint8_t* lo = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
            ours = ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && lo <= f->entry && f->entry < lo + ph.p_memsz;
        }
        if (!ours) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) || !ph.p_memsz) continue;
            f->out->push_back(GmRegion{reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr), ph.p_memsz,
                                       "the kernel's static __gm__ data", nullptr, 0, false, false});
        }
        return 1;
    }, &found);
}

inline int run_blocks(const OpkgKernelLaunch* launch, void (*entry)(uint8_t** args),
                      void (*cube_entry)(uint8_t** args), OpkgError* err) {
    if (err) std::memset(err, 0, sizeof *err);
    if (!launch || launch->abi != OPKG_SIM_ABI) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, 0, "kernel library ABI mismatch: rebuild it with this opkg");
        return 1;
    }
    const bool split = kernel_split_cores() == 1 || (kernel_split_cores() == 2 && kernel_task_ration() > 1);
    const uint32_t ration = split || kernel_task_ration() > 1 ? 2u : 1u;
    Launch L{launch, entry, cube_entry, {}, {}, (launch->ub_bytes + 63) / 64 * 64, ration, launch->block_dim * ration, split,
             launch->block_dim * (ration + (split ? 1u : 0u)), {}};
    const uint32_t n_regions = launch->arg_count + launch->extra_regions;
    for (uint32_t i = 0; i < n_regions; ++i) {
        const OpkgGmArg& a = launch->args[i];
        if (i < launch->arg_count) L.args.push_back(a.ptr);
        if (!a.ptr) continue;
        GmRegion r{a.ptr, a.bytes, a.name, nullptr, a.alloc};
        if (a.undefined && a.written) {
            r.written = a.written;
            r.output = true;
        } else if (a.undefined) {
            L.defined.emplace_back(static_cast<uint8_t*>(std::calloc(gm_span(r), 1)), &std::free);
            if (!L.defined.back()) {
                set_error(err, FAIL_INTERNAL, "", 0, -1, 0, "cannot allocate the GM write shadow");
                return 1;
            }
            r.written = L.defined.back().get();
        }
        L.regions.push_back(r);
    }
    add_kernel_data_regions(L.regions, reinterpret_cast<const void*>(entry));
    std::string log;
    std::vector<GmWrite> writes;
    FinalValues finals(L.regions);
    bool sequential = true;
    int rc;
    {
        CrashHandlers handlers;
        rc = run_sequential(L, log, writes, finals, err);
        if (rc == 2) {
            sequential = false;   // blocks interleave for real: their stores carry their values
            log.clear();
            L.warned.seen.clear();   // the warnings went with the log: the rerun gives them again
            // the profile too (a split launch's cube bodies add to their AI core's entry)
            if (launch->profile) std::memset(launch->profile, 0, sizeof(OpkgBlockProfile) * launch->block_dim);
            writes.clear();
            for (const GmRegion& r : L.regions) {
                if (r.written) std::memset(r.written, 0, gm_span(r));
            }
            rc = run_concurrent(L, log, writes, err);
        }
    }
    if (rc == 0 && !(sequential ? check_final_values(writes, L.regions, finals, err, L.blocks)
                                      && check_duplicated_stores(writes, L.regions, finals, err, L.blocks)
                                : check_concurrent_values(writes, L.regions, err, L.blocks))) {
        rc = 1;
    }
    if (rc == 0 && !check_canaries(launch, err)) rc = 1;
    copy_text(launch->log, launch->log_cap, log);
    return rc;
}

}  // namespace opkg_sim
#endif
