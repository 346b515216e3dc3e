// DataCopy / DataCopyPad between GM and UB (and UB to UB), with the hardware's rules checked:
// contiguous DataCopy moves whole 32-byte blocks (the hardware silently drops a partial tail),
// UB addresses must be 32-byte aligned, and every byte must lie inside a buffer.
#ifndef OPKG_SIM_DATACOPY_H
#define OPKG_SIM_DATACOPY_H

#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/cube/cube_mem.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;    // DataCopy: 32-byte blocks; DataCopyPad: bytes
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;    // bytes
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    // all five, as CANN's: a four-element braced list then means DataCopyParams only, so
    // DataCopyPad(gm, local, {1, bytes, 0, 0}) is not ambiguous (cann-ops InplaceAttnSoftmax)
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(r) {}
};

template <class T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T();
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

// One dimension of a DataCopy with SliceInfo: elements [startIndex, endIndex] in bursts of
// burstLen 32-byte blocks, stride elements skipped between bursts (dimension 0) or between
// slices (higher dimensions); shapeValue is the dimension's extent (CANN's defaults).
struct SliceInfo {
    SliceInfo() {}
    SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
              const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn) {}
    uint32_t startIndex = 0;
    uint32_t endIndex = 32 - 1;
    uint32_t stride = 0;
    uint32_t burstLen = 32;
    uint32_t shapeValue = 0;
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

