// ge::Shape as CANN's graph/tensor.h declares it for host code: the high-level APIs' tiling
// helpers (GetSinMaxMinTmpSize and friends) take one. ge::Tensor: bytes with a dtype and a
// format, for host code written against the graph API.
#ifndef OPKG_SIM_GRAPH_TENSOR_H
#define OPKG_SIM_GRAPH_TENSOR_H

#include <cstdint>
#include <cstring>
#include <vector>
#include "graph/types.h"

namespace ge {

class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
    graphStatus SetDim(size_t idx, int64_t value) {
        if (idx >= dims_.size()) return GRAPH_FAILED;
        dims_[idx] = value;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return dims_; }
    // The element count; 0 for a shape without dimensions, as CANN's Shape does.
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};

// A graph tensor's description: its shape, dtype and format (what ge::Operator hands out).
class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(const Shape& shape, DataType dtype) : shape_(shape), dtype_(dtype) {}
    Shape GetShape() const { return shape_; }
    DataType GetDataType() const { return dtype_; }

private:
    Shape shape_;
    DataType dtype_ = kOpkgDefaultDataType;
};

class Tensor {
public:
    Tensor() = default;
    const uint8_t* GetData() const { return data_.data(); }
    uint8_t* GetData() { return data_.data(); }
    size_t GetSize() const { return data_.size(); }
    graphStatus SetData(const std::vector<uint8_t>& data) {
        data_ = data;
        return GRAPH_SUCCESS;
    }
    graphStatus SetData(const uint8_t* data, size_t size) {
        data_.assign(data, data + size);
        return GRAPH_SUCCESS;
    }
    graphStatus SetDataType(const DataType& dtype) {
        dtype_ = dtype;
        return GRAPH_SUCCESS;
    }
    DataType GetDataType() const { return dtype_; }
    graphStatus SetFormat(const Format& format) {
        format_ = format;
        return GRAPH_SUCCESS;
    }
    Format GetFormat() const { return format_; }

private:
    std::vector<uint8_t> data_;
    DataType dtype_ = kOpkgDefaultDataType;
    Format format_ = FORMAT_ND;
};

}  // namespace ge
#endif
