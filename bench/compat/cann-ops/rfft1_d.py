"""Rfft1D (cann-ops src/math/rfft1_d): a real 1-D FFT computed as DFT-matrix products; the products run on the cube unit."""
PATH = "src/math/rfft1_d"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
