// asc-devkit's basic_api/kernel_common.h by its path under include/ (kernel_common.h at the include
// root is the same header by its name alone): the sim declares its content in kernel_operator.h.
#include "kernel_operator.h"
