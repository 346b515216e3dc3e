// lib/matrix/matmul/<name> is the layout of CANN releases after 8.1.RC1 for what 8.1 ships as
// lib/matmul/<name>: the same declarations, so each header here is its 8.1 twin (opkg/sim/README.md).
#include "lib/matmul/matmul.h"
