// ge::AscendString as CANN's graph/ascend_string.h declares it: a string the graph API passes.
#ifndef OPKG_SIM_GRAPH_ASCEND_STRING_H
#define OPKG_SIM_GRAPH_ASCEND_STRING_H

#include <functional>
#include <memory>
#include <string>
#include "graph/types.h"

namespace ge {

class AscendString {
public:
    AscendString() = default;
    AscendString(const char* name) : s_(name ? name : "") {}  // NOLINT: implicit, as in CANN
    AscendString(const char* name, size_t length) : s_(name ? std::string(name, length) : std::string()) {}
    const char* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    size_t Find(const AscendString& other) const { return s_.find(other.s_); }
    size_t Hash() const { return std::hash<std::string>()(s_); }
    bool operator<(const AscendString& d) const { return s_ < d.s_; }
    bool operator>(const AscendString& d) const { return s_ > d.s_; }
    bool operator<=(const AscendString& d) const { return s_ <= d.s_; }
    bool operator>=(const AscendString& d) const { return s_ >= d.s_; }
    bool operator==(const AscendString& d) const { return s_ == d.s_; }
    bool operator!=(const AscendString& d) const { return s_ != d.s_; }
    bool operator==(const char* d) const { return d != nullptr && s_ == d; }
    bool operator!=(const char* d) const { return !(*this == d); }

private:
    std::string s_;
};

}  // namespace ge

namespace std {
template <> struct hash<ge::AscendString> {
    size_t operator()(const ge::AscendString& name) const { return name.Hash(); }
};
}  // namespace std
#endif
