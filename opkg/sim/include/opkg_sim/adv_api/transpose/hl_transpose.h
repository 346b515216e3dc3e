// The transpose library's ConfusionTranspose (CANN lib/transpose/confusion_transpose.h): the seven
// documented scenes as data movement, each element copied bit for bit. An NZ matrix of R rows and
// C columns is stored as C / 16 column blocks, each R x 16 row-major (element (r, c) at
// (c / 16) * R * 16 + r * 16 + c % 16). Shapes come from the tiling's params as CANN's scene
// structs name them (param1 shapeB, param2 shapeN / shapeA1 / height, ...; hl_tiling_lib.h fills
// them). The sim requires every NZ axis to be a whole number of 16 (S, H / N, and N where it becomes
// an NZ row axis) and reports other shapes rather than guessing their padding.
#ifndef OPKG_SIM_HL_TRANSPOSE_H
#define OPKG_SIM_HL_TRANSPOSE_H

#include <vector>
#include "opkg_sim/adv_api/hlapi.h"
#include "lib/transpose/confusion_transpose_tilingdata.h"

namespace AscendC {
using ConfusionTransposeTiling = optiling::ConfusionTransposeTiling;
}

namespace opkg_sim {

inline uint64_t nz_at(uint64_t r, uint64_t c, uint64_t rows) { return (c / 16) * rows * 16 + r * 16 + c % 16; }

// The least sharedTmpBuffer: one 16 x 16 block of T for the NZ scenes (the sim's model; CANN does
// not publish its figure), none for the plain 2-D transpose.
inline uint64_t confusion_transpose_tmp_bytes(AscendC::TransposeType type, uint32_t type_size) {
    return type == AscendC::TransposeType::TRANSPOSE_ND2ND_ONLY ? 0 : 256ull * type_size;
}

template <class Tiling> inline void tiling_params(const Tiling& t, uint32_t p[18]) {
    p[0] = OPKG_TF(t, param0); p[1] = OPKG_TF(t, param1); p[2] = OPKG_TF(t, param2); p[3] = OPKG_TF(t, param3);
    p[4] = OPKG_TF(t, param4); p[5] = OPKG_TF(t, param5); p[6] = OPKG_TF(t, param6); p[7] = OPKG_TF(t, param7);
    p[8] = OPKG_TF(t, param8); p[9] = OPKG_TF(t, param9); p[10] = OPKG_TF(t, param10);
    p[11] = OPKG_TF(t, param11); p[12] = OPKG_TF(t, param12); p[13] = OPKG_TF(t, param13);
    p[14] = OPKG_TF(t, param14); p[15] = OPKG_TF(t, param15); p[16] = OPKG_TF(t, param16);
    p[17] = OPKG_TF(t, param17);
}

template <class T>
inline void confusion_transpose(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                const AscendC::LocalTensor<uint8_t>* tmp, AscendC::TransposeType type,
                                const uint32_t p[18], SrcLoc loc) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "ConfusionTranspose takes 16- or 32-bit elements");
    using TT = AscendC::TransposeType;
    const char* op = "ConfusionTranspose";
    note(loc);
    auto bad = [&](const char* what) {
        fail(loc, format("%s: scene %d: %s (check the tiling: GetConfusionTransposeTilingInfo fills it)", op,
                         int(type), what));
    };
    // scene -> (count, map from destination index to source index)
    uint64_t count = 0;
    std::vector<uint64_t> from;
    if (type == TT::TRANSPOSE_ND2ND_ONLY) {
        const uint64_t H = p[1], W = p[2];
        if (!H || !W || H % 16 || W % 16) bad("height and width must be non-zero multiples of 16");
        count = H * W;
        from.resize(count);
        for (uint64_t h = 0; h < H; ++h)
            for (uint64_t w = 0; w < W; ++w) from[w * H + h] = h * W + w;
    } else if (type == TT::TRANSPOSE_NZ2ND_0213 || type == TT::TRANSPOSE_NZ2NZ_0213) {
        // [B, A1, A3/16, A2/16, 16, 16] -> ND [B, A2, A1, A3] or NZ [B, A2, A3/16, A1/16, 16, 16]
        const uint64_t B = p[1], A1 = p[2], A3 = p[3], A2 = p[4];
        const bool nz = type == TT::TRANSPOSE_NZ2NZ_0213;
        if (!B || !A1 || !A2 || !A3 || A2 % 16 || A3 % 16 || (nz && A1 % 16)) {
            bad("shapeB, shapeA1, alignA3 and alignA2 must be non-zero, A2 and A3 multiples of 16 (and A1 for the NZ "
                "result)");
        }
        count = B * A1 * A2 * A3;
        from.resize(count);
        for (uint64_t b = 0; b < B; ++b)
            for (uint64_t a1 = 0; a1 < A1; ++a1)
                for (uint64_t a2 = 0; a2 < A2; ++a2)
                    for (uint64_t a3 = 0; a3 < A3; ++a3) {
                        const uint64_t s = (b * A1 + a1) * A2 * A3 + nz_at(a2, a3, A2);
                        const uint64_t d = nz ? (b * A2 + a2) * A1 * A3 + nz_at(a1, a3, A1)
                                              : ((b * A2 + a2) * A1 + a1) * A3 + a3;
                        from[d] = s;
                    }
    } else if (type == TT::TRANSPOSE_NZ2NZ_012_WITH_N || type == TT::TRANSPOSE_NZ2ND_012_WITH_N ||
               type == TT::TRANSPOSE_NZ2ND_012_WITHOUT_N || type == TT::TRANSPOSE_NZ2NZ_012_WITHOUT_N) {
        // [B, S, H] as NZ per batch <-> [B, N, S, H / N] (NZ per (b, n), or ND)
        const bool split = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N || type == TT::TRANSPOSE_NZ2ND_012_WITH_N;
        const bool scene3 = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N;
        const uint64_t B = p[1], N = p[2], D = p[3];
        const uint64_t H = scene3 ? p[5] : p[4], S = uint64_t(scene3 ? p[7] : p[6]) * 16;
        if (!B || !N || !D || !S || H != N * D || D % 16) {
            bad("shapeB, shapeN, hnDiv and sBlockNum must be non-zero, shapeH = shapeN x hnDiv and hnDiv a multiple "
                "of 16");
        }
        count = B * S * H;
        from.resize(count);
        const bool nz_out = type == TT::TRANSPOSE_NZ2NZ_012_WITH_N || type == TT::TRANSPOSE_NZ2NZ_012_WITHOUT_N;
        for (uint64_t b = 0; b < B; ++b)
            for (uint64_t n = 0; n < N; ++n)
                for (uint64_t s = 0; s < S; ++s)
                    for (uint64_t j = 0; j < D; ++j) {
                        const uint64_t h = n * D + j;
                        const uint64_t whole = b * S * H + nz_at(s, h, S);        // [B, S, H] NZ
                        const uint64_t part = (b * N + n) * S * D + nz_at(s, j, S);  // [B, N, S, D] NZ
                        if (split) {
                            from[nz_out ? part : ((b * N + n) * S + s) * D + j] = whole;
                        } else {
                            from[nz_out ? whole : (b * S + s) * H + h] = part;
                        }
                    }
    } else {
        fail(loc, format("%s: TransposeType %d is not one of the seven documented scenes (NZ2ND_0213 .. ND2ND_ONLY)",
                         op, int(type)));
    }
    check_tmp(tmp, confusion_transpose_tmp_bytes(type, sizeof(T)), op, loc);
    check_count(src, count, op, "srcTensor", loc);
    check_count(dst, count, op, "dstTensor", loc);
    check_read(src.ptr_, count * sizeof(T), op, "srcTensor", loc);
    count_vec_of<T>(op, int64_t(count));
    std::vector<T> copy(src.ptr_, src.ptr_ + count);   // src and dst may be the same buffer
    for (uint64_t i = 0; i < count; ++i) dst.ptr_[i] = copy[from[i]];
    mark_written(dst.ptr_, count * sizeof(T));
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 200 || __CCE_AICORE__ == 220)
#define OPKG_HL_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling& tiling, OPKG_HL_LOC) {
    uint32_t p[18];
    opkg_sim::tiling_params(tiling, p);
    opkg_sim::confusion_transpose(dstTensor, srcTensor, &sharedTmpBuffer, transposeType, p, loc);
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               TransposeType transposeType, ConfusionTransposeTiling& tiling, OPKG_HL_LOC) {
    uint32_t p[18];
    opkg_sim::tiling_params(tiling, p);
    opkg_sim::confusion_transpose(dstTensor, srcTensor, nullptr, transposeType, p, loc);
}
#undef OPKG_HL_LOC
#endif

}  // namespace AscendC
#endif
