#include "kernel_operator.h"
using namespace AscendC;

using T = DTYPE_X;

extern "C" __global__ __aicore__ void sort_api(GM_ADDR x, GM_ADDR z, GM_ADDR zi, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.n;
    const uint32_t recs = GetSortLen<T>(n);    // elements of n sorted records
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, idxBuf, catBuf, dstBuf, tmpBuf, zBuf, ziBuf;
    GlobalTensor<T> xGm, zGm;
    GlobalTensor<int32_t> ziGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    ziGm.SetGlobalBuffer((__gm__ int32_t*)zi, n);
    pipe.InitBuffer(xBuf, n * sizeof(T));
    pipe.InitBuffer(idxBuf, n * sizeof(uint32_t));
    pipe.InitBuffer(catBuf, n * 8 * sizeof(T));
    pipe.InitBuffer(dstBuf, n * 8 * sizeof(T));
    pipe.InitBuffer(tmpBuf, n * 8 * sizeof(T));
    pipe.InitBuffer(zBuf, n * sizeof(T));
    pipe.InitBuffer(ziBuf, n * sizeof(int32_t));
    LocalTensor<T> xl = xBuf.Get<T>();
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    LocalTensor<T> cat = catBuf.Get<T>();
    LocalTensor<T> dst = dstBuf.Get<T>();
    LocalTensor<T> tmp = tmpBuf.Get<T>(t.tmpElems);
    LocalTensor<T> zl = zBuf.Get<T>();
    LocalTensor<int32_t> zil = ziBuf.Get<int32_t>();
    DataCopy(xl, xGm, n);
    CreateVecIndex(zil, (int32_t)0, n);
    Adds(idx.ReinterpretCast<int32_t>(), zil, (int32_t)0, n);
    Duplicate(cat, (T)0, n * 8);
    LocalTensor<T> concat;
#if __CCE_AICORE__ >= 220
    const int32_t perRepeat = 32;
#else
    const int32_t perRepeat = 16;
#endif
    const int32_t repeat = n / perRepeat;
    if (TILING_KEY_IS(1)) {
        // The portable sequence: Concat, full Sort, Extract.
        Concat(concat, xl, cat, repeat);
        Sort<T, true>(dst, concat, idx, tmp, repeat);  // @full-sort
        Extract(zl, idx, dst, repeat);
        Adds(zil, idx.ReinterpretCast<int32_t>(), (int32_t)0, n);
    } else if (TILING_KEY_IS(2)) {
        // Sorted runs of one repeat, then merged by hand: four runs into one, twice, then two.
        Concat(concat, xl, cat, repeat);
        Sort<T, false>(dst, concat, idx, tmp, repeat);
        const uint16_t len = perRepeat;
        const uint16_t lens[4] = {len, len, len, len};
        const uint32_t run = GetSortOffset<T>(len);
        MrgSortSrcList<T> four(dst, dst[run], dst[2 * run], dst[3 * run]);
#if __CCE_AICORE__ >= 220
        MrgSort(tmp, four, MrgSort4Info(lens, false, 15, 1));
        Extract(zl, idx, tmp, repeat);
#else
        // 310P: 8 runs of 16 proposals: two repeats of a four-way merge, then a two-way one.
        MrgSort4(tmp, four, MrgSort4Info(lens, false, 15, 2));
        const uint16_t halves[4] = {(uint16_t)(4 * len), (uint16_t)(4 * len), 0, 0};
        MrgSort4(dst, MrgSortSrcList<T>(tmp, tmp[4 * run], tmp, tmp), MrgSort4Info(halves, false, 3, 1));
        Extract(zl, idx, dst, repeat);
#endif
        Adds(zil, idx.ReinterpretCast<int32_t>(), (int32_t)0, n);
    } else if (TILING_KEY_IS(3)) {
        // Exhausted suspension over four runs: stops when the first run is used up.
        Concat(concat, xl, cat, repeat);
        Sort<T, false>(dst, concat, idx, tmp, repeat);
        const uint16_t len = perRepeat;
        const uint16_t lens[4] = {len, len, len, len};
        const uint32_t run = GetSortOffset<T>(len);
        uint32_t sorted[4] = {0, 0, 0, 0};
        Duplicate(tmp, (T)0, t.tmpElems);
        MrgSort<T, true>(tmp, MrgSortSrcList<T>(dst, dst[run], dst[2 * run], dst[3 * run]), lens, sorted, 15, 1);
        uint16_t c0, c1, c2, c3;
        GetMrgSortResult(c0, c1, c2, c3);
        Extract(zl, idx, tmp, repeat);
        Duplicate(zil, (int32_t)-1, n);
        zil.SetValue(0, (int32_t)sorted[0]);
        zil.SetValue(1, (int32_t)sorted[1]);
        zil.SetValue(2, (int32_t)sorted[2]);
        zil.SetValue(3, (int32_t)sorted[3]);
        zil.SetValue(4, (int32_t)(c0 + c1 + c2 + c3));
        zil.SetValue(5, (int32_t)GetSortLen<T>(10));
        zil.SetValue(6, (int32_t)GetSortOffset<T>(3));
    } else if (TILING_KEY_IS(4)) {
        Concat(concat, xl, cat, repeat);
        Sort<T, false>(dst, concat, idx, tmp, repeat);
        const uint16_t lens[4] = {32, 32, 32, 32};
        MrgSortSrcList<T> four(dst, dst, dst, dst);
#if __CCE_AICORE__ >= 220
        MrgSort(tmp, four, MrgSort4Info(lens, false, 5, 1));  // @bad-valid
#else
        MrgSort4(tmp, four, MrgSort4Info(lens, false, 5, 1));  // @bad-valid4
#endif
    }
#if __CCE_AICORE__ < 220
    else if (TILING_KEY_IS(5)) {
        // The proposal instructions directly: scores into the score slot, sort each 16, read back.
        ProposalConcat(cat, xl, repeat, 4);
        RpSort16(dst, cat, repeat);
        ProposalExtract(zl, dst, repeat, 4);
    }
#endif
    DataCopy(zGm, zl, n);
    DataCopy(ziGm, zil, n);
}
