// The cube path of Ascend C (kernel_operator_mm_intf.h, kernel_operator_fixpipe_intf.h and the
// Nd2Nz form of kernel_operator_data_copy_intf.h): GM -> L1 with ND -> NZ conversion, L1 -> L0A/L0B
// fractal loads, Mmad into L0C, Fixpipe L0C -> GM. Buffers come from cube_mem.h.
//
// Layouts (C0 = 32 bytes / sizeof(T) elements: 16 for half/bf16, 32 for int8, 8 for float):
//   L1 (NZ, from Nd2Nz): C0-wide column blocks, each a run of rows of C0 elements;
//   A2 (ZZ): 16 x C0 fractals row-major over (m / 16, k / C0), each row-major inside;
//   B2 (ZN): C0 x 16 fractals row-major over (k / C0, n / 16), each stored n-major (k contiguous);
//   CO1 (NZ): 16 x 16 fractals column-major over (m / 16, n / 16), each row-major inside.
// The element offsets below are these layouts written out; Mmad reads exactly m x k and k x n
// elements (padding outside them is never used) and writes m x n.
#ifndef OPKG_SIM_CUBE_H
#define OPKG_SIM_CUBE_H

#include <vector>
#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/cube/cube_mem.h"
#include "opkg_sim/basic_api/core/datacopy.h"

// The bisheng builtin of LoadData's addrMode (kernels write `inc` for increasing addresses).
enum addr_cal_mode_t : uint8_t { inc = 0, dec = 1 };

namespace AscendC {

// Cube constants of CANN's kernel_utils_constants.h that cube kernels use.
constexpr int32_t DEFAULT_C0_SIZE = 32;   // bytes of a fractal row (C0)
#ifndef ASCC_PARAM_CUBE_MAX_SIZE   // the devkit's guard: the host tiling headers declare it too
#define ASCC_PARAM_CUBE_MAX_SIZE
constexpr int32_t CUBE_MAX_SIZE = 256;    // elements of a 16 x 16 fractal
#endif

struct Nd2NzParams {
    Nd2NzParams() {}
    Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
    uint16_t ndNum = 0;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};

struct LoadData2DParams {
    LoadData2DParams() {}
    LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                     const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn, const uint8_t addrModeIn)
        : startIndex(startIndexIn), dstGap(dstGapIn), srcStride(srcStrideIn), ifTranspose(ifTransposeIn),
          repeatTimes(repeatTimesIn), sid(sidIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;
    uint16_t dstGap = 0;
    uint16_t srcStride = 0;
    bool ifTranspose = 0;
    uint8_t repeatTimes = 0;
    uint8_t sid = 0;
    uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

struct MmadParams {
    MmadParams() {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn, const int32_t fmOffsetIn,
               const bool enSsparseIn, const bool enWinogradAIn, const bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
               const bool cmatrixSourceIn, const bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;            // accumulate onto what CO1 holds (older spelling of !cmatrixInitVal)
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;     // the initial C comes from the bias table (C2)
    bool cmatrixInitVal = true;     // the initial C is 0
};

// The bisheng builtin enum of Fixpipe's quantisation modes (values as the compiler numbers them
// are not public; the sim only compares names): a plain enum at global scope, as the compiler's,
// so kernels name its values unqualified (ops-nn's flat_quant: `QuantMode_t q = F322F16;`) or
// qualified (`QuantMode_t::F322F16`), and AscendC::QuantMode_t names it too.
}  // namespace AscendC
enum QuantMode_t : uint8_t {
    NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8,
};
namespace AscendC {
using ::QuantMode_t;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
    FixpipeParamsV220() {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn) {}
    FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                      const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                      const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                      const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
        : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                            srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
        isChannelSplit = isChannelSplitIn;
    }
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;     // CO1: head-to-head distance of 16-column blocks, in 16-element rows
    uint32_t dstStride = 0;     // ND: elements per destination row; NZ: column blocks apart, in 32 B
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;   // 1024 B fractals
    uint16_t dstNdStride = 0;   // elements
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};
using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

// The earlier Fixpipe parameter form (the devkit's kernel_utils_struct_dma_params.h), which
// dav_c220 still takes (kernel_operator_fixpipe_impl.h, FixpipeInfoParams) and ops-nn's pp_matmul
// iterators and cann-ops' STFT use: cburstNum bursts of 16 columns, each burstLen 32-byte blocks
// (M x 16 float values), gaps rather than strides.
struct QuantParams {
    QuantParams() {}
    QuantParams(const QuantMode_t quantPreIn) : quantPre(quantPreIn) {}
    QuantParams(const QuantMode_t quantPreIn, const uint64_t deqScalarIn) : quantPre(quantPreIn), deqScalar(deqScalarIn) {}
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
};
struct Nz2NdParams {
    Nz2NdParams() {}
    Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                const uint16_t dstNdStrideIn, const uint16_t originalNSizeIn)
        : nz2ndEn(nz2ndEnIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          originalNSize(originalNSizeIn) {}
    bool nz2ndEn = false;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint16_t originalNSize = 0;
};
template <typename T = int32_t>
struct FixpipeParams {
    FixpipeParams() {}
    FixpipeParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint32_t dstStrideIn)
        : cburstNum(count), burstLen(len), dstStride(dstStrideIn), srcStride(srcStrideIn) {}
    uint16_t cburstNum = 1;
    uint16_t burstLen = 1;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    QuantParams quantParams;
    bool reluEn = false;
    Nz2NdParams nz2ndParams;
    uint8_t unitFlag = 0;
};

}  // namespace AscendC

namespace opkg_sim {

template <class T> constexpr uint32_t cube_c0() { return 32u / uint32_t(sizeof(T)); }

// A cube operand that is a default-constructed LocalTensor, never given an address (ops-nn's
// gemm_v3 declares its L0C tensor, gemm_v3_base_kernel.h line 194, and never assigns it): the
// devkit's default constructor sets no field (include/basic_api/kernel_tensor.h, `LocalTensor<T>(){}`),
// so the instruction takes whatever address the tensor's storage held, in the one buffer it
// reads or writes. The sim takes byte 0 of that buffer, the whole buffer as the tensor (one address
// for every later use of the same tensor object), with a warning at the line; an error with
// --strict-bounds, or where the instruction takes more than one buffer.
inline void cube_warn(SrcLoc loc, const std::string& msg);
template <class T>
inline void unaddressed_operand(const AscendC::LocalTensor<T>& t, unsigned bufs, const char* op, const char* role,
                                SrcLoc loc) {
    int only = -1;
    for (int i = 0; i < CUBE_COUNT; ++i) {
        if (bufs & (1u << i)) only = only == -1 ? i : -2;
    }
    if (only < 0 || block().strict_bounds) fail(loc, format("%s: %s is a LocalTensor that was never allocated", op, role));
    const uint64_t cap = block().cube_caps[only];
    auto& m = const_cast<AscendC::LocalTensor<T>&>(t);
    m.ptr_ = reinterpret_cast<T*>(cube_address(only, t.pos_, 0, cap, loc));
    m.size_ = uint32_t(cap / sizeof(T));
    cube_warn(loc, format("%s: %s is a LocalTensor never given an address (default-constructed): the device takes "
                          "whatever its address field holds; the sim uses byte 0 of %s (an error with --strict-bounds)",
                          op, role, cube_buf_name(only)));
}

// Checks that t is a tensor of one of the cube buffers `bufs` (a bit set of CubeBuf), starts
// `align`-byte aligned in it and holds `bytes`; returns its arena.
template <class T>
inline CubeArena& cube_operand(const AscendC::LocalTensor<T>& t, unsigned bufs, uint64_t bytes, uint64_t align,
                               const char* op, const char* role, SrcLoc loc) {
    note(loc);
    if (!t.ptr_) unaddressed_operand(t, bufs, op, role, loc);
    int which = -1;
    CubeArena* a = cube_arena_of(t.ptr_, &which);
    if (!a || !(bufs & (1u << which))) {
        std::string want;
        for (int i = 0; i < CUBE_COUNT; ++i) {
            if (bufs & (1u << i)) want += std::string(want.empty() ? "" : " or ") + cube_buf_name(i);
        }
        fail(loc, format("%s: %s is a %s tensor (position %s), but it must be in %s", op, role,
                         a ? cube_buf_name(which) : "Unified Buffer", position_name(t.pos_), want.c_str()));
    }
    uint64_t off = uint64_t(reinterpret_cast<const uint8_t*>(t.ptr_) - a->mem.get());
    if (off % align != 0) {
        fail(loc, format("%s: %s starts at %s offset %llu, which is not %llu-byte aligned (%s)", op, role,
                         cube_buf_name(which), (unsigned long long)off, (unsigned long long)align,
                         align >= 512 ? "a fractal boundary: offset the tensor by whole fractals"
                                      : "the hardware's address unit here"));
    }
    if (bytes > uint64_t(t.size_) * sizeof(T)) {
        fail(loc, format("%s: %s needs %llu bytes but the LocalTensor holds only %u %s elements (%llu bytes)", op,
                         role, (unsigned long long)bytes, t.size_, type_name<T>(),
                         (unsigned long long)(uint64_t(t.size_) * sizeof(T))));
    }
    return *a;
}

// A parameter outside the range the documentation gives it.
inline void range_check(long long v, long long lo, long long hi, const char* name, const char* op, SrcLoc loc) {
    if (v < lo || v > hi) {
        fail(loc, format("%s: %s = %lld is outside its documented range [%lld, %lld]", op, name, v, lo, hi));
    }
}

// A warning given once per call site (an API contract slip the device tolerates).
inline void cube_warn(SrcLoc loc, const std::string& msg) {
    BlockState& b = block();
    if (b.warned && !b.warned->first(loc)) return;
    log_line(format("warning: %s:%d: %s", loc.file ? loc.file : "?", loc.line, msg.c_str()));
}

inline void cube_mark_written(CubeArena& a, const void* p, uint64_t bytes, bool defined = true) {
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - a.mem.get());
    std::memset(a.shadow.get() + off, defined ? 1 : 0, bytes);
}

inline bool cube_defined(const CubeArena& a, const void* p, uint64_t bytes) {
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - a.mem.get());
    return std::memchr(a.shadow.get() + off, 0, bytes) == nullptr;
}

