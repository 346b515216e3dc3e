// The cube unit's local buffers: L1 (A1/B1/C1), L0A (A2), L0B (B2), L0C (CO1), the bias table
// (C2) and the fixpipe buffer's quantisation part (C2PIPE2GM), one arena each per block, sized from the SoC table (OpkgKernelLaunch, BlockState::cube_caps).
// TPipe::InitBuffer carves a queue or TBuf from the buffer its position maps to, as CANN's
// GetBufferPos does per __CCE_AICORE__, with the same overflow report as the Unified Buffer.
// Each arena keeps a shadow byte per byte: 1 once an instruction wrote a defined value there
// (the cube APIs in cube.h check their sources against it).
#ifndef OPKG_SIM_CUBE_MEM_H
#define OPKG_SIM_CUBE_MEM_H

#include <memory>
#include "opkg_sim/basic_api/core/kcore.h"
#include "opkg_sim/basic_api/core/ktypes.h"

namespace opkg_sim {

enum CubeBuf : int { CUBE_L1 = 0, CUBE_L0A, CUBE_L0B, CUBE_L0C, CUBE_BT, CUBE_FB, CUBE_COUNT, CUBE_UB = -1, CUBE_NONE = -2 };

inline const char* cube_buf_name(int buf) {
    static const char* const names[CUBE_COUNT] = {"L1", "L0A", "L0B", "L0C", "bias table (BT)",
                                                   "fixpipe buffer (FB)"};
    return buf >= 0 && buf < CUBE_COUNT ? names[buf] : "UB";
}
inline const char* cube_cap_field(int buf) {
    static const char* const fields[CUBE_COUNT] = {"l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "bt_bytes",
                                                    "fb_bytes"};
    return buf >= 0 && buf < CUBE_COUNT ? fields[buf] : "ub_bytes";
}

// The physical buffer behind a logical position (CANN's GetPhyType): C1/C2/CO2 differ between the
// architectures with a bias table (__CCE_AICORE__ 220, 300) and the older ones (100, 200).
inline int cube_buffer_of(AscendC::TPosition pos) {
    using P = AscendC::TPosition;
    switch (pos) {
        case P::A1: case P::B1: case P::TSCM: return CUBE_L1;
        case P::A2: return CUBE_L0A;
        case P::B2: return CUBE_L0B;
        case P::CO1: return CUBE_L0C;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ >= 220
        case P::C1: return CUBE_L1;
        case P::C2: return CUBE_BT;
        case P::C2PIPE2GM: return CUBE_FB;
#if __CCE_AICORE__ == 220
        case P::CO2: return CUBE_NONE;   // GM on A2/A3: CO1 goes out through Fixpipe
#endif
#else
        case P::C2: return CUBE_L0C;
#endif
        default: return CUBE_UB;
    }
}

// A queue's buffer (CANN's GetBufferPos): the destination position's, unless the queue ends in
// GM or CO2, where it is the source's.
inline int cube_queue_buffer(AscendC::TPosition src, AscendC::TPosition dst) {
    using P = AscendC::TPosition;
    if (dst == P::MAX || dst == P::GM || dst == P::CO2) return cube_buffer_of(src);
    return cube_buffer_of(dst);
}

struct CubeArena {
    std::unique_ptr<uint8_t[]> mem;
    std::unique_ptr<uint8_t[]> shadow;
    uint64_t cap = 0;
    uint64_t cursor = 0;
    uint64_t high = 0;
    std::vector<UbAlloc> allocs;
};

// The Load3D registers (set_fmatrix, set_padding, set_l1_3d_size, set_l3d_rpt) as SetFmatrix,
// SetLoadDataPaddingValue, SetLoadDataBoundary and SetLoadDataRepeat leave them (cube_load3d.h).
struct Load3dRegs {
    struct Fmatrix {
        bool set = false;
        uint16_t h = 0, w = 0;
        uint8_t pad[4] = {0, 0, 0, 0};   // left, right, top, bottom
    } fmatrix[2];                        // FMATRIX_LEFT, FMATRIX_RIGHT
    bool pad_set = false;
    uint64_t pad_bits = 0;               // the padding value's bits
    uint32_t pad_bytes = 0;              // the size of the type it was set with
    uint32_t boundary = 0;               // L1 bytes a Load3Dv2 may read; 0: all of L1
    uint8_t repeat_time = 1;
};

// The fixpipe registers DataCopy CO1 -> GM (DataCopyCO12DstParams) reads, as
// SetFixpipeNz2ndFlag, SetFixpipePreQuantFlag and SetFixPipeConfig leave them (cube.h).
struct FixpipeRegs {
    bool nz2nd_set = false;
    uint16_t nd_num = 1, src_nd_stride = 0, dst_nd_stride = 0;
    bool pre_quant_set = false;
    uint64_t pre_quant = 0;
    const uint64_t* quant_tensor = nullptr;   // QUANT_PRE_ADDR: per-channel values in the fixpipe buffer
    uint64_t quant_count = 0;                 // how many the tensor given to SetFixPipeConfig holds
};

struct CubeMem {
    CubeArena a[CUBE_COUNT];
    Load3dRegs load3d;
    FixpipeRegs fixpipe;
    // The sparse index LoadDataWithSparse loads beside B2: one 2-bit index per L0B byte (the B2
    // element at that byte), 0xFF where none was loaded (cube.h, MmadWithSparse).
    std::vector<uint8_t> sparse_idx;
};

struct CubeMark {
    uint64_t cursor[CUBE_COUNT] = {};
    size_t allocs[CUBE_COUNT] = {};
};

inline CubeMem& cube_mem() {
    BlockState& b = block();
    if (!b.cube) b.cube = std::make_shared<CubeMem>();
    return *b.cube;
}

CubeMark cube_mark();
#ifdef OPKG_SIM_RUNTIME_TU
CubeMark cube_mark() {
    CubeMark m;
    BlockState& b = block();
    if (!b.cube) return m;
    for (int i = 0; i < CUBE_COUNT; ++i) {
        m.cursor[i] = b.cube->a[i].cursor;
        m.allocs[i] = b.cube->a[i].allocs.size();
    }
    return m;
}
#endif

inline void cube_release(const CubeMark& m) {
    BlockState& b = block();
    if (!b.cube) return;
    for (int i = 0; i < CUBE_COUNT; ++i) {
        CubeArena& a = b.cube->a[i];
        a.cursor = m.cursor[i];
        if (a.allocs.size() > m.allocs[i]) a.allocs.resize(m.allocs[i]);
    }
}

// A cube buffer's bytes [addr, addr + bytes) for LocalTensor(pos, addr, tileSize) (tensor.h): the
// devkit's tensor at a physical address, which ops-nn's pp_matmul utilities make over the whole L1,
// L0A, L0B and L0C (utils/mem.h). The arena is the one InitBuffer carves from.
uint8_t* cube_address(int buf, AscendC::TPosition pos, uint32_t addr, uint64_t bytes, SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
uint8_t* cube_address(int buf, AscendC::TPosition pos, uint32_t addr, uint64_t bytes, SrcLoc loc) {
    BlockState& b = block();
    if (buf == CUBE_NONE) {
        fail(loc, format("LocalTensor(pos, addr, tileSize): position %s has no local buffer on this SoC",
                         position_name(pos)));
    }
    const uint64_t cap = b.cube_caps[buf];
    if (cap == 0) {
        fail(loc, format("LocalTensor(pos, addr, tileSize) in position %s (the %s buffer): the SoC table gives no %s "
                         "for this SoC", position_name(pos), cube_buf_name(buf), cube_cap_field(buf)));
    }
    CubeArena& a = cube_mem().a[buf];
    if (!a.mem) {
        a.mem.reset(new uint8_t[cap]);
        std::memset(a.mem.get(), 0xFF, cap);   // garbage at start, as on the device
        a.shadow.reset(new uint8_t[cap]());
        a.cap = cap;
    }
    if (uint64_t(addr) + bytes > cap) {
        fail(loc, format("LocalTensor(pos %s, addr %u): %llu bytes from byte %u run past the SoC's %llu-byte %s",
                         position_name(pos), addr, (unsigned long long)bytes, addr, (unsigned long long)cap,
                         cube_buf_name(buf)));
    }
    if (uint64_t(addr) + bytes > a.high) a.high = uint64_t(addr) + bytes;
    return a.mem.get() + addr;
}
#endif

// Carves num x len bytes (len already rounded to 32) from the buffer `buf` for TPipe::InitBuffer.
uint8_t* cube_carve(int buf, AscendC::TPosition pos, const std::string& kind, uint32_t num, uint32_t len,
                    SrcLoc loc);
#ifdef OPKG_SIM_RUNTIME_TU
uint8_t* cube_carve(int buf, AscendC::TPosition pos, const std::string& kind, uint32_t num, uint32_t len,
                    SrcLoc loc) {
    BlockState& b = block();
    if (buf == CUBE_NONE) {
        fail(loc, format("TPipe::InitBuffer of a %s: position %s has no local buffer on this SoC (CANN maps it to "
                         "GM on __CCE_AICORE__ 220); move CO1 results out with Fixpipe instead",
                         kind.c_str(), position_name(pos)));
    }
    if (!b.active && !b.ub) fail(loc, "TPipe::InitBuffer outside a kernel launch (no cube buffers)");
    uint64_t cap = b.cube_caps[buf];
    if (cap == 0) {
        fail(loc, format("TPipe::InitBuffer of a %s (position %s, the %s buffer): the SoC table gives no %s for "
                         "this SoC, so the sim cannot check its capacity", kind.c_str(), position_name(pos),
                         cube_buf_name(buf), cube_cap_field(buf)));
    }
    CubeArena& a = cube_mem().a[buf];
    if (!a.mem) {
        // Garbage at start, as on the device; nothing written yet.
        a.mem.reset(new uint8_t[cap]);
        std::memset(a.mem.get(), 0xFF, cap);
        a.shadow.reset(new uint8_t[cap]());
        a.cap = cap;
    }
    uint64_t need = uint64_t(num) * len;
    a.allocs.push_back(UbAlloc{kind, num, len, a.cursor, loc.file, loc.line});
    if (a.cursor + need > cap) {
        std::string msg = format(
            "%s overflow: TPipe::InitBuffer needs %llu bytes at offset %llu, but the SoC's %s holds %llu bytes "
            "(%llu bytes too many). Buffers so far:\n", cube_buf_name(buf), (unsigned long long)need,
            (unsigned long long)a.cursor, cube_buf_name(buf), (unsigned long long)cap,
            (unsigned long long)(a.cursor + need - cap));
        uint64_t total = 0;
        for (const UbAlloc& u : a.allocs) {
            uint64_t bytes = uint64_t(u.num) * u.len;
            total += bytes;
            msg += format("  - %s: %u x %u B = %llu B at %s:%d\n", u.kind.c_str(), u.num, u.len,
                          (unsigned long long)bytes, u.file ? u.file : "?", u.line);
        }
        msg += format("  total %llu B > %s capacity %llu B; shrink the base block (baseM/baseN/baseK) or the buffer count",
                      (unsigned long long)total, cube_buf_name(buf), (unsigned long long)cap);
        fail(loc, msg);
    }
    uint8_t* p = a.mem.get() + a.cursor;
    a.cursor += need;
    if (a.cursor > a.high) a.high = a.cursor;
    return p;
}
#endif

// The arena holding [p, p + bytes), or null (UB, GM).
inline CubeArena* cube_arena_of(const void* p, int* which = nullptr) {
    BlockState& b = block();
    if (!b.cube) return nullptr;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    for (int i = 0; i < CUBE_COUNT; ++i) {
        CubeArena& a = b.cube->a[i];
        if (a.mem && q >= a.mem.get() && q < a.mem.get() + a.cap) {
            if (which) *which = i;
            return &a;
        }
    }
    return nullptr;
}

}  // namespace opkg_sim
#endif