namespace opkg_sim {

// An operand's access of `bytes` UB bytes from `ptr` that runs past its LocalTensor, which holds
// `held` bytes; `what` says so in the API's terms. CANN compares a count with the tensor only in
// its CPU-debug build (`#if ASCENDC_CPU_DEBUG`); the device passes the address and the count to
// the instruction, which accesses those UB bytes whatever buffer they belong to, and real
// operators rely on that. So by default the access goes ahead on the real UB bytes (their
// definedness tracked as everywhere) with one warning per call site; an error with
// --strict-bounds, or when the bytes leave the physical UB. Called only past the tensor
// (declared in kcore.h, for LocalTensor's GetValue/SetValue).
#ifdef OPKG_SIM_RUNTIME_TU
void past_tensor(const void* ptr, uint64_t bytes, uint64_t held, const std::string& what, SrcLoc loc) {
    BlockState& b = block();
    const uint8_t* p = static_cast<const uint8_t*>(ptr);
    if (!b.ub || p < b.ub || p >= b.ub + b.ub_bytes + UB_BEYOND) fail(loc, what);
    const uint64_t off = uint64_t(p - b.ub), end = off + bytes;
    if (end > b.ub_bytes) {
        fail(loc, format("%s, and UB bytes [%llu, %llu) run past the end of the SoC's %llu-byte Unified Buffer "
                         "(shrink the count or the buffers)", what.c_str(), (unsigned long long)off,
                         (unsigned long long)end, (unsigned long long)b.ub_bytes));
    }
    if (b.strict_bounds) {
        fail(loc, what + " (--strict-bounds; the device does not check it and accesses the UB bytes past the "
                         "tensor, which is what a build without --strict-bounds does)");
    }
    if (end > b.ub_high) b.ub_high = end;   // the next block's reset must cover the bytes touched
    if (b.warned && !b.warned->first(loc)) return;
    const UbAlloc* next = alloc_at(off + held);
    std::string into = next ? format("the %s set up at %s:%d", next->kind.c_str(), next->file ? next->file : "?",
                                     next->line)
                            : std::string("UB bytes no buffer holds");
    log_line(format("warning: %s:%d: %s; the device accesses UB bytes [%llu, %llu), running on into %s: CANN "
                    "checks the count against the tensor only in its CPU-debug build (ASCENDC_CPU_DEBUG), the "
                    "device does not (--strict-bounds makes this an error)",
                    loc.file ? loc.file : "?", loc.line, what.c_str(), (unsigned long long)off,
                    (unsigned long long)end, into.c_str()));
}
#endif

// `align`: the operand's required UB address alignment (32 bytes for most; some reduction
// outputs need less).
// check_ub on the tensor's address, position, element count and element size.
void check_ub_at(const void* ptr, AscendC::TPosition pos, uint32_t size, uint64_t elem, uint64_t bytes,
                 const char* op, const char* role, SrcLoc loc, uint64_t align);
#ifdef OPKG_SIM_RUNTIME_TU
void check_ub_at(const void* ptr, AscendC::TPosition pos, uint32_t size, uint64_t elem, uint64_t bytes,
                 const char* op, const char* role, SrcLoc loc, uint64_t align) {
    note(loc);
    if (!ptr) fail(loc, format("%s: %s is a LocalTensor that was never allocated", op, role));
    int cube = -1;
    if (cube_arena_of(ptr, &cube)) {   // L1/L0: only the cube APIs (cube.h) take those
        fail(loc, format("%s: %s is a tensor of the %s (position %s), not of the Unified Buffer; this API works on "
                         "UB tensors (the cube buffers take the cube APIs: DataCopy GM->A1/B1/C1, C1->C2, Nd2Nz, LoadData; see docs/api.md)", op, role,
                         cube_buf_name(cube), position_name(pos)));
    }
    if (bytes > uint64_t(size) * elem) {
        past_tensor(ptr, bytes, uint64_t(size) * elem,
                    format("%s: %s needs %llu bytes but the LocalTensor holds only %u elements (%llu bytes)", op, role,
                           (unsigned long long)bytes, size, (unsigned long long)(uint64_t(size) * elem)), loc);
    }
    const BlockState& b = block();
    uint64_t off = b.ub ? uint64_t(static_cast<const uint8_t*>(ptr) - b.ub) : 0;   // LocalTensor::ub_offset
    if (off % align != 0) {
        fail(loc, format("%s: %s starts at UB offset %llu, which is not %llu-byte aligned; "
                         "the hardware requires %llu-byte aligned UB addresses here",
                         op, role, (unsigned long long)off, (unsigned long long)align, (unsigned long long)align));
    }
}
#endif

template <class T>
inline void check_ub(const AscendC::LocalTensor<T>& t, uint64_t bytes, const char* op, const char* role, SrcLoc loc,
                     uint64_t align = 32) {
    // int4b_t: the tensor's bytes, counted as one-byte units
    constexpr uint32_t per = packed_per_byte<T>();
    check_ub_at(t.ptr_, t.pos_, (t.size_ + per - 1) / per, sizeof(T), bytes, op, role, loc, align);
}

template <class T>
inline void check_gt(const AscendC::GlobalTensor<T>& g, uint64_t bytes, const char* op, SrcLoc loc) {
    if (!g.ptr_) fail(loc, format("%s: GlobalTensor used before SetGlobalBuffer", op));
    // SetGlobalBuffer's size bounds nothing on the device (a tail block may read its rounded-up
    // length past it): only the buffer's allocation does, unless --strict-bounds
    if (g.sized_ && bytes > g.size_ * sizeof(T) / packed_per_byte<T>() && block().strict_bounds) {
        fail(loc, format("%s: touches %llu bytes of a GlobalTensor that SetGlobalBuffer sized to %llu elements "
                         "(%llu bytes) from this offset (--strict-bounds)", op, (unsigned long long)bytes,
                         (unsigned long long)g.size_, (unsigned long long)(g.size_ * sizeof(T))));
    }
    check_gm(g.ptr_, bytes, op, loc);
}

// The bytes a count-form DataCopy moves. The hardware moves whole 32-byte blocks and silently
// drops a ragged end: an error by default; with --lenient-copy the same truncation, logged.
template <class T>
inline uint64_t copy_bytes(uint32_t count, const char* op, SrcLoc loc) {
    constexpr uint32_t per = packed_per_byte<T>();   // int4b_t: two elements a byte
    if (per > 1 && count % per != 0) {
        fail(loc, format("%s of %u %s elements: the device packs %u of them a byte, so a copy moves a "
                         "multiple of %u elements", op, count, type_name<T>(), per, per));
    }
    uint64_t bytes = uint64_t(count) * sizeof(T) / per;
    if (bytes % 32 == 0) return bytes;
    uint64_t kept = bytes / 32 * 32;
    BlockState& b = block();
    if (b.lenient_copy) {
        if (b.truncations++ < 3) {
            log_line(format("%s:%d: %s of %u %s elements = %llu bytes copied %llu bytes (--lenient-copy: the "
                            "hardware's truncation to whole 32-byte blocks)%s", basename_of(loc.file), loc.line, op,
                            count, type_name<T>(), (unsigned long long)bytes, (unsigned long long)kept,
                            b.truncations == 3 ? "; further truncations in this block are not logged" : ""));
        }
        return kept;
    }
    fail(loc, format("%s of %u %s elements = %llu bytes, which is not a multiple of 32 bytes; the hardware "
                     "moves whole 32-byte blocks and would silently copy only %llu bytes (%llu elements). "
                     "Pad the length to a multiple of %u elements or use DataCopyPad (--lenient-copy "
                     "reproduces the truncation instead).",
                     op, count, type_name<T>(), (unsigned long long)bytes, (unsigned long long)kept,
                     (unsigned long long)(kept * per / sizeof(T)), unsigned(32 * per / sizeof(T) ? 32 * per / sizeof(T) : 1)));
}

// DataCopyPad's padding register: SetPadValue, or the paddingValue of an isPad copy.
template <class T>
inline void set_pad_value(T value) {
    BlockState& b = block();
    b.pad_value = 0;
    std::memcpy(&b.pad_value, &value, sizeof(T) < 8 ? sizeof(T) : 8);
    b.pad_value_set = true;
}

// The cube side of the plain DataCopy (cube.h): GM -> A1/B1/C1 (copy_gm_to_cbuf) and C1 -> C2
// (copy_cbuf_to_bt). The forms below hand over when an operand lies in a cube buffer, as CANN's
// DataCopy dispatches on the tensors' physical positions.
template <class T>
void cube_copy_gm_to_l1(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                        const AscendC::DataCopyParams& p, SrcLoc loc);
template <class T>
void cube_copy_from_l1(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::DataCopyParams& p, SrcLoc loc);
template <class T>
void cube_copy_count_from_l1(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                             SrcLoc loc);

template <class T> constexpr int atomic_code() {
    return std::is_same<T, float>::value ? 1 : std::is_same<T, half>::value ? 2 : std::is_same<T, int32_t>::value ? 3
         : std::is_same<T, int16_t>::value ? 4 : std::is_same<T, int8_t>::value ? 5 : std::is_same<T, bfloat16_t>::value ? 6 : 7;
}

inline const char* atomic_setter(int op) {
    return op == 1 ? "SetAtomicMax" : op == 2 ? "SetAtomicMin" : "SetAtomicAdd";
}
// The atomic unit's read-modify-write in the compute type: add, or keep the larger / smaller
// (a NaN already in GM stays; a NaN stored is not taken).
template <class C, class T> inline C atomic_combine(int op, T old, T value) {
    const C a = static_cast<C>(old), v = static_cast<C>(value);
    if (op == 1) return v > a ? v : a;
    if (op == 2) return v < a ? v : a;
    return a + v;
}

// Every UB->GM store goes through here: a plain copy that is recorded for the cross-block
// conflict check, or, after SetAtomicAdd<T>(), an element-wise accumulate.
// store_gm without an atomic accumulation active: the same for every dtype.
void store_gm_plain(void* dst, const void* src, uint64_t bytes, const char* op, SrcLoc loc, uint64_t elem);
#ifdef OPKG_SIM_RUNTIME_TU
void store_gm_plain(void* dst, const void* src, uint64_t bytes, const char* op, SrcLoc loc, uint64_t elem) {
    const bool defined = check_store(dst, src, bytes, op, loc, elem);
    save_undo(dst, bytes);
    std::memcpy(dst, src, bytes);
    record_write(dst, bytes, loc);
    if (!defined) gm_undefine(dst, src, bytes);
}
#endif

template <class T>
inline void store_gm(T* dst, const T* src, uint64_t bytes, const char* op, SrcLoc loc) {
    BlockState& b = block();
    if (!b.atomic) return store_gm_plain(dst, src, bytes, op, loc, sizeof(T));
    const bool defined = check_store(dst, src, bytes, op, loc, sizeof(T));
    save_undo(dst, bytes);
    if (b.atomic != atomic_code<T>()) {
        fail(loc, format("%s of %s data while %s<%s> is active", op, type_name<T>(), atomic_setter(b.atomic_op),
                         b.atomic_type));
    }
    using C = calc_t<T>;
    uint64_t n = bytes / sizeof(T);
    // blocks on their own threads (after SyncAll) must not interleave read-modify-writes:
    // the device's atomic unit makes each accumulation indivisible
    std::unique_lock<std::mutex> one_at_a_time;
    if (b.barrier) one_at_a_time = std::unique_lock<std::mutex>(b.barrier->atomics);
    for (uint64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(atomic_combine<C>(b.atomic_op, dst[i], src[i]));
    gm_defined(dst, bytes);
    if (!defined) gm_undefine(dst, src, bytes);
}

// The loop-mode registers (SetLoopModePara) repeat a DataCopyPad size2 x size1 times. The UB side's
// strides must be whole 32-byte blocks: the device would misplace the rows otherwise.
inline void check_loop_mode(const CopyLoopMode& m, bool ub_is_dst, const char* op, SrcLoc loc) {
    const uint64_t u1 = ub_is_dst ? m.dst1 : m.src1, u2 = ub_is_dst ? m.dst2 : m.src2;
    if (u1 % 32 || u2 % 32) {
        fail(loc, format("%s in loop mode (SetLoopModePara at %s:%d): the UB-side loop strides %llu and %llu "
                         "bytes must be multiples of 32", op, (m.set.file ? m.set.file : "?"), m.set.line,
                         (unsigned long long)u1, (unsigned long long)u2));
    }
}

// The bytes one side spans over all loop iterations, the inner copy spanning `inner`.
inline uint64_t loop_extent(const CopyLoopMode& m, uint64_t stride1, uint64_t stride2, uint64_t inner) {
    return uint64_t(m.size1 - 1) * stride1 + uint64_t(m.size2 - 1) * stride2 + inner;
}

// DataCopy shares DataCopyPad's instruction on the 950, so a loop mode left on repeats it too; a
// kernel that copies so has forgotten ResetLoopModePara, and the sim stops there.
inline void require_no_loop_mode(const CopyLoopMode& m, const char* op, SrcLoc loc) {
    if (m.normal()) return;
    fail(loc, format("%s while the loop mode set at %s:%d is still on (%u x %u): the device repeats this copy; "
                     "call ResetLoopModePara after the copies it was set for", op, (m.set.file ? m.set.file : "?"), m.set.line,
                     m.size2, m.size1));
}

}  // namespace opkg_sim

namespace opkg_sim {
// The copies between GM and UB, and within UB, are the vector core's (dav_c220
// kernel_operator_data_copy_impl.h: `if ASCEND_IS_AIV`): the cube body of a split launch
// (core_by_task_type.h) has no UB, and the device runs them there as nothing.
inline bool vector_copy_skipped(const void* local) { return block().core == 1 && !cube_arena_of(local); }
}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const bool to_l1 = opkg_sim::cube_arena_of(dst.ptr_) != nullptr;
    uint64_t bytes = opkg_sim::copy_bytes<T>(count, to_l1 ? "DataCopy GM->L1" : "DataCopy GM->UB", loc);
    if (to_l1) {   // GM -> L1: blockLen counts 32-byte blocks
        return opkg_sim::cube_copy_gm_to_l1(dst, src, DataCopyParams(1, uint16_t(bytes / 32), 0, 0), loc);
    }
    if (opkg_sim::vector_copy_skipped(dst.ptr_)) return;
    opkg_sim::require_no_loop_mode(opkg_sim::block().loop_out_ub, "DataCopy GM->UB", loc);
    opkg_sim::check_ub(dst, bytes, "DataCopy GM->UB", "destination", loc);
    opkg_sim::check_gt(src, bytes, "DataCopy GM->UB", loc);
    opkg_sim::count_copy(opkg_sim::COPY_GM_UB, bytes);
    std::memcpy(dst.ptr_, src.ptr_, bytes);
    opkg_sim::mark_written(dst.ptr_, bytes, opkg_sim::Pipe::MTE2);
    opkg_sim::gm_taint(dst.ptr_, src.ptr_, bytes, "DataCopy GM->UB", loc);
}

