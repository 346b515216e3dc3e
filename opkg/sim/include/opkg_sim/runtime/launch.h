// What a generated kernel entry needs from the sim: one call that runs a launch. Its definition
// (src/kernel_runtime.cpp, the whole block runner) is compiled once per toolchain and SoC
// architecture and linked into every kernel library, so the entry itself compiles in moments.
#ifndef OPKG_SIM_LAUNCH_H
#define OPKG_SIM_LAUNCH_H

#include <cstdint>
#include "opkg_sim/runtime/abi.h"

namespace opkg_sim {
// Checks the launch brings `arg_count` GM arguments (named `params` in errors), then runs
// `entry` once per block (`cube_entry`, the kernel's cube-core compile, for the cube bodies of a
// split launch when there is one); 0 on success, else `error` is filled.
int launch_kernel(const OpkgKernelLaunch* launch, uint32_t arg_count, const char* params,
                  void (*entry)(uint8_t** args), void (*cube_entry)(uint8_t** args), OpkgError* error);
}  // namespace opkg_sim
#endif
