// The pad library's Broadcast (CANN lib/pad/broadcast.h; CANN 8.1 also reaches the
// implementation's name BroadCast, which cann-ops kernels call): NumPy broadcasting of a dim-1 or
// dim-2 tensor along `axis`, dense row-major operands.
#ifndef OPKG_SIM_HL_PAD_H
#define OPKG_SIM_HL_PAD_H

#include "opkg_sim/adv_api/hlapi.h"

namespace opkg_sim {

template <class T, int32_t dim, int32_t axis>
inline void run_broadcast(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const uint32_t* dstShape, const uint32_t* srcShape, const AscendC::LocalTensor<uint8_t>* tmp,
                          SrcLoc loc) {
    static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2");
    static_assert(axis >= 0 && axis < dim, "Broadcast: axis must be below dim");
    static_assert(sizeof(T) <= 4, "Broadcast: 1-, 2- or 4-byte elements");
    const char* op = "Broadcast";
    note(loc);
    for (int32_t d = 0; d < dim; ++d) {
        const bool ok = d == axis ? (srcShape[d] == 1 || srcShape[d] == dstShape[d]) : srcShape[d] == dstShape[d];
        if (!ok || dstShape[d] == 0) {
            fail(loc, format("%s<dim %d, axis %d>: srcShape[%d] = %u cannot broadcast to dstShape[%d] = %u (only "
                             "axis %d may go from 1 to n; the other dimensions must match)", op, dim, axis, d,
                             srcShape[d], d, dstShape[d], axis));
        }
    }
    const uint64_t rows = dim == 2 ? dstShape[0] : 1, cols = dstShape[dim - 1];
    const uint64_t src_rows = dim == 2 ? srcShape[0] : 1, src_cols = srcShape[dim - 1];
    if (tmp) check_shared_tmp(*tmp, broadcast_tmp_bytes(src_rows, src_cols, cols), op, loc);   // the host's minimum
    check_count(dst, rows * cols, op, "dst", loc);
    check_count(src, src_rows * src_cols, op, "src", loc);
    check_read(src.ptr_, src_rows * src_cols * sizeof(T), op, "src", loc);
    count_vec_of<T>(op, int64_t(rows * cols));
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t c = 0; c < cols; ++c) {
            dst.ptr_[r * cols + c] = src.ptr_[(src_rows == 1 ? 0 : r) * src_cols + (src_cols == 1 ? 0 : c)];
        }
    }
    mark_written(dst.ptr_, rows * cols * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 200
#define OPKG_HL_BRC_TPL (template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>)
#define OPKG_HL_BRC(NAME)                                                                                      \
    OPKG_HL_API(OPKG_HL_BRC_TPL, NAME, (const LocalTensor<T>& src, const uint32_t dstShape[dim],               \
                const uint32_t srcShape[dim], const LocalTensor<uint8_t>& sharedTmpBuffer),                    \
                (opkg_sim::run_broadcast<T, dim, axis>(dst, src, dstShape, srcShape, &sharedTmpBuffer, loc)))   \
    OPKG_HL_API(OPKG_HL_BRC_TPL, NAME, (const LocalTensor<T>& src, const uint32_t dstShape[dim],               \
                const uint32_t srcShape[dim]),                                                                 \
                (opkg_sim::run_broadcast<T, dim, axis>(dst, src, dstShape, srcShape, nullptr, loc)))
OPKG_HL_BRC(Broadcast)
OPKG_HL_BRC(BroadCast)
#undef OPKG_HL_BRC
#undef OPKG_HL_BRC_TPL
#endif

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The Ascend 950's Broadcast of rank 1..9 (the devkit's adv_api/pad/broadcast.h): the tiling
// records the shapes and the element strides (the source's last axis padded to 32 bytes with
// srcInnerPad); dst[i] takes the source element whose index is i's with every broadcast
// dimension (source extent 1) at 0. Row-major, the destination dense.
struct BroadcastTiling {
    uint32_t oriRank;
    uint32_t rank;
    uint32_t dstSize;
    uint32_t srcSize;
    uint32_t loopNum = 0;
    uint32_t oriSrcShape[9];
    uint32_t oriDstShape[9];
    uint32_t dstShape[9];
    uint32_t dstStride[9];
    uint32_t srcStride[10];
};

