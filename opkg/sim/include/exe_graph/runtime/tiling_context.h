// gert::TilingContext and what it hands out (tensor descs, attrs, raw tiling buffer, workspace
// sizes, platform). The generated host entry fills one from the run request.
#ifndef OPKG_SIM_GERT_TILING_CONTEXT_H
#define OPKG_SIM_GERT_TILING_CONTEXT_H

#include <cstdint>
#include <cstring>
// <map> and <set> as metadef's tiling_context.h has them (through ge_common/api_error_codes.h and
// ge_api_types.h): opbase's atvoss headers use std::set without including it
#include <map>
#include <set>
#include <string>
#include <vector>
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/stride.h"
#include "external/ge_common/api_error_codes.h"   // as metadef's tiling_context.h
#include "graph/types.h"
#include "opkg_sim/runtime/abi.h"
#include "platform/platform_infos_def.h"
#include "securec.h"   // CANN's tiling_context.h has it through tiling_data.h

namespace gert {

// A tensor's origin and storage formats (metadef's exe_graph/runtime/storage_format.h); the sim
// runs tensors in one format, so both are the same.
class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(ge::Format f) { origin_ = f; }
    void SetStorageFormat(ge::Format f) { storage_ = f; }

private:
    ge::Format origin_ = ge::FORMAT_ND, storage_ = ge::FORMAT_ND;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_; }
    // a StorageFormat, as CANN's (8.1 and current)
    StorageFormat GetFormat() const { return StorageFormat(format_, format_); }
    void SetDataType(ge::DataType d) { dtype_ = d; }

    ge::DataType dtype_ = ge::kOpkgDefaultDataType;
    ge::Format format_ = ge::FORMAT_ND;
};

class Tensor {
public:
    ge::DataType GetDataType() const { return dtype_; }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const StorageShape& GetShape() const { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::Format GetStorageFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_; }
    // Values are known at tiling time only for inputs the OpDef marks ValueDepend or the tiling
    // registration names in (Tiling)InputsDataDependency, as in CANN.
    template <class T> const T* GetData() const { return static_cast<const T*>(data_); }
    const void* GetAddr() const { return data_; }
    size_t GetSize() const { return data_bytes_; }

    StorageShape shape_;
    const void* data_ = nullptr;
    size_t data_bytes_ = 0;
    ge::DataType dtype_ = ge::kOpkgDefaultDataType;
    ge::Format format_ = ge::FORMAT_ND;
};

class RuntimeAttrs {
public:
    struct Value {
        int kind = 0;  // OpkgAttrValue kinds
        bool b = false;
        int64_t i = 0;
        float f = 0.0f;
        std::string s;
        TypedContinuousVector<int64_t> ints;
        TypedContinuousVector<float> floats;
        TypedContinuousVector<bool> bools;
    };
    size_t GetAttrNum() const { return values_.size(); }
    // As CANN's: each getter reinterprets the attr's stored value whatever its kind (GetInt of a
    // ListInt attr reads its storage, as cann-ops' Eye does; the operator ignores the value),
    // and only an unset attr gives nullptr.
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return GetAttrPointer<TypedContinuousVector<int64_t>>(i); }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const { return GetAttrPointer<TypedContinuousVector<float>>(i); }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const { return GetAttrPointer<TypedContinuousVector<bool>>(i); }
    template <class T> const T* GetAttrPointer(size_t i) const {
        return static_cast<const T*>(GetPointerByIndex(i));
    }
    // The attr's stored value whatever its kind: CANN's GetAttrPointer<T> reinterprets it, so
    // GetAttrPointer<uint32_t> of an Int attr reads the low half of its int64 (little-endian).
    const void* GetPointerByIndex(size_t i) const {
        if (i >= values_.size()) return nullptr;
        const Value& v = values_[i];
        switch (v.kind) {
            case 1: return &v.b;
            case 2: return &v.i;
            case 3: return &v.f;
            case 4: return v.s.c_str();
            case 5: return &v.ints;
            case 6: return &v.floats;
            case 7: return &v.bools;
            default: return nullptr;
        }
    }

    std::vector<Value> values_;
};

