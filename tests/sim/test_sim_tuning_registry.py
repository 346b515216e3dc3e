"""CANN's AOE tuning registries on the sim's host (register/tuning_tiling_registry.h,
tuning_tiling_reflection_utils.h, tuning_bank_key_registry.h), which cann-ops' shared host library
(src/common/op_host/op_tiling/aoe) declares its tunable tilings with: the fixture's tiling
(pkgs/tuning) creates a registered tuning struct through the factory, sends it (with a nested one)
through JSON and back, and a bank key through its registered text functions and back; the kernel
stores what came back."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import runtime
import simbuild

OP = OpSpec("TuningProbe", (TensorSpec("x", ("int32",)),), (TensorSpec("y", ("int32",)),))


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "tuning", OP, OP.variant("int32"), get_soc("Ascend910B1"), lib_cache,
                          stem="tuning_probe")


def test_tuning_struct_and_bank_key_round_trip(built):
    y = np.zeros(8, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": np.zeros(8, np.int32)},
                     {"y": y}, {})
    assert y[:3].tolist() == [357, 29, 3]     # m n inner.k; bank key a b; three fields
