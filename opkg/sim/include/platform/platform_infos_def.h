// fe::PlatFormInfos: the platform a tiling function runs for (CANN's platform/platform_infos_def.h),
// filled by the host entry from the SoC row of toolchains/socs.yaml. PlatformAscendC wraps it.
#ifndef OPKG_SIM_PLATFORM_INFOS_DEF_H
#define OPKG_SIM_PLATFORM_INFOS_DEF_H

#include <cstdint>
#include <map>
#include <string>
#include "platform/platform_info_def.h"   // as CANN's does (and its global using-declarations)
#include "opkg_sim/runtime/abi.h"
#include "opkg_sim/host/host_core.h"

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
public:
    // The platform-config keys tiling code commonly reads; anything else is reported unknown.
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        if (label == "version" && key == "SoC_version") { value = soc_version; return true; }
        if (label == "version" && key == "Short_SoC_version") { value = short_soc; return true; }
        if (label == "SoCInfo" && key == "ai_core_cnt") { value = std::to_string(info.aic_cores); return true; }
        if (label == "SoCInfo" && key == "vector_core_cnt") { value = std::to_string(info.aiv_cores); return true; }
        if (label == "SoCInfo" && key == "cube_core_cnt") { value = std::to_string(info.aic_cores); return true; }
        if (label == "AICoreSpec" && key == "ub_size") { value = std::to_string(info.ub_bytes); return true; }
        if (label == "AICoreSpec" && key == "l1_size" && info.l1_bytes) { value = std::to_string(info.l1_bytes); return true; }
        return table_res(label, key, value);
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    // Every key of one label the sim knows (see above); false when it knows none.
    bool GetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) const {
        static const char* const keys[] = {"SoC_version", "Short_SoC_version", "ai_core_cnt", "vector_core_cnt",
                                           "cube_core_cnt", "ub_size", "l1_size"};
        res.clear();
        for (const char* k : keys) {
            std::string v;
            if (GetPlatformRes(label, k, v)) res[k] = v;
        }
        for_table_res([&](const std::string& l, const std::string& k, const std::string& v) {
            if (l == label) res[k] = v;
        });
        return !res.empty();
    }
    // The cores a kernel of this op may use. The framework sets it from the kernel's core type
    // (vector_core_cnt for AIV kernels, ai_core_cnt otherwise); the sim runs vector kernels,
    // which on a separated-architecture SoC (910B, 910_93) are AIV kernels, so this is the AIV
    // count there and the AI Core count on coupled SoCs -- what PlatformAscendC::GetCoreNum says.
    uint32_t GetCoreNum() const { return info.aiv_cores ? info.aiv_cores : info.aic_cores; }
    uint32_t GetCoreNumWithLock() const { return GetCoreNum(); }
    uint32_t GetCoreNumByType(const std::string& core_type) const {
        return core_type == "VectorCore" || core_type == "AIV" || core_type == "MIX_AIV" ? info.aiv_cores
                                                                                         : info.aic_cores;
    }
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        switch (type) {
            case LocalMemType::UB: size = info.ub_bytes; return;
            case LocalMemType::L1:
                if (!info.l1_bytes) {
                    throw opkg_sim::HostFailure("GetCoreMemSize/GetLocalMemSize(L1): SoC " + soc_version +
                                                " has no l1_bytes; add it to its entry in toolchains/socs.yaml");
                }
                size = info.l1_bytes;
                return;
            case LocalMemType::L0_A: case LocalMemType::L0_B: case LocalMemType::L0_C: {
                const uint64_t v = type == LocalMemType::L0_A ? info.l0a_bytes
                                 : type == LocalMemType::L0_B ? info.l0b_bytes : info.l0c_bytes;
                if (!v) {
                    throw opkg_sim::HostFailure("GetCoreMemSize/GetLocalMemSize(L0_*): SoC " + soc_version +
                                                " has no l0a_bytes/l0b_bytes/l0c_bytes; add them to its family in toolchains/socs.yaml");
                }
                size = v;
                return;
            }
            case LocalMemType::L2:   // cann-ops' MatMulV3 tiling sizes its L2 cache use by it
                if (!info.l2_bytes) {
                    throw opkg_sim::HostFailure("GetCoreMemSize/GetLocalMemSize(L2): SoC " + soc_version +
                                                " has no l2_bytes; add it to its entry in toolchains/socs.yaml");
                }
                size = info.l2_bytes;
                return;
            default:
                throw opkg_sim::HostFailure("GetLocalMemSize/GetCoreMemSize: the sim knows only the UB, L1, L0 "
                                            "and L2 sizes of a SoC (from toolchains/socs.yaml)");
        }
    }
    // No bandwidth figures in the SoC table: 0, as CANN answers for a memory it has no rate for.
    void GetLocalMemBw(const LocalMemType&, uint64_t& bw) const { bw = 0; }

    OpkgPlatform info{};
    std::string soc_version;
    // The SoC table's `platform:` entries (toolchains/socs.yaml: sections of CANN's platform
    // config ini, such as AICoreintrinsicDtypeMap, that tiling code reads).
    template <class F> void for_table_res(F f) const {
        const char* p = info.platform_res;
        while (p && *p) {
            const char* end = p;
            while (*end && *end != '\n') ++end;
            const std::string line(p, end);
            const size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
            if (b != std::string::npos) f(line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1));
            p = *end ? end + 1 : end;
        }
    }
    bool table_res(const std::string& label, const std::string& key, std::string& value) const {
        bool found = false;
        for_table_res([&](const std::string& l, const std::string& k, const std::string& v) {
            if (!found && l == label && k == key) { value = v; found = true; }
        });
        return found;
    }
    std::string short_soc;
};

}  // namespace fe
#endif
