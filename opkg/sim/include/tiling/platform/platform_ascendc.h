// platform_ascendc::PlatformAscendC answered from the SoC the sim runs for.
#ifndef OPKG_SIM_PLATFORM_ASCENDC_H
#define OPKG_SIM_PLATFORM_ASCENDC_H

#include <cstdint>
#include <mutex>  // as the devkit's platform_ascendc.h: host code takes std::unique_lock from it
#include <string>
#include "exe_graph/runtime/tiling_context.h"
#include "opkg_sim/host/host_core.h"
#include "platform/soc_spec.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

// Values as the devkit's (ASCEND910_95 is the deprecated name of ASCEND950).
enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND950, ASCEND910_55, ASCEND910_95 = ASCEND950,
    AS31XM1, ASCEND031, ASCEND035, ASCEND310, ASCEND610, ASCEND610Lite, ASCEND910_93, BS9SX1A, BS9SX2A,
    HI3796CV300CS, HI3796CV300ES, MC61AM21A, MC62, SD3403, KIRINX90, KIRIN9030, MC32DM11A, ASCEND350,
    RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {
        if (!info_) throw opkg_sim::HostFailure("PlatformAscendC constructed from a null PlatFormInfos");
    }
    uint32_t GetCoreNumAic() const { return info_->info.aic_cores; }
    uint32_t GetCoreNumAiv() const { return info_->info.aiv_cores; }
    uint32_t GetCoreNumVector() const { return 0; }
    // Separated-architecture SoCs (910B) run vector kernels on the AIV cores.
    uint32_t GetCoreNum() const { return info_->GetCoreNum(); }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return ratio ? (sliceNum + ratio - 1) / ratio : sliceNum;
    }
    // The devkit's newer name of CalcTschBlockDim.
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }
    uint32_t GetLibApiWorkSpaceSize() const { return info_->info.lib_workspace; }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    // CoreMemType and fe::LocalMemType share their enumerator values, as in CANN.
    void GetCoreMemSize(const CoreMemType& type, uint64_t& size) const {
        info_->GetLocalMemSize(static_cast<fe::LocalMemType>(type), size);
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bw) const { bw = 0; }
    SocVersion GetSocVersion() const {
        const std::string& s = info_->short_soc;
        if (s == "ascend910b") return SocVersion::ASCEND910B;
        if (s == "ascend910_93") return SocVersion::ASCEND910_93;
        if (s == "ascend310p") return SocVersion::ASCEND310P;
        if (s == "ascend310b") return SocVersion::ASCEND310B;
        if (s == "ascend910") return SocVersion::ASCEND910;
        if (s == "ascend310") return SocVersion::ASCEND310;
        return SocVersion::RESERVED_VERSION;
    }
    // The SoC's `__NPU_ARCH__` (2201 on Atlas A2/A3), from the SoC row the sim runs for.
    NpuArch GetCurNpuArch() const { return static_cast<NpuArch>(info_->info.npu_arch); }

private:
    fe::PlatFormInfos* info_;
};

}  // namespace platform_ascendc
#endif
