// CANN's lib/pad/pad_tilingdata.h: PadTiling and UnPadTiling (field names, types and order as CANN
// declares them), host class or kernel struct by build mode.
#ifndef OPKG_SIM_LIB_PAD_TILINGDATA_H
#define OPKG_SIM_LIB_PAD_TILINGDATA_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(UnPadTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
    TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
    TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
    TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
    TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(PadTiling)
    TILING_DATA_FIELD_DEF(uint32_t, srcHeight);
    TILING_DATA_FIELD_DEF(uint32_t, srcWidth);
    TILING_DATA_FIELD_DEF(uint32_t, srcOriWidth);
    TILING_DATA_FIELD_DEF(uint32_t, widthWithoutLastBlock);
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerRow);
    TILING_DATA_FIELD_DEF(uint32_t, heightTiling);
    TILING_DATA_FIELD_DEF(uint32_t, heightFractal);
    TILING_DATA_FIELD_DEF(uint32_t, heightFractalTail);
    TILING_DATA_FIELD_DEF(uint32_t, mainLoopOffset);
    TILING_DATA_FIELD_DEF(uint32_t, tailBlockOffset);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1BlockNum);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer1RowNum);
    TILING_DATA_FIELD_DEF(uint32_t, tmpBuffer2Offset);
    TILING_DATA_FIELD_DEF(uint32_t, widthTiling);
    TILING_DATA_FIELD_DEF(uint32_t, widthFractal);
    TILING_DATA_FIELD_DEF(uint32_t, widthFractalTail);
    TILING_DATA_FIELD_DEF(uint32_t, widthFractalTailAlingned);
    TILING_DATA_FIELD_DEF(uint32_t, brcbTiling);
    TILING_DATA_FIELD_DEF(uint32_t, brcbFractal);
    TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTail);
    TILING_DATA_FIELD_DEF(uint32_t, maxRepeatTimes);
    TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimes);
    TILING_DATA_FIELD_DEF(uint32_t, brcbTilingRepeatTimesTail);
    TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimes);
    TILING_DATA_FIELD_DEF(uint32_t, brcbFractalTailRepeatTimesTail);
    TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;
}
#endif
