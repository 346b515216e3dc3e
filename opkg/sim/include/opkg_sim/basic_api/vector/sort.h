// The sort family around Sort32 (gather_sort.h): the merge of up to four sorted lists (MrgSort,
// MrgSort4, GetMrgSortResult), the region-proposal instructions of 910A/310P (RpSort16,
// ProposalConcat, ProposalExtract) and the portable wrappers real operators use (Concat, Sort,
// Extract, GetSortLen, GetSortOffset).
//
// Two record layouts, as CANN documents them. A2/A3 and 310B (__CCE_AICORE__ >= 220): a sorted
// element is an 8-byte (score, uint32 index) pair, the score in the low bytes (a half score in the
// first 2, the next 2 reserved), 32 elements a Sort32 repeat. 910A/310P (<= 200): a region proposal
// of 8 elements [x1, y1, x2, y2, score, label, reserved, reserved], 16 proposals a repeat; Sort
// keeps a float index in `label`, a half one split into y1 (low 16 bits) and label (high).
// Every sort and merge is stable: equal scores keep their input order, and a merge takes equal
// scores from the lower-numbered list first (docs/api.md).
#ifndef OPKG_SIM_SORT_H
#define OPKG_SIM_SORT_H

#include <algorithm>
#include <vector>
#include "opkg_sim/basic_api/vector/gather_sort.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                 const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(uint8_t(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};

template <typename T> struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

}  // namespace AscendC

namespace opkg_sim {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
constexpr bool kSortPairs = true;
#else
constexpr bool kSortPairs = false;
#endif

// Elements of T one sorted record takes.
template <class T> constexpr uint32_t sort_record_elems() { return kSortPairs ? 8 / sizeof(T) : 8; }

template <class T> inline double record_score(const T* rec) {
    return double(static_cast<calc_t<T>>(rec[kSortPairs ? 0 : 4]));
}

// The merge register (VMS4_SR): how many records of each list the last merge consumed.
inline uint16_t (&mrg_sort_result())[4] { return block().mrg_sort; }

template <class T> inline void check_sort_dtype() {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "the sort APIs take half or float");
}

inline void check_sort_repeat(int32_t repeat, const char* op, SrcLoc loc) {
    if (repeat < 0 || repeat > 255) fail(loc, format("%s: repeatTimes %d outside [0, 255]", op, repeat));
}

