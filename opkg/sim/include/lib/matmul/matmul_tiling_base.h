// CANN path of the host Matmul tiling (matmul_tiling namespace); the sim keeps it in one header.
#include "opkg_sim/host/host_matmul_tiling.h"
