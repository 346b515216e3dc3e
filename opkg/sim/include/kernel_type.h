// The format macros of CANN's kernel_type.h (basic_api/interface), which kernel_operator.h
// includes: with the build's -DFORMAT_<TENSOR>=FORMAT_<format> (opkg/sim/flags.py, as CANN's op
// compiler passes them) a kernel tests its tensors' formats in `#if`, e.g. ops-nn's MatMulV3:
// `#if defined(FORMAT_X1) && FORMAT_X1 == FORMAT_FRACTAL_NZ`. The DT_* macros of the same header
// come from the command line (flags.arch_flags). Host headers that declare ge::Format read in a
// kernel translation unit suspend these (opkg_sim/runtime/format_macros_push.h).
#ifndef OPKG_SIM_KERNEL_TYPE_H
#define OPKG_SIM_KERNEL_TYPE_H
#define FORMAT_NCHW 0
#define FORMAT_NHWC 1
#define FORMAT_ND 2
#define FORMAT_NC1HWC0 3
#define FORMAT_FRACTAL_Z 4
#define FORMAT_NC1C0HWPAD 5
#define FORMAT_NHWC1C0 6
#define FORMAT_FSR_NCHW 7
#define FORMAT_FRACTAL_DECONV 8
#define FORMAT_C1HWNC0 9
#define FORMAT_FRACTAL_DECONV_TRANSPOSE 10
#define FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS 11
#define FORMAT_NC1HWC0_C04 12
#define FORMAT_FRACTAL_Z_C04 13
#define FORMAT_CHWN 14
#define FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS 15
#define FORMAT_HWCN 16
#define FORMAT_NC1KHKWHWC0 17
#define FORMAT_BN_WEIGHT 18
#define FORMAT_FILTER_HWCK 19
#define FORMAT_HASHTABLE_LOOKUP_LOOKUPS 20
#define FORMAT_HASHTABLE_LOOKUP_KEYS 21
#define FORMAT_HASHTABLE_LOOKUP_VALUE 22
#define FORMAT_HASHTABLE_LOOKUP_OUTPUT 23
#define FORMAT_HASHTABLE_LOOKUP_HITS 24
#define FORMAT_C1HWNCoC0 25
#define FORMAT_MD 26
#define FORMAT_NDHWC 27
#define FORMAT_FRACTAL_ZZ 28
#define FORMAT_FRACTAL_NZ 29
#define FORMAT_NCDHW 30
#define FORMAT_DHWCN 31
#define FORMAT_NDC1HWC0 32
#define FORMAT_FRACTAL_Z_3D 33
#define FORMAT_CN 34
#define FORMAT_NC 35
#define FORMAT_DHWNC 36
#define FORMAT_FRACTAL_Z_3D_TRANSPOSE 37
#define FORMAT_FRACTAL_ZN_LSTM 38
#define FORMAT_FRACTAL_Z_G 39
#define FORMAT_RESERVED 40
#define FORMAT_ALL 41
#define FORMAT_NULL 42
#define FORMAT_ND_RNN_BIAS 43
#define FORMAT_FRACTAL_ZN_RNN 44
#define FORMAT_NYUV 45
#define FORMAT_NYUV_A 46
#define FORMAT_NCL 47
#define FORMAT_MAX 0xff
#endif
