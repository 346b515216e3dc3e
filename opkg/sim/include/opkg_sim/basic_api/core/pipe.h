// TPipe, TQue and TBuf: UB is carved sequentially from the block's arena (lengths rounded up to
// 32 B, as TPipe::InitBuffer does); queues check the Alloc/EnQue/DeQue/Free protocol.
#ifndef OPKG_SIM_PIPE_H
#define OPKG_SIM_PIPE_H

#include <deque>
#include "opkg_sim/basic_api/core/tensor.h"
#include "opkg_sim/basic_api/cube/cube_mem.h"

namespace AscendC {

class TPipe;

// What a queue buffer holds, as TQue/TBuf::GetState report it.
enum class TBufState : uint8_t { FREE = 0, OCCUPIED, ENQUE, DEQUE };

// A queue's static configuration, TQue's third template argument: a bit mask (nd2nz, nz2nd,
// scmBlockGroup) or the address of a constexpr TQueConfig. Field order is CANN's, so kernels that
// brace-initialise one positionally compile. The sim checks bufferNumber/bufferLen against
// TPipe::InitBuffer (0: any) as CANN's CPU debug build does; the other fields only steer the
// device's event and format handling.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

__aicore__ constexpr TQueConfig GetTQueConfig(bool nd2nzIn, bool nz2ndIn, bool scmBlockGroupIn, uint32_t bufferLenIn,
                                              uint32_t bufferNumberIn, uint32_t consumerSizeIn,
                                              const TPosition consumerIn[], bool enableStaticEvtIdIn = false,
                                              bool enableLoopQueueIn = false) {
    TQueConfig c{nd2nzIn, nz2ndIn, scmBlockGroupIn, bufferLenIn, bufferNumberIn, consumerSizeIn, {},
                 enableStaticEvtIdIn, enableLoopQueueIn};
    for (int i = 0; i < 8; ++i) c.consumer[i] = consumerIn[i];
    return c;
}

__aicore__ constexpr TQueConfig GetTQueConfig(int32_t mask) {
    TQueConfig c{};
    c.nd2nz = (static_cast<uint32_t>(mask) & 0x1u) != 0;
    c.nz2nd = (static_cast<uint32_t>(mask) & 0x2u) != 0;
    c.scmBlockGroup = (static_cast<uint32_t>(mask) & 0x4u) != 0;
    for (int i = 0; i < 8; ++i) c.consumer[i] = TPosition::MAX;
    return c;
}

__aicore__ constexpr TQueConfig GetTQueConfig(const TQueConfig* conf) { return *conf; }

// Compile-time type helpers of the same CANN header, used by kernels in `if constexpr`.
template <bool b> struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;
template <typename T, typename U> struct IsSameType : public FalseType {};
template <typename T> struct IsSameType<T, T> : public TrueType {};

template <typename T, typename U, typename... Args> __aicore__ constexpr bool SupportType() {
    if constexpr (sizeof...(Args) > 0) return IsSameType<T, U>::value || SupportType<T, Args...>();
    return IsSameType<T, U>::value;
}
template <typename T, int U, int... Args> __aicore__ constexpr bool SupportBytes() {
    if constexpr (sizeof...(Args) > 0) return sizeof(T) == U || SupportBytes<T, Args...>();
    return sizeof(T) == U;
}

// a queue buffer's handle, as the devkit's kernel_tensor_base.h declares it
using TBufHandle = uint8_t*;

class TQueBase {
public:
    // out of line (the block runner), as the destructor: its members' containers are then
    // instantiated there, not in every kernel object
    TQueBase(TPosition pos, int32_t depth, TPosition dst = TPosition::MAX, TQueConfig config = {});
    // A queue that goes away (the kernel returns) with a tensor still allocated: AllocTensor and
    // FreeTensor must pair, or the queue's events stay unbalanced on the device. Recorded, not
    // thrown (this may run while a failure unwinds); the kernel entry reports it on return.
    ~TQueBase();

