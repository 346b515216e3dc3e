/*
 * Host-side work split for element-wise Ascend C operators, shared through the `common`
 * library package (deps: [//packages/common]).
 *
 * The elements are cut into whole 32-byte blocks (DataCopy moves whole blocks; the last block
 * may be partial and travels through DataCopyPad), spread over at most `coreNum` cores so the
 * first `formerNum` cores take one block more, and each core's range is walked in tiles small
 * enough that `queueNum` queues of `bufferNum` buffers fit in UB, yet numerous enough
 * (`bufferNum * tilesPerBuffer` per core) for double buffering to overlap copies and compute.
 */
#ifndef OPKG_COMMON_ELEMENTWISE_SPLIT_H
#define OPKG_COMMON_ELEMENTWISE_SPLIT_H

#include <algorithm>
#include <cstdint>

namespace opkg_common {

constexpr uint32_t BLOCK_BYTES = 32;

struct ElementwiseSplit {
    uint32_t blockDim = 0;      // cores launched: never one with nothing to do
    uint32_t formerNum = 0;     // the first formerNum cores take formerLength elements
    uint32_t formerLength = 0;
    uint32_t tailLength = 0;    // the others take tailLength
    uint32_t tileLength = 0;    // elements per tile, a whole number of blocks
};

// False when UB cannot hold a single tile of one block.
inline bool SplitElementwise(uint64_t totalLength, uint32_t typeSize, uint64_t coreNum,
                             uint64_t ubSize, uint32_t queueNum, uint32_t bufferNum,
                             uint32_t tilesPerBuffer, ElementwiseSplit &out)
{
    const uint32_t alignNum = BLOCK_BYTES / typeSize;  // elements per 32-byte block
    const uint64_t blockCount = (totalLength + alignNum - 1) / alignNum;
    const uint64_t blockDim = std::min<uint64_t>(std::max<uint64_t>(coreNum, 1), blockCount);
    out.blockDim = static_cast<uint32_t>(blockDim);
    out.formerNum = static_cast<uint32_t>(blockCount % blockDim);
    out.tailLength = static_cast<uint32_t>(blockCount / blockDim * alignNum);
    out.formerLength = out.tailLength + (out.formerNum > 0 ? alignNum : 0);

    const uint64_t ubTile = ubSize / (uint64_t(queueNum) * bufferNum * typeSize) / alignNum * alignNum;
    const uint64_t wantTiles = uint64_t(bufferNum) * tilesPerBuffer;
    uint64_t tileLength = (out.formerLength + wantTiles - 1) / wantTiles;
    tileLength = (tileLength + alignNum - 1) / alignNum * alignNum;
    out.tileLength = static_cast<uint32_t>(std::min(tileLength, ubTile));
    return out.tileLength > 0;
}

}  // namespace opkg_common

#endif  // OPKG_COMMON_ELEMENTWISE_SPLIT_H
