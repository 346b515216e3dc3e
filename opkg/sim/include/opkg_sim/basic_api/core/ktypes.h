// Scalar types, qualifiers and enums of the Ascend C device language, as a CPU build sees them.
#ifndef OPKG_SIM_KTYPES_H
#define OPKG_SIM_KTYPES_H

#include <cstdint>
#include <cstring>
#include <type_traits>

// Device qualifiers have no meaning on the CPU.
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
// bisheng's own spelling of the qualifier, `[aicore]` (ops-nn's gemm_v3 and pp_matmul headers
// `#define __aicore__ [aicore]` outside CANN's CPU-debug build): with `aicore` as `[]` it reads as
// `[[]]`, an empty C++ attribute, wherever the qualifier may stand.
#if defined(OPKG_SIM_KERNEL) && !defined(aicore)
#define aicore []
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__ const   // CANN's generated tiling header: tiling data is read-only
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
// A global with one copy per core (bisheng's [[block_local]]; cann-ops' MatMulV3 keeps its copy
// callbacks' context so): one per block thread here. Blocks run one after another on a thread
// may see the last block's value, as a core sees what its previous task left.
#ifndef __BLOCK_LOCAL__
#define __BLOCK_LOCAL__ thread_local
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
// Branch hints as CANN's kernel_utils_macros.h defines them, unless the kernel did.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// The core a kernel body runs on, as a device build defines it (kernel_utils_macros.h): the sim
// runs vector code, so A2/A3 kernels see AIV (-D__DAV_C220_VEC__) and the other SoCs MIX, and
// `if (g_coreType == AIC) return;` or `if ASCEND_IS_AIV { ... }` take the vector path.
namespace AscendC {
// CANN's compile-time type choice (kernel_utils_constants.h), std::conditional under its own name.
template <bool condition, class T1, class T2> struct Conditional { using type = T1; };
template <class T1, class T2> struct Conditional<false, T1, T2> { using type = T2; };
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC
#if defined(__DAV_C220_CUBE__)
constexpr int32_t g_coreType = AscendC::AIC;
#elif defined(__DAV_C220_VEC__)
constexpr int32_t g_coreType = AscendC::AIV;
#else
constexpr int32_t g_coreType = AscendC::MIX;
#endif
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV constexpr(g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC constexpr(g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV constexpr(g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC constexpr(g_coreType != AscendC::AIC)
#endif

// fp16 with IEEE binary16 rounding; the API computes in float and rounds once per operation,
// as the vector unit does.
using half = _Float16;

// bf16 stored as its 16 bits; conversions round to nearest even like the hardware.
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    // constexpr, as __bf16's: atvoss's MAKE_CONST(bfloat16_t, 1.0) is a static constexpr member
    constexpr bfloat16_t(float f) : bits(from_float(f)) {}
    // The device's bfloat16_t is __bf16, an arithmetic type every arithmetic type converts to
    // implicitly (cann-ops' foreach kernels write `T(inScalarGM.GetValue(0))` with a half
    // scalar and T = bfloat16_t); one template for all of them leaves no ambiguous overloads.
    template <class U, typename std::enable_if<(std::is_arithmetic<U>::value || std::is_same<U, _Float16>::value) &&
                                                   !std::is_same<U, float>::value, int>::type = 0>
    constexpr bfloat16_t(U v) : bfloat16_t(static_cast<float>(v)) {}
    // __bf16's compound assignments: computed in float, rounded once (ops-nn's SIMT segment_sum
    // accumulates `res += x[i]` in its element type)
    bfloat16_t& operator+=(float v) { return *this = bfloat16_t(float(*this) + v); }
    bfloat16_t& operator-=(float v) { return *this = bfloat16_t(float(*this) - v); }
    bfloat16_t& operator*=(float v) { return *this = bfloat16_t(float(*this) * v); }
    bfloat16_t& operator/=(float v) { return *this = bfloat16_t(float(*this) / v); }
    // through a volatile GM pointer (ops-nn's SIMT gather_elements: `yAddr[i] = xAddr[j]`)
    // (a template, so it is no copy assignment and the type stays trivially copyable)
    template <class U, typename std::enable_if<std::is_same<typename std::remove_cv<U>::type, bfloat16_t>::value,
                                               int>::type = 0>
    volatile bfloat16_t& operator=(const U& o) volatile {
        bits = o.bits;
        return *this;
    }
    operator float() const volatile {
        bfloat16_t v;
        v.bits = bits;
        return float(v);
    }
    constexpr operator float() const { return __builtin_bit_cast(float, static_cast<uint32_t>(bits) << 16); }
    static constexpr uint16_t from_float(float f) {
        uint32_t u = __builtin_bit_cast(uint32_t, f);
        if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // NaN stays NaN
        u += 0x7fffu + ((u >> 16) & 1u);
        return static_cast<uint16_t>(u >> 16);
    }
};

#include "lowfloat.h"   // the Ascend 950's fp8 / fp4 types

namespace opkg_sim {
// What DTYPE_<NAME> names for a complex tensor: two floats (doubles), real part first, as
// ge::DT_COMPLEX64 (DT_COMPLEX128) lays them out in GM.
struct complex64 { float real; float imag; };
struct complex128 { double real; double imag; };
}  // namespace opkg_sim

// AscendC::int4b_t, signed 4-bit (asc-devkit common_types.h: integer_sub_type<4, true>): one
// value held in the low bits of a byte, converting to int8_t with its sign extended. In tensors
// two values share a byte, the first in the low nibble; the tensors' element accessors and
// DataCopy counts take that packing into account (tensor.h, datacopy.h: opkg_sim::packed_per_byte).
namespace AscendC {
struct int4b_t {
    uint8_t storage = 0;
    int4b_t() = default;
    int4b_t(int32_t v) : storage(uint8_t(v) & 0x0F) {}
    int4b_t(uint32_t v) : storage(uint8_t(v) & 0x0F) {}
    operator int8_t() const { return (storage & 0x08) ? int8_t(storage | 0xF0) : int8_t(storage); }
    bool operator==(const int4b_t& o) const { return storage == o.storage; }
    bool operator!=(const int4b_t& o) const { return storage != o.storage; }
    bool operator<(const int4b_t& o) const { return int8_t(*this) < int8_t(o); }
    bool operator>(const int4b_t& o) const { return int8_t(*this) > int8_t(o); }
    bool operator<=(const int4b_t& o) const { return int8_t(*this) <= int8_t(o); }
    bool operator>=(const int4b_t& o) const { return int8_t(*this) >= int8_t(o); }
};
}  // namespace AscendC
using int4b_t = AscendC::int4b_t;   // the devkit names it at global scope too (common_types.h)

namespace opkg_sim {
// Elements per byte of a tensor of T: 2 for int4b_t, else 1 (a T takes sizeof(T) bytes).
template <class T> constexpr uint32_t packed_per_byte() {
    return std::is_same<T, AscendC::int4b_t>::value ? 2u : 1u;
}
}  // namespace opkg_sim

// The bisheng compiler's own spellings of the float types, used by real kernels
// (`LocalTensor<float32_t>`, `std::is_same_v<T, float16_t>`).
using float32_t = float;
using float16_t = half;

namespace AscendC {

enum class TPosition : uint8_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
    C2PIPE2GM, C2PIPE2LOCAL, MAX,
};
using QuePosition = TPosition;
// an event id, as TPipe::AllocEventID returns it and SetFlag/WaitFlag take it (CANN's
// kernel_tensor_base.h)
using TEventID = int8_t;

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX,
};

// the memory DataSyncBarrier waits for (the devkit's kernel_event.h)
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// CAST_HYBRID, CAST_EVEN and CAST_ZERO are the Ascend 950's (the register API's Cast); UNKNOWN a
// CastTrait's "the instruction's default".
enum class RoundMode : uint8_t {
    CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
    CAST_HYBRID, CAST_EVEN, CAST_ZERO, UNKNOWN = 0xFF
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

enum class KernelMode : uint8_t { MIX_MODE = 0, AIC_MODE, AIV_MODE };

#ifndef ASCC_PARAM_ONE_BLK_SIZE   // the devkit's guard: the host tiling headers declare it too
#define ASCC_PARAM_ONE_BLK_SIZE
constexpr uint32_t ONE_BLK_SIZE = 32;
#endif
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The 950 toolchain's name for it: the devkit's dav_3510 implementation and ops-nn's arch35
// index kernels (scatter_add) use it without defining it; kernels that define their own do so
// in their namespace, which hides this one.
constexpr uint32_t ONE_BLOCK_SIZE = 32;
#endif
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;
#ifndef ASCC_PARAM_BLOCK_CUBE
#define ASCC_PARAM_BLOCK_CUBE
constexpr uint32_t BLOCK_CUBE = 16;
#endif
// The rest of the sizes the devkit's kernel_utils_constants.h gives every kernel (AscendC
// namespace, values and types as there): ops-nn's add_layer_norm family reads ONE_BLK_FLOAT_NUM.
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr int32_t FULL_MASK_LEN = 128;
constexpr int32_t HLAF_MASK_LEN = 64;      // sic, the devkit's spelling
constexpr int32_t BYTE_PER_FRACTAL = 512;
constexpr int32_t MIN_BLOCK_LEN = 1;
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
// More of kernel_utils_constants.h (types and values as there): the block stride of a contiguous
// repeat, the repeat strides of half and a quarter of a repeat, the all-lanes vector mask word
// (SetVectorMask), the factors of two, and the L0A/L0B sizes ops-nn's conv3d kernels read.
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t HALF_FACTOR = 2;
constexpr int32_t DOUBLE_FACTOR = 2;
constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr uint64_t FULL_MASK = 0xffffffffffffffff;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
// The system workspace CANN reserves ahead of the user's (GetUserWorkspace): 2 MiB on the 310P
// (2002) and 1001, 16 MiB on the 910B and later, as the runtime's lib workspace (runtime.py)
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002)
constexpr size_t RESERVED_WORKSPACE = 2 * 1024 * 1024;
#else
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;
#endif

// Scalar bf16 <-> float as kernel_utils.h spells them. ToFloat widens exactly; ToBfloat16 keeps the
// upper 16 bits (it truncates, unlike Cast's rounding modes), as CANN's helper does. The half and
// float overloads stand for the device compiler's implicit conversions to bfloat16_t, so
// `ToFloat(gm.GetValue(0))` compiles for every dtype a kernel template is instantiated with.
__aicore__ inline float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
__aicore__ inline float ToFloat(half v) { return static_cast<float>(v); }
__aicore__ inline float ToFloat(float v) { return v; }
__aicore__ inline bfloat16_t ToBfloat16(const float& f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    bfloat16_t b;
    b.bits = static_cast<uint16_t>(u >> 16);
    return b;
}

// The scalar Cast between bfloat16_t and float (the devkit's kernel_operator_scalar_intf.h, on
// the 910B (2201) among others; ops-nn's add_layer_norm_quant reads a bf16 scale with
// `Cast(gm.GetValue(0))`). Widening is exact. Narrowing is the devkit's kernel_scalar_convert.h:
// the 16 dropped mantissa bits round to nearest, ties to even; a value rounding past the largest
// finite one is infinity; NaN is 0x7FFF.
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3002 || __NPU_ARCH__ == 3510 || \
    __NPU_ARCH__ == 5102
__aicore__ inline float Cast(const bfloat16_t& v) { return static_cast<float>(v); }
__aicore__ inline bfloat16_t Cast(const float& f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint16_t sign = static_cast<uint16_t>((u >> 31) << 15);
    const uint32_t exp = (u >> 23) & 0xFFu, man = (u & 0x7FFFFFu) | 0x800000u;
    bfloat16_t b;
    if (exp == 0xFFu) {   // infinity keeps its sign; NaN is the positive quiet one
        b.bits = (u & 0x7FFFFFu) ? uint16_t(0x7FFF) : uint16_t(sign | 0x7F80);
        return b;
    }
    uint16_t e = static_cast<uint16_t>(exp), m = static_cast<uint16_t>(man >> 16);
    if ((man & 0x8000u) && ((man & 0x7FFFu) || (man & 0x10000u))) {
        if (e == 0xFE && (m & 0x7F) == 0x7F) {
            b.bits = uint16_t(sign | 0x7F80);
            return b;
        }
        ++m;
    }
    if (m > 0xFF) ++e;
    b.bits = static_cast<uint16_t>(sign | (e << 7) | (m & 0x7F));
    return b;
}
#endif

}  // namespace AscendC

// Pipes and events as plain enums at global scope, like the CCE builtins.
// The CCE builtins' padding modes (copy_gm_to_cbuf's last argument, DataCopyEnhancedParams::padMode).
enum pad_t : uint8_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX };
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
// The unit-flag modes of the CCE cube builtins (mad, copy_matrix_cc_to_*; MmadParams::unitFlag
// and FixpipeParams::unitFlag take their values): 0 off, 2 on, 3 on and the last of the tile.
enum unit_flag_t : uint8_t { UFMode0 = 0, UFMode1 = 1, UFMode2 = 2, UFMode3 = 3 };

