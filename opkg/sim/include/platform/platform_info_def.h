// CANN's platform/platform_info_def.h: fe::PlatformInfo, the platform as the graph compiler's
// PlatformInfoManager describes it (field names and types as CANN's), and the optional
// compilation info beside it. platform/platform_info.h fills them from the sim's SoC row.
#ifndef OPKG_SIM_PLATFORM_INFO_DEF_H
#define OPKG_SIM_PLATFORM_INFO_DEF_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// CANN's header brings these into the global namespace, and host sources rely on it (through
// platform/platform_infos_def.h, which includes this header): ops-nn's add_rms_norm_cast_tiling.h
// and cann-ops' ge_glu_grad_v2.cpp name `string` and `map` unqualified
using std::map;
using std::string;
using std::vector;

namespace fe {

enum MemoryType { DDR = 0, HBM };
enum L2Type { Cache = 0, Buff };
enum JitCompileMode { REUSE_BINARY = 0, COMPILE_ONLINE, AUTO };

struct StrInfo {
    std::string aic_version, ccec_aic_version, ccec_aiv_version, is_support_ai_cpu_compiler, short_soc_version;
};

struct SoCInfo {
    uint32_t ai_core_cnt = 0, vector_core_cnt = 0, ai_cpu_cnt = 0;
    MemoryType memory_type = DDR;
    uint64_t memory_size = 0;
    L2Type l2_type = Cache;
    uint64_t l2_size = 0;
    uint32_t l2PageNum = 0, task_num = 0;
    int32_t arch_type = -1, chip_type = -1;
};

struct AiCoreSpec {
    double cube_freq = 0;
    uint64_t cube_m_size = 0, cube_n_size = 0, cube_k_size = 0, vec_calc_size = 0;
    uint64_t l0_a_size = 0, l0_b_size = 0, l0_c_size = 0, l1_size = 0, smask_buffer = 0;
    uint64_t ub_size = 0, ubblock_size = 0, ubbank_size = 0, ubbank_num = 0, ubburst_in_one_block = 0,
             ubbank_group_num = 0;
    uint32_t unzip_engines = 0, unzip_max_ratios = 0, unzip_channels = 0;
    uint8_t unzip_is_tight = 0, cube_vector_split = 0, sparsity = 0;
};

struct AiCoreMemoryRates {
    double ddr_rate = 0, ddr_read_rate = 0, ddr_write_rate = 0, l2_rate = 0, l2_read_rate = 0, l2_write_rate = 0,
           l1_to_l0_a_rate = 0, l1_to_l0_b_rate = 0, l1_to_ub_rate = 0, l0_c_to_ub_rate = 0, ub_to_l2_rate = 0,
           ub_to_ddr_rate = 0, ub_to_l1_rate = 0;
};

struct VectorCoreSpec {
    double vec_freq = 0;
    uint64_t vec_calc_size = 0, smask_buffer = 0, ub_size = 0, ubblock_size = 0, ubbank_size = 0, ubbank_num = 0,
             ubburst_in_one_block = 0, ubbank_group_num = 0, vector_reg_size = 0, predicate_reg_size = 0,
             address_reg_size = 0, alignment_reg_size = 0;
};

struct VectorCoreMemoryRates {
    double ddr_rate = 0, ddr_read_rate = 0, ddr_write_rate = 0, l2_rate = 0, l2_read_rate = 0, l2_write_rate = 0,
           ub_to_l2_rate = 0, ub_to_ddr_rate = 0;
};

struct CPUCache {
    uint32_t AICPUSyncBySW = 0, TSCPUSyncBySW = 0;
};

struct SoftwareSpec {
    bool jit_compile_default_value = false;
    JitCompileMode jit_compile_mode = AUTO;
};

struct PlatformInfo {
    StrInfo str_info;
    SoCInfo soc_info;
    AiCoreSpec ai_core_spec;
    AiCoreMemoryRates ai_core_memory_rates;
    std::map<std::string, std::vector<std::string>> ai_core_intrinsic_dtype_map;
    VectorCoreSpec vector_core_spec;
    VectorCoreMemoryRates vector_core_memory_rates;
    CPUCache cpucache;
    std::map<std::string, std::vector<std::string>> vector_core_intrinsic_dtype_map;
    SoftwareSpec software_spec;
};

struct OptionalInfo {
    std::string soc_version, core_type;
    uint32_t ai_core_num = 0;
    std::string l1_fusion_flag;
};

}  // namespace fe
#endif
