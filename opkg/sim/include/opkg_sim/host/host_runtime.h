// Host entry machinery: builds a gert::TilingContext from an opkg run request, calls the
// package's tiling function and reports what it decided; also renders the OpDefs the package
// registered as JSON. Included only by the generated host entry (templates/host_entry.cpp.j2).
#ifndef OPKG_SIM_HOST_RUNTIME_H
#define OPKG_SIM_HOST_RUNTIME_H

#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <set>
#include <string>
#include "opkg_sim/runtime/abi.h"
#include "opkg_sim/host/host_core.h"
#include "platform/platform_info.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace opkg_sim {

inline void host_copy_text(char* dst, size_t cap, const std::string& s) {
    if (!dst || cap == 0) return;
    size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
}

inline void host_error(OpkgError* err, int kind, const std::string& msg) {
    if (!err) return;
    err->kind = kind;
    err->line = 0;
    err->block = -1;
    err->block_dim = 0;
    host_copy_text(err->file, sizeof err->file, "");
    host_copy_text(err->message, sizeof err->message, msg);
}

inline gert::StorageShape shape_of(const OpkgTensorDesc& d) {
    gert::Shape s;
    for (int32_t i = 0; i < d.ndim && i < OPKG_SIM_MAX_DIMS; ++i) s.AppendDim(d.dims[i]);
    return gert::StorageShape(s, s);
}

// Groups the request's input (or output) tensors into IR inputs (outputs): consecutive tensors
// with the same name are the tensors of one dynamic input (opkg/sim/runtime.py sends them so).
inline gert::IrInputs ir_inputs_of(const OpkgTensorDesc* in, uint32_t n_in) {
    gert::IrInputs ir;
    for (uint32_t i = 0; i < n_in; ++i) {
        bool same = i > 0 && in[i].name && in[i - 1].name && std::strcmp(in[i].name, in[i - 1].name) == 0;
        if (same) ++ir.ir.back().num_;
        else ir.ir.emplace_back(i, 1);
    }
    return ir;
}

// The input tensors a tiling or InferShape context hands out: shape, dtype and format of each,
// and its values only for inputs the OpDef marks ValueDepend or `deps` names for the op (what
// IMPL_OP(...).InputsDataDependency / TilingInputsDataDependency registered for that context);
// CANN gives the others a null address.
inline std::vector<gert::Tensor> input_tensors(const char* op_type, const ops::OpDef* def, const gert::IrInputs& ir,
                                              const OpkgTensorDesc* in, uint32_t n_in,
                                              const std::map<std::string, std::set<int32_t>>& deps) {
    auto dep_it = deps.find(op_type);
    const std::set<int32_t>* data_deps = dep_it == deps.end() ? nullptr : &dep_it->second;
    std::vector<gert::Tensor> out;
    size_t ir_index = 0;
    for (uint32_t i = 0; i < n_in; ++i) {
        while (ir_index + 1 < ir.ir.size() && ir.ir[ir_index + 1].start_ <= i) ++ir_index;
        gert::Tensor t;
        t.shape_ = shape_of(in[i]);
        t.dtype_ = static_cast<ge::DataType>(in[i].dtype);
        t.format_ = static_cast<ge::Format>(in[i].format);
        bool value_depend = def && ir_index < def->inputs_.size() && def->inputs_[ir_index].value_depend_ != ops::IGNORE;
        if (value_depend || (data_deps && data_deps->count(static_cast<int32_t>(ir_index)))) {
            t.data_ = in[i].data;
            t.data_bytes_ = in[i].data_bytes;
        }
        out.push_back(t);
    }
    return out;
}

