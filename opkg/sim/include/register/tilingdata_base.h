// BEGIN_TILING_DATA_DEF & co. Two modes from one header:
//  * host (default): classes with set_<f>/get_<f>, SaveToBuffer, GetDataSize, serialising each
//    field at its natural alignment in declaration order (a C struct's layout);
//  * kernel (OPKG_SIM_KERNEL): plain structs with the same fields, so GET_TILING_DATA can copy
//    the host's buffer straight into them.
#ifndef OPKG_SIM_REGISTER_TILINGDATA_BASE_H
#define OPKG_SIM_REGISTER_TILINGDATA_BASE_H

#ifdef OPKG_SIM_KERNEL
#include <cstddef>
#include "opkg_sim/basic_api/core/tiling_slot.h"

// A tiling header may also hold the host code that fills the struct (set_<f>, SaveToBuffer); the
// kernel never runs it, but it must compile, so the struct carries the same accessors. Member
// functions leave the layout alone.
// alignas(8): CANN pads each class to 8 bytes and places struct fields 8-byte aligned (host_tiling.h)
#define BEGIN_TILING_DATA_DEF(class_name)                                                                   \
    struct alignas(8) class_name {                                                                         \
        void SaveToBuffer(void* pdata, size_t capacity) const {                                            \
            __builtin_memcpy(pdata, this, sizeof(*this) < capacity ? sizeof(*this) : capacity);            \
        }                                                                                                  \
        size_t GetDataSize() const { return sizeof(*this); }
#define TILING_DATA_FIELD_DEF(data_type, field_name)           \
    data_type field_name;                                      \
    void set_##field_name(data_type v) { field_name = v; }     \
    data_type get_##field_name() const { return field_name; }
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                          \
    arr_type field_name[arr_size];                                                                         \
    void set_##field_name(const arr_type* v) { __builtin_memcpy(field_name, v, sizeof(field_name)); }      \
    arr_type* get_##field_name() { return field_name; }
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) struct_type field_name;
// CANN closes the class with its own semicolon: `END_TILING_DATA_DEF` alone must compile too
#define END_TILING_DATA_DEF };
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                             \
    struct OpkgOpTag_##op_type;                                                     \
    template <> struct OpkgTilingSlot<OpkgOpTag_##op_type> { using type = class_name; };

#else
// CANN's header brings ge's types along (through graph/ascend_string.h); host headers of real
// operators (cann-ops' foreach_proto_utils.h) use ge::DataType with nothing else included
#include "graph/types.h"
#include "opkg_sim/host/host_tiling.h"
#endif

#endif
