// IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE: the newer way to register a tiling function
// and InferShape; recorded beside OpDef so the host entry finds either.
#ifndef OPKG_SIM_REGISTER_OP_IMPL_REGISTRY_H
#define OPKG_SIM_REGISTER_OP_IMPL_REGISTRY_H
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include "exe_graph/runtime/tiling_context.h"
namespace gert {
enum TilingPlacement { TILING_ON_HOST = 0, TILING_ON_AICPU = 1 };

class OpImplRegisterV2 {
public:
    using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
    using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
    using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
    explicit OpImplRegisterV2(const char* type) : type_(type) {}
    OpImplRegisterV2& Tiling(TilingKernelFunc f) { TilingFuncs()[type_] = f; return *this; }
    template <class... A> OpImplRegisterV2& Tiling(TilingKernelFunc f, A...) { TilingFuncs()[type_] = f; return *this; }
    // The function the framework calls once per op, before any tiling, with a new T to fill
    // (what TilingContext::GetCompileInfo<T> then returns).
    using TilingParseFunc = ge::graphStatus (*)(TilingParseContext*);
    struct TilingParseEntry {
        TilingParseFunc func;
        void* (*create)();
        void (*destroy)(void*);
    };
    template <class T> OpImplRegisterV2& TilingParse(TilingParseFunc f) {
        TilingParses()[type_] = TilingParseEntry{f, []() -> void* { return new T(); },
                                                 [](void* p) { delete static_cast<T*>(p); }};
        return *this;
    }
    // IMPL_OP_INFERSHAPE(T).InferShape(f): CANN's other way to register InferShape (beside
    // OpDef::SetInferShape); the sim runs it when the OpDef sets none
    OpImplRegisterV2& InferShape(InferShapeKernelFunc f) { InferShapeFuncs()[type_] = f; return *this; }
    OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f) { InferDataTypeFuncs()[type_] = f; return *this; }
    // every output takes input 0's dtype (CANN's ready-made InferDataType, cann-ops' matmul protos)
    OpImplRegisterV2& InferOutDataTypeSameWithFirstInput() {
        return InferDataType([](InferDataTypeContext* context) {
            for (size_t i = 0; i < context->GetComputeNodeOutputNum(); ++i)
                context->SetOutputDataType(i, context->GetInputDataType(0));
            return ge::GRAPH_SUCCESS;
        });
    }
    // Registrations the sim accepts and does not run: shape ranges (the sim runs static shapes),
    // the simplified key of the binary cache, outputs whose shape the kernel computes (the sim
    // takes output shapes from the case).
    using InferShapeRangeKernelFunc = ge::graphStatus (*)(InferShapeRangeContext*);
    using GenSimplifiedKeyKernelFunc = ge::graphStatus (*)(TilingContext*, ge::char_t*);
    OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc) { return *this; }
    OpImplRegisterV2& GenSimplifiedKey(GenSimplifiedKeyKernelFunc) { return *this; }
    OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }
    static std::map<std::string, InferShapeKernelFunc>& InferShapeFuncs() {
        static std::map<std::string, InferShapeKernelFunc> funcs;
        return funcs;
    }
    static std::map<std::string, InferDataTypeKernelFunc>& InferDataTypeFuncs() {
        static std::map<std::string, InferDataTypeKernelFunc> funcs;
        return funcs;
    }
    // Inputs (IR indices) whose values the host functions read: the sim hands their data to
    // them, as it does for inputs the OpDef marks ValueDepend. As in CANN, InputsDataDependency
    // covers InferShape and tiling, TilingInputsDataDependency tiling alone.
    OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t> inputs) {
        InferShapeDataDependencies()[type_].insert(inputs.begin(), inputs.end());
        return Depends(inputs);
    }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs) { return Depends(inputs); }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t> inputs,
                                                 std::initializer_list<TilingPlacement>) {
        return Depends(inputs);
    }
    template <class... A> OpImplRegisterV2& PrivateAttr(A...) { return *this; }
    static std::map<std::string, TilingKernelFunc>& TilingFuncs() {
        static std::map<std::string, TilingKernelFunc> funcs;
        return funcs;
    }

    static std::map<std::string, TilingParseEntry>& TilingParses() {
        static std::map<std::string, TilingParseEntry> parses;
        return parses;
    }
    static std::map<std::string, std::set<int32_t>>& TilingDataDependencies() {
        static std::map<std::string, std::set<int32_t>> deps;
        return deps;
    }
    static std::map<std::string, std::set<int32_t>>& InferShapeDataDependencies() {
        static std::map<std::string, std::set<int32_t>> deps;
        return deps;
    }

private:
    OpImplRegisterV2& Depends(std::initializer_list<int32_t> inputs) {
        TilingDataDependencies()[type_].insert(inputs.begin(), inputs.end());
        return *this;
    }
    std::string type_;
};
}  // namespace gert
#define OPKG_SIM_IMPL_CAT_(a, b) a##b
#define OPKG_SIM_IMPL_CAT(a, b) OPKG_SIM_IMPL_CAT_(a, b)
#define IMPL_OP(op_type) \
    static ::gert::OpImplRegisterV2 OPKG_SIM_IMPL_CAT(g_opkg_impl_op_, __COUNTER__) = ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#endif
