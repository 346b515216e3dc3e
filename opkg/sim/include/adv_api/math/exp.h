// The current devkit's adv_api/math/exp.h (CANN 8's lib/math/exp.h): the same high-level library.
#include "lib/math/exp.h"
