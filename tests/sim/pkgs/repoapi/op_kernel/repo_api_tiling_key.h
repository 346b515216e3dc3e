// RepoApi's tiling-key template parameters, as ops-nn's op_kernel/<op>_tiling_key.h write them
// (e.g. activation/clipped_swiglu_grad/op_kernel/clipped_swiglu_grad_tiling_key.h): read by the
// tiling (GET_TPL_TILING_KEY) and by the kernel build (the instances compiled).
#ifndef REPO_API_TILING_KEY_H
#define REPO_API_TILING_KEY_H

#include "ascendc/host_api/tiling/template_argument.h"

#define TPL_SCALE_ONE 1
#define TPL_SCALE_TWO 2
#define TPL_SCALE_FOUR 4

namespace RepoApiOp {
ASCENDC_TPL_ARGS_DECL(RepoApi,
                      ASCENDC_TPL_UINT_DECL(scale, 2, ASCENDC_TPL_UI_LIST, TPL_SCALE_ONE, TPL_SCALE_TWO, TPL_SCALE_FOUR),
                      ASCENDC_TPL_BOOL_DECL(masked, 0, 1));

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                         ASCENDC_TPL_UINT_SEL(scale, ASCENDC_TPL_UI_LIST, TPL_SCALE_ONE, TPL_SCALE_TWO),
                         ASCENDC_TPL_BOOL_SEL(masked, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(scale, ASCENDC_TPL_UI_LIST, TPL_SCALE_FOUR),
                         ASCENDC_TPL_BOOL_SEL(masked, 1)));
}  // namespace RepoApiOp

#endif
