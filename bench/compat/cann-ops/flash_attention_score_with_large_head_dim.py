"""FlashAttentionScoreWithLargeHeadDim (cann-ops src/math/flash_attention_score_with_large_head_dim): softmax(q k^T * scale) v with running max and sum outputs; the products run on the cube unit."""
PATH = "src/math/flash_attention_score_with_large_head_dim"
CASES = []
golden = None
OUT_OF_SCOPE = "cube: Matmul API (lib/matmul_intf.h, REGIST_MATMUL_OBJ)"