inline void fill_attrs(gert::RuntimeAttrs& attrs, const OpkgAttrValue* in, uint32_t n) {
    attrs.values_.assign(n, gert::RuntimeAttrs::Value());
    for (uint32_t i = 0; i < n; ++i) {
        gert::RuntimeAttrs::Value& v = attrs.values_[i];
        const OpkgAttrValue& a = in[i];
        v.kind = a.kind;
        switch (a.kind) {
            case 1: v.b = a.i != 0; break;
            case 2: v.i = a.i; break;
            case 3: v.f = static_cast<float>(a.f); break;
            case 4: v.s = a.s ? a.s : ""; break;
            case 5: v.ints = gert::TypedContinuousVector<int64_t>(std::vector<int64_t>(a.ints, a.ints + a.count)); break;
            case 6: {
                std::vector<float> f(a.count);
                for (int32_t k = 0; k < a.count; ++k) f[k] = static_cast<float>(a.floats[k]);
                v.floats = gert::TypedContinuousVector<float>(f);
                break;
            }
            case 7: {
                std::vector<bool> bs(a.count);
                for (int32_t k = 0; k < a.count; ++k) bs[k] = a.ints[k] != 0;
                v.bools = gert::TypedContinuousVector<bool>(bs);
                break;
            }
            default: break;
        }
    }
}

// A graphStatus as people read it: the framework's GRAPH_FAILED by name, anything else as a number.
inline std::string status_text(ge::graphStatus status) {
    return status == ge::GRAPH_FAILED ? std::string("ge::GRAPH_FAILED") : "status " + std::to_string(status);
}

