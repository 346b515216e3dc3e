// The current devkit's adv_api/pad/broadcast.h (CANN 8's lib/pad/broadcast.h).
#include "lib/pad/broadcast.h"
