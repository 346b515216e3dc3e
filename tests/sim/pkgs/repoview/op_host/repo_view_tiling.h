// RepoView tiling data; includes the IR prototype as ops-nn's tiling headers do.
#ifndef REPO_VIEW_TILING_H
#define REPO_VIEW_TILING_H
#include "register/tilingdata_base.h"
#include "../op_graph/repo_view_proto.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RepoViewTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(int32_t, scale);
TILING_DATA_FIELD_DEF(int32_t, isView);
TILING_DATA_FIELD_DEF(int32_t, strideDims);
TILING_DATA_FIELD_DEF(int32_t, aiCoreCnt);
TILING_DATA_FIELD_DEF(int32_t, aclVersion);
TILING_DATA_FIELD_DEF(int32_t, sameShape);
TILING_DATA_FIELD_DEF(int32_t, protoAttr);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RepoView, RepoViewTilingData)
}  // namespace optiling
#endif