// Returns 0 on success; fills res. `explicit_func` overrides the OpDef-registered function.
inline int run_tiling(const char* op_type, ops::TilingFunc explicit_func,
                      const OpkgTensorDesc* in, uint32_t n_in, const OpkgTensorDesc* out, uint32_t n_out,
                      const OpkgAttrValue* attrs, uint32_t n_attrs, const OpkgPlatform* plat,
                      uint8_t* tiling, uint64_t tiling_cap, OpkgTilingResult* res, OpkgError* err) {
    if (err) std::memset(err, 0, sizeof *err);
    if (res) std::memset(res, 0, sizeof *res);
    try {
        ops::TilingFunc func = explicit_func;
        ops::OpDef* def = ops::OpDefRegistry::Get().Find(op_type);
        if (!func && def && def->aicore_.tiling_) func = def->aicore_.tiling_;
        if (!func) {
            auto& impl = gert::OpImplRegisterV2::TilingFuncs();
            auto it = impl.find(op_type);
            if (it != impl.end()) func = it->second;
        }
        if (!func) {
            std::string known;
            for (const std::string& t : ops::OpDefRegistry::Get().Types()) known += (known.empty() ? "" : ", ") + t;
            host_error(err, FAIL_TILING, std::string("no tiling function for op type ") + op_type +
                       ": the host sources register none with OP_ADD(" + op_type +
                       ") + AICore().SetTiling(...) or IMPL_OP_OPTILING(" + op_type + ").Tiling(...)" +
                       (known.empty() ? "" : " (OpDefs found: " + known + ")") +
                       "; name one in the manifest as tiling.function");
            return 1;
        }
        fe::PlatFormInfos platform;
        platform.info = *plat;
        platform.soc_version = plat->soc_version ? plat->soc_version : "";
        platform.short_soc = plat->short_soc ? plat->short_soc : "";
        // what fe::PlatformInfoManager answers from now on (host code outside the context asks it)
        fe::PlatformInfoManager::Instance().SetCurrent(platform);

        gert::TilingContext ctx;
        ctx.node_.name_ = op_type;
        ctx.node_.type_ = op_type;
        ctx.node_.inputs_ = n_in;
        ctx.node_.outputs_ = n_out;
        ctx.node_.ir_inputs_ = ir_inputs_of(in, n_in);
        ctx.node_.ir_outputs_ = ir_inputs_of(out, n_out);
        ctx.inputs_ = input_tensors(op_type, def, ctx.node_.ir_inputs_, in, n_in,
                                    gert::OpImplRegisterV2::TilingDataDependencies());
        for (uint32_t i = 0; i < n_in; ++i) {
            const gert::Tensor& t = ctx.inputs_[i];
            ctx.present_.push_back(in[i].present != 0);
            gert::CompileTimeTensorDesc d;
            d.dtype_ = t.dtype_;
            d.format_ = t.format_;
            ctx.input_descs_.push_back(d);
        }
        for (uint32_t i = 0; i < n_out; ++i) {
            gert::Tensor t;
            t.shape_ = shape_of(out[i]);
            t.dtype_ = static_cast<ge::DataType>(out[i].dtype);
            t.format_ = static_cast<ge::Format>(out[i].format);
            ctx.outputs_.push_back(t);
            gert::CompileTimeTensorDesc d;
            d.dtype_ = t.dtype_;
            d.format_ = t.format_;
            ctx.output_descs_.push_back(d);
        }
        fill_attrs(ctx.attrs_, attrs, n_attrs);
        ctx.tiling_.data_ = tiling;
        ctx.tiling_.capacity_ = tiling_cap;
        ctx.platform_ = &platform;

        // TilingParse first, as the framework runs it before the op's first tiling.
        std::unique_ptr<void, void (*)(void*)> compile_info(nullptr, [](void*) {});
        auto& parses = gert::OpImplRegisterV2::TilingParses();
        auto parse = parses.find(op_type);
        if (parse != parses.end()) {
            compile_info = std::unique_ptr<void, void (*)(void*)>(parse->second.create(), parse->second.destroy);
            gert::TilingParseContext pctx;
            pctx.platform_ = &platform;
            pctx.compiled_info_ = compile_info.get();
            pctx.name_ = pctx.type_ = op_type;
            ge::graphStatus parsed = parse->second.func(&pctx);
            if (parsed != ge::GRAPH_SUCCESS) {
                host_error(err, FAIL_REFUSED, std::string("the TilingParse function for ") + op_type +
                           " returned failure (" + status_text(parsed) + ")");
                return 1;
            }
            ctx.compile_info_ = compile_info.get();
        }

        ge::graphStatus status = func(&ctx);
        if (status != ge::GRAPH_SUCCESS) {
            host_error(err, FAIL_REFUSED, std::string("the tiling function for ") + op_type + " returned failure (" +
                       status_text(status) + ")");
            return 1;
        }
        res->block_dim = ctx.block_dim_;
        res->tiling_key = ctx.tiling_key_;
        res->tiling_size = ctx.tiling_.size_;
        res->schedule_mode = ctx.schedule_mode_;
        res->workspace_count = static_cast<uint32_t>(ctx.workspace_count_);
        for (size_t i = 0; i < ctx.workspace_count_; ++i) res->workspaces[i] = ctx.workspaces_[i];
        return 0;
    } catch (const HostFailure& f) {
        host_error(err, FAIL_TILING, f.message);
    } catch (const std::exception& e) {
        host_error(err, FAIL_INTERNAL, std::string("the tiling function threw a C++ exception: ") + e.what());
    } catch (...) {
        host_error(err, FAIL_INTERNAL, "the tiling function threw an unknown C++ exception");
    }
    return 1;
}

// The op's InferShape / InferDataType: the OpDef's, else what IMPL_OP_INFERSHAPE registered.
inline gert::OpImplRegisterV2::InferShapeKernelFunc infer_shape_of(const ops::OpDef* def) {
    if (def->infer_shape_) return def->infer_shape_;
    auto& impl = gert::OpImplRegisterV2::InferShapeFuncs();
    auto it = impl.find(def->type_);
    return it == impl.end() ? nullptr : it->second;
}
inline gert::OpImplRegisterV2::InferDataTypeKernelFunc infer_dtype_of(const ops::OpDef* def) {
    if (def->infer_dtype_) return def->infer_dtype_;
    auto& impl = gert::OpImplRegisterV2::InferDataTypeFuncs();
    auto it = impl.find(def->type_);
    return it == impl.end() ? nullptr : it->second;
}

