"""MoeSoftMaxTopkCustom (AscendProjects operator/MoeSoftMaxTopkCustomSample): softmax over the
last axis, then its k largest values (y, float32) and their indices (int32), largest first.
Cases from AclNNInvocation/scripts/gen_data.py: case1 (1024, 16) k=4, case2 (2048, 32) k=6."""
import numpy as np

PATH = "operator/MoeSoftMaxTopkCustomSample/FrameworkLaunch/MoeSoftMaxTopkCustom"
CASES = [
    # The sample's InferShape copies x's shape to y (and leaves indices alone), which is not what
    # its kernel writes ([rows, k]): the cases state the output shapes.
    {"name": "case1", "shapes": {"x": [1024, 16]}, "attrs": {"k": 4}, "ranges": {"x": [-3, 3]},
     "output_shapes": {"y": [1024, 4], "indices": [1024, 4]}},
    {"name": "case2", "shapes": {"x": [2048, 32]}, "attrs": {"k": 6}, "ranges": {"x": [-3, 3]},
     "output_shapes": {"y": [2048, 6], "indices": [2048, 6]}},
]


def golden(x, *, k):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    soft = e / e.sum(axis=-1, keepdims=True)
    # stable sort of the negated values: ties keep the lower index first, as topk does
    idx = np.argsort(-soft, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(soft, idx, axis=-1), idx.astype(np.int32)


OUT_OF_SCOPE = None
