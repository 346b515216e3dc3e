// A kernel header with the include guard of op_host/host_api_tiling.h, as cann-ops' CTCLossV3Grad
// has CTC_LOSS_V3_GRAD_H_ in both: CANN's kernel build never reads the op_host header, so this
// one must be read.
#ifndef HOST_API_TILING_H
#define HOST_API_TILING_H
// the kernel's DT_* macros are back after the tiling header: x is float32 here
#if ORIG_DTYPE_X == DT_FLOAT
__aicore__ inline int64_t HostApiKernelMarker() { return 4321; }
#endif
#endif