// Cube work joins the profile's counters (OpkgBlockProfile.cube_flops); the roofline estimate
// has no cube term yet (the SoC table has no cube throughput).
inline void count_cube(uint64_t flops) {
    OpkgBlockProfile& p = block().prof;
    p.cube_flops += flops;
    p.cube_calls += 1;
}

// Reads n GM bytes into a cube buffer: bytes GM holds no defined value for stay undefined there.
void cube_load_gm(CubeArena& a, uint8_t* dst, const uint8_t* src, uint64_t n);
#ifdef OPKG_SIM_RUNTIME_TU
void cube_load_gm(CubeArena& a, uint8_t* dst, const uint8_t* src, uint64_t n) {
    std::memcpy(dst, src, n);
    const GmRegion* r = gm_region(src);
    if (!r) {
        cube_mark_written(a, dst, n);
        return;
    }
    uint64_t off = uint64_t(src - r->base);
    uint64_t k = gm_first_undefined(*r, off, n);
    cube_mark_written(a, dst, k);
    for (; k < n; ++k) cube_mark_written(a, dst + k, 1, gm_byte_defined(*r, off + k));
}
#endif

// Nd2Nz's element moves (DataCopy GM -> L1 below), on bytes: `esize`-byte elements, C0 = 32 bytes.
void nd2nz_copy(CubeArena& a, uint8_t* dst, const uint8_t* src, uint64_t esize, const AscendC::Nd2NzParams& p);
#ifdef OPKG_SIM_RUNTIME_TU
void nd2nz_copy(CubeArena& a, uint8_t* dst, const uint8_t* src, uint64_t esize, const AscendC::Nd2NzParams& p) {
    const uint64_t row_bytes = uint64_t(p.dValue) * esize, blocks = (row_bytes + 31) / 32;
    for (uint64_t i = 0; i < p.ndNum; ++i) {
        for (uint64_t r = 0; r < p.nValue; ++r) {
            const uint8_t* row = src + (i * p.srcNdMatrixStride + r * p.srcDValue) * esize;
            if (r + 4 < p.nValue) {   // GM rows are strided: fetch ahead what the row four on will read
                const uint8_t* next = row + 4 * uint64_t(p.srcDValue) * esize;
                for (uint64_t b = 0; b < row_bytes; b += 64) __builtin_prefetch(next + b);
            }
            uint8_t* drow = dst + (i * p.dstNzMatrixStride + r * p.dstNzNStride * (32 / esize)) * esize;
            // a row GM holds values for throughout (the usual case) is copied without a look-up per block
            const GmRegion* g = gm_region(row);
            const bool defined = !g || gm_first_undefined(*g, uint64_t(row - g->base), row_bytes) == row_bytes;
            for (uint64_t j = 0; j < blocks; ++j) {
                uint8_t* d = drow + j * p.dstNzC0Stride * 32;
                const uint64_t have = row_bytes - j * 32 < 32 ? row_bytes - j * 32 : 32;
                if (have == 32 && defined) {
                    std::memcpy(d, row + j * 32, 32);
                    cube_mark_written(a, d, 32);
                    continue;
                }
                if (defined) {
                    std::memcpy(d, row + j * 32, have);
                    cube_mark_written(a, d, have);
                } else {
                    cube_load_gm(a, d, row + j * 32, have);
                }
                std::memset(d + have, 0, 32 - have);   // the row's last block is zero-filled past dValue
                cube_mark_written(a, d + have, 32 - have);
            }
        }
    }
}
#endif

template <class D, class S>
void cube_l1_to_bt(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                   const AscendC::DataCopyParams& p, SrcLoc loc);

}  // namespace opkg_sim

namespace AscendC {

// GM (ND) -> A1/B1 (NZ). For matrix i, row r, 32-byte block j of the row: source
// i * srcNdMatrixStride + r * srcDValue + j * C0 elements, destination i * dstNzMatrixStride +
// (j * dstNzC0Stride + r * dstNzNStride) * C0 elements. A row's last block is filled with zeros past
// dValue, as the hardware does; rows past nValue are not written.
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "DataCopy GM->L1 (Nd2Nz)";
    constexpr uint64_t c0 = cube_c0<T>();
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    if (p.dstNzC0Stride < p.nValue * p.dstNzNStride && (p.dValue + c0 - 1) / c0 > 1) {
        fail(loc, format("%s: dstNzC0Stride %u is smaller than nValue %u x dstNzNStride %u, so the %llu-element "
                         "column blocks overlap in L1; set dstNzC0Stride to at least the padded row count",
                         op, p.dstNzC0Stride, p.nValue, p.dstNzNStride, (unsigned long long)c0));
    }
    const uint64_t blocks = (p.dValue + c0 - 1) / c0;
    uint64_t last = 0;   // highest destination element written, plus one
    for (uint64_t i = 0; i < p.ndNum; ++i) {
        uint64_t e = i * p.dstNzMatrixStride + ((blocks - 1) * p.dstNzC0Stride + (p.nValue - 1) * p.dstNzNStride) * c0 + c0;
        if (e > last) last = e;
    }
    CubeArena& a = cube_operand(dst, 1u << CUBE_L1, last * sizeof(T), 32, op, "destination", loc);
    const uint64_t src_span = (uint64_t(p.ndNum) - 1) * p.srcNdMatrixStride + (uint64_t(p.nValue) - 1) * p.srcDValue + p.dValue;
    check_gt(src, src_span * sizeof(T), op, loc);
    nd2nz_copy(a, reinterpret_cast<uint8_t*>(dst.ptr_), reinterpret_cast<const uint8_t*>(src.ptr_), sizeof(T), p);
    count_copy(COPY_GM_UB, uint64_t(p.ndNum) * p.nValue * p.dValue * sizeof(T));
}

namespace cube_detail {

// One LoadData 2D: repeatTimes fractals of 512 bytes from src fractal startIndex + r * srcStride to
// dst fractal r * (1 + dstGap); ifTranspose transposes each 16 x 16 fractal (2-byte types only).
// LoadData 2D's fractal moves on bytes (load2d below): fractal r of 512 bytes from source fractal
// startIndex + r * srcStride to destination fractal r * (1 + dstGap), each 16 x 16 2-byte fractal
// transposed with ifTranspose; the definedness of each byte goes with it.
void load2d_copy(opkg_sim::CubeArena& a, uint8_t* dst, const uint8_t* src, opkg_sim::CubeArena* src_arena,
                 const LoadData2DParams& p, const char* op, opkg_sim::SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
void load2d_copy(opkg_sim::CubeArena& a, uint8_t* dst, const uint8_t* src, opkg_sim::CubeArena* src_arena,
                 const LoadData2DParams& p, const char* op, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    uint8_t tmp[512], def[512];
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const uint8_t* s = src + (uint64_t(p.startIndex) + r * p.srcStride) * 512;
        uint8_t* d = dst + r * (1 + p.dstGap) * 512;
        uint8_t* dsh = a.shadow.get() + (d - a.mem.get());
        if (src_arena) {
            if (s + 512 > src_arena->mem.get() + src_arena->cap) {
                fail(loc, format("%s: repeat %llu reads fractal %llu of the source, past the end of its buffer", op,
                                 (unsigned long long)r, (unsigned long long)(p.startIndex + r * p.srcStride)));
            }
            std::memcpy(def, src_arena->shadow.get() + (s - src_arena->mem.get()), 512);
        } else {
            std::memset(def, 1, sizeof def);
            if (const GmRegion* g = gm_region(s)) {
                const uint64_t off = uint64_t(s - g->base);
                if (gm_first_undefined(*g, off, 512) != 512) {
                    for (int i = 0; i < 512; ++i) def[i] = gm_byte_defined(*g, off + i);
                }
            }
        }
        if (!p.ifTranspose) {
            std::memmove(d, s, 512);
            std::memcpy(dsh, def, 512);
            continue;
        }
        std::memcpy(tmp, s, 512);   // the source may overlap the destination
        if (std::memchr(def, 0, sizeof def) == nullptr) {   // all loaded (the usual case)
            uint16_t t16[256];
            std::memcpy(t16, tmp, 512);
            uint16_t* d16 = reinterpret_cast<uint16_t*>(tmp);
            for (int i = 0; i < 16; ++i) {
                for (int j = 0; j < 16; ++j) d16[i * 16 + j] = t16[j * 16 + i];
            }
            std::memcpy(d, tmp, 512);
            std::memset(dsh, 1, 512);
            continue;
        }
        for (int i = 0; i < 16; ++i) {
            for (int j = 0; j < 16; ++j) {
                std::memcpy(d + (i * 16 + j) * 2, tmp + (j * 16 + i) * 2, 2);
                dsh[(i * 16 + j) * 2] = dsh[(i * 16 + j) * 2 + 1] = def[(j * 16 + i) * 2] && def[(j * 16 + i) * 2 + 1];
            }
        }
    }
}
#endif

template <class T>
inline void load2d(const LocalTensor<T>& dst, const uint8_t* src, opkg_sim::CubeArena* src_arena,
                   const LoadData2DParams& p, const char* op, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    constexpr uint64_t frac = 512 / sizeof(T);
    if (p.repeatTimes == 0) return;
    if (p.addrMode != 0) fail(loc, format("%s: addrMode %u (decreasing addresses) is not modelled by the sim", op, p.addrMode));
    if (p.ifTranspose && sizeof(T) != 2) {
        fail(loc, format("%s: ifTranspose with %s: LoadData 2D transposes 16 x 16 fractals of 2-byte types only; "
                         "use LoadDataWithTranspose for 1- and 4-byte types", op, type_name<T>()));
    }
    const uint64_t dst_span = ((uint64_t(p.repeatTimes) - 1) * (1 + p.dstGap) + 1) * 512;
    CubeArena& a = cube_operand(dst, (1u << CUBE_L1) | (1u << CUBE_L0A) | (1u << CUBE_L0B), dst_span,
                                dst.pos_ == TPosition::A1 || dst.pos_ == TPosition::B1 ? 32 : 512, op,
                                "destination", loc);
    load2d_copy(a, reinterpret_cast<uint8_t*>(dst.ptr_), src, src_arena, p, op, loc);
}

}  // namespace cube_detail

