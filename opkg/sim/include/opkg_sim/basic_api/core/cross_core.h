// The flags between the cores of one AI core in a split launch (core_by_task_type.h), as the
// devkit documents CrossCoreSetFlag/CrossCoreWaitFlag (docs/zh/api/SIMD-API/基础API/同步控制/核间同步,
// "关键特性说明"): every core (the AIC and each AIV) has a counter per flagId 0..15; a wait blocks
// while its counter is 0 and then takes one. Mode 1: once every AIV of the AI core has set the
// flag, each AIV's counter rises by one. Mode 2: a set on the AIC raises each AIV's counter; once
// every AIV has set the flag, the AIC's counter rises. A counter holds at most 15. (Mode 0, all
// cores of one type, is the all-block barrier of sync_all_blocks.)
//
// The bodies of a split launch first run one after another; the first mode-1/2 flag switches the
// launch to one thread per body (NeedConcurrent), where waits block for real. A wait that no
// running body of its AI core can satisfy any more (all of them have returned or wait on flags
// themselves) is a hang on the device and is reported at its line; so is a wait that lasts
// OPKG_IB_WAIT_SECONDS while another core waits elsewhere (a SyncAll, say).
#ifndef OPKG_SIM_CROSS_CORE_H
#define OPKG_SIM_CROSS_CORE_H

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>
#include "opkg_sim/basic_api/core/kcore.h"

namespace opkg_sim {

struct CrossCore {
    // Bodies of an AI core: 0 its AIC, 1 + s its AIV s.
    struct Group {
        uint8_t counter[3][16] = {};
        uint8_t unmatched1[2][16] = {};   // mode-1 sets of each AIV not yet matched by every AIV's
        uint8_t unmatched2[2][16] = {};   // mode-2 sets of each AIV, likewise
        bool running[3] = {true, true, true};
        bool waiting[3] = {};
        SrcLoc wait_loc[3] = {};
        int wait_flag[3] = {};
    };
    std::mutex m;
    std::condition_variable cv;
    std::vector<Group> groups;
    bool aborted = false;
    bool deadlocked = false;
    Barrier* barriers[2] = {nullptr, nullptr};   // the AIV and the AIC SyncAll barriers

