// The sim's block runner as one object per toolchain and SoC architecture (opkg/sim/flags.py
// `arch_flags`): every kernel library of that architecture links it beside its kernel and its
// generated entry. It also holds the non-template checking and bookkeeping the emulation
// headers only declare to kernels (OPKG_SIM_RUNTIME_TU, opkg_sim/basic_api/core/kcore.h).
#define OPKG_SIM_RUNTIME_TU 1
#include "opkg_sim/runtime/kernel_runtime.h"
#include "opkg_sim/runtime/launch.h"
#include "opkg_sim/simt/simt_runtime.h"

namespace opkg_sim {

int launch_kernel(const OpkgKernelLaunch* launch, uint32_t arg_count, const char* params,
                  void (*entry)(uint8_t** args), void (*cube_entry)(uint8_t** args), OpkgError* error) {
    if (launch && launch->arg_count != arg_count) {
        set_error(error, FAIL_INTERNAL, "", 0, -1, 0,
                  format("kernel entry expects %u GM arguments (%s)", arg_count, params));
        return 1;
    }
    const int rc = run_blocks(launch, entry, cube_entry, error);
    simt::reset();   // the SIMT race shadows live for one kernel run
    return rc;
}

}  // namespace opkg_sim
