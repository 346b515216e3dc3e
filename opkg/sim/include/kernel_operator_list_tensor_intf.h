// CANN header name for ListTensorDesc/TensorDesc (opkg sim).
#include "opkg_sim/basic_api/core/list_tensor.h"
