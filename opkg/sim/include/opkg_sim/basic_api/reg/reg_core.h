// The register-based vector API of the Ascend 950 (asc-devkit include/basic_api/reg_compute/,
// namespace AscendC::Reg, also reached as AscendC::MicroAPI): the registers, masks and the
// enums and traits every call takes, and the checks the loads and stores share.
//
// A vector register (RegTensor<T>) holds VL = 256 bytes, i.e. 256 / sizeof(T) lanes (twice that
// with RegTraitNumTwo, the 64-bit types split over two registers). A mask register (MaskReg)
// holds one predicate bit per register byte, as the devkit's MaskReg page lays it out: element i
// of a b32 operation is selected by bit 4i, of a b16 one by bit 2i. So a mask made for one width
// and used at another selects other elements, which the sim warns about once per call site.
//
// Definedness follows the values as in the rest of the sim (kcore.h): a lane loaded from UB bytes
// nothing wrote, or a register read before anything wrote it, carries the origin of that
// undefined value; lanes computed from it carry it on; a store writes it back into the UB's
// shadow, and it is reported where it reaches GM or scalar code.
#ifndef OPKG_SIM_REG_CORE_H
#define OPKG_SIM_REG_CORE_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"
#include "opkg_sim/basic_api/core/algo_config.h"

// Vector-function markers: on the device a __VEC_SCOPE__ block or a __simd_vf__ function is
// compiled for the vector unit; here it is ordinary code run in order on the block's thread,
// inside a VfScope (reg_order.h) so that --sync-check sees the function's loads and stores.
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__ if (opkg_sim::reg::VfScope opkg_vf_scope_{}; true)
#endif
// Nearly every use spells `__simd_vf__ inline` (ops-nn: 323 of 329), so the marker adds nothing
// itself: g++ rejects a duplicate `inline`.
#ifndef __simd_vf__
#define __simd_vf__
#endif
// The Ascend 950's spelling of a UB pointer's address space (besides __ubuf__).
#ifndef __local_mem__
#define __local_mem__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
// The SIMT function markers are compiler keywords too: kernels spell them without including the
// SIMT API (ops-nn's embedding_bag helpers); the SIMT model itself is opkg_sim/simt/simt.h.
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif

// bisheng's built-in 128-bit vector type `int4` (four int32 lanes, a global name every 950 kernel
// sees: ops-nn's index_put_v2 and index move 16-byte elements as `int4`), as GCC's vector type of
// the same lanes, the type a kernel's own `typedef int32_t int4 __attribute__((ext_vector_type(4)))`
// also becomes here (flags.ext_vector_flags), so the two name one type.
typedef int32_t int4 __attribute__((vector_size(16)));
// bisheng's `int4x2_t`, two 4-bit integers in a byte (the register API's packed int4 element, the
// first in the low nibble): Reg::Cast converts it to and from 16-bit types (reg_compute.h).
struct int4x2_t {
    uint8_t data;
};

// The compiler's rounding-mode operand of the vector conversion instructions (bisheng's builtin
// `::ROUND`: rint, away, floor, ceil, zero, odd, hybrid), which Reg::GetRound<RoundMode> names.
enum class ROUND { R, A, F, C, Z, O, H };

namespace AscendC {

constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t VECTOR_REG_WIDTH_ONE = 256;
constexpr uint32_t VECTOR_REG_WIDTH_FOR_4BITS = 512;
constexpr uint32_t GetVecLen() { return VECTOR_REG_WIDTH; }

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };
enum class SpecialPurposeReg { AR = 0 };

}  // namespace AscendC

namespace opkg_sim {
namespace reg {
// The vector function being run (nested scopes count as one): under --sync-check, its stores and
// loads are checked for the ordering LocalMemBar gives (reg_order.h).
struct VfScope {
    VfScope();
    ~VfScope();
    VfScope(const VfScope&) = delete;
    VfScope& operator=(const VfScope&) = delete;
};
}  // namespace reg
}  // namespace opkg_sim

