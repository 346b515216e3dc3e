// Vector instructions that move elements rather than compute: Gather (UB gather by byte
// offsets), Brcb (one element broadcast to a 32-byte block) and the basic 16x16 Transpose.
#ifndef OPKG_SIM_LAYOUT_H
#define OPKG_SIM_LAYOUT_H

#include "opkg_sim/basic_api/vector/vector.h"

namespace AscendC {

struct BrcbRepeatParams {
    BrcbRepeatParams() {}
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

}  // namespace AscendC

namespace opkg_sim {

// vgather: element j of repeat r comes from byte srcBaseAddr + srcOffset[r * perRepeat + j] of
// src and goes to byte r * dstRepStride * 32 + j * sizeof(T) of dst.
template <class T>
inline void gather(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::LocalTensor<uint32_t>& srcOffset, uint32_t srcBaseAddr, const Mask& m,
                   uint32_t repeat, uint32_t dstRepStride, const char* op, SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather takes 2- or 4-byte elements on this SoC");
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 1001
    static_assert(sizeof(T) == 0, "Gather does not exist on Atlas training (910A) SoCs");
#endif
    if (repeat == 0) return;
    opkg_sim::count_level0<T>(op, m, repeat);
    const uint64_t per_repeat = 256 / sizeof(T);
    const uint64_t src_bytes = uint64_t(src.size_) * sizeof(T);
    check_ub(dst, uint64_t(repeat - 1) * dstRepStride * 32 + (uint64_t(m.last()) + 1) * sizeof(T), op, "dst", loc);
    check_ub(src, 0, op, "src", loc);
    const uint64_t offsets = uint64_t(repeat - 1) * per_repeat + m.last() + 1;
    check_ub(srcOffset, offsets * 4, op, "srcOffset", loc);
    if (srcBaseAddr >= src_bytes || srcBaseAddr % sizeof(T) != 0) {
        fail(loc, format("%s: srcBaseAddr %u must be a multiple of %zu inside src's %llu bytes", op, srcBaseAddr,
                         sizeof(T), (unsigned long long)src_bytes));
    }
    if (dst.ptr_ == src.ptr_) fail(loc, format("%s: dst and src are the same UB address, which Gather forbids", op));
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t j = 0; j < per_repeat; ++j) {
            if (!m.test(r, j)) continue;
            const uint64_t k = r * per_repeat + j;
            check_use(srcOffset.ptr_ + k, 4, op, "srcOffset", loc, Pipe::V);   // an address
            const uint64_t at = uint64_t(srcBaseAddr) + srcOffset.ptr_[k];
            if (at % sizeof(T) != 0) {
                fail(loc, format("%s: srcOffset[%llu] = %u (+ srcBaseAddr %u) is not a multiple of sizeof(%s): "
                                 "offsets are in bytes and must be multiples of sizeof(T)", op, (unsigned long long)k,
                                 srcOffset.ptr_[k], srcBaseAddr, type_name<T>()));
            }
            if (at + sizeof(T) > src_bytes) {
                // asc-devkit's Gather constrains the offset to the UB ("偏移地址后不能超出UB大小数据的范围"), not
                // to src: an address past src but inside the UB reads what lies there (cann-ops' STFT gathers
                // its real and imaginary buffers through one src, offsets taken from their GetPhyAddr)
                past_tensor(s, at + sizeof(T), src_bytes,
                            format("%s: srcOffset[%llu] = %u (+ srcBaseAddr %u) addresses src bytes [%llu, %llu), "
                                   "but src holds %u %s elements (%llu bytes)", op, (unsigned long long)k,
                                   srcOffset.ptr_[k], srcBaseAddr, (unsigned long long)at,
                                   (unsigned long long)(at + sizeof(T)), src.size_, type_name<T>(),
                                   (unsigned long long)src_bytes), loc);
            }
            check_read(s + at, sizeof(T), op, "src", loc);
            uint8_t* out = d + uint64_t(r) * dstRepStride * 32 + uint64_t(j) * sizeof(T);
            std::memcpy(out, s + at, sizeof(T));
            mark_written(out, sizeof(T));
        }
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::gather(dst, src, srcOffset, srcBaseAddr, opkg_sim::continuous_mask<T>(mask, "Gather", loc), repeatTime,
                     dstRepStride, "Gather", loc);
}

template <class T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::gather(dst, src, srcOffset, srcBaseAddr, opkg_sim::bit_mask<T>(mask, "Gather", loc), repeatTime,
                     dstRepStride, "Gather", loc);
}

