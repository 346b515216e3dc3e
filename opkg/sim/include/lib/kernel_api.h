// CANN's lib/kernel_api.h: every high-level library, reached from kernel_operator.h.
#ifndef OPKG_SIM_LIB_KERNEL_API_H
#define OPKG_SIM_LIB_KERNEL_API_H
#include "opkg_sim/hl_math.h"
#include "opkg_sim/hl_activation.h"
#include "opkg_sim/hl_reduce.h"
#include "opkg_sim/hl_pad.h"
#include "opkg_sim/hl_index.h"
#include "opkg_sim/hl_softmax.h"
#include "opkg_sim/hl_cumsum.h"
#include "opkg_sim/hl_quant.h"
#include "opkg_sim/hl_norm.h"
#include "opkg_sim/hl_softmax_more.h"
#include "opkg_sim/hl_dropout.h"
#include "opkg_sim/hl_reduce_xor.h"
#include "opkg_sim/hl_pad2d.h"
#include "opkg_sim/hl_topk.h"
#include "opkg_sim/hl_transpose.h"
#endif