namespace AscendC {
// A vector function call (asc_vf_call<F>(args...), VF_CALL<F>(args...)): a plain call in a VfScope.
template <auto F, class... Args>
inline void asc_vf_call(Args&&... args) {
    opkg_sim::reg::VfScope scope;
    F(static_cast<Args&&>(args)...);
}
template <auto F, class... Args>
inline void VF_CALL(Args&&... args) {
    opkg_sim::reg::VfScope scope;
    F(static_cast<Args&&>(args)...);
}

namespace Reg {

// The instruction operand of a RoundMode (the devkit's dav_3510 kernel_reg_compute_common_impl.h).
template <RoundMode mode>
constexpr ::ROUND GetRound() {
    if constexpr (mode == RoundMode::CAST_RINT) return ::ROUND::R;
    else if constexpr (mode == RoundMode::CAST_ROUND) return ::ROUND::A;
    else if constexpr (mode == RoundMode::CAST_FLOOR) return ::ROUND::F;
    else if constexpr (mode == RoundMode::CAST_CEIL) return ::ROUND::C;
    else if constexpr (mode == RoundMode::CAST_TRUNC) return ::ROUND::Z;
    else if constexpr (mode == RoundMode::CAST_ODD) return ::ROUND::O;
    else return ::ROUND::H;
}

enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class HistogramsBinType { BIN0 = 0, BIN1, BIN2, BIN3, BIN4, BIN5, BIN6, BIN7 };
enum class HistogramsType { FREQUENCY = 0, ACCUMULATE };
enum class HighLowPart { LOWEST, HIGHEST };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist {
    DIST_NORM, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8 = 6, DIST_US_B16, DIST_DS_B8, DIST_DS_B16,
    DIST_BDINTLV, DIST_DINTLV_B8, DIST_DINTLV_B16, DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16,
    DIST_E2B_B32, DIST_UNPACK_B32, DIST_DINTLV_B32, DIST_UNPACK4_B8, DIST_SPLT4CHN_B8, DIST_SPLT2CHN_B8,
    DIST_SPLT2CHN_B16,
};
enum class MaskDist { DIST_NORM, DIST_US = 1, DIST_DS = 2, DIST_PACK = 1 };
enum class StoreDist {
    DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32, DIST_FIRST_ELEMENT_B8, DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32, DIST_PACK_B16, DIST_PACK_B32, DIST_INTLV_B8, DIST_INTLV_B16, DIST_PACK_B64,
    DIST_INTLV_B32, DIST_PACK4_B32, DIST_MRG4CHN_B8, DIST_MRG2CHN_B8, DIST_MRG2CHN_B16, DIST_NORM
};
enum class MemType { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class DataCopyMode { DATA_BLOCK_COPY };
enum class GatherMaskMode { NO_STORE_REG, STORE_REG };
enum class StoreMode { NOSTORED = 0, STORED };
enum class RoundControl { NO_ROUND, ROUND };
enum class PairReduce { SUM = 0 };
using ReduceType = AscendC::ReduceType;
struct DefaultType {};

// Cast takes a trait by its code (core/algo_config.h: g++ 12 and reference template arguments).
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
    constexpr operator opkg_sim::ConfigCode() const {
        return opkg_sim::code_field(layoutMode, 0) | opkg_sim::code_field(satMode, 1) |
               opkg_sim::code_field(mrgMode, 2) | opkg_sim::code_field(roundMode, 3);
    }
    static constexpr CastTrait from_code(opkg_sim::ConfigCode c) {
        return {opkg_sim::field_of<RegLayout>(c, 0), opkg_sim::field_of<SatMode>(c, 1),
                opkg_sim::field_of<MaskMergeMode>(c, 2), opkg_sim::field_of<RoundMode>(c, 3)};
    }
};
constexpr CastTrait castTrait = {RegLayout::UNKNOWN, SatMode::UNKNOWN, MaskMergeMode::UNKNOWN, RoundMode::UNKNOWN};

// The per-instruction modes of the transcendental and division instructions, with the devkit's
// algorithm enums (core/algo_config.h). The algorithm choice is accepted; the sim computes them in
// float, correctly rounded where the C library is.
struct ExpSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; ExpAlgo algo = ExpAlgo::INTRINSIC; };
struct LnSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; LnAlgo algo = LnAlgo::INTRINSIC; };
struct LogSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; LogAlgo algo = LogAlgo::INTRINSIC; };
struct Log2SpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; Log2Algo algo = Log2Algo::INTRINSIC; };
struct Log10SpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; Log10Algo algo = Log10Algo::INTRINSIC; };
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    DivAlgo algo = DivAlgo::INTRINSIC;
};
struct SqrtSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};

struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};

template <typename T, const RegTrait& regTrait>
struct RegTensor;

