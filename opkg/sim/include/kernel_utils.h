// CANN header name (basic_api/impl/kernel_utils.h, on the device include path): the utilities
// kernel_operator.h brings in (opkg sim). cann-ops' shared op_kernel/platform.h includes it.
#include "kernel_operator.h"
