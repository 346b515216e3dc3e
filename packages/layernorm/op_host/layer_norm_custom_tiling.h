/*
 * Tiling data of LayerNormCustom: rows of x ([rows, H], leading axes flattened) are split across
 * cores. When they do not divide evenly, the first `formerNum` cores take `rowsPerCore + 1` rows
 * and the others `rowsPerCore`. Each core normalizes one row per UB tile.
 */
#ifndef LAYER_NORM_CUSTOM_TILING_H
#define LAYER_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowNum);            // rows in total
TILING_DATA_FIELD_DEF(uint32_t, rowLength);         // H: elements per row
TILING_DATA_FIELD_DEF(uint32_t, formerNum);         // cores that take one row more
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);       // rows of the other cores
TILING_DATA_FIELD_DEF(uint32_t, reduceWorkLength);  // elements of ReduceSum's work buffer
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF(float, avgFactor);            // 1 / H, so the kernel multiplies
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LayerNormCustom, LayerNormCustomTilingData)
} // namespace optiling
#endif // LAYER_NORM_CUSTOM_TILING_H
