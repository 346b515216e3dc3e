// CANN header name (basic_api/impl/dav_c220/kernel_operator_reg_others_impl.h, the c220 special
// register accessors) that kernels include by itself (cann-ops' ctc_loss_v3_grad.h). What the sim
// models of it comes with kernel_operator.h.
#include "kernel_operator.h"
