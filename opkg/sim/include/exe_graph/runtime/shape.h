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
    // the shape a view tensor is read with: the origin shape, as metadef's StorageShape says
    const Shape& GetShape() const { return origin_; }
    Shape& MutableShape() { return origin_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }

private:
    Shape origin_;
    Shape storage_;
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
