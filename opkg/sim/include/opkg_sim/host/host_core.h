// Host-side failure: thrown by emulated CANN host APIs when the sim cannot answer honestly
// (e.g. a SoC property missing from toolchains/socs.yaml); the host entry reports it.
#ifndef OPKG_SIM_HOST_CORE_H
#define OPKG_SIM_HOST_CORE_H
// CANN's host headers bring these with them; ops-nn's and opbase's tiling sources use them
// without including them (::ceil, std::set, std::unordered_map)
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <exception>
#include <string>
namespace opkg_sim {
struct HostFailure : std::exception {
    std::string message;
    explicit HostFailure(std::string m) : message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};
}  // namespace opkg_sim
#endif
