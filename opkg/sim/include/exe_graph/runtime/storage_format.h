// metadef installs gert::StorageFormat in its own header; the sim declares it with the
// tensor descs (exe_graph/runtime/tiling_context.h).
#include "exe_graph/runtime/tiling_context.h"
