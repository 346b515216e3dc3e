// The high-level Matmul API (CANN's lib/matmul_intf.h): Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>
// with MatmulType descriptions, REGIST_MATMUL_OBJ, SetTensorA/B (GM in ND or NZ, or an L1
// LocalTensor in NZ; optionally transposed), SetBias, SetOrgShape/SetSingleShape/SetTail, IterateAll to GM, End; batched products
// (IterateBatch, IterateNBatch with GetBatchTensorC), asynchronous blocks (AsyncGetTensorC),
// int8 B dequantised on the way in (SetAntiQuantScalar/Vector), A/B copied from UB to a GM buffer
// (SetTensorAWithCopy/BWithCopy). A functional model: the
// product of the block's singleCoreM x singleCoreK and singleCoreK x singleCoreN is computed as the
// cube computes it (products exact, sums in float, int8 in int32, bias added once) and stored to
// GM; the base-block schedule of TCubeTiling is not replayed (it changes no value).
#ifndef OPKG_SIM_HL_MATMUL_H
#define OPKG_SIM_HL_MATMUL_H

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>
#include "opkg_sim/basic_api/cube/cube.h"
#include "opkg_sim/basic_api/core/pipe.h"
#include "lib/matmul/matmul_tilingdata.h"

// CubeFormat, LayoutMode, MatmulConfig and its constructors (global names, as in CANN)
#include "opkg_sim/adv_api/matmul/matmul_config.h"

namespace AscendC {

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

// A B given 4:2 sparse (asc-devkit's impl/adv_api/detail/matmul/utils/matmul_type_def.h): the
// densified B and, by SetSparseIndex, its index in GM (INDEX_POSITION).
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};

template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};

// The Matmul utilities asc-devkit keeps for MatMulV3 (impl/adv_api/detail/matmul/utils/
// batch_matmul_utils.h), with their 16-bit parameters: larger arguments wrap as on the device.
inline uint16_t CeilDiv(uint16_t num1, uint16_t num2) { return (num1 + num2 - 1) / num2; }
inline uint16_t CeilAlign(uint16_t num1, uint16_t num2) { return CeilDiv(num1, num2) * num2; }

// asc-devkit's Matmul policies (impl/adv_api/detail/matmul/policy/matmul_policy.h), by name:
// schedules of the same product, which the sim's model does not replay.
namespace Impl::Detail {
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulWithScalePolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy : MatmulPolicy<MM_CFG, IMPL, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> {};
}  // namespace Impl::Detail


// Where a base block sits in C (GetOffsetC).
struct MatrixOffset {
    int32_t offset;
    int32_t row, col;
    int32_t height, width;
};

// The AIV side of the KFC channel to the cube (CANN's kfc_comm_client.h): the sim runs the
// Matmul on the calling core, so the client carries nothing.
struct KfcCommClient {};

// TOTAL_VEC_LOCAL_SIZE, the vector UB left to a Matmul's temporary buffer: utils_constants.h

namespace mm_detail {

template <class T> struct Acc { using type = float; };
template <class T> constexpr bool is_int8 = std::is_same<T, int8_t>::value;
template <> struct Acc<int8_t> { using type = int32_t; };

// Reads one GM element as the cube's accumulator type; the caller checked bounds.
template <class T, class A> inline A load(const T* p) { return static_cast<A>(static_cast<float>(*p)); }
template <> inline int32_t load<int8_t, int32_t>(const int8_t* p) { return *p; }

// Every byte of [p, p + n) must hold a value (an input, or an output/workspace a store wrote).
inline void require_defined(const void* p, uint64_t n, const char* what, opkg_sim::SrcLoc loc) {
    const opkg_sim::GmRegion* r = opkg_sim::gm_region(p);
    if (!r || !n) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base);
    uint64_t k = opkg_sim::gm_first_undefined(*r, off, n);
    if (k != n) {
        opkg_sim::fail(loc, opkg_sim::format("Matmul reads %s at byte %llu of '%s', which holds no value "
                                             "(past the tensor, or never written)", what,
                                             (unsigned long long)(off + k), r->name));
    }
}

// The first byte of [p, p + n) that holds no value (n when all do), and its description.
struct Undefined {
    std::string where;              // empty: every byte read held a value
    const opkg_sim::GmRegion* region = nullptr;
    uint64_t at = 0;
};
inline uint64_t first_undefined(const void* p, uint64_t n, const char* what, Undefined* u) {
    const opkg_sim::GmRegion* r = opkg_sim::gm_region(p);
    if (!r || !n) return n;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base);
    uint64_t k = opkg_sim::gm_first_undefined(*r, off, n);
    if (k != n && u->where.empty()) {
        u->where = opkg_sim::format("%s at byte %llu of '%s', which holds no value (past the tensor, or never "
                                    "written)", what, (unsigned long long)(off + k), r->name);
        u->region = r;
        u->at = off + k;
    }
    return k;
}

// Whether a MatmulType is SparseMatmulType's (has an index position), as the devkit's HasSparseIndex.
template <class T, class = void>
struct has_sparse_index : std::false_type {};
template <class T>
struct has_sparse_index<T, std::void_t<decltype(&T::indexPosition)>> : std::true_type {};

// The L1 positions a Matmul input may name (TSCM is L1 on the device, as A1/B1).
constexpr bool in_l1(TPosition p) { return p == TPosition::TSCM || p == TPosition::A1 || p == TPosition::B1; }

// A matrix of `rows` x `cols` stored NZ: columns in groups of C0 = 32 bytes, each group `height`
// rows (the row count rounded up to the 16-row fractal, or the stride a GM NZ tensor was laid
// out with) of C0 elements one after another, so element (r, c) is at
// (c / C0) * height * C0 + r * C0 + c % C0. Read into out as the product's operand: (r, c) at
// r * cols + c, or at c * rows + r when `transposed` (the stored matrix is the operand's
// transpose). `at(offset, &value)` reads one element and says whether it held a value; one that
// did not marks its operand row (`by_col`: column) of the product in `undef`: A's row, B's column.
template <class T, class A, class F>
inline void nz_read(int64_t rows, int64_t cols, int64_t height, bool transposed, A* out, std::vector<uint8_t>& undef,
                    bool by_col, F at) {
    constexpr int64_t c0 = int64_t(32 / sizeof(T));
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            A v;
            const bool defined = at(uint64_t((c / c0) * height * c0 + r * c0 + c % c0), &v);
            const int64_t orow = transposed ? c : r, ocol = transposed ? r : c;   // in the operand
            if (!defined) undef[size_t(by_col ? ocol : orow)] = 1;
            out[size_t(transposed ? c * rows + r : r * cols + c)] = v;
        }
    }
}

// The same from an L1 tensor's start (SetTensorA/B(LocalTensor)): the tensor must hold it.
template <class T, class A>
inline void l1_nz(const LocalTensor<T>& t, int64_t rows, int64_t cols, bool transposed, A* out,
                  std::vector<uint8_t>& undef, const char* op, const char* role, opkg_sim::SrcLoc loc,
                  bool by_col = false) {
    using namespace opkg_sim;
    constexpr int64_t c0 = int64_t(cube_c0<T>());
    const int64_t height = (rows + 15) / 16 * 16;
    const uint64_t bytes = uint64_t((cols + c0 - 1) / c0 * height * c0) * sizeof(T);
    CubeArena& arena = cube_operand(t, 1u << CUBE_L1, bytes, 32, op, role, loc);
    nz_read<T>(rows, cols, height, transposed, out, undef, by_col, [&](uint64_t off, A* v) {
        *v = load<T, A>(t.ptr_ + off);
        return cube_defined(arena, t.ptr_ + off, sizeof(T));
    });
}

// After storing garbage-derived values into the workspace: those GM bytes hold no value.
inline void gm_mark_undefined(const void* p, uint64_t n) {
    const opkg_sim::GmRegion* r = opkg_sim::gm_region(p);
    if (!r || !r->written) return;
    uint64_t off = uint64_t(static_cast<const uint8_t*>(p) - r->base), span = opkg_sim::gm_span(*r);
    for (uint64_t k = 0; k < n && off + k < span; ++k) r->written[off + k] = 0;
}

}  // namespace mm_detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
class Matmul {
public:
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using AccT = typename mm_detail::Acc<SrcAT>::type;
    using CallBack = MM_CB;

