"""How a repository's golden is called (verify.golden_convention: ttk) and what a golden that
needs a package opkg lacks reports (verify.requires), without building anything."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SocInfo, TensorSpec
from opkg.verify import runner

OP = OpSpec("RmsNormLike", (TensorSpec("x", ("float16",), ("ND",)),
                            TensorSpec("gamma", ("float16",), ("ND",)),
                            TensorSpec("bias", ("float16",), ("ND",), "optional")),
            (TensorSpec("y", ("float16",), ("ND",)),),
            (AttrSpec("epsilon", "float", 1e-6), AttrSpec("axis", "int", -1)))
CASE = {"name": "c1", "shapes": {"x": [2, 8], "gamma": [8]}, "attrs": {}}


def _extra(soc_name="Ascend910B1"):
    soc = SocInfo.from_json({**_soc_json(), "name": soc_name})
    inputs = {"x": np.zeros((2, 8), np.float16), "gamma": np.zeros(8, np.float16)}
    return runner._convention_kwargs("ttk", OP, OP.variants()[0], soc, CASE, inputs)


def _soc_json():
    from opkg.core.socs import soc_table
    return soc_table(None)["Ascend910B1"].to_json()


def test_the_keywords_of_the_test_tool():
    extra = _extra()
    assert extra["input_dtypes"] == ["float16", "float16"]     # the omitted optional: absent
    assert extra["output_dtypes"] == ["float16"]
    assert extra["input_ori_shapes"] == [[2, 8], [8]]
    assert extra["input_formats"] == ["ND", "ND"] and extra["output_ori_formats"] == ["ND"]
    assert (extra["full_soc_version"], extra["short_soc_version"]) == ("Ascend910B1", "Ascend910B")
    assert extra["testcase_name"] == "c1"
    assert runner._convention_kwargs(None, OP, OP.variants()[0], None, CASE, {}) == {}


def test_attrs_by_name_positionally_or_not_at_all():
    seen = {}

    def keyword_only(x, gamma, bias, *, epsilon=0.1, axis=0, **kwargs):
        seen.update(epsilon=epsilon, axis=axis, soc=kwargs["short_soc_version"])
        return x

    def renamed(x, gamma, bias, eps, dim):          # attrs under other names: def order
        seen.update(eps=eps, dim=dim)
        return x

    def no_kwargs(x, gamma, bias, epsilon):         # takes neither axis nor the tool's keywords
        seen.update(only=epsilon)
        return x

    attrs = {"epsilon": 1e-5, "axis": 1}
    for golden in (keyword_only, renamed, no_kwargs):
        args, kwargs = runner._bind(golden, [1, 2, None], attrs, _extra())
        golden(*args, **kwargs)
    assert seen == {"epsilon": 1e-5, "axis": 1, "soc": "Ascend910B", "eps": 1e-5, "dim": 1,
                    "only": 1e-5}


def test_a_declared_package_that_is_missing_is_named(tmp_path):
    golden = tmp_path / "golden.py"
    golden.write_text("import numpy\ndef g(x):\n    return x\n")
    with pytest.raises(runner.GoldenUnavailable) as exc:
        runner.load_golden(str(golden), "g", ["opkg_no_such_package"])
    assert "needs the Python package 'opkg_no_such_package', which is not installed" in str(exc.value)
    assert "pip install opkg_no_such_package" in str(exc.value)


def test_a_golden_may_name_bfloat16_without_importing_ml_dtypes(tmp_path):
    """quant_max's golden compares x.dtype with np.dtype("bfloat16") on its float32 path, before
    any import of its own; in a fresh interpreter (nothing imported ml_dtypes yet)."""
    import subprocess
    import sys

    golden = tmp_path / "golden.py"
    golden.write_text("import numpy as np\ndef g(x):\n    return x * 2 if x.dtype != np.dtype('bfloat16') else x\n")
    code = ("import numpy as np\nfrom opkg.verify import runner\n"
            f"print(runner.load_golden({str(golden)!r}, 'g')(np.ones(2, np.float32)).tolist())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "[2.0, 2.0]", r.stderr[-2000:]


def test_a_ttk_golden_returning_fewer_arrays_leaves_the_last_outputs_unchecked():
    """dynamic_quant_v2's golden returns [y, scale] when is_symmetrical (no offset): its test
    tool compares what the golden returns, in output order. Outside the ttk convention it stays
    an error."""
    import numpy as np

    from opkg.core.model import OpSpec, TensorSpec

    op = OpSpec("Quant", (TensorSpec("x", ("float32",)),),
                (TensorSpec("y", ("int8",)), TensorSpec("scale", ("float32",)), TensorSpec("offset", ("float32",))), ())
    variant = op.variants()[0]
    golden = lambda x, **kw: [np.round(x).astype(np.int8), np.ones(1, np.float32)]  # noqa: E731
    x = np.arange(4, dtype=np.float32)
    expected = runner._call_golden(golden, op, {"x": x}, {}, variant, extra={"testcase_name": "t"})
    assert expected["offset"] is None and expected["scale"].tolist() == [1.0]
    with pytest.raises(ValueError, match="returned 2 arrays for 3 outputs"):
        runner._call_golden(golden, op, {"x": x}, {}, variant)


def test_an_undeclared_missing_import_is_named_too(tmp_path):
    golden = tmp_path / "golden.py"
    golden.write_text("import opkg_no_such_package.sub as t\ndef g(x):\n    return x\n")
    with pytest.raises(runner.GoldenUnavailable) as exc:
        runner.load_golden(str(golden), "g")
    assert "'opkg_no_such_package'" in str(exc.value)
    assert "(add it to verify.requires)" in str(exc.value)


def test_the_verifier_reports_it_as_the_variant_error(tmp_path):
    """The whole job fails with the sentence, not a traceback (runner.main's report)."""
    golden = tmp_path / "golden.py"
    golden.write_text("import torch_like_absent\ndef g(x):\n    return x\n")
    job = {"op": OP.to_json(), "variant": OP.variants()[0].name, "soc": _soc_json(),
           "golden": {"file": str(golden), "function": "g", "convention": "ttk",
                      "requires": ["torch_like_absent"]},
           "cases": [], "seed": 0}
    with pytest.raises(runner.GoldenMissing) as exc:
        runner.run_job(job)
    assert "torch_like_absent" in str(exc.value)


def test_torch_is_named_with_its_cpu_build():
    """Goldens run on the CPU, and PyPI's default torch pulls CUDA packages: the hint says
    which build to install."""
    msg = str(runner._missing_package("torch", "/x/golden.py", False))
    assert "needs the Python package 'torch'" in msg
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu`" in msg


def test_a_package_imported_inside_the_golden_function_is_named_too(tmp_path):
    """ops-nn's goldens import torch inside the function: the call fails the variant with the
    same sentence, not the case with a traceback."""
    golden = tmp_path / "golden.py"
    golden.write_text("def g(x, gamma, bias, epsilon=1e-6, axis=-1, **kwargs):\n"
                      "    import opkg_absent_inside.nn\n    return x\n")
    job = {"op": OP.to_json(), "variant": OP.variants()[0].name, "soc": _soc_json(),
           "golden": {"file": str(golden), "function": "g", "convention": "ttk"},
           "cases": [{**CASE, "ranges": {}}], "seed": 0}
    with pytest.raises(runner.GoldenUnavailable) as exc:
        runner.run_job(job)
    assert "needs the Python package 'opkg_absent_inside'" in str(exc.value)
    assert "(add it to verify.requires)" in str(exc.value)


def test_a_ttk_golden_s_flat_output_of_the_stated_size_takes_the_stated_shape():
    """The ops repositories' test tool compares output buffers flat: ops-nn's fast_gelu golden
    returns its output fused to one dimension. The stated shape applies; a wrong size still
    disagrees."""
    stated = {"y": [2, 3, 4]}
    flat = {"y": np.arange(24, dtype=np.float32)}
    out = runner._as_stated(stated, flat)
    assert out["y"].shape == (2, 3, 4) and runner._stated_disagreement(stated, out) is None
    short = runner._as_stated(stated, {"y": np.arange(23, dtype=np.float32)})
    assert "fix whichever is wrong" in runner._stated_disagreement(stated, short)


def test_a_golden_output_of_the_stated_size_takes_the_stated_shape():
    """ops-nn's foreach_norm (tests/st/arch35/ttk_kernel_foreach_norm.csv states each norm as
    [1, 1], its golden returns [1]): the test tool compares data, so a golden array of as
    many elements as the stated shape is taken in that shape; another size still disagrees."""
    stated = {"y": [[1, 1], [1, 1, 1]], "z": [2, 3]}
    expected = {"y": [np.ones(1), np.ones(1)], "z": np.arange(6.0)}
    shaped = runner._as_stated(stated, expected)
    assert [a.shape for a in shaped["y"]] == [(1, 1), (1, 1, 1)] and shaped["z"].shape == (2, 3)
    assert runner._stated_disagreement(stated, shaped) is None
    wrong = runner._as_stated(stated, {"y": expected["y"], "z": np.arange(5.0)})
    assert "the golden returned z with shape [5] but the case states output_shapes z: [2, 3]" \
        in runner._stated_disagreement(stated, wrong)


def test_the_repository_s_input_function_makes_the_drawn_inputs_valid(tmp_path):
    """ops-nn's tests/assets/input.py (`__input__`, keyed by the kernel as `__golden__` is): its
    test tool hands the inputs drawn from the ttk ranges to it (segment_sum sorts its segment
    ids there). The verifier does the same, seeded per case, with the dtypes kept."""
    (tmp_path / "golden.py").write_text('__golden__ = {"kernel": {"rms_norm_like": "g"}}\n'
                                        "def g(x, gamma, bias, **kwargs):\n    return x\n")
    (tmp_path / "input.py").write_text(
        "import numpy as np\n"
        '__input__ = {"kernel": {"rms_norm_like": "make"}}\n'
        "def make(x, gamma, bias, *, epsilon=0.0, **kwargs):\n"
        "    assert kwargs['input_ranges'] == [[-1, 1], [0, 9]] and kwargs['testcase_name'] == 'c1'\n"
        "    return [x, np.sort(np.random.uniform(0, 9, gamma.shape)).astype(kwargs['input_dtypes'][1]), bias]\n")
    make = runner.load_input_function(str(tmp_path / "golden.py"), "g")
    soc = SocInfo.from_json(_soc_json())
    case = {**CASE, "ranges": {"x": [-1, 1], "gamma": [0, 9]}}
    drawn = {"x": np.ones((2, 8), np.float16), "gamma": np.full(8, 5, np.float16)}
    runs = [runner._repository_inputs(make, OP, OP.variants()[0], soc, case, drawn, 0) for _ in range(2)]
    (inputs, made_case), (again, _) = runs
    assert inputs["gamma"].dtype == np.float16 and np.all(np.diff(inputs["gamma"]) >= 0)
    assert not np.all(inputs["gamma"] == 5) and np.array_equal(inputs["gamma"], again["gamma"])
    assert np.array_equal(inputs["x"], drawn["x"]) and made_case["shapes"] == {"x": [2, 8], "gamma": [8]}
    assert runner.load_input_function(str(tmp_path / "none" / "golden.py"), "g") is None
    # a golden the import rendered in NumPy finds the input function beside the golden it renders
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "golden.py").write_text("__golden_source__ = '@repo//golden.py'   # its input.py\n"
                                                "def g(x, gamma, bias, **kwargs):\n    return x\n")
    rendered = runner.load_input_function(str(tmp_path / "pkg" / "golden.py"), "g",
                                          lambda f: runner.resolve_repository_file(f, [f"@repo/={tmp_path}"]))
    assert rendered is not None and rendered.__name__ == "make"


def test_the_input_function_may_live_in_the_golden_s_own_module(tmp_path):
    """12 of ops-nn's goldens declare `__input__` in golden.py itself, with no input.py
    (quant/dynamic_quant_update_scatter: its function gives the scatter distinct indices, which
    random ones in the row's range (0, 3) are not): it is found there; an input.py wins, and a
    golden without the table has none."""
    (tmp_path / "golden.py").write_text(
        '__golden__ = {"kernel": {"scatter_like": "g"}}\n'
        '__input__ = {"kernel": {"scatter_like": "distinct"}}\n'
        "def g(var, indices, **kwargs):\n    return var\n"
        "def distinct(var, indices, **kwargs):\n    return [var, indices * 0 + 7]\n")
    assert runner.load_input_function(str(tmp_path / "golden.py"), "g").__name__ == "distinct"
    (tmp_path / "input.py").write_text('__input__ = {"kernel": {"scatter_like": "make"}}\n'
                                       "def make(var, indices, **kwargs):\n    return [var, indices]\n")
    assert runner.load_input_function(str(tmp_path / "golden.py"), "g").__name__ == "make"
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "golden.py").write_text('__golden__ = {"kernel": {"k": "g"}}\n'
                                                  "def g(x, **kwargs):\n    return x\n")
    assert runner.load_input_function(str(tmp_path / "other" / "golden.py"), "g") is None


def test_a_stated_shape_the_golden_and_infershape_both_contradict_gives_way():
    """ops-nn's swi_glu table states y [128, 96] for x [128, 96] (its rows copy the input shapes),
    while the golden and the OpDef's InferShape both halve the split axis: theirs is used, with a
    note. Where InferShape is absent or sides with the table, the stated shape stands."""
    stated = {"y": [128, 96], "z": [4]}
    expected = {"y": np.zeros((128, 48), np.float32), "z": np.zeros(4, np.float32)}
    kept, notes = runner._stated_overruled(stated, expected, {"y": ((128, 48), "float32"),
                                                              "z": ((4,), "float32")})
    assert kept == {"z": [4]} and runner._stated_disagreement(kept, expected) is None
    assert notes == ["the case states output_shapes y: [128, 96], but the golden and the OpDef's "
                     "InferShape both give [128, 48]; theirs is used"]
    for inferred in (None, {"y": ((128, 96), "float32")}):
        kept, notes = runner._stated_overruled(stated, expected, inferred)
        assert kept == stated and not notes
        assert "fix whichever is wrong" in runner._stated_disagreement(kept, expected)


# A test-spec golden as ops-nn writes its matmul kernel goldens (hicann/ops-nn
# matmul/mat_mul_v3/tests/assets/mmv3_kernel_golden.py: `__spec__ = {"mat_mul_v3":
# "MatMulV3TestSpec"}`, the class's static `golden(x1, x2, bias=None, offset_w=None, *,
# transpose_x1=False, transpose_x2=False, ..., **kwargs)` returning [y]); written here.
SPEC_GOLDEN = '''\
import numpy as np

class MatLikeTestSpec:
    @staticmethod
    def golden(x1, x2, bias=None, *, transpose_x2=False, **kwargs):
        x2 = x2.T if transpose_x2 else x2
        out = x1.astype(np.float32) @ x2.astype(np.float32)
        return [out.astype(kwargs["output_dtypes"][0])]

__spec__ = {"mat_like": "MatLikeTestSpec", "aclnnMatLike": "AclnnSpec"}
'''


def test_a_spec_class_golden_is_called_like_a_function(tmp_path):
    path = tmp_path / "mat_like_kernel_golden.py"
    path.write_text(SPEC_GOLDEN)
    golden = runner.load_golden(str(path), "MatLikeTestSpec.golden")
    op = OpSpec("MatLike", (TensorSpec("x1", ("float16",)), TensorSpec("x2", ("float16",)),
                            TensorSpec("bias", ("float16",), ("ND",), "optional")),
                (TensorSpec("y", ("float16",)),), (AttrSpec("transpose_x2", "bool", False),))
    rng = np.random.default_rng(0)
    x1 = rng.standard_normal((4, 8)).astype(np.float16)
    x2 = rng.standard_normal((6, 8)).astype(np.float16)
    case = {"name": "t", "shapes": {"x1": [4, 8], "x2": [6, 8]}, "attrs": {}}
    soc = SocInfo.from_json(_soc_json())
    extra = runner._convention_kwargs("ttk", op, op.variants()[0], soc, case, {"x1": x1, "x2": x2})
    out = runner._call_golden(golden, op, {"x1": x1, "x2": x2}, {"transpose_x2": True},
                              op.variants()[0], extra=extra)
    expected = (x1.astype(np.float32) @ x2.T.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(out["y"], expected)


def test_a_flat_return_is_grouped_by_the_inplace_inputs():
    """ops-nn's foreach_non_finite_check_and_unscale golden returns each rewritten tensor of
    its dynamic input, then found_inf, in one flat tuple, as its test tool numbers them."""
    f32 = ("float32",)
    op = OpSpec("Unscale", (TensorSpec("grads", f32, param_type="dynamic"),
                            TensorSpec("found", f32), TensorSpec("scale", f32)), ())
    grads = [np.ones(3, np.float32), np.ones(2, np.float32)]
    found, scale = np.zeros(1, np.float32), np.full(1, 0.5, np.float32)

    def golden(grads, found, scale, **kwargs):
        return tuple(g * scale[0] for g in grads) + (found + 1,)

    out = runner._call_golden(golden, op, {"grads": grads, "found": found, "scale": scale}, {},
                              op.variants()[0], inplace=("grads", "found"),
                              extra={"testcase_name": "c"})
    assert [a.tolist() for a in out["grads"]] == [[0.5] * 3, [0.5] * 2]
    assert out["found"].tolist() == [1.0]
    # one tensor in the list: as many arrays as names, still flat
    out = runner._call_golden(golden, op, {"grads": grads[:1], "found": found, "scale": scale},
                              {}, op.variants()[0], inplace=("grads", "found"),
                              extra={"testcase_name": "c"})
    assert [a.tolist() for a in out["grads"]] == [[0.5] * 3]
    # a count that does not add up is still the error it was
    with pytest.raises(ValueError, match="returned 4 arrays"):
        runner._call_golden(lambda g, f, s, **k: (g[0], g[1], f, f), op,
                            {"grads": grads, "found": found, "scale": scale}, {},
                            op.variants()[0], inplace=("grads", "found"),
                            extra={"testcase_name": "c"})


def test_enable_hf32_reaches_a_golden_keyed_on_op_impl_mode():
    """ops-nn's BatchMatMulV3 has the bool `enable_hf32`; its golden simulates HF32 only for
    `opImplMode == 64` (CANN's op_impl_mode_enum, which MatMulV3 takes as its attribute): the
    golden gets opImplMode from enable_hf32, and nothing changes for a golden that does not name
    opImplMode or an operator that has its own."""
    seen = []

    def keyed(x, gamma, bias, *, opImplMode=0, **kwargs):
        seen.append((opImplMode, kwargs.get("enable_hf32")))
        return x

    def plain(x, gamma, bias, *, enable_hf32=False):
        seen.append(("plain", enable_hf32))
        return x

    for attrs in ({"enable_hf32": True}, {"enable_hf32": False}, {"opImplMode": 4, "enable_hf32": True}):
        args, kwargs = runner._bind(keyed, [1, 2, None], attrs, _extra())
        keyed(*args, **kwargs)
    args, kwargs = runner._bind(plain, [1, 2, None], {"enable_hf32": True}, _extra())
    plain(*args, **kwargs)
    assert seen == [(64, True), (0, False), (4, True), ("plain", True)]
