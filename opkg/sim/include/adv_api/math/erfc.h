// The current devkit's adv_api/math/erfc.h (CANN 8's lib/math/erfc.h): the same high-level library.
#include "lib/math/erfc.h"
