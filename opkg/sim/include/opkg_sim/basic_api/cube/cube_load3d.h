// The cube unit's image-to-column load (LoadData with LoadData3DParamsV2 or its packed form
// LoadData3DParamsV2Pro, A1 -> A2) and its
// registers (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary, SetLoadDataRepeat), and
// LoadDataWithTranspose (A1/B1 -> A2/B2), from CANN 8.1's kernel_operator_mm_intf.h and
// kernel_struct_mm.h and the Ascend C documentation of Load3D and LoadDataWithTranspose.
//
// Only what the documentation fixes is modelled; every other combination is reported at the
// call's file:line as not modelled rather than guessed:
//   Load3Dv2: source NC1HWC0 in L1 (element (c1, h, w, c0) at ((c1 * l1H + h) * l1W + w) * C0 + c0),
//   destination A2 in ZZ fractals. Row m of the img2col matrix is output pixel (m / Wo, m % Wo)
//   (the filter moves along W first), column k is filter point (kh, kw) and channel c, channels
//   innermost: k = (kh * filterW + kw) * channelSize + c. The rows and columns loaded are
//   [mStartPt, mStartPt + mExtension) x [kStartPt, kStartPt + kExtension); pixels outside the
//   feature map (the padding) take the padding value. Modelled: channelSize = C0 (any filter), or
//   channelSize a multiple of C0 with a 1 x 1 filter (then the (kh, kw, c1) order cannot differ).
//   LoadDataWithTranspose: half/bfloat16 (one 16 x 16 fractal per repeat) and int8/uint8 (two
//   16 x 32 fractals stacked into a 32 x 32 square, transposed and split in two).
#ifndef OPKG_SIM_CUBE_LOAD3D_H
#define OPKG_SIM_CUBE_LOAD3D_H

#include <algorithm>
#include "opkg_sim/basic_api/cube/cube.h"

namespace AscendC {

constexpr uint8_t PAD_SIZE = 4;   // padList: left, right, top, bottom

struct IsResetLoad3dConfig {
    constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
        : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <typename T>
struct LoadData3DParamsV1 {
    LoadData3DParamsV1() {}
    LoadData3DParamsV1(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t c1IndexIn, const uint8_t fetchFilterWIn, const uint8_t fetchFilterHIn,
                       const int16_t leftTopWIn, const int16_t leftTopHIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const uint8_t jumpStrideIn,
                       const uint8_t repeatModeIn, const uint8_t repeatTimeIn, const uint8_t cSizeIn,
                       const T padValueIn)
        : strideW(strideWIn), strideH(strideHIn), filterW(filterWIn), filterH(filterHIn),
          dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), jumpStride(jumpStrideIn),
          repeatMode(repeatModeIn), repeatTime(repeatTimeIn), cSize(cSizeIn), padValue(padValueIn),
          fetchFilterW(fetchFilterWIn), fetchFilterH(fetchFilterHIn), l1H(l1HIn), l1W(l1WIn), c1Index(c1IndexIn),
          leftTopW(leftTopWIn), leftTopH(leftTopHIn) {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    uint8_t padList[PAD_SIZE] = {0};
    uint8_t strideW = 0;
    uint8_t strideH = 0;
    uint8_t filterW = 0;
    uint8_t filterH = 0;
    uint8_t dilationFilterW = 0;
    uint8_t dilationFilterH = 0;
    uint8_t jumpStride = 0;
    uint8_t repeatMode = 0;
    uint8_t repeatTime = 0;
    uint8_t cSize = 0;
    T padValue = 0;
    uint8_t fetchFilterW = 0;
    uint8_t fetchFilterH = 0;
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t c1Index = 0;
    int16_t leftTopW = 0;
    int16_t leftTopH = 0;
};

template <typename T>
struct LoadData3DParamsV2 {
    LoadData3DParamsV2() {}
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                       const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                       const bool enSmallKIn, const T padValueIn)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn) {
        for (int i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
    }
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                       const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                       const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                       const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                       const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn, const bool enTransposeIn,
                       const bool enSmallKIn, const T padValueIn, const bool filterSizeWIn, const bool filterSizeHIn,
                       const bool fMatrixCtrlIn)
        : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn,
                             mStartPtIn, strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn,
                             dilationFilterHIn, enTransposeIn, enSmallKIn, padValueIn) {
        filterSizeW = filterSizeWIn;
        filterSizeH = filterSizeHIn;
        fMatrixCtrl = fMatrixCtrlIn;
    }
    uint8_t padList[PAD_SIZE] = {0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

// LoadData3DParamsV2's fields packed in two words (CANN's LOAD_* shifts): extConfig holds
// kExtension, mExtension, kStartPt and mStartPt in bits 0, 16, 32 and 48; filterConfig holds
// strideW, strideH, filterW, filterH, dilationFilterW and dilationFilterH in bits 0, 8, ..., 40.
// The feature map and padding value always come from SetFmatrix and SetLoadDataPaddingValue.
struct LoadData3DParamsV2Pro {
    LoadData3DParamsV2Pro() {}
    LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                          const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                          const uint64_t extConfigIn, const uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn),
          filterConfig(filterConfigIn) {}
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0X10101010101;
};

struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstfracGapIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn), addrMode(addrModeIn) {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstfracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstfracGapIn) {}
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

enum class FmatrixMode : uint8_t {
    FMATRIX_LEFT = 0,
    FMATRIX_RIGHT = 1,
};

struct LoadDataRepeatParam {
    LoadDataRepeatParam() {}
    LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint8_t reserved = 0;
};

}  // namespace AscendC

namespace opkg_sim {

inline Load3dRegs& load3d_regs() { return cube_mem().load3d; }

}  // namespace opkg_sim

namespace AscendC {

template <typename T>
inline void SetLoadDataPaddingValue(const T padValue, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::note(loc);
    opkg_sim::Load3dRegs& r = opkg_sim::load3d_regs();
    r.pad_set = true;
    r.pad_bits = 0;
    std::memcpy(&r.pad_bits, &padValue, sizeof(T));
    r.pad_bytes = sizeof(T);
}

inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    note(loc);
    range_check(l1H, 1, 32767, "l1H", "SetFmatrix", loc);
    range_check(l1W, 1, 32767, "l1W", "SetFmatrix", loc);
    Load3dRegs::Fmatrix& f = load3d_regs().fmatrix[fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0];
    f.set = true;
    f.h = l1H;
    f.w = l1W;
    for (int i = 0; i < 4; ++i) f.pad[i] = padList[i];
}

// The dav_c220 implementation layer's register setters, which ops-nn's pp_matmul utilities call
// by name (kernel_operator_mm_impl.h): FMATRIX (left) and FMATRIX_B (right), as SetFmatrix.
inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                                opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    SetFmatrix(l1H, l1W, padList, FmatrixMode::FMATRIX_LEFT, loc);
}
inline void Load3DSetFMatrixBCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    SetFmatrix(l1H, l1W, padList, FmatrixMode::FMATRIX_RIGHT, loc);
}

inline void SetLoadDataBoundary(uint32_t boundaryValue, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    note(loc);
    if (boundaryValue != 0 && boundaryValue < 1024) {
        fail(loc, format("SetLoadDataBoundary: %u bytes is below the documented minimum of 1024 for Load3Dv2 (0: no "
                         "boundary)", boundaryValue));
    }
    load3d_regs().boundary = boundaryValue;
}

inline void SetLoadDataRepeat(const LoadDataRepeatParam& p, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    note(loc);
    range_check(p.repeatMode, 0, 1, "repeatMode", "SetLoadDataRepeat", loc);
    load3d_regs().repeat_time = p.repeatTime;
}

