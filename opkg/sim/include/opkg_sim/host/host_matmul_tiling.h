// Host side of the high-level Matmul: namespace matmul_tiling with CANN 8.1's enums and the
// MatmulApiTiling / MultiCoreMatmulTiling classes (lib/matmul/matmul_tiling.h, bmm_tiling.h), whose
// GetTiling fills a TCubeTiling. The split is the sim's own (CANN's search is not public): base
// blocks of at most 128 x 128 (or SetFixSplit's), baseK filling half of L0A/L0B so that both
// double-buffer, the CO1 block inside L0C, two L1 buffers per operand when they fit; the cores of
// SetDim split M and N so that the most cores get work. The kernel side (hl_matmul.h) computes
// from the shapes alone, so any valid split gives the same result; what a split changes is which
// block computes what (singleCoreM/N) and whether the buffers fit, which GetTiling checks.
#ifndef OPKG_SIM_HOST_MATMUL_TILING_H
#define OPKG_SIM_HOST_MATMUL_TILING_H

#include <algorithm>
#include <numeric>
#include "lib/matmul/matmul_tilingdata.h"   // TCubeTiling, in both modes
#ifndef OPKG_SIM_KERNEL
#include <cstdint>
#include <cstdio>
#include "tiling/platform/platform_ascendc.h"
#include "platform/platform_info.h"
#include "opkg_sim/host/plain_tiling.h"

namespace matmul_tiling {

enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_BFLOAT16 = 33,
    // the 8- and 4-bit floats of later releases (asc-devkit's matmul_tiling_base.h): named, never tiled here
    DT_HIFLOAT8 = 34, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36, DT_FLOAT4_E2M1 = 37, DT_FLOAT8_E8M0 = 38,
    DT_FLOAT4_E1M2 = 39, DT_MAX = 40,
};

enum class TPosition : int32_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1 };

// The buffers a filled tiling asks of UB, L1 and L0C (MatmulGetTmpBufSize and its kin).
struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};

struct MatmulConfigParams {
    int32_t mmConfigType;   // 0 NORM, 1 MDL
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

inline int32_t DataTypeBytes(DataType t) {
    switch (t) {
        case DataType::DT_FLOAT: case DataType::DT_INT32: case DataType::DT_UINT32: return 4;
        case DataType::DT_FLOAT16: case DataType::DT_BF16: case DataType::DT_BFLOAT16: case DataType::DT_INT16:
        case DataType::DT_UINT16: return 2;
        case DataType::DT_INT8: case DataType::DT_UINT8: return 1;
        default: return 0;
    }
}

// The buffer sizes a tiling may be given instead of a platform (asc-devkit's
// include/adv_api/matmul/matmul_tiling_base.h; ops-nn's quant_batch_matmul_v3 makes one from its
// compile info for its fallback tiling). The SoC version is kept; the sizes bound the tiling as
// a platform's do; the core count is one (CANN's takes none from it either).
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

class MatmulApiTilingBase {
public:
    // Without a platform CANN's tiling asks for the SoC the process runs on; the sim's is the one
    // of the tiling call under way (fe::PlatformInfoManager's current platform), if any.
    MatmulApiTilingBase() {
        fe::PlatFormInfos infos;
        fe::OptionalInfos opt;
        if (fe::PlatformInfoManager::Instance().GetPlatformInfoWithOutSocVersion(infos, opt) == 0) {
            FromPlatform(platform_ascendc::PlatformAscendC(&infos));
        }
    }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform) { FromPlatform(platform); }
    explicit MatmulApiTilingBase(const PlatformInfo& platform) {
        socVersion_ = platform.socVersion;
        l1_ = platform.l1Size;
        l0c_ = platform.l0CSize;
        ub_ = platform.ubSize;
        l0a_ = platform.l0ASize;
        l0b_ = platform.l0BSize;
        hasPlatform_ = true;
    }
private:
    void FromPlatform(const platform_ascendc::PlatformAscendC& platform) {
        cores_ = platform.GetCoreNumAic();
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c_);
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub_);
        hasPlatform_ = true;
    }

