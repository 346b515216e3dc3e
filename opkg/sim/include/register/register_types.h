// metadef's register/register_types.h (inc/external/register): the visibility and deprecation
// macros that CANN's registration headers put on their classes, and domi's tensor formats.
// ops-nn's common/inc/op_host/register/tuning_bank_key_registry.h includes it. The sim builds
// every host library with hidden visibility (flags.common_flags), so the macros add nothing.
#ifndef OPKG_SIM_REGISTER_REGISTER_TYPES_H
#define OPKG_SIM_REGISTER_REGISTER_TYPES_H

#define FMK_FUNC_HOST_VISIBILITY
#define FMK_FUNC_DEV_VISIBILITY
#define ATTRIBUTED_DEPRECATED(replacement) __attribute__((deprecated("Please use " #replacement " instead.")))

namespace domi {
typedef enum tagDomiTensorFormat {
    DOMI_TENSOR_NCHW = 0, DOMI_TENSOR_NHWC, DOMI_TENSOR_ND, DOMI_TENSOR_NC1HWC0, DOMI_TENSOR_FRACTAL_Z,
    DOMI_TENSOR_NC1C0HWPAD, DOMI_TENSOR_NHWC1C0, DOMI_TENSOR_FSR_NCHW, DOMI_TENSOR_FRACTAL_DECONV,
    DOMI_TENSOR_BN_WEIGHT, DOMI_TENSOR_CHWN, DOMI_TENSOR_FILTER_HWCK, DOMI_TENSOR_NDHWC,
    DOMI_TENSOR_NCDHW, DOMI_TENSOR_DHWCN, DOMI_TENSOR_DHWNC, DOMI_TENSOR_RESERVED
} domiTensorFormat_t;
}  // namespace domi

#endif
