// Kernel entries named like a C library function (cann-ops' Tanh kernel is `tanh`): its
// `extern "C" void tanh(GM_ADDR...)` would conflict with <cmath>'s `double tanh(double)`, which the
// emulation needs. Such a kernel is compiled with the C library's declarations (the emulation
// headers) read first and the entry then renamed to opkg_sim_entry_<name>: every kernel TU gets
// -DOPKG_SIM_ENTRY_IS_<entry> and this header with -include, and the generated entry includes it
// too. Other kernels are untouched (nothing is read early for them). On the device nothing else
// may call a C library function, so nothing else is renamed.
#ifndef OPKG_SIM_ENTRY_NAMES_H
#define OPKG_SIM_ENTRY_NAMES_H

#if defined(OPKG_SIM_ENTRY_IS_abs) || \
    defined(OPKG_SIM_ENTRY_IS_acos) || \
    defined(OPKG_SIM_ENTRY_IS_acosh) || \
    defined(OPKG_SIM_ENTRY_IS_asin) || \
    defined(OPKG_SIM_ENTRY_IS_asinh) || \
    defined(OPKG_SIM_ENTRY_IS_atan) || \
    defined(OPKG_SIM_ENTRY_IS_atan2) || \
    defined(OPKG_SIM_ENTRY_IS_atanh) || \
    defined(OPKG_SIM_ENTRY_IS_cbrt) || \
    defined(OPKG_SIM_ENTRY_IS_ceil) || \
    defined(OPKG_SIM_ENTRY_IS_copysign) || \
    defined(OPKG_SIM_ENTRY_IS_cos) || \
    defined(OPKG_SIM_ENTRY_IS_cosh) || \
    defined(OPKG_SIM_ENTRY_IS_div) || \
    defined(OPKG_SIM_ENTRY_IS_erf) || \
    defined(OPKG_SIM_ENTRY_IS_erfc) || \
    defined(OPKG_SIM_ENTRY_IS_exp) || \
    defined(OPKG_SIM_ENTRY_IS_exp2) || \
    defined(OPKG_SIM_ENTRY_IS_expm1) || \
    defined(OPKG_SIM_ENTRY_IS_fabs) || \
    defined(OPKG_SIM_ENTRY_IS_fdim) || \
    defined(OPKG_SIM_ENTRY_IS_floor) || \
    defined(OPKG_SIM_ENTRY_IS_fma) || \
    defined(OPKG_SIM_ENTRY_IS_fmax) || \
    defined(OPKG_SIM_ENTRY_IS_fmin) || \
    defined(OPKG_SIM_ENTRY_IS_fmod) || \
    defined(OPKG_SIM_ENTRY_IS_frexp) || \
    defined(OPKG_SIM_ENTRY_IS_hypot) || \
    defined(OPKG_SIM_ENTRY_IS_ilogb) || \
    defined(OPKG_SIM_ENTRY_IS_labs) || \
    defined(OPKG_SIM_ENTRY_IS_ldexp) || \
    defined(OPKG_SIM_ENTRY_IS_lgamma) || \
    defined(OPKG_SIM_ENTRY_IS_llrint) || \
    defined(OPKG_SIM_ENTRY_IS_llround) || \
    defined(OPKG_SIM_ENTRY_IS_log) || \
    defined(OPKG_SIM_ENTRY_IS_log10) || \
    defined(OPKG_SIM_ENTRY_IS_log1p) || \
    defined(OPKG_SIM_ENTRY_IS_log2) || \
    defined(OPKG_SIM_ENTRY_IS_logb) || \
    defined(OPKG_SIM_ENTRY_IS_lrint) || \
    defined(OPKG_SIM_ENTRY_IS_lround) || \
    defined(OPKG_SIM_ENTRY_IS_modf) || \
    defined(OPKG_SIM_ENTRY_IS_nan) || \
    defined(OPKG_SIM_ENTRY_IS_nearbyint) || \
    defined(OPKG_SIM_ENTRY_IS_nextafter) || \
    defined(OPKG_SIM_ENTRY_IS_nexttoward) || \
    defined(OPKG_SIM_ENTRY_IS_pow) || \
    defined(OPKG_SIM_ENTRY_IS_remainder) || \
    defined(OPKG_SIM_ENTRY_IS_remquo) || \
    defined(OPKG_SIM_ENTRY_IS_rint) || \
    defined(OPKG_SIM_ENTRY_IS_round) || \
    defined(OPKG_SIM_ENTRY_IS_scalbln) || \
    defined(OPKG_SIM_ENTRY_IS_scalbn) || \
    defined(OPKG_SIM_ENTRY_IS_sin) || \
    defined(OPKG_SIM_ENTRY_IS_sinh) || \
    defined(OPKG_SIM_ENTRY_IS_sqrt) || \
    defined(OPKG_SIM_ENTRY_IS_tan) || \
    defined(OPKG_SIM_ENTRY_IS_tanh) || \
    defined(OPKG_SIM_ENTRY_IS_tgamma) || \
    defined(OPKG_SIM_ENTRY_IS_trunc) || \
    defined(OPKG_SIM_ENTRY_IS_abort) || \
    defined(OPKG_SIM_ENTRY_IS_exit) || \
    defined(OPKG_SIM_ENTRY_IS_free) || \
    defined(OPKG_SIM_ENTRY_IS_malloc) || \
    defined(OPKG_SIM_ENTRY_IS_calloc) || \
    defined(OPKG_SIM_ENTRY_IS_realloc) || \
    defined(OPKG_SIM_ENTRY_IS_rand) || \
    defined(OPKG_SIM_ENTRY_IS_qsort) || \
    defined(OPKG_SIM_ENTRY_IS_bsearch) || \
    defined(OPKG_SIM_ENTRY_IS_atoi) || \
    defined(OPKG_SIM_ENTRY_IS_atof) || \
    defined(OPKG_SIM_ENTRY_IS_atol) || \
    defined(OPKG_SIM_ENTRY_IS_strtod) || \
    defined(OPKG_SIM_ENTRY_IS_memcpy) || \
    defined(OPKG_SIM_ENTRY_IS_memset) || \
    defined(OPKG_SIM_ENTRY_IS_memmove) || \
    defined(OPKG_SIM_ENTRY_IS_memcmp) || \
    defined(OPKG_SIM_ENTRY_IS_strlen) || \
    defined(OPKG_SIM_ENTRY_IS_strcmp) || \
    defined(OPKG_SIM_ENTRY_IS_strcpy) || \
    defined(OPKG_SIM_ENTRY_IS_select) || \
    defined(OPKG_SIM_ENTRY_IS_index) || \
    defined(OPKG_SIM_ENTRY_IS_sleep)
