// CANN's AOE bank-key registry (metadef register/tuning_bank_key_registry.h), version 2 as cann-ops'
// tuning sources use it: an op type's bank-key struct (DECLARE_STRUCT_RELATE_WITH_OP_V2, its fields
// converted with nlohmann's NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE), the function that fills it from a
// tiling context (REGISTER_OP_BANK_KEY_CONVERT_FUN_V2), and the functions that turn it to and from
// its JSON text (REGISTER_OP_BANK_KEY_PARSE_FUN_V2). The sim keeps the registrations (nothing looks
// them up: it has no knowledge bank).
#ifndef OPKG_SIM_REGISTER_TUNING_BANK_KEY_REGISTRY_H
#define OPKG_SIM_REGISTER_TUNING_BANK_KEY_REGISTRY_H

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "exe_graph/runtime/tiling_context.h"
#include "graph/ascend_string.h"
#include "register/register_types.h"

namespace tuningtiling {

using OpBankKeyConvertFunV2 = std::function<bool(const gert::TilingContext*, std::shared_ptr<void>&, size_t&)>;
using OpBankParseFunV2 = std::function<bool(const std::shared_ptr<void>&, size_t, ge::AscendString&)>;
using OpBankLoadFunV2 = std::function<bool(std::shared_ptr<void>&, size_t&, const ge::AscendString&)>;

class OpBankKeyFuncInfoV2 {
public:
    explicit OpBankKeyFuncInfoV2(const ge::AscendString& optype) : optype_(optype) {}
    OpBankKeyFuncInfoV2() = default;
    void SetOpConvertFuncV2(const OpBankKeyConvertFunV2& f) { convert_ = f; }
    void SetOpParseFuncV2(const OpBankParseFunV2& f) { parse_ = f; }
    void SetOpLoadFuncV2(const OpBankLoadFunV2& f) { load_ = f; }
    const OpBankKeyConvertFunV2& GetBankKeyConvertFuncV2() const { return convert_; }
    const OpBankParseFunV2& GetBankKeyParseFuncV2() const { return parse_; }
    const OpBankLoadFunV2& GetBankKeyLoadFuncV2() const { return load_; }
    const ge::AscendString& GetOpTypeV2() const { return optype_; }

private:
    ge::AscendString optype_;
    OpBankKeyConvertFunV2 convert_;
    OpBankParseFunV2 parse_;
    OpBankLoadFunV2 load_;
};

class OpBankKeyFuncRegistryV2 {
public:
    OpBankKeyFuncRegistryV2(const ge::AscendString& optype, const OpBankKeyConvertFunV2& convert) {
        Entry(optype).SetOpConvertFuncV2(convert);
    }
    OpBankKeyFuncRegistryV2(const ge::AscendString& optype, const OpBankParseFunV2& parse,
                            const OpBankLoadFunV2& load) {
        Entry(optype).SetOpParseFuncV2(parse);
        Entry(optype).SetOpLoadFuncV2(load);
    }
    static std::unordered_map<ge::AscendString, OpBankKeyFuncInfoV2>& RegisteredOpFuncInfoV2() {
        static std::unordered_map<ge::AscendString, OpBankKeyFuncInfoV2> registry;
        return registry;
    }

private:
    static OpBankKeyFuncInfoV2& Entry(const ge::AscendString& optype) {
        auto& registry = RegisteredOpFuncInfoV2();
        auto it = registry.find(optype);
        if (it == registry.end()) it = registry.emplace(optype, OpBankKeyFuncInfoV2(optype)).first;
        return it->second;
    }
};

}  // namespace tuningtiling

#define REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(op, opfunc)                                                   \
    static tuningtiling::OpBankKeyFuncRegistryV2 g_##op##BankKeyRegistryInterf(#op, (opfunc))
#define REGISTER_OP_BANK_KEY_PARSE_FUN_V2(op, parse_func, load_func)                                      \
    static tuningtiling::OpBankKeyFuncRegistryV2 g_##op##BankParseInterf(#op, (parse_func), (load_func))

// The bank key struct's JSON conversions, and its text form both ways (false on malformed text).
#define DECLARE_STRUCT_RELATE_WITH_OP_V2(op, bank_key, ...)                                               \
    NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(bank_key, __VA_ARGS__);                                            \
    static bool ParseFuncV2##op##bank_key(const std::shared_ptr<void>& in_args, size_t len,               \
                                          ge::AscendString& text) {                                       \
        if (sizeof(bank_key) != len || in_args == nullptr) return false;                                  \
        const nlohmann::json j = *std::static_pointer_cast<bank_key>(in_args);                            \
        text = ge::AscendString(j.dump().c_str());                                                        \
        return true;                                                                                      \
    }                                                                                                     \
    static bool LoadFuncV2##op##bank_key(std::shared_ptr<void>& in_args, size_t& len,                     \
                                         const ge::AscendString& text) {                                  \
        len = sizeof(bank_key);                                                                           \
        auto key = std::make_shared<bank_key>();                                                          \
        in_args = key;                                                                                    \
        try {                                                                                             \
            *key = nlohmann::json::parse(text.GetString()).get<bank_key>();                               \
        } catch (const std::exception&) {                                                                 \
            return false;                                                                                 \
        }                                                                                                 \
        return true;                                                                                      \
    }                                                                                                     \
    REGISTER_OP_BANK_KEY_PARSE_FUN_V2(op, ParseFuncV2##op##bank_key, LoadFuncV2##op##bank_key);

#endif