    Matmul() = default;
    // CANN's Matmul copies (cann-ops' STFT picks its object with `mm = !isTailN ? mm0 : mm1`): the
    // copy takes the tiling and the state, and its own use must end with its own End.
    Matmul(const Matmul&) = default;
    Matmul& operator=(const Matmul&) = default;
    // Used without End: as a queue tensor left allocated, a warning when the kernel returns (an
    // error with --strict-bounds). On the device the client's KfcCommClient destructor sends the
    // cube server SERVICE_QUIT whether or not each Matmul ended (asc-devkit dav_c220
    // kfc_comm_client.h, kernel_kfc.h), so the server's loop ends all the same. Not on the cube
    // core itself (a KERNEL_TYPE_AIC_ONLY key): there the Matmul is no client of a cube server
    // that End releases (MatMulV3's cube keys never call it).
    ~Matmul() {
        opkg_sim::BlockState& b = opkg_sim::block();
        if (!pending_ || !b.active || b.held.file || b.core == AscendC::AIC) return;
        if (!b.strict_bounds) {
            if (b.warned && !b.warned->first(pendingLoc_)) return;
            opkg_sim::log_line(opkg_sim::format(
                "warning: %s:%d: the kernel returned with a Matmul object used (SetTensorA/B, IterateAll at this "
                "line) but never ended; harmless on the device, where the client's end sends the cube server "
                "its quit, but every Matmul should End() after its last IterateAll (--strict-bounds makes this "
                "an error)", pendingLoc_.file ? pendingLoc_.file : "?", pendingLoc_.line));
            return;
        }
        b.held = pendingLoc_;
        b.held_message = "the kernel returned with a Matmul object used (SetTensorA/B, IterateAll at this line) but "
                         "never ended: call End() after its last IterateAll (--strict-bounds)";
    }