// Runs the op's InferShape (and InferDataType when set). Returns 0 on success, 2 when the op
// registers no InferShape, 1 on failure. Output dtypes stay as given unless InferDataType ran.
inline int run_infer_shape(const char* op_type, const OpkgTensorDesc* in, uint32_t n_in, const OpkgAttrValue* attrs,
                           uint32_t n_attrs, OpkgTensorDesc* out, uint32_t n_out, OpkgError* err) {
    if (err) std::memset(err, 0, sizeof *err);
    try {
        ops::OpDef* def = ops::OpDefRegistry::Get().Find(op_type);
        auto infer_shape = def ? infer_shape_of(def) : nullptr;
        if (!infer_shape) return 2;
        auto infer_dtype = infer_dtype_of(def);
        gert::InferShapeContext ctx;
        ctx.name_ = ctx.type_ = op_type;
        ctx.node_.ir_inputs_ = ir_inputs_of(in, n_in);
        ctx.node_.ir_outputs_ = ir_inputs_of(out, n_out);
        ctx.tensors_ = input_tensors(op_type, def, ctx.node_.ir_inputs_, in, n_in,
                                     gert::OpImplRegisterV2::InferShapeDataDependencies());
        for (uint32_t i = 0; i < n_in; ++i) {
            ctx.inputs_.push_back(shape_of(in[i]).GetStorageShape());
            ctx.present_.push_back(in[i].present != 0);
        }
        ctx.outputs_.assign(n_out, gert::Shape());
        for (uint32_t i = 0; i < n_in + n_out; ++i) {
            const OpkgTensorDesc& t = i < n_in ? in[i] : out[i - n_in];
            gert::CompileTimeTensorDesc d;
            d.dtype_ = static_cast<ge::DataType>(t.dtype);
            d.format_ = static_cast<ge::Format>(t.format);
            (i < n_in ? ctx.input_descs_ : ctx.output_descs_).push_back(d);
        }
        fill_attrs(ctx.attrs_, attrs, n_attrs);
        ge::graphStatus status = infer_shape(&ctx);
        if (status != ge::GRAPH_SUCCESS) {
            host_error(err, FAIL_RULE, std::string("InferShape of ") + op_type + " returned failure (" +
                       status_text(status) + ")");
            return 1;
        }
        for (uint32_t i = 0; i < n_out; ++i) {
            const gert::Shape& shape = ctx.outputs_[i];
            if (shape.GetDimNum() > OPKG_SIM_MAX_DIMS) {
                host_error(err, FAIL_RULE, "InferShape produced more than 8 dims");
                return 1;
            }
            out[i].present = 1;
            out[i].ndim = static_cast<int32_t>(shape.GetDimNum());
            for (size_t d = 0; d < shape.GetDimNum(); ++d) out[i].dims[d] = shape.GetDim(d);
        }
        if (infer_dtype) {
            gert::InferDataTypeContext dctx;
            dctx.name_ = dctx.type_ = op_type;
            dctx.node_.ir_inputs_ = ctx.node_.ir_inputs_;
            dctx.node_.ir_outputs_ = ctx.node_.ir_outputs_;
            for (uint32_t i = 0; i < n_in; ++i) dctx.inputs_.push_back(static_cast<ge::DataType>(in[i].dtype));
            dctx.outputs_.assign(n_out, ge::DT_UNDEFINED);
            fill_attrs(dctx.attrs_, attrs, n_attrs);
            status = infer_dtype(&dctx);
            if (status != ge::GRAPH_SUCCESS) {
                host_error(err, FAIL_RULE, std::string("InferDataType of ") + op_type + " returned failure");
                return 1;
            }
            for (uint32_t i = 0; i < n_out && i < dctx.outputs_.size(); ++i) out[i].dtype = dctx.outputs_[i];
        }
        return 0;
    } catch (const std::exception& e) {
        host_error(err, FAIL_INTERNAL, std::string("InferShape threw a C++ exception: ") + e.what());
    } catch (...) {
        host_error(err, FAIL_INTERNAL, "InferShape threw an unknown C++ exception");
    }
    return 1;
}

inline std::string json_str(const std::string& s) { return ops::OpAttrDef::Quote(s); }

