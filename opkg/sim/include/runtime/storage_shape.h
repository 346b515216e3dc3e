// CANN installs exe_graph/runtime/storage_shape.h with include/exe_graph on the include path of its
// operator builds, so repositories name it runtime/storage_shape.h too.
#include "exe_graph/runtime/storage_shape.h"