    void Init(const optiling::TCubeTiling* cubeTiling, TPipe* tpipe = nullptr,
              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        opkg_sim::note(loc);
        (void)tpipe;
        if (!cubeTiling) return;   // REGIST_MATMUL_OBJ with a null tiling: Init comes later
        tiling_ = *cubeTiling;
        inited_ = true;
        orgM_ = tiling_.M;
        orgN_ = tiling_.N;
        orgKa_ = tiling_.Ka;
        orgKb_ = tiling_.Kb;
        orgKc_ = 0;
        singleM_ = tiling_.singleCoreM;
        singleN_ = tiling_.singleCoreN;
        singleK_ = tiling_.singleCoreK;
        bias_enabled_ = tiling_.isBias != 0;
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
    // orgKc, when not 0, is C's row stride in GM (else orgN), as CANN's copy out takes it.
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        orgKc_ = orgKc;
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
    }
    void SetSingleShape(int singleM, int singleN, int singleK) {
        singleM_ = singleM;
        singleN_ = singleN;
        singleK_ = singleK;
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) singleM_ = tailM;
        if (tailN > 0) singleN_ = tailN;
        if (tailK > 0) singleK_ = tailK;
    }
    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        static_assert(A_TYPE::pos == TPosition::GM &&
                          (A_TYPE::format == CubeFormat::ND || A_TYPE::format == CubeFormat::NZ),
                      "the sim's Matmul takes A from GM in ND or NZ format only");
        use(loc);
        iter_ = -1;   // a new input restarts Iterate (asc-devkit resets its scheduler)
        a_ = gm;
        a_set_ = true;
        transA_ = isTransposeA || A_TYPE::isTrans;
    }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        static_assert(B_TYPE::pos == TPosition::GM &&
                          (B_TYPE::format == CubeFormat::ND || B_TYPE::format == CubeFormat::NZ),
                      "the sim's Matmul takes B from GM in ND or NZ format only");
        use(loc);
        iter_ = -1;   // a new input restarts Iterate (asc-devkit resets its scheduler)
        b_ = gm;
        b_set_ = true;
        transB_ = isTransposeB || B_TYPE::isTrans;
    }
    // The index of a 4:2 sparse B (SparseMatmulType): for the densified B^T (N rows of K/2 int8
    // values), one byte per four dense values of a row, the first value's 2-bit index in the low
    // bits, stored NZ with 8-byte rows (asc-devkit's CopySparseIdxToCubeFromGM: C0 of 8, the N rows
    // rounded up to 16 per column group); the product then rebuilds B as MmadWithSparse does.
    void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        static_assert(mm_detail::has_sparse_index<B_TYPE>::value,
                      "SetSparseIndex needs B declared as SparseMatmulType (asc-devkit: a sparse B's index)");
        use(loc);
        iter_ = -1;
        index_ = indexGlobal;
        index_set_ = true;
    }
    // A (B) already in L1 (MatmulType position TSCM, or A1/B1): the Matmul reads the tensor from
    // its start, as asc-devkit's FROM_L1 copy stage hands the L1 tensor on without copying
    // (stage/copy_cube_in/base/copy_cube_in_from_l1.h), and the cube's loads from L1 read
    // fractals, so the data is NZ whatever the type's format names (MatMulV3 declares its L1 A
    // with the GM format, ND, and copies it in with an ND-to-NZ DataCopy). The stored matrix is
    // A (singleM x singleK) or B (singleK x singleN), transposed when isTranspose; its NZ height
    // is its row count rounded up to the 16-row fractal (mm_detail::nz_read).
    void SetTensorA(const LocalTensor<SrcAT>& l1, bool isTransposeA = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        static_assert(mm_detail::in_l1(A_TYPE::pos), "a LocalTensor A must be in L1 (MatmulType position TSCM or A1)");
        set_l1(a_l1_, l1, a_from_l1_, a_set_, transA_, isTransposeA || A_TYPE::isTrans, loc);
    }
    void SetTensorB(const LocalTensor<SrcBT>& l1, bool isTransposeB = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        static_assert(mm_detail::in_l1(B_TYPE::pos), "a LocalTensor B must be in L1 (MatmulType position TSCM or B1)");
        set_l1(b_l1_, l1, b_from_l1_, b_set_, transB_, isTransposeB || B_TYPE::isTrans, loc);
    }
    void SetBias(const GlobalTensor<BiasT>& biasGlobal, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        use(loc);
        iter_ = -1;   // a new input restarts Iterate (asc-devkit resets its scheduler)
        bias_ = biasGlobal;
        bias_set_ = true;
        bias_enabled_ = true;
    }
    // Dequantisation on the way out (int8 x int8 -> half): one scale for C, or one per column from
    // n uint64 values in GM, each read as Fixpipe's DEQF16 reads it (cube.h, deq_scale: the float's
    // high 19 bits; the offset bits 37..45 and the sign bit 46 serve the int8 output, which the
    // sim does not model).
    void SetQuantScalar(const uint64_t quantScalar) {
        quant_ = 1;
        quant_scalar_ = quantScalar;
    }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        quant_ = 2;
        quant_vec_ = quantTensor;
    }
    void DisableBias() { bias_enabled_ = false; }
    void ClearBias() { bias_enabled_ = false; }
    void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    template <class T> void SetWorkspace(__gm__ const T* addr, int size) {
        ws_ = reinterpret_cast<__gm__ uint8_t*>(const_cast<T*>(addr));
        (void)size;
    }
    template <class T> void SetWorkspace(GlobalTensor<T>& addr) { ws_ = reinterpret_cast<__gm__ uint8_t*>(addr.ptr_); }
    // HF32: float32 A and B enter the cube with 11 mantissa bits (the low 12 of 23 rounded off),
    // transMode 0 to nearest even, 1 to nearest with ties away from zero (cube_detail::hf32_of, where
    // the rounding is settled); other input types are unaffected. As asc-devkit's MatmulImpl, it
    // sets the cube's HF32 mode and trans mode (SetHF32Mode/SetHF32TransMode), which a later Mmad
    // of the same block sees too.
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
        hf32_ = enableHF32;
        hf32Mode_ = transMode;
        SetHF32Mode(enableHF32);
        SetHF32TransMode(transMode == 1);
    }
    // How many batches' C a MULTI_BATCH-output Matmul keeps in L0C at a time: a schedule; the
    // sim's IterateBatch stores every batch at the call.
    void SetNBatchOutNum(int32_t nBatchOutNumIn) { (void)nBatchOutNumIn; }
    void SetSubBlockIdx(uint8_t idx) { subBlock_ = idx; }
    uint8_t GetSubBlockIdx() { return subBlock_; }

    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        // C declared in GM or in the UB (VECIN/VECCALC/VECOUT: ops-nn's quant_batch_matmul_v3 bf16
        // kernels) is written to the given GM tensor alike: asc-devkit's IterateAll(GlobalTensor)
        // is GetTensorC(gm) per base block whatever C's position (matmul_impl.h).
        static_assert((C_TYPE::pos == TPosition::GM || C_TYPE::pos == TPosition::VECIN ||
                       C_TYPE::pos == TPosition::VECCALC || C_TYPE::pos == TPosition::VECOUT) &&
                          (C_TYPE::format == CubeFormat::ND || C_TYPE::format == CubeFormat::ND_ALIGN ||
                           C_TYPE::format == CubeFormat::NZ),
                      "the sim's Matmul::IterateAll writes C to GM in ND or NZ format only");
        (void)waitIterateAll;
        (void)fakeMsg;
        const char* op = "Matmul::IterateAll";
        use(loc);
        if (enSequentialWrite) opkg_sim::fail(loc, opkg_sim::format("%s: enSequentialWrite is not modelled by the sim", op));
        compute(op, loc);
        if constexpr (C_TYPE::format == CubeFormat::NZ) store_nz(gm, enAtomic, op, loc);
        else store_rows(gm, 0, 0, m_, n_, c_stride(), enAtomic, op, loc);
        async_ = !sync;
    }
    // After IterateAll<false>: on the device C lands in GM while the vector core runs on, and this
    // waits for it; the sim stores C at IterateAll, so what is left is CANN's check that the call
    // was asynchronous.
    void WaitIterateAll(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        opkg_sim::note(loc);
        if (!async_) {
            opkg_sim::fail(loc, "Matmul::WaitIterateAll without an asynchronous IterateAll<false> before it "
                                "(CANN asserts the last IterateAll was not synchronous)");
        }
        async_ = false;
    }

    // One base block (baseM x baseN, shorter at the share's edges) per call, in the order of
    // block_order; false once every block was visited.
    template <bool sync = true>
    bool Iterate(bool enPartialSum = false, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        const char* op = "Matmul::Iterate";
        use(loc);
        if (enPartialSum) opkg_sim::fail(loc, opkg_sim::format("%s: enPartialSum is not modelled by the sim", op));
        if (iter_ < 0) {
            compute(op, loc);
            if (tiling_.baseM <= 0 || tiling_.baseN <= 0) {
                opkg_sim::fail(loc, opkg_sim::format("%s: the TCubeTiling has baseM %d, baseN %d", op, tiling_.baseM,
                                                     tiling_.baseN));
            }
            mIter_ = (m_ + tiling_.baseM - 1) / tiling_.baseM;
            nIter_ = (n_ + tiling_.baseN - 1) / tiling_.baseN;
            block_order();
            wsBlocks_ = 0;
            wsOffset_ = 0;
        }
        ++iter_;
        if (iter_ >= mIter_ * nIter_) {
            iter_ = -1;
            return false;
        }
        curM_ = order_[size_t(iter_)].first;
        curN_ = order_[size_t(iter_)].second;
        return true;
    }

    // The user-managed CO1 form: the next base block (as Iterate) computed into the caller's L0C
    // tensor in CO1's layout (16-column blocks of the block's rows rounded up to 16, cube.h), for
    // the kernel's own Fixpipe; enPartialSum adds it onto what an earlier call left there.
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix,
                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        static_assert(C_TYPE::pos == TPosition::CO1 && C_TYPE::format == CubeFormat::NZ,
                      "Matmul::Iterate(enPartialSum, localCmatrix) needs C declared TPosition::CO1, CubeFormat::NZ");
        static_assert(std::is_same<T, AccT>::value, "Matmul::Iterate: the CO1 tensor holds the accumulator type "
                                                    "(float, or int32_t for int8 inputs)");
        const char* op = "Matmul::Iterate(CO1)";
        if (!Iterate<sync>(false, loc)) return false;
        const int64_t r0 = int64_t(curM_) * tiling_.baseM, c0 = int64_t(curN_) * tiling_.baseN;
        const int64_t bm = m_ - r0 < tiling_.baseM ? m_ - r0 : tiling_.baseM;
        const int64_t bn = n_ - c0 < tiling_.baseN ? n_ - c0 : tiling_.baseN;
        const int64_t mp = (bm + 15) / 16 * 16;
        const uint64_t elems = uint64_t((bn + 15) / 16 - 1) * uint64_t(mp) * 16 + uint64_t(bm) * 16;
        CubeArena& ca = cube_operand(localCmatrix, 1u << CUBE_L0C, elems * sizeof(T), 64, op, "C (CO1)", loc);
        for (int64_t j = 0; j < bn; ++j) {
            for (int64_t i = 0; i < bm; ++i) {
                T* d = localCmatrix.ptr_ + (j / 16) * mp * 16 + i * 16 + j % 16;
                AccT v = result_[size_t((r0 + i) * n_ + c0 + j)];
                if (enPartialSum) {
                    if (!cube_defined(ca, d, sizeof(T))) {
                        fail(loc, format("%s: enPartialSum adds onto CO1 element (%lld, %lld), which nothing wrote",
                                         op, (long long)i, (long long)j));
                    }
                    v += *d;
                }
                *d = v;
                // C computed from GM bytes that held no value holds none in CO1 either
                cube_mark_written(ca, d, sizeof(T), !undefRow_[size_t(r0 + i)] && !undefCol_[size_t(c0 + j)]);
            }
        }
        return true;
    }

    // The vector side's form after SetWorkspace and an asynchronous Iterate<false> (asc-devkit's
    // matmul_client.h): each call hands the next base block of the share, in Iterate's order, as
    // the cube left it in the workspace: the blocks one after another, baseM x baseN elements
    // apart, each its own rows of its own width (a block at the share's edge is narrower).
    template <bool sync = true>
    GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                  opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        (void)enSequentialWrite;
        const char* op = "Matmul::GetTensorC()";
        use(loc);
        if (!ws_) fail(loc, format("%s hands C out of the workspace: call SetWorkspace first", op));
        if (order_.empty() || iter_ < 0) fail(loc, format("%s without an Iterate<false> before it", op));
        if (wsBlocks_ >= order_.size()) {
            fail(loc, format("%s: all %llu base blocks of the share were handed out already", op,
                             (unsigned long long)order_.size()));
        }
        const int64_t r0 = int64_t(order_[wsBlocks_].first) * tiling_.baseM;
        const int64_t c0 = int64_t(order_[wsBlocks_].second) * tiling_.baseN;
        const int64_t bm = m_ - r0 < tiling_.baseM ? m_ - r0 : tiling_.baseM;
        const int64_t bn = n_ - c0 < tiling_.baseN ? n_ - c0 : tiling_.baseN;
        GlobalTensor<DstT> block;
        block.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(ws_ + wsOffset_), uint64_t(bm) * uint64_t(bn));
        store_rows(block, r0, c0, bm, bn, uint64_t(bn), enAtomic, op, loc, true);
        ++wsBlocks_;
        wsOffset_ += uint64_t(tiling_.baseM) * uint64_t(tiling_.baseN) * sizeof(DstT);
        return block;
    }

    // The current base block into UB (VECIN/VECCALC C): baseN elements per row.
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        (void)enSequentialWrite;
        const char* op = "Matmul::GetTensorC";
        use(loc);
        if (iter_ < 0) fail(loc, format("%s without a current block: call Iterate first (and while it returns true)", op));
        if (enAtomic) fail(loc, format("%s into UB with enAtomic is not modelled by the sim", op));
        const int64_t r0 = int64_t(curM_) * tiling_.baseM, c0 = int64_t(curN_) * tiling_.baseN;
        const int64_t bm = m_ - r0 < tiling_.baseM ? m_ - r0 : tiling_.baseM;
        const int64_t bn = n_ - c0 < tiling_.baseN ? n_ - c0 : tiling_.baseN;
        const uint64_t stride = uint64_t(tiling_.baseN);
        check_ub(co2Local, ((bm - 1) * stride + bn) * sizeof(DstT), op, "destination", loc);
        uint8_t origin = 0;   // one origin for the block's undefined elements
        for (int64_t i = 0; i < bm; ++i) {
            DstT* row = co2Local.ptr_ + i * stride;
            for (int64_t j = 0; j < bn; ++j) row[j] = out_value(result_[size_t((r0 + i) * n_ + c0 + j)], c0 + j, op, loc);
            // a synchronous GetTensorC has finished before the next instruction issues
            mark_written(row, uint64_t(bn) * sizeof(DstT), Pipe::V);
            // elements computed from GM bytes that held no value are undefined in UB, from that byte
            BlockState& blk = block();
            for (int64_t j = 0; j < bn && blk.shadow && undef_.region; ++j) {
                if (!undefRow_[size_t(r0 + i)] && !undefCol_[size_t(c0 + j)]) continue;
                if (!origin) {
                    origin = add_origin(Origin{ORIGIN_GM_UNWRITTEN, op, "", loc, undef_.at, undef_.region->name,
                                               undef_.region->bytes, 0});
                }
                std::memset(blk.shadow + (reinterpret_cast<uint8_t*>(row + j) - blk.ub), origin, sizeof(DstT));
            }
        }
    }

    // The current base block into GM: at its place in C (row stride N), or packed (enSequentialWrite).
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        const char* op = "Matmul::GetTensorC";
        use(loc);
        if (iter_ < 0) opkg_sim::fail(loc, opkg_sim::format("%s without a current block: call Iterate first", op));
        const int64_t r0 = int64_t(curM_) * tiling_.baseM, c0 = int64_t(curN_) * tiling_.baseN;
        const int64_t bm = m_ - r0 < tiling_.baseM ? m_ - r0 : tiling_.baseM;
        const int64_t bn = n_ - c0 < tiling_.baseN ? n_ - c0 : tiling_.baseN;
        if (enSequentialWrite) store_rows(gm, r0, c0, bm, bn, uint64_t(bn), enAtomic, op, loc, true);
        else store_rows(gm, r0, c0, bm, bn, c_stride(), enAtomic, op, loc);
    }


    // --- batches (NORMAL layout: each operand's batches one after another in GM) ---
    void SetBatchNum(int32_t batchA, int32_t batchB) {
        batchA_ = batchA;
        batchB_ = batchB;
    }
    // batchA products of A's and B's batches into C, batch i at gm[i * strideC]; strides in
    // elements, 0 = the matrices packed (M x Ka, Kb x N, M x N). A batch of 1 broadcasts.
    // Current asc-devkit declares IterateBatch(gm, enPartialSum, enAtomic, enSequentialWrite,
    // strides...) with the batch counts SetBatchNum's (include/adv_api/matmul/matmul.h); both take
    // integer literals, so that form is told by its two leading zeros (no partial sum, no atomic),
    // which in 8.1's form would be a product of no batches at all.
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        (void)enSequentialWrite;   // C's batches are contiguous in GM either way
        const char* op = "Matmul::IterateBatch";
        use(loc);
        if (batchA == 0 && batchB == 0 && batchA_ > 0 && batchB_ > 0) {
            batchA = uint32_t(batchA_);
            batchB = uint32_t(batchB_);
        }
        if (enPartialSum) opkg_sim::fail(loc, opkg_sim::format("%s: enPartialSum is not modelled by the sim", op));
        batches(op, batchA, batchB, matrixStrideA, matrixStrideB, loc, [&](uint32_t i) {
            const uint64_t sc = matrixStrideC ? matrixStrideC : uint64_t(m_) * uint64_t(n_);
            store_rows(gm[i * sc], 0, 0, m_, n_, c_stride(), enAtomic, op, loc);
        });
        batch_async_ = !sync;
    }
    // After IterateBatch<false>: the batches are in GM (the sim wrote them at the call).
    void WaitIterateBatch(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        opkg_sim::note(loc);
        if (!batch_async_) {
            opkg_sim::fail(loc, "Matmul::WaitIterateBatch without an asynchronous IterateBatch<false> before it");
        }
        batch_async_ = false;
    }
    // batchLoop rounds of IterateBatch(batchA, batchB) over consecutive A and B batches, their C
    // into the workspace SetWorkspace gave, one after another; GetBatchTensorC hands out each
    // round's C in order (CANN's isNBatch configuration).
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        const char* op = "Matmul::IterateNBatch";
        use(loc);
        if (!ws_) fail(loc, format("%s needs a workspace for C: call SetWorkspace first", op));
        if (enPartialSum || enAtomic) fail(loc, format("%s: enPartialSum/enAtomic are not modelled by the sim", op));
        const GlobalTensor<SrcAT> a0 = a_;
        const GlobalTensor<SrcBT> b0 = b_;
        GlobalTensor<DstT> out;
        out.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(ws_));
        uint64_t at = 0;
        for (uint32_t loop = 0; loop < batchLoop; ++loop) {
            IterateBatch<true>(out[at], batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB, matrixStrideC,
                               false, 0, loc);
            a_ = a_[stride_a(matrixStrideA) * batchA];
            b_ = b_[stride_b(matrixStrideB) * batchB];
            at += uint64_t(batchA > batchB ? batchA : batchB) * uint64_t(m_) * uint64_t(n_);
        }
        a_ = a0;
        b_ = b0;
        nbatch_out_ = 0;
        nbatch_end_ = at;
        batch_async_ = !sync;
    }
    // The next round's C of IterateNBatch: in the workspace, or copied into UB.
    template <bool sync = true>
    GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                                       opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        (void)enSequentialWrite;
        GlobalTensor<DstT> g;
        const uint64_t n = next_batch_c("Matmul::GetBatchTensorC", batchA, batchB, loc);
        g.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(ws_) + nbatch_out_ - n, n);
        return g;
    }
    template <bool sync = true>
    GlobalTensor<DstT> GetBatchC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                                 opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return GetBatchTensorC<sync>(batchA, batchB, enSequentialWrite, loc);
    }
    template <bool sync = true>
    void GetBatchTensorC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                         opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        const char* op = "Matmul::GetBatchTensorC";
        if (!enSequentialWrite) fail(loc, format("%s into UB needs enSequentialWrite (CANN asserts it)", op));
        const uint64_t n = next_batch_c(op, batchA, batchB, loc);
        const DstT* src = reinterpret_cast<const DstT*>(ws_) + nbatch_out_ - n;
        check_ub(c, n * sizeof(DstT), op, "destination", loc);
        mm_detail::require_defined(src, n * sizeof(DstT), "the batch's C in the workspace", loc);
        std::memcpy(c.ptr_, src, n * sizeof(DstT));
        mark_written(c.ptr_, n * sizeof(DstT), Pipe::MTE2);
        count_copy(COPY_GM_UB, n * sizeof(DstT));
    }
    template <bool sync = true>
    void GetBatchC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false,
                   opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        GetBatchTensorC<sync>(c, batchA, batchB, enSequentialWrite, loc);
    }

    // After Iterate<false>: the current block into UB; on the device the copy is in flight until
    // WaitGetTensorC, so the block's bytes count as written by MTE2 (a vector read before the
    // wait is a race the sim reports).
    void AsyncGetTensorC(const LocalTensor<DstT>& c, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        using namespace opkg_sim;
        const char* op = "Matmul::AsyncGetTensorC";
        use(loc);
        if (iter_ < 0) fail(loc, format("%s without a current block: call Iterate<false> first", op));
        const int64_t r0 = int64_t(curM_) * tiling_.baseM, c0 = int64_t(curN_) * tiling_.baseN;
        const int64_t bm = m_ - r0 < tiling_.baseM ? m_ - r0 : tiling_.baseM;
        const int64_t bn = n_ - c0 < tiling_.baseN ? n_ - c0 : tiling_.baseN;
        const uint64_t stride = uint64_t(tiling_.baseN);
        check_ub(c, ((bm - 1) * stride + bn) * sizeof(DstT), op, "destination", loc);
        for (int64_t i = 0; i < bm; ++i) {
            DstT* row = c.ptr_ + i * stride;
            for (int64_t j = 0; j < bn; ++j) row[j] = out_value(result_[size_t((r0 + i) * n_ + c0 + j)], c0 + j, op, loc);
            mark_written(row, uint64_t(bn) * sizeof(DstT), Pipe::MTE2);
        }
        count_copy(COPY_GM_UB, uint64_t(bm * bn) * sizeof(DstT));
        got_async_ = true;
    }
    // Orders the vector pipe after AsyncGetTensorC's copy (CANN: an MTE2 -> V flag).
    void WaitGetTensorC(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        opkg_sim::note(loc);
        if (got_async_) {
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
        }
        got_async_ = false;
    }
    // The current block's place in C (the debug form, CANN's GetOffsetC<false>).
    template <bool isTurnOnDebug = true>
    MatrixOffset GetOffsetC() {
        static_assert(!isTurnOnDebug, "GetOffsetC: CANN 8.1 supports only GetOffsetC<false>()");
        const int32_t r0 = curM_ * tiling_.baseM, c0 = curN_ * tiling_.baseN;
        const int32_t bm = int32_t(m_) - r0 < tiling_.baseM ? int32_t(m_) - r0 : tiling_.baseM;
        const int32_t bn = int32_t(n_) - c0 < tiling_.baseN ? int32_t(n_) - c0 : tiling_.baseN;
        return MatrixOffset{int32_t(r0 * c_stride() + c0), r0, c0, bm, bn};
    }

    // --- anti-quantisation: int8 B with a half A; B's values become half((w + offset) * scale),
    // each step rounded to half as the vector unit computes it; one offset/scale, or one per
    // column of B (N values in UB) ---
    void SetAntiQuantScalar(const SrcAT offsetScalar, const SrcAT scaleScalar) {
        antiquant_ = 1;
        aq_offset_ = offsetScalar;
        aq_scale_ = scaleScalar;
    }
    void SetAntiQuantVector(const LocalTensor<SrcAT>& offsetTensor, const LocalTensor<SrcAT>& scaleTensor) {
        antiquant_ = 2;
        aq_offset_vec_ = offsetTensor;
        aq_scale_vec_ = scaleTensor;
    }

    // A (B) from UB: the share's matrix (singleCore rows of the org row length) copied to the GM
    // buffer `gm` (as the AIV does for the cube), then read there.
    void SetTensorAWithCopy(const GlobalTensor<SrcAT>& gm, const LocalTensor<SrcAT>& leftMatrix,
                            bool isTransposeA = false, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        const bool t = isTransposeA || A_TYPE::isTrans;
        copy_to_gm(gm, leftMatrix, t ? uint64_t(singleK_) * orgM_ : uint64_t(singleM_) * orgKa_, "Matmul::SetTensorAWithCopy",
                   loc);
        SetTensorA(gm, isTransposeA, loc);
    }
    void SetTensorBWithCopy(const GlobalTensor<SrcBT>& gm, const LocalTensor<SrcBT>& rightMatrix,
                            bool isTransposeB = false, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        const bool t = isTransposeB || B_TYPE::isTrans;
        copy_to_gm(gm, rightMatrix, t ? uint64_t(singleN_) * orgKb_ : uint64_t(singleK_) * orgN_,
                   "Matmul::SetTensorBWithCopy", loc);
        SetTensorB(gm, isTransposeB, loc);
    }
    // Data for user callbacks (MatmulCallBackFunc): the sim's copies are its own, so the callbacks
    // never run and the values are only kept.
    void SetSelfDefineData(const uint64_t dataPtr) { selfData_ = dataPtr; }
    void SetUserDefInfo(const uint64_t tilingPtr) { userInfo_ = tilingPtr; }

    void End() { pending_ = false; }

