// Shared machinery of the high-level vector libraries (lib/math, lib/activation, ...): operand
// and calCount checks, the temporary-space rule (sharedTmpBuffer or the UB left after
// InitBuffer), and elementwise evaluation. Each API computes its documented function exactly
// (libm in double, rounded once to the operand type); docs/api.md gives the precision model.
//
// Call-site locations: CANN declares these APIs with `const LocalTensor<T>& dst`. Kernels also
// pass them as function pointers (`Sin<half, false>` as a template argument of type
// `void (const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t)`), so that exact
// signature must exist and cannot carry a defaulted SrcLoc. OPKG_HL_API therefore declares
// three overloads per form: `LocalTensor<T>& dst` and `LocalTensor<T>&& dst` with a SrcLoc
// (overload resolution prefers them for non-const lvalues and temporaries), and the exact
// `const LocalTensor<T>&` one, which names the last checked call instead (OPKG_HL_API and
// hl_loc live in vector.h: the basic APIs need the same three forms).
#ifndef OPKG_SIM_HLAPI_H
#define OPKG_SIM_HLAPI_H

#include <cmath>
#include <limits>
#include <type_traits>
#include "opkg_sim/basic_api/vector/vector.h"
#include "opkg_sim/adv_api/hl_rules.h"

// A field of a library tiling struct, in kernel mode (plain struct) or host mode (the tiling class).
#ifdef OPKG_SIM_KERNEL
#define OPKG_TF(t, f) (t).f
#else
#define OPKG_TF(t, f) (t).get_##f()
#endif

namespace opkg_sim {

inline bool is_vec_position(AscendC::TPosition p) {
    return p == AscendC::TPosition::VECIN || p == AscendC::TPosition::VECOUT || p == AscendC::TPosition::VECCALC;
}

// A caller-provided sharedTmpBuffer: allocated, in a vector position, 32-byte aligned, at least
// the minimum. The API overwrites it (its contents are undefined afterwards), so it counts as
// written.
inline void check_shared_tmp(const AscendC::LocalTensor<uint8_t>& tmp, uint64_t need, const char* op, SrcLoc loc) {
    note(loc);
    if (!tmp.ptr_) fail(loc, format("%s: sharedTmpBuffer is a LocalTensor that was never allocated", op));
    if (!is_vec_position(tmp.pos_)) {
        fail(loc, format("%s: sharedTmpBuffer is in position %s; it must be VECIN, VECOUT or VECCALC", op,
                         position_name(tmp.pos_)));
    }
    if (uint64_t(tmp.size_) < need) {
        fail(loc, format("%s: sharedTmpBuffer holds %u bytes but %s needs at least %llu bytes of temporary space "
                         "(Get%sMaxMinTmpSize gives the range on the host); the hardware would write past it",
                         op, tmp.size_, op, (unsigned long long)need, op));
    }
    check_ub(tmp, uint64_t(tmp.size_), op, "sharedTmpBuffer", loc);
    mark_written(tmp.ptr_, tmp.size_);
}

// The form without sharedTmpBuffer takes its temporary space from the UB that InitBuffer left
// free (PopStackBuffer): it fails when that is less than the minimum.
inline void check_stack_tmp(uint64_t need, const char* op, SrcLoc loc) {
    BlockState& b = block();
    note(loc);
    if (!b.ub || need == 0) return;
    uint64_t left = b.ub_bytes > b.ub_cursor ? b.ub_bytes - b.ub_cursor : 0;
    if (left < need) {
        fail(loc, format("%s without sharedTmpBuffer takes its temporary space from the UB that InitBuffer left "
                         "free: %llu bytes are left (%llu of %llu allocated) but it needs at least %llu. Pass a "
                         "sharedTmpBuffer, or allocate less.",
                         op, (unsigned long long)left, (unsigned long long)b.ub_cursor,
                         (unsigned long long)b.ub_bytes, (unsigned long long)need));
    }
}

// The temporary space of an API that takes sharedTmpBuffer optionally (tmp null: the form without).
inline void check_tmp(const AscendC::LocalTensor<uint8_t>* tmp, uint64_t need, const char* op, SrcLoc loc) {
    if (tmp) check_shared_tmp(*tmp, need, op, loc);
    else check_stack_tmp(need, op, loc);
}

// calCount against an operand; check_ub checks it is allocated and aligned. An allocated one
// too small gets the message in calCount's terms rather than check_ub's bytes.
template <class T>
inline void check_count(const AscendC::LocalTensor<T>& t, uint64_t count, const char* op, const char* role, SrcLoc loc) {
    note(loc);
    if (t.ptr_ && count > t.size_) {
        past_tensor(t.ptr_, count * sizeof(T), uint64_t(t.size_) * sizeof(T),
                    format("%s: calCount %llu is larger than %s's %u elements", op, (unsigned long long)count, role,
                           t.size_), loc);
    }
    check_ub(t, count * sizeof(T), op, role, loc);
}

template <class T> struct is_half_or_float
    : std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, float>::value> {};

// Rounds an exact (double) result to T the way the vector unit ends a computation: to float,
// then (fp16/bf16) a round-to-nearest cast.
template <class T> inline T round_to(double v) {
    if constexpr (std::is_same<T, float>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value) {
        return static_cast<T>(static_cast<float>(v));
    } else {
        return static_cast<T>(v);
    }
}

template <class T> inline double widen(T v) {
    if constexpr (std::is_same<T, bfloat16_t>::value) return double(static_cast<float>(v));
    else return static_cast<double>(v);
}

// dst[i] = f(src[i]) for i < count, evaluated in double.
template <class T, class F>
inline void hl_unary(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint64_t count, F f,
                     const char* op, SrcLoc loc) {
    check_count(dst, count, op, "dst", loc);
    check_count(src, count, op, "src", loc);
    check_read(src.ptr_, count * sizeof(T), op, "src", loc);
    count_vec_of<T>(op, int64_t(count));
    for (uint64_t i = 0; i < count; ++i) dst.ptr_[i] = round_to<T>(f(widen(src.ptr_[i])));
    mark_written(dst.ptr_, count * sizeof(T));
}

// dst[i] = f(a(i), b(i)), a and b reading tensors or scalars.
template <class T, class A, class B, class F>
inline void hl_binary(const AscendC::LocalTensor<T>& dst, A a, B b, uint64_t count, F f, const char* op, SrcLoc loc) {
    check_count(dst, count, op, "dst", loc);
    count_vec_of<T>(op, int64_t(count));
    for (uint64_t i = 0; i < count; ++i) dst.ptr_[i] = round_to<T>(f(a(i), b(i)));
    mark_written(dst.ptr_, count * sizeof(T));
}

template <class T>
inline auto tensor_operand(const AscendC::LocalTensor<T>& t, uint64_t count, const char* op, const char* role,
                           SrcLoc loc) {
    check_count(t, count, op, role, loc);
    check_read(t.ptr_, count * sizeof(T), op, role, loc);
    const T* p = t.ptr_;
    return [p](uint64_t i) { return widen(p[i]); };
}

template <class T> inline auto scalar_operand(T v) {
    double d = widen(v);
    return [d](uint64_t) { return d; };
}

}  // namespace opkg_sim

#endif
