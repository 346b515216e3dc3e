// Dynamic (list) inputs: AscendC::ListTensorDesc and TensorDesc read the list layout CANN passes
// for a DYNAMIC input (opkg/sim/runtime.py `tensor_list` writes the same layout): a uint64 byte
// offset of the pointer table, then per tensor a word (dim | index << 32) and its dims, then one
// data pointer per tensor. Every read is bounds-checked against the GM buffer it lives in.
#ifndef OPKG_SIM_LIST_TENSOR_H
#define OPKG_SIM_LIST_TENSOR_H

#include <cstdint>
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/tensor.h"

namespace AscendC {

template <class T> class TensorDesc {
public:
    TensorDesc() = default;
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        if (!shape_) opkg_sim::fail(loc, "TensorDesc::GetShape before SetShapeAddr and GetDesc");
        if (offset >= dim_)
            opkg_sim::fail(loc, opkg_sim::format("TensorDesc::GetShape(%u) of a %llu-dim tensor", offset,
                                                 (unsigned long long)dim_));
        return shape_[offset];
    }
    T* GetDataPtr() { return data_; }
    GlobalTensor<T> GetDataObj() {
        GlobalTensor<T> g;
        g.SetGlobalBuffer(data_);
        return g;
    }

    uint64_t* shape_ = nullptr;
    uint64_t dim_ = 0;
    uint64_t index_ = 0;
    T* data_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                   opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        Init(data, length, shapeSize, loc);
    }
    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        base_ = static_cast<const uint64_t*>(data);
        word(0, loc);
        uint64_t table = base_[0];
        if (table % 8 || table < 8) opkg_sim::fail(loc, "ListTensorDesc: the GM address does not hold a tensor list");
        // Walk the descriptors up to the pointer table to count the tensors and find each one.
        offsets_.clear();
        for (uint64_t w = 1; w < table / 8;) {
            uint64_t head = word(w, loc);
            offsets_.push_back(w);
            w += 1 + (head & 0xffffffffu);
        }
        count_ = uint32_t(offsets_.size());
        if (length != 0xffffffff && uint64_t(length) < table + 8ull * count_)
            opkg_sim::fail(loc, opkg_sim::format("ListTensorDesc: length %u is less than the %llu bytes of the list",
                                                 length, (unsigned long long)(table + 8ull * count_)));
        if (shapeSize != 0xffffffff && shapeSize != count_)
            opkg_sim::fail(loc, opkg_sim::format("ListTensorDesc: shapeSize %u, but the list holds %u tensors",
                                                 shapeSize, count_));
    }
    template <class T> void GetDesc(TensorDesc<T>& desc, uint32_t index,
                                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        check_index(index, "GetDesc", loc);
        if (!desc.shape_) opkg_sim::fail(loc, "ListTensorDesc::GetDesc: call desc.SetShapeAddr(buffer) first");
        uint64_t head = word(offsets_[index], loc);
        desc.dim_ = head & 0xffffffffu;
        desc.index_ = head >> 32;
        for (uint64_t d = 0; d < desc.dim_; ++d) desc.shape_[d] = word(offsets_[index] + 1 + d, loc);
        desc.data_ = GetDataPtr<T>(index, loc);
    }
    template <class T> T* GetDataPtr(uint32_t index, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        check_index(index, "GetDataPtr", loc);
        return reinterpret_cast<T*>(word(base_[0] / 8 + index, loc));
    }
    uint32_t GetSize() { return count_; }

private:
    uint64_t word(uint64_t i, opkg_sim::SrcLoc loc) {
        opkg_sim::check_gm(base_ + i, 8, "ListTensorDesc", loc);
        return base_[i];
    }
    void check_index(uint32_t index, const char* what, opkg_sim::SrcLoc loc) {
        if (index >= count_)
            opkg_sim::fail(loc, opkg_sim::format("ListTensorDesc::%s(%u): the list holds %u tensors (indices 0..%u)",
                                                 what, index, count_, count_ ? count_ - 1 : 0));
    }
    const uint64_t* base_ = nullptr;
    uint32_t count_ = 0;
    std::vector<uint64_t> offsets_;
};

}  // namespace AscendC
#endif
