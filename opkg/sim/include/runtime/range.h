#include "exe_graph/runtime/range.h"
