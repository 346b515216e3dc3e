"""CANN's AOE tuning registries on the sim's host (register/tuning_tiling_registry.h,
tuning_tiling_reflection_utils.h, tuning_bank_key_registry.h), which cann-ops' shared host library
(src/common/op_host/op_tiling/aoe) declares its tunable tilings with: the fixture's tiling
(pkgs/tuning) creates a registered tuning struct through the factory, sends it (with a nested one)
through JSON and back, and a bank key through its registered text functions and back; the kernel
stores what came back. Its InferDataType is CANN's InferOutDataTypeSameWithFirstInput."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import runtime
import simbuild

OP = OpSpec("TuningProbe", (TensorSpec("x", ("int32",)),), (TensorSpec("y", ("float32",)),))


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "tuning", OP, OP.variant("int32_float32"), get_soc("Ascend910B1"), lib_cache,
                          stem="tuning_probe")


def test_tuning_struct_and_bank_key_round_trip(built):
    y = np.zeros(8, np.float32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": np.zeros(8, np.int32)},
                     {"y": y}, {})
    assert y.view(np.int32)[:3].tolist() == [357, 29, 3]     # m n inner.k; bank key a b; three fields


def test_infer_out_data_type_same_with_first_input(built):
    found = runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (8,)}, {})
    assert found == {"y": ((8,), "int32")}     # x's dtype, not the OpDef's float32
