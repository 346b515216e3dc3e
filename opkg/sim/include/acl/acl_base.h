// acl/acl_base.h: the error type and codes of CANN's runtime API (values as CANN's), for host
// sources that call the few acl functions the sim answers (acl/acl_rt.h).
#ifndef OPKG_SIM_ACL_BASE_H
#define OPKG_SIM_ACL_BASE_H

#include <cstdint>

typedef int aclError;
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;

#endif