namespace cube_detail {

// One img2col element: the feature-map value of img2col row `row`, column `col`, or the padding.
struct Img2col {
    uint64_t H, W, C, C0, Wo, Ho, fw, sw, sh, dw, dh;
    int64_t padL, padT;
    // offset of the source element, or -1 for a padding position
    int64_t source(uint64_t row, uint64_t col) const {
        const uint64_t ho = row / Wo, wo = row % Wo;
        const uint64_t c = col % C, point = col / C;
        const uint64_t kh = point / fw, kw = point % fw;
        const int64_t h = int64_t(ho * sh + kh * dh) - padT, w = int64_t(wo * sw + kw * dw) - padL;
        if (h < 0 || w < 0 || uint64_t(h) >= H || uint64_t(w) >= W) return -1;
        return int64_t((((c / C0) * H + uint64_t(h)) * W + uint64_t(w)) * C0 + c % C0);
    }
};

}  // namespace cube_detail

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "LoadData (3D v2, img2col)";
    constexpr uint64_t c0 = cube_c0<T>();
    note(loc);
    Load3dRegs& regs = load3d_regs();
    if constexpr (defaultConfig.isSetFMatrix) SetFmatrix(p.l1H, p.l1W, p.padList, FmatrixMode::FMATRIX_LEFT, loc);
    if constexpr (defaultConfig.isSetPadding) SetLoadDataPaddingValue(p.padValue, loc);
    range_check(p.channelSize, 1, 65535, "channelSize", op, loc);
    range_check(p.kExtension, 1, 65535, "kExtension", op, loc);
    range_check(p.mExtension, 1, 65535, "mExtension", op, loc);
    range_check(p.strideW, 1, 63, "strideW", op, loc);
    range_check(p.strideH, 1, 63, "strideH", op, loc);
    range_check(p.filterW, 1, 255, "filterW", op, loc);
    range_check(p.filterH, 1, 255, "filterH", op, loc);
    range_check(p.dilationFilterW, 1, 255, "dilationFilterW", op, loc);
    range_check(p.dilationFilterH, 1, 255, "dilationFilterH", op, loc);
    if (p.kStartPt % c0 != 0) {
        fail(loc, format("%s: kStartPt = %u must be a multiple of %llu for %s (a whole fractal column)", op,
                         p.kStartPt, (unsigned long long)c0, type_name<T>()));
    }
    if (p.fMatrixCtrl) fail(loc, format("%s: fMatrixCtrl = true (the right fmatrix) is documented as not supported", op));
    if (p.enSmallK) fail(loc, format("%s: enSmallK is documented as no longer supported", op));
    if (p.enTranspose) {
        fail(loc, format("%s: enTranspose is not modelled by the sim (the documentation does not fix the fractal "
                         "order of the transposed matrix)", op));
    }
    if (regs.repeat_time != 1) {
        fail(loc, format("%s: SetLoadDataRepeat with repeatTime %u is not modelled by the sim (only the default "
                         "single repeat is)", op, regs.repeat_time));
    }
    const Load3dRegs::Fmatrix& fm = regs.fmatrix[0];
    if (!fm.set) {
        fail(loc, format("%s with isSetFMatrix = false: no SetFmatrix(..., FMATRIX_LEFT) ran before it, so l1H, "
                         "l1W and padList are unset", op));
    }
    if (!regs.pad_set) {
        fail(loc, format("%s with isSetPadding = false: no SetLoadDataPaddingValue ran before it", op));
    }
    // a value set with another type: zero bits are zero in any type (ops-nn's pp_matmul kernels set
    // SetLoadDataPaddingValue<uint64_t>(0) and load float or half); other values are not modelled
    if (regs.pad_bytes != sizeof(T) && regs.pad_bits != 0) {
        fail(loc, format("%s: the padding value was set as a %u-byte type, the load is of %s: not modelled by the "
                         "sim", op, regs.pad_bytes, type_name<T>()));
    }
    const uint64_t fw = uint64_t(p.filterW) + (p.filterSizeW ? 256 : 0);
    const uint64_t fh = uint64_t(p.filterH) + (p.filterSizeH ? 256 : 0);
    if (p.channelSize % c0 != 0 || (p.channelSize != c0 && fw * fh != 1)) {
        fail(loc, format("%s: channelSize = %u with a %llu x %llu filter is not modelled by the sim: it models "
                         "channelSize = %llu (C0 of %s), or a multiple of it with a 1 x 1 filter; the documentation "
                         "does not fix the column order of the other cases", op, p.channelSize,
                         (unsigned long long)fh, (unsigned long long)fw, (unsigned long long)c0, type_name<T>()));
    }
    int dst_buf = -1;
    cube_arena_of(dst.ptr_, &dst_buf);
    if (dst_buf == CUBE_L0B) {
        fail(loc, format("%s to B2: not modelled by the sim (the documentation does not fix how the img2col matrix "
                         "lies in ZN fractals); A1 -> A2 is", op));
    }
    // the destination: up(mExtension, 16) x up(kExtension, C0) in ZZ fractals
    const uint64_t Mx = (p.mExtension + 15) / 16 * 16, Kx = (p.kExtension + c0 - 1) / c0 * c0, K1 = Kx / c0;
    CubeArena& da = cube_operand(dst, 1u << CUBE_L0A, Mx * Kx * sizeof(T), 512, op, "destination (A2)", loc);
    const uint64_t H = fm.h, W = fm.w;
    const uint64_t C = p.channelSize, C1 = (C + c0 - 1) / c0;
    CubeArena& sa = cube_operand(src, 1u << CUBE_L1, C1 * H * W * c0 * sizeof(T), 32, op, "source (A1)", loc);
    const int64_t padL = fm.pad[0], padR = fm.pad[1], padT = fm.pad[2], padB = fm.pad[3];
    const int64_t spanW = int64_t(p.dilationFilterW) * int64_t(fw - 1) + 1;
    const int64_t spanH = int64_t(p.dilationFilterH) * int64_t(fh - 1) + 1;
    if (int64_t(W) + padL + padR < spanW || int64_t(H) + padT + padB < spanH) {
        fail(loc, format("%s: the %lld x %lld filter window (dilation included) is larger than the padded %llu x %llu "
                         "feature map", op, (long long)spanH, (long long)spanW, (unsigned long long)H,
                         (unsigned long long)W));
    }
    cube_detail::Img2col g{H, W, C, c0,
                           uint64_t((int64_t(W) + padL + padR - spanW) / p.strideW + 1),
                           uint64_t((int64_t(H) + padT + padB - spanH) / p.strideH + 1),
                           fw, p.strideW, p.strideH, p.dilationFilterW, p.dilationFilterH, padL, padT};
    const uint64_t rows = g.Wo * g.Ho, cols = fh * fw * C;
    if (uint64_t(p.kStartPt) + p.kExtension > cols) {
        fail(loc, format("%s: columns %u..%u are past the img2col matrix's %llu (filter %llu x %llu x channelSize %llu)",
                         op, p.kStartPt, p.kStartPt + p.kExtension - 1, (unsigned long long)cols,
                         (unsigned long long)fh, (unsigned long long)fw, (unsigned long long)C));
    }
    if (p.mStartPt >= rows) {
        fail(loc, format("%s: mStartPt = %u is past the img2col matrix's %llu rows (Ho %llu x Wo %llu)", op, p.mStartPt,
                         (unsigned long long)rows, (unsigned long long)g.Ho, (unsigned long long)g.Wo));
    }
    T pad;
    std::memcpy(&pad, &regs.pad_bits, sizeof(T));
    const uint64_t src_base = uint64_t(reinterpret_cast<const uint8_t*>(src.ptr_) - sa.mem.get());
    for (uint64_t i = 0; i < Mx; ++i) {
        const uint64_t row = p.mStartPt + i;
        for (uint64_t j = 0; j < Kx; ++j) {
            T* d = dst.ptr_ + ((i / 16) * K1 + j / c0) * 16 * c0 + (i % 16) * c0 + j % c0;
            // rows and columns past the extensions (the rest of the last fractals) and rows past
            // Ho x Wo: the documentation does not say what they hold
            if (i >= p.mExtension || j >= p.kExtension || row >= rows) {
                cube_mark_written(da, d, sizeof(T), false);
                continue;
            }
            const int64_t s = g.source(row, p.kStartPt + j);
            if (s < 0) {
                *d = pad;
                cube_mark_written(da, d, sizeof(T));
                continue;
            }
            if (regs.boundary != 0 && src_base + uint64_t(s + 1) * sizeof(T) > regs.boundary) {
                fail(loc, format("%s reads L1 byte %llu, past the SetLoadDataBoundary boundary of %u bytes (where the "
                                 "device wraps to the start of L1): not modelled by the sim", op,
                                 (unsigned long long)(src_base + uint64_t(s) * sizeof(T)), regs.boundary));
            }
            *d = src.ptr_[s];
            cube_mark_written(da, d, sizeof(T), cube_defined(sa, src.ptr_ + s, sizeof(T)));
        }
    }
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static constexpr IsResetLoad3dConfig kFromRegisters = {false, false};
    LoadData3DParamsV2<T> q;
    q.channelSize = p.channelSize;
    q.kExtension = uint16_t(p.extConfig);
    q.mExtension = uint16_t(p.extConfig >> 16);
    q.kStartPt = uint16_t(p.extConfig >> 32);
    q.mStartPt = uint16_t(p.extConfig >> 48);
    q.strideW = uint8_t(p.filterConfig);
    q.strideH = uint8_t(p.filterConfig >> 8);
    q.filterW = uint8_t(p.filterConfig >> 16);
    q.filterH = uint8_t(p.filterConfig >> 24);
    q.dilationFilterW = uint8_t(p.filterConfig >> 32);
    q.dilationFilterH = uint8_t(p.filterConfig >> 40);
    q.enTranspose = p.enTranspose;
    q.enSmallK = p.enSmallK;
    q.filterSizeW = p.filterSizeW;
    q.filterSizeH = p.filterSizeH;
    q.fMatrixCtrl = p.fMatrixCtrl;
    LoadData<T, kFromRegisters>(dst, src, q, loc);
}

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV1<U>& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    (void)dst; (void)src; (void)p;
    opkg_sim::fail(loc, "LoadData with LoadData3DParamsV1: CANN 8.1 does not support it on __CCE_AICORE__ 220 and the "
                        "sim does not model the older SoCs' Load3Dv1; use LoadData3DParamsV2");
}