#define OPKG_SIM_ENTRY_RENAMED 1
#endif

#if defined(OPKG_SIM_ENTRY_RENAMED) && defined(OPKG_SIM_KERNEL_TU)
#include "kernel_operator.h"
#endif

#ifdef OPKG_SIM_ENTRY_IS_abs
#define abs opkg_sim_entry_abs
#endif
#ifdef OPKG_SIM_ENTRY_IS_acos
#define acos opkg_sim_entry_acos
#endif
#ifdef OPKG_SIM_ENTRY_IS_acosh
#define acosh opkg_sim_entry_acosh
#endif
#ifdef OPKG_SIM_ENTRY_IS_asin
#define asin opkg_sim_entry_asin
#endif
#ifdef OPKG_SIM_ENTRY_IS_asinh
#define asinh opkg_sim_entry_asinh
#endif
#ifdef OPKG_SIM_ENTRY_IS_atan
#define atan opkg_sim_entry_atan
#endif
#ifdef OPKG_SIM_ENTRY_IS_atan2
#define atan2 opkg_sim_entry_atan2
#endif
#ifdef OPKG_SIM_ENTRY_IS_atanh
#define atanh opkg_sim_entry_atanh
#endif
#ifdef OPKG_SIM_ENTRY_IS_cbrt
#define cbrt opkg_sim_entry_cbrt
#endif
#ifdef OPKG_SIM_ENTRY_IS_ceil
#define ceil opkg_sim_entry_ceil
#endif
#ifdef OPKG_SIM_ENTRY_IS_copysign
#define copysign opkg_sim_entry_copysign
#endif
#ifdef OPKG_SIM_ENTRY_IS_cos
#define cos opkg_sim_entry_cos
#endif
#ifdef OPKG_SIM_ENTRY_IS_cosh
#define cosh opkg_sim_entry_cosh
#endif
#ifdef OPKG_SIM_ENTRY_IS_div
#define div opkg_sim_entry_div
#endif
#ifdef OPKG_SIM_ENTRY_IS_erf
#define erf opkg_sim_entry_erf
#endif
#ifdef OPKG_SIM_ENTRY_IS_erfc
#define erfc opkg_sim_entry_erfc
#endif
#ifdef OPKG_SIM_ENTRY_IS_exp
#define exp opkg_sim_entry_exp
#endif
#ifdef OPKG_SIM_ENTRY_IS_exp2
#define exp2 opkg_sim_entry_exp2
#endif
#ifdef OPKG_SIM_ENTRY_IS_expm1
#define expm1 opkg_sim_entry_expm1
#endif
#ifdef OPKG_SIM_ENTRY_IS_fabs
#define fabs opkg_sim_entry_fabs
#endif
#ifdef OPKG_SIM_ENTRY_IS_fdim
#define fdim opkg_sim_entry_fdim
#endif
#ifdef OPKG_SIM_ENTRY_IS_floor
#define floor opkg_sim_entry_floor
#endif
#ifdef OPKG_SIM_ENTRY_IS_fma
#define fma opkg_sim_entry_fma
#endif
#ifdef OPKG_SIM_ENTRY_IS_fmax
#define fmax opkg_sim_entry_fmax
#endif
#ifdef OPKG_SIM_ENTRY_IS_fmin
#define fmin opkg_sim_entry_fmin
#endif
#ifdef OPKG_SIM_ENTRY_IS_fmod
#define fmod opkg_sim_entry_fmod
#endif
#ifdef OPKG_SIM_ENTRY_IS_frexp
#define frexp opkg_sim_entry_frexp
#endif
#ifdef OPKG_SIM_ENTRY_IS_hypot
#define hypot opkg_sim_entry_hypot
#endif
#ifdef OPKG_SIM_ENTRY_IS_ilogb
#define ilogb opkg_sim_entry_ilogb
#endif
#ifdef OPKG_SIM_ENTRY_IS_labs
#define labs opkg_sim_entry_labs
#endif
#ifdef OPKG_SIM_ENTRY_IS_ldexp
#define ldexp opkg_sim_entry_ldexp
#endif
#ifdef OPKG_SIM_ENTRY_IS_lgamma
#define lgamma opkg_sim_entry_lgamma
#endif
#ifdef OPKG_SIM_ENTRY_IS_llrint
#define llrint opkg_sim_entry_llrint
#endif
#ifdef OPKG_SIM_ENTRY_IS_llround
#define llround opkg_sim_entry_llround
#endif
#ifdef OPKG_SIM_ENTRY_IS_log
#define log opkg_sim_entry_log
#endif
#ifdef OPKG_SIM_ENTRY_IS_log10
#define log10 opkg_sim_entry_log10
#endif
#ifdef OPKG_SIM_ENTRY_IS_log1p
#define log1p opkg_sim_entry_log1p
#endif
#ifdef OPKG_SIM_ENTRY_IS_log2
#define log2 opkg_sim_entry_log2
#endif
#ifdef OPKG_SIM_ENTRY_IS_logb
#define logb opkg_sim_entry_logb
#endif
#ifdef OPKG_SIM_ENTRY_IS_lrint
#define lrint opkg_sim_entry_lrint
#endif
#ifdef OPKG_SIM_ENTRY_IS_lround
#define lround opkg_sim_entry_lround
#endif
#ifdef OPKG_SIM_ENTRY_IS_modf
#define modf opkg_sim_entry_modf
#endif
#ifdef OPKG_SIM_ENTRY_IS_nan
#define nan opkg_sim_entry_nan
#endif
#ifdef OPKG_SIM_ENTRY_IS_nearbyint
#define nearbyint opkg_sim_entry_nearbyint
#endif
#ifdef OPKG_SIM_ENTRY_IS_nextafter
#define nextafter opkg_sim_entry_nextafter
#endif
#ifdef OPKG_SIM_ENTRY_IS_nexttoward
#define nexttoward opkg_sim_entry_nexttoward
#endif
#ifdef OPKG_SIM_ENTRY_IS_pow
#define pow opkg_sim_entry_pow
#endif
#ifdef OPKG_SIM_ENTRY_IS_remainder
#define remainder opkg_sim_entry_remainder
#endif
#ifdef OPKG_SIM_ENTRY_IS_remquo
#define remquo opkg_sim_entry_remquo
#endif
#ifdef OPKG_SIM_ENTRY_IS_rint
#define rint opkg_sim_entry_rint
#endif
#ifdef OPKG_SIM_ENTRY_IS_round
#define round opkg_sim_entry_round
#endif
#ifdef OPKG_SIM_ENTRY_IS_scalbln
#define scalbln opkg_sim_entry_scalbln
#endif
#ifdef OPKG_SIM_ENTRY_IS_scalbn
#define scalbn opkg_sim_entry_scalbn
#endif
#ifdef OPKG_SIM_ENTRY_IS_sin
#define sin opkg_sim_entry_sin
#endif
#ifdef OPKG_SIM_ENTRY_IS_sinh
#define sinh opkg_sim_entry_sinh
#endif
#ifdef OPKG_SIM_ENTRY_IS_sqrt
#define sqrt opkg_sim_entry_sqrt
#endif
#ifdef OPKG_SIM_ENTRY_IS_tan
#define tan opkg_sim_entry_tan
#endif
#ifdef OPKG_SIM_ENTRY_IS_tanh
#define tanh opkg_sim_entry_tanh
#endif
#ifdef OPKG_SIM_ENTRY_IS_tgamma
#define tgamma opkg_sim_entry_tgamma
#endif
#ifdef OPKG_SIM_ENTRY_IS_trunc
#define trunc opkg_sim_entry_trunc
#endif
#ifdef OPKG_SIM_ENTRY_IS_abort
#define abort opkg_sim_entry_abort
#endif
#ifdef OPKG_SIM_ENTRY_IS_exit
#define exit opkg_sim_entry_exit
#endif
#ifdef OPKG_SIM_ENTRY_IS_free
#define free opkg_sim_entry_free
#endif
#ifdef OPKG_SIM_ENTRY_IS_malloc
#define malloc opkg_sim_entry_malloc
#endif
#ifdef OPKG_SIM_ENTRY_IS_calloc
#define calloc opkg_sim_entry_calloc
#endif
#ifdef OPKG_SIM_ENTRY_IS_realloc
#define realloc opkg_sim_entry_realloc
#endif
#ifdef OPKG_SIM_ENTRY_IS_rand
#define rand opkg_sim_entry_rand
#endif
#ifdef OPKG_SIM_ENTRY_IS_qsort
#define qsort opkg_sim_entry_qsort
#endif
#ifdef OPKG_SIM_ENTRY_IS_bsearch
#define bsearch opkg_sim_entry_bsearch
#endif
#ifdef OPKG_SIM_ENTRY_IS_atoi
#define atoi opkg_sim_entry_atoi
#endif
#ifdef OPKG_SIM_ENTRY_IS_atof
#define atof opkg_sim_entry_atof
#endif
#ifdef OPKG_SIM_ENTRY_IS_atol
#define atol opkg_sim_entry_atol
#endif
#ifdef OPKG_SIM_ENTRY_IS_strtod
#define strtod opkg_sim_entry_strtod
#endif
#ifdef OPKG_SIM_ENTRY_IS_memcpy
#define memcpy opkg_sim_entry_memcpy
#endif
#ifdef OPKG_SIM_ENTRY_IS_memset
#define memset opkg_sim_entry_memset
#endif
#ifdef OPKG_SIM_ENTRY_IS_memmove
#define memmove opkg_sim_entry_memmove
#endif
#ifdef OPKG_SIM_ENTRY_IS_memcmp
#define memcmp opkg_sim_entry_memcmp
#endif
#ifdef OPKG_SIM_ENTRY_IS_strlen
#define strlen opkg_sim_entry_strlen
#endif
#ifdef OPKG_SIM_ENTRY_IS_strcmp
#define strcmp opkg_sim_entry_strcmp
#endif
#ifdef OPKG_SIM_ENTRY_IS_strcpy
#define strcpy opkg_sim_entry_strcpy
#endif
#ifdef OPKG_SIM_ENTRY_IS_select
#define select opkg_sim_entry_select
#endif
#ifdef OPKG_SIM_ENTRY_IS_index
#define index opkg_sim_entry_index
#endif
#ifdef OPKG_SIM_ENTRY_IS_sleep
#define sleep opkg_sim_entry_sleep
#endif

#endif
