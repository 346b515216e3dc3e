// CANN header name for ListTensorDesc/TensorDesc (opkg sim).
#include "opkg_sim/list_tensor.h"