// The count form runs whole repeats and then one masked tail repeat, as the library does; its
// repeat count is an 8-bit value, so larger counts would silently wrap on the hardware.
template <class T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count,
                   opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const uint32_t per_repeat = 256 / sizeof(T);
    const uint32_t full = count / per_repeat, tail = count % per_repeat;
    if (full > 255) {
        opkg_sim::fail(loc, opkg_sim::format("Gather: count %u needs %u repeats of %u %s elements, but the count form "
                                             "passes the repeat count as uint8_t (at most 255 = %u elements)",
                                             count, full, per_repeat, opkg_sim::type_name<T>(), 255 * per_repeat));
    }
    opkg_sim::check_vec(dst, count, "Gather", "dst", loc);
    opkg_sim::check_vec(srcOffset, count, "Gather", "srcOffset", loc);
    if (full) {
        opkg_sim::gather(dst, src, srcOffset, srcBaseAddr, opkg_sim::continuous_mask<T>(per_repeat, "Gather", loc),
                         full, 8, "Gather", loc);
    }
    if (tail) {
        const uint32_t done = count - tail;
        opkg_sim::gather(dst[done], src, srcOffset[done], srcBaseAddr, opkg_sim::continuous_mask<T>(tail, "Gather", loc),
                         1, 8, "Gather", loc);
    }
}

// Brcb: element 8 * i + j of src fills the whole 32-byte block j of repeat i of dst.
template <class T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                 const BrcbRepeatParams& repeatParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb takes 2- or 4-byte elements on this SoC");
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 1001 || __NPU_ARCH__ == 3002)
    static_assert(sizeof(T) == 0, "Brcb does not exist on Atlas training (910A) or Atlas 200I/500 A2 (310B) SoCs");
#endif
    if (repeatTime == 0) return;
    // each repeat broadcasts 8 source elements to 8 blocks of 32 bytes
    opkg_sim::count_vec("Brcb", uint64_t(repeatTime) * 8 * (32 / sizeof(T)),
                        uint64_t(repeatTime) * 256, repeatTime);
    // asc-devkit's Brcb reference: a dstBlkStride of 0 is taken as 1
    const uint64_t blk = repeatParams.dstBlkStride ? repeatParams.dstBlkStride : 1;
    const uint64_t rep = repeatParams.dstRepStride;
    const uint32_t per_block = 32 / sizeof(T);
    opkg_sim::check_vec(src, int64_t(repeatTime) * 8, "Brcb", "src", loc);
    opkg_sim::check_ub(dst, ((uint64_t(repeatTime) - 1) * rep + 7 * blk + 1) * 32, "Brcb", "dst", loc);
    if (dst.ptr_ == src.ptr_) opkg_sim::fail(loc, "Brcb: dst and src are the same UB address, which Brcb forbids");
    for (uint32_t i = 0; i < repeatTime; ++i) {
        for (uint32_t j = 0; j < 8; ++j) {
            // one element's definedness goes to its own block only: a repeat count past the
            // elements the kernel wrote (ops-nn's rms_norm broadcasts one per row, repeatTime
            // = rows) leaves only the blocks of those unwritten elements undefined
            opkg_sim::check_read(src.ptr_ + i * 8 + j, sizeof(T), "Brcb", "src", loc);
            const T v = src.ptr_[i * 8 + j];
            T* out = dst.ptr_ + (i * rep + j * blk) * per_block;
            for (uint32_t k = 0; k < per_block; ++k) out[k] = v;
            opkg_sim::mark_written(out, 32);
        }
    }
}

// The basic form: one 16x16 matrix of 2-byte elements, dst = src^T.
template <class T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(sizeof(T) == 2, "the basic Transpose takes 16x16 matrices of half / int16_t / uint16_t");
    opkg_sim::check_ub(dst, 512, "Transpose", "dst", loc);
    opkg_sim::check_ub(src, 512, "Transpose", "src", loc);
    opkg_sim::check_read(src.ptr_, 512, "Transpose", "src", loc);
    opkg_sim::count_vec("Transpose", 256, 512, 2);
    T tmp[256];
    std::memcpy(tmp, src.ptr_, 512);
    for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t j = 0; j < 16; ++j) dst.ptr_[i * 16 + j] = tmp[j * 16 + i];
    }
    opkg_sim::mark_written(dst.ptr_, 512);
}

}  // namespace AscendC
#endif
