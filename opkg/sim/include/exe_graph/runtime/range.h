// metadef installs gert::Range in its own header; the sim declares it with the contexts
// (exe_graph/runtime/tiling_context.h).
#include "exe_graph/runtime/tiling_context.h"
