"""MatmulApiConstant (cann-ops src/math/matmul_api_constant): a matmul with compile-time tiling constants; the products run on the cube unit."""
PATH = "src/math/matmul_api_constant"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