namespace opkg_sim {

// Types the vector unit computes in: fp16/bf16 are widened to float and rounded per operation.
template <class T> struct calc { using type = T; };
template <> struct calc<half> { using type = float; };
template <> struct calc<bfloat16_t> { using type = float; };
template <class T> using calc_t = typename calc<T>::type;

template <class T> struct identity { using type = T; };

template <class T> const char* type_name() {
    if (std::is_same<T, float>::value) return "float";
    if (std::is_same<T, half>::value) return "half";
    if (std::is_same<T, bfloat16_t>::value) return "bfloat16_t";
    if (std::is_same<T, int8_t>::value) return "int8_t";
    if (std::is_same<T, uint8_t>::value) return "uint8_t";
    if (std::is_same<T, int16_t>::value) return "int16_t";
    if (std::is_same<T, uint16_t>::value) return "uint16_t";
    if (std::is_same<T, int32_t>::value) return "int32_t";
    if (std::is_same<T, uint32_t>::value) return "uint32_t";
    if (std::is_same<T, int64_t>::value) return "int64_t";
    if (std::is_same<T, uint64_t>::value) return "uint64_t";
    if (std::is_same<T, bool>::value) return "bool";
    if (std::is_same<T, AscendC::int4b_t>::value) return "int4b_t";
    return "T";
}

const char* position_name(AscendC::TPosition p);
#ifdef OPKG_SIM_RUNTIME_TU
const char* position_name(AscendC::TPosition p) {
    switch (p) {
        case AscendC::TPosition::GM: return "GM";
        case AscendC::TPosition::VECIN: return "VECIN";
        case AscendC::TPosition::VECOUT: return "VECOUT";
        case AscendC::TPosition::VECCALC: return "VECCALC";
        case AscendC::TPosition::A1: return "A1";
        case AscendC::TPosition::A2: return "A2";
        case AscendC::TPosition::B1: return "B1";
        case AscendC::TPosition::B2: return "B2";
        case AscendC::TPosition::C1: return "C1";
        case AscendC::TPosition::C2: return "C2";
        case AscendC::TPosition::CO1: return "CO1";
        case AscendC::TPosition::CO2: return "CO2";
        case AscendC::TPosition::TSCM: return "TSCM";
        default: return "OTHER";
    }
}
#endif

}  // namespace opkg_sim
#endif
