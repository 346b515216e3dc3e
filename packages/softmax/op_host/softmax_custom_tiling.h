/*
 * Tiling data of SoftmaxCustom: rows of x ([rows, H], leading axes flattened) are split across
 * cores; when they do not divide evenly the first `formerNum` cores take `rowsPerCore + 1` rows
 * and the others `rowsPerCore`. Each core normalizes one row per UB tile. A row of H elements
 * need not be a whole number of 32-byte blocks: the kernel moves it with DataCopyPad and keeps
 * `rowAligned` (H rounded up to a block) elements of UB for it.
 */
#ifndef SOFTMAX_CUSTOM_TILING_H
#define SOFTMAX_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rowNum);            // rows in total
TILING_DATA_FIELD_DEF(uint32_t, rowLength);         // H: elements per row
TILING_DATA_FIELD_DEF(uint32_t, rowAligned);        // H rounded up to whole 32-byte blocks of x
TILING_DATA_FIELD_DEF(uint32_t, formerNum);         // cores that take one row more
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);       // rows of the other cores
TILING_DATA_FIELD_DEF(uint32_t, reduceWorkLength);  // floats of the reductions' work buffer
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxCustomTilingData)
} // namespace optiling
#endif // SOFTMAX_CUSTOM_TILING_H
