"""MatmulAllReduce (cann-ops src/math/matmul_all_reduce): a matmul whose result is all-reduced across ranks; the products run on the cube unit."""
PATH = "src/math/matmul_all_reduce"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: MatmulImpl (lib/matmul_intf.h) with HCCL all-reduce"
