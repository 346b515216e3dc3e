// ReduceXorSum (CANN lib/reduce): dst[0] = the sum over calCount elements of src0 ^ src1 (int16_t),
// computed as CANN does in float (each xor exact, the float sum exact here) and converted back to
// int16_t (round to nearest even, saturating). docs/api.md.
#ifndef OPKG_SIM_HL_REDUCE_XOR_H
#define OPKG_SIM_HL_REDUCE_XOR_H

#include "opkg_sim/adv_api/hlapi.h"
#include "opkg_sim/basic_api/vector/vector_cast_ops.h"

namespace opkg_sim {

template <class T>
inline void reduce_xor_sum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                           const AscendC::LocalTensor<T>& b, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                           SrcLoc loc) {
    static_assert(std::is_same<T, int16_t>::value, "ReduceXorSum takes int16_t");
    const char* op = "ReduceXorSum";
    note(loc);
    if (count == 0) fail(loc, format("%s: calCount is 0", op));
    check_tmp(tmp, tmp_min_bytes(rules::ReduceXorSum, sizeof(T), false), op, loc);   // GetReduceXorSumMaxMinTmpSize's
    check_count(a, count, op, "src0Tensor", loc);
    check_count(b, count, op, "src1Tensor", loc);
    check_count(dst, 1, op, "dstTensor", loc);
    check_read(a.ptr_, uint64_t(count) * 2, op, "src0Tensor", loc);
    check_read(b.ptr_, uint64_t(count) * 2, op, "src1Tensor", loc);
    count_vec_of<T>(op, count);
    double sum = 0;
    for (uint32_t i = 0; i < count; ++i) sum += double(int16_t(a.ptr_[i] ^ b.ptr_[i]));
    dst.ptr_[0] = saturate_to<int16_t>(double(float(sum)));
    mark_written(dst.ptr_, 2);
}

}  // namespace opkg_sim

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                         LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                         opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::reduce_xor_sum(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                         const uint32_t calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::reduce_xor_sum(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}

}  // namespace AscendC
#endif