private:
    // Runs `store(i)` after computing batch i, A and B advanced to their batch i (a batch of 1
    // broadcast); the sim models equal batches or a batch of 1.
    template <class F>
    void batches(const char* op, uint32_t batchA, uint32_t batchB, uint32_t strideA, uint32_t strideB,
                 opkg_sim::SrcLoc loc, F store) {
        using namespace opkg_sim;
        if (batchA == 0 || batchB == 0) fail(loc, format("%s: batchA %u, batchB %u: both must be at least 1", op, batchA, batchB));
        if (batchA != batchB && batchA != 1 && batchB != 1) {
            fail(loc, format("%s: batchA %u and batchB %u: the sim models equal batches or one of them 1", op, batchA,
                             batchB));
        }
        if (batchA_ > 0 && (int32_t(batchA) > batchA_ || int32_t(batchB) > batchB_)) {
            fail(loc, format("%s: batchA %u / batchB %u exceed SetBatchNum's %d / %d", op, batchA, batchB, batchA_,
                             batchB_));
        }
        const uint64_t sa = stride_a(strideA), sb = stride_b(strideB);
        const GlobalTensor<SrcAT> a0 = a_;
        const GlobalTensor<SrcBT> b0 = b_;
        const uint32_t count = batchA > batchB ? batchA : batchB;
        for (uint32_t i = 0; i < count; ++i) {
            a_ = a0[uint64_t(batchA == 1 ? 0 : i) * sa];
            b_ = b0[uint64_t(batchB == 1 ? 0 : i) * sb];
            compute(op, loc);
            store(i);
        }
        a_ = a0;
        b_ = b0;
    }
    // One batch's A (B) in elements: the given stride, or the matrix packed as stored
    uint64_t stride_a(uint32_t given) const {
        return given ? given : transA_ ? uint64_t(singleK_) * uint64_t(orgM_) : uint64_t(singleM_) * uint64_t(orgKa_);
    }
    uint64_t stride_b(uint32_t given) const {
        return given ? given : transB_ ? uint64_t(singleN_) * uint64_t(orgKb_) : uint64_t(singleK_) * uint64_t(orgN_);
    }
    uint64_t next_batch_c(const char* op, uint32_t batchA, uint32_t batchB, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        note(loc);
        const uint64_t n = uint64_t(batchA > batchB ? batchA : batchB) * uint64_t(m_) * uint64_t(n_);
        if (nbatch_out_ + n > nbatch_end_) {
            fail(loc, format("%s: no IterateNBatch result left (the batches asked exceed the rounds computed)", op));
        }
        nbatch_out_ += n;
        return n;
    }
    template <class T>
    void copy_to_gm(const GlobalTensor<T>& gm, const LocalTensor<T>& ub, uint64_t count, const char* op,
                    opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        if (!inited_) fail(loc, format("%s before REGIST_MATMUL_OBJ (or Init) gave the Matmul its TCubeTiling", op));
        const uint64_t bytes = count * sizeof(T);
        check_ub(ub, bytes, op, "source", loc);
        check_read(ub.ptr_, bytes, op, "source", loc, Pipe::MTE3);
        check_gt(gm, bytes, op, loc);
        store_gm(gm.ptr_, ub.ptr_, bytes, op, loc);
        count_copy(COPY_UB_GM, bytes);
    }
    // B's element as the cube sees it after anti-quantisation (int8 B, half A).
    AccT antiquant(AccT w, int64_t col, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        if constexpr (mm_detail::is_int8<SrcBT> && !mm_detail::is_int8<SrcAT>) {
            if (antiquant_ == 0) {
                fail(loc, "Matmul: int8 B with a non-int8 A is dequantised on the way in: call SetAntiQuantScalar "
                          "or SetAntiQuantVector first");
            }
            SrcAT off = aq_offset_, sc = aq_scale_;
            if (antiquant_ == 2) {
                check_ub(aq_offset_vec_, uint64_t(col + 1) * sizeof(SrcAT), "Matmul::SetAntiQuantVector", "offset", loc);
                check_ub(aq_scale_vec_, uint64_t(col + 1) * sizeof(SrcAT), "Matmul::SetAntiQuantVector", "scale", loc);
                off = aq_offset_vec_.ptr_[col];
                sc = aq_scale_vec_.ptr_[col];
            }
            const SrcAT shifted = static_cast<SrcAT>(static_cast<float>(static_cast<SrcAT>(static_cast<float>(w))) +
                                                     static_cast<float>(off));
            return static_cast<AccT>(static_cast<float>(static_cast<SrcAT>(static_cast<float>(shifted) *
                                                                           static_cast<float>(sc))));
        } else {
            (void)col;
            if (antiquant_ != 0) fail(loc, "Matmul: SetAntiQuantScalar/Vector needs an int8 B and a half or bfloat16 A");
            return w;
        }
    }
    // The share's base blocks (m, n) in the order the devkit's schedulers visit them
    // (scheduler_mdl_base.h MoveOnIterateOrderM/N): iterateOrder 0 (ORDER_M) runs N inside a
    // step of stepN blocks, then M inside a step of stepM, then M's steps, then N's steps;
    // iterateOrder 1 the same with M and N swapped. With steps of 1, M moves fastest for order 0.
    void block_order() {
        order_.clear();
        const int64_t sm = tiling_.stepM > 0 ? tiling_.stepM : 1, sn = tiling_.stepN > 0 ? tiling_.stepN : 1;
        const bool orderM = tiling_.iterateOrder == 0;
        const int64_t outerN = orderM ? (nIter_ + sn - 1) / sn : (mIter_ + sm - 1) / sm;   // slowest
        const int64_t outerM = orderM ? (mIter_ + sm - 1) / sm : (nIter_ + sn - 1) / sn;
        const int64_t stepA = orderM ? sm : sn, stepB = orderM ? sn : sm;                 // inner steps
        const int64_t countA = orderM ? mIter_ : nIter_, countB = orderM ? nIter_ : mIter_;
        for (int64_t ob = 0; ob < outerN; ++ob)
            for (int64_t oa = 0; oa < outerM; ++oa)
                for (int64_t ia = oa * stepA; ia < countA && ia < (oa + 1) * stepA; ++ia)
                    for (int64_t ib = ob * stepB; ib < countB && ib < (ob + 1) * stepB; ++ib)
                        order_.emplace_back(int32_t(orderM ? ia : ib), int32_t(orderM ? ib : ia));
    }

    // A or B stored NZ in GM (MatmulType format NZ), from g: the stored matrix's NZ height is
    // its org row count rounded up to the 16-row fractal (the stride the cube's copy steps by):
    // orgM for A (orgKa transposed), orgKb for B (orgN transposed). Bounds and definedness are
    // checked per element.
    template <class T>
    void gm_nz(const GlobalTensor<T>& g, int64_t rows, int64_t cols, int64_t orgRows, bool transposed, AccT* out,
               std::vector<uint8_t>& undef, bool byCol, const char* role, const char* op, opkg_sim::SrcLoc loc) {
        mm_detail::nz_read<T>(rows, cols, (orgRows + 15) / 16 * 16, transposed, out, undef, byCol,
                              [&](uint64_t off, AccT* v) {
                                  GlobalTensor<T> at = g[off];
                                  opkg_sim::check_gt(at, sizeof(T), op, loc);
                                  *v = mm_detail::load<T, AccT>(at.ptr_);
                                  return mm_detail::first_undefined(at.ptr_, sizeof(T), role, &undef_) != 0;
                              });
    }

    // A 4:2 sparse B (SparseMatmulType, int8, transposed as the devkit requires) into bv (k x n):
    // the densified B^T (n rows of k / 2 values, in B's format) read as B is, then each dense value
    // 2g + s of a column placed at k row 4g + s + index (SetSparseIndex's layout above), the other
    // rows zero, as MmadWithSparse rebuilds it. An index of 3, two nonzero values meeting in one
    // row, a missing SetSparseIndex, an untransposed B or a K not a multiple of 4 are errors.
    void sparse_b(AccT* bv, int64_t n, int64_t k, const char* op, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        static_assert(mm_detail::is_int8<SrcBT>, "a sparse B (SparseMatmulType) is int8 only (asc-devkit)");
        if (!index_set_) fail(loc, format("%s: B is SparseMatmulType but no SetSparseIndex gave its index", op));
        if (!transB_) fail(loc, format("%s: a sparse B must be transposed (asc-devkit's sparse copy supports "
                                       "isTransposeB true only)", op));
        if (k % 4 != 0) fail(loc, format("%s: K = %lld is not a multiple of 4 (the 4:2 groups)", op, (long long)k));
        const int64_t kd = k / 2;
        std::vector<AccT> dense(size_t(kd * n));
        if constexpr (B_TYPE::format == CubeFormat::NZ) {
            gm_nz(b_, n, kd, orgN_, true, dense.data(), undefCol_, true, "B", op, loc);
        } else {
            for (int64_t r = 0; r < n; ++r) {
                GlobalTensor<SrcBT> row = b_[uint64_t(r * (orgKb_ / 2))];
                check_gt(row, uint64_t(kd) * sizeof(SrcBT), op, loc);
                if (mm_detail::first_undefined(row.ptr_, uint64_t(kd) * sizeof(SrcBT), "B", &undef_) != uint64_t(kd))
                    undefCol_[size_t(r)] = 1;
                for (int64_t c = 0; c < kd; ++c) dense[size_t(c * n + r)] = mm_detail::load<SrcBT, AccT>(row.ptr_ + c);
            }
        }
        std::fill(bv, bv + k * n, AccT(0));
        const int64_t height = (int64_t(orgN_) + 15) / 16 * 16;
        for (int64_t j = 0; j < n; ++j) {
            for (int64_t d = 0; d < kd; ++d) {
                const int64_t byte = d / 4;
                GlobalTensor<uint8_t> at = index_[uint64_t((byte / 8) * height * 8 + j * 8 + byte % 8)];
                check_gt(at, 1, op, loc);
                if (mm_detail::first_undefined(at.ptr_, 1, "the sparse index", &undef_) == 0) undefCol_[size_t(j)] = 1;
                const int idx = (*at.ptr_ >> (2 * (d % 4))) & 3;
                if (idx == 3) {
                    fail(loc, format("%s: the sparse index of dense row %lld, column %lld is 3; indices are 0, 1 or 2",
                                     op, (long long)d, (long long)j));
                }
                const int64_t row = 4 * (d / 2) + d % 2 + idx;
                AccT& slot = bv[size_t(row * n + j)];
                const AccT v = dense[size_t(d * n + j)];
                if (v != AccT(0) && slot != AccT(0)) {
                    fail(loc, format("%s: both dense values of group %lld, column %lld select k row %lld: not modelled "
                                     "(the documentation does not fix it)", op, (long long)(d / 2), (long long)j,
                                     (long long)row));
                }
                if (v != AccT(0)) slot = v;
            }
        }
    }

    // The share's m x n result (bias included) into result_, from A, B and bias in GM.
    void compute(const char* op, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        if (!inited_) fail(loc, format("%s before REGIST_MATMUL_OBJ (or Init) gave the Matmul its TCubeTiling", op));
        if (!a_set_ || !b_set_) fail(loc, format("%s before SetTensor%s", op, a_set_ ? "B" : "A"));
        const int64_t m = singleM_, n = singleN_, k = singleK_;
        if (m <= 0 || n <= 0 || k <= 0) {
            fail(loc, format("%s: singleCoreM/N/K = %lld/%lld/%lld; the TCubeTiling (or SetSingleShape/SetTail) must "
                             "give positive sizes", op, (long long)m, (long long)n, (long long)k));
        }
        // Ka (Kb) is read on the device only where it is A's (B's) row stride, A untransposed (B
        // transposed), and as the height of an NZ B; CANN's ND copy of an untransposed B takes only
        // its width N, so an orgKb that is not B's K there changes nothing (FlashAttentionScore's
        // second product passes H).
        const bool kaRead = !transA_, kbRead = transB_ || B_TYPE::format == CubeFormat::NZ;
        if ((kaRead && k > int64_t(orgKa_)) || (kbRead && k > int64_t(orgKb_))) {
            fail(loc, format("%s: K mismatch: singleCoreK %lld but A has Ka = %d and B has Kb = %d columns/rows "
                             "(TCubeTiling or SetOrgShape)", op, (long long)k, orgKa_, orgKb_));
        }
        if (bias_enabled_ && !bias_set_) fail(loc, format("%s: the tiling enables bias (isBias) but SetBias was not called", op));
        // A and B as the accumulator type, read row by row with GM bounds and definedness checked.
        // A, B or bias bytes that hold no value are read as the hardware would (garbage): the C rows
        // (columns) they feed hold no value either, which only a store into an output reports
        // (store_rows), as for vector instructions; C rows a kernel computes and drops are fine.
        std::vector<AccT> av(size_t(m * k)), bv(size_t(k * n));
        undefRow_.assign(size_t(m), 0);
        undefCol_.assign(size_t(n), 0);
        undef_ = mm_detail::Undefined{};
        const int64_t aRows = transA_ ? k : m, aCols = transA_ ? m : k, aStride = transA_ ? orgM_ : orgKa_;
        // (A's undefined elements make their C rows undefined, B's their C columns)
        if (a_from_l1_) {
            mm_detail::l1_nz(a_l1_, aRows, aCols, transA_, av.data(), undefRow_, op, "A", loc);
        } else if constexpr (A_TYPE::format == CubeFormat::NZ) {
            gm_nz(a_, aRows, aCols, transA_ ? orgKa_ : orgM_, transA_, av.data(), undefRow_, false, "A", op, loc);
        } else {
        for (int64_t r = 0; r < aRows; ++r) {
            GlobalTensor<SrcAT> row = a_[uint64_t(r * aStride)];
            check_gt(row, uint64_t(aCols) * sizeof(SrcAT), op, loc);
            const uint64_t bytes = uint64_t(aCols) * sizeof(SrcAT);
            for (uint64_t u = mm_detail::first_undefined(row.ptr_, bytes, "A", &undef_); u < bytes;) {
                const int64_t c = int64_t(u / sizeof(SrcAT));
                if (transA_) undefRow_[size_t(c)] = 1;   // A^T: element (r, c) feeds C row c
                else {
                    undefRow_[size_t(r)] = 1;
                    break;
                }
                const uint64_t next = uint64_t(c + 1) * sizeof(SrcAT);
                u = next >= bytes ? bytes : next + mm_detail::first_undefined(row.ptr_ + c + 1, bytes - next, "A", &undef_);
            }
            for (int64_t c = 0; c < aCols; ++c) {
                AccT v = mm_detail::load<SrcAT, AccT>(row.ptr_ + c);
                if (transA_) av[size_t(c * k + r)] = v;
                else av[size_t(r * k + c)] = v;
            }
        }
        }
        const int64_t bRows = transB_ ? n : k, bCols = transB_ ? k : n;
        if constexpr (mm_detail::has_sparse_index<B_TYPE>::value) {
            sparse_b(bv.data(), n, k, op, loc);
        } else if (b_from_l1_) {
            mm_detail::l1_nz(b_l1_, bRows, bCols, transB_, bv.data(), undefCol_, op, "B", loc, true);
        } else if constexpr (B_TYPE::format == CubeFormat::NZ) {
            gm_nz(b_, bRows, bCols, transB_ ? orgN_ : orgKb_, transB_, bv.data(), undefCol_, true, "B", op, loc);
        } else {
        const int64_t bStride = transB_ ? orgKb_ : orgN_;
        for (int64_t r = 0; r < bRows; ++r) {
            GlobalTensor<SrcBT> row = b_[uint64_t(r * bStride)];
            check_gt(row, uint64_t(bCols) * sizeof(SrcBT), op, loc);
            const uint64_t bytes = uint64_t(bCols) * sizeof(SrcBT);
            for (uint64_t u = mm_detail::first_undefined(row.ptr_, bytes, "B", &undef_); u < bytes;) {
                const int64_t c = int64_t(u / sizeof(SrcBT));
                if (transB_) {   // B^T: row r is C column r
                    undefCol_[size_t(r)] = 1;
                    break;
                }
                undefCol_[size_t(c)] = 1;
                const uint64_t next = uint64_t(c + 1) * sizeof(SrcBT);
                u = next >= bytes ? bytes : next + mm_detail::first_undefined(row.ptr_ + c + 1, bytes - next, "B", &undef_);
            }
            for (int64_t c = 0; c < bCols; ++c) {
                AccT v = mm_detail::load<SrcBT, AccT>(row.ptr_ + c);
                if (transB_) bv[size_t(c * n + r)] = v;
                else bv[size_t(r * n + c)] = v;
            }
        }
        }
        if constexpr (mm_detail::is_int8<SrcBT> && !mm_detail::is_int8<SrcAT>) {
            for (int64_t r = 0; r < k; ++r)
                for (int64_t c = 0; c < n; ++c) bv[size_t(r * n + c)] = antiquant(bv[size_t(r * n + c)], c, loc);
        } else if (antiquant_) {
            antiquant(AccT(0), 0, loc);
        }
        if constexpr (std::is_same<SrcAT, float>::value && std::is_same<SrcBT, float>::value) {
            if (hf32_) {
                for (AccT& v : av) v = cube_detail::hf32_of(v, hf32Mode_ == 1);
                for (AccT& v : bv) v = cube_detail::hf32_of(v, hf32Mode_ == 1);
            }
        }
        result_.assign(size_t(m * n), AccT(0));
        if (bias_enabled_) {
            check_gt(bias_, uint64_t(n) * sizeof(BiasT), op, loc);
            for (int64_t j = 0; j < n; ++j) {
                if (mm_detail::first_undefined(bias_.ptr_ + j, sizeof(BiasT), "the bias", &undef_) == 0) {
                    undefCol_[size_t(j)] = 1;
                }
            }
            for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) result_[size_t(i * n + j)] = static_cast<AccT>(static_cast<float>(bias_.ptr_[j]));
        }
        cube_detail::ikj_accumulate(result_.data(), av.data(), bv.data(), m, n, k);
        m_ = m;
        n_ = n;
        count_cube(uint64_t(2 * m * n * k));
        count_copy(COPY_GM_UB, uint64_t(m * k) * sizeof(SrcAT) + uint64_t(k * n) * sizeof(SrcBT));
    }

    // The quantisation value of column `col`: SetQuantScalar's, or SetQuantVector's col-th uint64.
    uint64_t quant_value(int64_t col, const char* op, opkg_sim::SrcLoc loc) {
        if (quant_ != 2) return quant_scalar_;
        GlobalTensor<uint64_t> at = quant_vec_[uint64_t(col)];
        opkg_sim::check_gt(at, sizeof(uint64_t), op, loc);
        mm_detail::require_defined(at.ptr_, sizeof(uint64_t), "the quantisation vector", loc);
        return *at.ptr_;
    }

    // C element (any row, column `col`) as the output type: int32 -> half through the quantisation
    // scale (the product rounded to float, then to half), float -> int8/uint8 through QF322B8_PRE
    // or VQF322B8_PRE, any other pair a plain conversion.
    DstT out_value(AccT v, int64_t col, const char* op, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        if constexpr (std::is_same<AccT, int32_t>::value && std::is_same<DstT, half>::value) {
            if (quant_ == 0) {
                fail(loc, format("%s: int8 A and B with a half C dequantise on the way out: call SetQuantScalar or "
                                 "SetQuantVector before Iterate/IterateAll (and SetDequantType on the host)", op));
            }
            return static_cast<half>(static_cast<float>(v) * cube_detail::deq_scale(quant_value(col, op, loc)));
        } else if constexpr (std::is_same<AccT, float>::value && sizeof(DstT) == 1) {
            // a float product to int8/uint8 C (half or bfloat16 A and B: ops-nn's transpose_batch_mat_mul
            // int8 output): the fixpipe's QF322B8_PRE (SetQuantScalar) or VQF322B8_PRE (SetQuantVector)
            if (quant_ == 0) {
                fail(loc, format("%s: a float product with an 8-bit C quantises on the way out: call SetQuantScalar or "
                                 "SetQuantVector before Iterate/IterateAll", op));
            }
            return cube_detail::fixpipe_convert<DstT, float>(
                v, quant_ == 2 ? QuantMode_t::VQF322B8_PRE : QuantMode_t::QF322B8_PRE, quant_value(col, op, loc), false,
                op, loc, quant_ == 2);
        } else {
            if (quant_ != 0) {
                fail(loc, format("%s: SetQuantScalar/SetQuantVector with %s A and %s C: the sim models the "
                                 "quantisation int8 -> half and float -> 8-bit only", op, type_name<SrcAT>(), type_name<DstT>()));
            }
            return static_cast<DstT>(v);
        }
    }

    // Rows r0..r0+rows, columns c0..c0+cols of result_ to GM: row i at gm[i * stride] (packed:
    // counted from the block's first row) or gm[(r0 + i) * stride + c0].
    void store_rows(const GlobalTensor<DstT>& gm, int64_t r0, int64_t c0, int64_t rows, int64_t cols, uint64_t stride,
                    uint8_t enAtomic, const char* op, opkg_sim::SrcLoc loc, bool packed = false) {
        using namespace opkg_sim;
        if (enAtomic > 1) fail(loc, format("%s: enAtomic %u (atomic max/min) is not modelled by the sim", op, enAtomic));
        std::vector<DstT> out(static_cast<size_t>(cols));
        for (int64_t i = 0; i < rows; ++i) {
            GlobalTensor<DstT> row = packed ? gm[uint64_t(i) * stride] : gm[uint64_t(r0 + i) * stride + uint64_t(c0)];
            check_gt(row, uint64_t(cols) * sizeof(DstT), op, loc);
            for (int64_t j = 0; j < cols; ++j) {
                AccT v = result_[size_t((r0 + i) * n_ + c0 + j)];
                if (enAtomic == 1) {
                    if (quant_) fail(loc, format("%s: enAtomic with a quantised C is not modelled by the sim", op));
                    mm_detail::require_defined(row.ptr_ + j, sizeof(DstT), "C (enAtomic accumulates onto it)", loc);
                    v += static_cast<AccT>(static_cast<float>(row.ptr_[j]));
                }
                out[size_t(j)] = out_value(v, c0 + j, op, loc);
            }
            // C elements computed from bytes that held no value: into the workspace they stay
            // undefined (a later load into an output is reported there); into anything else now
            const bool badRow = undefRow_[size_t(r0 + i)] != 0;
            int64_t firstBad = -1;
            for (int64_t j = 0; j < cols && firstBad < 0; ++j) {
                if (badRow || undefCol_[size_t(c0 + j)]) firstBad = j;
            }
            const GmRegion* reg = firstBad >= 0 ? gm_region(row.ptr_) : nullptr;
            const bool scratch = reg && std::strcmp(reg->name, "workspace") == 0;
            if (firstBad >= 0 && !scratch) {
                fail(loc, format("%s stores C element (%lld, %lld) of its share, computed from %s, into '%s'; on the "
                                 "device it would hold garbage", op, (long long)(r0 + i), (long long)(c0 + firstBad),
                                 undef_.where.c_str(), reg ? reg->name : "?"));
            }
            store_gm(row.ptr_, out.data(), uint64_t(cols) * sizeof(DstT), op, loc);
            for (int64_t j = firstBad < 0 ? cols : firstBad; j < cols; ++j) {
                if (badRow || undefCol_[size_t(c0 + j)]) mm_detail::gm_mark_undefined(row.ptr_ + j, sizeof(DstT));
            }
        }
        count_copy(COPY_UB_GM, uint64_t(rows * cols) * sizeof(DstT));
    }

    // C to GM in NZ as asc-devkit's CopyOutNZ2NZ lays it out on Atlas A2 (Fixpipe, no channel
    // split): columns in groups of C0 (16 elements, 32 for 8-bit C), each group orgM rows
    // (SetOrgShape's M) of C0 elements, so (r, c) is at (c / C0) * orgM * C0 + r * C0 + c % C0.
    // The fractals' padding (rows past M, columns past N in the last group) is not written.
    void store_nz(const GlobalTensor<DstT>& gm, uint8_t enAtomic, const char* op, opkg_sim::SrcLoc loc) {
        using namespace opkg_sim;
        if constexpr (ToMatmulConfig(MM_CFG).isEnableChannelSplit) {
            fail(loc, format("%s: C in NZ with isEnableChannelSplit is not modelled by the sim", op));
        }
        constexpr int64_t c0 = sizeof(DstT) == 1 ? 32 : 16;
        if (orgM_ < m_) {
            fail(loc, format("%s: C in NZ with %lld rows in groups of orgM %d rows (SetOrgShape's M): the groups "
                             "overlap", op, (long long)m_, orgM_));
        }
        for (int64_t g = 0; g * c0 < n_; ++g) {
            const int64_t cols = n_ - g * c0 < c0 ? n_ - g * c0 : c0;
            // the group's rows C0 apart, counted from its first row (store_rows' packed form)
            store_rows(gm[uint64_t(g) * uint64_t(orgM_) * uint64_t(c0)], 0, g * c0, m_, cols, uint64_t(c0), enAtomic,
                       op, loc, true);
        }
    }

    // SetTensorA/B(LocalTensor): the operand's L1 tensor, whether it is set and transposed
    template <class T>
    void set_l1(LocalTensor<T>& slot, const LocalTensor<T>& l1, bool& fromL1, bool& set, bool& trans, bool transposed,
                opkg_sim::SrcLoc loc) {
        use(loc);
        iter_ = -1;   // a new input restarts Iterate (asc-devkit resets its scheduler)
        slot = l1;
        fromL1 = set = true;
        trans = transposed;
    }

    void use(opkg_sim::SrcLoc loc) {
        opkg_sim::note(loc);
        pending_ = true;
        pendingLoc_ = loc;
    }

    optiling::TCubeTiling tiling_{};
    bool inited_ = false;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
    bool async_ = false;   // the last IterateAll was IterateAll<false>, not yet waited for
    uint64_t c_stride() const { return uint64_t(orgKc_ ? orgKc_ : orgN_); }
    int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
    GlobalTensor<SrcAT> a_;
    GlobalTensor<SrcBT> b_;
    GlobalTensor<uint8_t> index_;   // SetSparseIndex
    bool index_set_ = false;
    GlobalTensor<BiasT> bias_;
    LocalTensor<SrcAT> a_l1_;    // A (B) in L1: SetTensorA(LocalTensor)
    LocalTensor<SrcBT> b_l1_;
    bool a_from_l1_ = false, b_from_l1_ = false;
    bool a_set_ = false, b_set_ = false, bias_set_ = false, bias_enabled_ = false;
    int quant_ = 0;   // 0 none, 1 SetQuantScalar, 2 SetQuantVector
    uint64_t quant_scalar_ = 0;
    GlobalTensor<uint64_t> quant_vec_;
    bool transA_ = false, transB_ = false;
    bool hf32_ = false;     // SetHF32
    int32_t hf32Mode_ = 0;
    uint8_t subBlock_ = 0;
    int32_t batchA_ = 0, batchB_ = 0;
    bool batch_async_ = false, got_async_ = false;
    __gm__ uint8_t* ws_ = nullptr;
    uint64_t nbatch_out_ = 0, nbatch_end_ = 0;   // elements of the IterateNBatch results handed out / computed
    int antiquant_ = 0;   // 0 none, 1 SetAntiQuantScalar, 2 SetAntiQuantVector
    SrcAT aq_offset_{}, aq_scale_{};
    LocalTensor<SrcAT> aq_offset_vec_, aq_scale_vec_;
    uint64_t selfData_ = 0, userInfo_ = 0;
    std::vector<AccT> result_;      // the share's result (compute)
    std::vector<uint8_t> undefRow_, undefCol_;   // C rows / columns computed from bytes holding no value
    mm_detail::Undefined undef_;                 // the first such byte
    int64_t m_ = 0, n_ = 0;
    int64_t iter_ = -1, mIter_ = 0, nIter_ = 0;
    std::vector<std::pair<int32_t, int32_t>> order_;   // the base blocks (m, n) in Iterate's order
    size_t wsBlocks_ = 0;       // GetTensorC(): blocks handed out of the workspace
    uint64_t wsOffset_ = 0;     // and the byte offset of the next
    int32_t curM_ = 0, curN_ = 0;
    bool pending_ = false;
    opkg_sim::SrcLoc pendingLoc_{nullptr, 0};
};

