// CANN's basic_api header of LocalTensor, GlobalTensor and their shapes (kernel_tensor.h): in the
// sim they come with kernel_operator.h.
#include "kernel_operator.h"
