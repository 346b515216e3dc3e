/*
 * Tiling data of RmsNormCustom: rows of x ([rows, H], leading axes flattened) are split across
 * cores; when they do not divide evenly the first `formerNum` cores take `rowsPerCore + 1` rows
 * and the others `rowsPerCore`. Each core normalizes one row per UB tile; a row that is not a
 * whole number of 32-byte blocks moves with DataCopyPad into `rowAligned` elements of UB.
 */
#ifndef RMS_NORM_CUSTOM_TILING_H
#define RMS_NORM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowNum);            // rows in total
TILING_DATA_FIELD_DEF(uint32_t, rowLength);         // H: elements per row
TILING_DATA_FIELD_DEF(uint32_t, rowAligned);        // H rounded up to whole 32-byte blocks of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);         // cores that take one row more
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);       // rows of the other cores
TILING_DATA_FIELD_DEF(uint32_t, reduceWorkLength);  // floats of ReduceSum's work buffer
TILING_DATA_FIELD_DEF(float, epsilon);
TILING_DATA_FIELD_DEF(float, avgFactor);            // 1 / H, so the kernel multiplies
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsNormCustom, RmsNormCustomTilingData)
} // namespace optiling
#endif // RMS_NORM_CUSTOM_TILING_H
