// metadef's exe_graph/runtime/kernel_run_context.h declares the C layout under the contexts
// (KernelRunContext, AsyncAnyValue), which the sim's contexts do not have; operator sources
// include it beside tiling_context.h for the contexts, which this gives.
#include "exe_graph/runtime/tiling_context.h"