template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint64_t bytes = opkg_sim::copy_bytes<T>(count, "DataCopy UB->GM", loc);
    if (opkg_sim::vector_copy_skipped(src.ptr_)) return;
    opkg_sim::require_no_loop_mode(opkg_sim::block().loop_ub_out, "DataCopy UB->GM", loc);
    opkg_sim::check_ub(src, bytes, "DataCopy UB->GM", "source", loc);
    opkg_sim::check_gt(dst, bytes, "DataCopy UB->GM", loc);
    opkg_sim::check_read(src.ptr_, bytes, "DataCopy UB->GM", "source", loc, opkg_sim::Pipe::MTE3);
    opkg_sim::count_copy(opkg_sim::COPY_UB_GM, bytes);
    opkg_sim::store_gm(dst.ptr_, src.ptr_, bytes, "DataCopy UB->GM", loc);
}

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    if (opkg_sim::cube_arena_of(src.ptr_)) return opkg_sim::cube_copy_count_from_l1(dst, src, count, loc);
    uint64_t bytes = opkg_sim::copy_bytes<T>(count, "DataCopy UB->UB", loc);
    if (opkg_sim::vector_copy_skipped(src.ptr_)) return;
    opkg_sim::check_ub(dst, bytes, "DataCopy UB->UB", "destination", loc);
    opkg_sim::check_ub(src, bytes, "DataCopy UB->UB", "source", loc);
    opkg_sim::check_read(src.ptr_, bytes, "DataCopy UB->UB", "source", loc);
    opkg_sim::count_copy(opkg_sim::COPY_UB_UB, bytes);
    std::memmove(dst.ptr_, src.ptr_, bytes);
    opkg_sim::mark_written(dst.ptr_, bytes);
}

// Strided forms: blockLen, srcStride and dstStride all count 32-byte blocks.
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint64_t blk = uint64_t(p.blockLen) * 32, sstep = blk + uint64_t(p.srcStride) * 32, dstep = blk + uint64_t(p.dstStride) * 32;
    if (p.blockCount == 0) return;
    if (opkg_sim::cube_arena_of(dst.ptr_)) return opkg_sim::cube_copy_gm_to_l1(dst, src, p, loc);
    if (opkg_sim::vector_copy_skipped(dst.ptr_)) return;
    uint64_t src_span = sstep * (p.blockCount - 1) + blk, dst_span = dstep * (p.blockCount - 1) + blk;
    opkg_sim::require_no_loop_mode(opkg_sim::block().loop_out_ub, "DataCopy GM->UB", loc);
    opkg_sim::check_ub(dst, dst_span, "DataCopy GM->UB", "destination", loc);
    opkg_sim::check_gt(src, src_span, "DataCopy GM->UB", loc);
    opkg_sim::count_copy(opkg_sim::COPY_GM_UB, blk * p.blockCount);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        std::memcpy(d + i * dstep, s + i * sstep, blk);
        opkg_sim::mark_written(d + i * dstep, blk, opkg_sim::Pipe::MTE2);
        opkg_sim::gm_taint(d + i * dstep, s + i * sstep, blk, "DataCopy GM->UB", loc);
    }
}

