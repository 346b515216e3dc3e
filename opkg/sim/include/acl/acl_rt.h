// acl/acl_rt.h: of CANN's runtime API, what operator host code asks at tiling time.
// aclsysGetVersionNum reads ${INSTALL_DIR}/share/info/<package>/version.info on an installed
// CANN; the sim installs no package, so it answers ACL_ERROR_INVALID_PARAM for every name, and
// a host source that gates an API on a package's version (ops-nn's quant matmul tiling asks
// "asc-devkit" >= 9.1.0 for the tensor API) takes the path for a CANN without it.
#ifndef OPKG_SIM_ACL_RT_H
#define OPKG_SIM_ACL_RT_H

#include "acl/acl_base.h"

inline aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
    (void)pkgName;
    (void)versionNum;
    return ACL_ERROR_INVALID_PARAM;
}

#endif