// asc-devkit's class is MatmulImpl (matmul.h) and Matmul its alias (matmul_intf.h); kernels
// that declare the object by the class name (ops-nn's MatMulV3: `MatmulImpl<A, B, C, BIAS,
// MM_CFG, MM_CB> mm_;`) get the same object.
// The seventh argument, the policy (MatmulPolicy, NBuffer33MatmulPolicy, ...: asc-devkit's
// buffering schedules of the same product), is accepted; the sim's model computes the same values.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

// What REGIST_MATMUL_OBJ does per object on the AIV side of a mixed kernel; callable directly.
template <class T, class U>
inline void InitKfcClient(T& cubeObj, U* tiling, TPipe* tpipe, KfcCommClient* client, int instIdx, GM_ADDR workspace) {
    (void)client;
    (void)instIdx;
    (void)workspace;
    cubeObj.Init(reinterpret_cast<const optiling::TCubeTiling*>(tiling), tpipe);
}

// REGIST_MATMUL_OBJ(pipe, workspace, obj, &tiling, obj2, &tiling2, ...): each object's Init.
inline void opkg_regist_matmul(TPipe*) {}
template <class M, class... Rest>
inline void opkg_regist_matmul(TPipe* pipe, M& obj, const optiling::TCubeTiling* tiling, Rest&&... rest) {
    obj.Init(tiling, pipe);
    opkg_regist_matmul(pipe, rest...);
}
// CANN's macro takes each tiling as a pointer of any type (kernels pass `(void*)&tiling`): the
// address of a TCubeTiling.
template <class M, class... Rest>
inline void opkg_regist_matmul(TPipe* pipe, M& obj, void* tiling, Rest&&... rest) {
    obj.Init(static_cast<const optiling::TCubeTiling*>(tiling), pipe);
    opkg_regist_matmul(pipe, rest...);
}
template <class M, class... Rest>
inline void opkg_regist_matmul(TPipe* pipe, M& obj, std::nullptr_t, Rest&&... rest) {
    opkg_regist_matmul(pipe, rest...);
}

}  // namespace AscendC

