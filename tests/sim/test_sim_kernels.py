"""Whole sample-style operators (msopgen layout, CANN-style sources) run end to end."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
from opkg.core.socs import get_soc
import simbuild

ADD = OpSpec("AddCustom", (TensorSpec("x", ("float16", "float32")), TensorSpec("y", ("float16", "float32"))),
             (TensorSpec("z", ("float16", "float32")),))
LNORM = OpSpec("Lnorm", tuple(TensorSpec(n, ("float32", "float16")) for n in ("x", "gamma", "beta")),
               (TensorSpec("y", ("float32", "float16")),), (AttrSpec("epsilon", "float", 1e-5),))


def build_add(pkgs, variant, soc, cache):
    return simbuild.build(pkgs / "add", ADD, ADD.variant(variant), soc, cache,
                          stem="add_custom")


@pytest.mark.parametrize("variant", ["float16", "float32"])
@pytest.mark.parametrize("soc_name", ["Ascend910B1", "Ascend310P3"])
def test_add_custom_multi_block(pkgs, lib_cache, variant, soc_name):
    soc = get_soc(soc_name)
    b = build_add(pkgs, variant, soc, lib_cache)
    rng = np.random.default_rng(1)
    x = rng.uniform(-100, 100, 8 * 2048).astype(variant)
    y = rng.uniform(-100, 100, 8 * 2048).astype(variant)
    z = np.zeros_like(x)
    info = runtime.run_case(b.host, b.kernel, ADD, b.variant, soc, {"x": x, "y": y}, {"z": z}, {})
    assert info.block_dim == 8 and info.workspace_bytes == 0 and info.log == []
    np.testing.assert_array_equal(z, (x.astype(np.float32) + y.astype(np.float32)).astype(variant))


def test_add_custom_prototype(pkgs, lib_cache, soc910b):
    b = build_add(pkgs, "float32", soc910b, lib_cache)
    (proto,) = runtime.host_prototypes(b.host)
    assert proto["type"] == "AddCustom" and proto["has_infer_shape"] and proto["has_infer_dtype"]
    assert [t["name"] for t in proto["inputs"]] == ["x", "y"]
    assert proto["outputs"] == [{"name": "z", "param_type": "required", "dtypes": ["float16", "float32"],
                                 "formats": ["ND", "ND"], "value_depend": False,
                                 "init_values": [], "unknown_shape_formats": []}]
    assert proto["aicore"]["has_tiling"] is True
    assert proto["aicore"]["configs"] == ["ascend910b", "ascend310p"]
    assert not proto["aicore"].get("soc_configs")      # AddConfig(short) without lists


def layer_norm(x, gamma, beta, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(-1, keepdims=True)
    return (x64 - mean) / np.sqrt(var + eps) * gamma.astype(np.float64) + beta.astype(np.float64)


@pytest.mark.parametrize("variant,tol", [("float32", 2e-5), ("float16", 4e-3)])
@pytest.mark.parametrize("rows,cols", [(96, 1024), (50, 256), (5, 80)])
def test_layernorm(pkgs, lib_cache, soc910b, variant, tol, rows, cols):
    b = simbuild.build(pkgs / "lnorm", LNORM, LNORM.variant(variant), soc910b, lib_cache,
                       stem="lnorm")
    rng = np.random.default_rng(rows)
    x = rng.uniform(-2, 2, (rows, cols)).astype(variant)
    gamma = rng.uniform(0.5, 1.5, cols).astype(variant)
    beta = rng.uniform(-0.5, 0.5, cols).astype(variant)
    y = np.zeros_like(x)
    info = runtime.run_case(b.host, b.kernel, LNORM, b.variant, soc910b, {"x": x, "gamma": gamma, "beta": beta},
                            {"y": y}, {"epsilon": 1e-3})
    assert info.block_dim == min(rows, 48)
    want = layer_norm(x, gamma, beta, 1e-3)
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=tol, atol=tol)


def test_infer_shape_and_dtype_from_the_opdef(pkgs, lib_cache, soc910b):
    b = build_add(pkgs, "float16", soc910b, lib_cache)
    got = runtime.infer_output_shapes(b.host, ADD, b.variant, {"x": (4, 32), "y": (4, 32)}, {})
    assert got == {"z": ((4, 32), "float16")}


def test_infer_shape_absent(pkgs, lib_cache, soc910b):
    b = simbuild.build(pkgs / "lnorm", LNORM, LNORM.variant("float32"), soc910b, lib_cache,
                       stem="lnorm")
    assert runtime.infer_output_shapes(b.host, LNORM, b.variant, {"x": (2, 8), "gamma": (8,), "beta": (8,)},
                                       {"epsilon": 1e-5}) is None
