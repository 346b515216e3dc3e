// SIMT on the CPU: the thread-grid model of asc-devkit's include/simt_api (asc_simt.h) for the
// Ascend 950 (dav_3510). A vector kernel launches a SIMT function with
// `asc_vf_call<f>(dim3(n), args...)` (or AscendC::Simt::VF_CALL); the block's n threads then run
// as fibres on the block's own OS thread (opkg_sim/simt/simt_runtime.h): each runs until it returns or
// reaches asc_syncthreads(), so a function without barriers costs one stack switch per thread.
// threadIdx / blockDim / blockIdx / gridDim are the current fibre's values (thread-local
// globals, updated on every switch). blockIdx.x is the AIV block index and gridDim.x the block
// count (the devkit's programming model: the grid is the kernel's blockDim).
//
// Race and bounds checks: kernel TUs that include simt_api are compiled with GCC's
// -fsanitize=thread instrumentation (opkg/sim/flags.py `simt_flags`), whose per-access hooks
// (__tsan_read4, ...) the runtime defines itself (no libtsan): inside a SIMT launch every load
// and store through a raw __gm__ / __ubuf__ pointer is checked against the GM buffers and the
// UB, marks what it wrote as defined, and is compared with the other threads' accesses to the
// same bytes since the last barrier.
#ifndef OPKG_SIM_SIMT_SIMT_H
#define OPKG_SIM_SIMT_SIMT_H

#include <cstdint>
#include <cmath>
#include <limits>
#include <type_traits>
#include "kernel_operator.h"

// __simt_vf__ and __simt_callee__: compiler keywords, defined with the register API's markers
// (opkg_sim/basic_api/reg/reg_core.h, through kernel_operator.h).
#ifndef __local_mem__
#define __local_mem__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(n)
#endif
#ifndef LAUNCH_BOUND
#define LAUNCH_BOUND(n)
#endif
#ifndef __tiling_data_ptr__
#define __tiling_data_ptr__
#endif

// The devkit's thread-dimension type (bisheng's cce::dim3): unset dimensions are 1. `at` is where
// it was made, normally the asc_vf_call line (`asc_vf_call<f>(dim3(n), ...)`): a variadic launch
// cannot take a defaulted source location of its own, and diagnostics about the launch and the
// stores its threads leave name that line.
struct dim3 {
    uint32_t x, y, z;
    opkg_sim::SrcLoc at;
    constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1,
                   opkg_sim::SrcLoc at_ = opkg_sim::SrcLoc::current())
        : x(x_), y(y_), z(z_), at(at_) {}
};
namespace cce {
using ::dim3;
}

// The built-in variables, per fibre (set by the runtime on each switch). Defined in the kernel
// library's own runtime (hidden, constant-initialised): a kernel's loop then finds them with one
// module-local TLS lookup and no TLS init call, instead of a global-dynamic lookup per variable
// (a tenth of a SIMT gather's time went to __tls_get_addr).
#define OPKG_SIMT_BUILTIN __constinit thread_local __attribute__((visibility("hidden"), tls_model("local-dynamic")))
// Read-only to kernels, as the device's special registers are: a SIMT function reads its own
// thread's values, which no other thread changes while it runs (the runtime sets them before it
// resumes a fibre). Declared const, of a type without constructors (GCC takes a const object
// whose type has one for writable while it is constructed), a kernel's loop loads them once,
// not on every iteration, and GCC's thread-sanitizer instrumentation hooks no read of them (a
// read-only variable cannot race): two hook calls and a TLS lookup less per iteration of a
// grid-stride loop. Only the runtime's translation unit writes them; they convert to dim3.
namespace opkg_sim {
namespace simt {
struct BuiltinDim3 {
    uint32_t x, y, z;
    operator dim3() const { return dim3(x, y, z, SrcLoc{nullptr, 0}); }
    BuiltinDim3& operator=(const dim3& d) {
        x = d.x;
        y = d.y;
        z = d.z;
        return *this;
    }
};
}  // namespace simt
}  // namespace opkg_sim
#ifdef OPKG_SIM_RUNTIME_TU
#define OPKG_SIMT_BUILTIN_READ_ONLY
#else
#define OPKG_SIMT_BUILTIN_READ_ONLY const
#endif
extern OPKG_SIMT_BUILTIN OPKG_SIMT_BUILTIN_READ_ONLY opkg_sim::simt::BuiltinDim3 threadIdx;
extern OPKG_SIMT_BUILTIN OPKG_SIMT_BUILTIN_READ_ONLY opkg_sim::simt::BuiltinDim3 blockDim;
extern OPKG_SIMT_BUILTIN OPKG_SIMT_BUILTIN_READ_ONLY opkg_sim::simt::BuiltinDim3 blockIdx;
extern OPKG_SIMT_BUILTIN OPKG_SIMT_BUILTIN_READ_ONLY opkg_sim::simt::BuiltinDim3 gridDim;