class TilingData {
public:
    void* GetData() { return data_; }
    const void* GetData() const { return data_; }
    size_t GetCapacity() const { return capacity_; }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t size) { size_ = size; }
    template <class T> void Append(const T& v) {
        if (size_ + sizeof(T) <= capacity_) {
            std::memcpy(static_cast<uint8_t*>(data_) + size_, &v, sizeof(T));
            size_ += sizeof(T);
        }
    }

    void* data_ = nullptr;
    size_t capacity_ = 0;
    size_t size_ = 0;
};

// Where an IR input's tensors start among the node's input tensors, and how many it has (more
// than one only for a DYNAMIC input).
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t num) : start_(start), num_(num) {}
    size_t GetInstanceStart() const { return start_; }
    size_t GetInstanceNum() const { return num_; }
    uint32_t start_ = 0, num_ = 0;
};

// Maps IR inputs (OpDef order) to input tensors. Without dynamic inputs both indices coincide.
struct IrInputs {
    std::vector<AnchorInstanceInfo> ir;
    const AnchorInstanceInfo* Info(size_t ir_index) const { return ir_index < ir.size() ? &ir[ir_index] : nullptr; }
    // The tensor index of the relative_index-th tensor of an IR input; SIZE_MAX when there is none.
    size_t Instance(size_t ir_index, size_t relative_index) const {
        const AnchorInstanceInfo* a = Info(ir_index);
        return a && relative_index < a->num_ ? a->start_ + relative_index : SIZE_MAX;
    }
};

class ComputeNodeInfo {
public:
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir_index) const { return ir_inputs_.Info(ir_index); }
    size_t GetIrInputsNum() const { return ir_inputs_.ir.size(); }
    IrInputs ir_inputs_;
    // IR outputs to output tensors, the same way (a dynamic output: one tensor per list entry)
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir_index) const { return ir_outputs_.Info(ir_index); }
    size_t GetIrOutputsNum() const { return ir_outputs_.ir.size(); }
    IrInputs ir_outputs_;
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return type_.c_str(); }
    size_t GetInputsNum() const { return inputs_; }
    size_t GetOutputsNum() const { return outputs_; }

    // The node's tensor descriptions, as metadef's ComputeNodeInfo holds them (ops-nn's
    // threshold InferShape copies the input's dtype to the output here); the context handing
    // the node out points them at its own descriptions.
    const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const { return desc(in_descs_, i); }
    const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const { return desc(out_descs_, i); }
    CompileTimeTensorDesc* MutableInputTdInfo(size_t i) const { return desc(in_descs_, i); }
    CompileTimeTensorDesc* MutableOutputTdInfo(size_t i) const { return desc(out_descs_, i); }
    static CompileTimeTensorDesc* desc(std::vector<CompileTimeTensorDesc>* v, size_t i) {
        return v && i < v->size() ? &(*v)[i] : nullptr;
    }

    std::string name_, type_;
    size_t inputs_ = 0, outputs_ = 0;
    std::vector<CompileTimeTensorDesc>* in_descs_ = nullptr;
    std::vector<CompileTimeTensorDesc>* out_descs_ = nullptr;
};

// The node's input tensors: an optional input the node does not have is none of them, as in GE
// (opbase's elementwise tiling checks GetInputShape(i) for i below it; ops-nn's mish_grad cases
// leave out the optional tanhx).
inline size_t present_inputs(size_t slots, const std::vector<bool>& present) {
    size_t n = 0;
    for (size_t i = 0; i < slots; ++i) n += (i >= present.size() || present[i]) ? 1 : 0;
    return n;
}

// A context's node, its tensor descriptions pointed at the context's own (set when handed out:
// the host entry fills and copies contexts freely before).
inline const ComputeNodeInfo* node_with_descs(const ComputeNodeInfo& node, const std::vector<CompileTimeTensorDesc>& in,
                                              const std::vector<CompileTimeTensorDesc>& out) {
    ComputeNodeInfo& n = const_cast<ComputeNodeInfo&>(node);
    n.in_descs_ = const_cast<std::vector<CompileTimeTensorDesc>*>(&in);
    n.out_descs_ = const_cast<std::vector<CompileTimeTensorDesc>*>(&out);
    return &n;
}

