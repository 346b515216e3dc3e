"""MatmulLeakyrelu (cann-ops src/math/matmul_leakyrelu): leaky_relu(a @ b + bias); the products run on the cube unit."""
PATH = "src/math/matmul_leakyrelu"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
