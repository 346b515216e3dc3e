// gert::Shape / StorageShape and the continuous vectors attrs are read through.
#ifndef OPKG_SIM_GERT_SHAPE_H
#define OPKG_SIM_GERT_SHAPE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iostream>   // as CANN's exe_graph/runtime/shape.h
#include <limits>     // likewise (cann-ops FlashAttentionScoreWithLargeHeadDim's tiling uses std::numeric_limits)
#include <vector>

namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) dims_.resize(i + 1, 0);
        dims_[i] = v;
    }
    Shape& AppendDim(int64_t v) {
        dims_.push_back(v);
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) {
            if (d < 0) return -1;
            n *= d;
        }
        return n;
    }
    bool IsScalar() const { return dims_.empty(); }
    const int64_t& operator[](size_t i) const { return dims_[i]; }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(const Shape& origin, const Shape& storage) : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    const Shape& GetShape() const { return origin_; }   // metadef: the origin shape
    Shape& MutableShape() { return origin_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }

private:
    Shape origin_;
    Shape storage_;
};

// metadef exe_graph/runtime/stride.h: a non-contiguous tensor's step per dimension. The sim's
// tensors are contiguous, so contexts never hand one out (TilingContext::InputIsView is false);
// tiling code still declares and fills them.
struct Stride {
    static constexpr size_t kMaxDimNum = 25;
    Stride() = default;
    Stride(std::initializer_list<int64_t> s) {
        for (int64_t v : s) AppendStride(v);
    }
    bool operator==(const Stride& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i) {
            if (strides_[i] != o.strides_[i]) return false;
        }
        return true;
    }
    bool operator!=(const Stride& o) const { return !(*this == o); }
    int64_t& operator[](size_t i) { return strides_[i]; }
    const int64_t& operator[](size_t i) const { return strides_[i]; }
    size_t GetDimNum() const { return dim_num_; }
    void SetDimNum(size_t n) { dim_num_ = n > kMaxDimNum ? kMaxDimNum : n; }
    int64_t GetStride(size_t i) const { return i < dim_num_ ? strides_[i] : 0; }
    void SetStride(size_t i, int64_t v) {
        if (i < kMaxDimNum) strides_[i] = v;
    }
    Stride& AppendStride(int64_t v) {
        if (dim_num_ < kMaxDimNum) strides_[dim_num_++] = v;
        return *this;
    }

private:
    size_t dim_num_ = 0;
    int64_t strides_[kMaxDimNum] = {};
};

template <class T>
class TypedContinuousVector {
public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(std::vector<T> v) : data_(std::move(v)) {}
    size_t GetSize() const { return data_.size(); }
    size_t GetCapacity() const { return data_.size(); }
    const T* GetData() const { return data_.data(); }
    T* MutableData() { return data_.data(); }

private:
    std::vector<T> data_;
};

using ContinuousVector = TypedContinuousVector<int64_t>;

}  // namespace gert
#endif
