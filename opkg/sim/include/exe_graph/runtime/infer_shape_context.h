#include "exe_graph/runtime/tiling_context.h"