template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "LoadData (2D, L1->L0)";
    if (p.repeatTimes == 0) return;
    CubeArena& s = cube_operand(src, 1u << CUBE_L1, 0, 32, op, "source", loc);
    cube_detail::load2d(dst, reinterpret_cast<const uint8_t*>(src.ptr_), &s, p, op, loc);
}

template <class T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "LoadData (2D, GM->L1/L0)";
    if (p.repeatTimes == 0) return;
    uint64_t last = (uint64_t(p.startIndex) + (uint64_t(p.repeatTimes) - 1) * p.srcStride + 1) * 512;
    check_gt(src, last, op, loc);
    cube_detail::load2d(dst, reinterpret_cast<const uint8_t*>(src.ptr_), nullptr, p, op, loc);
    count_copy(COPY_GM_UB, uint64_t(p.repeatTimes) * 512);
}

template <typename U>
struct InitConstValueParams {
    InitConstValueParams() {}
    InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                         const U initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    InitConstValueParams(const uint16_t repeatTimesIn, const U initValueIn)
        : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    U initValue = 0;
};

// Fills L1 (A1/B1: blocks of 32 B) or L0A/L0B (A2/B2: blocks of 512 B) with one value: repeatTimes
// iterations of blockNum blocks, dstGap blocks between them (A2/A3's form, all fields; CANN's
// interface of kernel_operator_mm_intf.h, the documented ranges [0, 32767]).
template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "InitConstValue: half, bfloat16_t, (u)int16_t, float or (u)int32_t");
    const char* op = "InitConstValue";
    note(loc);
    range_check(p.repeatTimes, 0, 32767, "repeatTimes", op, loc);
    range_check(p.blockNum, 0, 32767, "blockNum", op, loc);
    range_check(p.dstGap, 0, 32767, "dstGap", op, loc);
    if (p.repeatTimes == 0 || p.blockNum == 0) return;
    const bool l1 = dst.pos_ == TPosition::A1 || dst.pos_ == TPosition::B1;
    const uint64_t block = l1 ? 32 : 512;
    const uint64_t span = ((uint64_t(p.repeatTimes) - 1) * (uint64_t(p.blockNum) + p.dstGap) + p.blockNum) * block;
    CubeArena& a = cube_operand(dst, (1u << CUBE_L1) | (1u << CUBE_L0A) | (1u << CUBE_L0B), span, block, op,
                                "destination", loc);
    const uint64_t per = uint64_t(p.blockNum) * block / sizeof(T);
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        T* d = dst.ptr_ + r * (uint64_t(p.blockNum) + p.dstGap) * block / sizeof(T);
        for (uint64_t i = 0; i < per; ++i) d[i] = p.initValue;
        cube_mark_written(a, d, per * sizeof(T));
    }
}

// C1 (L1) -> C2 (the bias table), copy_cbuf_to_bt: blockCount bursts of blockLen x 64 source
// bytes; srcStride is the gap between source bursts in 32 B, dstStride between destination bursts
// in 64 B. half -> float converts on the way (convControl; each burst then fills twice its length
// of table), as CANN's matmul sizes it: lenBurst = ceil(n x sizeof(bias) / 64); a same-type copy
// (float -> float, the plain DataCopy of datacopy.h hands it over) moves the bytes unchanged.
template <class D, class S>
inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<D, float>::value && std::is_same<S, half>::value,
                  "DataCopy C1->C2 converts half to float only (or copies one type to the same type)");
    opkg_sim::cube_l1_to_bt(dst, src, p, loc);
}

}  // namespace AscendC

namespace opkg_sim {

template <class D, class S>
void cube_l1_to_bt(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                          const AscendC::DataCopyParams& p, SrcLoc loc) {
    const char* op = "DataCopy C1->C2 (bias table)";
#if defined(__CCE_AICORE__) && __CCE_AICORE__ < 220
    fail(loc, format("%s: this SoC has no bias table (C2 is part of L0C before __CCE_AICORE__ 220)", op));
#endif
    if (p.blockCount == 0 || p.blockLen == 0) return;
    const uint64_t sblk = uint64_t(p.blockLen) * 64, dblk = sblk * sizeof(D) / sizeof(S);
    const uint64_t sstep = sblk + uint64_t(p.srcStride) * 32, dstep = dblk + uint64_t(p.dstStride) * 64;
    CubeArena& sa = cube_operand(src, 1u << CUBE_L1, sstep * (p.blockCount - 1) + sblk, 32, op, "source (C1)", loc);
    CubeArena& da = cube_operand(dst, 1u << CUBE_BT, dstep * (p.blockCount - 1) + dblk, 64, op,
                                 "destination (C2)", loc);
    for (uint64_t b = 0; b < p.blockCount; ++b) {
        const S* s = reinterpret_cast<const S*>(reinterpret_cast<const uint8_t*>(src.ptr_) + b * sstep);
        D* d = reinterpret_cast<D*>(reinterpret_cast<uint8_t*>(dst.ptr_) + b * dstep);
        for (uint64_t i = 0; i < sblk / sizeof(S); ++i) {
            d[i] = static_cast<D>(static_cast<float>(s[i]));
            // bytes past what Nd2Nz wrote (a burst rounded up to 64 B) stay undefined in the table
            cube_mark_written(da, d + i, sizeof(D), cube_defined(sa, s + i, sizeof(S)));
        }
    }
}

// GM -> A1/B1/C1 (copy_gm_to_cbuf): blockCount bursts of blockLen x 32 bytes, srcStride and
// dstStride the gaps between bursts in 32-byte blocks, no layout change (ND stays ND).
template <class T>
void cube_copy_gm_to_l1(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                        const AscendC::DataCopyParams& p, SrcLoc loc) {
    const char* op = "DataCopy GM->L1";
    if (p.blockCount == 0 || p.blockLen == 0) return;
    const uint64_t blk = uint64_t(p.blockLen) * 32, sstep = blk + uint64_t(p.srcStride) * 32,
                   dstep = blk + uint64_t(p.dstStride) * 32;
    CubeArena& a = cube_operand(dst, 1u << CUBE_L1, dstep * (p.blockCount - 1) + blk, 32, op,
                                "destination (A1/B1/C1)", loc);
    check_gt(src, sstep * (p.blockCount - 1) + blk, op, loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint64_t b = 0; b < p.blockCount; ++b) cube_load_gm(a, d + b * dstep, s + b * sstep, blk);
    count_copy(COPY_GM_UB, blk * p.blockCount);
}

// L1 -> the fixpipe buffer (C2PIPE2GM): per-channel quantisation values, uint64_t. blockCount
// bursts of blockLen x 128 bytes; srcStride and dstStride are head-to-head distances here, in 32
// and 128 bytes ("DataCopy（L1ToFixpipe-Buffer数据搬运）": 0 repeats or overwrites the first burst).
template <class T>
void cube_l1_to_fb(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   const AscendC::DataCopyParams& p, SrcLoc loc) {
    static_assert(std::is_same<T, uint64_t>::value, "DataCopy L1 -> C2PIPE2GM moves uint64_t values");
    const char* op = "DataCopy C1->C2PIPE2GM (fixpipe buffer)";
    if (p.blockCount == 0 || p.blockLen == 0) {
        cube_warn(loc, format("%s: blockCount or blockLen 0 moves nothing", op));
        return;
    }
    range_check(p.blockCount, 1, 4095, "blockCount", op, loc);
    const uint64_t blk = uint64_t(p.blockLen) * 128;
    const uint64_t sstep = p.blockCount > 1 ? uint64_t(p.srcStride) * 32 : 0;
    const uint64_t dstep = p.blockCount > 1 ? uint64_t(p.dstStride) * 128 : 0;
    CubeArena& sa = cube_operand(src, 1u << CUBE_L1, sstep * (p.blockCount - 1) + blk, 32, op, "source (C1)", loc);
    CubeArena& da = cube_operand(dst, 1u << CUBE_FB, dstep * (p.blockCount - 1) + blk, 128, op,
                                 "destination (C2PIPE2GM)", loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint64_t b = 0; b < p.blockCount; ++b) {
        std::memcpy(d + b * dstep, s + b * sstep, blk);
        for (uint64_t i = 0; i < blk; i += 8) cube_mark_written(da, d + b * dstep + i, 8, cube_defined(sa, s + b * sstep + i, 8));
    }
}

// From L1 with the plain DataCopy: to the bias table (C2) or the fixpipe buffer (C2PIPE2GM);
// CANN's other L1 destination (UB) is not modelled.
template <class T>
void cube_copy_from_l1(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::DataCopyParams& p, SrcLoc loc) {
    int which = -1;
    const bool cube = cube_arena_of(dst.ptr_, &which) != nullptr;
    if (cube && which == CUBE_FB) {
        if constexpr (std::is_same<T, uint64_t>::value) {
            return cube_l1_to_fb(dst, src, p, loc);
        } else {
            fail(loc, format("DataCopy L1 -> C2PIPE2GM of %s values: the fixpipe buffer takes uint64_t "
                             "quantisation values", type_name<T>()));
        }
    }
    if (!cube || which != CUBE_BT) {
        fail(loc, format("DataCopy from L1 (position %s) to a %s tensor (position %s): the sim models L1 -> C2 "
                         "(the bias table) and L1 -> C2PIPE2GM only; L1 -> UB is not modelled",
                         position_name(src.pos_), cube ? cube_buf_name(which) : "Unified Buffer",
                         position_name(dst.pos_)));
    }
    cube_l1_to_bt(dst, src, p, loc);
}

// The count form from L1: the bias table moves 64-byte bursts, the fixpipe buffer count x
// sizeof(T) bytes rounded down to 32 (the documentation; a remainder is a warning).
template <class T>
void cube_copy_count_from_l1(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                             SrcLoc loc) {
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    int which = -1;
    if (cube_arena_of(dst.ptr_, &which) && which == CUBE_FB) {
        if (bytes % 32 != 0) {
            cube_warn(loc, format("DataCopy L1 -> C2PIPE2GM of %u %s values = %llu bytes: not a "
                "multiple of 32, so the hardware moves only %llu bytes", count, type_name<T>(),
                (unsigned long long)bytes, (unsigned long long)(bytes / 32 * 32)));
        }
        const uint64_t moved = bytes / 32 * 32;
        if (moved == 0) return;
        // whole 128-byte bursts, then the rest as a burst of its own size
        const uint64_t whole = moved / 128, rest = moved % 128;
        if (whole) cube_copy_from_l1(dst, src, AscendC::DataCopyParams(1, uint16_t(whole), 0, 0), loc);
        if (rest) {
            const uint64_t off = whole * 128 / sizeof(T);
            CubeArena& sa = cube_operand(src, 1u << CUBE_L1, moved, 32, "DataCopy C1->C2PIPE2GM", "source (C1)", loc);
            CubeArena& da = cube_operand(dst, 1u << CUBE_FB, moved, 128, "DataCopy C1->C2PIPE2GM",
                                         "destination (C2PIPE2GM)", loc);
            std::memcpy(dst.ptr_ + off, src.ptr_ + off, rest);
            for (uint64_t i = 0; i < rest; ++i) {
                const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_ + off) + i;
                cube_mark_written(da, reinterpret_cast<uint8_t*>(dst.ptr_ + off) + i, 1, cube_defined(sa, s, 1));
            }
        }
        return;
    }
    if (bytes % 64 != 0) {
        fail(loc, format("DataCopy C1->C2 of %u %s elements = %llu bytes, which is not a multiple of 64 bytes; the bias "
                         "table moves whole 64-byte bursts and would copy only %llu bytes", count, type_name<T>(),
                         (unsigned long long)bytes, (unsigned long long)(bytes / 64 * 64)));
    }
    cube_copy_from_l1(dst, src, AscendC::DataCopyParams(1, uint16_t(bytes / 64), 0, 0), loc);
}

}  // namespace opkg_sim

