// Written for opkg's tests: CANN's TilingDef layout (CheckAlignAndGenPlaceHolder): classes padded to
// 8 bytes, struct fields 8-byte aligned; compiled in host mode (run) and kernel mode (static_asserts).
#include <cstdio>
#include <cstdint>
#include <cstddef>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(Small)
  TILING_DATA_FIELD_DEF(uint32_t, a);
  TILING_DATA_FIELD_DEF(uint32_t, b);
  TILING_DATA_FIELD_DEF(uint32_t, c);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(Outer)
  TILING_DATA_FIELD_DEF(uint32_t, x);
  TILING_DATA_FIELD_DEF_STRUCT(Small, s);
  TILING_DATA_FIELD_DEF(uint32_t, y);
END_TILING_DATA_DEF;
}
#ifdef OPKG_SIM_KERNEL
static_assert(sizeof(optiling::Small) == 16, "a class is padded to 8 bytes");
static_assert(offsetof(optiling::Outer, s) == 8 && sizeof(optiling::Outer) == 32, "struct fields 8-byte aligned");
int main() { return 0; }
#else
int main() {
    optiling::Small s;
    optiling::Outer o;
    o.set_x(1); o.set_y(2); o.s.set_a(3);
    uint8_t buf[64] = {};
    o.SaveToBuffer(buf, sizeof buf);
    uint32_t a, y;
    __builtin_memcpy(&a, buf + 8, 4);
    __builtin_memcpy(&y, buf + 24, 4);
    std::printf("%zu %zu %u %u\n", s.GetDataSize(), o.GetDataSize(), a, y);
}
#endif
