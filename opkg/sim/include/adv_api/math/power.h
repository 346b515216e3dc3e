// The current devkit's adv_api/math/power.h (CANN 8's lib/math/power.h): the same high-level library.
#include "lib/math/power.h"