// `t.reg[k]`: the k-th of the registers a RegTensor is made of, as the devkit's `RegType
// reg[REG_NUM]` member gives it, which kernels reinterpret as a one-register tensor
// (`(RegTensor<int32_t>&)idx64.reg[0]`: the low words of 64-bit indices). The sim keeps a tensor's
// lanes in element order, so reg[k] is a view: the register's lanes are copied out when the cast
// converts it and copied back when the full expression ends, so a write through it (Move into
// it, a load) lands in the tensor. With RegTraitNumTwo, a 64-bit tensor's reg[0] holds the low
// 32-bit words of its 64 elements and reg[1] the high ones (the devkit loads it with
// DIST_DINTLV_B32); a narrower one's reg[k] holds elements [k*VL/size, (k+1)*VL/size). A lane
// written through a half takes that half's definedness (the other half's is not tracked apart).
template <class Owner>
struct RegPart {
    using Word = typename std::conditional<sizeof(typename Owner::ActualT) == 8, uint32_t,
                                           typename Owner::ActualT>::type;
    static constexpr bool SPLIT = sizeof(typename Owner::ActualT) == 8 && Owner::REG_NUM == 2;
    static constexpr uint32_t N = VECTOR_REG_WIDTH / sizeof(Word);
    Owner* owner;
    int k;
    RegTensor<Word, RegTraitNumOne> view;
    bool out = false;

    template <class U>
    operator RegTensor<U, RegTraitNumOne>&() {
        if constexpr (Owner::REG_NUM == 1) {
            return reinterpret_cast<RegTensor<U, RegTraitNumOne>&>(*owner);
        } else {
            static_assert(sizeof(U) == sizeof(Word), "reg[k] reinterpreted as a register of another width");
            if (!out) copy_out();
            return reinterpret_cast<RegTensor<U, RegTraitNumOne>&>(view);
        }
    }
    ~RegPart() {
        if (out) copy_back();
    }

private:
    void copy_out() {
        out = true;
        view.written = owner->written;
        view.dirty = false;
        for (uint32_t i = 0; i < N; ++i) {
            if constexpr (SPLIT) {
                uint64_t bits;
                std::memcpy(&bits, &owner->v[i], 8);
                view.v[i] = Word(bits >> (32 * k));
                view.undef[i] = owner->undef[i];
            } else {
                view.v[i] = owner->v[k * N + i];
                view.undef[i] = owner->undef[k * N + i];
            }
            if (view.undef[i]) view.dirty = true;
        }
    }
    void copy_back() {
        for (uint32_t i = 0; i < N; ++i) {
            uint32_t lane = i;
            if constexpr (SPLIT) {
                uint64_t bits;
                std::memcpy(&bits, &owner->v[i], 8);
                const uint64_t keep = k ? 0xffffffffull : 0xffffffff00000000ull;
                bits = (bits & keep) | (uint64_t(uint32_t(view.v[i])) << (32 * k));
                std::memcpy(&owner->v[i], &bits, 8);
            } else {
                lane = k * N + i;
                owner->v[lane] = view.v[i];
            }
            owner->undef[lane] = view.undef[i];
            if (view.undef[i]) owner->dirty = true;
        }
        owner->written = owner->written || view.written;
    }
};

template <class Owner>
struct RegParts {
    // The first member of its tensor, so its address is the tensor's.
    RegPart<Owner> operator[](int k) { return RegPart<Owner>{reinterpret_cast<Owner*>(this), k}; }
};

// A register's definedness, one byte per register byte: lane i of a W-byte type is bytes
// [i*W, (i+1)*W), undefined when any of them is (its value: the first such byte's origin), and
// writing it sets all W. So every one-register tensor has one layout whatever its element type,
// and a kernel's view of a register as another width (`(RegTensor<uint32_t>&)halfReg` for Pack,
// ops-nn's int4 quantization) reads the definedness of the bytes it covers.
template <uint32_t W, uint32_t BYTES>
struct LaneShadow {
    uint8_t b[BYTES];
    struct Ref {
        uint8_t* p;
        operator uint8_t() const {
            for (uint32_t k = 0; k < W; ++k) if (p[k]) return p[k];
            return 0;
        }
        Ref& operator=(uint8_t o) {
            std::memset(p, o, W);
            return *this;
        }
        Ref& operator=(const Ref& o) { return *this = uint8_t(o); }
    };
    Ref operator[](uint32_t i) { return Ref{b + i * W}; }
    uint8_t operator[](uint32_t i) const {
        for (uint32_t k = 0; k < W; ++k) if (b[i * W + k]) return b[i * W + k];
        return 0;
    }
    operator uint8_t*() { return b; }
};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    using ActualT = T;
    static constexpr RegTrait trait = regTrait;
    static constexpr int REG_NUM = regTrait.REG_NUM;
    static constexpr uint32_t LANES = VECTOR_REG_WIDTH * REG_NUM / sizeof(T);
    static constexpr uint32_t STEP = sizeof(T) / REG_NUM;   // mask bits per element (at least 1)
    RegParts<RegTensor> reg;
    // at one offset whatever T's alignment, as the rest: a view of the register as another
    // width reads the same bytes (half's lanes sat 2 bytes in, int32_t's 4)
    alignas(16) T v[LANES];
    // per lane: 0 defined, else the shadow value (origin) of its undefined value
    LaneShadow<sizeof(T), LANES * sizeof(T)> undef;
    bool dirty = false;     // some lane undefined
    bool written = false;   // anything wrote the register yet
    RegTensor() {}
};