// Merges up to four sorted record lists (validBit 3, 7 or 15: the first 2, 3 or 4) into dst,
// `repeat` times: with more than one repeat the four lists lie one after another, each
// elementLengths[0] records long, and every repeat moves on by all four (as CANN's full sort uses it).
template <class T>
inline void merge_sort(const AscendC::LocalTensor<T>& dst, const AscendC::MrgSortSrcList<T>& list,
                       const AscendC::MrgSort4Info& info, const char* op, SrcLoc loc) {
    check_sort_dtype<T>();
    note(loc);
    const uint32_t rec = sort_record_elems<T>();
    uint32_t lists = 0;
    switch (info.validBit) {
        case 3: lists = 2; break;
        case 7: lists = 3; break;
        case 15: lists = 4; break;
        default: fail(loc, format("%s: validBit %u must be 3, 7 or 15 (2, 3 or 4 lists)", op, unsigned(info.validBit)));
    }
    const uint32_t limit = 4095;   // the instructions take 12 (910A/310P) or 16 bits; CANN checks 4095
    const AscendC::LocalTensor<T>* src[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
    const uint32_t repeat = info.repeatTimes;
    if (repeat == 0) return;
    if (repeat > 1) {
        for (uint32_t k = 1; k < 4; ++k) {
            if (info.validBit != 15 || info.elementLengths[k] != info.elementLengths[0]) {
                fail(loc, format("%s: repeatTimes %u needs all four lists (validBit 15) of equal length; "
                                 "elementLengths are %u %u %u %u", op, repeat, info.elementLengths[0],
                                 info.elementLengths[1], info.elementLengths[2], info.elementLengths[3]));
            }
        }
    }
    uint64_t total = 0;
    for (uint32_t k = 0; k < lists; ++k) {
        if (info.elementLengths[k] > limit) {
            fail(loc, format("%s: elementLengths[%u] %u is more than %u", op, k, info.elementLengths[k], limit));
        }
        // with repeats, list k of repeat r starts (4 r) lists after list k's start
        const uint64_t need = (uint64_t(repeat - 1) * 4 * info.elementLengths[0] + info.elementLengths[k]) * rec;
        check_ub(*src[k], need * sizeof(T), op, format("src%u", k + 1).c_str(), loc);
        check_read(src[k]->ptr_, need * sizeof(T), op, format("src%u", k + 1).c_str(), loc);
        total += info.elementLengths[k];
    }
    check_ub(dst, uint64_t(repeat) * total * rec * sizeof(T), op, "dst", loc);
    count_vec(op, uint64_t(repeat) * total * rec, uint64_t(repeat) * total * rec * sizeof(T), repeat);
    std::vector<T> out;
    uint16_t used[4] = {0, 0, 0, 0};
    for (uint32_t r = 0; r < repeat; ++r) {
        const T* head[4];
        uint32_t pos[4] = {0, 0, 0, 0};
        for (uint32_t k = 0; k < lists; ++k) head[k] = src[k]->ptr_ + uint64_t(r) * 4 * info.elementLengths[0] * rec;
        for (;;) {
            int best = -1;
            bool exhausted = false;
            for (uint32_t k = 0; k < lists; ++k) {
                if (pos[k] >= info.elementLengths[k]) {
                    exhausted = true;
                    continue;
                }
                if (best < 0 || record_score(head[k] + pos[k] * rec) > record_score(head[best] + pos[best] * rec)) {
                    best = int(k);
                }
            }
            if (best < 0 || (exhausted && info.ifExhaustedSuspension)) break;
            out.insert(out.end(), head[best] + pos[best] * rec, head[best] + (pos[best] + 1) * rec);
            ++pos[best];
        }
        for (uint32_t k = 0; k < 4; ++k) used[k] = uint16_t(k < lists ? pos[k] : 0);
    }
    std::memcpy(dst.ptr_, out.data(), out.size() * sizeof(T));
    mark_written(dst.ptr_, out.size() * sizeof(T));
    std::memcpy(mrg_sort_result(), used, sizeof(used));
}

// Proposal `mode` element of 16 * repeat proposals <-> 16 * repeat consecutive elements.
template <class T>
inline void proposal_move(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t repeat,
                          int32_t mode, bool concat, const char* op, SrcLoc loc) {
    check_sort_dtype<T>();
    check_sort_repeat(repeat, op, loc);
    if (mode < 0 || mode > 5) fail(loc, format("%s: modeNumber %d outside [0, 5]", op, mode));
    const uint64_t n = uint64_t(repeat) * 16;
    check_ub(dst, (concat ? n * 8 : n) * sizeof(T), op, "dst", loc);
    check_ub(src, (concat ? n : n * 8) * sizeof(T), op, "src", loc);
    count_vec(op, n, n * sizeof(T), uint64_t(repeat));
    for (uint64_t i = 0; i < n; ++i) {
        const T* s = concat ? src.ptr_ + i : src.ptr_ + i * 8 + mode;
        T* d = concat ? dst.ptr_ + i * 8 + mode : dst.ptr_ + i;
        check_read(s, sizeof(T), op, "src", loc);
        *d = *s;
        mark_written(d, sizeof(T));
    }
}

// Sorts each repeat's `per` records (stable, descending by score); `whole` sorts all of them.
template <class T>
inline void sort_records(T* data, uint64_t records, uint32_t per) {
    const uint32_t rec = sort_record_elems<T>();
    std::vector<uint64_t> order;
    std::vector<T> copy(data, data + records * rec);
    for (uint64_t base = 0; base < records; base += per) {
        const uint64_t end = std::min<uint64_t>(records, base + per);
        order.clear();
        for (uint64_t i = base; i < end; ++i) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
            return record_score(copy.data() + a * rec) > record_score(copy.data() + b * rec);
        });
        for (uint64_t i = base; i < end; ++i) {
            std::memcpy(data + i * rec, copy.data() + order[i - base] * rec, rec * sizeof(T));
        }
    }
}

