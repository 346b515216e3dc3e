// The current devkit's adv_api/math/fmod.h (CANN 8's lib/math/fmod.h): the same high-level library.
#include "lib/math/fmod.h"
