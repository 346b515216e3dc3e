// CANN's AOE tuning-tiling registry (metadef register/tuning_tiling_registry.h), as host code that
// declares tunable tiling structs uses it (cann-ops' src/common/op_host/op_tiling/aoe: GemmTunnerTiling
// and the conv ones). A struct lists its fields with BEGIN_TUNING_TILING_DEF / TUNING_TILING_DATA_FIELD_DEF
// / END_TUNING_TILING_DEF and is registered per op type; FromJson / ToJson convert it field by field
// (the AOE knowledge bank's format: one JSON member per field, by name). The sim has no knowledge
// bank: nothing looks a tuned tiling up, but the structs, the factory and the conversions work.
// This directory (opkg_sim/host/fallback) is searched after every other (-idirafter): a
// repository's own copy of the header (ops-nn's common/inc/op_host/register/) wins.
#ifndef OPKG_SIM_REGISTER_TUNING_TILING_REGISTRY_H
#define OPKG_SIM_REGISTER_TUNING_TILING_REGISTRY_H

#include <functional>
#include <map>
#include <memory>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/ascend_string.h"
#include "register/tuning_tiling_reflection_utils.h"

namespace tuningtiling {

struct TilingItem {
    ge::AscendString dtype_;
    ge::AscendString name_;
};

class TuningTilingDef {
public:
    virtual void FromJson(const nlohmann::json& j) = 0;
    virtual void ToJson(nlohmann::json& j) = 0;
    ge::AscendString GetClassName() const { return class_name_; }
    virtual std::vector<TilingItem> GetItemInfo() const = 0;

protected:
    TuningTilingDef() = default;
    virtual ~TuningTilingDef() = default;
    std::vector<TilingItem> field_info_;
    ge::AscendString class_name_;
    // per field: read it from / write it to a JSON object (registered by each field's handler;
    // they take the object, so a copy of the struct converts its own fields)
    std::vector<std::function<void(TuningTilingDef*, const nlohmann::json&)>> opkg_from_json_;
    std::vector<std::function<void(const TuningTilingDef*, nlohmann::json&)>> opkg_to_json_;
};

// One field's conversion: a nested tuning struct (MatmulTunnerTiling inside another) through its
// own FromJson / ToJson, a number as JSON does.
template <class M> void opkg_field_from_json(const nlohmann::json& j, M& v) {
    if constexpr (std::is_base_of<TuningTilingDef, M>::value) {
        v.FromJson(j);
    } else {
        j.get_to(v);
    }
}
template <class M> void opkg_field_to_json(nlohmann::json& j, const M& v) {
    if constexpr (std::is_base_of<TuningTilingDef, M>::value) {
        const_cast<M&>(v).ToJson(j);     // ToJson is not const in CANN's interface
    } else {
        j = v;
    }
}

#define BEGIN_TUNING_TILING_DEF(class_name)                                                                \
    class class_name : public TuningTilingDef {                                                            \
    public:                                                                                                \
        virtual void FromJson(const nlohmann::json& j) {                                                   \
            for (auto& f : opkg_from_json_) f(this, j);                                                    \
        }                                                                                                  \
        virtual void ToJson(nlohmann::json& j) {                                                           \
            for (auto& f : opkg_to_json_) f(this, j);                                                      \
        }                                                                                                  \
        std::vector<TilingItem> GetItemInfo() const { return field_info_; }                               \
        class FieldHandler {                                                                               \
        public:                                                                                            \
            template <class M>                                                                             \
            FieldHandler(class_name* self, const ge::AscendString& dtype, const ge::AscendString& name,   \
                         M class_name::*member) {                                                          \
                self->field_info_.push_back({dtype, name});                                                \
                const std::string key = name.GetString();                                                  \
                self->opkg_from_json_.push_back([member, key](TuningTilingDef* obj, const nlohmann::json& j) { \
                    if (j.contains(key)) tuningtiling::opkg_field_from_json(j.at(key), static_cast<class_name*>(obj)->*member); \
                });                                                                                        \
                self->opkg_to_json_.push_back([member, key](const TuningTilingDef* obj, nlohmann::json& j) { \
                    tuningtiling::opkg_field_to_json(j[key], static_cast<const class_name*>(obj)->*member); \
                });                                                                                        \
            }                                                                                              \
        };                                                                                                 \
        friend class FieldHandler;                                                                         \
                                                                                                           \
    public:                                                                                                \
        class_name() { class_name_ = #class_name; }

#define TUNING_TILING_DATA_FIELD_DEF(data_type, field_name)                                                \
    public:                                                                                                \
        data_type field_name;                                                                              \
        FieldHandler field_name##_handler_ = FieldHandler(this, #data_type, #field_name, &std::remove_pointer_t<decltype(this)>::field_name);

#define END_TUNING_TILING_DEF                                                                              \
    };

using TuningTilingDefConstructor = std::shared_ptr<TuningTilingDef> (*)();

// defined in the sim's host runtime (src/host_runtime.cpp): one registry for every header that
// declares the factory (ops-nn ships its own copy of this header)
class TuningTilingClassFactory {
public:
    static std::map<ge::AscendString, TuningTilingDefConstructor>& RegisterInfo();
    static void RegisterTilingData(const ge::AscendString& optype, TuningTilingDefConstructor const constructor);
    static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance(const ge::AscendString& optype);
};

#define REGISTER_TUNING_TILING_CLASS(optype, class_name)                                                   \
    class optype##Helper {                                                                                 \
    public:                                                                                                \
        optype##Helper() {                                                                                 \
            TuningTilingClassFactory::RegisterTilingData(#optype, optype##Helper::CreateTilingDataInstance); \
        }                                                                                                  \
        static std::shared_ptr<TuningTilingDef> CreateTilingDataInstance() {                               \
            return std::make_shared<class_name>();                                                         \
        }                                                                                                  \
    };                                                                                                     \
    optype##Helper g_tuning_tiling_##optype##Helper;

using TuningTilingDefPtr = std::shared_ptr<TuningTilingDef>;

}  // namespace tuningtiling

#endif
