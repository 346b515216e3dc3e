"""MatmulCustomSingleCore (AscendProjects operator/MatMul*Sample): c = a @ b + bias on the cube unit."""
PATH = "operator/MatMulCustomSample/FrameworkLaunch/MatmulCustomSingleCore"
CASES = []


def golden(*args):
    raise NotImplementedError


OUT_OF_SCOPE = "cube: Matmul high-level API AscendC::Matmul (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
