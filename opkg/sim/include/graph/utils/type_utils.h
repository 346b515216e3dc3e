// ge::TypeUtils as tiling code uses it (names of dtypes and formats for messages).
#ifndef OPKG_SIM_TYPE_UTILS_H
#define OPKG_SIM_TYPE_UTILS_H
#include <string>
#include "graph/types.h"
namespace ge {
class TypeUtils {
public:
    static std::string DataTypeToSerialString(DataType t) { return DataTypeName(t); }
    static std::string FormatToSerialString(Format f) { return FormatName(f); }
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        length = static_cast<uint32_t>(DataTypeSize(t));
        return true;
    }
};
}  // namespace ge
#endif