// The vector builtin type a RegTensor wraps on the device (TypeGet<T>::T, compared against
// vector_f16 / vector_f32 by some kernels).
template <class T> struct VecTag {};
template <typename U>
struct TypeGet {
    using T = VecTag<U>;
};

struct MaskReg {
    uint64_t w[4] = {0, 0, 0, 0};
    bool set = false;     // written by CreateMask, UpdateMask, a compare, a load or a mask operation
    uint8_t width = 0;    // the element width it was made for (0: any)
    MaskReg() {}
};

struct AddrReg {
    int64_t bytes = 0;
};

// The unaligned-access register: a load's prefetch base, or a store's bytes after the last
// 32-byte boundary, pending until the next store continues them or the Post call flushes them.
// One type: ops-nn declares UnalignReg for both roles.
struct UnalignReg {
    int64_t base = -1;
    int64_t pending_off = -1;   // UB offset where the pending bytes go
    uint32_t pending_n = 0;
    uint8_t bytes[2 * VECTOR_REG_WIDTH];
    uint8_t undef[2 * VECTOR_REG_WIDTH];
};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

}  // namespace Reg
namespace MicroAPI = Reg;
}  // namespace AscendC

using vector_f16 = AscendC::Reg::VecTag<half>;
using vector_f32 = AscendC::Reg::VecTag<float>;
using vector_bf16 = AscendC::Reg::VecTag<bfloat16_t>;
using vector_s32 = AscendC::Reg::VecTag<int32_t>;
using vector_u32 = AscendC::Reg::VecTag<uint32_t>;
using vector_s16 = AscendC::Reg::VecTag<int16_t>;
using vector_u16 = AscendC::Reg::VecTag<uint16_t>;
using vector_s8 = AscendC::Reg::VecTag<int8_t>;
using vector_u8 = AscendC::Reg::VecTag<uint8_t>;

