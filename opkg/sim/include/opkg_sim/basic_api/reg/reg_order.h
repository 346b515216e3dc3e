// Ordering inside a vector function (the devkit's LocalMemBar page): the vector unit's UB loads
// and stores are separate pipelines, so a load of bytes an earlier store of the same function
// wrote may read them before the store lands, unless LocalMemBar<VEC_STORE, VEC_LOAD> (or
// <VEC_ALL, VEC_ALL>) stands between them. The same holds for a store after a load
// (<VEC_LOAD, VEC_STORE>). Accesses whose registers are the same are ordered by the hardware
// (register ordering), and need no barrier. Two stores are not checked: they share a pipeline.
//
// Checked under --sync-check, like the hazards between pipes (hazard.h): each unordered access
// is an error naming both call sites. Outside a vector-function scope nothing is tracked.
#ifndef OPKG_SIM_REG_ORDER_H
#define OPKG_SIM_REG_ORDER_H

#include <vector>

#include "opkg_sim/basic_api/reg/reg_core.h"

namespace opkg_sim {
namespace reg {

struct VfAccess {
    uint64_t lo, hi;       // UB offsets [lo, hi)
    const void* reg;       // the register that was stored or loaded
    SrcLoc loc;
    const char* op;
};

struct VfState {
    int depth = 0;
    std::vector<VfAccess> stores, loads;   // since the last barrier that orders them
};

inline VfState& vf() {
    static thread_local VfState s;
    return s;
}

inline VfScope::VfScope() {
    if (vf().depth++ == 0) {
        vf().stores.clear();
        vf().loads.clear();
    }
}
inline VfScope::~VfScope() { --vf().depth; }

// Adds [lo, hi) to `list`, merged with the last entry when it continues it (the usual loop over
// consecutive registers stays one entry).
inline void vf_note(std::vector<VfAccess>& list, uint64_t lo, uint64_t hi, const void* reg, SrcLoc loc,
                    const char* op) {
    if (!list.empty() && list.back().reg == reg && list.back().hi == lo) {
        list.back().hi = hi;
        return;
    }
    list.push_back(VfAccess{lo, hi, reg, loc, op});
}

inline void vf_check(const std::vector<VfAccess>& earlier, uint64_t lo, uint64_t hi, const void* reg, SrcLoc loc,
                     const char* op, const char* what, const char* barrier) {
    for (const VfAccess& a : earlier) {
        if (a.hi <= lo || hi <= a.lo || a.reg == reg) continue;
        const uint64_t from = a.lo > lo ? a.lo : lo, to = a.hi < hi ? a.hi : hi;
        fail(loc, format("%s %s UB bytes [%llu, %llu) that %s at %s:%d accessed earlier in this vector function, "
                         "with no LocalMemBar<%s> between them: the device runs vector loads and stores in separate "
                         "pipelines, so the order is not kept (--sync-check)", op, what, (unsigned long long)from,
                         (unsigned long long)to, a.op, a.loc.file ? a.loc.file : "?", a.loc.line, barrier));
    }
}

// A vector load of n UB bytes at p into register `reg`.
inline void vf_load(const uint8_t* p, uint64_t n, const void* reg, const char* op, SrcLoc loc) {
    BlockState& b = block();
    if (!b.sync || vf().depth == 0 || !n) return;
    const uint64_t lo = uint64_t(p - b.ub);
    vf_check(vf().stores, lo, lo + n, reg, loc, op, "reads", "MemType::VEC_STORE, MemType::VEC_LOAD");
    vf_note(vf().loads, lo, lo + n, reg, loc, op);
}

// A vector store of n UB bytes at p from register `reg`.
inline void vf_store(const uint8_t* p, uint64_t n, const void* reg, const char* op, SrcLoc loc) {
    BlockState& b = block();
    if (!b.sync || vf().depth == 0 || !n) return;
    const uint64_t lo = uint64_t(p - b.ub);
    vf_check(vf().loads, lo, lo + n, reg, loc, op, "writes", "MemType::VEC_LOAD, MemType::VEC_STORE");
    vf_note(vf().stores, lo, lo + n, reg, loc, op);
}

}  // namespace reg
}  // namespace opkg_sim

namespace AscendC {
namespace Reg {

// Orders the vector function's accesses of kind `src` before those of kind `dst`.
template <MemType src, MemType dst>
inline void LocalMemBar() {
    auto& s = opkg_sim::reg::vf();
    const bool st = src == MemType::VEC_STORE || src == MemType::VEC_ALL;
    const bool ld = src == MemType::VEC_LOAD || src == MemType::VEC_ALL;
    const bool to_ld = dst == MemType::VEC_LOAD || dst == MemType::VEC_ALL;
    const bool to_st = dst == MemType::VEC_STORE || dst == MemType::VEC_ALL;
    if (st && to_ld) s.stores.clear();
    if (ld && to_st) s.loads.clear();
}

}  // namespace Reg
}  // namespace AscendC

// bisheng's `mem_bar(MEM_TYPE)` builtin, which LocalMemBar stands for and some kernels call
// directly (ops-nn's non_zero: `mem_bar(VST_VLD)`): the source and destination pipelines of each
// value as the devkit's asc_mem_bar page tabulates them. Only the vector loads and stores are
// ordered here; a scalar side adds nothing to the model (scalar accesses run in program order).
enum MEM_TYPE {
    VV_ALL, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST, SV_ALL, ST_VLD, LD_VST, ST_VST,
    SS_ALL, ST_LD, LD_ST, ST_ST
};
inline void mem_bar(MEM_TYPE type) {
    using AscendC::Reg::MemType;
    switch (type) {
        case VV_ALL: AscendC::Reg::LocalMemBar<MemType::VEC_ALL, MemType::VEC_ALL>(); break;
        case VST_VLD: AscendC::Reg::LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>(); break;
        case VLD_VST: AscendC::Reg::LocalMemBar<MemType::VEC_LOAD, MemType::VEC_STORE>(); break;
        default: break;
    }
}

#endif