public:
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        return SetType(a_, pos, type, dataType, isTrans);
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        return SetType(b_, pos, type, dataType, isTrans);
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) { return SetType(c_, pos, type, dataType, false); }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        return SetType(bias_, pos, type, dataType, false);
    }
    int32_t SetDequantType(DequantType dequantType) {
        deqType_ = dequantType;
        return 0;
    }
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        m_ = m;
        n_ = n;
        k_ = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) { return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn); }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
        orgM_ = orgMIn;
        orgN_ = orgNIn;
        orgKa_ = orgKaIn;
        orgKb_ = orgKbIn;
        return 0;
    }
    // The batched layouts (BSNGD and kin) and the batch count land in the tiling as given; the
    // kernel's IterateBatch reads the batch counts, the sim's check that they agree is GetTiling's.
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return SetLayout(aLayout_, b, s, n, g, d); }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return SetLayout(bLayout_, b, s, n, g, d); }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) {
        return SetLayout(cLayout_, b, s1, n, g, s2);
    }
    int32_t SetBatchNum(int32_t batch) {
        batchNum_ = batch;
        return 0;
    }
    // The NORMAL layout (BMNK): A is batchA x m x k, B batchB x k x n, C max(batchA, batchB) x m x n.
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0) return -1;
        const int32_t batch = batchA > batchB ? batchA : batchB;
        SetLayout(aLayout_, batchA, m, 1, 1, k);
        SetLayout(bLayout_, batchB, n, 1, 1, k);
        SetLayout(cLayout_, batch, m, 1, 1, n);
        batchNum_ = batch;
        SetShape(m, n, k);
        return SetOrgShape(m, n, k);
    }
    int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
    int32_t SetBias(bool isBiasIn = false) {
        isBias_ = isBiasIn;
        return 0;
    }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        fixM_ = baseMIn;
        fixN_ = baseNIn;
        fixK_ = baseKIn;
        return 0;
    }
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        (void)btSize;
        if (l1Size > 0) l1Limit_ = uint64_t(l1Size);
        if (l0CSize > 0) l0cLimit_ = uint64_t(l0CSize);
        if (ubSize > 0) ubLimit_ = uint64_t(ubSize);
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) {
        traverse_ = traverse;
        return 0;
    }
    // HF32 changes how the cube rounds float inputs (the kernel's SetHF32), not the split.
    int32_t SetMadType(MatrixMadType madType) {
        madType_ = madType;
        return 0;
    }
    // base block bounds: GetTiling keeps baseM/N/K within [min, max] (-1: free)
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1) {
        maxBase_[0] = maxBaseM;
        maxBase_[1] = maxBaseN;
        maxBase_[2] = maxBaseK;
        minBase_[0] = minBaseM;
        minBase_[1] = minBaseN;
        minBase_[2] = minBaseK;
        return 0;
    }
    // false for A (B): one L1 buffer for it (depthA1/depthB1 1); c: two L0C blocks (dbL0C 2) when they fit
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
        (void)bias;
        (void)transND2NZ;
        (void)transNZ2ND;
        dbA_ = a;
        dbB_ = b;
        dbC_ = c;
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn, traverseIn,
                                                 enVecND2NZIn));
    }
    void SetMatmulConfigParams(const MatmulConfigParams& configParams) {
        config_ = configParams;
        if (configParams.traverse != MatrixTraverse::NOSET) traverse_ = configParams.traverse;
    }
    // sparse A (4:2, MmadWithSparse) exists for int8 only: GetTiling checks the types
    int32_t SetSparse(bool isSparseIn = false) {
        sparse_ = isSparseIn;
        return 0;
    }
    int32_t GetBaseM() const { return baseM_; }
    int32_t GetBaseN() const { return baseN_; }
    int32_t GetBaseK() const { return baseK_; }

    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) = 0;
    // CANN's plain struct: the same fields, filled through the class's C layout.
    int64_t GetTiling(::TCubeTiling& tiling) {
        optiling::TCubeTiling t;
        const int64_t r = GetTiling(t);
        if (r == 0) t.SaveToBuffer(&tiling, sizeof tiling);
        return r;
    }

