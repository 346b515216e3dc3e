"""InplaceFusedMatmulSoftmaxGrad (cann-ops src/math/inplace_fused_matmul_softmax_grad): the softmax gradient of a matmul product, in place; the product runs on the cube unit."""
PATH = "src/math/inplace_fused_matmul_softmax_grad"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