inline std::string params_json(const std::vector<ops::OpParamDef>& ps) {
    std::string out = "[";
    for (size_t i = 0; i < ps.size(); ++i) {
        const ops::OpParamDef& p = ps[i];
        out += i ? "," : "";
        out += "{\"name\":" + json_str(p.name_) + ",\"param_type\":\"" + ops::OptionName(p.param_type_) + "\",\"dtypes\":[";
        for (size_t k = 0; k < p.dtypes_.size(); ++k) out += (k ? ",\"" : "\"") + std::string(ge::DataTypeName(p.dtypes_[k])) + "\"";
        out += "],\"formats\":[";
        for (size_t k = 0; k < p.formats_.size(); ++k) out += (k ? ",\"" : "\"") + std::string(ge::FormatName(p.formats_[k])) + "\"";
        out += "],\"value_depend\":" + std::string(p.value_depend_ != ops::IGNORE ? "true" : "false");
        out += ",\"init_values\":[";
        for (size_t k = 0; k < p.init_values_.size(); ++k) {
            char num[32];
            std::snprintf(num, sizeof num, "%.17g", p.init_values_[k]);
            out += (k ? "," : "") + std::string(num);
        }
        out += "]";
        out += ",\"unknown_shape_formats\":[";
        for (size_t k = 0; k < p.unknown_formats_.size(); ++k) out += (k ? ",\"" : "\"") + std::string(ge::FormatName(p.unknown_formats_[k])) + "\"";
        out += "]}";
    }
    return out + "]";
}

// {"ops": [...], "error": null | "text"}; building an OpDef may throw, which is reported.
inline std::string prototypes_json() {
    std::string ops_json = "[";
    std::string error = "null";
    bool first = true;
    for (const std::string& type : ops::OpDefRegistry::Get().Types()) {
        ops::OpDef* def = nullptr;
        try {
            def = ops::OpDefRegistry::Get().Find(type);
        } catch (const std::exception& e) {
            error = json_str("constructing OpDef " + type + " threw: " + e.what());
            continue;
        }
        if (!def) continue;
        ops_json += first ? "" : ",";
        first = false;
        ops_json += "{\"type\":" + json_str(def->type_) + ",\"inputs\":" + params_json(def->inputs_) +
                    ",\"outputs\":" + params_json(def->outputs_) + ",\"attrs\":[";
        for (size_t i = 0; i < def->attrs_.size(); ++i) {
            const ops::OpAttrDef& a = def->attrs_[i];
            ops_json += (i ? "," : "");
            ops_json += "{\"name\":" + json_str(a.name_) + ",\"type\":\"" + a.type_ + "\",\"required\":" +
                        (a.param_type_ == ops::REQUIRED ? "true" : "false") + ",\"default\":" +
                        (a.default_.empty() ? "null" : a.default_) + "}";
        }
        ops_json += "],\"has_infer_shape\":" + std::string(infer_shape_of(def) ? "true" : "false") +
                    ",\"has_infer_dtype\":" + std::string(infer_dtype_of(def) ? "true" : "false") +
                    ",\"aicore\":{\"has_tiling\":" + std::string(def->aicore_.tiling_ ? "true" : "false") + ",\"configs\":[";
        for (size_t i = 0; i < def->aicore_.configs_.size(); ++i) ops_json += (i ? "," : "") + json_str(def->aicore_.configs_[i]);
        ops_json += "]";
        // AddConfig(soc, config) with the config's own Input/Output lists, when there are any
        if (!def->aicore_.soc_configs_.empty()) {
            ops_json += ",\"soc_configs\":{";
            for (size_t i = 0; i < def->aicore_.soc_configs_.size(); ++i) {
                const auto& c = def->aicore_.soc_configs_[i];
                ops_json += (i ? "," : "") + json_str(c.first) + ":{\"inputs\":" + params_json(c.second.inputs_) +
                            ",\"outputs\":" + params_json(c.second.outputs_) + "}";
            }
            ops_json += "}";
        }
        ops_json += "}}";
    }
    ops_json += "]";
    return "{\"ops\":" + ops_json + ",\"error\":" + error + "}";
}

}  // namespace opkg_sim
#endif
