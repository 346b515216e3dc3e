// CANN's lib/matrix/matmul/ path of the high-level Matmul API: not in 8.1.RC1 (lib/matmul/ there),
// but operators written for other releases include it (cann-ops' Rfft1D and STFT); the same API.
#include "opkg_sim/hl_matmul.h"
