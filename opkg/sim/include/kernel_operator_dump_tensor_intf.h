// asc-devkit's basic_api/kernel_operator_dump_tensor_intf.h (include/basic_api is on CANN's kernel include path, so kernels
// include it by its name: ops-nn's conv3d_v2): the sim declares it in kernel_operator.h.
#include "kernel_operator.h"