template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint64_t blk = uint64_t(p.blockLen) * 32, sstep = blk + uint64_t(p.srcStride) * 32, dstep = blk + uint64_t(p.dstStride) * 32;
    if (p.blockCount == 0 || opkg_sim::vector_copy_skipped(src.ptr_)) return;
    uint64_t src_span = sstep * (p.blockCount - 1) + blk, dst_span = dstep * (p.blockCount - 1) + blk;
    opkg_sim::require_no_loop_mode(opkg_sim::block().loop_ub_out, "DataCopy UB->GM", loc);
    opkg_sim::check_ub(src, src_span, "DataCopy UB->GM", "source", loc);
    opkg_sim::check_gt(dst, dst_span, "DataCopy UB->GM", loc);
    opkg_sim::count_copy(opkg_sim::COPY_UB_GM, blk * p.blockCount);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        opkg_sim::check_read(s + i * sstep, blk, "DataCopy UB->GM", "source", loc, opkg_sim::Pipe::MTE3);
        opkg_sim::store_gm(reinterpret_cast<T*>(d + i * dstep), reinterpret_cast<const T*>(s + i * sstep), blk,
                           "DataCopy UB->GM", loc);
    }
}

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    uint64_t blk = uint64_t(p.blockLen) * 32, sstep = blk + uint64_t(p.srcStride) * 32, dstep = blk + uint64_t(p.dstStride) * 32;
    if (p.blockCount == 0) return;
    if (opkg_sim::cube_arena_of(src.ptr_)) return opkg_sim::cube_copy_from_l1(dst, src, p, loc);
    if (opkg_sim::vector_copy_skipped(src.ptr_)) return;
    opkg_sim::check_ub(src, sstep * (p.blockCount - 1) + blk, "DataCopy UB->UB", "source", loc);
    opkg_sim::check_ub(dst, dstep * (p.blockCount - 1) + blk, "DataCopy UB->UB", "destination", loc);
    opkg_sim::count_copy(opkg_sim::COPY_UB_UB, blk * p.blockCount);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        opkg_sim::check_read(s + i * sstep, blk, "DataCopy UB->UB", "source", loc);
        std::memmove(d + i * dstep, s + i * sstep, blk);
        opkg_sim::mark_written(d + i * dstep, blk);
    }
}

// The enhanced form's parameters (asc-devkit include/basic_api/kernel_struct_data_copy.h, the enums
// impl/basic_api/utils/kernel_utils_mode*.h): the older architectures' L0C <-> UB copies with their
// block mode, dequantisation and ReLU. Every core type declares them.
enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX,
    BLOCK_MODE_VECTOR,
    BLOCK_MODE_SMALL_CHANNEL,
    BLOCK_MODE_DEPTHWISE,
};

enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };

struct DataCopyEnhancedParams {
    DataCopyEnhancedParams() {}
    DataCopyEnhancedParams(const BlockMode blockModeIn, const DeqScale deqScaleIn, const uint64_t deqValueIn,
                           const uint8_t sidStoreModeIn, const bool isReluIn, const pad_t padModeIn,
                           const uint64_t padValueIn)
        : blockMode(blockModeIn), deqScale(deqScaleIn), deqValue(deqValueIn), sidStoreMode(sidStoreModeIn),
          isRelu(isReluIn), padMode(padModeIn), padValue(padValueIn) {}

    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    pad_t padMode = pad_t::PAD_NONE;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;
};

}  // namespace AscendC

namespace opkg_sim {

// The enhanced DataCopy between local tensors, dispatched on the tensors' buffers as asc-devkit's
// kernel_operator_data_copy_intf_impl.h does: between UB and L1 the enhanced parameters are not
// used (the plain strided copy); the L0C copies are the only ones that take them, and on the
// A2/A3 generation (dav_c220) L0C <-> UB does not exist (the device reports it unsupported, so
// the sim fails at the call) and L1 -> L0C with its block modes is not modelled yet. Two dtypes
// are only the L1 -> L0C conversions.
template <class T, class U>
void enhanced_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                         const AscendC::DataCopyParams& p, const AscendC::DataCopyEnhancedParams& e, SrcLoc loc) {
    int sbuf = CUBE_UB, dbuf = CUBE_UB;
    if (!cube_arena_of(src.ptr_, &sbuf)) sbuf = CUBE_UB;
    if (!cube_arena_of(dst.ptr_, &dbuf)) dbuf = CUBE_UB;
    const char* what = "DataCopy with DataCopyEnhancedParams";
    if ((sbuf == CUBE_L0C && dbuf == CUBE_UB) || (sbuf == CUBE_UB && dbuf == CUBE_L0C)) {
        fail(loc, format("%s from %s to %s: the A2/A3 generation has no copy between L0C and the Unified Buffer "
                         "(asc-devkit's dav_c220 DataCopy reports it unsupported; results leave L0C through "
                         "Fixpipe)", what, position_name(src.pos_), position_name(dst.pos_)));
    }
    if (sbuf == CUBE_L1 && dbuf == CUBE_L0C) {
        fail(loc, format("%s from L1 (%s) to L0C (%s), block mode %d, deqScale %d: not modelled by the sim", what,
                         position_name(src.pos_), position_name(dst.pos_), int(e.blockMode), int(e.deqScale)));
    }
    if constexpr (std::is_same<T, U>::value) {
        return AscendC::DataCopy(dst, src, p, loc);   // UB/L1 <-> UB/L1: the enhanced parameters unused
    } else {
        fail(loc, format("%s from %s (%s) to %s (%s): two dtypes are only the L1 -> L0C conversions", what,
                         position_name(src.pos_), type_name<U>(), position_name(dst.pos_), type_name<T>()));
    }
}

}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& intriParams,
                     const DataCopyEnhancedParams& enhancedParams,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::enhanced_local_copy(dst, src, intriParams, enhancedParams, loc);
}

template <class T, class U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& intriParams,
                     const DataCopyEnhancedParams& enhancedParams,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::enhanced_local_copy(dst, src, intriParams, enhancedParams, loc);
}