// A1/B1 -> A2/B2 with each square transposed. half/bfloat16: square r is source fractal
// startIndex + r * srcStride (512 B units), transposed to destination fractal r * (1 + dstGap).
// int8/uint8: square r is the two 16 x 32 fractals at (startIndex + r * srcStride) * 1024 B, one
// above the other (32 x 32), transposed; its top 16 rows go to destination fractal r * (1 + dstGap),
// the bottom 16 rows dstFracGap fractals after that one ends.
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p,
                                  opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "LoadDataWithTranspose";
    note(loc);
    if constexpr (sizeof(T) == 4) {
        fail(loc, format("%s of %s: not modelled by the sim (the documentation does not fix how two 16 x 8 fractals "
                         "form the 16 x 16 square); half, bfloat16_t, int8_t and uint8_t are", op, type_name<T>()));
    }
    if constexpr (sizeof(T) == 2 && !std::is_same<T, half>::value && !std::is_same<T, bfloat16_t>::value) {
        fail(loc, format("%s of %s: CANN supports half and bfloat16_t among the 2-byte types", op, type_name<T>()));
    }
    if (p.addrMode != 0) fail(loc, format("%s: addrMode %u is not modelled by the sim", op, p.addrMode));
    if (p.repeatTimes == 0) return;   // documented: no transfer
    constexpr uint64_t side = sizeof(T) == 1 ? 32 : 16;       // the square's side
    constexpr uint64_t sq = side * side;                      // its elements
    constexpr uint64_t frac = 512 / sizeof(T);                // elements of one 512-byte fractal
    constexpr uint64_t parts = sq / frac;                     // fractals per square: 1 or 2
    const uint64_t R = p.repeatTimes;
    // destination fractal of part q of repeat r
    auto dst_frac = [&](uint64_t r, uint64_t q) { return r * (1 + uint64_t(p.dstGap)) + q * (1 + uint64_t(p.dstFracGap)); };
    uint64_t last = 0;
    for (uint64_t r = 0; r < R; ++r) {
        for (uint64_t q = 0; q < parts; ++q) last = std::max(last, dst_frac(r, q) + 1);
    }
    CubeArena& da = cube_operand(dst, (1u << CUBE_L0A) | (1u << CUBE_L0B), last * 512, 512, op, "destination (A2/B2)", loc);
    CubeArena& sa = cube_operand(src, 1u << CUBE_L1, 0, 32, op, "source (A1/B1)", loc);
    // the destination fractals of different repeats must not overlap (documented)
    if (parts > 1) {
        std::vector<uint64_t> seen;
        for (uint64_t r = 0; r < R; ++r) {
            for (uint64_t q = 0; q < parts; ++q) seen.push_back(dst_frac(r, q));
        }
        std::sort(seen.begin(), seen.end());
        for (size_t i = 1; i < seen.size(); ++i) {
            if (seen[i] == seen[i - 1]) {
                fail(loc, format("%s: dstGap %u and dstFracGap %u put two transposed fractals on destination fractal "
                                 "%llu; the documentation requires them not to overlap", op, p.dstGap, p.dstFracGap,
                                 (unsigned long long)seen[i]));
            }
        }
    }
    std::vector<T> tmp(sq);
    std::vector<uint8_t> def(sq);
    for (uint64_t r = 0; r < R; ++r) {
        const uint64_t first = (uint64_t(p.startIndex) + r * p.srcStride) * sq;
        if (first + sq > src.size_) {
            fail(loc, format("%s: repeat %llu reads square %llu (elements %llu..%llu) of a source tensor of %u %s "
                             "elements", op, (unsigned long long)r, (unsigned long long)(p.startIndex + r * p.srcStride),
                             (unsigned long long)first, (unsigned long long)(first + sq - 1), src.size_,
                             type_name<T>()));
        }
        const T* s = src.ptr_ + first;
        // the square S (side x side, row-major: the parts stacked one above the other) -> S^T
        for (uint64_t i = 0; i < side; ++i) {
            for (uint64_t j = 0; j < side; ++j) {
                tmp[i * side + j] = s[j * side + i];
                def[i * side + j] = cube_defined(sa, s + j * side + i, sizeof(T));
            }
        }
        for (uint64_t q = 0; q < parts; ++q) {
            T* d = dst.ptr_ + dst_frac(r, q) * frac;
            std::memcpy(d, tmp.data() + q * frac, 512);
            for (uint64_t e = 0; e < frac; ++e) cube_mark_written(da, d + e, sizeof(T), def[q * frac + e] != 0);
        }
    }
}

// The devkit's LoadDataImpl (kernel_operator_mm_base_impl.h), the implementation LoadData calls,
// which ops-nn's conv3d backprop kernels call directly: the same move, for each LoadData form.
template <typename T, typename Src, typename Params>
inline void LoadDataImpl(const LocalTensor<T>& dst, const Src& src, const Params& p,
                         opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    LoadData(dst, src, p, loc);
}

}  // namespace AscendC
#endif
