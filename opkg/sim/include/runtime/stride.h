#include "exe_graph/runtime/stride.h"
