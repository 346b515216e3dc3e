// The current devkit's adv_api/math/cos.h (CANN 8's lib/math/cos.h): the same high-level library.
#include "lib/math/cos.h"