protected:
    struct TypeInfo {
        bool set = false;
        TPosition pos = TPosition::GM;
        CubeFormat format = CubeFormat::ND;
        DataType dtype = DataType::DT_UNDEFINED;
        bool trans = false;
    };
    static int32_t SetType(TypeInfo& t, TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
        t = TypeInfo{true, pos, type, dataType, isTrans};
        return 0;
    }
    static int32_t SetLayout(int32_t* l, int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        l[0] = b;
        l[1] = s;
        l[2] = n;
        l[3] = g;
        l[4] = d;
        return 0;
    }
    // v within the SetSplitRange bounds of dimension i, kept a multiple of `unit`
    int32_t Bound(int32_t v, int i, int32_t unit) const {
        if (maxBase_[i] > 0 && v > maxBase_[i]) v = maxBase_[i] / unit * unit;
        if (minBase_[i] > 0 && v < minBase_[i]) v = Align(minBase_[i], unit);
        return v;
    }
    static int32_t Align(int32_t v, int32_t a) { return (v + a - 1) / a * a; }
    static int32_t CeilDiv(int32_t v, int32_t a) { return (v + a - 1) / a; }
    int64_t Fail(const char* why) const {
        std::fprintf(stderr, "matmul_tiling::GetTiling: %s\n", why);
        return -1;
    }

    // Base blocks and buffers for one core's singleM x singleN x singleK; fills the tiling.
    int64_t Fill(optiling::TCubeTiling& t, int32_t singleM, int32_t singleN, int32_t singleK, int32_t used) {
        if (!hasPlatform_) return Fail("constructed without a PlatformAscendC: the sim needs the SoC's buffer sizes");
        if (!a_.set || !b_.set || !c_.set) return Fail("SetAType, SetBType and SetCType must all be called first");
        if (isBias_ && !bias_.set) return Fail("SetBias(true) needs SetBiasType");
        if (m_ <= 0 || n_ <= 0 || k_ <= 0) return Fail("SetShape(m, n, k) needs positive sizes");
        const int32_t sa = DataTypeBytes(a_.dtype), sb = DataTypeBytes(b_.dtype);
        if (sa == 0 || sb == 0) return Fail("A and B must be float16, bfloat16, int8 or float");
        if (sparse_ && (a_.dtype != DataType::DT_INT8 || b_.dtype != DataType::DT_INT8)) {
            return Fail("SetSparse(true) needs int8 A and B (the cube's sparse Mmad is int8 only)");
        }
        for (int i = 0; i < 3; ++i) {
            if (maxBase_[i] > 0 && minBase_[i] > maxBase_[i]) return Fail("SetSplitRange: a minimum above its maximum");
        }
        const int32_t c0 = 32 / sa;
        baseM_ = fixM_ > 0 ? fixM_ : Bound(Align(singleM, 16) < 128 ? Align(singleM, 16) : 128, 0, 16);
        baseN_ = fixN_ > 0 ? fixN_ : Bound(Align(singleN, 16) < 128 ? Align(singleN, 16) : 128, 1, 16);
        if (fixK_ > 0) {
            baseK_ = fixK_;
        } else {
            const int64_t byA = int64_t(l0a_) / 2 / (int64_t(baseM_) * sa), byB = int64_t(l0b_) / 2 / (int64_t(baseN_) * sb);
            int64_t k = byA < byB ? byA : byB;
            k = k / c0 * c0;
            baseK_ = Bound(int32_t(k < Align(singleK, c0) ? k : Align(singleK, c0)), 2, c0);
        }
        if (baseM_ <= 0 || baseN_ <= 0 || baseK_ <= 0 || baseM_ % 16 || baseN_ % 16 || baseK_ % c0) {
            return Fail("base block sizes must be positive multiples of 16 (baseK: of 32 bytes of A)");
        }
        if (uint64_t(baseM_) * baseK_ * sa > l0a_ || uint64_t(baseK_) * baseN_ * sb > l0b_) {
            return Fail("the base block does not fit L0A/L0B");
        }
        const uint64_t l0c = l0cLimit_ ? l0cLimit_ : l0c_;
        if (uint64_t(baseM_) * baseN_ * 4 > l0c) return Fail("baseM x baseN x 4 bytes does not fit L0C");
        const uint64_t l1 = l1Limit_ ? l1Limit_ : l1_;
        const uint64_t oneA = uint64_t(baseM_) * baseK_ * sa, oneB = uint64_t(baseK_) * baseN_ * sb;
        const uint64_t biasBytes = isBias_ ? uint64_t(baseN_) * 4 : 0;
        const int32_t depthA = dbA_ && 2 * oneA + (dbB_ ? 2 : 1) * oneB + biasBytes <= l1 ? 2 : 1;
        const int32_t depthB = dbB_ && depthA * oneA + 2 * oneB + biasBytes <= l1 ? 2 : 1;
        if (oneA + oneB + biasBytes > l1) return Fail("one A and one B base block do not fit L1");
        const int32_t dbC = dbC_ && uint64_t(baseM_) * baseN_ * 4 * 2 <= l0c ? 2 : 1;
        const int32_t batches[3] = {aLayout_[0], bLayout_[0], cLayout_[0]};
        for (int32_t bt : batches) {
            if (batchNum_ > 0 && bt > 0 && bt > batchNum_) {
                return Fail("a layout's batch (SetALayout/SetBLayout/SetCLayout) exceeds SetBatchNum's");
            }
        }
        t.set_usedCoreNum(used);
        t.set_M(orgM_ > 0 ? orgM_ : m_);
        t.set_N(orgN_ > 0 ? orgN_ : n_);
        t.set_Ka(orgKa_ > 0 ? orgKa_ : k_);
        t.set_Kb(orgKb_ > 0 ? orgKb_ : k_);
        t.set_singleCoreM(singleM);
        t.set_singleCoreN(singleN);
        t.set_singleCoreK(singleK);
        t.set_baseM(baseM_);
        t.set_baseN(baseN_);
        t.set_baseK(baseK_);
        t.set_depthA1(depthA);
        t.set_depthB1(depthB);
        t.set_stepM(1);
        t.set_stepN(1);
        t.set_stepKa(1);
        t.set_stepKb(1);
        t.set_isBias(isBias_ ? 1 : 0);
        t.set_transLength(0);
        t.set_iterateOrder(traverse_ == MatrixTraverse::FIRSTN ? 1 : 0);
        t.set_shareMode(0);
        t.set_shareL1Size(int32_t(depthA * oneA + depthB * oneB + biasBytes));
        t.set_shareL0CSize(baseM_ * baseN_ * 4);
        t.set_shareUbSize(0);
        t.set_batchM(1);
        t.set_batchN(1);
        t.set_singleBatchM(1);
        t.set_singleBatchN(1);
        t.set_depthAL1CacheUB(0);
        t.set_depthBL1CacheUB(0);
        t.set_dbL0A(2);
        t.set_dbL0B(2);
        t.set_dbL0C(dbC);
        t.set_shareL0CSize(baseM_ * baseN_ * 4 * dbC);
        t.set_ALayoutInfoB(aLayout_[0]);
        t.set_ALayoutInfoS(aLayout_[1]);
        t.set_ALayoutInfoN(aLayout_[2]);
        t.set_ALayoutInfoG(aLayout_[3]);
        t.set_ALayoutInfoD(aLayout_[4]);
        t.set_BLayoutInfoB(bLayout_[0]);
        t.set_BLayoutInfoS(bLayout_[1]);
        t.set_BLayoutInfoN(bLayout_[2]);
        t.set_BLayoutInfoG(bLayout_[3]);
        t.set_BLayoutInfoD(bLayout_[4]);
        t.set_CLayoutInfoB(cLayout_[0]);
        t.set_CLayoutInfoS1(cLayout_[1]);
        t.set_CLayoutInfoN(cLayout_[2]);
        t.set_CLayoutInfoG(cLayout_[3]);
        t.set_CLayoutInfoS2(cLayout_[4]);
        t.set_BatchNum(batchNum_ > 0 ? batchNum_ : 1);
        return 0;
    }

    TypeInfo a_, b_, c_, bias_;
    int32_t m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t baseM_ = 0, baseN_ = 0, baseK_ = 0;
    bool isBias_ = false;
    int32_t aLayout_[5] = {}, bLayout_[5] = {}, cLayout_[5] = {}, batchNum_ = 0;
    int32_t maxBase_[3] = {-1, -1, -1}, minBase_[3] = {-1, -1, -1};
    bool dbA_ = true, dbB_ = true, dbC_ = false, sparse_ = false;
    DequantType deqType_ = DequantType::SCALAR;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    MatmulConfigParams config_;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    uint32_t cores_ = 1;
    uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0;
    platform_ascendc::SocVersion socVersion_{};   // PlatformInfo's (held; the sim's tiling does not branch on it)
    uint64_t l1Limit_ = 0, l0cLimit_ = 0, ubLimit_ = 0;
    bool hasPlatform_ = false;
};

