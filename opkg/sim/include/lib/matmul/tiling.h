// CANN 8.1's lib/matmul/tiling.h: the MatmulConfig constructors (GetNormalConfig, GetMDLConfig);
// in the sim they are part of the high-level Matmul header.
#include "opkg_sim/adv_api/matmul/hl_matmul.h"
