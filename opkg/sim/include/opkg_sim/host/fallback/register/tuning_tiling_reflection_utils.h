// The field schema of a tuning-tiling struct (metadef register/tuning_tiling_reflection_utils.h):
// DECLARE_SCHEMA(Struct, FIELD(Struct, a), ...) after the struct records its fields as
// (name, pointer to member) pairs. The sim's structs convert to and from JSON through their own
// field list (tuning_tiling_registry.h), so the schema is kept for code that reads it.
#ifndef OPKG_SIM_REGISTER_TUNING_TILING_REFLECTION_UTILS_H
#define OPKG_SIM_REGISTER_TUNING_TILING_REFLECTION_UTILS_H

#include <tuple>

namespace tuningtiling {

template <class T>
struct StructInfo;

#define FIELD(class, FieldName) std::make_tuple(#FieldName, &class ::FieldName)

#define DECLARE_SCHEMA(Struct, ...)                                                                       \
    template <>                                                                                           \
    struct StructInfo<Struct> {                                                                           \
        static inline auto Info() { return std::make_tuple(__VA_ARGS__); }                                \
    }

}  // namespace tuningtiling

#endif
