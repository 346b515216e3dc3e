// ops::OpDef: the operator prototype a package declares in C++ (inputs, outputs, attrs, the
// AI Core tiling function and SoC configs). OP_ADD records it in OpDefRegistry, which the host
// entry uses to find the tiling function and to report the declared prototype as JSON.
#ifndef OPKG_SIM_REGISTER_OP_DEF_H
#define OPKG_SIM_REGISTER_OP_DEF_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>   // CANN's op_def.h includes it; op_host code uses std::cout on that
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>
#include "exe_graph/runtime/tiling_context.h"
#include "graph/operator.h"   // as CANN's op_def.h (through graph/operator_reg.h)
#include "graph/types.h"

// CANN's op_def.h declares the op compiler's check-function registry here: an OpDef's
// CheckSupport function registered by hand (ops-nn's masked_scatter, unique_dim:
// `optiling::OpCheckFuncHelper(FUNC_CHECK_SUPPORTED, name, opDef.AICore().GetCheckSupport())`).
// The sim compiles no graph and asks no operator whether it supports a node, so registering
// records nothing.
namespace optiling {
#define FUNC_CHECK_SUPPORTED "check_supported"
#define FUNC_OP_SELECT_FORMAT "op_select_format"
#define FUNC_GET_OP_SUPPORT_INFO "get_op_support_info"
#define FUNC_GET_SPECIFIC_INFO "get_op_specific_info"
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
using PARAM_GENERALIZE_FUNC = ge::graphStatus (*)(const ge::Operator& op, const ge::AscendString& generalize_config,
                                                  ge::AscendString& generalized_op_params);
class OpCheckFuncHelper {
public:
    OpCheckFuncHelper(const ge::AscendString&, const ge::AscendString&, OP_CHECK_FUNC) {}
    OpCheckFuncHelper(const ge::AscendString&, PARAM_GENERALIZE_FUNC) {}
};
}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

enum class AttrDataType { ATTR_DT_BOOL = 0, ATTR_DT_FLOAT, ATTR_DT_INT, ATTR_DT_STR, ATTR_DT_LIST_BOOL,
                          ATTR_DT_LIST_FLOAT, ATTR_DT_LIST_INT, ATTR_DT_LIST_LIST_INT, ATTR_DT_MAX };

using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);
using InferShapeFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);

inline const char* OptionName(Option o) {
    switch (o) {
        case OPTIONAL: return "optional";
        case REQUIRED: return "required";
        case DYNAMIC: return "dynamic";
        case VIRTUAL: return "virtual";
        default: return "ignore";
    }
}

// An output's initial value (OpParamDef::InitValue), CANN's ScalarType/ScalarVar: the framework
// fills the output with it before the kernel runs (kernels that SetAtomicAdd into it rely on it).
enum class ScalarType : uint32_t {
    UINT64 = 0, INT64 = 1, UINT32 = 2, INT32 = 3, UINT16 = 4, INT16 = 5, UINT8 = 6, INT8 = 7, FLOAT32 = 8,
    FLOAT16 = 9, INVALID_DTYPE = static_cast<uint32_t>(-1)
};
struct ScalarVar {
    ScalarType scalar_type = ScalarType::INVALID_DTYPE;
    double value = 0.0;
    ScalarVar() = default;
    template <class N> ScalarVar(ScalarType type, N num) : scalar_type(type), value(static_cast<double>(num)) {}
};

