// BEGIN_TILING_DATA_DEF & co. Two modes from one header:
//  * host (default): classes with set_<f>/get_<f>, SaveToBuffer, GetDataSize, serialising each
//    field at its natural alignment in declaration order (a C struct's layout);
//  * kernel (OPKG_SIM_KERNEL): plain structs with the same fields, so GET_TILING_DATA can copy
//    the host's buffer straight into them.
#ifndef OPKG_SIM_REGISTER_TILINGDATA_BASE_H
#define OPKG_SIM_REGISTER_TILINGDATA_BASE_H

#ifdef OPKG_SIM_KERNEL
#include "opkg_sim/tiling_slot.h"

#define BEGIN_TILING_DATA_DEF(class_name) struct class_name {
#define TILING_DATA_FIELD_DEF(data_type, field_name) data_type field_name;
#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name) arr_type field_name[arr_size];
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) struct_type field_name;
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                             \
    struct OpkgOpTag_##op_type;                                                     \
    template <> struct OpkgTilingSlot<OpkgOpTag_##op_type> { using type = class_name; };

#else
// CANN's header reaches graph/types.h (through graph/ascend_string.h): host code that includes
// only this header uses ge::DataType (cann-ops' foreach_proto_utils.h)
#include "graph/types.h"
#include "opkg_sim/host_tiling.h"
#endif

#endif
