#include "exe_graph/runtime/storage_format.h"