// GM <-> UB/L1 with DataCopyEnhancedParams: the plain strided copies (the devkit does not use the
// enhanced parameters on these paths).
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& intriParams,
                     const DataCopyEnhancedParams&, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopy(dst, src, intriParams, loc);
}

template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& intriParams,
                     const DataCopyEnhancedParams&, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    DataCopy(dst, src, intriParams, loc);
}

enum class PaddingMode : uint8_t { Normal = 0, Compact };

// The PaddingMode template parameter exists only in the Ascend 950 generation's headers; elsewhere
// DataCopyPad<T, PaddingMode::...> does not compile, as with bisheng.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
#define OPKG_SIM_PADDING_MODE_PARAM , PaddingMode mode = PaddingMode::Normal
#else
#define OPKG_SIM_PADDING_MODE_PARAM
#endif

// SetPadValue sets the padding register DataCopyPad GM->UB fills with (when isPad is false).
template <class T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 3002)
    static_assert(sizeof(T) == 0, "SetPadValue exists only on A2/A3-generation SoCs (910B, 910_93)");
#endif
    static_assert(pos == TPosition::MAX || pos == TPosition::VECIN || pos == TPosition::VECOUT,
                  "SetPadValue: pos must be VECIN, VECOUT or MAX");
    opkg_sim::set_pad_value(paddingValue);
}

}  // namespace AscendC

namespace opkg_sim {

template <class T>
inline void check_pad_lengths(uint32_t blockLen, uint8_t left, uint8_t right, const char* op, SrcLoc loc) {
    if (blockLen % sizeof(T) != 0) {
        fail(loc, format("%s: blockLen %u bytes is not a multiple of sizeof(%s) = %zu", op, blockLen, type_name<T>(),
                         sizeof(T)));
    }
    if (uint64_t(left) * sizeof(T) > 32 || uint64_t(right) * sizeof(T) > 32) {
        fail(loc, format("%s: leftPadding %u / rightPadding %u elements; each may cover at most 32 bytes (%zu %s "
                         "elements)", op, unsigned(left), unsigned(right), 32 / sizeof(T), type_name<T>()));
    }
}

}  // namespace opkg_sim

namespace AscendC {

// DataCopyPad exists only from the A2/A3 generation on: Atlas inference (310P, __NPU_ARCH__
// 2002) and training (910A, 1001) parts have no such instruction, so bisheng rejects it there.
// The assert depends on T, so it fires only where a kernel actually uses DataCopyPad.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001)
#define OPKG_SIM_REQUIRE_DATACOPYPAD(T)                                                        \
    static_assert(sizeof(T) == 0,                                                               \
                  "DataCopyPad does not exist on this SoC (Atlas inference 310P / training 910A): " \
                  "copy whole 32-byte blocks with DataCopy, or drop the SoC from the manifest")
#else
#define OPKG_SIM_REQUIRE_DATACOPYPAD(T) static_assert(sizeof(T) > 0, "")
#endif

}  // namespace AscendC

namespace opkg_sim {

// DataCopyPad GM->UB: blockLen bytes per block; srcStride in bytes (GM gap), dstStride in 32-byte
// blocks (UB gap). Normal mode: each UB row is leftPadding elements, the data, rightPadding
// elements, then dummy elements up to the next 32-byte boundary. Compact mode (950): the blocks
// lie back to back and only the whole run is padded to 32 bytes (dstStride and the paddings are
// ignored). Padding and dummy come from the padding register (set by isPad's paddingValue or
// SetPadValue, kept until changed); in Normal mode without padding the dummy repeats the row's
// first element; otherwise they are undefined (left unwritten here, so reading them is reported).
template <class T>
inline void pad_gm_to_ub(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                         const AscendC::DataCopyExtParams& p, const AscendC::DataCopyPadExtParams<T>& pad,
                         bool compact, SrcLoc loc) {
    const char* op = compact ? "DataCopyPad GM->UB (Compact)" : "DataCopyPad GM->UB";
    if (vector_copy_skipped(dst.ptr_)) return;
    check_pad_lengths<T>(p.blockLen, compact ? 0 : pad.leftPadding, compact ? 0 : pad.rightPadding, op, loc);
    BlockState& b = block();
    const CopyLoopMode& lm = b.loop_out_ub;
    if (pad.isPad) set_pad_value(pad.paddingValue);
    if (p.blockCount == 0 || lm.size1 == 0 || lm.size2 == 0) return;
    if (!lm.normal()) check_loop_mode(lm, true, op, loc);
    const uint64_t left = compact ? 0 : uint64_t(pad.leftPadding) * sizeof(T);
    const uint64_t right = compact ? 0 : uint64_t(pad.rightPadding) * sizeof(T);
    const uint64_t row = left + p.blockLen + right;
    const uint64_t row_ub = (row + 31) / 32 * 32;
    const uint64_t run = uint64_t(p.blockLen) * p.blockCount;
    const uint64_t sstep = uint64_t(p.blockLen) + p.srcStride;
    const uint64_t dstep = compact ? p.blockLen : row_ub + uint64_t(p.dstStride) * 32;
    const uint64_t inner_dst = compact ? (run + 31) / 32 * 32 : dstep * (p.blockCount - 1) + row_ub;
    const uint64_t inner_src = sstep * (p.blockCount - 1) + p.blockLen;
    check_ub(dst, loop_extent(lm, lm.dst1, lm.dst2, inner_dst), op, "destination", loc);
    check_gt(src, loop_extent(lm, lm.src1, lm.src2, inner_src), op, loc);
    count_copy(COPY_GM_UB, run * lm.size1 * lm.size2);
    T fill;
    std::memcpy(&fill, &b.pad_value, sizeof(T));
    for (uint32_t i2 = 0; i2 < lm.size2; ++i2) {
        for (uint32_t i1 = 0; i1 < lm.size1; ++i1) {
            const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_) + i1 * lm.src1 + i2 * lm.src2;
            uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_) + i1 * lm.dst1 + i2 * lm.dst2;
            if (compact) {
                for (uint32_t i = 0; i < p.blockCount; ++i) {
                    std::memcpy(d + i * dstep, s + i * sstep, p.blockLen);
                    gm_taint(d + i * dstep, s + i * sstep, p.blockLen, op, loc);
                }
                mark_written(d, run, Pipe::MTE2);
                if (b.pad_value_set) {
                    for (uint64_t k = run; k < inner_dst; k += sizeof(T)) std::memcpy(d + k, &fill, sizeof(T));
                    mark_written(d + run, inner_dst - run, Pipe::MTE2);
                }
                continue;
            }
            for (uint32_t i = 0; i < p.blockCount; ++i) {
                uint8_t* r = d + i * dstep;
                std::memcpy(r + left, s + i * sstep, p.blockLen);
                if (left == 0 && right == 0) {
                    if (p.blockLen) {
                        T first;
                        std::memcpy(&first, r, sizeof(T));
                        for (uint64_t k = p.blockLen; k < row_ub; k += sizeof(T)) std::memcpy(r + k, &first, sizeof(T));
                    }
                    mark_written(r, row_ub, Pipe::MTE2);
                } else if (b.pad_value_set) {
                    for (uint64_t k = 0; k < left; k += sizeof(T)) std::memcpy(r + k, &fill, sizeof(T));
                    for (uint64_t k = left + p.blockLen; k < row_ub; k += sizeof(T)) std::memcpy(r + k, &fill, sizeof(T));
                    mark_written(r, row_ub, Pipe::MTE2);
                } else {
                    mark_written(r + left, p.blockLen, Pipe::MTE2);
                }
                gm_taint(r + left, s + i * sstep, p.blockLen, op, loc);
            }
        }
    }
}

