// Runs a kernel over blockDim blocks, one after another: each block gets its index, a fresh
// UB arena (filled with 0xFF so reads of never-written UB show up as NaN), the GM regions for
// bounds checks, and the tiling key. Failures become an OpkgError for runtime.py.
// Included only by the generated kernel entry (templates/kernel_entry.cpp.j2).
#ifndef OPKG_SIM_KERNEL_RUNTIME_H
#define OPKG_SIM_KERNEL_RUNTIME_H

#include <cstdlib>
#include <new>
#include "kernel_operator.h"
#include "opkg_sim/abi.h"

namespace opkg_sim {

inline void copy_text(char* dst, size_t cap, const std::string& s) {
    if (!dst || cap == 0) return;
    size_t n = s.size() < cap - 1 ? s.size() : cap - 1;
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
}

inline void set_error(OpkgError* err, int kind, const std::string& file, int line, int64_t blk, int64_t dim,
                      const std::string& msg) {
    if (!err) return;
    err->kind = kind;
    err->line = line;
    err->block = static_cast<int32_t>(blk);
    err->block_dim = static_cast<int32_t>(dim);
    copy_text(err->file, sizeof err->file, file);
    copy_text(err->message, sizeof err->message, msg);
}

inline int run_blocks(const OpkgKernelLaunch* launch, void (*entry)(uint8_t** args), OpkgError* err) {
    if (err) std::memset(err, 0, sizeof *err);
    if (!launch || launch->abi != OPKG_SIM_ABI) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, 0, "kernel library ABI mismatch: rebuild it with this opkg");
        return 1;
    }
    uint64_t ub_bytes = launch->ub_bytes;
    uint64_t arena_bytes = (ub_bytes + 63) / 64 * 64;
    uint8_t* arena = static_cast<uint8_t*>(std::aligned_alloc(64, arena_bytes ? arena_bytes : 64));
    if (!arena) {
        set_error(err, FAIL_INTERNAL, "", 0, -1, launch->block_dim, "cannot allocate the Unified Buffer arena");
        return 1;
    }
    std::vector<uint8_t*> args(launch->arg_count);
    std::vector<GmRegion> regions;
    for (uint32_t i = 0; i < launch->arg_count; ++i) {
        args[i] = launch->args[i].ptr;
        if (launch->args[i].ptr) regions.push_back(GmRegion{launch->args[i].ptr, launch->args[i].bytes, launch->args[i].name});
    }
    std::string log;
    int rc = 0;
    BlockState& b = block();
    for (uint32_t idx = 0; idx < launch->block_dim && rc == 0; ++idx) {
        b = BlockState();
        b.idx = idx;
        b.num = launch->block_dim;
        b.ub = arena;
        b.ub_bytes = ub_bytes;
        b.gm = regions;
        b.tiling_key = launch->tiling_key;
        b.sys_workspace = launch->sys_workspace;
        b.log = &log;
        b.active = true;
        std::memset(arena, 0xFF, arena_bytes);
        try {
            entry(args.data());
        } catch (const Failure& f) {
            set_error(err, f.kind, f.file, f.line, idx, launch->block_dim, f.message);
            rc = 1;
        } catch (const std::exception& e) {
            set_error(err, FAIL_INTERNAL, "", 0, idx, launch->block_dim, std::string("C++ exception: ") + e.what());
            rc = 1;
        } catch (...) {
            set_error(err, FAIL_INTERNAL, "", 0, idx, launch->block_dim, "unknown C++ exception");
            rc = 1;
        }
    }
    b = BlockState();
    std::free(arena);
    copy_text(launch->log, launch->log_cap, log);
    return rc;
}

}  // namespace opkg_sim
#endif
