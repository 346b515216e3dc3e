// acl/acl.h: CANN's runtime API umbrella (acl_base.h, acl_rt.h, acl_op.h, acl_mdl.h), installed in
// the toolkit's include/, which is on the op compiler's path for host and kernel sources alike
// (ops-nn's Findruntime.cmake finds it there), so a kernel may include it (ops-nn's
// modulate_grad). The sim has the parts operator code uses: the error codes and acl_rt.h.
#ifndef OPKG_SIM_ACL_H
#define OPKG_SIM_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif
