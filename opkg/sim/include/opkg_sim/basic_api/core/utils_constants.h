// The buffer sizes and cache modes of asc-devkit's impl/basic_api/utils (kernel_utils_constants.h,
// kernel_utils_macros.h) that operator kernels name: ops-nn's matmul kernels size their UB work
// with TOTAL_UB_SIZE and give GM tensors an L2 cache mode (GlobalTensor::SetL2CacheHint, which
// the sim accepts and ignores: it has no L2). Values per architecture as asc-devkit gives them
// for the Atlas A2/A3 (2201) and the Atlas training/inference series before it (1001, 2002).
#ifndef OPKG_SIM_BASIC_API_CORE_UTILS_CONSTANTS_H
#define OPKG_SIM_BASIC_API_CORE_UTILS_CONSTANTS_H
#include <cstdint>

namespace AscendC {
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;   // kernel_utils_constants.h: one burst
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
// the flag id of SyncAll's AIC group barrier (dav_c220 kernel_operator_sync_impl.h)
constexpr uint16_t SYNC_AIC_FLAG = 11;
#endif

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002)
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 248 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 1024 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 256 * 1024;
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
constexpr uint32_t SINGLE_MSG_SIZE = 64;
constexpr uint32_t CACHE_LINE_SIZE = 64;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
#else
// other architectures: the Matmul's vector share as before (their UB sizes are not set here)
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
#endif
// float bit patterns as kernel_utils_constants.h gives them (ops-nn's pooling SIMT kernels read
// F32_NEG_INF unqualified through `using namespace AscendC`)
constexpr uint32_t F32_INF = 0x7f800000;
constexpr uint32_t F32_NEG_INF = 0xff800000;
constexpr uint32_t F32_NAN = 0x7fc00000;
}  // namespace AscendC

// an instruction prefetch hint (kernel_utils_ceil_oom_que.h): nothing in CANN's CPU-debug build either
#ifndef PRELOAD
#define PRELOAD(len) {}
#endif
#endif