namespace AscendC {

namespace cube_detail {

template <class D, class A, class B> struct MmadTypes { static constexpr bool ok = false; };
template <> struct MmadTypes<float, half, half> { static constexpr bool ok = true; using Acc = float; };
template <> struct MmadTypes<float, bfloat16_t, bfloat16_t> { static constexpr bool ok = true; using Acc = float; };
template <> struct MmadTypes<int32_t, int8_t, int8_t> { static constexpr bool ok = true; using Acc = int32_t; };
template <> struct MmadTypes<float, float, float> { static constexpr bool ok = true; using Acc = float; };

inline uint64_t up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace cube_detail
}  // namespace AscendC

#include "opkg_sim/basic_api/cube/cube_gemm.h"

namespace AscendC {
namespace cube_detail {

template <class D, class A, class B, class Bias>
inline void mmad(const LocalTensor<D>& c, const LocalTensor<A>& a, const LocalTensor<B>& b,
                 const LocalTensor<Bias>* bias, const MmadParams& p, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    static_assert(MmadTypes<D, A, B>::ok, "Mmad supports (dst, A, B) = (float, half, half), (float, bfloat16_t, "
                  "bfloat16_t), (int32_t, int8_t, int8_t), (float, float, float)");
    static_assert(sizeof(A) == sizeof(B), "Mmad: A and B must have the same element size");
    static_assert(std::is_same<A, B>::value && std::is_same<D, typename MmadTypes<D, A, B>::Acc>::value,
                  "Mmad: the product's loops are compiled for B of A's type and C of the accumulator's");
    using Acc = typename MmadTypes<D, A, B>::Acc;
    const char* op = "Mmad";
    constexpr uint64_t c0 = cube_c0<A>();
#if defined(__CCE_AICORE__) && __CCE_AICORE__ < 220
    if constexpr (std::is_same<A, float>::value || std::is_same<A, bfloat16_t>::value) {
        fail(loc, format("Mmad with %s inputs: this SoC's cube unit has no %s mode (A2/A3 only)", type_name<A>(),
                         type_name<A>()));
    }
#endif
    note(loc);
    const uint64_t m = p.m, n = p.n, k = p.k;
    if (m == 0 || n == 0 || k == 0) return;
    const uint64_t M = up(m, 16), N = up(n, 16), K = up(k, c0);
    CubeArena& ca = cube_operand(c, 1u << CUBE_L0C, M * N * sizeof(D), 256 * sizeof(D), op, "dst (CO1)", loc);
    const uint64_t a_need = M * K * sizeof(A), b_need = K * N * sizeof(B);
    cube_operand(a, 1u << CUBE_L0A, 0, 512, op, "A (A2)", loc);   // position and fractal alignment first
    cube_operand(b, 1u << CUBE_L0B, 0, 512, op, "B (B2)", loc);
    if (a.ptr_ && a_need > uint64_t(a.size_) * sizeof(A)) {
        fail(loc, format("Mmad: k = %llu needs %llu x %llu elements of A (m padded to 16, k to %llu), but the A2 "
                         "tensor holds %u: the K of A and the k given to Mmad disagree",
                         (unsigned long long)k, (unsigned long long)M, (unsigned long long)K,
                         (unsigned long long)c0, a.size_));
    }
    if (b.ptr_ && b_need > uint64_t(b.size_) * sizeof(B)) {
        fail(loc, format("Mmad: k = %llu needs %llu x %llu elements of B (k padded to %llu, n to 16), but the B2 "
                         "tensor holds %u: the K of B and the k given to Mmad disagree",
                         (unsigned long long)k, (unsigned long long)K, (unsigned long long)N,
                         (unsigned long long)c0, b.size_));
    }
    CubeArena& aa = cube_operand(a, 1u << CUBE_L0A, a_need, 512, op, "A (A2)", loc);
    CubeArena& ba = cube_operand(b, 1u << CUBE_L0B, b_need, 512, op, "B (B2)", loc);
    // Initial C: zero, CO1's own values (accumulate) or the bias table.
    const bool from_bias = bias != nullptr || p.cmatrixSource;
    const bool accumulate = !from_bias && (!p.cmatrixInitVal || p.isBias);
    std::vector<Acc> bias_row;
    if (from_bias) {
        if (!bias) {
            fail(loc, "Mmad with cmatrixSource = true takes C from the bias table: use the Mmad overload with a bias "
                      "tensor (C2)");
        }
        CubeArena& bb = cube_operand(*bias, (1u << CUBE_BT) | (1u << CUBE_L0C) | (1u << CUBE_L1), n * sizeof(Bias), 64, op, "bias (C2)", loc);
        if (!cube_defined(bb, bias->ptr_, n * sizeof(Bias))) {
            fail(loc, format("Mmad reads %llu bias values that were never loaded into the bias table", (unsigned long long)n));
        }
        bias_row.resize(n);
        for (uint64_t j = 0; j < n; ++j) {
            if constexpr (std::is_integral<Bias>::value) {
                bias_row[j] = static_cast<Acc>(bias->ptr_[j]);
            } else {
                bias_row[j] = static_cast<Acc>(static_cast<float>(bias->ptr_[j]));
            }
        }
    }
    mmad_run(c.ptr_, ca, a.ptr_, aa, b.ptr_, ba, from_bias ? bias_row.data() : nullptr, accumulate, m, n, k, loc);
    count_cube(2 * m * n * k);
}

}  // namespace cube_detail

// The devkit's MmadImpl (kernel_operator_mm_base_impl.h), the implementation Mmad calls, which
// ops-nn's conv3d backprop kernels call directly: the same product (defined after Mmad, below).
template <typename DstT, typename Src0T, typename Src1T>
inline void MmadImpl(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                     const LocalTensor<Src1T>& filterLocal, const MmadParams& mmadParams,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
template <typename DstT, typename Src0T, typename Src1T, typename BiasT>
inline void MmadImpl(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                     const LocalTensor<Src1T>& filterLocal, const LocalTensor<BiasT>& biasLocal,
                     const MmadParams& mmadParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());

// HF32 (the devkit's kernel_operator_mm_intf.h): with it enabled, float A and B enter Mmad with the
// low 12 of their 23 mantissa bits rounded off to nearest, ties to even or (NEAREST_ZERO, the bool
// form's true) ties away from zero (cube_detail::hf32_of in cube_gemm.h, where the rounding is
// settled from the devkit). A state of the block's cube unit, kept until set again.
enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };
inline void SetHF32Mode(bool hf32Mode) { opkg_sim::block().hf32 = hf32Mode; }
inline void SetHF32Mode(HF32Mode mode) { SetHF32Mode(mode == HF32Mode::ENABLE); }
inline void SetHF32TransMode(bool hf32TransMode) { opkg_sim::block().hf32_ties_away = hf32TransMode; }
inline void SetHF32TransMode(HF32TransMode mode) { SetHF32TransMode(mode == HF32TransMode::NEAREST_ZERO); }

template <typename DstT, typename Src0T, typename Src1T>
inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                 const LocalTensor<Src1T>& filterLocal, const MmadParams& mmadParams,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::mmad<DstT, Src0T, Src1T, DstT>(dstLocal, fmLocal, filterLocal, nullptr, mmadParams, loc);
}

template <typename DstT, typename Src0T, typename Src1T, typename BiasT>
inline void Mmad(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                 const LocalTensor<Src1T>& filterLocal, const LocalTensor<BiasT>& biasLocal,
                 const MmadParams& mmadParams, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::mmad<DstT, Src0T, Src1T, BiasT>(dstLocal, fmLocal, filterLocal, &biasLocal, mmadParams, loc);
}

template <typename DstT, typename Src0T, typename Src1T>
inline void MmadImpl(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                     const LocalTensor<Src1T>& filterLocal, const MmadParams& mmadParams, opkg_sim::SrcLoc loc) {
    Mmad(dstLocal, fmLocal, filterLocal, mmadParams, loc);
}

template <typename DstT, typename Src0T, typename Src1T, typename BiasT>
inline void MmadImpl(const LocalTensor<DstT>& dstLocal, const LocalTensor<Src0T>& fmLocal,
                     const LocalTensor<Src1T>& filterLocal, const LocalTensor<BiasT>& biasLocal,
                     const MmadParams& mmadParams, opkg_sim::SrcLoc loc) {
    Mmad(dstLocal, fmLocal, filterLocal, biasLocal, mmadParams, loc);
}

// 4:2 sparse products (A2/A3). LoadDataWithSparse moves the densified B (K/2 x N, int8, B1 -> B2,
// fractals as LoadData 2D moves them, no transpose) and, per 512-byte fractal, the 128 index bytes
// at the same fractal number of `idx`: each index byte holds the 2-bit indices of four consecutive
// B2 bytes, the first in the low bits. MmadWithSparse multiplies A (A2, m x k, k the full K) by
// the B whose groups of four k rows the indices rebuild: dense row 2g + s of a column goes to k row
// 4g + idx (s = 0) or 4g + 1 + idx (s = 1), the other two rows of the group being zero; then the
// product as Mmad computes it. An index of 3 (documented range {0, 1, 2}) and two nonzero values
// selecting one row (the documentation does not fix that case) are errors.
template <typename T = int8_t, typename U = uint8_t,
          typename std::enable_if<std::is_same<T, int8_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, uint8_t>::value, bool>::type = true>
inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                               const LoadData2dParams& p, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "LoadDataWithSparse";
    note(loc);
    if (p.repeatTimes == 0) return;
    if (dst.pos_ != TPosition::B2) fail(loc, format("%s: the destination must be a B2 tensor", op));
    if (p.ifTranspose) fail(loc, format("%s: ifTranspose is not supported (documented)", op));
    CubeArena& sa = cube_operand(src, 1u << CUBE_L1, 0, 32, op, "source", loc);
    CubeArena& ia = cube_operand(idx, 1u << CUBE_L1, 0, 32, op, "index", loc);
    cube_detail::load2d(dst, reinterpret_cast<const uint8_t*>(src.ptr_), &sa, p, op, loc);
    CubeMem& mem = cube_mem();
    CubeArena& b2 = mem.a[CUBE_L0B];
    if (mem.sparse_idx.size() != b2.cap) mem.sparse_idx.assign(b2.cap, 0xFF);
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const uint8_t* s = reinterpret_cast<const uint8_t*>(idx.ptr_) + (uint64_t(p.startIndex) + r * p.srcStride) * 128;
        if (s + 128 > ia.mem.get() + ia.cap) {
            fail(loc, format("%s: repeat %llu reads index fractal %llu, past the end of L1", op, (unsigned long long)r,
                             (unsigned long long)(p.startIndex + r * p.srcStride)));
        }
        const bool defined = cube_defined(ia, s, 128);
        const uint64_t o = uint64_t(reinterpret_cast<const uint8_t*>(dst.ptr_) - b2.mem.get()) + r * (1 + p.dstGap) * 512;
        for (uint64_t j = 0; j < 512; ++j) {
            mem.sparse_idx[o + j] = defined ? uint8_t((s[j / 4] >> (2 * (j % 4))) & 3) : 0xFF;
        }
    }
}

