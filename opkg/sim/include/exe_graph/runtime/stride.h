// metadef exe_graph/runtime/stride.h: gert::Stride (exe_graph/runtime/shape.h).
#include "exe_graph/runtime/shape.h"