namespace opkg_sim {
namespace simt {

// Most threads per block (the devkit's programming model: blockDim.x * y * z <= 2048).
constexpr uint32_t MAX_THREADS = 2048;
constexpr uint32_t WARP = 32;

// Runs `body(closure)` once per thread of `dims` (opkg_sim/simt/simt_runtime.h).
void launch(dim3 dims, void (*body)(void*), void* closure, SrcLoc loc);
// asc_syncthreads(): the calling fibre waits until every thread of the block reached it.
void syncthreads(SrcLoc loc);
// Whether a SIMT launch is running on this OS thread.
bool in_launch();
// Linear thread index within the block.
uint32_t linear_tid();
// An atomic access of `bytes` at `p` by the current thread: bounds-checked, marks GM/UB
// written; atomics never race with each other.
void atomic_access(const void* p, uint32_t bytes, SrcLoc loc);

template <auto F, typename... Args>
inline void call(dim3 dims, SrcLoc loc, Args&... args) {
    auto run = [&]() { F(args...); };
    launch(dims, [](void* c) { (*static_cast<decltype(run)*>(c))(); }, &run, loc);
}

// The read-modify-write of an atomic: fibres of one block never interleave inside it, and it is
// not instrumented, so that it is not taken for a race.
template <typename T, typename Op>
__attribute__((no_sanitize("thread"), noinline)) T atomic_rmw(T* p, Op op, SrcLoc loc) {
    atomic_access(p, sizeof(T), loc);
    T old = *p;
    *p = op(old);
    return old;
}

}  // namespace simt
}  // namespace opkg_sim

template <auto F, typename... Args>
inline void asc_vf_call(dim3 threadNums, Args&&... args) {
    opkg_sim::simt::call<F>(threadNums, threadNums.at, args...);
}

