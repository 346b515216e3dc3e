// CANN's platform/platform_info_def.h: the fe:: platform structures, which the sim keeps in one
// header (platform/platform_infos_def.h).
#include "platform/platform_infos_def.h"
