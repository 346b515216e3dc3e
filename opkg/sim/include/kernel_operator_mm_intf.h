// CANN's basic_api/interface header of the cube's load and Mmad calls (LoadData, Mmad, ...): in the
// sim they come with kernel_operator.h.
#include "kernel_operator.h"