class OpParamDef {
public:
    explicit OpParamDef(const char* name) : name_(name) {}
    OpParamDef& ParamType(Option o) { param_type_ = o; return *this; }
    OpParamDef& DataType(std::vector<ge::DataType> t) { dtypes_ = std::move(t); return *this; }
    OpParamDef& DataTypeList(std::vector<ge::DataType> t) { dtypes_ = std::move(t); return *this; }
    OpParamDef& Format(std::vector<ge::Format> f) { formats_ = std::move(f); return *this; }
    OpParamDef& FormatList(std::vector<ge::Format> f) { formats_ = std::move(f); return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> f) { unknown_formats_ = std::move(f); return *this; }
    // the dtype/format whose kernel binary each position reuses (CANN's binary lookup); the
    // sim compiles every variant with its own dtypes, so these are kept, not applied
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> t) { bin_dtypes_ = std::move(t); return *this; }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format> f) { bin_formats_ = std::move(f); return *this; }
    OpParamDef& ValueDepend(Option o) { value_depend_ = o; return *this; }
    OpParamDef& ValueDepend(Option o, int) { value_depend_ = o; return *this; }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() { return *this; }
    OpParamDef& ScalarList() { return *this; }
    OpParamDef& To(ge::DataType) { return *this; }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& InitValue(uint64_t v) { init_values_ = {static_cast<double>(v)}; return *this; }
    OpParamDef& InitValue(const ScalarVar& v) { init_values_ = {v.value}; return *this; }
    // One value per dtype of the DataType list.
    OpParamDef& InitValue(const std::vector<ScalarVar>& vs) {
        init_values_.clear();
        for (const ScalarVar& v : vs) init_values_.push_back(v.value);
        return *this;
    }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    OpParamDef& Follow(const char*) { return *this; }
    OpParamDef& Comment(const char*) { return *this; }
    OpParamDef& Version(uint32_t) { return *this; }

    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    std::vector<ge::Format> unknown_formats_;
    std::vector<ge::DataType> bin_dtypes_;
    std::vector<ge::Format> bin_formats_;
    Option value_depend_ = IGNORE;
    std::vector<double> init_values_;   // empty: none
};

class OpAttrDef {
public:
    explicit OpAttrDef(const char* name) : name_(name) {}
    OpAttrDef& AttrType(Option o) { param_type_ = o; return *this; }
    OpAttrDef& Bool() { type_ = "bool"; return *this; }
    OpAttrDef& Bool(bool v) { type_ = "bool"; default_ = v ? "true" : "false"; return *this; }
    OpAttrDef& Float() { type_ = "float"; return *this; }
    OpAttrDef& Float(float v) { type_ = "float"; default_ = Num(v); return *this; }
    OpAttrDef& Int() { type_ = "int"; return *this; }
    OpAttrDef& Int(int64_t v) { type_ = "int"; default_ = std::to_string(v); return *this; }
    OpAttrDef& String() { type_ = "str"; return *this; }
    OpAttrDef& String(const char* v) { type_ = "str"; default_ = Quote(v); return *this; }
    OpAttrDef& ListBool() { type_ = "list_bool"; return *this; }
    OpAttrDef& ListBool(std::vector<bool> v) {
        type_ = "list_bool";
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::string(v[i] ? "true" : "false");
        default_ = s + "]";
        return *this;
    }
    OpAttrDef& ListFloat() { type_ = "list_float"; return *this; }
    OpAttrDef& ListFloat(std::vector<float> v) {
        type_ = "list_float";
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + Num(v[i]);
        default_ = s + "]";
        return *this;
    }
    OpAttrDef& ListInt() { type_ = "list_int"; return *this; }
    OpAttrDef& ListInt(std::vector<int64_t> v) {
        type_ = "list_int";
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
        default_ = s + "]";
        return *this;
    }
    OpAttrDef& ListListInt() { type_ = "list_list_int"; return *this; }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>>) { type_ = "list_list_int"; return *this; }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }

    static std::string Num(double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", v);
        std::string s = buf;
        if (s == "inf" || s == "-inf" || s == "nan" || s == "-nan") return "null";
        return s;
    }
    static std::string Quote(const std::string& v) {
        std::string out = "\"";
        for (char c : v) {
            if (c == '"' || c == '\\') out += '\\';
            if (static_cast<unsigned char>(c) < 0x20) continue;
            out += c;
        }
        return out + "\"";
    }

    std::string name_;
    Option param_type_ = REQUIRED;   // CANN's default: an attr is required unless AttrType(OPTIONAL)
    std::string type_ = "unknown";
    std::string default_;   // JSON text; empty = no default
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }

    std::vector<OpParamDef> inputs_;
    std::vector<OpParamDef> outputs_;
};

