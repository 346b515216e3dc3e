// A shared host header in the style of cann-ops' foreach operators: it includes only
// register/tilingdata_base.h and uses ge's DataType, which CANN's tilingdata_base.h brings along.
#ifndef HDR_GAPS_PROTO_UTILS_H
#define HDR_GAPS_PROTO_UTILS_H
#include "register/tilingdata_base.h"

inline ge::DataType HdrGapsScalarDtype(ge::DataType dtype)
{
    return dtype == ge::DT_BF16 || dtype == ge::DT_FLOAT16 ? ge::DT_FLOAT : dtype;
}
#endif
