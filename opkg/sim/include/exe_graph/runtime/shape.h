// gert::Shape / StorageShape and the continuous vectors attrs are read through.
#ifndef OPKG_SIM_GERT_SHAPE_H
#define OPKG_SIM_GERT_SHAPE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iostream>   // as CANN's exe_graph/runtime/shape.h
#include <limits>     // likewise (cann-ops FlashAttentionScoreWithLargeHeadDim's tiling uses std::numeric_limits)
#include <type_traits>
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

// CANN's untyped list: GetData() is `const void*` (ops-nn's InferShapes static_cast it to
// the element type: `static_cast<const int64_t*>(ksize->GetData())`, avg_pool_v2's data_format
// to `const char*`). A list attr's stored value is a TypedContinuousVector<T>, which is one of
// these at the same address (GetAttrPointer<gert::ContinuousVector> reads it untyped).
class ContinuousVector {
public:
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return size_; }
    const void* GetData() const { return data_; }
    void* MutableData() { return data_; }

protected:
    void* data_ = nullptr;
    size_t size_ = 0;
};

template <class T>
class TypedContinuousVector : public ContinuousVector {
public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(std::vector<T> v) : values_(std::move(v)) { Sync(); }
    TypedContinuousVector(const TypedContinuousVector& o) : ContinuousVector(), values_(o.values_) { Sync(); }
    TypedContinuousVector& operator=(const TypedContinuousVector& o) {
        values_ = o.values_;
        Sync();
        return *this;
    }
    const T* GetData() const { return static_cast<const T*>(data_); }
    T* MutableData() { return static_cast<T*>(data_); }

private:
    void Sync() {
        size_ = values_.size();
        if constexpr (!std::is_same_v<T, bool>) data_ = values_.data();  // vector<bool> packs bits
    }
    std::vector<T> values_;
};

}  // namespace gert
#endif