class TilingContext {
public:
    // Plain Get*(i) index input tensors; Optional/Dynamic variants index IR inputs (OpDef order).
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() && present_[i] ? &inputs_[i].shape_ : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t ir) const { return GetInputShape(node_.ir_inputs_.Instance(ir, 0)); }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t j) const { return GetInputShape(node_.ir_inputs_.Instance(ir, j)); }
    const Tensor* GetInputTensor(size_t i) const { return i < inputs_.size() && present_[i] ? &inputs_[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, 0)); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t j) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, j)); }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetInputShape(node_.ir_inputs_.Instance(ir, 0)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, 0)); }
    // null for an optional input the node does not have (cann-ops' CrossEntropyLoss tiling
    // takes a null weight desc for "no weight")
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
        return i < input_descs_.size() && (i >= present_.size() || present_[i]) ? &input_descs_[i] : nullptr;
    }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetInputDesc(node_.ir_inputs_.Instance(ir, 0)); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t j) const { return GetInputDesc(node_.ir_inputs_.Instance(ir, j)); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetInputDesc(node_.ir_inputs_.Instance(ir, 0)); }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return node_.ir_inputs_.Info(ir); }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const { return node_.ir_outputs_.Info(ir); }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape_ : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < output_descs_.size() ? &output_descs_[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    // View (non-contiguous) tensors: the sim passes every tensor contiguous, as aclnn does for a
    // kernel without view support, so no input or output is a view: false, null and -1 as
    // metadef's TilingContext answers for a tensor without view information.
    bool InputIsView(size_t) const { return false; }
    const Stride* GetInputStride(size_t) const { return nullptr; }
    int64_t GetInputOffset(size_t) const { return -1; }
    bool OutputIsView(size_t) const { return false; }
    const Stride* GetOutputStride(size_t) const { return nullptr; }
    int64_t GetOutputOffset(size_t) const { return -1; }
    bool OptionalInputIsView(size_t) const { return false; }
    const Stride* GetOptionalInputStride(size_t) const { return nullptr; }
    int64_t GetOptionalInputOffset(size_t) const { return -1; }
    bool DynamicInputIsView(size_t, size_t) const { return false; }
    const Stride* GetDynamicInputStride(size_t, size_t) const { return nullptr; }
    int64_t GetDynamicInputOffset(size_t, size_t) const { return -1; }
    bool RequiredInputIsView(size_t) const { return false; }
    const Stride* GetRequiredInputStride(size_t) const { return nullptr; }
    int64_t GetRequiredInputOffset(size_t) const { return -1; }
    size_t GetComputeNodeInputNum() const { return present_inputs(inputs_.size(), present_); }
    size_t GetComputeNodeOutputNum() const { return outputs_.size(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return node_with_descs(node_, input_descs_, output_descs_); }
    const char* GetNodeName() const { return node_.name_.c_str(); }
    const char* GetNodeType() const { return node_.type_.c_str(); }
    const char* GetOpType() const { return node_.type_.c_str(); }

    ge::graphStatus SetBlockDim(uint32_t block_dim) {
        block_dim_ = block_dim;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return block_dim_; }
    ge::graphStatus SetTilingKey(uint64_t key) {
        tiling_key_ = key;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tiling_key_; }
    ge::graphStatus SetScheduleMode(uint32_t mode) {
        schedule_mode_ = mode;
        return ge::GRAPH_SUCCESS;
    }
    // The dynamic unified buffer size (SetLocalMemorySize is metadef's older name for it): UB
    // for the kernel's dynamic use on Ascend 950; the sim records it and does not enforce it
    ge::graphStatus SetDynUBufSize(uint32_t bytes) {
        dyn_ubuf_size_ = bytes;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetLocalMemorySize(uint32_t bytes) { return SetDynUBufSize(bytes); }
    uint32_t GetLocalMemorySize() const { return dyn_ubuf_size_; }
    ge::graphStatus SetNeedAtomic(bool) { return ge::GRAPH_SUCCESS; }
    bool NeedAtomic() const { return false; }
    // metadef tiling_context.h: 0 = deterministic computation not configured (the sim runs
    // no framework option for it; level 1-3 select deterministic, strong and batch consistency)
    int32_t GetDeterministic() const { return 0; }
    int32_t GetDeterministicLevel() const { return 0; }
    TilingData* GetRawTilingData() { return &tiling_; }
    template <class T> T* GetTilingData() {
        if (tiling_.size_ < sizeof(T)) tiling_.size_ = sizeof(T);
        return static_cast<T*>(tiling_.data_);
    }
    size_t* GetWorkspaceSizes(size_t n) {
        if (n > OPKG_SIM_MAX_WORKSPACES) n = OPKG_SIM_MAX_WORKSPACES;
        if (n > workspace_count_) workspace_count_ = n;
        return workspaces_;
    }
    size_t GetWorkspaceNum() const { return workspace_count_; }
    fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
    // What the op's TilingParse function filled (IMPL_OP_OPTILING(...).TilingParse<T>(f)); null
    // when it registers none.
    template <class T> const T* GetCompileInfo() const { return static_cast<const T*>(compile_info_); }
    const void* GetCompileInfo() const { return compile_info_; }

    // Filled by the host entry.
    std::vector<Tensor> inputs_;
    std::vector<bool> present_;
    std::vector<CompileTimeTensorDesc> input_descs_;
    std::vector<Tensor> outputs_;
    std::vector<CompileTimeTensorDesc> output_descs_;
    RuntimeAttrs attrs_;
    ComputeNodeInfo node_;
    TilingData tiling_;
    uint32_t block_dim_ = 0;
    uint64_t tiling_key_ = 0;
    uint32_t schedule_mode_ = 0;
    uint32_t dyn_ubuf_size_ = 0;
    size_t workspaces_[OPKG_SIM_MAX_WORKSPACES] = {0};
    size_t workspace_count_ = 0;
    fe::PlatFormInfos* platform_ = nullptr;
    const void* compile_info_ = nullptr;
};

class InferShapeContext {
public:
    // null for an optional input the node does not have, as in the tiling context (cann-ops'
    // CrossEntropyLoss InferShape checks GetInputShape(2) against null for its weight)
    const Shape* GetInputShape(size_t i) const {
        return i < inputs_.size() && (i >= present_.size() || present_[i]) ? &inputs_[i] : nullptr;
    }
    const Shape* GetOptionalInputShape(size_t ir) const { return GetInputShape(node_.ir_inputs_.Instance(ir, 0)); }
    const Shape* GetDynamicInputShape(size_t ir, size_t j) const { return GetInputShape(node_.ir_inputs_.Instance(ir, j)); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return node_with_descs(node_, input_descs_, output_descs_); }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return node_.ir_inputs_.Info(ir); }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const { return node_.ir_outputs_.Info(ir); }
    // Every input's tensor, as GE builds it: shape, dtype and format; its values only for
    // inputs the OpDef marks ValueDepend (else a null address), as CANN documents.
    const Tensor* GetInputTensor(size_t i) const { return i < tensors_.size() && present_[i] ? &tensors_[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, 0)); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t j) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, j)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetInputTensor(node_.ir_inputs_.Instance(ir, 0)); }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetInputShape(node_.ir_inputs_.Instance(ir, 0)); }
    // dtype and format of each input and output, as the graph knows them before tiling
    // null for an optional input the node does not have (cann-ops' CrossEntropyLoss tiling
    // takes a null weight desc for "no weight")
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
        return i < input_descs_.size() && (i >= present_.size() || present_[i]) ? &input_descs_[i] : nullptr;
    }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetInputDesc(node_.ir_inputs_.Instance(ir, 0)); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t j) const { return GetInputDesc(node_.ir_inputs_.Instance(ir, j)); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < output_descs_.size() ? &output_descs_[i] : nullptr; }
    Shape* GetOutputShape(size_t i) { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return type_.c_str(); }
    size_t GetComputeNodeInputNum() const { return present_inputs(inputs_.size(), present_); }
    size_t GetComputeNodeOutputNum() const { return outputs_.size(); }

    std::vector<Shape> inputs_;
    std::vector<Tensor> tensors_;
    std::vector<bool> present_;
    std::vector<Shape> outputs_;
    std::vector<CompileTimeTensorDesc> input_descs_;
    std::vector<CompileTimeTensorDesc> output_descs_;
    RuntimeAttrs attrs_;
    std::string name_, type_;
    ComputeNodeInfo node_;
};