template <class T>
inline void rp_sort16(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, int32_t repeat,
                      const char* op, SrcLoc loc) {
    check_sort_dtype<T>();
    check_sort_repeat(repeat, op, loc);
    const uint64_t n = uint64_t(repeat) * 16 * 8;
    check_ub(src, n * sizeof(T), op, "src", loc);
    check_ub(dst, n * sizeof(T), op, "dst", loc);
    check_read(src.ptr_, n * sizeof(T), op, "src", loc);
    count_vec(op, n, n * sizeof(T), uint64_t(repeat));
    std::vector<T> tmp(src.ptr_, src.ptr_ + n);
    sort_records(tmp.data(), uint64_t(repeat) * 16, 16);
    std::memcpy(dst.ptr_, tmp.data(), n * sizeof(T));
    mark_written(dst.ptr_, n * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
template <typename T>
inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& srcLocal, const MrgSort4Info& params,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::merge_sort(dstLocal, srcLocal, params, "MrgSort", loc);
}
#else
template <typename T>
inline void MrgSort4(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& srcLocal, const MrgSort4Info& params,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::merge_sort(dstLocal, srcLocal, params, "MrgSort4", loc);
}

template <typename T>
inline void RpSort16(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeatTimes,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::rp_sort16(dstLocal, srcLocal, repeatTimes, "RpSort16", loc);
}

template <typename T>
inline void ProposalConcat(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeatTimes,
                           const int32_t modeNumber, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::proposal_move(dstLocal, srcLocal, repeatTimes, modeNumber, true, "ProposalConcat", loc);
}

template <typename T>
inline void ProposalExtract(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeatTimes,
                            const int32_t modeNumber, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::proposal_move(dstLocal, srcLocal, repeatTimes, modeNumber, false, "ProposalExtract", loc);
}
#endif

// The counts of each list the last merge consumed (with exhausted suspension: up to the stop).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                             uint16_t& mrgSortList4) {
    const uint16_t(&c)[4] = opkg_sim::mrg_sort_result();
    mrgSortList1 = c[0];
    mrgSortList2 = c[1];
    mrgSortList3 = c[2];
    mrgSortList4 = c[3];
}

// The 6-argument form: isExhaustedSuspension stops at the first list to run out and reports how
// many records of each list went into dst in sortedNum (310B has no such register: zeros).
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& sortList,
                    const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                    const int32_t repeatTimes, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, uint16_t(repeatTimes));
    opkg_sim::check_sort_repeat(repeatTimes, "MrgSort", loc);
    opkg_sim::merge_sort(dstLocal, sortList, info, "MrgSort", loc);
    if (isExhaustedSuspension) {
        for (int k = 0; k < 4; ++k) {
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 300
            sortedNum[k] = 0;
#else
            sortedNum[k] = opkg_sim::mrg_sort_result()[k];
#endif
        }
    }
}

template <typename T> inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    opkg_sim::check_sort_dtype<T>();
    return elemOffset * opkg_sim::sort_record_elems<T>();
}

template <typename T> inline uint32_t GetSortLen(const uint32_t elemCount) {
    opkg_sim::check_sort_dtype<T>();
    return elemCount * opkg_sim::sort_record_elems<T>();
}

// Prepares Sort's scores: on A2/A3 concatLocal becomes srcLocal itself; on 910A/310P the scores
// go into the score element of the proposals in tmpLocal, which concatLocal then names.
template <typename T>
inline void Concat(LocalTensor<T>& concatLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& tmpLocal,
                   const int32_t repeatTimes, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_sort_dtype<T>();
    opkg_sim::check_sort_repeat(repeatTimes, "Concat", loc);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
    (void)tmpLocal;
    concatLocal = srcLocal;
#else
    opkg_sim::proposal_move(tmpLocal, srcLocal, repeatTimes, 4, true, "Concat", loc);
    concatLocal = tmpLocal;
#endif
}

// Sorts descending with each score's index: A2/A3 32 scores a repeat into (score, index) pairs,
// 910A/310P 16 proposals a repeat; isFullSort then merges all repeats into one order (tmpLocal
// holds a copy of dst meanwhile, as CANN's merge passes use it).
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal,
                 const LocalTensor<uint32_t>& indexLocal, LocalTensor<T>& tmpLocal, const int32_t repeatTimes,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_sort_dtype<T>();
    opkg_sim::check_sort_repeat(repeatTimes, "Sort", loc);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
    Sort32(dstLocal, concatLocal, indexLocal, repeatTimes, loc);
    const uint64_t records = uint64_t(repeatTimes) * 32;
