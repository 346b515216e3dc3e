"""MatmulReduceScatter (cann-ops src/math/matmul_reduce_scatter): a matmul whose result is reduce-scattered across ranks; the products run on the cube unit."""
PATH = "src/math/matmul_reduce_scatter"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: MatmulImpl (lib/matmul_intf.h) with HCCL reduce-scatter"
