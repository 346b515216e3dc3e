// CANN's lib/kernel_api.h: every high-level library, reached from kernel_operator.h.
#ifndef OPKG_SIM_LIB_KERNEL_API_H
#define OPKG_SIM_LIB_KERNEL_API_H
#include "opkg_sim/adv_api/math/hl_math.h"
#include "opkg_sim/adv_api/activation/hl_activation.h"
#include "opkg_sim/adv_api/reduce/hl_reduce.h"
#include "opkg_sim/adv_api/pad/hl_pad.h"
#include "opkg_sim/adv_api/index/hl_index.h"
#include "opkg_sim/adv_api/activation/hl_softmax.h"
#include "opkg_sim/adv_api/math/hl_cumsum.h"
#include "opkg_sim/adv_api/quantization/hl_quant.h"
#include "opkg_sim/adv_api/normalization/hl_norm.h"
#include "opkg_sim/adv_api/activation/hl_softmax_more.h"
#include "opkg_sim/adv_api/filter/hl_dropout.h"
#include "opkg_sim/adv_api/reduce/hl_reduce_xor.h"
#include "opkg_sim/adv_api/reduce/hl_reduce_pattern.h"
#include "opkg_sim/adv_api/pad/hl_pad2d.h"
#include "opkg_sim/adv_api/sort/hl_topk.h"
#include "opkg_sim/adv_api/sort/hl_sort.h"
#include "opkg_sim/adv_api/transpose/hl_transpose.h"
#endif
