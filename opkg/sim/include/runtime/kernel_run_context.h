#include "exe_graph/runtime/kernel_run_context.h"
