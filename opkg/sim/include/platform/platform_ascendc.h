// CANN installs the devkit's platform_ascendc.h as tiling/platform/platform_ascendc.h and puts
// include/tiling on the tiling builds' include path, so operator repositories name it both ways.
#include "tiling/platform/platform_ascendc.h"
