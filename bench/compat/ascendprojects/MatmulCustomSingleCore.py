"""MatmulCustomSingleCore (AscendProjects operator/MatMulCustomSample): c = a @ b + bias with the
high-level Matmul API (float16 a, b; float32 bias and c). Cases and tolerance from the sample's
gen_data.py and verify_result.py, shared with its sibling project (_shared.py)."""
from _shared import MATMUL_CASES, MATMUL_TOLERANCE, matmul_bias

PATH = "operator/MatMulCustomSample/FrameworkLaunch/MatmulCustomSingleCore"
CASES = MATMUL_CASES
TOLERANCE = MATMUL_TOLERANCE


def golden(a, b, bias):
    return matmul_bias(a, b, bias)


OUT_OF_SCOPE = None