    explicit CrossCore(size_t ai_cores) : groups(ai_cores) {}
    void abort();
    // The body's run ended (returned, left, or failed): waits on it are re-examined.
    void body_done(int64_t ai_core, int role);
};

// The body's place in its AI core (by its launch slot: the AI core's three bodies whatever the
// declared type; an AIV of MIX_AIC_1_1's second slot or a vector-only key has left).
inline int cross_role(const BlockState& b) { return b.core == 1 ? 0 : 1 + int(b.idx % 2); }
inline int64_t cross_group(const BlockState& b) { return b.core == 1 ? b.ai_core : b.idx / 2; }

void cross_core_set(unsigned mode, unsigned flag, SrcLoc loc);
void cross_core_wait(unsigned flag, SrcLoc loc);

#ifdef OPKG_SIM_RUNTIME_TU
void CrossCore::abort() {
    {
        std::lock_guard<std::mutex> lk(m);
        aborted = true;
    }
    cv.notify_all();
    for (Barrier* b : barriers) {
        if (b) b->abort();
    }
}

void CrossCore::body_done(int64_t ai_core, int role) {
    {
        std::lock_guard<std::mutex> lk(m);
        if (ai_core >= 0 && size_t(ai_core) < groups.size()) groups[size_t(ai_core)].running[role] = false;
    }
    cv.notify_all();
}

static const char* const kCrossRole[3] = {"cube core (AIC)", "vector core AIV 0", "vector core AIV 1"};

static void raise_counter(uint8_t& c, unsigned flag, int role, SrcLoc loc) {
    if (c >= 15) {
        fail(loc, format("CrossCoreSetFlag(%u): the %s's counter of flag %u would exceed 15 (sets without waits: "
                         "the device reports an error here)", flag, kCrossRole[role], flag));
    }
    ++c;
}

void cross_core_set(unsigned mode, unsigned flag, SrcLoc loc) {
    BlockState& b = block();
    if (!b.cross) throw NeedConcurrent{};   // the AI core's bodies must run together
    CrossCore& x = *b.cross;
    const int role = cross_role(b);
    const int aivs = int(b.ration);   // the vector cores the declared type starts per AI core
    {
        std::lock_guard<std::mutex> lk(x.m);
        CrossCore::Group& g = x.groups[size_t(cross_group(b))];
        if (mode == 1) {
            if (role == 0) {
                fail(loc, format("CrossCoreSetFlag<1>(%u) on the cube core: mode 1 synchronises the vector cores of an "
                                 "AI core", flag));
            }
            ++g.unmatched1[role - 1][flag];
            bool all = true;
            for (int s = 0; s < aivs; ++s) all = all && g.unmatched1[s][flag] > 0;
            if (all) {
                for (int s = 0; s < aivs; ++s) {
                    --g.unmatched1[s][flag];
                    raise_counter(g.counter[1 + s][flag], flag, 1 + s, loc);
                }
            }
        } else if (role == 0) {   // mode 2 from the cube: every vector core may go on
            for (int s = 0; s < aivs; ++s) raise_counter(g.counter[1 + s][flag], flag, 1 + s, loc);
        } else {                  // mode 2 from a vector core: the cube goes on once all have set it
            ++g.unmatched2[role - 1][flag];
            bool all = true;
            for (int s = 0; s < aivs; ++s) all = all && g.unmatched2[s][flag] > 0;
            if (all) {
                for (int s = 0; s < aivs; ++s) --g.unmatched2[s][flag];
                raise_counter(g.counter[0][flag], flag, 0, loc);
            }
        }
    }
    x.cv.notify_all();
}

void cross_core_wait(unsigned flag, SrcLoc loc) {
    BlockState& b = block();
    if (!b.cross) throw NeedConcurrent{};
    CrossCore& x = *b.cross;
    const int role = cross_role(b);
    const int64_t ai_core = cross_group(b);
    std::unique_lock<std::mutex> lk(x.m);
    CrossCore::Group& g = x.groups[size_t(ai_core)];
    const auto start = std::chrono::steady_clock::now();
    g.waiting[role] = true;
    g.wait_loc[role] = loc;
    g.wait_flag[role] = int(flag);
    struct Unmark {
        CrossCore::Group& g;
        int role;
        ~Unmark() { g.waiting[role] = false; }
    } unmark{g, role};
    while (g.counter[role][flag] == 0) {
        if (x.aborted || x.deadlocked) throw Aborted{};
        bool stuck = true;   // every body of the AI core still running waits on a flag
        for (int r = 0; r < 3; ++r) stuck = stuck && (!g.running[r] || (g.waiting[r] && g.counter[r][g.wait_flag[r]] == 0));
        const bool timed_out = std::chrono::steady_clock::now() - start > std::chrono::seconds(10);
        if (stuck || timed_out) {
            x.deadlocked = true;
            // reported at the first waiting body in the order AIC, AIV 0, AIV 1, whichever body
            // noticed it: the report does not depend on the threads' timing
            int who = role;
            if (stuck) {
                for (int r = 2; r >= 0; --r) {
                    if (g.running[r] && g.waiting[r]) who = r;
                }
            }
            std::string others;
            for (int r = 0; r < 3; ++r) {
                if (r == who) continue;
                others += format("; the %s ", kCrossRole[r]);
                others += !g.running[r] ? std::string("has returned (or the task type does not start it)")
                          : g.waiting[r] ? format("waits for flag %d at %s:%d", g.wait_flag[r],
                                                  g.wait_loc[r].file ? g.wait_loc[r].file : "?", g.wait_loc[r].line)
                                         : std::string("waits elsewhere (a SyncAll?)");
            }
            x.cv.notify_all();
            for (Barrier* br : x.barriers) {
                if (br) br->abort();
            }
            fail(g.wait_loc[who], format("CrossCoreWaitFlag(%d) on the %s of AI core %lld waits for a flag that no core of "
                                         "its AI core will set%s: on the device it would wait forever (a CrossCoreSetFlag "
                                         "missing, or of another mode or flagId)%s",
                                         g.wait_flag[who], kCrossRole[who], (long long)ai_core, others.c_str(),
                                         timed_out && !stuck ? " (no progress for 10 s)" : ""));
        }
        x.cv.wait_for(lk, std::chrono::milliseconds(50));
    }
    --g.counter[role][flag];
}
#endif

}  // namespace opkg_sim
#endif
