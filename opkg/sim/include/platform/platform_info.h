// CANN's platform/platform_info.h: tiling sources include it for fe::PlatFormInfos (what
// TilingContext::GetPlatformInfo returns). PlatformInfoManager, which reads the platform_config
// .ini files of an installed toolkit, has no counterpart: the sim's platform is the SoC row.
#ifndef OPKG_SIM_PLATFORM_INFO_H
#define OPKG_SIM_PLATFORM_INFO_H
#include <map>
#include <string>
#include <vector>
#include "platform/platform_infos_def.h"
// CANN's header brings these into the global namespace (through platform_info_def.h), and tiling
// sources rely on it: cann-ops' ge_glu_grad_v2.cpp declares `static const map<...>`
using std::map;
using std::string;
using std::vector;
#endif