template <typename T = int32_t, typename U = int8_t,
          typename std::enable_if<std::is_same<T, int32_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<U, int8_t>::value, bool>::type = true>
inline void MmadWithSparse(const LocalTensor<T>& dstLocal, const LocalTensor<U>& fmLocal,
                           const LocalTensor<U>& filterLocal, const MmadParams& p,
                           opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "MmadWithSparse";
    note(loc);
    const uint64_t m = p.m, n = p.n, k = p.k;
    if (m == 0 || n == 0 || k == 0) return;
    if (k % 4 != 0) fail(loc, format("%s: k = %llu is not a multiple of 4 (the 4:2 groups)", op, (unsigned long long)k));
    constexpr uint64_t c0 = 32;
    const uint64_t M = (m + 15) / 16 * 16, N = (n + 15) / 16 * 16, K = (k + c0 - 1) / c0 * c0;
    const uint64_t kd = k / 2, KD = (kd + c0 - 1) / c0 * c0, N1 = N / 16;
    CubeArena& ca = cube_operand(dstLocal, 1u << CUBE_L0C, M * N * sizeof(T), 1024, op, "dst (CO1)", loc);
    CubeArena& aa = cube_operand(fmLocal, 1u << CUBE_L0A, M * K, 512, op, "A (A2)", loc);
    CubeArena& ba = cube_operand(filterLocal, 1u << CUBE_L0B, KD * N, 512, op, "B (B2)", loc);
    const std::vector<uint8_t>& ix = cube_mem().sparse_idx;
    const uint64_t b0 = uint64_t(reinterpret_cast<const uint8_t*>(filterLocal.ptr_) - ba.mem.get());
    // the dense B (k x n) in B2's layout, in a scratch arena: defined where its group was loaded
    CubeArena dense;
    dense.cap = K * N;
    dense.mem.reset(new uint8_t[dense.cap]());
    dense.shadow.reset(new uint8_t[dense.cap]());
    auto at = [&](uint64_t kk, uint64_t j) { return ((kk / c0) * N1 + j / 16) * 16 * c0 + (j % 16) * c0 + kk % c0; };
    for (uint64_t j = 0; j < n; ++j) {
        for (uint64_t g = 0; g < k / 4; ++g) {
            bool loaded = true;
            for (uint64_t s = 0; s < 2; ++s) {
                const uint64_t off = at(2 * g + s, j);
                loaded = loaded && cube_defined(ba, filterLocal.ptr_ + off, 1) && b0 + off < ix.size() && ix[b0 + off] != 0xFF;
            }
            if (!loaded) continue;   // left undefined: the product reports reading it
            for (uint64_t r = 0; r < 4; ++r) dense.shadow[at(4 * g + r, j)] = 1;
            for (uint64_t s = 0; s < 2; ++s) {
                const uint64_t off = at(2 * g + s, j);
                const uint8_t id = ix[b0 + off];
                if (id == 3) {
                    fail(loc, format("%s: the index of dense row %llu, column %llu is 3; indices are 0, 1 or 2", op,
                                     (unsigned long long)(2 * g + s), (unsigned long long)j));
                }
                const int8_t v = filterLocal.ptr_[off];
                uint8_t& d = dense.mem[at(4 * g + s + id, j)];
                if (v != 0 && d != 0) {
                    fail(loc, format("%s: both dense values of group %llu, column %llu select k row %llu: not modelled "
                                     "(the documentation does not fix it)", op, (unsigned long long)g,
                                     (unsigned long long)j, (unsigned long long)(4 * g + s + id)));
                }
                if (v != 0) d = uint8_t(v);
            }
        }
    }
    const bool accumulate = !p.cmatrixInitVal || p.isBias;
    cube_detail::mmad_run(dstLocal.ptr_, ca, fmLocal.ptr_, aa, reinterpret_cast<const int8_t*>(dense.mem.get()), dense,
                          nullptr, accumulate, m, n, k, loc);
    count_cube(2 * m * n * kd);
}

