// The current devkit's adv_api/math/log.h (CANN 8's lib/math/log.h): the same high-level library.
#include "lib/math/log.h"