class InferDataTypeContext {
public:
    ge::DataType GetInputDataType(size_t i) const { return i < inputs_.size() ? inputs_[i] : ge::DT_UNDEFINED; }
    ge::DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(node_.ir_inputs_.Instance(ir, 0)); }
    ge::DataType GetRequiredInputDataType(size_t ir) const { return GetInputDataType(node_.ir_inputs_.Instance(ir, 0)); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t j) const { return GetInputDataType(node_.ir_inputs_.Instance(ir, j)); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &node_; }
    const AnchorInstanceInfo* GetIrInputInstanceInfo(size_t ir) const { return node_.ir_inputs_.Info(ir); }
    const AnchorInstanceInfo* GetIrOutputInstanceInfo(size_t ir) const { return node_.ir_outputs_.Info(ir); }
    size_t GetComputeNodeInputNum() const { return inputs_.size(); }
    size_t GetComputeNodeOutputNum() const { return outputs_.size(); }
    ge::DataType GetOutputDataType(size_t i) const { return i < outputs_.size() ? outputs_[i] : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (i >= outputs_.size()) outputs_.resize(i + 1, ge::DT_UNDEFINED);
        outputs_[i] = t;
        return ge::GRAPH_SUCCESS;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return type_.c_str(); }

    std::vector<ge::DataType> inputs_;
    std::vector<ge::DataType> outputs_;
    RuntimeAttrs attrs_;
    std::string name_, type_;
    ComputeNodeInfo node_;
};

