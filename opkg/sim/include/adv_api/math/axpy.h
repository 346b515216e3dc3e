// The current devkit's adv_api/math/axpy.h (CANN 8's lib/math/axpy.h): the same high-level library.
#include "lib/math/axpy.h"
