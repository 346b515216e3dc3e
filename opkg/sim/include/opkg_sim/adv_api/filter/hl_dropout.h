// DropOut (CANN lib/filter): dst = src * mask / keepProb over [firstAxis, srcLastAxis], the mask
// as bytes (their value multiplies, as CANN's Cast + Mul does) or bits (1 keeps, 0 gives 0), rows
// of maskLastAxis bytes. The four modes of CANN 8.1 (dropOutMode 1-4, or 0: chosen from the shape
// as CANN does); the misaligned modes first pack the mask rows in place, as CANN's GatherMask
// does, so maskLocal changes. Each step is rounded to T (docs/api.md).
#ifndef OPKG_SIM_HL_DROPOUT_H
#define OPKG_SIM_HL_DROPOUT_H

#include <vector>
#include "opkg_sim/adv_api/hlapi.h"

namespace AscendC {

struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

const uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
const uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
const uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
const uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

}  // namespace AscendC

namespace opkg_sim {

template <class T>
inline void dropout(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>& mask, const AscendC::LocalTensor<uint8_t>* tmp,
                    float keepProb, const AscendC::DropOutShapeInfo& info, uint32_t mode, SrcLoc loc) {
    static_assert(is_half_or_float<T>::value, "DropOut takes half or float");
    const char* op = "DropOut";
    note(loc);
    const uint64_t rows = info.firstAxis, cols = info.srcLastAxis, mcols = info.maskLastAxis;
    if (!rows || !cols || !mcols) {
        fail(loc, format("%s: DropOutShapeInfo {firstAxis %u, srcLastAxis %u, maskLastAxis %u}: every axis must be "
                         "non-zero", op, info.firstAxis, info.srcLastAxis, info.maskLastAxis));
    }
    if (mode == 0) {   // CANN's choice from the shape
        mode = cols < mcols ? AscendC::DROPOUT_MODE_BYTE_MISALIGN
             : cols == mcols ? AscendC::DROPOUT_MODE_BYTE_ALIGN
             : cols == mcols * 8 ? AscendC::DROPOUT_MODE_BIT_ALIGN : AscendC::DROPOUT_MODE_BIT_MISALIGN;
    }
    if (mode < 1 || mode > 4) fail(loc, format("%s: dropOutMode %u is not 0-4", op, mode));
    const bool bits = mode >= AscendC::DROPOUT_MODE_BIT_ALIGN;
    // bit modes keep the select's scalar (0) in CMPMASK, set through 256 bytes of the tmp buffer
    check_tmp(tmp, bits ? 256 : 0, op, loc);
    if (bits && mcols * 8 < cols) {
        fail(loc, format("%s: bit mask rows of %llu bytes hold %llu bits, fewer than srcLastAxis %llu", op,
                         (unsigned long long)mcols, (unsigned long long)(mcols * 8), (unsigned long long)cols));
    }
    if (!bits && mcols < cols) {
        fail(loc, format("%s: byte mask rows of %llu bytes are shorter than srcLastAxis %llu", op,
                         (unsigned long long)mcols, (unsigned long long)cols));
    }
    const uint64_t n = rows * cols;
    check_count(src, n, op, "srcLocal", loc);
    check_count(dst, n, op, "dstLocal", loc);
    check_count(mask, rows * mcols, op, "maskLocal", loc);
    // the mask of element (r, c): byte r * mcols + c, or bit r * mcols * 8 + c
    std::vector<double> keep(n);
    for (uint64_t rr = 0; rr < rows; ++rr) {
        for (uint64_t c = 0; c < cols; ++c) {
            if (bits) {
                const uint64_t bit = rr * mcols * 8 + c;
                check_read(mask.ptr_ + bit / 8, 1, op, "maskLocal", loc);
                keep[rr * cols + c] = (mask.ptr_[bit / 8] >> (bit % 8)) & 1u;
            } else {
                check_read(mask.ptr_ + rr * mcols + c, 1, op, "maskLocal", loc);
                keep[rr * cols + c] = mask.ptr_[rr * mcols + c];
            }
        }
    }
    check_read(src.ptr_, n * sizeof(T), op, "srcLocal", loc);
    count_vec_of<T>(op, int64_t(n));
    const double div = widen(round_to<T>(double(1.0f / keepProb)));
    for (uint64_t i = 0; i < n; ++i) {
        const double x = widen(src.ptr_[i]);
        const double t = bits ? (keep[i] != 0 ? x : 0.0) : widen(round_to<T>(keep[i] * x));
        dst.ptr_[i] = round_to<T>(t * div);
    }
    mark_written(dst.ptr_, n * sizeof(T));
    if (mode == AscendC::DROPOUT_MODE_BYTE_MISALIGN || mode == AscendC::DROPOUT_MODE_BIT_MISALIGN) {
        // the packed rows CANN's GatherMask leaves in maskLocal
        const uint64_t row_bytes = bits ? cols / 8 : cols;
        std::vector<uint8_t> packed;
        for (uint64_t rr = 0; rr < rows; ++rr) {
            packed.insert(packed.end(), mask.ptr_ + rr * mcols, mask.ptr_ + rr * mcols + row_bytes);
        }
        std::memcpy(mask.ptr_, packed.data(), packed.size());
        mark_written(mask.ptr_, packed.size());
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::dropout(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info, dropOutMode, loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::dropout(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info, dropOutMode, loc);
}

}  // namespace AscendC
#endif
