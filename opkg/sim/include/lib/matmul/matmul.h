// CANN path of the high-level Matmul API.
#include "opkg_sim/adv_api/matmul/hl_matmul.h"
