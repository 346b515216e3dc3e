// ge::DataType, ge::Format and graph status codes, with CANN's enumerator values.
// Kernel builds define DT_* as macros (for `#if ORIG_DTYPE_X == DT_FLOAT16`), so the enum is
// declared with those macros suspended.
#ifndef OPKG_SIM_GRAPH_TYPES_H
#define OPKG_SIM_GRAPH_TYPES_H

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

// ... and kernel_type.h's FORMAT_* macros likewise
#include "opkg_sim/runtime/format_macros_push.h"
#pragma push_macro("DT_FLOAT")
#pragma push_macro("DT_FLOAT16")
#pragma push_macro("DT_INT8")
#pragma push_macro("DT_INT32")
#pragma push_macro("DT_UINT8")
#pragma push_macro("DT_INT16")
#pragma push_macro("DT_UINT16")
#pragma push_macro("DT_UINT32")
#pragma push_macro("DT_INT64")
#pragma push_macro("DT_UINT64")
#pragma push_macro("DT_DOUBLE")
#pragma push_macro("DT_BOOL")
#pragma push_macro("DT_BF16")
#pragma push_macro("DT_INT4")
#pragma push_macro("DT_UINT1")
#pragma push_macro("DT_HIFLOAT8")
#pragma push_macro("DT_FLOAT8_E5M2")
#pragma push_macro("DT_FLOAT8_E4M3FN")
#pragma push_macro("DT_FLOAT8_E8M0")
#pragma push_macro("DT_COMPLEX64")
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX64
#undef DT_COMPLEX128
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT8
#undef DT_INT32
#undef DT_UINT8
#undef DT_INT16
#undef DT_UINT16
#undef DT_UINT32
#undef DT_INT64
#undef DT_UINT64
#undef DT_DOUBLE
#undef DT_BOOL
#undef DT_BF16
#undef DT_INT4
#undef DT_UINT1
#undef DT_HIFLOAT8
#undef DT_FLOAT8_E5M2
#undef DT_FLOAT8_E4M3FN
#undef DT_FLOAT8_E8M0

namespace ge {

// Type aliases and shape constants of CANN's graph/types.h (values as there).
using char_t = char;
using float32_t = float;
using float64_t = double;
using vector_bit_t = std::vector<bool>;
static const int64_t SHAPE_RANGE_LOWER_LIMIT = 0;
static const int64_t UNKNOWN_DIM = -1;
static const int64_t UNKNOWN_DIM_NUM = -2;
static const std::vector<int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<int64_t> UNKNOWN_RANK = {-2};
static const std::vector<int64_t> DUMMY_SHAPE = {-3};

enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_COMPLEX32 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37, DT_FLOAT6_E3M2 = 38, DT_FLOAT6_E2M3 = 39, DT_FLOAT4_E2M1 = 40, DT_FLOAT4_E1M2 = 41,
    DT_MAX
};

enum Format {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4,
    FORMAT_NC1C0HWPAD = 5, FORMAT_NHWC1C0 = 6, FORMAT_FSR_NCHW = 7, FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9, FORMAT_FRACTAL_DECONV_TRANSPOSE = 10, FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
    FORMAT_NC1HWC0_C04 = 12, FORMAT_FRACTAL_Z_C04 = 13, FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15, FORMAT_HWCN = 16, FORMAT_NC1KHKWHWC0 = 17,
    FORMAT_BN_WEIGHT = 18, FORMAT_FILTER_HWCK = 19, FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21, FORMAT_HASHTABLE_LOOKUP_VALUE = 22, FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24, FORMAT_C1HWNCoC0 = 25, FORMAT_MD = 26, FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32, FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35, FORMAT_DHWNC = 36,
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37, FORMAT_FRACTAL_ZN_LSTM = 38, FORMAT_FRACTAL_Z_G = 39,
    FORMAT_RESERVED = 40, FORMAT_ALL = 41, FORMAT_NULL = 42, FORMAT_ND_RNN_BIAS = 43, FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45, FORMAT_NYUV_A = 46, FORMAT_NCL = 47, FORMAT_FRACTAL_Z_WINO = 48, FORMAT_C1HWC0 = 49,
    FORMAT_FRACTAL_NZ_C0_16 = 50, FORMAT_FRACTAL_NZ_C0_32 = 51, FORMAT_FRACTAL_NZ_C0_2 = 52,
    FORMAT_FRACTAL_NZ_C0_4 = 53, FORMAT_FRACTAL_NZ_C0_8 = 54,
    // one past the last format, as current CANN (metadef's graph/c_types.h) numbers them
    FORMAT_END = 55,
    FORMAT_MAX = 0xff
};

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
// the rest of CANN's graph/error_codes.h statuses operator code returns (values as there)
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
constexpr graphStatus GRAPH_INVALID_IR_DEF = 50331646;
constexpr graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
constexpr graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;
constexpr graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539;
constexpr graphStatus GRAPH_NULL_PTR = 50331538;
constexpr graphStatus GRAPH_MEMCPY_FAILED = 50331537;
constexpr graphStatus GRAPH_MEMSET_FAILED = 50331536;
constexpr graphStatus GRAPH_MATH_CAL_FAILED = 50331429;
constexpr graphStatus GRAPH_ADD_OVERFLOW = 50331428;
constexpr graphStatus GRAPH_MUL_OVERFLOW = 50331427;

inline const char* DataTypeName(DataType t) {
    switch (t) {
        case DT_FLOAT: return "DT_FLOAT";
        case DT_FLOAT16: return "DT_FLOAT16";
        case DT_INT8: return "DT_INT8";
        case DT_INT32: return "DT_INT32";
        case DT_UINT8: return "DT_UINT8";
        case DT_INT16: return "DT_INT16";
        case DT_UINT16: return "DT_UINT16";
        case DT_UINT32: return "DT_UINT32";
        case DT_INT64: return "DT_INT64";
        case DT_UINT64: return "DT_UINT64";
        case DT_DOUBLE: return "DT_DOUBLE";
        case DT_BOOL: return "DT_BOOL";
        case DT_STRING: return "DT_STRING";
        case DT_COMPLEX64: return "DT_COMPLEX64";
        case DT_COMPLEX128: return "DT_COMPLEX128";
        case DT_COMPLEX32: return "DT_COMPLEX32";
        case DT_BF16: return "DT_BF16";
        case DT_INT4: return "DT_INT4";
        case DT_UINT1: return "DT_UINT1";
        case DT_HIFLOAT8: return "DT_HIFLOAT8";
        case DT_FLOAT8_E5M2: return "DT_FLOAT8_E5M2";
        case DT_FLOAT8_E4M3FN: return "DT_FLOAT8_E4M3FN";
        case DT_FLOAT8_E8M0: return "DT_FLOAT8_E8M0";
        default: return "DT_UNDEFINED";
    }
}

inline const char* FormatName(Format f) {
    switch (f) {
        case FORMAT_NCHW: return "FORMAT_NCHW";
        case FORMAT_NHWC: return "FORMAT_NHWC";
        case FORMAT_ND: return "FORMAT_ND";
        case FORMAT_NC1HWC0: return "FORMAT_NC1HWC0";
        case FORMAT_FRACTAL_Z: return "FORMAT_FRACTAL_Z";
        case FORMAT_HWCN: return "FORMAT_HWCN";
        case FORMAT_NDHWC: return "FORMAT_NDHWC";
        case FORMAT_FRACTAL_NZ: return "FORMAT_FRACTAL_NZ";
        case FORMAT_NCDHW: return "FORMAT_NCDHW";
        case FORMAT_DHWCN: return "FORMAT_DHWCN";
        case FORMAT_NDC1HWC0: return "FORMAT_NDC1HWC0";
        case FORMAT_FRACTAL_Z_3D: return "FORMAT_FRACTAL_Z_3D";
        case FORMAT_NC: return "FORMAT_NC";
        case FORMAT_CN: return "FORMAT_CN";
        default: return "FORMAT_RESERVED";
    }
}

inline int64_t DataTypeSize(DataType t) {
    switch (t) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_COMPLEX32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return 1;
    }
}

inline int GetSizeByDataType(DataType t) { return static_cast<int>(DataTypeSize(t)); }

// A format value packs the primary format (low byte), a sub-format (next two bytes) and a C0
// code (bits 24..27), as CANN's graph/types.h lays them out.
inline int32_t GetPrimaryFormat(int32_t format) { return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xffU); }
// A format's name as CANN's logs spell it, without the enumerator's FORMAT_ prefix ("ND", as
// ops-nn's npu_alloc_float_status passes GetFormatName(storageFormat) beside the literal "ND").
inline const char* GetFormatName(Format f) { return FormatName(Format(GetPrimaryFormat(f))) + 7; }
inline int32_t GetSubFormat(int32_t format) {
    return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffff00U) >> 8);
}
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int32_t GetC0Format(int32_t format) {
    return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xf000000U) >> 24);
}
inline bool HasC0Format(int32_t format) { return GetC0Format(format) > 0; }
inline int64_t GetC0Value(int32_t format) { return HasC0Format(format) ? int64_t(1) << (GetC0Format(format) - 1) : -1; }
inline int32_t GetFormatFromSub(int32_t primary_format, int32_t sub_format) {
    return static_cast<int32_t>((static_cast<uint32_t>(primary_format) & 0xffU) |
                                ((static_cast<uint32_t>(sub_format) & 0xffffU) << 8));
}
inline int32_t GetFormatFromC0(int32_t format, int32_t c0_format) {
    return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffffffU) |
                                ((static_cast<uint32_t>(c0_format) & 0xfU) << 24));
}

