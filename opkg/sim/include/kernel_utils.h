// CANN header name (basic_api/impl/kernel_utils.h) that kernels include by itself (cann-ops'
// coalesce_sparse.h, diag_flat's and reverse_sequence's platform.h). In CANN kernel_operator.h
// reaches it too, so what the sim models of it (ToFloat, ToBfloat16, the copy parameter structs)
// is already there.
#include "kernel_operator.h"