namespace cube_detail {

// The scale of a quantisation parameter (QUANT_PRE, a uint64 built from a float's bits): the
// hardware reads bits 13..31 as a float of 1 sign, 8 exponent and 10 mantissa bits (CANN's
// "随路量化" table for NPU arch 2201), so the float's low 13 mantissa bits are dropped.
inline float deq_scale(uint64_t deqScalar) {
    const uint32_t bits = static_cast<uint32_t>(deqScalar & 0xFFFFE000u);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// The fields of a quantisation parameter (QUANT_PRE, or QUANT_PRE_ADDR[i] per channel), as the
// table "量化参数QUANT_PRE比特位含义映射表" (NPU arch 2201) gives them: M1 the scale (deq_scale), bits
// 32..35 N with b'0000 = 1 (the shift when MCB is set), bit 36 MCB (REQ8: shift the int32 right by N
// and saturate it to int16 first), bits 37..45 a 9-bit offset added after the scaling (read as a
// two's-complement integer: the table says "9bit的整型数据"), bit 46 Sign (1: an int8 result, 0: uint8).
struct QuantPre {
    float m1;
    uint32_t shift;
    bool mcb;
    int32_t offset;
    bool sign;
};
inline QuantPre quant_fields(uint64_t v) {
    QuantPre q;
    q.m1 = deq_scale(v);
    q.shift = uint32_t((v >> 32) & 0xF) + 1;
    q.mcb = ((v >> 36) & 1) != 0;
    const int32_t off = int32_t((v >> 37) & 0x1FF);
    q.offset = off >= 256 ? off - 512 : off;
    q.sign = ((v >> 46) & 1) != 0;
    return q;
}

inline bool quant_per_channel(QuantMode_t q) {
    return q == QuantMode_t::VDEQF16 || q == QuantMode_t::VQF322B8_PRE || q == QuantMode_t::VREQ8;
}
inline const char* quant_name(QuantMode_t q) {
    static const char* const names[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16", "QF322B8_PRE",
                                        "VQF322B8_PRE", "REQ8", "VREQ8"};
    return names[static_cast<int>(q)];
}

// x scaled as the hardware's M1/M2 pair does it ("随路量化与随路ReLU场景组合", arch 2201): a value
// >= 0 times M1, a negative one times M2, which is M1 without ReLU and 0 with it (so ReLU acts
// on the sign of the value before the scaling).
inline float quant_scale(float x, float m1, bool relu) { return x >= 0.0f ? x * m1 : (relu ? 0.0f : x * m1); }

// (V)REQ8 and (V)QF322B8_PRE after the scaling: saturated to [-256, 255], rounded to the nearest
// even, the offset added, saturated to int8 (Sign 1) or uint8 (Sign 0). NaN goes to 0 (the
// integer saturation mode). The result is the byte written.
inline uint8_t quant_b8(float y, const QuantPre& q) {
    if (y != y) y = 0.0f;
    y = y < -256.0f ? -256.0f : (y > 255.0f ? 255.0f : y);
    int32_t v = int32_t(std::nearbyint(y)) + q.offset;   // the default rounding mode: to nearest even
    if (q.sign) {
        v = v < -128 ? -128 : (v > 127 ? 127 : v);
        return uint8_t(int8_t(v));
    }
    v = v < 0 ? 0 : (v > 255 ? 255 : v);
    return uint8_t(v);
}

// One CO1 value on its way out (Fixpipe, DataCopy CO1->GM): quantisation (`param`: deqScalar or
// the column's QUANT_PRE_ADDR value; `per_channel`: it came from a tensor), then the ReLU.
template <class DstT, class SrcT>
inline DstT fixpipe_convert(SrcT v, QuantMode_t q, uint64_t param, bool relu, const char* op,
                            opkg_sim::SrcLoc loc, bool per_channel = false) {
    using namespace opkg_sim;
    if (quant_per_channel(q) && !per_channel) {
        fail(loc, format("%s: %s takes a value per channel: use the Fixpipe overload with a cbufWorkspace tensor "
                         "of nSize uint64_t values in L1 (DataCopy CO1->GM: SetFixPipeConfig)", op, quant_name(q)));
    }
    if (per_channel && !quant_per_channel(q)) {
        fail(loc, format("%s: per-channel quantisation values with quantPre %s: the per-channel modes are VDEQF16, "
                         "VQF322B8_PRE and VREQ8", op, quant_name(q)));
    }
    if constexpr (std::is_same<SrcT, int32_t>::value && std::is_same<DstT, half>::value) {
        if (q != QuantMode_t::DEQF16 && q != QuantMode_t::VDEQF16) {
            fail(loc, format("%s: int32_t CO1 -> half output needs quantPre = QuantMode_t::DEQF16 (or VDEQF16)", op));
        }
        return static_cast<half>(quant_scale(static_cast<float>(v), deq_scale(param), relu));
    } else if constexpr (sizeof(DstT) == 1) {
        static_assert(std::is_same<DstT, int8_t>::value || std::is_same<DstT, uint8_t>::value,
                      "Fixpipe: an 8-bit output is int8_t or uint8_t");
        const QuantPre f = quant_fields(param);
        float x;
        if constexpr (std::is_same<SrcT, int32_t>::value) {
            if (q != QuantMode_t::REQ8 && q != QuantMode_t::VREQ8) {
                fail(loc, format("%s: int32_t CO1 -> %s output needs quantPre = QuantMode_t::REQ8 (or VREQ8), not %s",
                                 op, type_name<DstT>(), quant_name(q)));
            }
            int32_t s = v;
            if (f.mcb) {
                s >>= f.shift;
                s = s < -32768 ? -32768 : (s > 32767 ? 32767 : s);
            }
            x = static_cast<float>(s);
        } else {
            if (q != QuantMode_t::QF322B8_PRE && q != QuantMode_t::VQF322B8_PRE) {
                fail(loc, format("%s: float CO1 -> %s output needs quantPre = QuantMode_t::QF322B8_PRE (or "
                                 "VQF322B8_PRE), not %s", op, type_name<DstT>(), quant_name(q)));
            }
            x = v;
        }
        if (f.sign != std::is_same<DstT, int8_t>::value) {
            cube_warn(loc, format("%s: the quantisation value's Sign bit (bit 46) is %d but the output is %s: the "
                                  "hardware saturates to %s and writes those bytes", op, int(f.sign),
                                  type_name<DstT>(), f.sign ? "int8" : "uint8"));
        }
        uint8_t b = quant_b8(quant_scale(x, f.m1, relu), f);
        DstT out;
        std::memcpy(&out, &b, 1);
        return out;
    } else {
        if (relu && v < SrcT(0)) v = SrcT(0);
        if constexpr (std::is_same<DstT, SrcT>::value) {
            if (q != QuantMode_t::NoQuant) fail(loc, format("%s: %s -> %s takes quantPre = NoQuant", op, type_name<SrcT>(), type_name<DstT>()));
            return v;
        } else if constexpr (std::is_same<SrcT, float>::value && std::is_same<DstT, half>::value) {
            if (q != QuantMode_t::F322F16) fail(loc, format("%s: float CO1 -> half output needs quantPre = QuantMode_t::F322F16", op));
            return static_cast<half>(v);
        } else if constexpr (std::is_same<SrcT, float>::value && std::is_same<DstT, bfloat16_t>::value) {
            if (q != QuantMode_t::F322BF16) fail(loc, format("%s: float CO1 -> bfloat16_t output needs quantPre = QuantMode_t::F322BF16", op));
            return bfloat16_t(v);
        } else {
            fail(loc, format("%s: %s -> %s is not a Fixpipe data type combination on Atlas A2/A3 (float -> int8_t, "
                             "uint8_t, half, bfloat16_t, float; int32_t -> int8_t, uint8_t, half, int32_t)", op,
                             type_name<SrcT>(), type_name<DstT>()));
        }
    }
}

}  // namespace cube_detail

#if defined(__CCE_AICORE__) && (__CCE_AICORE__ == 220 || __CCE_AICORE__ == 300)
// CO1 (NZ) -> GM (A2/A3 and 310B, as CANN declares it). ROW_MAJOR (NZ2ND): element (i, j) of each of ndNum matrices goes to
// nd * dstNdStride + i * dstStride + j. NZ: the columns go out in Z blocks, block b at b * dstStride
// x 32 B, its rows `width` elements apart: 16 columns; 32 for an int8_t/uint8_t output ("Int8
// Channel Merge": two 16-column fractals become one, the last 16 columns stay alone when nSize / 16
// is odd); 8 for a float output with isChannelSplit ("F32 Channel Split"). The source element is
// (j / 16) * srcStride * 16 + i * 16 + j % 16 (+ nd * srcNdStride fractals of 1024 B).
namespace cube_detail {
// The move of Fixpipe out of CO1; `chan`: the nSize per-channel quantisation values, or null;
// `store(offset, values, count)` writes count converted values at the destination's element
// offset (GM, or L1: fixpipe_l1 below).
template <typename DstT, typename SrcT, const FixpipeConfig& config, class Store>
inline void fixpipe_move(Store store, const LocalTensor<SrcT>& srcLocal, const FixpipeParamsV220& p,
                         const uint64_t* chan, const char* op, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    static_assert(std::is_same<SrcT, float>::value || std::is_same<SrcT, int32_t>::value,
                  "Fixpipe: the CO1 source holds float or int32_t");
    note(loc);
    if (config.format == CO2Layout::COLUMN_MAJOR) {
        fail(loc, "Fixpipe: CFG_COLUMN_MAJOR (NZ2DN) exists on Ascend 950 only, not on this SoC");
    }
    if (p.nSize == 0 || p.mSize == 0) return;   // the documentation: a NOP
    if (p.isChannelSplit) {
        if (!std::is_same<SrcT, float>::value || !std::is_same<DstT, float>::value) {
            fail(loc, format("%s: isChannelSplit needs a float source and a float output (here %s -> %s)", op,
                             type_name<SrcT>(), type_name<DstT>()));
        }
        if (config.format != CO2Layout::NZ) fail(loc, format("%s: isChannelSplit cannot be combined with NZ2ND (CFG_ROW_MAJOR)", op));
        if (p.unitFlag != 0) fail(loc, format("%s: isChannelSplit cannot be combined with unitFlag", op));
        if (p.nSize % 8 != 0) fail(loc, format("%s: with isChannelSplit, nSize (%u) must be a multiple of 8", op, p.nSize));
    } else if (config.format == CO2Layout::NZ && p.nSize % 16 != 0) {
        fail(loc, format("%s: with CFG_NZ, nSize (%u) must be a multiple of 16", op, p.nSize));
    }
    range_check(p.nSize, 0, 4095, "nSize", op, loc);
    if (config.format == CO2Layout::ROW_MAJOR) range_check(p.mSize, 0, 8192, "mSize (NZ2ND)", op, loc);
    if (p.dstStride == 0) fail(loc, format("%s: dstStride must be at least 1", op));
    if (p.srcStride < (p.mSize + 15) / 16 * 16 && (p.nSize + 15) / 16 > 1) {
        fail(loc, format("%s: srcStride %u is smaller than mSize %u rounded up to 16: the 16-column blocks of CO1 "
                         "would overlap", op, p.srcStride, p.mSize));
    }
    const uint64_t nd = config.format == CO2Layout::ROW_MAJOR ? (p.ndNum ? p.ndNum : 0) : 1;
    if (nd == 0) {
        cube_warn(loc, format("%s: ndNum 0 moves nothing", op));
        return;
    }
    const uint64_t nb = (p.nSize + 15) / 16;
    const uint64_t src_elems = (nd - 1) * p.srcNdStride * 256 + (nb - 1) * uint64_t(p.srcStride) * 16 +
                               uint64_t(p.mSize) * 16;
    CubeArena& ca = cube_operand(srcLocal, 1u << CUBE_L0C, src_elems * sizeof(SrcT), 64, op, "source (CO1)", loc);
    // the output values of row i, all nSize columns, after a check that the Mmad wrote them
    std::vector<DstT> row(p.nSize);
    auto convert_row = [&](const SrcT* base, uint64_t i) {
        for (uint64_t jb = 0; jb < p.nSize; jb += 16) {   // a fractal row (16 columns) at a time
            const SrcT* s = base + (jb / 16) * uint64_t(p.srcStride) * 16 + i * 16;
            const uint64_t w = p.nSize - jb < 16 ? p.nSize - jb : 16;
            if (!cube_defined(ca, s, w * sizeof(SrcT))) {
                uint64_t j = 0;
                while (cube_defined(ca, s + j, sizeof(SrcT))) ++j;
                fail(loc, format("%s reads CO1 element (row %llu, column %llu) that no Mmad wrote: the "
                                 "Fixpipe covers more than the Mmad computed, or runs before it",
                                 op, (unsigned long long)i, (unsigned long long)(jb + j)));
            }
            for (uint64_t j = 0; j < w; ++j) {
                row[jb + j] = fixpipe_convert<DstT, SrcT>(s[j], p.quantPre, chan ? chan[jb + j] : p.deqScalar,
                                                           p.reluEn, op, loc, chan != nullptr);
            }
        }
    };
    for (uint64_t d = 0; d < nd; ++d) {
        const SrcT* base = srcLocal.ptr_ + d * p.srcNdStride * 256;
        if (config.format == CO2Layout::ROW_MAJOR) {
            for (uint64_t i = 0; i < p.mSize; ++i) {
                convert_row(base, i);
                store(d * p.dstNdStride + i * p.dstStride, row.data(), uint64_t(p.nSize));
            }
            continue;
        }
        const uint64_t width = p.isChannelSplit ? 8 : (sizeof(DstT) == 1 ? 32 : 16);
        const uint64_t step = uint64_t(p.dstStride) * 32 / sizeof(DstT);
        for (uint64_t i = 0; i < p.mSize; ++i) {
            convert_row(base, i);
            for (uint64_t j0 = 0; j0 < p.nSize; j0 += width) {
                const uint64_t w = p.nSize - j0 < width ? p.nSize - j0 : width;   // a lone last fractal when merging
                store((j0 / width) * step + i * w, row.data() + j0, w);
            }
        }
    }
    count_copy(COPY_UB_GM, nd * p.mSize * p.nSize * sizeof(DstT));
}

template <typename DstT, typename SrcT, const FixpipeConfig& config>
inline void fixpipe_gm(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                       const FixpipeParamsV220& p, const uint64_t* chan, opkg_sim::SrcLoc loc) {
    const char* op = "Fixpipe CO1->GM";
    auto store = [&](uint64_t off, const DstT* v, uint64_t n) {
        GlobalTensor<DstT> g = dstGlobal[off];
        opkg_sim::check_gt(g, n * sizeof(DstT), op, loc);
        opkg_sim::store_gm(g.ptr_, v, n * sizeof(DstT), op, loc);
    };
    fixpipe_move<DstT, SrcT, config>(store, srcLocal, p, chan, op, loc);
}

// CO1 -> L1 (C1/A1/B1; "Fixpipe（L0C到L1数据搬运）"): NZ only on Atlas A2/A3 (CANN's own check
// refuses CFG_ROW_MAJOR), the destination 32-byte aligned; the data type pairs of the A2/A3 table
// (float -> int8_t, uint8_t, half, bfloat16_t; int32_t -> int8_t, uint8_t, half), each with its
// quantisation mode (this path has no NoQuant).
template <typename DstT, typename SrcT, const FixpipeConfig& config>
inline void fixpipe_l1(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                       const FixpipeParamsV220& p, const uint64_t* chan, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    const char* op = "Fixpipe CO1->L1";
    constexpr bool pair_ok = std::is_same<SrcT, float>::value
        ? (sizeof(DstT) == 1 || std::is_same<DstT, half>::value || std::is_same<DstT, bfloat16_t>::value)
        : (sizeof(DstT) == 1 || std::is_same<DstT, half>::value);
    static_assert(pair_ok, "Fixpipe CO1 -> L1 on Atlas A2/A3: float -> int8_t/uint8_t/half/bfloat16_t, "
                           "int32_t -> int8_t/uint8_t/half");
    if (config.format != CO2Layout::NZ) {
        fail(loc, format("%s: the L1 destination takes the NZ layout only on this SoC: use Fixpipe<DstT, SrcT, CFG_NZ> "
                         "(CANN checks format != ROW_MAJOR for a C1 destination)", op));
    }
    if (p.nSize == 0 || p.mSize == 0) return;
    const uint64_t width = sizeof(DstT) == 1 ? 32 : 16;
    const uint64_t step = uint64_t(p.dstStride) * 32 / sizeof(DstT);
    const uint64_t blocks = (p.nSize + width - 1) / width;
    const uint64_t last_w = p.nSize - (blocks - 1) * width;
    // the furthest element written: the end of the last block, or of the one before it (full width)
    uint64_t extent = (blocks - 1) * step + uint64_t(p.mSize) * last_w;
    if (blocks > 1 && (blocks - 2) * step + uint64_t(p.mSize) * width > extent) {
        extent = (blocks - 2) * step + uint64_t(p.mSize) * width;
    }
    CubeArena& a = cube_operand(dstLocal, 1u << CUBE_L1, extent * sizeof(DstT), 32, op, "destination (L1)", loc);
    auto store = [&](uint64_t off, const DstT* v, uint64_t n) {
        std::memcpy(dstLocal.ptr_ + off, v, n * sizeof(DstT));
        cube_mark_written(a, dstLocal.ptr_ + off, n * sizeof(DstT));
    };
    fixpipe_move<DstT, SrcT, config>(store, srcLocal, p, chan, op, loc);
}
}  // namespace cube_detail

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                    const FixpipeParamsV220& p, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::fixpipe_gm<DstT, SrcT, config>(dstGlobal, srcLocal, p, nullptr, loc);
}

