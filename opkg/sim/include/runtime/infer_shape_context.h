// CANN installs exe_graph/runtime/infer_shape_context.h with include/exe_graph on the include path of its
// operator builds, so repositories name it runtime/infer_shape_context.h too.
#include "exe_graph/runtime/infer_shape_context.h"
