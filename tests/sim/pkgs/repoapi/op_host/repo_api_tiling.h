// RepoApi tiling data, as ops-nn's <op>_tiling.h declare theirs.
#ifndef REPO_API_TILING_H
#define REPO_API_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RepoApiTilingData)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(uint32_t, npuArch);
TILING_DATA_FIELD_DEF(uint32_t, maskLen);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RepoApi, RepoApiTilingData)
}  // namespace optiling
#endif
