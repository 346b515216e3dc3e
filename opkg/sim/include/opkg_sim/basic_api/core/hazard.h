// --sync-check: intra-core pipeline hazards. On hardware an AI Core's scalar unit issues
// instructions to separate pipes (MTE2 GM->UB copies, V vector and UB->UB copies, MTE3 UB->GM
// copies, S its own loads and stores) that run concurrently; the sim runs them in program order,
// so it records every UB access still unordered against the other pipes and fails when a pipe
// touches bytes another pipe accessed with no synchronisation in between:
//   read after write  (a pipe reads what another pipe wrote),
//   write after write (a pipe overwrites what another pipe wrote),
//   write after read  (a pipe overwrites what V or MTE3 still reads).
// Scalar loads are not recorded as pending reads: the scalar unit finishes its own loads
// before it issues the next instruction. What synchronises (see README "What is checked"):
// PipeBarrier<PIPE_ALL> (everything before it); SetFlag<A_B> then WaitFlag<A_B> with the same
// id (pipe A's accesses before the SetFlag, for pipe B); EnQue then DeQue of a tensor (its
// writes before the EnQue, for the queue's consumer: VECIN MTE2->V, VECOUT V->MTE3, any other
// position every pipe); AllocTensor handing out a buffer again (the queue waited for the
// previous tile's consumers). PipeBarrier<PIPE_X> orders pipe X with itself only.
// Everything here runs only when BlockState::sync is set; otherwise the hooks cost one test.
#ifndef OPKG_SIM_HAZARD_H
#define OPKG_SIM_HAZARD_H

#include <map>
#include <tuple>
#include "opkg_sim/basic_api/core/kcore.h"

namespace opkg_sim {

inline int pipe_slot(Pipe p) {
    switch (p) {
        case Pipe::S: return 0;
        case Pipe::V: return 1;
        case Pipe::MTE2: return 2;
        default: return 3;
    }
}

inline const char* pipe_name(Pipe p) {
    static const char* names[] = {"S", "V", "MTE2", "MTE3"};
    return names[pipe_slot(p)];
}

// One instruction's accesses of one kind; bytes refer to it by index.
struct Access {
    Pipe pipe;
    bool write;
    uint8_t seen;        // pipes a queue hand-off made this access visible to (Pipe bits)
    SrcLoc loc;
};

struct SyncState {
    std::vector<uint32_t> wr;    // per UB byte: the latest write not yet known to be ordered (0 = none)
    std::vector<uint32_t> rd;    // per UB byte: the latest V/MTE3 read likewise
    std::vector<Access> acc{Access{Pipe::NONE, false, 0, {nullptr, 0}}};   // index 0 = none
    uint32_t all_before = 0;          // PipeBarrier<PIPE_ALL>: accesses below this index are ordered
    uint32_t flag_before[4][4] = {};  // WaitFlag<A_B>: A's accesses below [A][B] are ordered for B
    std::map<std::tuple<int, int, int32_t>, uint32_t> flags;   // SetFlag<A_B>(id) not yet waited: index then
    uint32_t cur[2] = {0, 0};         // the access (read, write) the current instruction extends

    explicit SyncState(uint64_t ub_bytes) : wr(ub_bytes, 0), rd(ub_bytes, 0) {}

