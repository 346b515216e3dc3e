/*
 * Tiling data of FusedAddScaleCustom: how the flat element range is split across cores and tiles.
 *
 * Cores take whole 32-byte blocks; when the blocks do not divide evenly, the first `formerNum`
 * cores take one block more (`formerLength` elements) and the others `tailLength`. The last
 * core's range ends at `totalLength`, so its last block may be partial: the kernel moves that
 * ragged end with DataCopyPad. Each core walks its range in tiles of `tileLength` elements.
 */
#ifndef FUSED_ADD_SCALE_CUSTOM_TILING_H
#define FUSED_ADD_SCALE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FusedAddScaleCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of a (== b == y)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take formerLength elements
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per core, first formerNum cores
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per core, the others (last: clipped)
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, whole 32-byte blocks
TILING_DATA_FIELD_DEF(float, scale);            // the scale attr
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FusedAddScaleCustom, FusedAddScaleCustomTilingData)
} // namespace optiling
#endif // FUSED_ADD_SCALE_CUSTOM_TILING_H