// A shape range's bounds (metadef's exe_graph/runtime/range.h): pointers to a min and a max.
template <class T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    explicit Range(T* same) : min_(same), max_(same) {}
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }
    void SetMin(T* min) { min_ = min; }
    void SetMax(T* max) { max_ = max; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

// What an InferShapeRange function sees. The sim runs static shapes and never calls one
// (OpImplRegisterV2::InferShapeRange accepts it), so the context only has to be what it reads.
class InferShapeRangeContext {
public:
    const Range<Shape>* GetInputShapeRange(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    const Range<Shape>* GetOptionalInputShapeRange(size_t ir) const {
        return GetInputShapeRange(node_.ir_inputs_.Instance(ir, 0));
    }
    const Range<Shape>* GetDynamicInputShapeRange(size_t ir, size_t j) const {
        return GetInputShapeRange(node_.ir_inputs_.Instance(ir, j));
    }
    Range<Shape>* GetOutputShapeRange(size_t i) { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &node_; }
    const char* GetNodeName() const { return node_.name_.c_str(); }
    const char* GetNodeType() const { return node_.type_.c_str(); }

    std::vector<Range<Shape>> inputs_, outputs_;
    RuntimeAttrs attrs_;
    ComputeNodeInfo node_;
};
// What a TilingParse function sees: the platform and the op's compile-info object (created
// by the registration's TilingParse<T>) that it fills for every later tiling call.
class TilingParseContext {
public:
    fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
    template <class T> T* GetCompiledInfo() { return static_cast<T*>(compiled_info_); }
    // The compile JSON a TBE build hands over; Ascend C operators get none.
    const char* GetCompiledJson() const { return "{}"; }
    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return type_.c_str(); }

    fe::PlatFormInfos* platform_ = nullptr;
    void* compiled_info_ = nullptr;
    std::string name_, type_;
};

}  // namespace gert
#endif