// ---- synchronisation (device_sync_functions.h) ----
inline void asc_syncthreads(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { opkg_sim::simt::syncthreads(loc); }
inline void __syncthreads(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { opkg_sim::simt::syncthreads(loc); }
// Memory fences order one thread's accesses; fibres see each other's stores at once.
inline void asc_threadfence() {}
inline void asc_threadfence_block() {}

// ---- atomics (device_atomic_functions.h): return the old value ----
#define OPKG_SIMT_ATOMIC(name, expr)                                                              \
    template <typename T>                                                                         \
    inline T name(T* address, T val, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {       \
        return opkg_sim::simt::atomic_rmw(address, [val](T old) { return expr; }, loc);          \
    }
OPKG_SIMT_ATOMIC(asc_atomic_add, static_cast<T>(old + val))
OPKG_SIMT_ATOMIC(asc_atomic_sub, static_cast<T>(old - val))
OPKG_SIMT_ATOMIC(asc_atomic_exch, val)
OPKG_SIMT_ATOMIC(asc_atomic_and, static_cast<T>(old & val))
OPKG_SIMT_ATOMIC(asc_atomic_or, static_cast<T>(old | val))
OPKG_SIMT_ATOMIC(asc_atomic_xor, static_cast<T>(old ^ val))
// max/min of floats: a NaN operand loses, as fmaxf/fminf
OPKG_SIMT_ATOMIC(asc_atomic_max, (val > old || old != old) ? val : old)
OPKG_SIMT_ATOMIC(asc_atomic_min, (val < old || old != old) ? val : old)
#undef OPKG_SIMT_ATOMIC
// CUDA's wrapping increment/decrement: inc wraps to 0 past val, dec to val below 0 or past val.
inline uint32_t asc_atomic_inc(uint32_t* address, uint32_t val, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return opkg_sim::simt::atomic_rmw(address, [val](uint32_t old) { return old >= val ? 0u : old + 1; }, loc);
}
inline uint32_t asc_atomic_dec(uint32_t* address, uint32_t val, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return opkg_sim::simt::atomic_rmw(address, [val](uint32_t old) { return (old == 0 || old > val) ? val : old - 1; }, loc);
}
template <typename T>
inline T asc_atomic_cas(T* address, T compare, T val, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    return opkg_sim::simt::atomic_rmw(address, [compare, val](T old) { return old == compare ? val : old; }, loc);
}

// ---- the AscendC::Simt spelling (simt_api/cpp/kernel_simt_*_intf.h) ----
namespace AscendC {
namespace Simt {
using Dim3 = ::dim3;
template <auto F, typename... Args>
inline void VF_CALL(Dim3 dims, Args&&... args) {
    opkg_sim::simt::call<F>(dims, dims.at, args...);
}
inline int32_t GetWarpSize() { return int32_t(opkg_sim::simt::WARP); }
template <int32_t dim = 0>
inline uint32_t GetThreadNum() { return dim == 0 ? blockDim.x : dim == 1 ? blockDim.y : blockDim.z; }
template <int32_t dim = 0>
inline uint32_t GetThreadIdx() { return dim == 0 ? threadIdx.x : dim == 1 ? threadIdx.y : threadIdx.z; }
inline uint32_t GetBlockIdx() { return blockIdx.x; }
inline uint32_t GetBlockNum() { return gridDim.x; }
inline void ThreadBarrier(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { opkg_sim::simt::syncthreads(loc); }
// Division by the magic number and shift of GetUintDivMagicAndShift: the quotient itself.
template <typename T>
inline T UintDiv(T dividend, T magic, T shift) {
    using W = std::conditional_t<(sizeof(T) > 4), unsigned __int128, uint64_t>;
    constexpr int bits = sizeof(T) * 8;
    const T hi = T((W(dividend) * W(magic)) >> bits);
    return T(dividend + hi) >> shift;   // the sum wraps in T, as on the device
}
template <typename T>
inline T AtomicAdd(T* p, T v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return asc_atomic_add(p, v, loc); }
template <typename T>
inline T AtomicMax(T* p, T v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return asc_atomic_max(p, v, loc); }
template <typename T>
inline T AtomicMin(T* p, T v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return asc_atomic_min(p, v, loc); }
template <typename T>
inline T AtomicExch(T* p, T v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return asc_atomic_exch(p, v, loc); }
template <typename T>
inline T AtomicCas(T* p, T c, T v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return asc_atomic_cas(p, c, v, loc); }
// Cast<T, U, roundMode, satMode>(x) (the devkit's kernel_simt_cast_intf.h): one value
// converted with the rounding the mode names (CAST_RINT to nearest even, CAST_ROUND half away
// from zero, CAST_FLOOR, CAST_CEIL, CAST_TRUNC); to an integer, SAT clamps to its range and a
// NaN gives 0 (ops-nn's unsorted_segment_sum quantises its float sums to int32 so). Without
// SAT an out-of-range value is the device's business; the sim clamps it the same way.
enum class SatMode { NO_SAT = 0, SAT };
template <RoundMode mode>
inline double RoundTo(double v) {
    if constexpr (mode == RoundMode::CAST_ROUND) return std::round(v);
    else if constexpr (mode == RoundMode::CAST_FLOOR) return std::floor(v);
    else if constexpr (mode == RoundMode::CAST_CEIL) return std::ceil(v);
    else if constexpr (mode == RoundMode::CAST_TRUNC) return std::trunc(v);
    else return std::nearbyint(v);   // CAST_RINT: the default environment rounds to nearest even
}
template <typename T, typename U, RoundMode roundMode, SatMode satMode = SatMode::NO_SAT>
inline T Cast(U x) {
    const double v = static_cast<double>(x);
    if constexpr (std::is_integral<T>::value) {
        if (v != v) return T(0);
        const double r = RoundTo<roundMode>(v);
        if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
        if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(r);
    } else if constexpr (roundMode == RoundMode::CAST_RINT || roundMode == RoundMode::CAST_NONE) {
        return static_cast<T>(static_cast<float>(v));
    } else {
        // the float nearest v, then one step toward the direction the mode names
        float f = static_cast<float>(v);
        if constexpr (roundMode == RoundMode::CAST_FLOOR) {
            if (f > v) f = std::nextafter(f, -INFINITY);
        } else if constexpr (roundMode == RoundMode::CAST_CEIL) {
            if (f < v) f = std::nextafter(f, INFINITY);
        } else if constexpr (roundMode == RoundMode::CAST_TRUNC) {
            if (std::fabs(f) > std::fabs(v)) f = std::nextafter(f, 0.0f);
        } else if constexpr (roundMode == RoundMode::CAST_ROUND) {
            const float other = std::nextafter(f, f < v ? INFINITY : -INFINITY);
            if (std::fabs(other - v) == std::fabs(f - v) && std::fabs(other) > std::fabs(f)) f = other;
        }
        return static_cast<T>(f);
    }
}
template <typename T>
inline T Min(T a, T b) { return b < a ? b : a; }
template <typename T>
inline T Max(T a, T b) { return a < b ? b : a; }
template <typename T>
inline bool IsNan(T x) { return x != x; }
template <typename T>
inline bool IsInf(T x) { return std::isinf(static_cast<float>(x)); }
}  // namespace Simt
}  // namespace AscendC

#endif