// DataCopyPad UB->GM: blockLen bytes per block; srcStride in 32-byte blocks (UB gap), dstStride in
// bytes. Compact mode (950): the UB blocks lie back to back (srcStride is ignored).
template <class T>
inline void pad_ub_to_gm(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::DataCopyExtParams& p, bool compact, SrcLoc loc) {
    const char* op = compact ? "DataCopyPad UB->GM (Compact)" : "DataCopyPad UB->GM";
    if (vector_copy_skipped(src.ptr_)) return;
    const CopyLoopMode& lm = block().loop_ub_out;
    if (p.blockCount == 0 || lm.size1 == 0 || lm.size2 == 0) return;
    if (!lm.normal()) check_loop_mode(lm, false, op, loc);
    const uint64_t row_ub = (uint64_t(p.blockLen) + 31) / 32 * 32;
    const uint64_t sstep = compact ? p.blockLen : row_ub + uint64_t(p.srcStride) * 32;
    const uint64_t dstep = uint64_t(p.blockLen) + p.dstStride;
    check_ub(src, loop_extent(lm, lm.src1, lm.src2, sstep * (p.blockCount - 1) + p.blockLen), op, "source", loc);
    check_gt(dst, loop_extent(lm, lm.dst1, lm.dst2, dstep * (p.blockCount - 1) + p.blockLen), op, loc);
    count_copy(COPY_UB_GM, uint64_t(p.blockLen) * p.blockCount * lm.size1 * lm.size2);
    for (uint32_t i2 = 0; i2 < lm.size2; ++i2) {
        for (uint32_t i1 = 0; i1 < lm.size1; ++i1) {
            const uint8_t* s = reinterpret_cast<const uint8_t*>(src.ptr_) + i1 * lm.src1 + i2 * lm.src2;
            uint8_t* d = reinterpret_cast<uint8_t*>(dst.ptr_) + i1 * lm.dst1 + i2 * lm.dst2;
            for (uint32_t i = 0; i < p.blockCount; ++i) {
                check_read(s + i * sstep, p.blockLen, op, "source", loc, Pipe::MTE3);
                store_gm(reinterpret_cast<T*>(d + i * dstep), reinterpret_cast<const T*>(s + i * sstep), p.blockLen,
                         op, loc);
            }
        }
    }
}

}  // namespace opkg_sim

namespace AscendC {

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
#define OPKG_SIM_COMPACT_MODE (mode == PaddingMode::Compact)
#else
#define OPKG_SIM_COMPACT_MODE false
#endif

template <class T OPKG_SIM_PADDING_MODE_PARAM>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    OPKG_SIM_REQUIRE_DATACOPYPAD(T);
    opkg_sim::pad_gm_to_ub(dst, src, p, pad, OPKG_SIM_COMPACT_MODE, loc);
}

template <class T OPKG_SIM_PADDING_MODE_PARAM>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                        const DataCopyPadParams& pad, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    OPKG_SIM_REQUIRE_DATACOPYPAD(T);
    T value;
    uint64_t raw = pad.paddingValue;
    std::memcpy(&value, &raw, sizeof(T) < 8 ? sizeof(T) : 8);
    opkg_sim::pad_gm_to_ub(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                           DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value),
                           OPKG_SIM_COMPACT_MODE, loc);
}

template <class T OPKG_SIM_PADDING_MODE_PARAM>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                        opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    OPKG_SIM_REQUIRE_DATACOPYPAD(T);
    opkg_sim::pad_ub_to_gm(dst, src, p, OPKG_SIM_COMPACT_MODE, loc);
}

template <class T OPKG_SIM_PADDING_MODE_PARAM>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                        opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    OPKG_SIM_REQUIRE_DATACOPYPAD(T);
    opkg_sim::pad_ub_to_gm(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                           OPKG_SIM_COMPACT_MODE, loc);
}

}  // namespace AscendC

