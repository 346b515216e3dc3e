"""MatmulApiConstant (cann-ops src/math/matmul_api_constant): a matmul with compile-time tiling constants; the products run on the cube unit."""
PATH = "src/math/matmul_api_constant"
CASES = []
golden = None
OUT_OF_SCOPE = ("cube: constant Matmul tiling (MatmulShapeParams, GetMMConfig, MatmulApiStaticTiling, "
                "GetMatmulApiTiling) and a MultiCoreMatmulTiling built without a platform")
