// CANN path of the high-level Matmul API.
#include "opkg_sim/hl_matmul.h"
