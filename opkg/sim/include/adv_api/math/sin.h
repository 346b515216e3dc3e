// The current devkit's adv_api/math/sin.h (CANN 8's lib/math/sin.h): the same high-level library.
#include "lib/math/sin.h"
