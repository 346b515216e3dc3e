// CANN's platform/platform_info.h: tiling sources include it for fe::PlatFormInfos (what
// TilingContext::GetPlatformInfo returns). PlatformInfoManager, which reads the platform_config
// .ini files of an installed toolkit, has no counterpart: the sim's platform is the SoC row.
#ifndef OPKG_SIM_PLATFORM_INFO_H
#define OPKG_SIM_PLATFORM_INFO_H
#include "platform/platform_infos_def.h"
#endif