// DataCopy with SliceInfo, as CANN's implementation lowers it: the bursts of dimension 0 make one
// strided copy (blockCount = (endIndex - startIndex + 1 + stride) / (burstLen blocks + stride)),
// repeated at the element offset of every slice the higher dimensions select. The GM side's
// stride goes to a DataCopy when it is whole 32-byte blocks, else to a DataCopyPad in bytes;
// the strides pass through DataCopyParams' uint16 fields, as on the device.
namespace opkg_sim {

constexpr uint32_t SLICE_MAX_DIM = 8;       // K_MAX_SHAPE_DIM
constexpr uint32_t SLICE_MAX_COPIES = 6 * 256;   // MAX_SLICE_SIZE: the device's offset list

inline uint32_t slice_start(const AscendC::SliceInfo info[], const uint32_t shape[], uint32_t dims) {
    uint32_t start = 0, size = 1;
    for (uint32_t i = 0; i < dims; ++i) {
        if (i) size *= shape[i - 1];
        start += size * info[i].startIndex;
    }
    return start;
}

inline std::vector<uint32_t> slice_offsets(const AscendC::SliceInfo info[], const uint32_t shape[], uint32_t dims,
                                           const char* role, SrcLoc loc) {
    std::vector<uint32_t> offsets{0};
    uint32_t size = 1;
    for (uint32_t i = 1; i < dims; ++i) {
        size *= shape[i - 1];
        const uint64_t count = (uint64_t(info[i].endIndex) - info[i].startIndex + 1 + info[i].stride) /
                               (1 + uint64_t(info[i].stride));
        const size_t base = offsets.size();
        if (base * count > SLICE_MAX_COPIES) {
            fail(loc, format("DataCopy with SliceInfo: %s selects %llu slices, more than the %u the device's offset "
                             "list holds (MAX_SLICE_SIZE)", role, (unsigned long long)(base * count), SLICE_MAX_COPIES));
        }
        for (uint64_t it = 1; it < count; ++it) {
            for (size_t k = 0; k < base; ++k) offsets.push_back(offsets[k] + uint32_t(it * (1 + info[i].stride)) * size);
        }
    }
    return offsets;
}

struct SlicePlan {
    uint32_t src_start, dst_start;
    std::vector<uint32_t> src_offsets, dst_offsets;
    AscendC::DataCopyParams params;   // blockLen in 32-byte blocks, as the device fills it
};

template <class T>
inline SlicePlan slice_plan(const AscendC::SliceInfo dst[], const AscendC::SliceInfo src[], uint32_t dims,
                            SrcLoc loc) {
    note(loc);
    if (dims == 0 || dims > SLICE_MAX_DIM) {
        fail(loc, format("DataCopy with SliceInfo: dimValue %u outside [1, %u]", dims, SLICE_MAX_DIM));
    }
    if (src[0].shapeValue == 0) {
        fail(loc, "DataCopy with SliceInfo: srcSliceInfo[0].shapeValue is 0, so CANN takes the extents from the "
                  "tensors' ShapeInfo, which the sim does not model; give every SliceInfo its shapeValue");
    }
    uint32_t src_shape[SLICE_MAX_DIM], dst_shape[SLICE_MAX_DIM];
    for (uint32_t i = 0; i < dims; ++i) {
        src_shape[i] = src[i].shapeValue;
        dst_shape[i] = dst[i].shapeValue;
    }
    const uint64_t slice_len = uint64_t(src[0].burstLen) * (32 / sizeof(T)) + src[0].stride;
    if (slice_len == 0) fail(loc, "DataCopy with SliceInfo: srcSliceInfo[0] has burstLen 0 and stride 0");
    SlicePlan plan{slice_start(src, src_shape, dims), slice_start(dst, dst_shape, dims),
                   slice_offsets(src, src_shape, dims, "srcSliceInfo", loc),
                   slice_offsets(dst, dst_shape, dims, "dstSliceInfo", loc), {}};
    if (plan.dst_offsets.size() < plan.src_offsets.size()) {
        fail(loc, format("DataCopy with SliceInfo: srcSliceInfo selects %zu slices but dstSliceInfo only %zu; the "
                         "device would take the missing destination offsets from uninitialised memory",
                         plan.src_offsets.size(), plan.dst_offsets.size()));
    }
    plan.params.blockLen = uint16_t(src[0].burstLen);
    plan.params.blockCount = uint16_t((uint64_t(src[0].endIndex) - src[0].startIndex + 1 + src[0].stride) / slice_len);
    return plan;
}

}  // namespace opkg_sim

namespace AscendC {

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::SlicePlan plan = opkg_sim::slice_plan<T>(dstSliceInfo, srcSliceInfo, dimValue, loc);
    DataCopyParams p = plan.params;
    p.dstStride = uint16_t(dstSliceInfo[0].stride * sizeof(T) / 32);
    const bool whole_blocks = srcSliceInfo[0].stride * sizeof(T) % 32 == 0;
    p.srcStride = uint16_t(whole_blocks ? srcSliceInfo[0].stride * sizeof(T) / 32 : srcSliceInfo[0].stride * sizeof(T));
    for (size_t i = 0; i < plan.src_offsets.size(); ++i) {
        const LocalTensor<T> d = dst[plan.dst_start + plan.dst_offsets[i]];
        const GlobalTensor<T> s = src[plan.src_start + plan.src_offsets[i]];
        if (whole_blocks) {
            DataCopy(d, s, p, loc);
        } else {
            DataCopyPad(d, s, DataCopyExtParams(p.blockCount, uint32_t(p.blockLen) * 32, p.srcStride, p.dstStride, 0),
                        DataCopyPadExtParams<T>(false, 0, 0, T()), loc);
        }
    }
}

template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    opkg_sim::SlicePlan plan = opkg_sim::slice_plan<T>(dstSliceInfo, srcSliceInfo, dimValue, loc);
    DataCopyParams p = plan.params;
    p.srcStride = uint16_t(srcSliceInfo[0].stride * sizeof(T) / 32);
    const bool whole_blocks = dstSliceInfo[0].stride * sizeof(T) % 32 == 0;
    p.dstStride = uint16_t(whole_blocks ? dstSliceInfo[0].stride * sizeof(T) / 32 : dstSliceInfo[0].stride * sizeof(T));
    for (size_t i = 0; i < plan.src_offsets.size(); ++i) {
        const GlobalTensor<T> d = dst[plan.dst_start + plan.dst_offsets[i]];
        const LocalTensor<T> s = src[plan.src_start + plan.src_offsets[i]];
        if (whole_blocks) {
            DataCopy(d, s, p, loc);
        } else {
            DataCopyPad(d, s, DataCopyExtParams(p.blockCount, uint32_t(p.blockLen) * 32, p.srcStride, p.dstStride, 0),
                        loc);
        }
    }
}

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// The Ascend 950's multi-dimensional GM -> UB copy (NDDMA; the devkit's kernel_struct_data_copy.h
// and its DataCopy page). Index 0 of each array is the lowest dimension. Along dimension d the
// destination holds lp + loopSize + rp elements at loopDstStride apart; the padding ones take
// constantValue, or with isNearestValueMode the nearest element of that dimension.
struct NdDmaConfig {
    static constexpr uint16_t unsetPad = 0xffff;
    bool isNearestValueMode = false;
    uint16_t loopLpSize = unsetPad;
    uint16_t loopRpSize = unsetPad;
    bool ascOptimize = false;
};
using MultiCopyConfig = NdDmaConfig;
constexpr NdDmaConfig kDefaultNdDmaConfig = {false, NdDmaConfig::unsetPad, NdDmaConfig::unsetPad, false};
constexpr NdDmaConfig kDefaultMultiCopyConfig = kDefaultNdDmaConfig;
template <uint8_t dim>
struct MultiCopyLoopInfo {
    static_assert(dim >= 1 && dim <= 5, "MultiCopy Dims must be between 1 and 5.");
    uint64_t loopSrcStride[dim] = {0};
    uint32_t loopDstStride[dim] = {0};
    uint32_t loopSize[dim] = {0};
    uint8_t loopLpSize[dim] = {0};
    uint8_t loopRpSize[dim] = {0};
};
template <uint8_t dim> using NdDmaLoopInfo = MultiCopyLoopInfo<dim>;
template <typename T, uint8_t dim>
struct MultiCopyParams {
    MultiCopyLoopInfo<dim> loopInfo;
    T constantValue;
};
template <typename T, uint8_t dim> using NdDmaParams = MultiCopyParams<T, dim>;
inline void NdDmaDci() {}   // the NDDMA cache: the sim has none to refresh