#else
    const uint64_t records = uint64_t(repeatTimes) * 16;
    if (indexLocal.GetSize() != 0) {
        opkg_sim::check_ub(indexLocal, records * 4, "Sort", "indexLocal", loc);
        if constexpr (std::is_same<T, half>::value) {
            // the low and high 16 bits of each index into y1 and label
            opkg_sim::check_ub(concatLocal, records * 8 * sizeof(T), "Sort", "concatLocal", loc);
            opkg_sim::check_read(indexLocal.ptr_, records * 4, "Sort", "indexLocal", loc);
            for (uint64_t i = 0; i < records; ++i) {
                std::memcpy(concatLocal.ptr_ + i * 8 + 1, reinterpret_cast<const uint8_t*>(indexLocal.ptr_ + i), 2);
                std::memcpy(concatLocal.ptr_ + i * 8 + 5, reinterpret_cast<const uint8_t*>(indexLocal.ptr_ + i) + 2, 2);
                opkg_sim::mark_written(concatLocal.ptr_ + i * 8 + 1, 2);
                opkg_sim::mark_written(concatLocal.ptr_ + i * 8 + 5, 2);
            }
        } else {
            opkg_sim::proposal_move(concatLocal, indexLocal.template ReinterpretCast<T>(), repeatTimes, 5, true,
                                    "Sort", loc);
        }
    }
    opkg_sim::rp_sort16(dstLocal, concatLocal, repeatTimes, "Sort", loc);
#endif
    if constexpr (isFullSort) {
        const uint64_t elems = records * opkg_sim::sort_record_elems<T>();
        opkg_sim::check_ub(tmpLocal, elems * sizeof(T), "Sort", "tmpLocal", loc);
        opkg_sim::check_read(dstLocal.ptr_, elems * sizeof(T), "Sort", "dst", loc);
        std::memcpy(tmpLocal.ptr_, dstLocal.ptr_, elems * sizeof(T));
        opkg_sim::sort_records(dstLocal.ptr_, records, uint32_t(records ? records : 1));
        opkg_sim::mark_written(tmpLocal.ptr_, elems * sizeof(T));
        opkg_sim::mark_written(dstLocal.ptr_, elems * sizeof(T));
    }
}

// Splits sorted records into scores and indices (32 records a repeat on A2/A3, 16 on 910A/310P).
// A dstIndexLocal of size 0 skips the indices on 910A/310P, as there.
template <typename T>
inline void Extract(const LocalTensor<T>& dstValueLocal, const LocalTensor<uint32_t>& dstIndexLocal,
                    const LocalTensor<T>& sortedLocal, const int32_t repeatTimes,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_sort_dtype<T>();
    opkg_sim::check_sort_repeat(repeatTimes, "Extract", loc);
    const uint32_t rec = opkg_sim::sort_record_elems<T>();
    const uint64_t records = uint64_t(repeatTimes) * (opkg_sim::kSortPairs ? 32 : 16);
    const bool indices = opkg_sim::kSortPairs || dstIndexLocal.GetSize() != 0;
    opkg_sim::check_ub(sortedLocal, records * rec * sizeof(T), "Extract", "sortedLocal", loc);
    opkg_sim::check_ub(dstValueLocal, records * sizeof(T), "Extract", "dstValueLocal", loc);
    if (indices) opkg_sim::check_ub(dstIndexLocal, records * 4, "Extract", "dstIndexLocal", loc);
    opkg_sim::check_read(sortedLocal.ptr_, records * rec * sizeof(T), "Extract", "sortedLocal", loc);
    opkg_sim::count_vec("Extract", records, records * rec * sizeof(T), uint64_t(repeatTimes));
    for (uint64_t i = 0; i < records; ++i) {
        const T* r = sortedLocal.ptr_ + i * rec;
        dstValueLocal.ptr_[i] = r[opkg_sim::kSortPairs ? 0 : 4];
        if (!indices) continue;
        uint32_t idx = 0;
        if (opkg_sim::kSortPairs) {
            std::memcpy(&idx, reinterpret_cast<const uint8_t*>(r) + 4, 4);
        } else if (sizeof(T) == 2) {
            std::memcpy(&idx, r + 1, 2);
            std::memcpy(reinterpret_cast<uint8_t*>(&idx) + 2, r + 5, 2);
        } else {
            std::memcpy(&idx, r + 5, 4);
        }
        dstIndexLocal.ptr_[i] = idx;
    }
    opkg_sim::mark_written(dstValueLocal.ptr_, records * sizeof(T));
    if (indices) opkg_sim::mark_written(dstIndexLocal.ptr_, records * 4);
}

}  // namespace AscendC
#endif
