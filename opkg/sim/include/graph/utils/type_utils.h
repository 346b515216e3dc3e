// ge::TypeUtils as tiling code uses it (names of dtypes and formats for messages).
#ifndef OPKG_SIM_TYPE_UTILS_H
#define OPKG_SIM_TYPE_UTILS_H
#include <string>
#include "graph/ascend_string.h"
#include "graph/types.h"
namespace ge {
class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType t) { return DataTypeName(t); }
    static std::string FormatToSerialString(Format f) { return FormatName(f); }
    // the same names as AscendString (current CANN's form, which ops-nn's messages use)
    static AscendString DataTypeToAscendString(const DataType& t) { return AscendString(DataTypeName(t)); }
    static AscendString FormatToAscendString(const Format& f) { return AscendString(FormatName(f)); }
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        length = static_cast<uint32_t>(DataTypeSize(t));
        return true;
    }
};
}  // namespace ge
#endif
