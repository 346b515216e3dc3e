// The high-level libraries' tiling structs at global scope, as CANN's kernel_tiling/kernel_tiling.h
// gives every kernel (TCubeTiling, SoftMaxTiling, ...), whatever its own tiling header includes.
// The generated kernel_tiling.h includes this beside the package's own classes; a test checks it
// names every BEGIN_TILING_DATA_DEF under lib/.
#ifndef OPKG_SIM_KERNEL_TILING_LIB_H
#define OPKG_SIM_KERNEL_TILING_LIB_H
#include "lib/activation/logsoftmax_tilingdata.h"
#include "lib/activation/softmax_tilingdata.h"
#include "lib/matmul/matmul_tilingdata.h"
#include "lib/normalization/batchnorm_tilingdata.h"
#include "lib/normalization/deepnorm_tilingdata.h"
#include "lib/normalization/groupnorm_tilingdata.h"
#include "lib/normalization/layernorm_grad_beta_tilingdata.h"
#include "lib/normalization/layernorm_grad_tilingdata.h"
#include "lib/normalization/layernorm_tilingdata.h"
#include "lib/normalization/rmsnorm_tilingdata.h"
#include "lib/pad/pad_tilingdata.h"
#include "lib/sort/topk_tilingdata.h"
#include "lib/transpose/confusion_transpose_tilingdata.h"
using ::optiling::BatchNormTiling;
using ::optiling::ConfusionTransposeTiling;
using ::optiling::DeepNormTiling;
using ::optiling::GroupNormTiling;
using ::optiling::LayerNormGradBetaTiling;
using ::optiling::LayerNormGradTiling;
using ::optiling::LayerNormSeparateTiling;
using ::optiling::LayerNormTiling;
using ::optiling::LogSoftMaxTiling;
using ::optiling::PadTiling;
using ::optiling::RmsNormTiling;
using ::optiling::SoftMaxTiling;
using ::optiling::TCubeTiling;
using ::optiling::TopkTiling;
using ::optiling::UnPadTiling;
// current CANN declares them in AscendC::tiling and exports the older ones at global scope:
// qualified names (AscendC::tiling::TCubeTiling) find them through the directive
namespace AscendC {
namespace tiling {
using namespace ::optiling;
}  // namespace tiling
}  // namespace AscendC
#endif
