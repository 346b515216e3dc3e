// graph/operator_reg.h: the IR prototype of an operator, written as CANN writes it
//   REG_OP(Name).INPUT(x, TensorType({DT_FLOAT})).ATTR(alpha, Float, 1.0)...OP_END_FACTORY_REG(Name)
// (ops-nn's op_graph/<op>_proto.h, which its tiling headers include). The sim builds no graphs,
// so a prototype becomes the class ge::op::Name that names its inputs, outputs and attributes and
// type-checks what CANN's compile checks: each attribute's type and default value, and the
// closing name (which must be the class's). A dtype list is kept as its text, as CANN hands it
// to the graph framework unparsed (prototypes write `TensorType({BasicType(), DT_BOOL})` or a
// DATATYPE name "T"). Nothing registers the class.
//
// How the chain compiles: every macro first closes the member function the previous one opened
// (the leading `.` of `.INPUT(...)` continues that function's `OpProtoChain()` expression with
// `Next()`), then declares its own members and opens the next function.
#ifndef OPKG_SIM_GRAPH_OPERATOR_REG_H
#define OPKG_SIM_GRAPH_OPERATOR_REG_H

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>
#include "graph/operator.h"
#include "graph/types.h"

namespace ge {

struct OpProtoChain {
    OpProtoChain& Next() { return *this; }
};

// The attribute types of ATTR/REQUIRED_ATTR, as value types a default initializes.
namespace op_attr {
struct DataTypeValue {
    DataTypeValue(DataType t) : type(t) {}
    DataTypeValue(int t) : type(static_cast<DataType>(t)) {}   // a kernel build's DT_* macro
    DataType type;
};
using Int = int64_t;
using Float = float;
using Bool = bool;
using String = std::string;
using AscendString = std::string;
using Type = DataTypeValue;
using ListInt = std::vector<int64_t>;
using ListFloat = std::vector<float>;
using ListBool = std::vector<bool>;
using ListString = std::vector<std::string>;
using ListAscendString = std::vector<std::string>;
using ListType = std::vector<DataTypeValue>;
using ListListInt = std::vector<std::vector<int64_t>>;
using Bytes = std::vector<uint8_t>;
}  // namespace op_attr

}  // namespace ge

#define REG_OP(x)                                                                                  \
    namespace op {                                                                                 \
    class x : public ::ge::Operator {                                                              \
        using OpkgProtoSelf_ = x;                                                                  \
                                                                                                   \
    public:                                                                                        \
        x() : ::ge::Operator(#x) {}                                                                \
        explicit x(const char* name) : ::ge::Operator(name, #x) {}                                 \
        explicit x(const std::string& name) : ::ge::Operator(name.c_str(), #x) {}                  \
        static const char* OpType() { return #x; }                                                 \
                                                                                                   \
    private:                                                                                       \
        void opkg_proto_begin_() { (void)::ge::OpProtoChain()

#define OPKG_PROTO_TENSOR_(kind, x, t)                                                             \
    Next();                                                                                        \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    static const char* name_##kind##_##x() { return #x; }                                          \
    static const char* type_##kind##_##x() { return #t; }                                          \
                                                                                                   \
private:                                                                                           \
    void opkg_proto_##kind##_##x##_() { (void)::ge::OpProtoChain()

#define INPUT(x, t) OPKG_PROTO_TENSOR_(in, x, t)
#define OPTIONAL_INPUT(x, t) OPKG_PROTO_TENSOR_(in, x, t)
#define DYNAMIC_INPUT(x, t) OPKG_PROTO_TENSOR_(dynamic_in, x, t)
#define OUTPUT(x, t) OPKG_PROTO_TENSOR_(out, x, t)
#define DYNAMIC_OUTPUT(x, t) OPKG_PROTO_TENSOR_(dynamic_out, x, t)
// a named dtype set that inputs and outputs share
#define DATATYPE(x, t) OPKG_PROTO_TENSOR_(datatype, x, t)

#define ATTR(x, Type, ...)                                                                         \
    Next();                                                                                        \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    static const char* name_attr_##x() { return #x; }                                              \
    static ::ge::op_attr::Type default_attr_##x() {                                                \
        ::ge::op_attr::Type value = __VA_ARGS__;                                                   \
        return value;                                                                              \
    }                                                                                              \
                                                                                                   \
private:                                                                                           \
    void opkg_proto_attr_##x##_() { (void)::ge::OpProtoChain()

#define REQUIRED_ATTR(x, Type)                                                                     \
    Next();                                                                                        \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    static const char* name_attr_##x() { return #x; }                                              \
    using type_attr_##x = ::ge::op_attr::Type;                                                     \
                                                                                                   \
private:                                                                                           \
    void opkg_proto_attr_##x##_() { (void)::ge::OpProtoChain()

#define OP_END_FACTORY_REG(x)                                                                      \
    Next();                                                                                        \
    }                                                                                              \
    static_assert(std::is_same<x, OpkgProtoSelf_>::value,                                          \
                  "OP_END_FACTORY_REG must name the operator that REG_OP began");                  \
    };                                                                                             \
    }

#endif