// For opkg's own headers, which may be read in kernel builds where DT_* are macros.
constexpr DataType kOpkgDefaultDataType = DT_FLOAT;

// One element of a TensorType list: a DataType, or the number a kernel build's DT_* macro gives,
// so an IR prototype (graph/operator_reg.h) reads the same in host and kernel builds.
struct TensorTypeItem {
    TensorTypeItem(DataType t) : type(t) {}
    TensorTypeItem(int t) : type(static_cast<DataType>(t)) {}
    DataType type;
};

// The data types an IR prototype allows for one input or output; the named sets are CANN's.
struct TensorType {
    explicit TensorType(TensorTypeItem t) : types{t.type} {}
    TensorType(std::initializer_list<TensorTypeItem> list) {
        for (const TensorTypeItem& t : list) types.push_back(t.type);
    }
    static TensorType ALL() {
        return {DT_BOOL, DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64,
                DT_INT8, DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8, DT_RESOURCE, DT_STRING, DT_UINT16,
                DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16, DT_COMPLEX32};
    }
    static TensorType QuantifiedType() { return {DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8}; }
    static TensorType OrdinaryType() {
        return {DT_BOOL, DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64,
                DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16, DT_COMPLEX32};
    }
    static TensorType BasicType() {
        return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8,
                DT_QINT16, DT_QINT32, DT_QINT8, DT_QUINT16, DT_QUINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8,
                DT_BF16, DT_COMPLEX32};
    }
    static TensorType NumberType() {
        return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8,
                DT_QINT32, DT_QINT8, DT_QUINT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8, DT_BF16, DT_COMPLEX32};
    }
    static TensorType RealNumberType() {
        return {DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32,
                DT_UINT64, DT_UINT8, DT_BF16};
    }
    static TensorType ComplexDataType() { return {DT_COMPLEX128, DT_COMPLEX64, DT_COMPLEX32}; }
    static TensorType IntegerDataType() {
        return {DT_INT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8};
    }
    static TensorType SignedDataType() { return {DT_INT16, DT_INT32, DT_INT64, DT_INT8}; }
    static TensorType UnsignedDataType() { return {DT_UINT16, DT_UINT32, DT_UINT64, DT_UINT8}; }
    static TensorType FloatingDataType() { return {DT_DOUBLE, DT_FLOAT, DT_FLOAT16}; }
    static TensorType IndexNumberType() { return {DT_INT32, DT_INT64}; }
    static TensorType UnaryDataType() {
        return {DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16, DT_COMPLEX32};
    }
    static TensorType FLOAT() { return {DT_FLOAT, DT_FLOAT16, DT_BF16}; }

    std::vector<DataType> types;
};

struct ListTensorType {
    explicit ListTensorType(const TensorType& t) : tensor_type(t) {}
    TensorType tensor_type;
};

}  // namespace ge

#include "opkg_sim/runtime/format_macros_pop.h"
#pragma pop_macro("DT_FLOAT")
#pragma pop_macro("DT_FLOAT16")
#pragma pop_macro("DT_INT8")
#pragma pop_macro("DT_INT32")
#pragma pop_macro("DT_UINT8")
#pragma pop_macro("DT_INT16")
#pragma pop_macro("DT_UINT16")
#pragma pop_macro("DT_UINT32")
#pragma pop_macro("DT_INT64")
#pragma pop_macro("DT_UINT64")
#pragma pop_macro("DT_DOUBLE")
#pragma pop_macro("DT_BOOL")
#pragma pop_macro("DT_COMPLEX64")
#pragma pop_macro("DT_COMPLEX128")
#pragma pop_macro("DT_BF16")
#pragma pop_macro("DT_INT4")
#pragma pop_macro("DT_UINT1")
#pragma pop_macro("DT_HIFLOAT8")
#pragma pop_macro("DT_FLOAT8_E5M2")
#pragma pop_macro("DT_FLOAT8_E4M3FN")
#pragma pop_macro("DT_FLOAT8_E8M0")

#endif