namespace cube_detail {
// FixpipeParams<T> as dav_c220's FixpipeInfoParams reads it (whatever the destination): M =
// burstLen x 32 B / 4 B / 16 rows, N = cburstNum x 16 (originalNSize with NZ2ND), the source gap
// in 256-element fractals plus the burst (M rounded to 16 rows), the destination gap in 32-byte
// blocks plus the burst (NZ) or the row length in elements (NZ2ND); the quantisation scalar only
// for the scalar modes.
template <typename DstT, typename S>
inline FixpipeParamsV220 from_fixpipe_params(const FixpipeParams<S>& q) {
    const uint16_t m = uint16_t(uint32_t(q.burstLen) * 32 / 4 / 16);
    FixpipeParamsV220 p;
    p.mSize = m;
    p.nSize = q.nz2ndParams.nz2ndEn ? q.nz2ndParams.originalNSize : uint16_t(q.cburstNum * 16);
    p.srcStride = uint16_t(q.srcStride * 16 + (m + 15) / 16 * 16);
    p.dstStride = q.nz2ndParams.nz2ndEn ? q.dstStride : q.dstStride + uint32_t(q.burstLen) * sizeof(DstT) / 4;
    p.quantPre = q.quantParams.quantPre;
    if (p.quantPre == QuantMode_t::DEQF16 || p.quantPre == QuantMode_t::QF322B8_PRE || p.quantPre == QuantMode_t::REQ8) {
        p.deqScalar = q.quantParams.deqScalar;
    }
    p.reluEn = q.reluEn;
    p.ndNum = q.nz2ndParams.ndNum;
    p.srcNdStride = q.nz2ndParams.srcNdStride;
    p.dstNdStride = q.nz2ndParams.dstNdStride;
    p.unitFlag = q.unitFlag;
    return p;
}
}  // namespace cube_detail

template <typename DstT, typename SrcT, typename S>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal, const FixpipeParams<S>& q,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<SrcT, S>::value, "Fixpipe: FixpipeParams<T> takes the CO1 tensor's type");
    const FixpipeParamsV220 p = cube_detail::from_fixpipe_params<DstT>(q);
    if (q.nz2ndParams.nz2ndEn) {
        cube_detail::fixpipe_gm<DstT, SrcT, CFG_ROW_MAJOR>(dstGlobal, srcLocal, p, nullptr, loc);
    } else {
        cube_detail::fixpipe_gm<DstT, SrcT, CFG_NZ>(dstGlobal, srcLocal, p, nullptr, loc);
    }
}

namespace cube_detail {
// The per-channel values of the cbufWorkspace overloads: nSize uint64_t in L1, all loaded.
inline void check_workspace(const LocalTensor<uint64_t>& w, uint16_t nSize, const char* op, opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    const uint64_t cols = uint64_t(nSize) * sizeof(uint64_t);
    CubeArena& a = cube_operand(w, 1u << CUBE_L1, cols, 32, op, "cbufWorkspace (L1)", loc);
    if (!cube_defined(a, w.ptr_, cols)) {
        fail(loc, format("%s: the cbufWorkspace's %u per-channel quantisation values were not all loaded into L1", op,
                         nSize));
    }
}
}  // namespace cube_detail

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                    const FixpipeParamsV220& p, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::fixpipe_l1<DstT, SrcT, config>(dstLocal, srcLocal, p, nullptr, loc);
}

// The per-channel modes (VDEQF16, VQF322B8_PRE, VREQ8): each column's value from cbufWorkspace
// (nSize uint64_t values in L1, each read as deqScalar is), which CANN moves into the fixpipe
// buffer on the way.
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<BufT>& cbufWorkspace, const FixpipeParamsV220& p,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::check_workspace(cbufWorkspace, p.nSize, "Fixpipe CO1->GM", loc);
    cube_detail::fixpipe_gm<DstT, SrcT, config>(dstGlobal, srcLocal, p, cbufWorkspace.ptr_, loc);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT = uint64_t,
          typename std::enable_if<std::is_same<BufT, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<BufT>& cbufWorkspace, const FixpipeParamsV220& p,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    cube_detail::check_workspace(cbufWorkspace, p.nSize, "Fixpipe CO1->L1", loc);
    cube_detail::fixpipe_l1<DstT, SrcT, config>(dstLocal, srcLocal, p, cbufWorkspace.ptr_, loc);
}

// The FixpipeParams<T> form into L1 (NZ: CANN refuses NZ2ND for an L1 destination, as the V220
// form's CFG_ROW_MAJOR), and both destinations with a cbufWorkspace of per-channel values.
template <typename DstT, typename SrcT, typename S>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal, const FixpipeParams<S>& q,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<SrcT, S>::value, "Fixpipe: FixpipeParams<T> takes the CO1 tensor's type");
    if (q.nz2ndParams.nz2ndEn) {
        opkg_sim::fail(loc, "Fixpipe CO1->L1 with FixpipeParams<T>: nz2ndParams.nz2ndEn is set, but an L1 "
                            "destination takes the NZ layout only");
    }
    cube_detail::fixpipe_l1<DstT, SrcT, CFG_NZ>(dstLocal, srcLocal, cube_detail::from_fixpipe_params<DstT>(q), nullptr,
                                                loc);
}
template <typename DstT, typename SrcT, typename S>
inline void Fixpipe(const GlobalTensor<DstT>& dstGlobal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<uint64_t>& cbufWorkspace, const FixpipeParams<S>& q,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<SrcT, S>::value, "Fixpipe: FixpipeParams<T> takes the CO1 tensor's type");
    const FixpipeParamsV220 p = cube_detail::from_fixpipe_params<DstT>(q);
    cube_detail::check_workspace(cbufWorkspace, p.nSize, "Fixpipe CO1->GM", loc);
    if (q.nz2ndParams.nz2ndEn) {
        cube_detail::fixpipe_gm<DstT, SrcT, CFG_ROW_MAJOR>(dstGlobal, srcLocal, p, cbufWorkspace.ptr_, loc);
    } else {
        cube_detail::fixpipe_gm<DstT, SrcT, CFG_NZ>(dstGlobal, srcLocal, p, cbufWorkspace.ptr_, loc);
    }
}
template <typename DstT, typename SrcT, typename S>
inline void Fixpipe(const LocalTensor<DstT>& dstLocal, const LocalTensor<SrcT>& srcLocal,
                    const LocalTensor<uint64_t>& cbufWorkspace, const FixpipeParams<S>& q,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    static_assert(std::is_same<SrcT, S>::value, "Fixpipe: FixpipeParams<T> takes the CO1 tensor's type");
    if (q.nz2ndParams.nz2ndEn) {
        opkg_sim::fail(loc, "Fixpipe CO1->L1 with FixpipeParams<T>: nz2ndParams.nz2ndEn is set, but an L1 "
                            "destination takes the NZ layout only");
    }
    const FixpipeParamsV220 p = cube_detail::from_fixpipe_params<DstT>(q);
    cube_detail::check_workspace(cbufWorkspace, p.nSize, "Fixpipe CO1->L1", loc);
    cube_detail::fixpipe_l1<DstT, SrcT, CFG_NZ>(dstLocal, srcLocal, p, cbufWorkspace.ptr_, loc);
}