class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(TilingFunc f) { tiling_ = f; return *this; }
    template <class F> OpAICoreDef& SetTilingParse(F) { return *this; }
    template <class F> OpAICoreDef& SetCheckSupport(F f) {
        if constexpr (std::is_convertible<F, optiling::OP_CHECK_FUNC>::value) check_support_ = f;
        return *this;
    }
    optiling::OP_CHECK_FUNC GetCheckSupport() const { return check_support_; }
    template <class F> OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    template <class F> OpAICoreDef& SetOpSupportInfo(F) { return *this; }
    template <class F> OpAICoreDef& SetOpSpecInfo(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { configs_.emplace_back(soc); return *this; }
    // A config with its own Input/Output lists gives that SoC its own dtypes and formats.
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& config) {
        configs_.emplace_back(soc);
        if (!config.inputs_.empty() || !config.outputs_.empty()) soc_configs_.emplace_back(soc, config);
        return *this;
    }

    TilingFunc tiling_ = nullptr;
    optiling::OP_CHECK_FUNC check_support_ = nullptr;
    std::vector<std::string> configs_;
    std::vector<std::pair<std::string, OpAICoreConfig>> soc_configs_;
};

class OpMC2Def {
public:
    template <class... A> OpMC2Def& HcclGroup(A...) { return *this; }
};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type) {}
    virtual ~OpDef() = default;
    OpParamDef& Input(const char* name) { inputs_.emplace_back(name); return inputs_.back(); }
    OpParamDef& Output(const char* name) { outputs_.emplace_back(name); return outputs_.back(); }
    // CANN's Attr is GetOrCreateAttr (register/op_def.h): naming an attr again redefines it,
    // as ops-nn's ascend_quant_v2_def.cpp does for its 950 config
    OpAttrDef& Attr(const char* name) {
        for (OpAttrDef& a : attrs_)
            if (a.name_ == name) return a;
        attrs_.emplace_back(name);
        return attrs_.back();
    }
    OpDef& SetInferShape(InferShapeFunc f) { infer_shape_ = f; return *this; }
    template <class F> OpDef& SetInferShapeRange(F) { return *this; }
    OpDef& SetInferDataType(InferDataTypeFunc f) { infer_dtype_ = f; return *this; }
    OpAICoreDef& AICore() { return aicore_; }
    OpMC2Def& MC2() { return mc2_; }
    OpDef& Comment(const char*) { return *this; }
    OpDef& EnableFallBack() { return *this; }

    std::string type_;
    // std::deque-like stability is not needed: the builder references die with each statement.
    std::vector<OpParamDef> inputs_;
    std::vector<OpParamDef> outputs_;
    std::vector<OpAttrDef> attrs_;
    InferShapeFunc infer_shape_ = nullptr;
    InferDataTypeFunc infer_dtype_ = nullptr;
    OpAICoreDef aicore_;
    OpMC2Def mc2_;
};

class OpDefRegistry {
public:
    using Factory = std::function<std::unique_ptr<OpDef>(const char*)>;
    static OpDefRegistry& Get() {
        static OpDefRegistry instance;
        return instance;
    }
    void Add(const char* type, Factory f) {
        if (!factories_.count(type)) order_.push_back(type);
        factories_[type] = std::move(f);
    }
    // Built on first use, so that a throwing OpDef constructor is reported, not fatal at load.
    OpDef* Find(const std::string& type) {
        auto built = defs_.find(type);
        if (built != defs_.end()) return built->second.get();
        auto it = factories_.find(type);
        if (it == factories_.end()) return nullptr;
        OpDef* def = (defs_[type] = it->second(type.c_str())).get();
        return def;
    }
    const std::vector<std::string>& Types() const { return order_; }

private:
    std::map<std::string, Factory> factories_;
    std::map<std::string, std::unique_ptr<OpDef>> defs_;
    std::vector<std::string> order_;
};

struct OpDefRegisterer {
    OpDefRegisterer(const char* type, OpDefRegistry::Factory f) { OpDefRegistry::Get().Add(type, std::move(f)); }
};

}  // namespace ops

#define OP_ADD(opType, ...)                                                                                    \
    static ::ops::OpDefRegisterer g_opkg_op_add_##opType(                                                      \
        #opType, [](const char* name) -> std::unique_ptr<::ops::OpDef> { return std::unique_ptr<::ops::OpDef>(new opType(name)); })

#endif