namespace opkg_sim {
namespace reg {

using AscendC::Reg::MaskReg;
using AscendC::Reg::MaskMergeMode;

constexpr uint32_t VL = AscendC::VECTOR_REG_WIDTH;

template <class R> struct is_reg : std::false_type {};
template <class T, const AscendC::Reg::RegTrait& Tr> struct is_reg<AscendC::Reg::RegTensor<T, Tr>> : std::true_type {};

// A template argument T left at DefaultType means "the register's element type".
template <class T, class R>
using elem_t = typename std::conditional<std::is_same<T, AscendC::Reg::DefaultType>::value, typename R::ActualT, T>::type;

template <auto mode>
constexpr MaskMergeMode merge_of() {
    if constexpr (std::is_pointer<decltype(mode)>::value) return mode->mrgMode;
    else if constexpr (std::is_same<decltype(mode), MaskMergeMode>::value) return mode;
    else return mode.mrgMode;
}

inline bool bit(const MaskReg& m, uint32_t pos) { return pos < 2048 && ((m.w[pos >> 6] >> (pos & 63)) & 1u); }
inline void set_bit(MaskReg& m, uint32_t pos, bool on) {
    if (pos >= 256) return;
    if (on) m.w[pos >> 6] |= uint64_t(1) << (pos & 63);
    else m.w[pos >> 6] &= ~(uint64_t(1) << (pos & 63));
}

// An operation on elements `step` bytes wide (per register) reads `m`: an unset mask is garbage
// on the device (an error); a mask made for another width selects other elements (a warning).
inline void use_mask(MaskReg& m, uint32_t step, const char* op, SrcLoc loc) {
    if (__builtin_expect(!m.set, 0)) {
        fail(loc, format("%s: the MaskReg was never set (CreateMask, UpdateMask, a Compare or a mask load); the "
                         "device would use whatever predicate the register held", op));
    }
    if (m.width && m.width != step) {
        BlockState& b = block();
        if (b.warned && !b.warned->first(loc)) return;
        log_line(format("warning: %s:%d: %s works on %u-byte elements with a MaskReg made for %u-byte elements: "
                        "element i is selected by mask bit %u*i, so it selects other elements than the mask's "
                        "maker meant (make the mask with the operation's type, or convert it with MaskPack/"
                        "MaskUnPack)", loc.file ? loc.file : "?", loc.line, op, step, unsigned(m.width), step));
    }
}

// The origin of a register read before anything wrote it.
inline uint8_t unset_origin(const char* op, SrcLoc loc) {
    return add_origin(Origin{ORIGIN_REG_UNSET, op, "a register", loc, 0, nullptr, 0, 0});
}

// Reading a register: one nothing wrote becomes undefined in every lane, from here.
template <class R>
inline void read_reg(R& r, const char* op, SrcLoc loc) {
    if (__builtin_expect(!r.written, 0)) {
        std::memset(static_cast<void*>(r.v), 0, sizeof r.v);
        std::memset(r.undef, unset_origin(op, loc), sizeof r.undef);
        r.dirty = true;
        r.written = true;
    }
}

template <class R>
inline void clean(R& r) {
    if (r.dirty) std::memset(r.undef, 0, sizeof r.undef);
    r.dirty = false;
    r.written = true;
}

// A UB address as the register API takes it: the offset LocalTensor::GetPhyAddr() gives (the
// device's UB address) or a pointer into the block's UB; `bytes` from it must lie inside the UB.
inline uint8_t* ub_at(const void* p, uint64_t bytes, uint32_t align, const char* op, SrcLoc loc) {
    BlockState& b = block();
    const uint8_t* q = static_cast<const uint8_t*>(p);
    uint64_t off;
    if (b.ub && q >= b.ub && q < b.ub + b.ub_bytes) off = uint64_t(q - b.ub);
    else if (b.ub && reinterpret_cast<uintptr_t>(p) < b.ub_bytes) off = reinterpret_cast<uintptr_t>(p);
    else {
        fail(loc, format("%s: %p is not a Unified Buffer address of this block (a UB address is an offset below %llu, "
                         "as (__ubuf__ T*)LocalTensor::GetPhyAddr() gives it)", op, p,
                         (unsigned long long)b.ub_bytes));
    }
    if (off + bytes > b.ub_bytes) {
        fail(loc, format("%s: UB bytes [%llu, %llu) run past the end of the SoC's %llu-byte Unified Buffer", op,
                         (unsigned long long)off, (unsigned long long)(off + bytes), (unsigned long long)b.ub_bytes));
    }
    if (align > 1 && off % align) {
        fail(loc, format("%s: UB address %llu is not %u-byte aligned, which this access needs on the device (use "
                         "LoadUnAlign/StoreUnAlign for unaligned data)", op, (unsigned long long)off, align));
    }
    return b.ub + off;
}

// The per-lane origins of `lanes` elements of `esize` bytes just read from UB at `p` (check_read
// has turned never-written bytes into origins).
template <class R>
inline void lanes_from_shadow(R& r, const uint8_t* p, uint32_t first, uint32_t lanes, uint32_t esize,
                              uint32_t lane_step = 1) {
    BlockState& b = block();
    if (!b.shadow) return;
    const uint8_t* s = b.shadow + (p - b.ub);
    for (uint32_t i = 0; i < lanes; ++i) {
        uint8_t o = 0;
        for (uint32_t k = 0; k < esize; ++k) {
            if (s[i * esize + k] != UB_WRITTEN) {
                o = s[i * esize + k];
                break;
            }
        }
        r.undef[first + i * lane_step] = o;
        if (o) r.dirty = true;
    }
}

// A vector-unit read of UB bytes (definedness origins, --sync-check against the other pipes).
inline bool ub_read(const uint8_t* p, uint64_t n, const char* op, SrcLoc loc) {
    BlockState& b = block();
    check_read(p, n, op, "source", loc);
    return b.shadow && first_hole(b.shadow + (p - b.ub), n) != nullptr;
}

// A vector-unit write of n UB bytes at p; `origin` (0: defined) is the value's definedness.
inline void ub_written(uint8_t* p, uint64_t n, uint8_t origin) {
    BlockState& b = block();
    if (!b.taints.empty()) clear_taints(b);
    mark_written(p, n);
    if (origin && b.shadow) std::memset(b.shadow + (p - b.ub), origin, n);
}

}  // namespace reg
}  // namespace opkg_sim

#endif
