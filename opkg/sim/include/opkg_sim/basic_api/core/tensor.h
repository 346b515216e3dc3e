// LocalTensor (a window on the block's Unified Buffer arena) and GlobalTensor (a window on a GM
// buffer). Both are plain pointer + element count, so vector ops run as tight loops.
#ifndef OPKG_SIM_TENSOR_H
#define OPKG_SIM_TENSOR_H

#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"
#include "opkg_sim/basic_api/core/utils_constants.h"
#include "opkg_sim/basic_api/cube/cube_mem.h"

namespace opkg_sim {
// Element i of a tensor of T at p: int4b_t elements share bytes, the first in the low nibble
// (asc-devkit kernel_tensor_impl.h GetValue); a store rewrites only its nibble.
template <class T> inline T packed_get(const T* p, uint64_t i) {
    if constexpr (packed_per_byte<T>() > 1) {
        return T(uint32_t(p[i / 2].storage >> (4 * (i % 2))));
    } else {
        return p[i];
    }
}
template <class T> inline void packed_set(T* p, uint64_t i, T v) {
    if constexpr (packed_per_byte<T>() > 1) {
        const unsigned shift = 4 * (i % 2);
        p[i / 2].storage = uint8_t((p[i / 2].storage & ~(0x0F << shift)) | ((v.storage & 0x0F) << shift));
    } else {
        p[i] = v;
    }
}

// A UB address as kernels hand it to the sim: the UB offset a device address holds, or a host
// address inside the block's UB (LocalTensor::GetPhyAddr(), and the pointer cast of it), made
// the offset. Anything else is returned as is, and is past the UB for the caller's check.
inline uintptr_t ub_address(const void* p) {
    const BlockState& b = block();
    const uintptr_t addr = reinterpret_cast<uintptr_t>(p), ub = reinterpret_cast<uintptr_t>(b.ub);
    return b.ub && addr >= ub && addr < ub + b.ub_bytes ? addr - ub : addr;
}
}  // namespace opkg_sim

namespace AscendC {

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC };

// A tensor's shape as CANN's kernel_tensor.h records it (SetShapeInfo): the shape, the original
// (unpadded) shape and the format. The sim keeps it for GetShapeInfo; its own APIs take their
// shapes from tilings and shape-info arguments.
struct ShapeInfo {
    static constexpr uint8_t kMaxDims = 8;   // CANN's K_MAX_SHAPE_DIM
    ShapeInfo() = default;
    ShapeInfo(uint8_t dims, const uint32_t shapeIn[], uint8_t originalDims, const uint32_t originalIn[],
              DataFormat format, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current())
        : shapeDim(dims), originalShapeDim(originalDims), dataFormat(format) {
        check(loc);
        for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = shapeIn[i];
        for (uint8_t i = 0; i < originalShapeDim; ++i) originalShape[i] = originalIn[i];
    }
    ShapeInfo(uint8_t dims, const uint32_t shapeIn[], DataFormat format,
              opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current())
        : ShapeInfo(dims, shapeIn, dims, shapeIn, format, loc) {}
    ShapeInfo(uint8_t dims, const uint32_t shapeIn[], opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current())
        : ShapeInfo(dims, shapeIn, dims, shapeIn, DataFormat::ND, loc) {}
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[kMaxDims] = {};
    uint32_t originalShape[kMaxDims] = {};
    DataFormat dataFormat = DataFormat::ND;

private:
    void check(opkg_sim::SrcLoc loc) const {
        if (shapeDim > kMaxDims || originalShapeDim > kMaxDims) {
            opkg_sim::fail(loc, opkg_sim::format("ShapeInfo: %u and %u dimensions, at most %u each", shapeDim,
                                                 originalShapeDim, kMaxDims));
        }
    }
};

