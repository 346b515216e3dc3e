// CANN's platform/platform_info.h: fe::PlatFormInfos (what TilingContext::GetPlatformInfo
// returns) and fe::PlatformInfoManager, through which host code asks for the platform outside a
// tiling context (ops-nn's InferShape and tiling helpers: short_soc_version, ai_core_cnt).
// CANN's manager reads the platform_config .ini files of the installed toolkit for the SoC the
// session runs on; the sim's platform is the SoC row the current run tiles for, which the host
// entry records before it calls the op's tiling. Asked before any tiling (an InferShape runs
// first), the manager has no platform: it fails, as CANN's does before InitializePlatformInfo.
#ifndef OPKG_SIM_PLATFORM_INFO_H
#define OPKG_SIM_PLATFORM_INFO_H
#include <cstdio>
#include <map>
#include <string>
#include <vector>
#include "platform/platform_info_def.h"
#include "platform/platform_infos_def.h"

namespace fe {

// The optional compilation info of the PlatFormInfos overloads (CANN's platform_infos_def.h).
class OptionalInfos {
public:
    void Init() {}
    std::string GetSocVersion() const { return soc_version_; }
    std::string GetCoreType() const { return core_type_; }
    uint32_t GetAICoreNum() const { return ai_core_num_; }
    std::string GetL1FusionFlag() const { return l1_fusion_flag_; }
    void SetSocVersion(std::string v) { soc_version_ = std::move(v); }
    void SetCoreType(std::string v) { core_type_ = std::move(v); }
    void SetAICoreNum(uint32_t v) { ai_core_num_ = v; }
    void SetL1FusionFlag(std::string v) { l1_fusion_flag_ = std::move(v); }

private:
    std::string soc_version_, core_type_, l1_fusion_flag_;
    uint32_t ai_core_num_ = 0;
};

class PlatformInfoManager {
public:
    PlatformInfoManager(const PlatformInfoManager&) = delete;
    PlatformInfoManager& operator=(const PlatformInfoManager&) = delete;
    static PlatformInfoManager& Instance() {
        static PlatformInfoManager m;
        return m;
    }
    static PlatformInfoManager& GeInstance() { return Instance(); }

    // 0 is success, as in CANN
    uint32_t InitializePlatformInfo() { return 0; }
    uint32_t Finalize() { return 0; }
    // The platform the host library last tiled for (opkg_sim::host_tiling sets it).
    void SetCurrent(const PlatFormInfos& p) {
        current_ = p;
        has_current_ = true;
    }

    uint32_t GetPlatformInfoWithOutSocVersion(PlatformInfo& info, OptionalInfo& opt) {
        if (!has_current_) return NoPlatform();
        return GetPlatformInfo(current_.soc_version, info, opt);
    }
    uint32_t GetPlatformInfo(const std::string soc_version, PlatformInfo& info, OptionalInfo& opt) {
        if (!has_current_ || soc_version != current_.soc_version) return NoPlatform(soc_version);
        const OpkgPlatform& p = current_.info;
        info = PlatformInfo();
        info.str_info.short_soc_version = current_.short_soc;
        info.soc_info.ai_core_cnt = p.aic_cores;
        info.soc_info.vector_core_cnt = p.aiv_cores;
        info.ai_core_spec.ub_size = p.ub_bytes;
        info.ai_core_spec.l1_size = p.l1_bytes;
        info.ai_core_spec.l0_a_size = p.l0a_bytes;
        info.ai_core_spec.l0_b_size = p.l0b_bytes;
        info.ai_core_spec.l0_c_size = p.l0c_bytes;
        info.vector_core_spec.ub_size = p.ub_bytes;
        opt = optional_;
        if (opt.soc_version.empty()) opt.soc_version = current_.soc_version;
        if (opt.ai_core_num == 0) opt.ai_core_num = p.aic_cores;
        return 0;
    }
    void SetOptionalCompilationInfo(OptionalInfo& opt) { optional_ = opt; }

    uint32_t GetPlatformInfoWithOutSocVersion(PlatFormInfos& infos, OptionalInfos& opt) {
        if (!has_current_) return NoPlatform();
        return GetPlatformInfos(current_.soc_version, infos, opt);
    }
    uint32_t GetPlatformInfos(const std::string soc_version, PlatFormInfos& infos, OptionalInfos& opt) {
        if (!has_current_ || soc_version != current_.soc_version) return NoPlatform(soc_version);
        infos = current_;
        opt.SetSocVersion(current_.soc_version);
        opt.SetAICoreNum(current_.info.aic_cores);
        return 0;
    }
    void SetOptionalCompilationInfo(OptionalInfos& opt) {
        optional_.soc_version = opt.GetSocVersion();
        optional_.core_type = opt.GetCoreType();
        optional_.ai_core_num = opt.GetAICoreNum();
        optional_.l1_fusion_flag = opt.GetL1FusionFlag();
    }

private:
    PlatformInfoManager() = default;
    uint32_t NoPlatform(const std::string& asked = "") const {
        std::fprintf(stderr, "[opkg sim] PlatformInfoManager: %s\n",
                     has_current_ ? ("the run is for " + current_.soc_version + ", not " + asked).c_str()
                                  : "no platform yet: the sim knows the SoC from the first tiling call of the run "
                                    "(an InferShape that asks for it runs before)");
        return 1;
    }

    PlatFormInfos current_;
    bool has_current_ = false;
    OptionalInfo optional_;
};

}  // namespace fe

#endif
