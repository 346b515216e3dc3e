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

}  // namespace AscendC
#endif