template <class T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(T* ptr, uint32_t size, TPosition pos) : ptr_(ptr), size_(size), pos_(pos) {}
    // The Ascend 950's tensor at a UB byte address (the devkit's LocalTensor(pos, addr, tileSize),
    // which opbase's atvoss schedulers use for their ping-pong buffers): tileSize elements of T.
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,
                opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) : size_(tileSize), pos_(pos) {
        opkg_sim::BlockState& b = opkg_sim::block();
        const int buf = opkg_sim::cube_buffer_of(pos);
        if (buf != opkg_sim::CUBE_UB) {   // a cube buffer: L1, L0A, L0B, L0C, ... (cube_mem.h)
            ptr_ = reinterpret_cast<T*>(opkg_sim::cube_address(buf, pos, addr, uint64_t(tileSize) * sizeof(T), loc));
            return;
        }
        if (!b.ub || addr >= b.ub_bytes)
            opkg_sim::fail(loc, opkg_sim::format("LocalTensor(pos, addr %u, tileSize %u): UB byte %u is past the SoC's "
                                                 "%llu-byte Unified Buffer", addr, tileSize, addr,
                                                 (unsigned long long)(b.ub ? b.ub_bytes : 0)));
        if (uint64_t(addr) + uint64_t(tileSize) * sizeof(T) > b.ub_bytes) {
            // Only a declared length: the device checks nothing here, and atvoss's one-dim broadcast
            // scheduler passes bytes where elements are meant, then sets the real length with
            // SetBufferLen. A warning; the tensor ends at the UB's end, where accesses are checked.
            size_ = uint32_t((b.ub_bytes - addr) / sizeof(T));
            if (!b.warned || b.warned->first(loc))
                opkg_sim::log_line(opkg_sim::format(
                    "warning: %s:%d: LocalTensor(pos, addr %u, tileSize %u): %llu bytes from UB byte %u run past the "
                    "SoC's %llu-byte Unified Buffer (tileSize counts elements of the tensor's type); the tensor is "
                    "cut at the UB's end", loc.file ? loc.file : "?", loc.line, addr, tileSize,
                    (unsigned long long)(uint64_t(tileSize) * sizeof(T)), addr, (unsigned long long)b.ub_bytes));
        }
        ptr_ = reinterpret_cast<T*>(b.ub + addr);
    }

    LocalTensor operator[](uint32_t offset) const {
        if (ptr_ && offset > size_) {
            // operator[] cannot take a call-site argument; name the last checked call instead.
            opkg_sim::SrcLoc last = opkg_sim::block().last;
            opkg_sim::fail(opkg_sim::SrcLoc{nullptr, 0},
                           opkg_sim::format("LocalTensor[%u] is past the tensor's %u elements (the last checked "
                                            "Ascend C call before it is at %s:%d)", offset, size_,
                                            last.file ? last.file : "?", last.line));
        }
        return LocalTensor(ptr_ + offset / kPer, size_ - offset, pos_);   // int4b_t: a byte per two
    }
    T GetValue(uint32_t i, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) const {
        check_index(i, "GetValue", loc);
        opkg_sim::check_scalar_load(ptr_ + i / kPer, sizeof(T), "LocalTensor::GetValue", loc);
        return opkg_sim::packed_get(ptr_, i);
    }
    template <class V>
    void SetValue(uint32_t i, V v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) const {
        const opkg_sim::PendingUse moved = opkg_sim::take_pending();   // v may be an undefined GetValue
        check_index(i, "SetValue", loc);
        opkg_sim::packed_set(ptr_, i, static_cast<T>(v));
        opkg_sim::mark_written(ptr_ + i / kPer, sizeof(T), opkg_sim::Pipe::S);
        opkg_sim::settle_pending(moved, ptr_ + i / kPer, sizeof(T));
    }
    // Raw element access may be a store: counted as one so that it never causes a false report
    // of unwritten UB; under --sync-check it is a scalar load and store.
    T& operator()(uint32_t i) const {
        opkg_sim::sync_scalar_touch(ptr_ + i, sizeof(T));
        opkg_sim::mark_written(ptr_ + i, sizeof(T), opkg_sim::Pipe::S);
        return ptr_[i];
    }
    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * sizeof(T) / kPer; }
    void SetSize(uint32_t size) { size_ = size; }
    // The Ascend 950's bound of the tensor's UB accesses (dataLen elements; the devkit's
    // kernel_tensor_impl.h sets the address's upper bound to dataLen * sizeof(T) bytes).
    void SetBufferLen(uint32_t dataLen) { size_ = dataLen; }
    TPosition GetPosition() const { return pos_; }
    // The device returns the UB address as an integer, CANN's CPU build a host pointer, and kernels
    // use both: `(uint64_t)t.GetPhyAddr()` lists, byte arithmetic, and
    // `reinterpret_cast<__ubuf__ T*>(t.GetPhyAddr(i)) + k` (which takes an integer, never a class).
    // The integer here is the host address of the same UB bytes: integer uses compile as on the
    // device, the pointer reads the tensor, and each sim API taking a UB address maps it back to
    // its UB offset (opkg_sim::ub_address), so its checks apply.
    uint64_t GetPhyAddr() const { return reinterpret_cast<uintptr_t>(ptr_); }
    uint64_t GetPhyAddr(uint32_t offset) const {
        return reinterpret_cast<uintptr_t>(ptr_) + uint64_t(offset) * sizeof(T) / kPer;   // int4b_t: two a byte
    }
    void SetUserTag(int32_t tag) { tag_ = tag; }
    int32_t GetUserTag() const { return tag_; }
    void SetShapeInfo(const ShapeInfo& info) { shapeInfo_ = info; }
    ShapeInfo GetShapeInfo() const { return shapeInfo_; }
    template <class U> LocalTensor<U> ReinterpretCast() const {
        const uint64_t bytes = uint64_t(size_) * sizeof(T) / kPer;   // int4b_t: two a byte
        return LocalTensor<U>(reinterpret_cast<U*>(ptr_),
                              static_cast<uint32_t>(bytes * opkg_sim::packed_per_byte<U>() / sizeof(U)), pos_);
    }
    void SetAddrWithOffset(const LocalTensor& src, uint32_t offset) { *this = src[offset]; }
    // `dst = a * b` and the other operator overloads (symbol_ops.h): the expression runs into dst.
    template <class Op, class = typename Op::opkg_symbol_op>
    void operator=(const Op& expression) { expression.Process(*this); }

    // Emulation internals (not Ascend C API). size_ counts elements (int4b_t: two a byte).
    static constexpr uint32_t kPer = opkg_sim::packed_per_byte<T>();
    T* ptr_ = nullptr;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::VECCALC;
    int32_t tag_ = 0;
    ShapeInfo shapeInfo_{};

    uint64_t ub_offset() const {
        const opkg_sim::BlockState& b = opkg_sim::block();
        return b.ub ? uint64_t(reinterpret_cast<const uint8_t*>(ptr_) - b.ub) : 0;
    }