// One core computes the whole SetShape.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::GetTiling;
    MatmulApiTiling() = default;
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& platform) : MatmulApiTilingBase(platform) {}
    explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return Fill(tiling, m_, n_, k_, 1); }
};

// SetDim(dim) cores split M and N (never K); SetSingleShape fixes one core's share instead.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::GetTiling;
    MultiCoreMatmulTiling() = default;
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& platform) : MatmulApiTilingBase(platform) {}
    explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
    int32_t SetDim(int32_t dim) {
        dim_ = dim;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) override { return MatmulApiTilingBase::SetShape(m, n, k); }
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        singleM_ = singleMIn;
        singleN_ = singleNIn;
        singleK_ = singleKIn;
        return 0;
    }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
        shapeM = chosenM_;
        shapeN = chosenN_;
        shapeK = k_;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
        dim = mDim_ * nDim_;
        mDim = mDim_;
        nDim = nDim_;
        return 0;
    }
    // singleCoreM / singleCoreN a multiple of alignM / alignN (-1 or 0: free); K is never split
    // over cores here, so alignK has nothing to align
    int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
        (void)alignK;
        alignM_ = alignM > 0 ? alignM : 1;
        alignN_ = alignN > 0 ? alignN : 1;
        return 0;
    }
    // one core's share within [min, max] in M and N (-1: free); K is not split over cores here
    virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                                   int32_t minN = -1, int32_t minK = -1) {
        (void)maxK;
        (void)minK;
        maxSingle_[0] = maxM;
        maxSingle_[1] = maxN;
        minSingle_[0] = minM;
        minSingle_[1] = minN;
        return 0;
    }
    // CANN may then split K over cores (each core's C added atomically); the sim's split never
    // does, which every kernel written for a split K also runs correctly
    void EnableMultiCoreSplitK(bool flag) { splitK_ = flag; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override {
        if (m_ <= 0 || n_ <= 0 || k_ <= 0) return Fail("SetShape(m, n, k) needs positive sizes");
        int32_t dim = dim_ > 0 ? dim_ : int32_t(cores_);
        if (singleM_ > 0 || singleN_ > 0) {
            chosenM_ = singleM_ > 0 ? singleM_ : m_;
            chosenN_ = singleN_ > 0 ? singleN_ : n_;
            mDim_ = CeilDiv(m_, chosenM_);
            nDim_ = CeilDiv(n_, chosenN_);
        } else {
            // the split that gives the most cores work, then the smallest and squarest share; with
            // SetSingleRange's bounds a split may need more shares than cores: the last resort
            int64_t best[3] = {INT64_MIN, 0, 0};
            for (int32_t md = 1; md <= dim; ++md) {
                const int32_t nd = dim / md;
                const int32_t sm = Ranged(Align(CeilDiv(m_, md), std::lcm(16, alignM_)), 0, std::lcm(16, alignM_));
                const int32_t sn = Ranged(Align(CeilDiv(n_, nd), std::lcm(16, alignN_)), 1, std::lcm(16, alignN_));
                const int32_t used = CeilDiv(m_, sm) * CeilDiv(n_, sn);
                const int64_t key[3] = {used <= dim ? used : -int64_t(used), -int64_t(sm) * sn, -int64_t(sm + sn)};
                if (std::lexicographical_compare(best, best + 3, key, key + 3)) {
                    std::copy(key, key + 3, best);
                    chosenM_ = sm < m_ ? sm : m_;
                    chosenN_ = sn < n_ ? sn : n_;
                }
            }
            mDim_ = CeilDiv(m_, chosenM_);
            nDim_ = CeilDiv(n_, chosenN_);
        }
        return Fill(tiling, chosenM_, chosenN_, singleK_ > 0 ? singleK_ : k_, mDim_ * nDim_);
    }

private:
    int32_t Ranged(int32_t v, int i, int32_t unit) const {
        // at most the bound, kept a multiple of the alignment when the bound leaves room for one
        if (maxSingle_[i] > 0 && v > maxSingle_[i]) v = maxSingle_[i] >= unit ? maxSingle_[i] / unit * unit : maxSingle_[i];
        if (minSingle_[i] > 0 && v < minSingle_[i]) v = Align(minSingle_[i], unit);
        return v;
    }
    int32_t maxSingle_[2] = {-1, -1}, minSingle_[2] = {-1, -1};
    bool splitK_ = false;
    int32_t dim_ = 0, singleM_ = -1, singleN_ = -1, singleK_ = -1, alignM_ = 1, alignN_ = 1;
    int32_t chosenM_ = 0, chosenN_ = 0, mDim_ = 1, nDim_ = 1;
};

