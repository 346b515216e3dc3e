// metadef exe_graph/runtime/kernel_run_context.h (KernelRunContext, the base of every
// context): the sim's contexts are in tiling_context.h.
#include "exe_graph/runtime/tiling_context.h"