private:
    void check_index(uint32_t i, const char* what, opkg_sim::SrcLoc loc) const {
        opkg_sim::note(loc);
        if (!ptr_) opkg_sim::fail(loc, opkg_sim::format("%s on a LocalTensor that was never allocated", what));
        if (i >= size_) {   // the device build reads the UB at the address, unchecked (as vector counts)
            opkg_sim::past_tensor(ptr_ + i / kPer, sizeof(T), 0,
                                  opkg_sim::format("%s(%u) is past the LocalTensor's %u elements", what, i, size_),
                                  loc);
        }
    }
};

template <class T> class GlobalTensor {
public:
    using PrimType = T;
    GlobalTensor() = default;
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t size) {
        ptr_ = buffer;
        size_ = size;
        sized_ = true;
    }
    // Without a size the device build leaves bufferSize_ as it was (asc-devkit
    // impl/basic_api/kernel_tensor_impl.h: only the CPU debug build zeroes it), and a
    // GlobalTensor's constructor never sets it: GetSize() below says so.
    void SetGlobalBuffer(__gm__ T* buffer) { ptr_ = buffer; }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor g;
        g.ptr_ = ptr_ + offset / kPer;   // int4b_t: a byte per two elements
        g.sized_ = sized_;
        g.size_ = sized_ ? (offset <= size_ ? size_ - offset : 0) : 0;
        return g;
    }
    T GetValue(uint64_t i, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) const {
        check_index(i, "GetValue", loc);
        opkg_sim::check_gm_use(ptr_ + i / kPer, sizeof(T), "GlobalTensor::GetValue", loc);
        return opkg_sim::packed_get(ptr_, i);
    }
    template <class V>
    void SetValue(uint64_t i, V v, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        check_index(i, "SetValue", loc);
        opkg_sim::save_undo(ptr_ + i / kPer, sizeof(T));
        opkg_sim::packed_set(ptr_, i, static_cast<T>(v));
        opkg_sim::record_write(ptr_ + i / kPer, sizeof(T), loc);
    }
    T& operator()(uint64_t i) const { return ptr_[i]; }
    __gm__ T* GetPhyAddr() const { return ptr_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ + offset; }
    uint64_t GetSize(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) const {
        if (!sized_) {   // the device reads an indeterminate bufferSize_: a decision on it is not defined
            opkg_sim::fail(loc, "GlobalTensor::GetSize() of a GlobalTensor never given a size (SetGlobalBuffer "
                                "without one, or none): its bufferSize_ is indeterminate on the device, which "
                                "sets it only in SetGlobalBuffer(buffer, size) (CANN's CPU debug build zeroes it)");
        }
        return size_;
    }
    void SetL2CacheHint(int) {}
    void SetL2CacheHint(CacheMode) {}
    template <CacheRwMode rwMode> void SetL2CacheHint(CacheMode) {}

    static constexpr uint32_t kPer = opkg_sim::packed_per_byte<T>();
    T* ptr_ = nullptr;
    uint64_t size_ = 0;   // elements
    bool sized_ = false;

private:
    void check_index(uint64_t i, const char* what, opkg_sim::SrcLoc loc) const {
        if (!ptr_) opkg_sim::fail(loc, opkg_sim::format("GlobalTensor::%s before SetGlobalBuffer", what));
        if (sized_ && i >= size_ && opkg_sim::block().strict_bounds) {   // else only the allocation bounds it
            opkg_sim::fail(loc, opkg_sim::format("GlobalTensor::%s(%llu) is past the %llu elements given to SetGlobalBuffer (--strict-bounds)",
                                                 what, (unsigned long long)i, (unsigned long long)size_));
        }
        opkg_sim::check_gm(ptr_ + i / kPer, sizeof(T), what, loc);
    }
};

}  // namespace AscendC
#endif
