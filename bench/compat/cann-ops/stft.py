"""Stft (cann-ops src/math/stft): a short-time Fourier transform computed as DFT-matrix products; the products run on the cube unit."""
PATH = "src/math/stft"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Mmad and Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
