// The register API's moves between the Unified Buffer and registers (asc-devkit
// kernel_reg_compute_datacopy_intf.h and the devkit's "Reg数据搬入/搬出" pages): aligned loads and
// stores with their distribution modes, post-updated addresses and address registers, block-
// strided copies, unaligned loads and stores through their alignment registers, gathers and
// scatters, mask loads and stores, and the older DataCopy* spellings ops-nn still uses.
//
// Each access is checked against the physical UB (an error with the call's file:line) and, for
// the aligned forms, for the 32-byte alignment the device needs. A load reads the whole span the
// mode names whatever buffer holds it, as the device does; only the masked lanes of a store are
// written. Reads and writes take part in definedness and --sync-check like every vector access.
#ifndef OPKG_SIM_REG_MEMORY_H
#define OPKG_SIM_REG_MEMORY_H

#include "opkg_sim/basic_api/reg/reg_core.h"
#include "opkg_sim/basic_api/reg/reg_order.h"

namespace opkg_sim {
namespace reg {

constexpr uint32_t BLK = 32;

// The register's bytes after a load: each of its bytes comes from source byte map(k), or is zero
// (map(k) < 0). `span` source bytes at p are read.
template <class R, class Map>
inline void load_bytes(R& dst, const uint8_t* p, uint64_t span, const char* op, SrcLoc loc, Map map) {
    constexpr uint32_t NB = sizeof(dst.v);
    vf_load(p, span, &dst, op, loc);
    const bool holes = ub_read(p, span, op, loc);
    uint8_t* rb = reinterpret_cast<uint8_t*>(dst.v);
    for (uint32_t k = 0; k < NB; ++k) {
        const int64_t j = map(k);
        rb[k] = j < 0 ? 0 : p[j];
    }
    dst.written = true;
    dst.dirty = false;
    if (!holes) {
        std::memset(dst.undef, 0, sizeof dst.undef);
        return;
    }
    const uint8_t* s = block().shadow + (p - block().ub);
    constexpr uint32_t ES = sizeof(typename R::ActualT);
    for (uint32_t i = 0; i < R::LANES; ++i) {
        uint8_t o = 0;
        for (uint32_t k = i * ES; k < (i + 1) * ES && !o; ++k) {
            const int64_t j = map(k);
            if (j >= 0 && s[j] != UB_WRITTEN) o = s[j];
        }
        dst.undef[i] = o;
        if (o) dst.dirty = true;
    }
}

template <AscendC::Reg::LoadDist dist, class R>
inline void load_align(R& dst, const void* addr, const char* op, SrcLoc loc) {
    using AscendC::Reg::LoadDist;
    note(loc);
    constexpr uint32_t NB = sizeof(dst.v);
    const uint8_t* p;
    switch (dist) {
        case LoadDist::DIST_NORM:
            p = ub_at(addr, NB, BLK, op, loc);
            load_bytes(dst, p, NB, op, loc, [](uint32_t k) { return int64_t(k); });
            return;
        case LoadDist::DIST_BRC_B8:
        case LoadDist::DIST_BRC_B16:
        case LoadDist::DIST_BRC_B32: {
            constexpr uint32_t e = dist == LoadDist::DIST_BRC_B8 ? 1 : dist == LoadDist::DIST_BRC_B16 ? 2 : 4;
            p = ub_at(addr, e, e, op, loc);
            load_bytes(dst, p, e, op, loc, [](uint32_t k) { return int64_t(k % e); });
            return;
        }
        case LoadDist::DIST_US_B8:
        case LoadDist::DIST_US_B16: {   // each element twice
            constexpr uint32_t e = dist == LoadDist::DIST_US_B8 ? 1 : 2;
            p = ub_at(addr, NB / 2, BLK, op, loc);
            load_bytes(dst, p, NB / 2, op, loc, [](uint32_t k) { return int64_t((k / (2 * e)) * e + k % e); });
            return;
        }
        case LoadDist::DIST_DS_B8:
        case LoadDist::DIST_DS_B16: {   // every other element
            constexpr uint32_t e = dist == LoadDist::DIST_DS_B8 ? 1 : 2;
            p = ub_at(addr, NB * 2, BLK, op, loc);
            load_bytes(dst, p, NB * 2, op, loc, [](uint32_t k) { return int64_t((k / e) * 2 * e + k % e); });
            return;
        }
        case LoadDist::DIST_UNPACK_B8:
        case LoadDist::DIST_UNPACK_B16:
        case LoadDist::DIST_UNPACK_B32:
        case LoadDist::DIST_UNPACK4_B8: {   // element i into slot r*i of the register, the rest zero
            constexpr uint32_t e = dist == LoadDist::DIST_UNPACK_B16 ? 2 : dist == LoadDist::DIST_UNPACK_B32 ? 4 : 1;
            constexpr uint32_t r = dist == LoadDist::DIST_UNPACK4_B8 ? 4 : 2;
            p = ub_at(addr, NB / r, BLK, op, loc);
            load_bytes(dst, p, NB / r, op, loc, [](uint32_t k) {
                const uint32_t slot = k / e;
                return slot % r ? int64_t(-1) : int64_t((slot / r) * e + k % e);
            });
            return;
        }
        case LoadDist::DIST_BLK:   // one 32-byte block into every block
            p = ub_at(addr, BLK, BLK, op, loc);
            load_bytes(dst, p, BLK, op, loc, [](uint32_t k) { return int64_t(k % BLK); });
            return;
        case LoadDist::DIST_E2B_B16:
        case LoadDist::DIST_E2B_B32: {   // element k across block k
            constexpr uint32_t e = dist == LoadDist::DIST_E2B_B16 ? 2 : 4;
            p = ub_at(addr, NB / BLK * e, e, op, loc);
            load_bytes(dst, p, NB / BLK * e, op, loc, [](uint32_t k) { return int64_t((k / BLK) * e + k % e); });
            return;
        }
        default:
            fail(loc, format("%s: load distribution %d is not emulated yet (docs/api.md, register API)", op, int(dist)));
    }
}

// The two-register loads: DIST_DINTLV_B* splits 2 VL bytes into even and odd elements.
template <AscendC::Reg::LoadDist dist, class R>
inline void load_align2(R& d0, R& d1, const void* addr, const char* op, SrcLoc loc) {
    using AscendC::Reg::LoadDist;
    note(loc);
    constexpr uint32_t NB = sizeof(d0.v);
    constexpr uint32_t e = dist == LoadDist::DIST_DINTLV_B8 ? 1 : dist == LoadDist::DIST_DINTLV_B16 ? 2 : 4;
    if (dist != LoadDist::DIST_DINTLV_B8 && dist != LoadDist::DIST_DINTLV_B16 && dist != LoadDist::DIST_DINTLV_B32) {
        fail(loc, format("%s: two-register load distribution %d is not emulated yet", op, int(dist)));
    }
    const uint8_t* p = ub_at(addr, 2 * NB, BLK, op, loc);
    load_bytes(d0, p, 2 * NB, op, loc, [](uint32_t k) { return int64_t((k / e) * 2 * e + k % e); });
    load_bytes(d1, p, 2 * NB, op, loc, [](uint32_t k) { return int64_t((k / e) * 2 * e + e + k % e); });
}

// Writes `n` bytes of the register at register byte `from` to UB byte `to` (relative to p), with
// lane `lane`'s definedness.
template <class R>
inline void put(uint8_t* p, uint64_t to, const R& src, uint32_t from, uint32_t n, uint32_t lane, const char* op,
                SrcLoc loc) {
    vf_store(p + to, n, &src, op, loc);
    std::memcpy(p + to, reinterpret_cast<const uint8_t*>(src.v) + from, n);
    ub_written(p + to, n, src.dirty ? src.undef[lane] : 0);
}

template <AscendC::Reg::StoreDist dist, class R>
inline void store_align(void* addr, R& src, MaskReg& mask, const char* op, SrcLoc loc) {
    using AscendC::Reg::StoreDist;
    using E = typename R::ActualT;
    note(loc);
    read_reg(src, op, loc);
    constexpr uint32_t ES = sizeof(E);
    if (dist == StoreDist::DIST_FIRST_ELEMENT_B8 || dist == StoreDist::DIST_FIRST_ELEMENT_B16 ||
        dist == StoreDist::DIST_FIRST_ELEMENT_B32) {
        use_mask(mask, R::STEP, op, loc);
        uint8_t* p = ub_at(addr, ES, ES, op, loc);
        if (bit(mask, 0)) put(p, 0, src, 0, ES, 0, op, loc);
        return;
    }
    if (dist == StoreDist::DIST_INTLV_B8 || dist == StoreDist::DIST_INTLV_B16 || dist == StoreDist::DIST_INTLV_B32 ||
        dist == StoreDist::DIST_MRG4CHN_B8 || dist == StoreDist::DIST_MRG2CHN_B8 || dist == StoreDist::DIST_MRG2CHN_B16) {
        fail(loc, format("%s: store distribution %d takes two registers or is not emulated yet", op, int(dist)));
    }
    // A packing store sees the register as lanes of `lw` bytes (b16, b32, b64) and keeps the low
    // `keep` bytes of each, selected by the mask at that width; the others store whole elements.
    constexpr uint32_t lw = dist == StoreDist::DIST_PACK_B16 ? 2 : dist == StoreDist::DIST_PACK_B32 ? 4
                            : dist == StoreDist::DIST_PACK_B64 ? 8 : dist == StoreDist::DIST_PACK4_B32 ? 4 : ES;
    constexpr uint32_t keep = dist == StoreDist::DIST_PACK_B16 ? 1 : dist == StoreDist::DIST_PACK_B32 ? 2
                              : dist == StoreDist::DIST_PACK_B64 ? 4 : dist == StoreDist::DIST_PACK4_B32 ? 1 : ES;
    constexpr uint32_t nl = sizeof(src.v) / lw;
    constexpr uint32_t step = lw / R::REG_NUM ? lw / R::REG_NUM : 1;
    use_mask(mask, step, op, loc);
    int64_t last = -1;   // the span the active lanes reach must lie in the UB
    for (uint32_t i = 0; i < nl; ++i) {
        if (bit(mask, i * step)) last = i;
    }
    uint8_t* p = ub_at(addr, last < 0 ? 0 : uint64_t(last + 1) * keep, BLK, op, loc);
    if (!src.dirty && keep == lw) {   // runs of active lanes in one write each
        uint32_t i = 0;
        while (i < nl) {
            if (!bit(mask, i * step)) {
                ++i;
                continue;
            }
            uint32_t j = i;
            while (j < nl && bit(mask, j * step)) ++j;
            put(p, uint64_t(i) * lw, src, i * lw, (j - i) * lw, 0, op, loc);
            i = j;
        }
        return;
    }
    for (uint32_t i = 0; i < nl; ++i) {
        if (bit(mask, i * step)) put(p, uint64_t(i) * keep, src, i * lw, keep, i * lw / ES, op, loc);
    }
}

template <class R>
inline void store_intlv(void* addr, R& s0, R& s1, MaskReg& mask, const char* op, SrcLoc loc) {
    using E = typename R::ActualT;
    note(loc);
    read_reg(s0, op, loc);
    read_reg(s1, op, loc);
    use_mask(mask, R::STEP, op, loc);
    uint8_t* p = ub_at(addr, 2 * sizeof(s0.v), BLK, op, loc);
    for (uint32_t j = 0; j < 2 * R::LANES; ++j) {
        if (!bit(mask, (j % R::LANES) * R::STEP)) continue;
        const R& s = j % 2 ? s1 : s0;
        put(p, uint64_t(j) * sizeof(E), s, (j / 2) * sizeof(E), sizeof(E), j / 2, op, loc);
    }
}

// Block-strided forms (DataCopyMode::DATA_BLOCK_COPY): block k of the register from/to the UB
// block at k * blockStride blocks.
template <class R>
inline void load_blocks(R& dst, const uint8_t* base, uint32_t stride, MaskReg& mask, const char* op, SrcLoc loc) {
    note(loc);
    use_mask(mask, R::STEP, op, loc);
    constexpr uint32_t NBLK = sizeof(dst.v) / BLK;
    const uint64_t span = uint64_t(NBLK - 1) * stride * BLK + BLK;
    const uint8_t* p = ub_at(base, span, BLK, op, loc);
    load_bytes(dst, p, span, op, loc, [&](uint32_t k) { return int64_t(uint64_t(k / BLK) * stride * BLK + k % BLK); });
}

template <class R>
inline void store_blocks(uint8_t* base, R& src, uint32_t stride, MaskReg& mask, const char* op, SrcLoc loc) {
    note(loc);
    read_reg(src, op, loc);
    use_mask(mask, R::STEP, op, loc);
    constexpr uint32_t NBLK = sizeof(src.v) / BLK;
    constexpr uint32_t ES = sizeof(typename R::ActualT);
    uint8_t* p = ub_at(base, uint64_t(NBLK - 1) * stride * BLK + BLK, BLK, op, loc);
    for (uint32_t i = 0; i < R::LANES; ++i) {
        if (!bit(mask, i * R::STEP)) continue;
        const uint32_t k = i * ES;
        put(p, uint64_t(k / BLK) * stride * BLK + k % BLK, src, k, ES, i, op, loc);
    }
}

// Per-thread special-purpose register AR: the bytes the squeezing stores wrote since ClearSpr.
struct SprState {
    uint64_t ar = 0;
    uint32_t squeezed = 0;   // bytes the last Squeeze<STORE_REG> kept, for the count-less StoreUnAlign
};
inline SprState& spr() {
    static thread_local SprState s;
    return s;
}

template <class R>
inline void load_unaligned(R& dst, const void* addr, const char* op, SrcLoc loc) {
    note(loc);
    const uint8_t* p = ub_at(addr, sizeof(dst.v), sizeof(typename R::ActualT) > 1 ? sizeof(typename R::ActualT) : 1,
                             op, loc);
    load_bytes(dst, p, sizeof(dst.v), op, loc, [](uint32_t k) { return int64_t(k); });
}

// An unaligned store: the whole 32-byte blocks are written now, the bytes after the last block
// boundary wait in the alignment register until the next store continues them or
// StoreUnAlignPost flushes them (a tail never flushed is never written, as on the device).
template <class R>
inline void flush(AscendC::Reg::UnalignRegForStore& u) {
    if (u.pending_off < 0 || !u.pending_n) {
        u.pending_off = -1;
        u.pending_n = 0;
        return;
    }
    BlockState& b = block();
    uint8_t* p = b.ub + u.pending_off;
    for (uint32_t k = 0; k < u.pending_n; ++k) {
        p[k] = u.bytes[k];
        ub_written(p + k, 1, u.undef[k]);
    }
    u.pending_off = -1;
    u.pending_n = 0;
}

template <class R>
inline void store_unaligned(void* addr, const R& src, uint32_t count, AscendC::Reg::UnalignRegForStore& u,
                            const char* op, SrcLoc loc) {
    using E = typename R::ActualT;
    note(loc);
    if (count > R::LANES) {
        fail(loc, format("%s: %u elements requested from a register of %u", op, count, R::LANES));
    }
    uint8_t* p = ub_at(addr, uint64_t(count) * sizeof(E), sizeof(E), op, loc);
    vf_store(p, uint64_t(count) * sizeof(E), &src, op, loc);
    BlockState& b = block();
    const uint64_t off = uint64_t(p - b.ub);
    if (u.pending_off >= 0 && uint64_t(u.pending_off) + u.pending_n != off) flush<R>(u);
    if (u.pending_off < 0) {
        u.pending_off = int64_t(off);
        u.pending_n = 0;
    }
    const uint8_t* rb = reinterpret_cast<const uint8_t*>(src.v);
    for (uint32_t k = 0; k < count * sizeof(E); ++k) {
        u.bytes[u.pending_n] = rb[k];
        u.undef[u.pending_n] = src.dirty ? src.undef[k / sizeof(E)] : 0;
        ++u.pending_n;
    }
    // Write out what reaches the last 32-byte boundary; keep the rest pending.
    const uint64_t end = uint64_t(u.pending_off) + u.pending_n;
    const uint64_t whole = end / BLK * BLK;
    if (whole > uint64_t(u.pending_off)) {
        const uint32_t n = uint32_t(whole - uint64_t(u.pending_off));
        uint8_t* q = b.ub + u.pending_off;
        for (uint32_t k = 0; k < n; ++k) {
            q[k] = u.bytes[k];
            ub_written(q + k, 1, u.undef[k]);
        }
        std::memmove(u.bytes, u.bytes + n, u.pending_n - n);
        std::memmove(u.undef, u.undef + n, u.pending_n - n);
        u.pending_n -= n;
        u.pending_off = int64_t(whole);
    }
}

// Gathers elements of `base` at index[i] (in elements of the base's type) into the lanes of dst.
// An 8-bit base into a 16-bit register (the Gather page's int8_t -> int16_t and uint8_t ->
// uint16_t pairs: ops-nn's max_pool_v3 for int8/uint8) reads one byte a lane, converted to the
// lane's type; every other pair reads a lane's width.
template <class R, class B, class I>
inline void gather_ub(R& dst, const B* base, I& index, MaskReg& mask, const char* op, SrcLoc loc) {
    using E = typename R::ActualT;
    using IE = typename I::ActualT;
    constexpr bool widen = sizeof(B) == 1 && sizeof(E) == 2;
    constexpr uint32_t width = widen ? 1 : sizeof(E);
    note(loc);
    read_reg(index, op, loc);
    use_mask(mask, R::STEP, op, loc);
    read_reg(dst, op, loc);
    dst.dirty = false;
    for (uint32_t i = 0; i < R::LANES; ++i) {
        if (!bit(mask, i * R::STEP)) {
            dst.v[i] = E();
            dst.undef[i] = 0;
            continue;
        }
        const uint64_t j = uint64_t(index.v[i < I::LANES ? i : I::LANES - 1]);
        if (index.dirty && index.undef[i < I::LANES ? i : I::LANES - 1]) {
            fail(loc, format("%s: index lane %u is undefined: %s", op, i,
                             describe_origin(index.undef[i < I::LANES ? i : I::LANES - 1]).c_str()));
        }
        const uint8_t* p = ub_at(reinterpret_cast<const uint8_t*>(base) + j * width, width, 1, op, loc);
        vf_load(p, width, &dst, op, loc);
        const bool holes = ub_read(p, width, op, loc);
        if constexpr (widen) {
            B b;
            std::memcpy(&b, p, 1);
            dst.v[i] = E(b);
        } else {
            std::memcpy(&dst.v[i], p, sizeof(E));
        }
        dst.undef[i] = holes ? *first_hole(block().shadow + (p - block().ub), width) : 0;
        if (dst.undef[i]) dst.dirty = true;
        (void)sizeof(IE);
    }
    dst.written = true;
}

template <class R, class I>
inline void scatter_ub(void* base, R& src, I& index, MaskReg& mask, const char* op, SrcLoc loc) {
    using E = typename R::ActualT;
    note(loc);
    read_reg(src, op, loc);
    read_reg(index, op, loc);
    use_mask(mask, R::STEP, op, loc);
    for (uint32_t i = 0; i < R::LANES && i < I::LANES; ++i) {
        if (!bit(mask, i * R::STEP)) continue;
        if (index.dirty && index.undef[i]) {
            fail(loc, format("%s: index lane %u is undefined: %s", op, i, describe_origin(index.undef[i]).c_str()));
        }
        uint8_t* p = ub_at(static_cast<uint8_t*>(base) + uint64_t(index.v[i]) * sizeof(E), sizeof(E), 1, op, loc);
        put(p, 0, src, i * sizeof(E), sizeof(E), i, op, loc);
    }
}

// Mask loads and stores: 256 predicate bits as 32 bytes (DIST_NORM), every bit twice from 16
// bytes (DIST_US), every other bit from 64 bytes (DIST_DS); a packing store writes every other bit.
template <AscendC::Reg::MaskDist dist>
inline void load_mask(MaskReg& m, const void* addr, const char* op, SrcLoc loc) {
    note(loc);
    const int d = int(dist);
    const uint32_t n = d == 1 ? 16 : d == 2 ? 64 : 32;
    const uint8_t* p = ub_at(addr, n, d == 2 ? BLK : 16, op, loc);
    vf_load(p, n, &m, op, loc);
    if (ub_read(p, n, op, loc)) {
        fail(loc, format("%s: the mask bytes at UB offset %llu are undefined: %s", op,
                         (unsigned long long)(p - block().ub),
                         describe_origin(*first_hole(block().shadow + (p - block().ub), n)).c_str()));
    }
    for (uint32_t k = 0; k < 256; ++k) {
        const uint32_t s = d == 1 ? k / 2 : d == 2 ? 2 * k : k;
        set_bit(m, k, (p[s / 8] >> (s % 8)) & 1);
    }
    m.set = true;
    m.width = 0;
}

template <AscendC::Reg::MaskDist dist>
inline void store_mask(void* addr, MaskReg& m, const char* op, SrcLoc loc) {
    note(loc);
    use_mask(m, m.width ? m.width : 1, op, loc);
    const bool pack = int(dist) == 1;
    const uint32_t n = pack ? 16 : 32;
    uint8_t* p = ub_at(addr, n, 16, op, loc);
    vf_store(p, n, &m, op, loc);
    for (uint32_t k = 0; k < n * 8; ++k) {
        const bool on = bit(m, pack ? 2 * k : k);
        if (k % 8 == 0) p[k / 8] = 0;
        if (on) p[k / 8] |= uint8_t(1u << (k % 8));
    }
    ub_written(p, n, 0);
}

}  // namespace reg
}  // namespace opkg_sim

