// The current devkit's adv_api/math/erf.h (CANN 8's lib/math/erf.h): the same high-level library.
#include "lib/math/erf.h"
