// The current devkit's adv_api/math/atan.h (CANN 8's lib/math/atan.h): the same high-level library.
#include "lib/math/atan.h"