namespace AscendC {
namespace Reg {

#define OPKG_REG_LOC opkg_sim::SrcLoc loc = opkg_sim::SrcLoc::current()
#define OPKG_IS_REG(U) typename std::enable_if<opkg_sim::reg::is_reg<U>::value, int>::type = 0

// ---- aligned loads
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_align<dist>(dstReg, srcAddr, "LoadAlign", loc);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride, OPKG_REG_LOC) {
    opkg_sim::reg::load_align<dist>(dstReg, srcAddr, "LoadAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset, OPKG_REG_LOC) {
    opkg_sim::reg::load_align<dist>(dstReg, reinterpret_cast<__ubuf__ uint8_t*>(srcAddr) + offset.bytes, "LoadAlign",
                                    loc);
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_align2<dist>(dstReg0, dstReg1, srcAddr, "LoadAlign", loc);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T*& srcAddr, int32_t postUpdateStride, OPKG_REG_LOC) {
    opkg_sim::reg::load_align2<dist>(dstReg0, dstReg1, srcAddr, "LoadAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T = DefaultType, LoadDist dist, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset, OPKG_REG_LOC) {
    opkg_sim::reg::load_align2<dist>(dstReg0, dstReg1, reinterpret_cast<__ubuf__ uint8_t*>(srcAddr) + offset.bytes,
                                     "LoadAlign", loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::load_blocks(dstReg, reinterpret_cast<const uint8_t*>(srcAddr), dataBlockStride, mask, "LoadAlign",
                               loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U, OPKG_IS_REG(U)>
inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride, MaskReg& mask,
                      OPKG_REG_LOC) {
    opkg_sim::reg::load_blocks(dstReg, reinterpret_cast<const uint8_t*>(srcAddr), dataBlockStride, mask, "LoadAlign",
                               loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += repeatStride * opkg_sim::reg::BLK / sizeof(T);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Load(U& dstReg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_unaligned(dstReg, srcAddr, "Load", loc);
}

// ---- aligned stores
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_align<dist>(dstAddr, srcReg, mask, "StoreAlign", loc);
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U,
          OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_align<dist>(dstAddr, srcReg, mask, "StoreAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_align<dist>(reinterpret_cast<__ubuf__ uint8_t*>(dstAddr) + offset.bytes, srcReg, mask,
                                     "StoreAlign", loc);
}
template <typename T = DefaultType, StoreDist dist, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_intlv(dstAddr, srcReg0, srcReg1, mask, "StoreAlign", loc);
}
template <typename T = DefaultType, StoreDist dist, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, AddrReg offset, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_intlv(reinterpret_cast<__ubuf__ uint8_t*>(dstAddr) + offset.bytes, srcReg0, srcReg1, mask,
                               "StoreAlign", loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, uint32_t dataBlockStride, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_blocks(reinterpret_cast<uint8_t*>(dstAddr), srcReg, dataBlockStride, mask, "StoreAlign", loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U, OPKG_IS_REG(U)>
inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride, MaskReg& mask,
                       OPKG_REG_LOC) {
    opkg_sim::reg::store_blocks(reinterpret_cast<uint8_t*>(dstAddr), srcReg, dataBlockStride, mask, "StoreAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += repeatStride * opkg_sim::reg::BLK / sizeof(T);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void Store(__ubuf__ T* dstAddr, U& srcReg, uint32_t count, OPKG_REG_LOC) {
    UnalignRegForStore u;
    opkg_sim::reg::store_unaligned(dstAddr, srcReg, count, u, "Store", loc);
    opkg_sim::reg::flush<U>(u);
}

// ---- mask loads and stores
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_mask<dist>(mask, srcAddr, "LoadAlign", loc);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void LoadAlign(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset, OPKG_REG_LOC) {
    opkg_sim::reg::load_mask<dist>(mask, reinterpret_cast<__ubuf__ uint8_t*>(srcAddr) + offset.bytes, "LoadAlign", loc);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
inline void LoadAlign(MaskReg& mask, __ubuf__ T*& srcAddr, int32_t offset, OPKG_REG_LOC) {
    opkg_sim::reg::load_mask<dist>(mask, srcAddr, "LoadAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += offset;
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void StoreAlign(__ubuf__ T* dstAddr, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_mask<dist>(dstAddr, mask, "StoreAlign", loc);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void StoreAlign(__ubuf__ T* dstAddr, MaskReg& mask, AddrReg offset, OPKG_REG_LOC) {
    opkg_sim::reg::store_mask<dist>(reinterpret_cast<__ubuf__ uint8_t*>(dstAddr) + offset.bytes, mask, "StoreAlign",
                                    loc);
}
template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>
inline void StoreAlign(__ubuf__ T*& dstAddr, MaskReg& mask, int32_t offset, OPKG_REG_LOC) {
    opkg_sim::reg::store_mask<dist>(dstAddr, mask, "StoreAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += offset;
}

// ---- unaligned loads and stores
template <typename T>
inline void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    ureg.base = int64_t(opkg_sim::reg::ub_at(srcAddr, 0, 1, "LoadUnAlignPre", loc) - opkg_sim::block().ub);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride,
                        OPKG_REG_LOC) {
    opkg_sim::reg::load_unaligned(dstReg, srcAddr, "LoadUnAlign", loc);
    (void)ureg;
    if (postMode == PostLiteral::POST_MODE_UPDATE) srcAddr += postUpdateStride;
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    (void)ureg;
    opkg_sim::reg::load_unaligned(dstReg, srcAddr, "LoadUnAlign", loc);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t postUpdateStride,
                         OPKG_REG_LOC) {
    opkg_sim::reg::read_reg(srcReg, "StoreUnAlign", loc);
    opkg_sim::reg::store_unaligned(dstAddr, srcReg, postUpdateStride, ureg, "StoreUnAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
// The count-less form (the devkit's AR-register interface, vstur) stores what the last
// Squeeze<GatherMaskMode::STORE_REG> kept at dstAddr + AR, the bytes stored so far since
// ClearSpr, and adds them to AR: dstAddr is taken by value and stays where it is (kernels pass
// the same base each time, or a cast of it: ops-nn's sparse_slice, unsorted_segment_sum).
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void StoreUnAlign(__ubuf__ T* dstAddr, U& srcReg, UnalignRegForStore& ureg, OPKG_REG_LOC) {
    opkg_sim::reg::read_reg(srcReg, "StoreUnAlign", loc);
    auto& s = opkg_sim::reg::spr();
    const uint32_t n = s.squeezed / sizeof(typename U::ActualT);
    void* at = reinterpret_cast<uint8_t*>(dstAddr) + s.ar;
    opkg_sim::reg::store_unaligned(at, srcReg, n, ureg, "StoreUnAlign", loc);
    if (postMode == PostLiteral::POST_MODE_UPDATE) s.ar += s.squeezed;
}
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
inline void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    opkg_sim::reg::flush<RegTensor<T>>(ureg);
    if (postMode == PostLiteral::POST_MODE_UPDATE) dstAddr += postUpdateStride;
}
// the AR form's flush (vstar): the pending bytes know their address; dstAddr by value
template <typename T>
inline void StoreUnAlignPost(__ubuf__ T* dstAddr, UnalignRegForStore& ureg, OPKG_REG_LOC) {
    opkg_sim::note(loc);
    (void)dstAddr;
    opkg_sim::reg::flush<RegTensor<T>>(ureg);
}

// ---- gathers and scatters through UB
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4, OPKG_IS_REG(T3)>
inline void Gather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::gather_ub(dstReg, baseAddr, index, mask, "Gather", loc);
}
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V, OPKG_IS_REG(S)>
inline void Scatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::scatter_ub(baseAddr, srcReg, index, mask, "Scatter", loc);
}

// ---- address registers
template <typename T>
inline AddrReg CreateAddrReg(uint16_t i0, uint32_t s0) { return AddrReg{int64_t(i0) * s0 * int64_t(sizeof(T))}; }
template <typename T>
inline AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1) {
    return AddrReg{(int64_t(i0) * s0 + int64_t(i1) * s1) * int64_t(sizeof(T))};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, uint16_t i2, uint32_t s2) {
    return AddrReg{(int64_t(i0) * s0 + int64_t(i1) * s1 + int64_t(i2) * s2) * int64_t(sizeof(T))};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t i0, uint32_t s0, uint16_t i1, uint32_t s1, uint16_t i2, uint32_t s2, uint16_t i3,
                             uint32_t s3) {
    return AddrReg{(int64_t(i0) * s0 + int64_t(i1) * s1 + int64_t(i2) * s2 + int64_t(i3) * s3) * int64_t(sizeof(T))};
}

template <SpecialPurposeReg spr>
inline void ClearSpr() { opkg_sim::reg::spr().ar = 0; }
template <SpecialPurposeReg spr>
inline uint64_t GetSpr() { return opkg_sim::reg::spr().ar; }

// ---- the older DataCopy spellings (ops-nn's kernels), each the LoadAlign/StoreAlign it names
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void DataCopy(U& dstReg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_align<dist>(dstReg, srcAddr, "DataCopy", loc);
}
template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void DataCopy(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride, OPKG_REG_LOC) {
    LoadAlign<T, postMode, dist>(dstReg, srcAddr, postUpdateStride, loc);
}
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void DataCopy(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset, OPKG_REG_LOC) {
    LoadAlign<T, dist>(dstReg, srcAddr, offset, loc);
}
template <typename T = DefaultType, LoadDist dist, typename U, OPKG_IS_REG(U)>
inline void DataCopy(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    opkg_sim::reg::load_align2<dist>(dstReg0, dstReg1, srcAddr, "DataCopy", loc);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void DataCopy(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::store_align<dist>(dstAddr, srcReg, mask, "DataCopy", loc);
}
template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U,
          OPKG_IS_REG(U)>
inline void DataCopy(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask, OPKG_REG_LOC) {
    StoreAlign<T, postMode, dist>(dstAddr, srcReg, postUpdateStride, mask, loc);
}
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U, OPKG_IS_REG(U)>
inline void DataCopy(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask, OPKG_REG_LOC) {
    StoreAlign<T, dist>(dstAddr, srcReg, offset, mask, loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U, OPKG_IS_REG(U)>
inline void DataCopy(U& dstReg, __ubuf__ T*& srcAddr, uint32_t blockStride, uint32_t repeatStride, MaskReg& mask,
                     OPKG_REG_LOC) {
    LoadAlign<T, dataMode, postMode>(dstReg, srcAddr, blockStride, repeatStride, mask, loc);
}
template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U, OPKG_IS_REG(U)>
inline void DataCopy(__ubuf__ T*& dstAddr, U& srcReg, uint32_t blockStride, uint32_t repeatStride, MaskReg& mask,
                     OPKG_REG_LOC) {
    StoreAlign<T, dataMode, postMode>(dstAddr, srcReg, blockStride, repeatStride, mask, loc);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void DataCopy(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset, OPKG_REG_LOC) {
    LoadAlign<T, dist>(mask, srcAddr, offset, loc);
}
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
inline void DataCopy(__ubuf__ T* dstAddr, MaskReg& mask, AddrReg offset, OPKG_REG_LOC) {
    StoreAlign<T, dist>(dstAddr, mask, offset, loc);
}
template <typename T>
inline void DataCopyUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    LoadUnAlignPre(ureg, srcAddr, loc);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void DataCopyUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t stride, OPKG_REG_LOC) {
    LoadUnAlign<T, postMode>(dstReg, ureg, srcAddr, stride, loc);
}
template <typename T = DefaultType, typename U, OPKG_IS_REG(U)>
inline void DataCopyUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, OPKG_REG_LOC) {
    LoadUnAlign<T>(dstReg, ureg, srcAddr, loc);
}
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void DataCopyUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t count, OPKG_REG_LOC) {
    StoreUnAlign<T, postMode>(dstAddr, srcReg, ureg, count, loc);
}
// the count-less store (what the last Squeeze/GatherMask with STORE_REG kept: ops-nn's
// unsorted_segment_sum and non_zero)
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U, OPKG_IS_REG(U)>
inline void DataCopyUnAlign(__ubuf__ T* dstAddr, U& srcReg, UnalignRegForStore& ureg, OPKG_REG_LOC) {
    StoreUnAlign<T, postMode>(dstAddr, srcReg, ureg, loc);
}
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
inline void DataCopyUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t stride, OPKG_REG_LOC) {
    StoreUnAlignPost<T, postMode>(dstAddr, ureg, stride, loc);
}
template <typename T>
inline void DataCopyUnAlignPost(__ubuf__ T* dstAddr, UnalignRegForStore& ureg, OPKG_REG_LOC) {
    StoreUnAlignPost<T>(dstAddr, ureg, loc);
}
template <typename T0 = DefaultType, typename T1 = DefaultType, typename T2 = DefaultType, typename S, typename B,
          typename I, OPKG_IS_REG(S)>
inline void DataCopyGather(S& dstReg, __ubuf__ B* baseAddr, I& index, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::gather_ub(dstReg, baseAddr, index, mask, "DataCopyGather", loc);
}
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V, OPKG_IS_REG(S)>
inline void DataCopyScatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask, OPKG_REG_LOC) {
    opkg_sim::reg::scatter_ub(baseAddr, srcReg, index, mask, "DataCopyScatter", loc);
}

}  // namespace Reg
}  // namespace AscendC

#endif
