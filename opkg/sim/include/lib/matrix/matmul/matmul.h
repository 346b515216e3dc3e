// The older CANN path of the high-level Matmul API (lib/matrix/matmul/), which operators
// written against it still include; the same API as lib/matmul/matmul.h.
#include "opkg_sim/hl_matmul.h"