// BatchMatmulTiling: one core's tiling of a batched product (its SetBatch / SetSingleBatch are
// private in CANN 8.1; SetBatchInfoForNormal or the layouts give the batches).
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::GetTiling;
    BatchMatmulTiling() = default;
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& platform) : MatmulApiTilingBase(platform) {}
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN) {
        dim = mDim = nDim = batchCoreM = batchCoreN = 1;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& tiling) override { return Fill(tiling, m_, n_, k_, 1); }
};

}  // namespace matmul_tiling

// The buffers a filled tiling uses: L1 and L0C as GetTiling sized them, UB for the ND <-> NZ
// transfers (transLength; 0 when A, B and C are in GM). -1 for a tiling GetTiling never filled.
inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    if (tiling.get_baseM() <= 0 || tiling.get_baseN() <= 0 || tiling.get_baseK() <= 0) return -1;
    bufSize.l1Size = tiling.get_shareL1Size();
    bufSize.l0cSize = tiling.get_shareL0CSize();
    bufSize.ubSize = tiling.get_transLength();
    return 0;
}
// The V2 names take CANN's plain ::TCubeTiling.
inline int32_t MatmulGetTmpBufSizeV2(::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    if (tiling.baseM <= 0 || tiling.baseN <= 0 || tiling.baseK <= 0) return -1;
    bufSize.l1Size = tiling.shareL1Size;
    bufSize.l0cSize = tiling.shareL0CSize;
    bufSize.ubSize = tiling.transLength;
    return 0;
}
inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSize(tiling, bufSize);
}
inline int32_t MultiCoreMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSize(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSizeV2(::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
#endif  // OPKG_SIM_KERNEL
#endif