    template <class T>
    LocalTensor<T> AllocTensor(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return LocalTensor<T>(reinterpret_cast<T*>(alloc_buffer(loc)), len_ / sizeof(T) * opkg_sim::packed_per_byte<T>(), pos_);
    }
    template <class T>
    bool EnQue(const LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        enque_buffer(t.ptr_, loc);
        return true;
    }
    template <class T>
    LocalTensor<T> DeQue(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return LocalTensor<T>(reinterpret_cast<T*>(deque_buffer(loc)), len_ / sizeof(T) * opkg_sim::packed_per_byte<T>(), pos_);
    }
    template <class T>
    void FreeTensor(LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        free_buffer(t.ptr_, loc);
    }
    // The devkit's other forms: into a tensor the caller holds, and the untyped DeQue(), which
    // completes the hand-off and returns the buffer's handle (a kernel that keeps using the
    // tensor it enqueued calls it only to wait for the producer).
    template <class T>
    void AllocTensor(LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        t = AllocTensor<T>(loc);
    }
    template <class T>
    void DeQue(LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        t = DeQue<T>(loc);
    }
    TBufHandle DeQue(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return reinterpret_cast<TBufHandle>(deque_buffer(loc));
    }
    template <class T>
    void FreeTensor(const LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        LocalTensor<T> copy = t;
        FreeTensor(copy, loc);
    }
    // The forms naming the user positions (TQueBind<VECIN, VECOUT>): the same hand-off.
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    bool EnQue(const LocalTensor<T>& t, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return EnQue(t, loc);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, class T>
    LocalTensor<T> DeQue(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        return DeQue<T>(loc);
    }
    template <class T>
    TBufState GetState(const LocalTensor<T>& t) const {
        const uint8_t* q = reinterpret_cast<const uint8_t*>(t.ptr_);
        if (!base_ || q < base_ || q >= base_ + uint64_t(num_) * len_ + (len_ == 0)) return TBufState::FREE;
        int32_t i = len_ == 0 ? zero_length_index("GetState") : int32_t((q - base_) / len_);
        if (!in_use_[i]) return TBufState::FREE;
        for (const Entry& e : fifo_) if (e.index == i) return TBufState::ENQUE;
        return deq_[i] ? TBufState::DEQUE : TBufState::OCCUPIED;
    }
    bool VacantInQue() const { return depth_ <= 0 || int32_t(fifo_.size()) < depth_; }
    bool HasTensorInQue() const { return !fifo_.empty(); }
    int32_t GetTensorCountInQue() const { return int32_t(fifo_.size()); }
    bool HasIdleBuffer() const {
        for (uint32_t i = 0; i < num_; ++i) if (!in_use_[i]) return true;
        return false;
    }
    void FreeAllEvent() {}

    std::string describe() const {
        return opkg_sim::format("TQue<%s, depth %d>", opkg_sim::position_name(pos_), depth_);
    }

    // The pipes an EnQue/DeQue hand-off synchronises with the producer: the queue's event
    // (VECIN MTE2->V, VECOUT V->MTE3); a queue between two other positions, every pipe.
    uint8_t consumers() const {
        if (dst_ == TPosition::MAX || dst_ == pos_) {
            if (pos_ == TPosition::VECIN) return uint8_t(opkg_sim::Pipe::V);
            if (pos_ == TPosition::VECOUT) return uint8_t(opkg_sim::Pipe::MTE3);
        }
        return 0xFF;
    }

    struct Entry {
        int32_t index;
        uint32_t enqueued;   // accesses recorded before the EnQue (hazard.h)
    };

    // Set by TPipe::InitBuffer.
    TPosition pos_;
    TPosition dst_;      // TQueBind's second position
    int32_t depth_;
    TQueConfig config_;
    uint8_t* base_ = nullptr;
    uint32_t len_ = 0;
    uint32_t num_ = 0;
    uint32_t cursor_ = 0;   // the buffer AllocTensor tries first (the device's bufCursor)
    std::vector<bool> in_use_;
    std::vector<bool> deq_;                       // DeQue'd since its AllocTensor (GetState)
    std::vector<opkg_sim::SrcLoc> alloc_loc_;   // where each allocated buffer was handed out
    std::deque<Entry> fifo_;

private:
    // The protocol behind the typed calls above, on buffer addresses (the same for every dtype).
    uint8_t* alloc_buffer(opkg_sim::SrcLoc loc);
    void enque_buffer(const void* p, opkg_sim::SrcLoc loc);
    uint8_t* deque_buffer(opkg_sim::SrcLoc loc);
    void free_buffer(const void* p, opkg_sim::SrcLoc loc);
    void require_init(const char* what, opkg_sim::SrcLoc loc) const {
        opkg_sim::note(loc);
        if (!base_) {
            opkg_sim::fail(loc, opkg_sim::format("%s on a %s before TPipe::InitBuffer gave it memory",
                                                 what, describe().c_str()));
        }
    }
    int32_t index_of(const void* p, const char* what, opkg_sim::SrcLoc loc) const {
        const uint8_t* q = static_cast<const uint8_t*>(p);
        if (len_ == 0 && q == base_) return zero_length_index(what);
        if (len_ > 0 && q >= base_ && q < base_ + uint64_t(num_) * len_ && (q - base_) % len_ == 0) {
            return int32_t((q - base_) / len_);
        }
        opkg_sim::fail(loc, opkg_sim::format("%s of a tensor that was not allocated from this %s",
                                             what, describe().c_str()));
    }
    // InitBuffer with a length of 0 (a block the tiling gives no elements): every buffer sits at
    // the same address, and the device's queue hands out buffer handles, not addresses, so the
    // buffer meant is the one in the state the call expects: EnQue the allocated one not yet
    // queued, FreeTensor a dequeued one, else one allocated and never queued.
    int32_t zero_length_index(const char* what) const;
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBase {
public:
    static constexpr TQueConfig config = GetTQueConfig(mask);
    TQue() : TQueBase(pos, depth, TPosition::MAX, config) {}
};

template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQueBase {
public:
    static constexpr TQueConfig config = GetTQueConfig(mask);
    TQueBind() : TQueBase(src, depth, dst, config) {}
};

class TBufBase {
public:
    explicit TBufBase(TPosition pos) : pos_(pos) {}
    template <class T>
    LocalTensor<T> Get(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        require_init(loc);
        return LocalTensor<T>(reinterpret_cast<T*>(base_), len_ / sizeof(T) * opkg_sim::packed_per_byte<T>(), pos_);
    }
    template <class T>
    LocalTensor<T> Get(uint32_t count, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        require_init(loc);
        if (uint64_t(count) * sizeof(T) / opkg_sim::packed_per_byte<T>() > len_) {
            opkg_sim::fail(loc, opkg_sim::format("TBuf::Get<%s>(%u) asks for %llu bytes of a %u-byte buffer",
                                                 opkg_sim::type_name<T>(), count,
                                                 (unsigned long long)(uint64_t(count) * sizeof(T)), len_));
        }
        return LocalTensor<T>(reinterpret_cast<T*>(base_), count, pos_);
    }
    template <class T>
    LocalTensor<T> GetWithOffset(uint32_t count, uint32_t byteOffset, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) {
        require_init(loc);
        if (uint64_t(byteOffset) + uint64_t(count) * sizeof(T) / opkg_sim::packed_per_byte<T>() > len_) {
            opkg_sim::fail(loc, opkg_sim::format("TBuf::GetWithOffset(%u, %u) reaches past the %u-byte buffer",
                                                 count, byteOffset, len_));
        }
        return LocalTensor<T>(reinterpret_cast<T*>(base_ + byteOffset), count, pos_);
    }
    // TBuf keeps the queue interface it inherits in CANN: AllocTensor and DeQue hand out the whole
    // buffer, EnQue and FreeTensor do nothing (a TBuf has no events).
    template <class T>
    LocalTensor<T> AllocTensor(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return Get<T>(loc); }
    template <class T>
    LocalTensor<T> DeQue(opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()) { return Get<T>(loc); }
    template <class T> void EnQue(const LocalTensor<T>&) {}
    template <class T> void FreeTensor(const LocalTensor<T>&) {}
    template <class T> TBufState GetState(const LocalTensor<T>&) const { return TBufState::OCCUPIED; }
    std::string describe() const { return opkg_sim::format("TBuf<%s>", opkg_sim::position_name(pos_)); }

    TPosition pos_;
    uint8_t* base_ = nullptr;
    uint32_t len_ = 0;

private:
    void require_init(opkg_sim::SrcLoc loc) const {
        if (!base_) opkg_sim::fail(loc, "TBuf::Get before TPipe::InitBuffer gave the buffer memory");
    }
};

template <TPosition pos = TPosition::VECCALC>
class TBuf : public TBufBase {
public:
    TBuf() : TBufBase(pos) {}
};

class TPipe;

// A buffer pool (the devkit's TBufPool, kernel_tpipe.h): a stretch of one physical buffer that
// TPipe::InitBufPool carves (or that shares another pool's stretch: InitBufPool(pool, len,
// shareBuf)), from which the pool's InitBuffer hands out queue and TBuf memory in order, as
// TPipe's does from the whole buffer; Reset() hands the stretch out again from its start (the
// buffers initialised before keep their addresses: a kernel that still uses one reads what
// the next owner stores). A pool may carve sub-pools (InitBufPool). Running past the pool's
// length would overlap what follows it on the device: an error here.
class TBufPoolBase {
public:
    explicit TBufPoolBase(TPosition pos) : pos_(pos) {}
    bool InitBuffer(TQueBase& que, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    bool InitBuffer(TBufBase& buf, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    bool InitBufPool(TBufPoolBase& pool, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    bool InitBufPool(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    void Reset() { used_ = 0; }
    std::string describe() const { return opkg_sim::format("TBufPool<%s>", opkg_sim::position_name(pos_)); }

    static constexpr bool isTbufPool = true;
    TPosition pos_;
    uint8_t* base_ = nullptr;   // the pool's stretch (startAddr_)
    uint32_t len_ = 0;          // its length (maxLen_)
    uint32_t used_ = 0;         // handed out so far (maxAddr_ - startAddr_)

private:
    // `bytes` of the pool for `what` (a buffer of physical buffer `hw`), after the checks
    uint8_t* take(const std::string& what, int hw, uint64_t bytes, opkg_sim::SrcLoc loc);
};

// the devkit's defaultBufIDSize: buffer handles a pool keeps (the sim keeps no handle table)
constexpr uint32_t defaultBufIDSize = 4;

template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize>
class TBufPool : public TBufPoolBase {
public:
    static constexpr TPosition poolPos = pos;
    TBufPool() : TBufPoolBase(pos) {}
};

class TPipe {
public:
    TPipe();
    ~TPipe();
    // Copyable as the devkit's TPipe is (no copy constructor declared): its pool is the core's
    // (g_tpipeImpl there, the block's UB cursor here), so a copy allocates from the same pool,
    // and destroying either resets it (ops-nn's pooling and norm kernels keep `TPipe pipe_`
    // copied from the kernel's pipe).
    TPipe(const TPipe&) = default;
    TPipe& operator=(const TPipe&) = default;

    bool InitBuffer(TQueBase& que, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    bool InitBuffer(TBufBase& buf, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    // a buffer pool (TBufPool above): `len` bytes of its position's buffer, or shareBuf's stretch
    bool InitBufPool(TBufPoolBase& pool, uint32_t len, opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    bool InitBufPool(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf,
                     opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current());
    void Reset() { release(); }
    // CANN's TPipe::Init resets the buffer pool (its constructor calls it; a kernel may again):
    // the UB its buffers took is handed out again from the start
    void Init() { release(); }
    void Destroy() {
        if (!destroyed_) {
            release();
            destroyed_ = true;
        }
    }
    template <HardEvent evt> TEventID AllocEventID() { return 0; }
    template <HardEvent evt> void ReleaseEventID(TEventID) {}
    template <HardEvent evt> TEventID FetchEventID() { return 0; }
    TEventID FetchEventID(HardEvent) { return 0; }

private:
    friend class TBufPoolBase;
    static uint32_t round32(uint32_t len) { return (len + 31u) & ~31u; }
    // a queue's buffers at `base` (its TQueConfig checked): TPipe's and a pool's InitBuffer
    static void attach(TQueBase& que, uint8_t* base, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc);
    // InitBufPool(pool, len, shareBuf): the pool is shareBuf's stretch
    static void share(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf, opkg_sim::SrcLoc loc);
    // `len` bytes of position `pos`'s physical buffer, for `kind`
    uint8_t* take(const std::string& kind, TPosition pos, uint32_t num, uint32_t len, opkg_sim::SrcLoc loc);

    uint8_t* carve(const std::string& kind, uint32_t num, uint32_t len, opkg_sim::SrcLoc loc);
    void release();

    uint64_t start_;
    size_t allocs_start_;
    opkg_sim::CubeMark cube_start_;   // the cube buffers' cursors (cube_mem.h)
    bool destroyed_ = false;
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

// Defined once, in the block runner (OPKG_SIM_RUNTIME_TU, kcore.h).
#ifdef OPKG_SIM_RUNTIME_TU
uint8_t* TQueBase::alloc_buffer(opkg_sim::SrcLoc loc) {
    require_init("AllocTensor", loc);
    // As the device's queue: a cursor walks the buffers round-robin from the one after the last
    // handed out, so a tile just freed is not the next one handed out while another is free
    // (a kernel may still read a freed tile while it fills the next, as double buffering does).
    for (uint32_t k = 0; k < num_; ++k) {
        uint32_t i = cursor_;
        if (config_.bufferNumber != 1) cursor_ = (cursor_ + 1) % num_;
        if (!in_use_[i]) {
            in_use_[i] = true;
            deq_[i] = false;
            alloc_loc_[i] = loc;
            // A new tile: the queue waited for the previous tile's consumers (hazard.h),
            // and what that tile left in the buffer is stale.
            opkg_sim::mark_stale(base_ + uint64_t(i) * len_, len_);
            opkg_sim::sync_release(base_ + uint64_t(i) * len_, len_);
            return base_ + uint64_t(i) * len_;
        }
    }
    opkg_sim::fail(loc, opkg_sim::format(
        "AllocTensor on a %s whose %u buffer(s) are all allocated and not freed; "
        "on hardware this blocks forever. Call FreeTensor for each tensor once it is consumed.",
        describe().c_str(), num_));
}

void TQueBase::enque_buffer(const void* p, opkg_sim::SrcLoc loc) {
    require_init("EnQue", loc);
    int32_t i = index_of(p, "EnQue", loc);
    if (depth_ > 0 && int32_t(fifo_.size()) >= depth_) {
        opkg_sim::fail(loc, opkg_sim::format("EnQue on a %s already holding %d tensor(s) (its depth)",
                                             describe().c_str(), depth_));
    }
    fifo_.push_back(Entry{i, opkg_sim::sync_mark()});
}

uint8_t* TQueBase::deque_buffer(opkg_sim::SrcLoc loc) {
    require_init("DeQue", loc);
    if (fifo_.empty()) {
        opkg_sim::fail(loc, opkg_sim::format(
            "DeQue on an empty %s; on hardware this blocks forever. Each DeQue needs a matching EnQue.",
            describe().c_str()));
    }
    Entry e = fifo_.front();
    fifo_.pop_front();
    int32_t i = e.index;
    deq_[i] = true;
    opkg_sim::sync_handoff(base_ + uint64_t(i) * len_, len_, consumers(), e.enqueued);
    return base_ + uint64_t(i) * len_;
}

void TQueBase::free_buffer(const void* p, opkg_sim::SrcLoc loc) {
    require_init("FreeTensor", loc);
    int32_t i = index_of(p, "FreeTensor", loc);
    if (!in_use_[i]) {
        // freed twice with no AllocTensor between: the devkit's FreeBuffer asserts the state is not
        // FREE in its CPU debug build only (ASCENDC_ASSERT is empty for __NPU_DEVICE__,
        // dav_3510 kernel_tpipe_impl_c310_vec.h); the device sets FREE again and balances its
        // buffer-id get/release, so the kernel computes the same: a contract slip, an error
        // under --strict-bounds
        opkg_sim::BlockState& b = opkg_sim::block();
        const std::string what = opkg_sim::format(
            "FreeTensor of a buffer of this %s that is not allocated (freed twice?)", describe().c_str());
        if (b.strict_bounds) opkg_sim::fail(loc, what + " (--strict-bounds)");
        if (!b.warned || b.warned->first(loc))
            opkg_sim::log_line(opkg_sim::format(
                "warning: %s:%d: %s; the device tolerates it (the devkit's CPU debug mode aborts), but every "
                "FreeTensor should free one AllocTensor (--strict-bounds makes this an error)",
                loc.file ? loc.file : "?", loc.line, what.c_str()));
        return;
    }
    in_use_[i] = false;
}

TQueBase::TQueBase(TPosition pos, int32_t depth, TPosition dst, TQueConfig config)
    : pos_(pos), dst_(dst), depth_(depth), config_(config) {}

TQueBase::~TQueBase() {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (!base_ || !b.active || b.held.file) return;
    for (uint32_t i = 0; i < num_; ++i) {
        if (!in_use_[i]) continue;
        bool queued = false;
        for (const Entry& e : fifo_) queued = queued || e.index == int32_t(i);
        if (!queued && !b.strict_bounds) {
            // allocated and never freed: the kernel ends, and with it the queue; the device does
            // not mind (ops-nn's GatherElementsV2 keeps its tensors for the kernel's lifetime)
            const opkg_sim::SrcLoc at = alloc_loc_[i];
            if (b.warned && !b.warned->first(at)) return;
            opkg_sim::log_line(opkg_sim::format(
                "warning: %s:%d: the kernel returned with a tensor of a %s still allocated (never FreeTensor'd); "
                "harmless on the device, where the queue ends with the kernel, but every AllocTensor should have "
                "its FreeTensor (--strict-bounds makes this an error)", at.file ? at.file : "?", at.line,
                describe().c_str()));
            return;
        }
        b.held = alloc_loc_[i];
        b.held_message = opkg_sim::format(
            "the kernel returned with a tensor of a %s still %s (allocated by the AllocTensor at this "
            "line); every AllocTensor needs a FreeTensor once the tensor is consumed, or the queue's "
            "events stay unbalanced on the device%s", describe().c_str(),
            queued ? "in the queue (EnQue'd, never DeQue'd)" : "allocated (never FreeTensor'd)",
            queued ? "" : " (--strict-bounds)");
        return;
    }
}

int32_t TQueBase::zero_length_index(const char* what) const {
    auto queued = [&](uint32_t i) {
        for (const Entry& e : fifo_) if (e.index == int32_t(i)) return true;
        return false;
    };
    const bool enque = std::strcmp(what, "EnQue") == 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < num_; ++i) {
            if (!in_use_[i] || queued(i)) continue;
            if (enque ? !deq_[i] : (pass == 0 ? deq_[i] : true)) return int32_t(i);
        }
        if (enque) break;
    }
    return 0;   // none in that state: the caller's own check reports it
}

bool TPipe::InitBuffer(TQueBase& que, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc) {
    uint32_t rounded = round32(len);
    int hw = opkg_sim::cube_queue_buffer(que.pos_, que.dst_);
    attach(que, hw == opkg_sim::CUBE_UB ? carve(que.describe(), num, rounded, loc)
                                        : opkg_sim::cube_carve(hw, que.pos_, que.describe(), num, rounded, loc),
           num, len, loc);
    return true;
}

void TPipe::attach(TQueBase& que, uint8_t* base, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc) {
    if (num == 0) opkg_sim::fail(loc, "InitBuffer with num = 0 buffers");
    if (que.config_.bufferNumber != 0 && que.config_.bufferNumber != num) {
        opkg_sim::fail(loc, opkg_sim::format("TPipe::InitBuffer gives a %s %u buffers, but its TQueConfig "
                                             "says bufferNumber = %u", que.describe().c_str(), unsigned(num),
                                             que.config_.bufferNumber));
    }
    if (que.config_.bufferLen != 0 && que.config_.bufferLen != len) {
        opkg_sim::fail(loc, opkg_sim::format("TPipe::InitBuffer gives a %s buffers of %u bytes, but its "
                                             "TQueConfig says bufferLen = %u", que.describe().c_str(), len,
                                             que.config_.bufferLen));
    }
    que.base_ = base;
    que.len_ = round32(len);
    que.num_ = num;
    que.cursor_ = 0;
    que.in_use_.assign(num, false);
    que.deq_.assign(num, false);
    que.alloc_loc_.assign(num, opkg_sim::SrcLoc{nullptr, 0});
    que.fifo_.clear();
    opkg_sim::count_queue(num);
}

bool TPipe::InitBuffer(TBufBase& buf, uint32_t len, opkg_sim::SrcLoc loc) {
    uint32_t rounded = round32(len);
    buf.base_ = take(buf.describe(), buf.pos_, 1, rounded, loc);
    buf.len_ = rounded;
    return true;
}

uint8_t* TPipe::take(const std::string& kind, TPosition pos, uint32_t num, uint32_t len, opkg_sim::SrcLoc loc) {
    int hw = opkg_sim::cube_buffer_of(pos);
    return hw == opkg_sim::CUBE_UB ? carve(kind, num, len, loc) : opkg_sim::cube_carve(hw, pos, kind, num, len, loc);
}

bool TPipe::InitBufPool(TBufPoolBase& pool, uint32_t len, opkg_sim::SrcLoc loc) {
    pool.len_ = round32(len);
    pool.base_ = take(pool.describe(), pool.pos_, 1, pool.len_, loc);
    pool.used_ = 0;
    return true;
}

bool TPipe::InitBufPool(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf, opkg_sim::SrcLoc loc) {
    share(pool, len, shareBuf, loc);
    return true;
}

void TPipe::share(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf, opkg_sim::SrcLoc loc) {
    if (opkg_sim::cube_buffer_of(pool.pos_) != opkg_sim::cube_buffer_of(shareBuf.pos_)) {
        opkg_sim::fail(loc, opkg_sim::format("InitBufPool: a %s cannot share the memory of a %s (another "
                                             "physical buffer)", pool.describe().c_str(), shareBuf.describe().c_str()));
    }
    if (!shareBuf.base_) {
        opkg_sim::fail(loc, opkg_sim::format("InitBufPool shares a %s that no InitBufPool gave memory yet",
                                             shareBuf.describe().c_str()));
    }
    if (round32(len) > shareBuf.len_) {
        opkg_sim::fail(loc, opkg_sim::format("InitBufPool: %u bytes shared from a %s of %u bytes", round32(len),
                                             shareBuf.describe().c_str(), shareBuf.len_));
    }
    pool.base_ = shareBuf.base_;   // the devkit's: the shared pool's start and length
    pool.len_ = shareBuf.len_;
    pool.used_ = 0;
}

uint8_t* TBufPoolBase::take(const std::string& what, int hw, uint64_t bytes, opkg_sim::SrcLoc loc) {
    if (!base_) {
        opkg_sim::fail(loc, opkg_sim::format("%s::InitBuffer before TPipe::InitBufPool gave the pool memory",
                                             describe().c_str()));
    }
    if (hw != opkg_sim::cube_buffer_of(pos_)) {
        opkg_sim::fail(loc, opkg_sim::format("%s::InitBuffer of a %s: its buffer is not the pool's physical buffer",
                                             describe().c_str(), what.c_str()));
    }
    if (used_ + bytes > len_) {
        opkg_sim::fail(loc, opkg_sim::format("%s overflow: %s needs %llu bytes at offset %u of the pool's %u "
                                             "(the device would overlap what follows the pool)",
                                             describe().c_str(), what.c_str(), (unsigned long long)bytes, used_,
                                             len_));
    }
    uint8_t* p = base_ + used_;
    used_ += uint32_t(bytes);
    return p;
}

bool TBufPoolBase::InitBuffer(TQueBase& que, uint8_t num, uint32_t len, opkg_sim::SrcLoc loc) {
    uint32_t rounded = TPipe::round32(len);
    TPipe::attach(que, take(que.describe(), opkg_sim::cube_queue_buffer(que.pos_, que.dst_),
                            uint64_t(num) * rounded, loc), num, len, loc);
    return true;
}

bool TBufPoolBase::InitBuffer(TBufBase& buf, uint32_t len, opkg_sim::SrcLoc loc) {
    uint32_t rounded = TPipe::round32(len);
    buf.base_ = take(buf.describe(), opkg_sim::cube_buffer_of(buf.pos_), rounded, loc);
    buf.len_ = rounded;
    return true;
}

bool TBufPoolBase::InitBufPool(TBufPoolBase& pool, uint32_t len, opkg_sim::SrcLoc loc) {
    uint32_t rounded = TPipe::round32(len);
    pool.base_ = take(pool.describe(), opkg_sim::cube_buffer_of(pool.pos_), rounded, loc);
    pool.len_ = rounded;
    pool.used_ = 0;
    return true;
}

bool TBufPoolBase::InitBufPool(TBufPoolBase& pool, uint32_t len, TBufPoolBase& shareBuf, opkg_sim::SrcLoc loc) {
    TPipe::share(pool, len, shareBuf, loc);   // the same rule as TPipe's
    return true;
}

uint8_t* TPipe::carve(const std::string& kind, uint32_t num, uint32_t len, opkg_sim::SrcLoc loc) {
    opkg_sim::BlockState& b = opkg_sim::block();
    if (!b.ub) opkg_sim::fail(loc, "TPipe::InitBuffer outside a kernel launch (no Unified Buffer)");
    uint64_t need = uint64_t(num) * len;
    b.allocs.push_back(opkg_sim::UbAlloc{kind, num, len, b.ub_cursor, loc.file, loc.line});
    // Past the UB but inside the arena's inaccessible zone: allowed, as on the device, until
    // the kernel touches the buffer (the fault names it). Farther than that: an error now.
    if (b.ub_cursor + need > b.ub_bytes + opkg_sim::UB_BEYOND) {
        std::string msg = opkg_sim::format(
            "Unified Buffer overflow: TPipe::InitBuffer needs %llu bytes at offset %llu, "
            "but the SoC's UB holds %llu bytes (%llu bytes too many). Buffers so far:\n",
            (unsigned long long)need, (unsigned long long)b.ub_cursor, (unsigned long long)b.ub_bytes,
            (unsigned long long)(b.ub_cursor + need - b.ub_bytes));
        uint64_t total = 0;
        for (const opkg_sim::UbAlloc& a : b.allocs) {
            uint64_t bytes = uint64_t(a.num) * a.len;
            total += bytes;
            msg += opkg_sim::format("  - %s: %u x %u B = %llu B at %s:%d\n", a.kind.c_str(), a.num, a.len,
                                    (unsigned long long)bytes, a.file ? a.file : "?", a.line);
        }
        msg += opkg_sim::format("  total %llu B > UB capacity %llu B; shrink the tile length or the buffer count",
                                (unsigned long long)total, (unsigned long long)b.ub_bytes);
        opkg_sim::fail(loc, msg);
    }
    uint8_t* p = b.ub + b.ub_cursor;
    b.ub_cursor += need;
    if (b.ub_cursor > b.ub_high) b.ub_high = b.ub_cursor;
    return p;
}

TPipe::TPipe() : start_(opkg_sim::block().ub_cursor), allocs_start_(opkg_sim::block().allocs.size()),
                 cube_start_(opkg_sim::cube_mark()) {
    if (!opkg_sim::block().pipe) opkg_sim::block().pipe = this;
}

TPipe::~TPipe() {
    Destroy();
    if (opkg_sim::block().pipe == this) opkg_sim::block().pipe = nullptr;
}

void TPipe::release() {
    opkg_sim::BlockState& b = opkg_sim::block();
    b.ub_cursor = start_;
    if (b.allocs.size() > allocs_start_) b.allocs.resize(allocs_start_);
    opkg_sim::cube_release(cube_start_);
}
#endif

}  // namespace AscendC

// Declared in the global namespace, as CANN's kernel_common.h does: kernels (and CANN's own
// headers) call it unqualified from their own namespaces, and `AscendC::GetTPipePtr` is not a name.
inline AscendC::TPipe* GetTPipePtr() { return static_cast<AscendC::TPipe*>(opkg_sim::block().pipe); }
#endif
