// Pad and UnPad (CANN lib/pad) of a [srcHeight, srcWidth] tensor along its width, as CANN 8.1
// does them: Pad of 32-byte-aligned rows fills [srcOriWidth, srcOriWidth + rightPad) of each row
// with padValue (leftPad must be 0, rightPad not); Pad of unaligned rows (packed, srcWidth each)
// writes rows of leftPad + srcWidth + rightPad elements (32-byte aligned) with padValue on both
// sides; UnPad drops the last rightPad elements of each aligned row into packed rows (the result
// width must not be 32-byte aligned: CANN rejects it). The shape comes from PadTiling/UnPadTiling.
#ifndef OPKG_SIM_HL_PAD2D_H
#define OPKG_SIM_HL_PAD2D_H

#include <vector>
#include "opkg_sim/adv_api/hlapi.h"
#include "lib/pad/pad_tilingdata.h"

namespace AscendC {

using PadTiling = optiling::PadTiling;
using UnPadTiling = optiling::UnPadTiling;

struct PadParams {
    PadParams() : leftPad(0), rightPad(0), padValue(0) {}
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    UnPadParams() : leftPad(0), rightPad(0) {}
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace opkg_sim {

template <class T>
inline void pad_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::PadParams& p,
                     const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::PadTiling& tiling, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Pad takes 16- or 32-bit elements");
    const char* op = "Pad";
    note(loc);
    const uint64_t h = OPKG_TF(tiling, srcHeight), w = OPKG_TF(tiling, srcWidth), ow = OPKG_TF(tiling, srcOriWidth);
    check_tmp(tmp, unit_tmp_bytes(rules::Pad, 4, false, w * sizeof(T)), op, loc);   // GetPadMaxMinTmpSize's
    const T value = static_cast<T>(p.padValue);
    if (!h || !w) fail(loc, format("%s: srcHeight %llu, srcWidth %llu must be non-zero (check the tiling)", op,
                                   (unsigned long long)h, (unsigned long long)w));
    if ((w * sizeof(T)) % 32 == 0) {
        if (ow >= w || p.leftPad != 0 || p.rightPad == 0 || ow + p.rightPad > w) {
            fail(loc, format("%s: 32-byte aligned rows (srcWidth %llu, srcOriWidth %llu) take only a right pad inside "
                             "the row: leftPad must be 0 (is %u), rightPad non-zero and at most srcWidth - srcOriWidth "
                             "(is %u)", op, (unsigned long long)w, (unsigned long long)ow, p.leftPad, p.rightPad));
        }
        check_count(src, h * w, op, "srcTensor", loc);
        check_count(dst, h * w, op, "dstTensor", loc);
        check_read(src.ptr_, h * w * sizeof(T), op, "srcTensor", loc);
        count_vec_of<T>(op, int64_t(h * w));
        std::vector<T> rows(src.ptr_, src.ptr_ + h * w);
        for (uint64_t r = 0; r < h; ++r) {
            for (uint64_t c = ow; c < ow + p.rightPad; ++c) rows[r * w + c] = value;
        }
        std::memcpy(dst.ptr_, rows.data(), h * w * sizeof(T));
        mark_written(dst.ptr_, h * w * sizeof(T));
        return;
    }
    const uint64_t dw = w + p.leftPad + p.rightPad;
    if ((dw * sizeof(T)) % 32) {
        fail(loc, format("%s: rows of srcWidth %llu + leftPad %u + rightPad %u = %llu elements are not a whole number "
                         "of 32-byte blocks", op, (unsigned long long)w, p.leftPad, p.rightPad, (unsigned long long)dw));
    }
    check_count(src, h * w, op, "srcTensor", loc);
    check_count(dst, h * dw, op, "dstTensor", loc);
    check_read(src.ptr_, h * w * sizeof(T), op, "srcTensor", loc);
    count_vec_of<T>(op, int64_t(h * dw));
    std::vector<T> rows(h * dw, value);
    for (uint64_t r = 0; r < h; ++r) std::memcpy(&rows[r * dw + p.leftPad], src.ptr_ + r * w, w * sizeof(T));
    std::memcpy(dst.ptr_, rows.data(), h * dw * sizeof(T));
    mark_written(dst.ptr_, h * dw * sizeof(T));
}

template <class T>
inline void unpad_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::UnPadParams& p, const AscendC::LocalTensor<uint8_t>* tmp,
                       const AscendC::UnPadTiling& tiling, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "UnPad takes 16- or 32-bit elements");
    const char* op = "UnPad";
    note(loc);
    const uint64_t h = OPKG_TF(tiling, srcHeight), w = OPKG_TF(tiling, srcWidth);
    check_tmp(tmp, unit_tmp_bytes(rules::Pad, 4, false, w * sizeof(T)), op, loc);   // GetUnPadMaxMinTmpSize's
    if (!h || !w || (w * sizeof(T)) % 32) {
        fail(loc, format("%s: srcWidth %llu must be a non-zero whole number of 32-byte blocks and srcHeight %llu "
                         "non-zero (check the tiling)", op, (unsigned long long)w, (unsigned long long)h));
    }
    if (p.rightPad >= w || ((w - p.rightPad) * sizeof(T)) % 32 == 0) {
        fail(loc, format("%s: srcWidth %llu - rightPad %u must leave a row that is not 32-byte aligned (an aligned "
                         "result needs no UnPad; CANN rejects it)", op, (unsigned long long)w, p.rightPad));
    }
    const uint64_t dw = w - p.rightPad;
    check_count(src, h * w, op, "srcTensor", loc);
    check_count(dst, h * dw, op, "dstTensor", loc);
    count_vec_of<T>(op, int64_t(h * w));
    for (uint64_t r = 0; r < h; ++r) {
        check_read(src.ptr_ + r * w, dw * sizeof(T), op, "srcTensor", loc);
        std::memmove(dst.ptr_ + r * dw, src.ptr_ + r * w, dw * sizeof(T));
        mark_written(dst.ptr_ + r * dw, dw * sizeof(T));
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling,
                opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::pad_rows(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                PadTiling& tiling, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::pad_rows(dstTensor, srcTensor, padParams, nullptr, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling,
                  opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::unpad_rows(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::unpad_rows(dstTensor, srcTensor, unPadParams, nullptr, tiling, loc);
}

}  // namespace AscendC
#endif