// The 950's DataCopyPad loop mode (kernel_struct_data_copy.h, SetLoopModePara's page): the next
// DataCopyPads of that direction run loop2Size x loop1Size times until ResetLoopModePara.
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
struct LoopModeParams {
    LoopModeParams() = default;
    LoopModeParams(uint32_t loop1SizeIn, uint32_t loop2SizeIn, uint64_t loop1SrcStrideIn, uint64_t loop1DstStrideIn,
                   uint64_t loop2SrcStrideIn, uint64_t loop2DstStrideIn)
        : loop1Size(loop1SizeIn), loop2Size(loop2SizeIn), loop1SrcStride(loop1SrcStrideIn),
          loop1DstStride(loop1DstStrideIn), loop2SrcStride(loop2SrcStrideIn), loop2DstStride(loop2DstStrideIn) {}
    uint32_t loop1Size = 0;
    uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0;
    uint64_t loop1DstStride = 0;
    uint64_t loop2SrcStride = 0;
    uint64_t loop2DstStride = 0;
};

// The register fields' widths: sizes and the UB side's strides 21 bits, the GM side's 40.
inline void SetLoopModePara(const LoopModeParams& p, DataCopyMVType type,
                            opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const bool to_ub = type == DataCopyMVType::OUT_TO_UB;
    const uint64_t ub1 = to_ub ? p.loop1DstStride : p.loop1SrcStride, ub2 = to_ub ? p.loop2DstStride : p.loop2SrcStride;
    const uint64_t gm1 = to_ub ? p.loop1SrcStride : p.loop1DstStride, gm2 = to_ub ? p.loop2SrcStride : p.loop2DstStride;
    if (p.loop1Size >= (1u << 21) || p.loop2Size >= (1u << 21) || ub1 >= (1ull << 21) || ub2 >= (1ull << 21) ||
        gm1 >= (1ull << 40) || gm2 >= (1ull << 40)) {
        opkg_sim::fail(loc, opkg_sim::format(
            "SetLoopModePara: loop sizes %u, %u and UB-side strides %llu, %llu must be below 2^21, GM-side strides "
            "%llu, %llu below 2^40", p.loop1Size, p.loop2Size, (unsigned long long)ub1, (unsigned long long)ub2,
            (unsigned long long)gm1, (unsigned long long)gm2));
    }
    opkg_sim::CopyLoopMode& m = to_ub ? opkg_sim::block().loop_out_ub : opkg_sim::block().loop_ub_out;
    m.size1 = p.loop1Size;
    m.size2 = p.loop2Size;
    m.src1 = p.loop1SrcStride;
    m.dst1 = p.loop1DstStride;
    m.src2 = p.loop2SrcStride;
    m.dst2 = p.loop2DstStride;
    m.set = loc;
}

// As the device's reset, the sizes go back to 1 x 1 and the strides stay.
inline void ResetLoopModePara(DataCopyMVType type) {
    opkg_sim::CopyLoopMode& m =
        type == DataCopyMVType::OUT_TO_UB ? opkg_sim::block().loop_out_ub : opkg_sim::block().loop_ub_out;
    m.size1 = m.size2 = 1;
}

template <typename T, uint8_t dim, const NdDmaConfig& config = kDefaultNdDmaConfig>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const MultiCopyParams<T, dim>& params,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
    const char* op = "DataCopy GM->UB (NDDMA)";
    const auto& li = params.loopInfo;
    uint64_t ext[dim], lp[dim], total = 1, dst_end = 0, src_end = 0;
    bool empty = false;
    for (int d = 0; d < dim; ++d) {
        lp[d] = config.loopLpSize != NdDmaConfig::unsetPad ? config.loopLpSize : li.loopLpSize[d];
        const uint64_t rp = config.loopRpSize != NdDmaConfig::unsetPad ? config.loopRpSize : li.loopRpSize[d];
        if (li.loopSize[d] == 0) empty = true;
        ext[d] = lp[d] + li.loopSize[d] + rp;
        total *= ext[d];
        dst_end += (ext[d] - 1) * li.loopDstStride[d];
        src_end += (li.loopSize[d] ? li.loopSize[d] - 1 : 0) * li.loopSrcStride[d];
    }
    if (empty) opkg_sim::fail(loc, opkg_sim::format("%s: a loopSize is 0 (each must be in [1, 2^20))", op));
    opkg_sim::check_ub(dst, (dst_end + 1) * sizeof(T), op, "destination", loc);
    opkg_sim::check_gt(src, (src_end + 1) * sizeof(T), op, loc);
    opkg_sim::count_copy(opkg_sim::COPY_GM_UB, total * sizeof(T));
    uint64_t c[dim] = {};
    for (uint64_t n = 0; n < total; ++n) {
        uint64_t doff = 0, soff = 0;
        bool pad = false;
        for (int d = 0; d < dim; ++d) {
            doff += c[d] * li.loopDstStride[d];
            int64_t sc = int64_t(c[d]) - int64_t(lp[d]);
            if (sc < 0 || sc >= int64_t(li.loopSize[d])) {
                pad = true;
                sc = sc < 0 ? 0 : int64_t(li.loopSize[d]) - 1;
            }
            soff += uint64_t(sc) * li.loopSrcStride[d];
        }
        T* out = dst.ptr_ + doff;
        if (pad && !config.isNearestValueMode) {
            *out = params.constantValue;
        } else {
            std::memcpy(out, src.ptr_ + soff, sizeof(T));
            opkg_sim::gm_taint(out, src.ptr_ + soff, sizeof(T), op, loc);
        }
        opkg_sim::mark_written(out, sizeof(T), opkg_sim::Pipe::MTE2);
        for (int d = 0; d < dim && ++c[d] == ext[d]; ++d) c[d] = 0;
    }
}
#endif

}  // namespace AscendC
#endif