// QUANT_PRE_ADDR, the per-channel quantisation values DataCopy CO1 -> GM reads in the modes
// VDEQF16, VQF322B8_PRE and VREQ8: a uint64_t tensor in the fixpipe buffer (C2PIPE2GM), filled by
// DataCopy from L1. reluPre is reserved (an empty tensor); isUnitFlag clears L0C's unit flags,
// which the sim does not model (nothing to clear).
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                             opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    static_assert(std::is_same<T, uint64_t>::value, "SetFixPipeConfig takes uint64_t tensors");
    (void)reluPre;
    (void)isUnitFlag;
    cube_operand(quantPre, 1u << CUBE_FB, 0, 128, "SetFixPipeConfig", "quantPre (C2PIPE2GM)", loc);
    FixpipeRegs& r = cube_mem().fixpipe;
    r.quant_tensor = quantPre.ptr_;
    r.quant_count = quantPre.size_;
}
// One tensor: the quantisation tensor (setRelu must be false, as in CANN), or with isUnitFlag
// a CO1 tensor whose unit flags are cleared.
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preTensor, bool isUnitFlag = false,
                             opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    static_assert(std::is_same<T, uint64_t>::value, "SetFixPipeConfig takes uint64_t tensors");
    static_assert(!setRelu, "SetFixPipeConfig: only the quantisation tensor can be set (setRelu = false)");
    int which = -1;
    if (isUnitFlag && cube_arena_of(preTensor.ptr_, &which) && which == CUBE_L0C) {
        note(loc);
        return;
    }
    SetFixPipeConfig<T>(LocalTensor<T>(), preTensor, isUnitFlag, loc);
}

// The registers of DataCopy CO1 -> GM: NZ2ND's matrix count and strides (srcNdStride in 1024 B,
// dstNdStride in elements; documented ranges), and the scalar quantisation value.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride,
                                opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    using namespace opkg_sim;
    const char* op = "SetFixpipeNz2ndFlag";
    note(loc);
    range_check(ndNum, 1, 65535, "ndNum", op, loc);
    // the strides step between the ndNum matrices: one matrix uses neither (ops-nn's gemm_v3
    // sets (1, 0, 0); dav_c220 writes the register unchecked but srcNdStride <= 512)
    if (ndNum > 1) range_check(srcNdStride, 1, 512, "srcNdStride", op, loc);
    if (ndNum > 1) range_check(dstNdStride, 1, 65535, "dstNdStride", op, loc);
    FixpipeRegs& r = cube_mem().fixpipe;
    r.nz2nd_set = true;
    r.nd_num = ndNum;
    r.src_nd_stride = srcNdStride;
    r.dst_nd_stride = dstNdStride;
}

// The order the cube produces C's fractals in (M direction first or N first): a schedule, which
// changes no value the sim's Mmad computes. SetMMLayoutTransform(true) is SetMMRowMajor().
inline void SetMMRowMajor() {}
inline void SetMMColumnMajor() {}
inline void SetMMLayoutTransform(bool mmLayoutMode) { (void)mmLayoutMode; }

inline void SetFixpipePreQuantFlag(uint64_t config, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::note(loc);
    opkg_sim::FixpipeRegs& r = opkg_sim::cube_mem().fixpipe;
    r.pre_quant_set = true;
    r.pre_quant = config;
}

constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;   // kernel_utils_constants.h

struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() {}
    DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                          const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                          const bool channelSplitIn, const bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

namespace cube_detail {
// DataCopyCO12DstParams read as the fixpipe moves it (both destinations): the checks of the
// documented ranges, the scalar from SetFixpipePreQuantFlag or the per-channel values from
// SetFixPipeConfig's tensor (`chan`), and NZ2ND's matrices from SetFixpipeNz2ndFlag.
inline FixpipeParamsV220 co1_params(const DataCopyCO12DstParams& p, const uint64_t*& chan, const char* op,
                                    opkg_sim::SrcLoc loc) {
    using namespace opkg_sim;
    const uint32_t unit = p.channelSplit ? 8 : 16;
    if (p.nSize % unit != 0 || p.nSize > 4095) {
        fail(loc, format("%s: nSize %u must be a multiple of %u in [0, 4095]", op, p.nSize, unit));
    }
    if (p.clipReluPre || p.eltWiseOp) {
        fail(loc, format("%s: clipReluPre and eltWiseOp exist on Atlas 200I/500 A2 only, not on this SoC", op));
    }
    range_check(p.reluPre, 0, 1, "reluPre", op, loc);
    const FixpipeRegs& r = cube_mem().fixpipe;
    FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre == 1);
    f.quantPre = p.quantPre;
    f.isChannelSplit = p.channelSplit;
    chan = nullptr;
    if (p.quantPre == QuantMode_t::DEQF16 || p.quantPre == QuantMode_t::REQ8 || p.quantPre == QuantMode_t::QF322B8_PRE) {
        if (!r.pre_quant_set) {
            fail(loc, format("%s: quantPre %s takes its value from SetFixpipePreQuantFlag, which no call set", op,
                             quant_name(p.quantPre)));
        }
        f.deqScalar = r.pre_quant;
    } else if (quant_per_channel(p.quantPre)) {
        if (!r.quant_tensor) {
            fail(loc, format("%s: quantPre %s takes a value per channel from the fixpipe buffer: no SetFixPipeConfig "
                             "set the quantisation tensor", op, quant_name(p.quantPre)));
        }
        if (r.quant_count < p.nSize) {
            fail(loc, format("%s: nSize %u channels, but the tensor SetFixPipeConfig set holds %llu values", op,
                             p.nSize, (unsigned long long)r.quant_count));
        }
        CubeArena* fb = cube_arena_of(r.quant_tensor);
        if (!fb || !cube_defined(*fb, r.quant_tensor, uint64_t(p.nSize) * sizeof(uint64_t))) {
            fail(loc, format("%s: the %u per-channel quantisation values in the fixpipe buffer were not all moved "
                             "there (DataCopy L1 -> C2PIPE2GM)", op, p.nSize));
        }
        chan = r.quant_tensor;
    }
    if (p.nz2ndEn) {
        if (!r.nz2nd_set) fail(loc, format("%s: nz2ndEn without a SetFixpipeNz2ndFlag before it", op));
        f.ndNum = r.nd_num;
        f.srcNdStride = r.src_nd_stride;
        f.dstNdStride = r.dst_nd_stride;
    }
    return f;
}
}  // namespace cube_detail

// CO1 -> GM through the registers: Fixpipe's move (NZ2ND with SetFixpipeNz2ndFlag's matrices when
// nz2ndEn, else NZ with dstStride in 32 B), the scale of a scalar quantisation from
// SetFixpipePreQuantFlag, reluPre 1 a ReLU. nSize or mSize 0 moves nothing.
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<U>& srcLocal, const DataCopyCO12DstParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::note(loc);
    if (p.nSize == 0 || p.mSize == 0) return;
    const uint64_t* chan = nullptr;
    const FixpipeParamsV220 f = cube_detail::co1_params(p, chan, "DataCopy CO1->GM", loc);
    if (p.nz2ndEn) {
        cube_detail::fixpipe_gm<T, U, CFG_ROW_MAJOR>(dstGlobal, srcLocal, f, chan, loc);
    } else {
        cube_detail::fixpipe_gm<T, U, CFG_NZ>(dstGlobal, srcLocal, f, chan, loc);
    }
}

// CO1 -> L1 (asc-devkit's DataCopy(LocalTensor, LocalTensor, DataCopyCO12DstParams), ops-nn's
// flat_quant: C cast to half into L1 for the next product): the same registers and conversions,
// the destination NZ with dstStride in 32 B. On Atlas A2/A3 an L1 destination takes NZ only
// (nz2ndEn is the Ascend 950's: an error) and channelSplit has no effect there (the documentation
// asks for false: a warning).
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const DataCopyCO12DstParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const char* op = "DataCopy CO1->L1";
    opkg_sim::note(loc);
    if (p.nz2ndEn) {
        opkg_sim::fail(loc, opkg_sim::format("%s: nz2ndEn is set, but an L1 destination takes the NZ layout only on "
                                             "this SoC (NZ2ND into L1 is the Ascend 950's)", op));
    }
    if (p.nSize == 0 || p.mSize == 0) return;
    DataCopyCO12DstParams q = p;
    if (q.channelSplit) {
        opkg_sim::cube_warn(loc, opkg_sim::format("%s: channelSplit has no effect on this path on Atlas A2/A3 (the "
                                        "documentation asks for false); moved as without it", op));
        q.channelSplit = false;
    }
    const uint64_t* chan = nullptr;
    const FixpipeParamsV220 f = cube_detail::co1_params(q, chan, op, loc);
    cube_detail::fixpipe_l1<T, U, CFG_NZ>(dstLocal, srcLocal, f, chan, loc);
}
#endif

}  // namespace AscendC
#endif
