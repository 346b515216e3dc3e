// CANN's lib/transpose/confusion_transpose.h: emulated in opkg_sim/hl_transpose.h.
#include "opkg_sim/hl_transpose.h"
