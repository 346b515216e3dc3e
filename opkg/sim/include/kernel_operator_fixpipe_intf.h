// CANN's basic_api/interface header of Fixpipe (L0C to GM or L1): in the sim it comes with
// kernel_operator.h.
#include "kernel_operator.h"
