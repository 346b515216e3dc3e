// RepoView's IR prototype, written in the style of ops-nn's op_graph/<op>_proto.h (which that
// repository's tiling headers include, so kernels read it too): dtype lists in the forms ops-nn
// writes (a list, a named set, a DATATYPE name), attributes of several types with defaults.
#ifndef REPO_VIEW_PROTO_H
#define REPO_VIEW_PROTO_H
#include "graph/operator_reg.h"

namespace ge {
REG_OP(RepoView)
    .INPUT(x, TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16}))
    .OPTIONAL_INPUT(bias, TensorType::RealNumberType())
    .DYNAMIC_INPUT(more, "T")
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(info, TensorType({DT_INT32}))
    .ATTR(alpha, Float, 1.702)
    .ATTR(axes, ListInt, {-1, 0})
    .ATTR(mode, String, "fast")
    .ATTR(dst_type, Type, DT_FLOAT)
    .REQUIRED_ATTR(scale, Int)
    .DATATYPE(T, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(RepoView)
}  // namespace ge
#endif