    bool ordered(uint32_t i, Pipe p) const {
        const Access& a = acc[i];
        return a.pipe == p || i < all_before || i < flag_before[pipe_slot(a.pipe)][pipe_slot(p)] ||
               (a.seen & uint8_t(p));
    }
    // Consecutive accesses of one pipe at one call site with no sync event between them are
    // one instruction (level-0 forms record element by element).
    uint32_t current(Pipe p, bool write, SrcLoc loc) {
        uint32_t& c = cur[write];
        if (c) {
            const Access& a = acc[c];
            if (a.pipe == p && a.loc.file == loc.file && a.loc.line == loc.line) return c;
        }
        acc.push_back(Access{p, write, 0, loc});
        return c = uint32_t(acc.size() - 1);
    }
    void sync_event() { cur[0] = cur[1] = 0; }
};

std::string where_in_ub(uint64_t byte);
#ifdef OPKG_SIM_RUNTIME_TU
std::string where_in_ub(uint64_t byte) {
    const UbAlloc* a = alloc_at(byte);
    return a ? format(" of a %s set up at %s:%d", a->kind.c_str(), a->file ? a->file : "?", a->line) : "";
}
#endif

// `actor` says which instruction on which pipe touches the bytes ("Add on PIPE_V reads src0").
[[noreturn]] void hazard(const char* what, const std::string& actor, uint64_t off, uint64_t first, Pipe now,
                         const Access& before, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
[[noreturn]] void hazard(const char* what, const std::string& actor, uint64_t off, uint64_t first, Pipe now,
                         const Access& before, SrcLoc loc) {
    // PipeBarrier<PIPE_S> is a hardware error, so it is never suggested
    std::string same = now == Pipe::S ? "" : format(" (PipeBarrier<PIPE_%s> orders PIPE_%s with itself only)",
                                                    pipe_name(now), pipe_name(now));
    fail(loc, format(
        "%s hazard (--sync-check): %s at UB offset %llu (UB byte %llu%s), which PIPE_%s %s at %s:%d with no "
        "synchronisation in between; on hardware the pipes run concurrently. Order them: EnQue/DeQue through "
        "the tensor's queue, SetFlag/WaitFlag<HardEvent::%s_%s>, or PipeBarrier<PIPE_ALL>%s.",
        what, actor.c_str(), (unsigned long long)off, (unsigned long long)first, where_in_ub(first).c_str(),
        pipe_name(before.pipe), before.write ? "wrote" : "reads", before.loc.file ? before.loc.file : "?",
        before.loc.line, pipe_name(before.pipe), pipe_name(now), same.c_str()));
}
#endif

void sync_read(const uint8_t* p, uint64_t n, Pipe pipe, const char* op, const char* role, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void sync_read(const uint8_t* p, uint64_t n, Pipe pipe, const char* op, const char* role, SrcLoc loc) {
    BlockState& b = block();
    SyncState& s = *b.sync;
    uint64_t off = uint64_t(p - b.ub);
    uint32_t ok = 0;   // the last access found ordered: runs of one access are checked once
    for (uint64_t i = off; i < off + n; ++i) {
        uint32_t w = s.wr[i];
        if (w && w != ok) {
            if (!s.ordered(w, pipe)) {
                hazard("read-after-write", format("%s on PIPE_%s reads %s", op, pipe_name(pipe), role), off, i,
                       pipe, s.acc[w], loc);
            }
            ok = w;
        }
    }
    if (pipe == Pipe::S) return;
    uint32_t r = s.current(pipe, false, loc);
    std::fill(s.rd.begin() + off, s.rd.begin() + off + n, r);
}
#endif

inline std::string writer(Pipe p) { return format("a PIPE_%s instruction writes", pipe_name(p)); }

void sync_write(const uint8_t* p, uint64_t n, Pipe pipe, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void sync_write(const uint8_t* p, uint64_t n, Pipe pipe, SrcLoc loc) {
    BlockState& b = block();
    SyncState& s = *b.sync;
    uint64_t off = uint64_t(p - b.ub);
    uint32_t ok_w = 0, ok_r = 0;
    for (uint64_t i = off; i < off + n; ++i) {
        uint32_t w = s.wr[i], r = s.rd[i];
        if (w && w != ok_w) {
            if (!s.ordered(w, pipe)) hazard("write-after-write", writer(pipe), off, i, pipe, s.acc[w], loc);
            ok_w = w;
        }
        if (r && r != ok_r) {
            if (!s.ordered(r, pipe)) hazard("write-after-read", writer(pipe), off, i, pipe, s.acc[r], loc);
            ok_r = r;
        }
    }
    uint32_t w = s.current(pipe, true, loc);
    std::fill(s.wr.begin() + off, s.wr.begin() + off + n, w);
}
#endif

// LocalTensor::operator(): a scalar access that may be a load; named by the last checked call.
inline void sync_scalar_touch(const void* p, uint64_t n) {
    BlockState& b = block();
    if (!b.sync) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off < b.ub_bytes && n <= b.ub_bytes - off) {
        sync_read(b.ub + off, n, Pipe::S, "LocalTensor::operator()", "an element", b.last);
    }
}

// Hooks for the synchronisation APIs (kmisc.h, pipe.h); no-ops without --sync-check.
inline void sync_barrier_all() {
    if (SyncState* s = block().sync) {
        s->all_before = uint32_t(s->acc.size());
        s->sync_event();
    }
}

void sync_set_flag(Pipe from, Pipe to, int32_t id);
#ifdef OPKG_SIM_RUNTIME_TU
void sync_set_flag(Pipe from, Pipe to, int32_t id) {
    if (SyncState* s = block().sync) {
        s->flags[std::make_tuple(pipe_slot(from), pipe_slot(to), id)] = uint32_t(s->acc.size());
        s->sync_event();
    }
}
#endif

void sync_wait_flag(Pipe from, Pipe to, int32_t id);
#ifdef OPKG_SIM_RUNTIME_TU
void sync_wait_flag(Pipe from, Pipe to, int32_t id) {
    if (SyncState* s = block().sync) {
        auto it = s->flags.find(std::make_tuple(pipe_slot(from), pipe_slot(to), id));
        if (it == s->flags.end()) return;   // set in an earlier launch's preload, or never: not ours to judge
        uint32_t& before = s->flag_before[pipe_slot(from)][pipe_slot(to)];
        if (it->second > before) before = it->second;
        s->flags.erase(it);
        s->sync_event();
    }
}
#endif

// DeQue of a tensor EnQue'd when `enqueued` accesses existed: its writes become visible to `to`.
void sync_handoff(const void* p, uint64_t n, uint8_t to, uint32_t enqueued);
#ifdef OPKG_SIM_RUNTIME_TU
void sync_handoff(const void* p, uint64_t n, uint8_t to, uint32_t enqueued) {
    BlockState& b = block();
    if (!b.sync) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    for (uint64_t i = off; i < off + n && i < b.sync->wr.size(); ++i) {
        uint32_t w = b.sync->wr[i];
        if (w && w < enqueued) b.sync->acc[w].seen |= to;
    }
    b.sync->sync_event();
}
#endif

// EnQue: the accesses recorded so far are the ones its DeQue hands over.
inline uint32_t sync_mark() {
    SyncState* s = block().sync;
    if (!s) return 0;
    s->sync_event();
    return uint32_t(s->acc.size());
}

// AllocTensor handing a buffer out again: the queue waited for the previous tile's consumers.
inline void sync_release(const void* p, uint64_t n) {
    BlockState& b = block();
    if (!b.sync) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - b.ub);
    if (off >= b.sync->wr.size()) return;   // a cube buffer (cube_mem.h), not UB
    uint64_t end = off + n < b.sync->wr.size() ? off + n : b.sync->wr.size();
    std::fill(b.sync->wr.begin() + off, b.sync->wr.begin() + end, 0);
    std::fill(b.sync->rd.begin() + off, b.sync->rd.begin() + end, 0);
    b.sync->sync_event();
}

}  // namespace opkg_sim
#endif