template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr>
inline void GetBroadcastTilingInfo(uint32_t rank, const uint32_t* dstShape, const uint32_t* srcShape, bool srcInnerPad,
                                   BroadcastTiling& tiling, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(constRank == -1 || (constRank > 0 && constRank <= 9), "constRank only supports -1 and 1..9");
    if (rank == 0 || rank > 9 || (constRank != -1 && uint32_t(constRank) != rank))
        opkg_sim::fail(loc, opkg_sim::format("GetBroadcastTilingInfo: rank %u (it must be in [1, 9]%s)", rank,
                                             constRank != -1 ? " and equal constRank" : ""));
    tiling.oriRank = tiling.rank = rank;
    tiling.dstSize = tiling.srcSize = 1;
    for (uint32_t i = 0; i < rank; ++i) {
        if (srcShape[i] != 1 && srcShape[i] != dstShape[i])
            opkg_sim::fail(loc, opkg_sim::format("GetBroadcastTilingInfo: srcShape[%u] = %u cannot broadcast to "
                                                 "dstShape[%u] = %u", i, srcShape[i], i, dstShape[i]));
        tiling.oriSrcShape[i] = srcShape[i];
        tiling.oriDstShape[i] = tiling.dstShape[i] = dstShape[i];
        tiling.dstSize *= dstShape[i];
        tiling.srcSize *= srcShape[i];
    }
    uint32_t ds = 1, ss = 1;
    for (uint32_t i = rank; i-- > 0;) {
        tiling.dstStride[i] = ds;
        tiling.srcStride[i] = ss;
        ds *= dstShape[i];
        ss *= (i == rank - 1 && srcInnerPad) ? (srcShape[i] * sizeof(T) + 31) / 32 * 32 / sizeof(T) : srcShape[i];
    }
    tiling.loopNum = 0;
}

template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr,
          bool constSrcInnerPad = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
                      const uint32_t* srcShape, BroadcastTiling* tiling,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const char* op = "Broadcast";
    opkg_sim::note(loc);
    if (!tiling) opkg_sim::fail(loc, "Broadcast: the BroadcastTiling is null (GetBroadcastTilingInfo fills it)");
    const uint32_t rank = tiling->oriRank;
    for (uint32_t i = 0; i < rank; ++i) {
        if (dstShape[i] != tiling->oriDstShape[i] || srcShape[i] != tiling->oriSrcShape[i])
            opkg_sim::fail(loc, opkg_sim::format("Broadcast: the shapes differ from the ones GetBroadcastTilingInfo "
                                                 "was given (dimension %u)", i));
    }
    uint64_t src_span = 1;
    for (uint32_t i = 0; i < rank; ++i) src_span += uint64_t(srcShape[i] - 1) * tiling->srcStride[i];
    opkg_sim::check_count(dst, tiling->dstSize, op, "dst", loc);
    opkg_sim::check_count(src, src_span, op, "src", loc);
    opkg_sim::count_vec_of<T>(op, int64_t(tiling->dstSize));
    for (uint64_t n = 0; n < tiling->dstSize; ++n) {
        uint64_t rest = n, soff = 0;
        for (uint32_t i = 0; i < rank; ++i) {
            const uint64_t c = rest / tiling->dstStride[i];
            rest %= tiling->dstStride[i];
            if (srcShape[i] != 1) soff += c * tiling->srcStride[i];
        }
        opkg_sim::check_read(src.ptr_ + soff, sizeof(T), op, "src", loc);
        dst.ptr_[n] = src.ptr_[soff];
    }
    opkg_sim::mark_written(dst.ptr_, uint64_t(tiling->dstSize) * sizeof(T));
}
#endif

}  // namespace AscendC
#endif