namespace matmul = AscendC;

// A kernel using the Matmul API on A2/A3 is a mixed kernel (KERNEL_TYPE_MIX_AIC_1_2): its body runs
// on both AIV cores of each AI core, the cube serving their Matmul requests (CANN builds it so
// unless ASCENDC_CUBE_ONLY). Set once as the kernel library loads.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220 && !defined(ASCENDC_CUBE_ONLY)
namespace opkg_sim {
struct MixedKernel {
    MixedKernel() { kernel_task_ration() = 2; }
};
inline const MixedKernel mixed_kernel_registration;
}  // namespace opkg_sim
#endif

// On the cube core of a split launch (core_by_task_type.h) whose task type starts vector cores
// too, the devkit's REGIST_CUBE_OBJ runs the KFC server loop and returns from the kernel
// (kfc_register_obj.h): the sim's vector bodies compute their Matmul requests themselves, so the
// cube body has nothing left to serve. A cube-only type has no client: its Matmul is its own.
namespace opkg_sim {
inline bool cube_serves_kfc() {
    BlockState& b = block();
    if (b.core != AscendC::AIC) return false;
    if (b.type_open) fix_task_type(b);
    return b.task_type == KERNEL_TYPE_MIX_AIC_1_1 || b.task_type == KERNEL_TYPE_MIX_AIC_1_2 ||
           b.task_type == KERNEL_TYPE_MIX_AICORE;
}
}  // namespace opkg_sim
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                            \
    if (::opkg_sim::cube_serves_kfc()) return;                             \
    ::AscendC::opkg_regist_matmul((tpipe), __VA_ARGS__)
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ

#endif
