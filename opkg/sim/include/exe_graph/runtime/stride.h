// gert::Stride: the per-dimension element strides of a view (non-contiguous) tensor, as metadef's
// exe_graph/runtime/stride.h declares it. The sim hands kernels contiguous tensors only, so the
// contexts never give one out (InputIsView is false); opbase's atvoss tiling still builds them.
#ifndef OPKG_SIM_GERT_STRIDE_H
#define OPKG_SIM_GERT_STRIDE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace gert {

struct Stride {
    static constexpr size_t kMaxDimNum = 25;
    static constexpr int64_t kInvalidStrideValue = std::numeric_limits<int64_t>::min();

    Stride() = default;
    // more than kMaxDimNum values give an empty stride, as CANN's does
    Stride(std::initializer_list<int64_t> values) {
        if (values.size() > kMaxDimNum) return;
        for (int64_t v : values) strides_[dim_num_++] = v;
    }

    bool operator==(const Stride& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (strides_[i] != o.strides_[i]) return false;
        return true;
    }
    bool operator!=(const Stride& o) const { return !(*this == o); }

    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(size_t n) { dim_num_ = n; }
    int64_t GetStride(size_t i) const { return i < kMaxDimNum ? strides_[i] : kInvalidStrideValue; }
    const int64_t& operator[](size_t i) const { return strides_[i]; }
    int64_t& operator[](size_t i) { return strides_[i]; }
    // CANN's SetStride raises the dim count to the index (not index + 1); kept as it is
    void SetStride(size_t i, int64_t v) {
        if (i >= kMaxDimNum) return;
        strides_[i] = v;
        if (dim_num_ < i) dim_num_ = i;
    }
    Stride& AppendStride(int64_t v) {
        if (dim_num_ < kMaxDimNum) strides_[dim_num_++] = v;
        return *this;
    }

private:
    size_t dim_num_ = 0;
    int64_t strides_[kMaxDimNum] = {};
};

}  // namespace gert
#endif
