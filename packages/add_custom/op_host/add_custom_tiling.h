/*
 * Tiling data of AddCustom: how the flat element range is split across cores and tiles.
 *
 * The total length is split in whole 32-byte blocks, because DataCopy moves whole blocks.
 * When the blocks do not divide evenly, the first `formerNum` cores take one block more
 * (`formerLength` elements) and the others take `tailLength`. Each core walks its range in
 * tiles of `tileLength` elements; its last tile may be shorter (still whole blocks).
 */
#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of x (== y == z)
TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take formerLength elements
TILING_DATA_FIELD_DEF(uint32_t, formerLength);  // elements per core, first formerNum cores
TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // elements per core, the remaining cores
TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (one queue buffer)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
} // namespace optiling
#endif // ADD_CUSTOM_TILING_H
