// TransDataTo5HD (vnchwconv): per repeat, 16 source and 16 destination 32-byte blocks named by
// address; element j of every source block becomes the j-th destination run (16-bit: block j;
// 32-bit: blocks 2j and 2j+1, sources 0-7 then 8-15; 8-bit: half of block j, the halves chosen by
// srcHighHalf/dstHighHalf). Each repeat moves every address on by its RepStride blocks.
#ifndef OPKG_SIM_TRANS5HD_H
#define OPKG_SIM_TRANS5HD_H

#include "opkg_sim/basic_api/core/datacopy.h"
#include "opkg_sim/basic_api/core/tensor.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

// A literal type, as the devkit's (__aicore__ constexpr constructors): ops-nn's MatMulV3 keeps
// `constexpr TransDataTo5HDParams PARA_ONE(...)` (mat_mul_nd2nz_util.h).
struct TransDataTo5HDParams {
    constexpr TransDataTo5HDParams() {}
    constexpr TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                         const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace opkg_sim {

// A block address of the list forms: a UB address (GetPhyAddr, tensor.h ub_address) that must
// leave room for every repeat's 32 bytes inside the UB and be 32-byte aligned.
inline uint8_t* ub_block(uint64_t address, uint64_t span, const char* role, int i, SrcLoc loc) {
    const BlockState& b = block();
    const uint64_t offset = ub_address(reinterpret_cast<const void*>(uintptr_t(address)));
    if (offset % 32 != 0) {
        fail(loc, format("TransDataTo5HD: %s[%d] is UB offset %llu, not 32-byte aligned", role, i,
                         (unsigned long long)offset));
    }
    if (b.ub && offset + span > b.ub_bytes) {
        fail(loc, format("TransDataTo5HD: %s[%d] at UB offset %llu with its repeats needs %llu bytes, past the "
                         "UB's %llu", role, i, (unsigned long long)offset, (unsigned long long)span,
                         (unsigned long long)b.ub_bytes));
    }
    return b.ub + offset;
}

template <class T>
inline void trans_5hd(uint8_t* const dst[16], uint8_t* const src[16], const AscendC::TransDataTo5HDParams& p,
                      SrcLoc loc) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    static_assert(sizeof(T) == 0, "TransDataTo5HD does not exist on Atlas training (910A) SoCs");
#endif
    const char* op = "TransDataTo5HD";
    note(loc);
    count_vec(op, uint64_t(p.repeatTimes) * 512 / sizeof(T), uint64_t(p.repeatTimes) * 512, p.repeatTimes);
    BlockState& b = block();
    // One permutation of 16 source blocks into 16 destination blocks, applied to the data and
    // then to its definedness shadow: a destination byte is undefined exactly when the source
    // byte it came from is (an unloaded row stays in its own lanes, as on the device).
    auto permute = [&p](const uint8_t (&in)[16][32], uint8_t* const d[16]) {
        if (sizeof(T) == 2) {
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(d[j] + 2 * i, in[i] + 2 * j, 2);
        } else if (sizeof(T) == 4) {
            for (int j = 0; j < 8; ++j)
                for (int i = 0; i < 16; ++i) std::memcpy(d[2 * j + i / 8] + 4 * (i % 8), in[i] + 4 * j, 4);
        } else {
            const int from = p.srcHighHalf ? 16 : 0, to = p.dstHighHalf ? 16 : 0;
            for (int j = 0; j < 16; ++j)
                for (int i = 0; i < 16; ++i) d[j][to + i] = in[i][from + j];
        }
    };
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        uint8_t in[16][32], defined[16][32];
        for (int i = 0; i < 16; ++i) {
            const uint8_t* s = src[i] + uint64_t(r) * p.srcRepStride * 32;
            check_read(s, 32, op, "src", loc);
            std::memcpy(in[i], s, 32);
            if (b.shadow) std::memcpy(defined[i], b.shadow + (s - b.ub), 32);   // as check_read left it
        }
        uint8_t* d[16];
        uint8_t* dshadow[16];
        for (int i = 0; i < 16; ++i) {
            d[i] = dst[i] + uint64_t(r) * p.dstRepStride * 32;
            dshadow[i] = b.shadow ? b.shadow + (d[i] - b.ub) : nullptr;
        }
        permute(in, d);
        for (int i = 0; i < 16; ++i) {
            if (sizeof(T) == 1) {
                mark_written(d[i] + (p.dstHighHalf ? 16 : 0), 16);
            } else {
                mark_written(d[i], 32);
            }
        }
        if (b.shadow) permute(defined, dshadow);   // over mark_written's whole-operand estimate
    }
}

inline uint64_t span_5hd(uint16_t stride, uint8_t repeat) {
    return repeat ? uint64_t(repeat - 1) * stride * 32 + 32 : 0;
}

}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstLocalList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcLocalList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint8_t* d[16];
    uint8_t* s[16];
    for (int i = 0; i < 16; ++i) {
        opkg_sim::check_ub(dstLocalList[i], opkg_sim::span_5hd(nchwconvParams.dstRepStride, nchwconvParams.repeatTimes),
                           "TransDataTo5HD", "dstLocalList", loc);
        opkg_sim::check_ub(srcLocalList[i], opkg_sim::span_5hd(nchwconvParams.srcRepStride, nchwconvParams.repeatTimes),
                           "TransDataTo5HD", "srcLocalList", loc);
        d[i] = reinterpret_cast<uint8_t*>(dstLocalList[i].ptr_);
        s[i] = reinterpret_cast<uint8_t*>(srcLocalList[i].ptr_);
    }
    opkg_sim::trans_5hd<T>(d, s, nchwconvParams, loc);
}

// Addresses as LocalTensor::GetPhyAddr gives them (or device UB offsets).
template <class T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint8_t* d[16];
    uint8_t* s[16];
    for (int i = 0; i < 16; ++i) {
        d[i] = opkg_sim::ub_block(dstList[i], opkg_sim::span_5hd(nchwconvParams.dstRepStride, nchwconvParams.repeatTimes),
                                  "dstList", i, loc);
        s[i] = opkg_sim::ub_block(srcList[i], opkg_sim::span_5hd(nchwconvParams.srcRepStride, nchwconvParams.repeatTimes),
                                  "srcList", i, loc);
    }
    opkg_sim::trans_5hd<T>(d, s, nchwconvParams, loc);
}

// The address lists held in UB tensors of 16 uint64_t each.
template <class T>
inline void TransDataTo5HD(const LocalTensor<uint64_t>& dstLocal, const LocalTensor<uint64_t>& srcLocal,
                           const TransDataTo5HDParams& nchwconvParams,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::check_ub(dstLocal, 16 * 8, "TransDataTo5HD", "dstLocal", loc);
    opkg_sim::check_ub(srcLocal, 16 * 8, "TransDataTo5HD", "srcLocal", loc);
    opkg_sim::check_read(dstLocal.ptr_, 16 * 8, "TransDataTo5HD", "dstLocal", loc);
    opkg_sim::check_read(srcLocal.ptr_, 16 * 8, "TransDataTo5HD", "srcLocal", loc);
    uint64_t d[16], s[16];
    std::memcpy(d, dstLocal.ptr_, sizeof d);
    std::memcpy(s, srcLocal.ptr_, sizeof s);
    TransDataTo5HD<T>(d, s, nchwconvParams, loc);
}

}  // namespace AscendC

#endif
