// Fused basic vector APIs (AddRelu/SubRelu are binary forms in vector.h): FusedMulAdd/FusedMulAddRelu (dst = src0 * dst + src1, one rounding; count form) and
// CreateVecIndex (dst[i] = firstValue + i; count form).
#ifndef OPKG_SIM_VECTOR_FUSED_H
#define OPKG_SIM_VECTOR_FUSED_H

#include <cmath>
#include "opkg_sim/basic_api/vector/vector.h"

namespace opkg_sim {

// dst = src0 * dst + src1 computed exactly in double and rounded once to T (the vector unit's
// fused multiply-add), then max(., 0) with relu.
template <class T>
inline void fused_mul_add(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                          const AscendC::LocalTensor<T>& src1, int32_t count, bool relu, const char* op, SrcLoc loc) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "FusedMulAdd takes half or float");
    check_vec(dst, count, op, "dst", loc);
    check_vec(src0, count, op, "src0", loc);
    check_vec(src1, count, op, "src1", loc);
    check_read(src0.ptr_, uint64_t(count) * sizeof(T), op, "src0", loc);
    check_read(src1.ptr_, uint64_t(count) * sizeof(T), op, "src1", loc);
    check_read(dst.ptr_, uint64_t(count) * sizeof(T), op, "dst", loc);
    count_vec_of<T>(op, count);
    for (int32_t i = 0; i < count; ++i) {
        double v = std::fma(double(static_cast<float>(src0.ptr_[i])), double(static_cast<float>(dst.ptr_[i])),
                            double(static_cast<float>(src1.ptr_[i])));
        if (relu && !(v > 0)) v = std::isnan(v) ? v : 0.0;
        dst.ptr_[i] = static_cast<T>(static_cast<float>(v));
    }
    mark_written(dst.ptr_, uint64_t(count) * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void FusedMulAdd(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
                        const int32_t& calCount, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::fused_mul_add(dstLocal, src0Local, src1Local, calCount, false, "FusedMulAdd", loc);
}
template <class T>
inline void FusedMulAddRelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                            const LocalTensor<T>& src1Local, const int32_t& calCount,
                            opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::fused_mul_add(dstLocal, src0Local, src1Local, calCount, true, "FusedMulAddRelu", loc);
}

// dst[i] = firstValue + i, computed exactly and rounded once to T.
template <class T>
inline void CreateVecIndex(LocalTensor<T> dstLocal, const T& firstValue, uint32_t calCount,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, int16_t>::value ||
                      std::is_same<T, int32_t>::value,
                  "CreateVecIndex takes half, float, int16_t or int32_t");
    opkg_sim::check_vec(dstLocal, int32_t(calCount), "CreateVecIndex", "dst", loc);
    opkg_sim::count_vec_of<T>("CreateVecIndex", int32_t(calCount));
    const double first = double(static_cast<opkg_sim::calc_t<T>>(firstValue));
    for (uint32_t i = 0; i < calCount; ++i) {
        if constexpr (std::is_integral<T>::value) {
            dstLocal.ptr_[i] = static_cast<T>(static_cast<int64_t>(first) + int64_t(i));
        } else {
            dstLocal.ptr_[i] = static_cast<T>(static_cast<float>(first + double(i)));
        }
    }
    opkg_sim::mark_written(dstLocal.ptr_, uint64_t(calCount) * sizeof(T));
}

}  // namespace AscendC

#endif
