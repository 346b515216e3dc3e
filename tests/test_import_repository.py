"""`opkg import` from an ops repository checkout (hicann/ops-nn's layout and CMake rules).

The fixture tests/fixtures/ops_repo is a miniature repository written here in ops-nn's layout
(its README says what it mirrors). Layout, CMake and test-asset reading are checked on it as
data; one end-to-end import compiles its OpDef on the sim (g++) and writes a workspace.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from opkg.importers import repository as R
from opkg.importers import ttk
from opkg.core.errors import UsageError

FIXTURE = Path(__file__).parent / "fixtures" / "ops_repo"
OP = FIXTURE / "activation" / "leaky_scale"


def test_repository_root_needs_the_cmake_rules(tmp_path):
    assert R.repository_root(OP / "op_kernel") == FIXTURE.resolve()
    # an msopgen or cann-ops project is not an ops repository
    (tmp_path / "common" / "inc").mkdir(parents=True)
    (tmp_path / "cmake").mkdir()
    (tmp_path / "cmake" / "func.cmake").write_text("function(add_ops_compile_options)\n")
    assert R.repository_root(tmp_path) is None
    assert R.default_name(Path("/x/ops-nn")) == "ops_nn"


def test_operator_dirs_of_an_operator_a_family_and_the_repository():
    root = FIXTURE.resolve()
    assert R.operator_dirs(root, OP) == [OP.resolve()]
    family = [p.name for p in R.operator_dirs(root, FIXTURE / "activation")]
    assert family == ["act_common", "leaky_scale", "only_apt"]
    assert [p.name for p in R.operator_dirs(root, FIXTURE)] == family   # common/, cmake/ skipped


def test_the_ascend_950_units_build_the_apt_kernel():
    """On ascend950 (arch35) the OpDef's opFile is `<op>_apt`: op_kernel/<op>_apt.cpp is the
    kernel; other units see only the classic op_kernel/<op>.cpp."""
    only_apt = FIXTURE / "activation" / "only_apt"
    repo = R.open_repository(only_apt)
    assert R.read_operator(repo, only_apt, "ascend950").kernel.name == "only_apt_apt.cpp"
    assert R.read_operator(repo, only_apt, "ascend910b").kernel is None
    assert R.read_operator(repo, OP, "ascend950").kernel.name == "leaky_scale.cpp"   # no _apt: the classic one


def test_cmake_module_expands_the_compute_unit_pairs():
    module = R.cmake_module(OP.resolve())
    assert module.optypes == ("leaky_scale",)
    assert module.dependencies == ("act_common",)
    assert module.tiling_dirs == {"ascend910b": "arch22", "ascend910_93": "arch22",
                                  "ascend950": "arch35"}
    assert module.host_dir == OP.resolve() / "op_host"


def test_host_sources_follow_the_compute_unit():
    module = R.cmake_module(OP.resolve())
    names = lambda unit: [p.relative_to(OP.resolve()).as_posix()           # noqa: E731
                          for p in R.host_sources(OP.resolve(), module, unit)[1]]
    assert names("ascend910b") == [
        "op_host/leaky_scale_def.cpp", "op_host/leaky_scale_infershape.cpp",
        "op_host/arch22/leaky_scale_tiling_arch22.cpp", "op_graph/leaky_scale_graph_infer.cpp"]
    # CMake DEPENDENCIES: act_common's tiling source built in, its op_host an include dir
    op = R.read_operator(R.open_repository(OP), OP, "ascend910b")
    assert op.host_sources[-1] == FIXTURE.resolve() / "activation/act_common/op_host/act_common_tiling.cpp"
    assert op.include_dirs[-1] == FIXTURE.resolve() / "activation/act_common/op_host"
    assert "op_host/arch35/leaky_scale_tiling_arch35.cpp" in names("ascend950")
    assert not any("arch" in n for n in names("ascend310p"))   # no pair: no arch directory


def test_cmake_module_without_pairs_uses_the_architecture_directory(tmp_path):
    op = tmp_path / "fam" / "op_x"
    (op / "op_host" / "arch22").mkdir(parents=True)
    (op / "op_host" / "CMakeLists.txt").write_text(
        "# a comment (with parentheses)\nadd_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE "
        "DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE op_x ACLNNTYPE aclnn)\n")
    for f in ("op_x_def.cpp", "op_x_tiling.cpp", "arch22/op_x_tiling_a.cpp", "op_x_other.cpp"):
        (op / "op_host" / f).write_text("")
    module = R.cmake_module(op)
    assert module.tiling_dirs == {} and R.tiling_dir(module, "ascend910b") == "arch22"
    defs, sources = R.host_sources(op, module, "ascend910b")
    assert [p.name for p in defs] == ["op_x_def.cpp"]
    assert [p.name for p in sources] == ["op_x_def.cpp", "op_x_tiling.cpp", "op_x_tiling_a.cpp"]


def test_the_tiling_data_header_is_the_one_beside_the_units_host_sources(tmp_path):
    # ops-nn's scatter_elements_v2 registers its op type in op_host/arch22/ and op_host/arch35/:
    # the Ascend 950 build reads arch35's, the 910B's arch22's
    (tmp_path / "cmake").mkdir()
    (tmp_path / "cmake" / "func.cmake").write_text("function(add_modules_sources)\nendfunction()\n")
    (tmp_path / "common" / "inc").mkdir(parents=True)
    op = tmp_path / "fam" / "op_x"
    (op / "op_kernel").mkdir(parents=True)
    for arch, cls in (("arch22", "OpXTilingData"), ("arch35", "OpXAscTilingData")):
        (op / "op_host" / arch).mkdir(parents=True)
        (op / "op_host" / arch / "op_x_tiling.cpp").write_text("")
        (op / "op_host" / arch / "op_x_tiling.h").write_text(f"REGISTER_TILING_DATA_CLASS(OpX, {cls})\n")
    (op / "op_host" / "op_x_def.cpp").write_text("")
    for unit, arch in (("ascend950", "arch35"), ("ascend910b", "arch22")):
        read = R.read_operator(R.open_repository(op), op, unit)
        assert R.tiling_data_header(read, "OpX") == op / "op_host" / arch / "op_x_tiling.h"
    # registered in another architecture's directory only (index_fill: arch22; its 950 kernel
    # has its own struct of that name): none for the 950
    (op / "op_host" / "arch35" / "op_x_tiling.h").unlink()
    read = R.read_operator(R.open_repository(op), op, "ascend950")
    assert R.tiling_data_header(read, "OpX") is None


def test_golden_mapping_and_what_it_imports(tmp_path):
    golden = R.find_golden(OP)
    assert golden.function == "leaky_scale_golden" and golden.requires == ()
    other = tmp_path / "op" / "tests" / "assets"
    other.mkdir(parents=True)
    (other / "golden.py").write_text(
        "import numpy as np\nimport torch\nfrom scipy import special\n"
        "__golden__ = {'kernel': {'op': 'op_golden'}}\ndef op_golden(x, **kw):\n    return x\n")
    assert R.find_golden(tmp_path / "op").requires == ("scipy", "torch")
    (other / "golden.py").write_text("__golden__ = {'kernel': {'op': 'missing'}}\n")
    assert R.find_golden(tmp_path / "op") is None


def test_a_testspec_golden_and_the_tests_golden_directory(tmp_path):
    """ops-nn's second registration (activation/hard_sigmoid/tests/assets/golden.py,
    quant/act_ulq_clamp_min_grad/tests/golden/golden.py): `__spec__ = {op: "Class"}`, the class
    holding `golden` as a staticmethod, a plain function or a `golden = staticmethod(fn)`."""
    from opkg.verify.runner import load_golden

    spec = tmp_path / "op" / "tests" / "golden"
    spec.mkdir(parents=True)
    (spec / "golden.py").write_text(
        "import numpy as np\n"
        "def _twice(x, **kw):\n    return [x * 2]\n"
        "class OpKernelSpec:\n    golden = staticmethod(_twice)\n    tolerance = {}\n"
        "class OpAclnnSpec:\n    @staticmethod\n    def golden(self, **kw):\n        return [self]\n"
        "__spec__ = {'op': 'OpKernelSpec', 'aclnnOp': 'OpAclnnSpec'}\n")
    golden = R.find_golden(tmp_path / "op")
    assert (golden.file.name, golden.function) == ("golden.py", "OpKernelSpec.golden")
    import numpy as np
    assert load_golden(str(golden.file), golden.function)(np.ones(2))[0].tolist() == [2, 2]
    # a class without golden registers nothing
    (spec / "golden.py").write_text("class OpKernelSpec:\n    tolerance = {}\n"
                                    "__spec__ = {'op': 'OpKernelSpec'}\n")
    assert R.find_golden(tmp_path / "op") is None


def test_the_kernel_entry_the_opdef_names(tmp_path):
    """ops-nn's pooling/max_pool3d_grad_with_argmax: the OpDef names its kernel function
    (ExtendCfgInfo("opInterface.value", ...)) where snake_case(MaxPool3DGradWithArgmax) would
    be max_pool3_d_grad_with_argmax."""
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    d = tmp_path / "op_host" / "max_pool3d_x_def.cpp"
    k = tmp_path / "op_kernel" / "max_pool3d_x.cpp"
    d.write_text('this->AICore().AddConfig("ascend910b", c);\n'
                 'c.ExtendCfgInfo("opFile.value", "max_pool3d_x")\n'
                 '  .ExtendCfgInfo("opInterface.value", "max_pool3d_x");\n')
    k.write_text('extern "C" __global__ __aicore__ void max_pool3d_x(GM_ADDR x) {}\n')
    op = R.Operator(None, tmp_path, "pooling", "max_pool3d_x", k, [d], [d], [], None, [], [])
    assert R.op_interface(op, "MaxPool3DX") == "max_pool3d_x"
    # the default name needs no interface; nor does a name the kernel does not define
    assert R.op_interface(op, "MaxPool3dX") == ""
    k.write_text('extern "C" __global__ __aicore__ void max_pool3_d_x(GM_ADDR x) {}\n')
    assert R.op_interface(op, "MaxPool3DX") == ""


def _op(**attrs):
    return {"type": "LeakyScale", "inputs": [{"name": "x", "dtypes": ["float16"], "formats": ["ND"]}],
            "outputs": [{"name": "y", "dtypes": ["float16"], "formats": ["ND"]}],
            "attrs": [{"name": "scale", "type": "float", "default": 2.0},
                      {"name": "negative_slope", "type": "float", "default": 0.5}], **attrs}


def test_ttk_rows_of_the_soc_series_with_the_tightest_tolerances():
    cases = ttk.ttk_cases(OP, _op(), "Ascend910B", "arch22")
    assert [c["name"] for c in cases.cases] == ["leaky_scale_ragged", "leaky_scale_one"]
    assert cases.cases[0] == {"name": "leaky_scale_ragged", "shapes": {"x": [3, 37]},
                              "attrs": {"scale": 3.0, "negative_slope": 0.25},
                              "ranges": {"x": [-2, 2]}, "dtypes": {"x": "float16", "y": "float16"}}
    # ((rtol, share of elements allowed out),) and absolute_precision, as the test tool reads them
    assert cases.tolerance == {"float16": {"rtol": 0.002, "atol": 0.002, "error_ratio": 0.002},
                               "float32": {"rtol": 0.0001, "atol": 0.0001, "error_ratio": 0.0001}}
    assert cases.source == "tests/st/ttk_kernel_leaky_scale.csv"
    # Ascend 950: its own row and the arch35 table
    names = [c["name"] for c in ttk.ttk_cases(OP, _op(), "Ascend950", "arch35").cases]
    assert names == ["leaky_scale_apt", "leaky_scale_ragged", "leaky_scale_950"]


def test_ttk_tolerances_as_the_test_tool_reads_them(tmp_path):
    # precision_tolerances ((rtol, ptol),), ptol the share of elements allowed out (ops-nn's
    # matmul_golden_util.py isclose_compare); atol absolute_precision, 1e-8 when empty;
    # integer outputs compare exactly; a share above a half is no tolerance
    _table(tmp_path, "testcase_name,input_shapes,output_dtypes,precision_tolerances,"
           "absolute_precision,soc_series\n"
           "a,\"((4, 64),)\",\"('float16',)\",\"((0.001, 0.01),)\",,\n"
           "b,\"((2, 64),)\",\"('float16',)\",\"((0.004, 0.002),)\",1e-5,\n"
           "c,\"((3, 64),)\",\"('int8',)\",\"((0.001, 0.001),)\",1e-8,\n"
           "d,\"((5, 64),)\",\"('float32',)\",\"((0.001, 0.9),)\",1e-8,\n")
    op = _op(outputs=[{"name": "y", "dtypes": ["float16", "int8", "float32"],
                       "formats": ["ND", "ND", "ND"]}],
             inputs=[{"name": "x", "dtypes": ["float16", "float16", "float32"],
                      "formats": ["ND", "ND", "ND"]}])
    tol = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").tolerance
    assert tol == {"float16": {"rtol": 0.001, "atol": 1e-8, "error_ratio": 0.002}}


def test_ttk_rows_give_output_shapes_when_there_is_no_infershape():
    cases = ttk.ttk_cases(OP, _op(), "Ascend910B", "arch22", has_infer_shape=False)
    assert [c["output_shapes"] for c in cases.cases] == [{"y": [3, 37]}, {"y": [1]}]


def _table(op_dir: Path, text: str, arch: str | None = None) -> None:
    """A ttk table of the operator at `op_dir` (tests/ttk_kernel_x.csv; an architecture's
    under tests/st/<arch>/)."""
    where = op_dir / "tests" / "st" / arch if arch else op_dir / "tests"
    where.mkdir(parents=True)
    (where / "ttk_kernel_x.csv").write_text(text)


def test_ttk_rows_that_do_not_fit_the_opdef_are_said(tmp_path):
    _table(tmp_path, "testcase_name,input_shapes,attributes,soc_series\n"
           'two_inputs,"((2,), (2,))",{},\n'
           'bad_literal,"((2,)",{},\n'
           'needs_attr,"((4,),)",{},\n')
    op = _op(attrs=[{"name": "k", "type": "int", "required": True}])
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22")
    assert cases.cases == []
    assert cases.skipped == ["two_inputs: input shapes do not match the OpDef's 1 inputs",
                             "bad_literal: input shapes do not match the OpDef's 1 inputs",
                             "needs_attr: a required attr has no value"]


def _variants_op(y_dtypes, x_dtypes, *attrs):
    """An op whose y (and x) dtypes differ between its two variants, with int attrs."""
    return _op(outputs=[{"name": "y", "dtypes": list(y_dtypes), "formats": ["ND", "ND"]}],
               inputs=[{"name": "x", "dtypes": list(x_dtypes), "formats": ["ND", "ND"]}],
               attrs=[{"name": a, "type": "int", "default": d} for a, d in attrs])


def test_an_attr_naming_the_rows_output_dtype_follows_the_variant(tmp_path):
    # ops-nn's quant tables: dst_type is the ge::DataType number of y's dtype in the row (29
    # int4, 34 hifloat8); a row may run in other variants, so the value is written per variant
    _table(tmp_path, "testcase_name,input_shapes,output_dtypes,attributes,soc_series\n"
           "to_int4,\"((4, 64),)\",\"('int4',)\",\"{'dst_type': 29, 'axis': 29}\",\n"
           "to_hif8,\"((2, 64),)\",\"('hifloat8',)\",\"{'dst_type': 34, 'axis': -1}\",\n")
    op = _variants_op(("int8", "int4"), ("float16", "float16"), ("dst_type", 2), ("axis", -1))
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").cases
    assert [c["name"] for c in cases] == ["to_int4", "to_hif8"]
    # the first row's axis has int4's number too, but the second's does not: not a dtype
    assert [c["attrs"] for c in cases] == [{"dst_type": {"output_dtype": "y"}, "axis": 29},
                                           {"dst_type": {"output_dtype": "y"}, "axis": -1}]
    written = R._per_variant_dtypes(cases[1], op)
    assert written["attrs"]["dst_type"] == {"per_variant": {"float16_int8": 2, "float16_int4": 29}}
    assert written["attrs"]["axis"] == -1 and written["shapes"] == cases[1]["shapes"]
    plain = {**cases[0], "attrs": {"axis": 29}}
    assert R._per_variant_dtypes(plain, op) == plain


def test_a_dtype_attr_has_a_value_for_every_variant_of_every_soc_config(tmp_path):
    # ops-nn's dynamic_block_quant: its own lists have hifloat8 and float8 outputs, its
    # ascend910b AddConfig int8 only; the manifest's per_variant needs a value for each of them
    _table(tmp_path, "testcase_name,input_shapes,output_dtypes,attributes,soc_series\n"
           "to_int8,\"((4, 64),)\",\"('int8',)\",\"{'dst_type': 2}\",\n")
    op = _variants_op(("hifloat8", "int8"), ("float32", "float32"), ("dst_type", 2))
    op["soc_configs"] = {"ascend910b": {"inputs": [{"name": "x", "dtypes": ["float16"], "formats": ["ND"]}],
                                        "outputs": [{"name": "y", "dtypes": ["int8"], "formats": ["ND"]}]}}
    [case] = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").cases
    assert R._per_variant_dtypes(case, op)["attrs"]["dst_type"] == {
        "per_variant": {"float32_hifloat8": 34, "float32_int8": 2, "float16_int8": 2}}


def _dtype_rows(op_dir: Path, op: dict, *rows) -> list:
    """The cases of a table of (name, x's shape, y's dtype, attributes) rows."""
    _table(op_dir, "testcase_name,input_shapes,output_dtypes,attributes,soc_series\n" + "".join(
        f"{name},\"({shape},)\",\"('{dtype}',)\",\"{attrs}\",\n" for name, shape, dtype, attrs in rows))
    return ttk.ttk_cases(op_dir, op, "Ascend910B", "arch22").cases


def test_an_attr_matching_a_dtype_number_in_one_row_only_is_kept(tmp_path):
    # ops-nn's scatter_elements_v2: `axis: 2` in its int8 row (int8 is ge::DataType 2), other
    # axes in the other rows; written per variant, the int8 row would run with axis 0 as float32
    op = _variants_op(("int8", "float32"), ("int8", "float32"), ("axis", 0))
    cases = _dtype_rows(tmp_path, op, ("i8", (4, 64, 3), "int8", {"axis": 2}),
                        ("f32", (2, 64), "float32", {"axis": 1}))
    assert [c["attrs"] for c in cases] == [{"axis": 2}, {"axis": 1}]


def test_a_variant_with_rows_of_its_own_dtype_runs_only_those(tmp_path):
    # ops-nn's ascend_quant_v2 table: its int4 rows have an even last axis, its hifloat8 rows
    # (written for the 950) an odd one, which int4 output refuses (aclnn_ascend_quant_v3.cpp
    # CheckInt4LastDim); the int8 variant has no rows of its own: untested (manifest.cases_for),
    # not run with rows written for int4 and hifloat8
    op = _variants_op(("int8", "int4"), ("float16", "float16"), ("dst_type", 2))
    int4 = ("to_int4", (4, 64), "int4", {"dst_type": 29})
    hif8 = ("to_hif8", (2, 63), "hifloat8", {"dst_type": 34})
    cases = _dtype_rows(tmp_path, op, int4, hif8)
    assert [c["dtypes"] for c in cases] == [{"y": "int4"}, {"y": "hifloat8"}]
    assert _runs(cases, op) == {"float16_int8": [], "float16_int4": ["to_int4"]}
    # with an int8 row too, the hifloat8 row runs nowhere
    (tmp_path / "b").mkdir()
    cases = _dtype_rows(tmp_path / "b", op, ("to_int8", (4, 64), "int8", {"dst_type": 2}), int4, hif8)
    assert _runs(cases, op) == {"float16_int8": ["to_int8"], "float16_int4": ["to_int4"]}


def _runs(cases: list[dict], op: dict) -> dict:
    """{variant: the names of the cases it runs} (manifest.cases_for)."""
    from opkg.core.manifest import Case, cases_for

    parsed = [Case(c["name"], c["shapes"], {}, {}, dtypes=c.get("dtypes", {})) for c in cases]
    return {v.name: [c.name for c in cases_for(parsed, v, [t["name"] for t in op["outputs"]])]
            for v in R._every_variant(op)}


def test_a_ttk_row_of_the_socs_table_names_the_dtypes_it_is_written_for(tmp_path):
    # ops-nn's arch35 quant tables: a row's shapes and round_mode fit its own output dtype (an
    # odd last dimension is fine for int8, the int4 tiling rejects it); run elsewhere they fail
    _table(tmp_path, "testcase_name,input_shapes,input_dtypes,output_dtypes,attributes,soc_series\n"
           "to_int8,\"((4, 63),)\",\"('float16',)\",\"('int8',)\",{},\n"
           "to_int4,\"((4, 64),)\",\"('float16',)\",\"('int4',)\",{},\n"
           "to_hif8,\"((2, 64),)\",\"('float16',)\",\"('hifloat8',)\",{},\n"
           "odd,\"((2, 8),)\",\"('float16', 'float16')\",\"('int8',)\",{},\n")
    op = _op(outputs=[{"name": "y", "dtypes": ["int8", "int4"], "formats": ["ND", "ND"]}],
             inputs=[{"name": "x", "dtypes": ["float16", "float16"], "formats": ["ND", "ND"]}],
             attrs=[])
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").cases
    # `odd` names two input dtypes for one input: its output's dtype only
    assert [c.get("dtypes") for c in cases] == [{"x": "float16", "y": "int8"}, {"x": "float16", "y": "int4"},
                                                {"x": "float16", "y": "hifloat8"}, {"y": "int8"}]
    # each variant runs its own rows; the hifloat8 row's combination is not the op's: no variant
    assert _runs(cases, op) == {"float16_int8": ["to_int8", "odd"], "float16_int4": ["to_int4"]}
    # another architecture's table: the dtypes of the outputs that differ between variants
    assert [c.get("dtypes") for c in ttk._cases([tmp_path / "tests" / "ttk_kernel_x.csv"], tmp_path,
                                                op, None, True).cases] == [
        {"y": "int8"}, {"y": "int4"}, {"y": "hifloat8"}, {"y": "int8"}]


def test_a_variant_whose_own_rows_are_all_refused_falls_back_to_the_others():
    """Rows of another architecture's table (if_supported): a variant runs those written for
    its dtypes; when the SoC refuses every one of them, the others (as a variant that had none
    written for it), never when one of its own rows must run whatever the SoC says."""
    from opkg.core.manifest import Case, cases_for, fallback_cases

    op = _op(outputs=[{"name": "y", "dtypes": ["int8", "float16"], "formats": ["ND", "ND"]}],
             inputs=[{"name": "x", "dtypes": ["int8", "float16"], "formats": ["ND", "ND"]}],
             attrs=[])
    borrowed = "a row of tests/st/arch35/t.csv, another architecture's table"
    own = Case("own", {"x": (4,)}, {}, {}, dtypes={"y": "int8"}, if_supported=borrowed)
    half = Case("half", {"x": (4,)}, {}, {}, dtypes={"y": "float16"}, if_supported=borrowed)
    anyd = Case("any", {"x": (4,)}, {}, {}, if_supported=borrowed)
    variants = {v.name: v for v in R._every_variant(op)}
    int8 = variants["int8"]
    assert cases_for([own, half, anyd], int8) == [own, anyd]
    assert fallback_cases([own, half, anyd], int8, ["y"]) == [half]
    # a case that must run (no if_supported) leaves no fallback
    assert fallback_cases([Case("own", {"x": (4,)}, {}, {}, dtypes={"y": "int8"}), half],
                          int8, ["y"]) == []
    assert fallback_cases([anyd], int8, ["y"]) == []


def test_the_case_cap_spreads_over_the_dtype_combinations_of_the_rows(tmp_path):
    # ops-nn's softmax_v2 table: 50 rows sorted by dtype, float16 to float32 from the 19th; the
    # first eight rows alone would leave that variant none of its own
    rows = "".join(f"f32_{k},\"((2, {k + 1}),)\",\"('float32',)\",\"('float32',)\",{{}},\n" for k in range(10))
    rows += "".join(f"f16_{k},\"((3, {k + 1}),)\",\"('float16',)\",\"('float32',)\",{{}},\n" for k in range(3))
    _table(tmp_path, "testcase_name,input_shapes,input_dtypes,output_dtypes,attributes,soc_series\n" + rows)
    op = _op(outputs=[{"name": "y", "dtypes": ["float32", "float32"], "formats": ["ND", "ND"]}],
             inputs=[{"name": "x", "dtypes": ["float32", "float16"], "formats": ["ND", "ND"]}], attrs=[])
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").cases
    assert len(cases) == ttk.MAX_CASES
    # in turn from each combination, kept in table order
    assert [c["name"] for c in cases] == ["f32_0", "f32_1", "f32_2", "f32_3", "f32_4", "f16_0", "f16_1", "f16_2"]
    assert _runs(cases, op) == {"float32": ["f32_0", "f32_1", "f32_2", "f32_3", "f32_4"],
                                "float16_float32": ["f16_0", "f16_1", "f16_2"]}
    # more combinations than the cap: one row each
    many = [{"name": f"c{k}", "shapes": {}, "dtypes": {"y": f"d{k}"}} for k in range(12)]
    assert [c["name"] for c in ttk.spread_over_dtypes(many, 8)] == [f"c{k}" for k in range(12)]


def test_a_ttk_range_of_one_value_is_kept(tmp_path):
    # ops-nn's gather_elements rows give the index `(0, 0)`: every index 0 (any other index
    # draws values the golden rejects)
    _table(tmp_path, "testcase_name,input_shapes,attributes,input_data_ranges,soc_series\n"
           'zeros,"((2,),)",{},"((0, 0),)",\n'
           'upside_down,"((2,),)",{},"((1, 0),)",\n')
    cases = ttk.ttk_cases(tmp_path, _op(), "Ascend910B", "arch22")
    assert [c.get("ranges") for c in cases.cases] == [{"x": [0, 0]}, None]


def test_a_ttk_attribute_that_names_an_input_gives_its_values(tmp_path):
    """ops-nn's repeat_interleave_grad rows put its repeats input's data in `attributes`
    (`'repeats': [80, 85, ...]`, one per element of the row's repeats shape): the case feeds
    those values (random ones would be negative, which its golden rejects). A count that does
    not fill the shape, or a key that is an attr, gives no values."""
    _table(tmp_path, "testcase_name,input_shapes,attributes,input_data_ranges,soc_series\n"
           "fits,\"((2, 3), (3,))\",\"{'scale': 2.0, 'r': [4, 0, 1]}\",\"((-1, 1), (0, 9))\",\n"
           "nested,\"((2, 3), (2, 1))\",\"{'r': [[1], [2]]}\",,\n"
           "short,\"((2, 3), (3,))\",\"{'r': [4, 0]}\",\"((-1, 1), (0, 9))\",\n")
    op = _op(inputs=[{"name": "x", "dtypes": ["float16"], "formats": ["ND"]},
                     {"name": "r", "dtypes": ["int64"], "formats": ["ND"]}])
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22")
    assert [c.get("values") for c in cases.cases] == [{"r": [4, 0, 1]}, {"r": [1, 2]}, None]
    assert cases.cases[0]["attrs"] == {"scale": 2.0}
    # repeat_interleave's rows give `repeats` a range too: values and a range are exclusive in a
    # case, and the values are the row's data
    assert cases.cases[0]["ranges"] == {"x": [-1, 1]}
    assert cases.cases[2]["ranges"] == {"x": [-1, 1], "r": [0, 9]}


def test_an_input_with_values_takes_no_range(tmp_path):
    # ops-nn's conv3d_backprop_filter_v2: filter_size's values in `attributes` and a data range
    # for every input; a manifest case takes one or the other, and the values are the data
    _table(tmp_path, "testcase_name,input_shapes,attributes,input_data_ranges,soc_series\n"
           "both,\"((2, 3), (3,))\",\"{'r': [4, 0, 1]}\",\"[[0, 1], [0, 1]]\",\n")
    op = _op(inputs=[{"name": "x", "dtypes": ["float16"], "formats": ["ND"]},
                     {"name": "r", "dtypes": ["int64"], "formats": ["ND"]}])
    [case] = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22").cases
    assert case["values"] == {"r": [4, 0, 1]} and case["ranges"] == {"x": [0, 1]}


def test_another_architectures_table_gives_the_cases_of_a_soc_without_one(tmp_path):
    """As ops-nn's foreach_addcmul_scalar (tests/st/arch35/ttk_kernel_foreach_addcmul_scalar_st.csv):
    dynamic inputs (a tuple of shapes per input, a range per tensor), a scalar input of one
    element; the rows' shape relations and ranges are kept, their tolerances (that
    architecture's) are not, and a row too large for the sim is said."""
    table = tmp_path / "tests" / "st" / "arch35"
    table.mkdir(parents=True)
    (table / "ttk_kernel_fx.csv").write_text(
        "testcase_name,input_shapes,input_dtypes,attributes,input_data_ranges,"
        "precision_tolerances,output_dtypes,soc_series\n"
        'two,"(((5,), (3, 7)), ((5,), (3, 7)), (1,))","((\'float32\',), (\'float32\',), '
        '\'float32\')",{},"(((-2.0, 2.0), (-1, 3)), (), (0.5, 4))","((0.0001, 0.0001),)",'
        '"((\'float32\',),)",\n'
        'huge,"(((4096, 4096),), ((4096, 4096),), (1,))",,{},,,,\n'
        'bad,"((5,), (5,), (1,))",,{},,,,\n')
    dyn = lambda n: {"name": n, "param_type": "dynamic", "dtypes": ["float32"]}  # noqa: E731
    op = {"type": "Fx", "inputs": [dyn("x1"), dyn("x2"), {"name": "scalar", "dtypes": ["float32"]}],
          "outputs": [dyn("y")], "attrs": []}
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22")
    # each row may be refused: the repository's test tool runs the table on its own
    # architecture only (if_supported: skipped where this SoC's tiling refuses it)
    assert cases.cases == [{"name": "two", "shapes": {"x1": [[5], [3, 7]], "x2": [[5], [3, 7]],
                                                      "scalar": [1]},
                            "ranges": {"x1": [[-2.0, 2.0], [-1, 3]], "scalar": [0.5, 4]},
                            "if_supported": "a row of tests/st/arch35/ttk_kernel_fx.csv, "
                                            "another architecture's table"}]
    assert cases.tolerance == {}
    assert cases.source == ("tests/st/arch35/ttk_kernel_fx.csv (another architecture's table: "
                            "its shapes, attrs and ranges)")
    assert cases.skipped == [
        f"huge: {2 * 4096 * 4096 + 1} input elements, more than the {ttk.MAX_ELEMENTS} a case "
        "takes here", "bad: input shapes do not match the OpDef's 3 inputs"]
    # the architecture's own table, when it has rows, is the only one read
    assert [c["name"] for c in ttk.ttk_cases(tmp_path, op, "Ascend950", "arch35").cases] == ["two"]


def test_the_tables_inplace_indexes_name_the_rewritten_inputs(tmp_path):
    """output_inplace_indexes number the row's tensors flat, a dynamic input one per tensor
    (ops-nn foreach/foreach_non_finite_check_and_unscale/tests/st/arch35/*.csv: the grads,
    then found_inf; inv_scale is only read)."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "ttk_kernel_u.csv").write_text(
        "testcase_name,input_shapes,attributes,output_inplace_indexes,soc_series\n"
        'u,"(((3,), (2,)), (1,), (1,))",{},"(0, 1, 2)",\n')
    op = {"type": "U", "inputs": [{"name": "grads", "param_type": "dynamic", "dtypes": ["float32"]},
                                  {"name": "found", "dtypes": ["float32"]},
                                  {"name": "scale", "dtypes": ["float32"]}],
          "outputs": [], "attrs": []}
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22")
    assert cases.inplace == ["grads", "found"] and [c["name"] for c in cases.cases] == ["u"]


def test_example_shapes_by_the_tensor_each_creates():
    assert ttk.example_case(OP, _op()) == {"name": "example", "shapes": {"x": [4, 2]}}
    op = _op(inputs=[{"name": "gamma", "dtypes": ["float16"], "formats": ["ND"]}])
    assert ttk.example_case(OP, op) is None


def _example(op_dir: Path, api: str, doc: str, example: str) -> None:
    """An operator directory's docs/<api>.md and its examples/test_aclnn_*.cpp."""
    (op_dir / "examples").mkdir()
    (op_dir / "docs").mkdir()
    (op_dir / "docs" / f"{api}.md").write_text(doc)
    (op_dir / "examples" / "test_aclnn_example.cpp").write_text(example)


def _f32(name, **kw):
    """A float32 ND input of an OpDef, as the import's op mapping holds it."""
    return {"name": name, "dtypes": ["float32"], "formats": ["ND"], **kw}


def test_example_shapes_by_the_apis_documented_parameters(tmp_path):
    """ops-nn's foreach examples build tensor lists from tensors named otherwise
    (`tensorListInput1` from input1, input2) and pass them to aclnn<Api>GetWorkspaceSize in
    the order its docs/aclnn<Api>.md declares: the shapes follow the call's arguments to the
    documented names (`const` ones are inputs), a list as one shape per tensor; the one input
    no name matches takes the one such parameter left (group_norm_silu_quant's `self` for
    `x`), and attrs come from literals or variables initialised with one (`group` for
    `num_groups`, the one left)."""
    _example(tmp_path, "aclnnMyList",
        "```Cpp\naclnnStatus aclnnMyListGetWorkspaceSize(\n  const aclTensor *self,\n"
        "  const aclTensorList *x1,\n  int64_t group,\n  double eps,\n"
        "  const aclTensor     *scalarsOptional,\n  aclTensorList       *out,\n"
        "  uint64_t            *workspaceSize,\n  aclOpExecutor      **executor)\n```\n",
        "std::vector<int64_t> aShape = {2, 3};\nstd::vector<int64_t> bShape = {1, 3};\n"
        "std::vector<int64_t> sShape = {2};\nstd::vector<int64_t> inShape = {5};\n"
        "ret = CreateAclTensor(aData, aShape, &aAddr, aclDataType::ACL_FLOAT, &a);\n"
        "ret = CreateAclTensor(bData, bShape, &bAddr, aclDataType::ACL_FLOAT, &b);\n"
        "ret = CreateAclTensor(sData, sShape, &sAddr, aclDataType::ACL_FLOAT, &s);\n"
        "ret = CreateAclTensor(iData, inShape, &iAddr, aclDataType::ACL_FLOAT, &in);\n"
        "ret = CreateAclTensor(oData, aShape, &oAddr, aclDataType::ACL_FLOAT, &o);\n"
        "std::vector<aclTensor*> tmp{a, b};\n"
        "aclTensorList* listIn = aclCreateTensorList(tmp.data(), tmp.size());\n"
        "std::vector<aclTensor*> tmpOut{o};\n"
        "aclTensorList* listOut = aclCreateTensorList(tmpOut.data(), tmpOut.size());\n"
        "uint64_t workspaceSize = 0;\nint64_t group = 2;\n"
        "ret = aclnnMyListGetWorkspaceSize(in, listIn, group, 0.5, s, listOut, &workspaceSize,"
        " &executor);\n")
    attrs = [{"name": "num_groups", "type": "int", "required": True},
             {"name": "eps", "type": "float", "default": 1e-5}]
    op = _op(inputs=[_f32("x"), _f32("x1", param_type="dynamic"), _f32("scalars")], attrs=attrs)
    assert ttk.example_case(tmp_path, op) == {
        "name": "example", "shapes": {"x": [5], "x1": [[2, 3], [1, 3]], "scalars": [2]},
        "attrs": {"eps": 0.5, "num_groups": 2}}
    # a dynamic input is never given a single tensor's shape, nor the reverse
    assert ttk.example_case(tmp_path, _op(inputs=[_f32("x"), _f32("scalars", param_type="dynamic")])) is None
    # two inputs no name matches, the first input matched by name (so `self` is not known to
    # be either): their order is not the API's for sure, no case
    assert ttk.example_case(tmp_path, _op(inputs=[_f32("x1", param_type="dynamic"), _f32("y"), _f32("z")])) is None
    # with the OpDef's first input unmatched, the API's leading `self` is it
    assert ttk.example_case(tmp_path, _op(inputs=[_f32("y"), _f32("z"), _f32("x1", param_type="dynamic")]))[
        "shapes"] == {"y": [5], "z": [2], "x1": [[2, 3], [1, 3]]}


def test_example_index_names_and_hand_filled_index_data(tmp_path):
    """ops-nn's inplace_scatter_add: its example calls aclnnIndexAdd(self, dim, index, source,
    alpha, out) for the OpDef's (var, indices, updates), and fills the index tensor by hand
    (`indexHostData = {0, 1, 2, 3}`): `index` is `indices`' word, `self` the first input, the
    one left `updates`; the integer host data of an integer input become its values (random
    ones would index out of range), float host data do not."""
    _example(tmp_path, "aclnnIndexAdd",
        "aclnnStatus aclnnIndexAddGetWorkspaceSize(\n const aclTensor*  self,\n"
        " const int64_t     dim,\n const aclTensor*  index,\n const aclTensor*  source,\n"
        " const aclScalar*  alpha,\n aclTensor*        out,\n uint64_t*  workspaceSize,\n"
        " aclOpExecutor**   executor)\n",
        "std::vector<int64_t> selfShape = {4, 2};\nstd::vector<int64_t> indexShape = {4};\n"
        "std::vector<int64_t> sourceShape = {4, 2};\nstd::vector<int64_t> outShape = {4, 2};\n"
        "std::vector<float> selfHostData = {0, 1, 2, 3, 4, 5, 6, 7};\n"
        "std::vector<int> indexHostData = {3, 1, 2, 0};\n"
        "std::vector<float> sourceHostData = {1, 1, 1, 2, 2, 2, 3, 3};\n"
        "std::vector<float> outHostData(8, 0);\nint64_t dim = 0;\n"
        "ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);\n"
        "ret = CreateAclTensor(indexHostData, indexShape, &indexDeviceAddr, aclDataType::ACL_INT32, &index);\n"
        "ret = CreateAclTensor(sourceHostData, sourceShape, &sourceDeviceAddr, aclDataType::ACL_FLOAT, &source);\n"
        "ret = CreateAclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);\n"
        "ret = aclnnIndexAddGetWorkspaceSize(self, dim, index, source, alpha, out, &workspaceSize, &executor);\n")
    t = lambda name, dtype: {"name": name, "dtypes": [dtype], "formats": ["ND"]}  # noqa: E731
    op = _op(inputs=[t("var", "float32"), t("indices", "int32"), t("updates", "float32")], attrs=[])
    assert ttk.example_case(tmp_path, op) == {
        "name": "example", "shapes": {"var": [4, 2], "indices": [4], "updates": [4, 2]},
        "values": {"indices": [3, 1, 2, 0]}}
    # a float input keeps drawn data, whatever the example wrote
    op = _op(inputs=[t("var", "float32"), t("indices", "float32"), t("updates", "float32")], attrs=[])
    assert "values" not in ttk.example_case(tmp_path, op)


def test_example_int_arrays_abbreviated_names_and_the_operators_own_api(tmp_path):
    """ops-nn's max_pool3d_with_argmax_v2: three examples (the 2-D APIs first by name), the
    operator's own (test_aclnn_max_pool3d_with_argmax) is read; its list attrs are
    `aclIntArray`s built from integer vectors (`aclCreateIntArray(kernelSizeData.data(), 3)`),
    named otherwise than the OpDef's (`kernelSize` for `ksize`, `padding` for `pads`,
    `stride` for `strides`)."""
    op_dir = tmp_path / "max_pool3d_with_argmax_v2"
    op_dir.mkdir()
    _example(op_dir, "aclnnMaxPool3dWithArgmax",
        "aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(\n const aclTensor* self,\n"
        " const aclIntArray* kernelSize,\n const aclIntArray* stride,\n"
        " const aclIntArray* padding,\n const aclIntArray* dilation,\n bool ceilMode,\n"
        " aclTensor* out,\n aclTensor* indices,\n uint64_t* workspaceSize,\n"
        " aclOpExecutor** executor)\n",
        "std::vector<int64_t> selfShape = {1, 1, 2, 4, 4};\n"
        "std::vector<int64_t> outShape = {1, 1, 1, 2, 2};\n"
        "std::vector<int64_t> kernelSizeData = {2, 2, 2};\n"
        "std::vector<int64_t> strideData = {1, 2, 2, 9};\n"
        "std::vector<int64_t> paddingData = {0, 1, 0};\n"
        "std::vector<int64_t> dilationData = {1, 1, 1};\n"
        "ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);\n"
        "ret = CreateAclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);\n"
        "ret = CreateAclTensor(iHostData, outShape, &iDeviceAddr, aclDataType::ACL_INT32, &indices);\n"
        "aclIntArray* kernelSize = aclCreateIntArray(kernelSizeData.data(), kernelSizeData.size());\n"
        "aclIntArray* stride = aclCreateIntArray(strideData.data(), 3);\n"
        "aclIntArray* padding = aclCreateIntArray(paddingData.data(), 3);\n"
        "aclIntArray* dilation = aclCreateIntArray(dilationData.data(), 3);\n"
        "const bool ceilMode = true;\n"
        "ret = aclnnMaxPool3dWithArgmaxGetWorkspaceSize(self, kernelSize, stride, padding, dilation,"
        " ceilMode, out, indices, &workspaceSize, &executor);\n")
    # a 2-D API's example, sorted before it, calls an API documented nowhere
    (op_dir / "examples" / "test_aclnn_max_pool2d_with_indices.cpp").write_text(
        "std::vector<int64_t> selfShape = {1, 1, 4, 3};\n"
        "ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);\n"
        "ret = aclnnMaxPool2dWithIndicesGetWorkspaceSize(self, out, &workspaceSize, &executor);\n")
    lists = [{"name": n, "type": "list_int", "required": True} for n in ("ksize", "strides", "pads")]
    op = _op(inputs=[_f32("x")], attrs=lists + [
        {"name": "dilation", "type": "list_int", "default": [1, 1, 1]},
        {"name": "ceil_mode", "type": "bool", "default": False},
        {"name": "data_format", "type": "str", "default": "NCDHW"}])
    assert ttk.example_case(op_dir, op) == {
        "name": "example", "shapes": {"x": [1, 1, 2, 4, 4]},
        "attrs": {"ksize": [2, 2, 2], "strides": [1, 2, 2], "pads": [0, 1, 0],
                  "dilation": [1, 1, 1], "ceil_mode": True}}
    # two OpDef names that abbreviate one parameter (and names under three letters) match none
    op = _op(inputs=[_f32("x")], attrs=[{"name": "ks", "type": "list_int", "required": True},
                                        {"name": "pad", "type": "list_int", "required": True},
                                        {"name": "pads", "type": "list_int", "required": True}])
    assert "attrs" not in ttk.example_case(op_dir, op)


def test_an_example_api_documented_in_a_sibling_operator(tmp_path):
    """ops-nn's mse_loss_v2: its example calls aclnnMseLoss, documented in the sibling
    loss/mse_loss/docs/, not in its own docs/: the parameters are read from there."""
    (tmp_path / "mse_loss").mkdir()
    _example(tmp_path / "mse_loss", "aclnnMseLoss",
             "aclnnStatus aclnnMseLossGetWorkspaceSize(\n const aclTensor* self,\n"
             " const aclTensor* target,\n int64_t reduction,\n aclTensor* out,\n"
             " uint64_t* workspaceSize,\n aclOpExecutor** executor)\n", "")
    op_dir = tmp_path / "mse_loss_v2"
    (op_dir / "examples").mkdir(parents=True)
    (op_dir / "examples" / "test_aclnn_mse_loss_v2.cpp").write_text(
        "std::vector<int64_t> selfShape = {2, 3};\nstd::vector<int64_t> targetShape = {2, 3};\n"
        "ret = CreateAclTensor(sHostData, selfShape, &sDeviceAddr, aclDataType::ACL_FLOAT, &self);\n"
        "ret = CreateAclTensor(tHostData, targetShape, &tDeviceAddr, aclDataType::ACL_FLOAT, &target);\n"
        "int64_t reduction = 2;\n"
        "ret = aclnnMseLossGetWorkspaceSize(self, target, reduction, out, &workspaceSize, &executor);\n")
    op = _op(inputs=[_f32("input"), _f32("target")],
             attrs=[{"name": "reduction", "type": "int", "default": 1}])
    assert ttk.example_case(op_dir, op) == {
        "name": "example", "shapes": {"input": [2, 3], "target": [2, 3]}, "attrs": {"reduction": 2}}
    # without the sibling's document, no parameter is known
    shutil.rmtree(tmp_path / "mse_loss" / "docs")
    assert ttk.example_case(op_dir, op) is None


def test_another_architectures_example_gives_a_case_the_soc_may_refuse(tmp_path):
    """ops-nn's gemm_v3 has its one example under examples/arch35/ (the Ascend 950's), with its
    tensors in capitals (`AShape`, `&A` for the OpDef's `a`) and the attrs as variables: the case
    it gives is marked `if_supported`; an example at the top of examples/ comes first."""
    (tmp_path / "examples" / "arch35").mkdir(parents=True)
    (tmp_path / "examples" / "arch35" / "test_aclnn_gemmv3.cpp").write_text(
        "std::vector<int64_t> AShape = {2, 3};\nstd::vector<int64_t> BShape = {3, 4};\n"
        "ret = CreateAclTensor(AHostData, AShape, &ADeviceAddr, aclDataType::ACL_BF16, &A);\n"
        "ret = CreateAclTensor(BHostData, BShape, &BDeviceAddr, aclDataType::ACL_BF16, &B);\n"
        "float alpha = 1.5f;\nfloat beta = 2.0f;\nint64_t transA = 0;\n")
    attrs = [{"name": "alpha", "type": "float", "required": True},
             {"name": "beta", "type": "float", "required": True},
             {"name": "transpose_a", "type": "bool", "required": True}]
    op = _op(inputs=[_f32("a"), _f32("b"), _f32("c", param_type="optional")], attrs=attrs)
    assert ttk.example_case(tmp_path, op) == {
        "name": "example", "shapes": {"a": [2, 3], "b": [3, 4]}, "attrs": {"alpha": 1.5, "beta": 2.0},
        "if_supported": "the example of examples/arch35/test_aclnn_gemmv3.cpp, another architecture's"}
    (tmp_path / "examples" / "test_aclnn_gemm.cpp").write_text(
        "std::vector<int64_t> aShape = {5, 6};\nstd::vector<int64_t> bShape = {6, 7};\n")
    assert ttk.example_case(tmp_path, op) == {"name": "example", "shapes": {"a": [5, 6], "b": [6, 7]}}


def test_example_shapes_of_integer_variables_and_int_array_attrs(tmp_path):
    """ops-nn's transpose_batch_mat_mul: its example writes the shapes with integer variables
    (`int32_t M = 32; x1Shape = {M, Batch, K}`) and passes the permutations as aclIntArrays made
    from int64 vectors (`permX1 = aclCreateIntArray(permX1Series.data(), ...)`), which its
    docs/aclnn<Api>.md declares as `const aclIntArray *permX1`: the shapes take the variables'
    values and the OpDef's list-of-int attrs the vectors; a dimension no literal gives leaves
    the shape out."""
    _example(tmp_path, "aclnnTbmm",
        "aclnnStatus aclnnTbmmGetWorkspaceSize(\n    const aclTensor    *x1,\n"
        "    const aclTensor    *x2,\n    const aclIntArray  *permX1,\n    const aclIntArray  *permY,\n"
        "    int8_t             cubeMathType,\n    aclTensor          *out,\n"
        "    uint64_t           *workspaceSize,\n    aclOpExecutor      **executor)\n",
        "int32_t M = 4;\nint32_t K = 8;\nint32_t N = 2;\nint32_t Batch = 3;\n"
        "std::vector<int64_t> x1Shape = {M, Batch, K};\nstd::vector<int64_t> x2Shape = {Batch, K, N};\n"
        "std::vector<int64_t> permX1Series = {1, 0, 2};\nstd::vector<int64_t> permYSeries = {1, 0, 2};\n"
        "ret = CreateAclTensor(x1HostData, x1Shape, &x1DeviceAddr, aclDataType::ACL_FLOAT16, &x1);\n"
        "ret = CreateAclTensor(x2HostData, x2Shape, &x2DeviceAddr, aclDataType::ACL_FLOAT16, &x2);\n"
        "aclIntArray* permX1 = aclCreateIntArray(permX1Series.data(), permX1Series.size());\n"
        "aclIntArray* permY = aclCreateIntArray(permYSeries.data(), permYSeries.size());\n"
        "ret = aclnnTbmmGetWorkspaceSize(x1, x2, permX1, permY, cubeMathType, out, &workspaceSize,"
        " &executor);\n")
    attrs = [{"name": "perm_x1", "type": "list_int"}, {"name": "perm_x2", "type": "list_int"},
             {"name": "perm_y", "type": "list_int"}]
    op = _op(inputs=[_f32("x1"), _f32("x2")], attrs=attrs)
    assert ttk.example_case(tmp_path, op) == {
        "name": "example", "shapes": {"x1": [4, 3, 8], "x2": [3, 8, 2]},
        "attrs": {"perm_x1": [1, 0, 2], "perm_y": [1, 0, 2]}}
    example = tmp_path / "examples" / "test_aclnn_example.cpp"
    example.write_text(example.read_text().replace("{M, Batch, K}", "{M, Batch, dimK}"))
    assert ttk.example_case(tmp_path, op) is None


def _workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "opkg-workspace.yaml").write_text("# my workspace\ndefault_socs: [Ascend910B1]\n")
    shutil.copytree(FIXTURE, ws / "ops-mini")
    shutil.copytree(FIXTURE.parent / "ops_base", ws / "ops-base")
    for repo in ("ops-mini", "ops-base"):      # fresh clones: git checkouts with a HEAD
        subprocess.run(["git", "init", "-q", str(ws / repo)], check=True)
        subprocess.run(["git", "-C", str(ws / repo), "add", "."], check=True)
        subprocess.run(["git", "-C", str(ws / repo), "-c", "user.name=t", "-c",
                        "user.email=t@t", "commit", "-qm", "mini"], check=True)
    return ws


def _opkg(ws: Path, *args):
    return subprocess.run([sys.executable, "-m", "opkg", *args], cwd=ws, capture_output=True,
                          text=True)


def test_a_manifest_the_loader_refuses_is_an_import_error_not_a_package(tmp_path):
    """The import loads each manifest it wrote: one the loader refuses (here every ttk row of
    the SoC has an empty input, so the cases would check nothing) is kept aside as
    opkg.yaml.refused, and the operator is reported as not imported, naming the row it was
    written from, with the loader's hint."""
    ws = _workspace(tmp_path)
    table = ws / "ops-mini/activation/leaky_scale/tests/st/ttk_kernel_leaky_scale.csv"
    table.write_text(table.read_text().replace('"((3, 37),)"', '"((0, 37),)"', 1)
                     .replace('"((1,),)"', '"((0,),)"', 1))
    proc = _opkg(ws, "import", "ops-mini/activation", "--base", "ops-base")
    assert proc.returncode == 0, proc.stderr
    assert "imported 0 of 3 operator(s)" in proc.stdout
    assert ("skipped activation/leaky_scale: the manifest written for LeakyScale is refused: "
            "every case has an empty input, so verification would check nothing "
            "(opkg.yaml.refused:") in proc.stdout
    assert "written from the tests of activation/leaky_scale (tests/st/ttk_kernel_leaky_scale.csv)" \
        in proc.stdout
    assert "    hint: keep the empty-shape edge case, and add a case with data" in proc.stdout
    pkg = ws / "packages" / "ops_mini" / "activation" / "leaky_scale"
    assert not (pkg / "opkg.yaml").exists() and (pkg / "opkg.yaml.refused").is_file()
    # the rest of the workspace loads: no broken manifest was left as a package
    assert _opkg(ws, "query", "deps", "//packages/ops_mini/kernel_tree").returncode == 0


def test_a_refused_line_names_the_row_it_was_written_from():
    lines = ["name: x", "op:", "  type: X", "verify:", "  cases:",
             "    # from the repository's tests/st/t.csv (its shapes)",
             '    - {name: "row_1", shapes: {x: [2]}}']
    assert R._written_from(lines, 7, "fam/x") == "row 'row_1' of fam/x/tests/st/t.csv"
    assert R._written_from(lines, 7, "fam/x", one_case=False) == "the tests of fam/x (tests/st/t.csv)"
    assert R._written_from(lines, 3, "fam/x") == "the OpDef of fam/x (op_host)"
    assert R._written_from(lines, None, "fam/x") == "the OpDef of fam/x"


def test_import_a_family_in_place(tmp_path):
    ws = _workspace(tmp_path)
    commit = subprocess.run(["git", "-C", str(ws / "ops-mini"), "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    before = {p: p.read_bytes() for p in (ws / "ops-mini").rglob("*") if p.is_file()}
    proc = _opkg(ws, "import", "ops-mini/activation", "--base", "ops-base")
    assert proc.returncode == 0, proc.stderr
    assert "imported 1 of 3 operator(s) for Ascend910B1" in proc.stdout
    assert "skipped activation/only_apt: no classic kernel op_kernel/only_apt.cpp (only an " \
           "Ascend 950 kernel)" in proc.stdout
    pkg = ws / "packages" / "ops_mini" / "activation" / "leaky_scale"
    # nothing copied: the package holds its manifest only, the repository is untouched
    assert sorted(p.name for p in pkg.iterdir()) == ["opkg.yaml"]
    assert {p: p.read_bytes() for p in (ws / "ops-mini").rglob("*") if p.is_file()} == before
    manifest = yaml.safe_load((pkg / "opkg.yaml").read_text())
    assert manifest["origin"] == {"repository": "ops_mini", "commit": commit,
                                  "path": "activation/leaky_scale"}
    assert manifest["tiling"]["sources"][2] == \
        "@ops_mini//activation/leaky_scale/op_host/arch22/leaky_scale_tiling_arch22.cpp"
    assert manifest["tiling"]["data"] == "@ops_mini//activation/leaky_scale/op_host/leaky_scale_tiling.h"
    assert manifest["kernel"]["source"] == "@ops_mini//activation/leaky_scale/op_kernel/leaky_scale.cpp"
    assert manifest["deps"] == ["@ops_mini//:common", "//packages/ops_mini/kernel_tree",
                                "@opbase//:op_common",
                                "//packages/ops_mini/host_modules/activation/act_common"]
    # its CMake DEPENDENCIES module: a library package of the module's host sources (compiled
    # once for every operator depending on it), not in the operator's own tiling sources
    assert not any("act_common" in s for s in manifest["tiling"]["sources"])
    module = yaml.safe_load((ws / "packages/ops_mini/host_modules/activation/act_common"
                             / "opkg.yaml").read_text())
    assert module["name"] == "ops_mini_activation_act_common" and "op" not in module
    assert module["host_sources"] == [
        "@ops_mini//activation/act_common/op_host/act_common_tiling.cpp"]
    assert module["host_include_dirs"] == ["@ops_mini//activation",
                                           "@ops_mini//activation/act_common/op_host"]
    assert module["deps"] == ["@ops_mini//:common", "//packages/ops_mini/kernel_tree",
                              "@opbase//:op_common"]
    assert manifest["op"]["inputs"] == [{"name": "x", "dtypes": ["float16", "float32"],
                                         "formats": ["ND"]}]
    # only the built SoC's own AddConfig lists (ascend950's config is not this manifest's)
    assert "soc_configs" not in manifest["op"]
    assert manifest["verify"]["golden"] == \
        "@ops_mini//activation/leaky_scale/tests/assets/golden.py:leaky_scale_golden"
    assert manifest["verify"]["golden_convention"] == "ttk"
    # its ST executor zeroes rows of y after the call: outputs pre-filled with zeros
    assert manifest["verify"]["outputs_prefill"] == "zero"
    assert "(@ops_mini//activation/leaky_scale/tests/st/aclnnLeakyScale/" \
           "executor_aclnnLeakyScale.py:17)" in (pkg / "opkg.yaml").read_text()
    # the workspace names the repository, pinned, with the include dirs of its CMake
    text = (ws / "opkg-workspace.yaml").read_text()
    assert text.startswith("# my workspace\n")
    entry = yaml.safe_load(text)["repositories"]["ops_mini"]
    assert entry == {"path": "ops-mini", "commit": commit, "libraries": {"common": {
        "include_dirs": [".", "common/inc", "common/inc/op_host"],
        "kernel_include_dirs": ["common/inc/op_kernel", ".", "common/inc", "common/inc/op_host"]}}}
    # the base library as the repository's CMake uses it: FindOPBASE.cmake's include
    # directories, add_opbase_modules' sources
    base = yaml.safe_load(text)["repositories"]["opbase"]
    assert base["path"] == "ops-base" and len(base["commit"]) == 40
    assert base["libraries"] == {"op_common": {
        "include_dirs": ["include", "include/op_common", "include/op_common/op_host",
                         "pkg_inc/op_common"],
        "kernel_include_dirs": ["pkg_inc/op_common", "include", "include/op_common",
                                "include/op_common/op_host"],
        "host_sources": ["src/op_common/op_host/util/*.cpp"]}}
    # the kernel tree: ../inc/ and ../act_common/ resolve from the include directory ascendc/_
    tree = ws / "packages" / "ops_mini" / "kernel_tree" / "ascendc"
    assert (tree / "_" / ".." / "inc" / "mini_split.h").is_file()
    assert (tree / "_" / ".." / "act_common" / "act_copy.h").is_file()
    assert (tree / "leaky_scale").is_symlink()
    # a second import rewrites its own files and keeps the workspace entry
    proc = _opkg(ws, "import", "ops-mini/activation/leaky_scale", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "has repository ops_mini already: kept" in proc.stdout
    assert yaml.safe_load((ws / "opkg-workspace.yaml").read_text())["repositories"] == \
        {"ops_mini": entry, "opbase": base}


def test_import_refuses_to_overwrite_files_it_did_not_write(tmp_path):
    ws = _workspace(tmp_path)
    pkg = ws / "packages" / "ops_mini" / "activation" / "leaky_scale"
    pkg.mkdir(parents=True)
    (pkg / "notes.txt").write_text("mine")

    def fake_probe(op, _dirs):       # layout only: the OpDef is not what this test is about
        return ({"type": "LeakyScale", "inputs": [{"name": "x", "param_type": "required",
                                                     "dtypes": ["float32"], "formats": ["ND"]}],
                 "outputs": [{"name": "y", "param_type": "required", "dtypes": ["float32"],
                              "formats": ["ND"]}], "attrs": [], "aicore": {}}, [])

    result = R.import_repository(ws / "ops-mini" / "activation" / "leaky_scale",
                                 unit="ascend910b", soc="Ascend910B1",
                                 dest_root=ws / "packages" / "ops_mini",
                                 tree_label="//packages/ops_mini/kernel_tree",
                                 probe=fake_probe)
    assert result.operators[0].skipped.endswith("holds files an import did not write; not "
                                                "overwritten")
    assert (pkg / "notes.txt").read_text() == "mine"


def test_an_opdef_whose_own_lists_are_placeholders_takes_the_units_addconfig_lists(tmp_path):
    """ops-nn's Conv3DV2 declares ge::DT_MAX in its own lists (the probe names it DT_UNDEFINED)
    and gives each SoC its lists with AddConfig; its storage formats (NDC1HWC0, FRACTAL_Z_3D)
    are formats opkg names, left out for the plain positions the sim describes truly."""
    ws = _workspace(tmp_path)

    def t(name, dtypes, formats):
        return {"name": name, "param_type": "required", "dtypes": dtypes, "formats": formats}

    def fake_probe(op, _dirs):
        unit = {"inputs": [t("x", ["float16", "float16"], ["NDC1HWC0", "NCDHW"])],
                "outputs": [t("y", ["float16", "float16"], ["NDC1HWC0", "NCDHW"])]}
        return ({"type": "LeakyScale", "inputs": [t("x", ["DT_UNDEFINED"], ["ND"])],
                 "outputs": [t("y", ["DT_UNDEFINED"], ["ND"])], "attrs": [],
                 "aicore": {"soc_configs": {"ascend910b": unit}}}, [])

    result = R.import_repository(ws / "ops-mini" / "activation" / "leaky_scale",
                                 unit="ascend910b", soc="Ascend910B1",
                                 dest_root=ws / "packages" / "ops_mini",
                                 tree_label="//packages/ops_mini/kernel_tree",
                                 probe=fake_probe)
    one = result.operators[0]
    assert one.skipped is None, one.skipped
    assert "the OpDef's own DataType lists are placeholders: ascend910b's AddConfig lists are " \
           "the operator's" in one.notes
    op = yaml.safe_load((one.dest / "opkg.yaml").read_text())["op"]
    assert op["inputs"] == [{"name": "x", "dtypes": ["float16"], "formats": ["NCDHW"]}]
    assert any("x NDC1HWC0" in n and "left out" in n for n in one.notes), one.notes


def test_outside_an_ops_repository_the_project_import_runs(tmp_path):
    """A directory in no ops repository is an msopgen/cann-ops project (its own errors)."""
    (tmp_path / "Proj").mkdir()
    proc = subprocess.run([sys.executable, "-m", "opkg", "import", str(tmp_path / "Proj"),
                           "--dest", str(tmp_path / "pkg")], capture_output=True, text=True,
                          cwd=tmp_path)
    assert proc.returncode == 2 and "has no op_host/ directory" in proc.stderr, proc.stderr


def test_an_imported_operator_builds_and_verifies_with_the_repositorys_golden(tmp_path):
    """The whole path on the sim: the arch22 tiling (the arch35 one has an #error) calling the
    base library compiled from its sources, the kernel
    including "../inc/..." and "../act_common/..." through the kernel tree, the golden called
    with the test tool's keywords (it asserts them), the ttk rows and tolerances as cases."""
    import json

    ws = _workspace(tmp_path)
    assert _opkg(ws, "import", "ops-mini/activation/leaky_scale", "--base", "ops-base"
                 ).returncode == 0
    proc = _opkg(ws, "build", "//packages/ops_mini/activation/leaky_scale", "--json")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = ws / "out" / "sim" / "leaky_scale" / "Ascend910B1"
    # each ttk row in the variant of the dtypes it names
    for variant, case in (("float16", "leaky_scale_ragged"), ("float32", "leaky_scale_one")):
        report = json.loads((out / variant / "verification.json").read_text())
        assert report["passed"], report
        assert [c["case"] for c in report["results"]] == [case]
    # the lock pins both repositories at the commits the import recorded
    assert _opkg(ws, "lock").returncode == 0
    lock = (ws / "opkg.lock").read_text()
    commit = yaml.safe_load((ws / "packages/ops_mini/activation/leaky_scale/opkg.yaml")
                            .read_text())["origin"]["commit"]
    assert 'name = "ops_mini"' in lock and f'commit = "{commit}"' in lock, lock
    assert 'name = "opbase"' in lock, lock
    # the golden is the repository's file, named by the repository in the verification job:
    # the workspace (its repositories with it) moved elsewhere, the job restored from the cache
    # still finds it
    moved = tmp_path / "moved"
    ws.rename(moved)
    proc = _opkg(moved, "test", "//packages/ops_mini/activation/leaky_scale", "--no-cache")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    job = json.loads((moved / "out/sim/leaky_scale/Ascend910B1/float16/verify-job.json")
                     .read_text())
    assert job["golden"]["file"] == "@ops_mini/activation/leaky_scale/tests/assets/golden.py"


def test_dtype_combinations_opkg_cannot_run_are_left_out_by_name():
    t = lambda name, dtypes: {"name": name, "param_type": "required", "dtypes": dtypes,  # noqa: E731
                              "formats": ["ND"] * len(dtypes)}
    declared = {"type": "Q", "inputs": [t("x", ["float16", "float32", "float16"])],
                "outputs": [t("y", ["int8", "float4_e2m1", "float6_e3m2"])], "attrs": []}
    notes = []
    kept = R._runnable_dtypes(declared, notes)
    assert kept["inputs"][0]["dtypes"] == ["float16"] and kept["outputs"][0]["dtypes"] == ["int8"]
    assert notes == ["OpDef dtype combination 1 left out: float4_e2m1 (no such dtype in opkg)",
                     "OpDef dtype combination 2 left out: float6_e3m2 (no such dtype in opkg)"]
    # every combination unknown: left to the import's error, which names the dtype
    only = {**declared, "inputs": [t("x", ["float32"])], "outputs": [t("y", ["float4_e2m1"])]}
    assert R._runnable_dtypes(only, []) is only


def test_an_ascend_950_import_takes_the_apt_kernel(tmp_path):
    # ops-nn's OpDef names opFile <op>_apt for the 950 (scripts/util/ascendc_impl_build.py):
    # a 950 import compiles op_kernel/<op>_apt.cpp, an operator with no classic kernel included
    ws = _workspace(tmp_path)
    proc = _opkg(ws, "import", "ops-mini/activation", "--base", "ops-base", "--soc", "Ascend950PR_9599")
    assert proc.returncode == 0, proc.stderr
    assert "no classic kernel op_kernel/only_apt.cpp" not in proc.stdout
    manifest = yaml.safe_load((ws / "packages" / "ops_mini" / "activation" / "only_apt" / "opkg.yaml").read_text())
    assert manifest["kernel"]["source"] == "@ops_mini//activation/only_apt/op_kernel/only_apt_apt.cpp"
    # its tests/st/arch35 table is the 950's though its tiling has no op_host/arch35 (ops-nn's glu)
    assert [c["name"] for c in manifest["verify"]["cases"]] == ["only_apt_rows"]
def test_combinations_in_formats_opkg_does_not_run_are_left_out_by_name():
    """A format opkg does not know (the probe spells one the sim cannot name FORMAT_RESERVED;
    ops-nn's cube operators' FRACTAL_Z_3D was one until it was named): such positions go, named;
    with none left, the import says so instead of writing a manifest that cannot load."""
    t = lambda name, dtypes, formats: {"name": name, "param_type": "required",  # noqa: E731
                                       "dtypes": dtypes, "formats": formats}
    declared = {"type": "C", "inputs": [t("x", ["float16", "float32"], ["ND", "FORMAT_RESERVED"])],
                "outputs": [t("y", ["float16", "float32"], ["ND"])], "attrs": []}
    notes = []
    kept = R._runnable_dtypes(declared, notes)
    assert kept["inputs"][0]["formats"] == ["ND"] and kept["inputs"][0]["dtypes"] == ["float16"]
    assert notes == ["OpDef dtype combination 1 left out: format FORMAT_RESERVED (not a format "
                     "opkg runs)"]
    only = {**declared, "inputs": [t("x", ["float16", "float32"], ["FORMAT_RESERVED"])]}
    with pytest.raises(UsageError, match="no combination in formats opkg runs: 0: format "
                                         "FORMAT_RESERVED"):
        R._runnable_dtypes(only, [])


def test_a_spec_class_is_the_kernel_golden_where_golden_py_has_none(tmp_path):
    """ops-nn's matmul operators keep their kernel golden in a test-spec module
    (hicann/ops-nn matmul/mat_mul_v3/tests/assets/mmv3_kernel_golden.py: `__spec__` maps the
    operator to a class whose `golden` is the reference; the aclnn and torch modules beside
    it map API names). Files written here in that form."""
    assets = tmp_path / "mat_like" / "tests" / "assets"
    assets.mkdir(parents=True)
    (assets / "ml_aclnn_golden.py").write_text(
        "class AclnnSpec:\n    @staticmethod\n    def golden(x):\n        return x\n"
        "__spec__ = {'aclnnMatLike': 'AclnnSpec'}\n")
    assert R.find_golden(tmp_path / "mat_like") is None          # an API name, not the kernel
    (assets / "ml_kernel_golden.py").write_text(
        "import numpy as np\nimport en_dtypes\n"
        "class MatLikeSpec:\n    @staticmethod\n    def golden(x1, x2, **kwargs):\n"
        "        return [x1 @ x2]\n"
        "__spec__ = {'mat_like': 'MatLikeSpec'}\n")
    golden = R.find_golden(tmp_path / "mat_like")
    assert (golden.file.name, golden.function, golden.requires) == \
        ("ml_kernel_golden.py", "MatLikeSpec.golden", ("en_dtypes",))
    # a class without a golden method is no golden
    (assets / "ml_kernel_golden.py").write_text("class MatLikeSpec:\n    compare = None\n"
                                                "__spec__ = {'mat_like': 'MatLikeSpec'}\n")
    assert R.find_golden(tmp_path / "mat_like") is None
    # golden.py's __golden__ mapping comes first
    (assets / "golden.py").write_text("__golden__ = {'kernel': {'mat_like': 'g'}}\n"
                                      "def g(x1, x2):\n    return x1\n")
    assert R.find_golden(tmp_path / "mat_like").function == "g"


def test_a_helper_module_of_the_repository_is_no_requirement_its_imports_are(tmp_path):
    """ops-nn's matmul kernel goldens put `../../../common/tests/st/arch35` (relative to
    themselves) on sys.path and import `matmul_golden_util` from there, which imports
    en_dtypes (hicann/ops-nn matmul/mat_mul_v3/tests/assets/mmv3_kernel_golden.py). Written
    here in that form."""
    helpers = tmp_path / "matmul" / "common" / "tests"
    helpers.mkdir(parents=True)
    (helpers / "mm_util.py").write_text("import ast\nimport en_dtypes\nimport numpy as np\n")
    assets = tmp_path / "matmul" / "mat_like" / "tests" / "assets"
    assets.mkdir(parents=True)
    (assets / "ml_kernel_golden.py").write_text(
        "import os\nimport sys\n"
        "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '../../../common/tests'))\n"
        "import mm_util\n"
        "class Spec:\n    @staticmethod\n    def golden(x1, x2, **kwargs):\n        return [x1 @ x2]\n"
        "__spec__ = {'mat_like': 'Spec'}\n")
    assert R.find_golden(tmp_path / "matmul" / "mat_like").requires == ("en_dtypes",)


def _bare_operator(d, *host_files):
    """An operator directory with empty op_host sources `host_files` and an op_kernel/."""
    (d / "op_kernel").mkdir(parents=True)
    (d / "op_host").mkdir()
    for f in host_files:
        (d / "op_host" / f).write_text("")
    return d


def test_the_familys_common_module_is_built_into_every_operator_of_the_family(tmp_path):
    """ops-nn's matmul/common/op_host/CMakeLists.txt is an add_modules_sources call of its own
    (OPTYPE common) whose infershape and op_tiling sources (matmul_common_infershape.cpp's
    InferShapeForBatchMatMul, op_tiling/debug_tiling.cpp's DebugTilingContext) the matmul
    operators call: CANN builds them into the same host library. Written here in that layout."""
    (tmp_path / "cmake").mkdir()
    (tmp_path / "cmake" / "func.cmake").write_text("function(add_modules_sources)\nendfunction()\n")
    (tmp_path / "common" / "inc").mkdir(parents=True)
    shared = tmp_path / "mm" / "common" / "op_host"
    (shared / "op_tiling").mkdir(parents=True)
    (shared / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE common ACLNNTYPE aclnn_exclude)\n")
    for f in ("mm_common_infershape.cpp", "op_tiling/debug_tiling.cpp"):
        (shared / f).write_text("")
    (shared / "op_api").mkdir()
    (shared / "op_api" / "mm_util.cpp").write_text("")       # the aclnn layer: not a host source
    op = tmp_path / "mm" / "mm_x"
    (op / "op_kernel").mkdir(parents=True)
    (op / "op_host").mkdir()
    for f in ("mm_x_def.cpp", "mm_x_tiling.cpp"):
        (op / "op_host" / f).write_text("")
    read = R.read_operator(R.open_repository(op), op, "ascend910b")
    assert [p.relative_to(tmp_path.resolve()).as_posix() for p in read.host_sources] == [
        "mm/mm_x/op_host/mm_x_def.cpp", "mm/mm_x/op_host/mm_x_tiling.cpp",
        "mm/common/op_host/mm_common_infershape.cpp", "mm/common/op_host/op_tiling/debug_tiling.cpp"]
    assert shared.resolve() in read.include_dirs
    # a family without such a module: nothing added
    (shared / "CMakeLists.txt").unlink()
    read = R.read_operator(R.open_repository(op), op, "ascend910b")
    assert len(read.host_sources) == 2
    # another family's operator names it `mm.common` in its DEPENDENCIES (ops-nn's
    # scripts/util/dependency_parser.py: a family's OPTYPE common module is <family>.common;
    # pooling/avg_pool3_d depends on matmul.common)
    (shared / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE common ACLNNTYPE aclnn_exclude)\n")
    pool = _bare_operator(tmp_path / "pool" / "pool_x", "pool_x_def.cpp")
    (pool / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE pool_x ACLNNTYPE aclnn_exclude DEPENDENCIES mm.common)\n")
    read = R.read_operator(R.open_repository(pool), pool, "ascend910b")
    assert [p.relative_to(tmp_path.resolve()).as_posix() for p in read.host_sources] == [
        "pool/pool_x/op_host/pool_x_def.cpp", "mm/common/op_host/mm_common_infershape.cpp",
        "mm/common/op_host/op_tiling/debug_tiling.cpp"]
    # DEPENDENCIES are followed transitively, each dependency's family module with it, as
    # dependency_parser.py resolves them (ops-nn's adaptive_avg_pool2d names batch_mat_mul_v3,
    # which names mat_mul_v3 and needs matmul's common module)
    (op / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE mm_x ACLNNTYPE aclnn_exclude DEPENDENCIES mm_w)\n")
    _bare_operator(tmp_path / "mm" / "mm_w", "mm_w_def.cpp", "mm_w_tiling.cpp")
    (pool / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE pool_x ACLNNTYPE aclnn_exclude DEPENDENCIES mm_x)\n")
    read = R.read_operator(R.open_repository(pool), pool, "ascend910b")
    assert [p.relative_to(tmp_path.resolve()).as_posix() for p in read.host_sources] == [
        "pool/pool_x/op_host/pool_x_def.cpp", "mm/mm_x/op_host/mm_x_tiling.cpp",
        "mm/common/op_host/mm_common_infershape.cpp", "mm/common/op_host/op_tiling/debug_tiling.cpp",
        "mm/mm_w/op_host/mm_w_tiling.cpp"]
    # a family's common module with its CMakeLists.txt in common/ and no op_host/ (ops-nn's
    # loss/common: a header): no source, and no include directory that is not there
    loss_common = tmp_path / "loss" / "common"
    loss_common.mkdir(parents=True)
    (loss_common / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE common ACLNNTYPE aclnn_exclude)\n")
    (loss_common / "base_loss.h").write_text("")
    loss = tmp_path / "loss" / "loss_x"
    (loss / "op_kernel").mkdir(parents=True)
    (loss / "op_host").mkdir()
    (loss / "op_host" / "loss_x_def.cpp").write_text("")
    read = R.read_operator(R.open_repository(loss), loss, "ascend910b")
    assert len(read.host_sources) == 1
    assert all(d.is_dir() for d in read.include_dirs)
    assert loss.parent.resolve() in read.include_dirs


def test_the_own_apis_st_executor_that_zeroes_outputs_after_the_call(tmp_path):
    """ops-nn's ST executors post-process the device output in after_call; one that zeroes
    elements (`t[k:] = 0`, `t.zero_()`, `t.fill_(0)`) there is the evidence for zero-filled
    output buffers. Only the operator's own API (aclnn<Type> without a version suffix) counts,
    and only in after_call."""
    assert R.zeroed_outputs(OP, "LeakyScale") == (
        OP / "tests/st/aclnnLeakyScale/executor_aclnnLeakyScale.py", 17)
    assert R.zeroed_outputs(OP, "LeakyScaleV2") is not None      # aclnnLeakyScale is its API
    assert R.zeroed_outputs(OP, "OtherOp") is None

    def executor(api, body):
        d = tmp_path / api
        (d / "tests" / "st" / api).mkdir(parents=True)
        (d / "tests" / "st" / api / f"executor_{api}.py").write_text(
            "class E:\n" + body)
        return d
    before = executor("aclnnMy", "    def init_by_input_data(self, d):\n        d[0][1:] = 0\n"
                                 "    def after_call(self, out):\n        return out\n")
    assert R.zeroed_outputs(before, "My") is None
    whole = executor("aclnnWhole", "    def after_call(self, out):\n        out[1].zero_()\n"
                                   "        return out\n")
    assert R.zeroed_outputs(whole, "Whole")[1] == 3
    other = executor("aclnnFill", "    def after_call(self, out):\n        out[1].fill_(2)\n"
                                  "        out[0][:] = 1\n        return out\n")
    assert R.zeroed_outputs(other, "Fill") is None


def test_borrowed_rows_keep_to_the_values_the_api_documents(tmp_path):
    """ops-nn's cross_entropy_loss_grad: its aclnn document says labelSmoothing takes 0.0 only
    (docs/aclnnCrossEntropyLossGrad.md), the 950's table tests 0.3 as well, and the 910B kernel
    never queues its output for it. A borrowed row with another value is not taken (said); a
    parameter the document allows a list of values for, or no value, constrains nothing; the
    SoC's own table is the contract and keeps its rows."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "aclnnFx.md").write_text(
        "# aclnnFx\n<table><tbody>\n"
        "      <tr>\n        <td>labelSmoothing（double）</td>\n        <td>输入</td>\n"
        "        <td>当前仅支持输入0.0。</td>\n      </tr>\n"
        "      <tr>\n        <td>mode（int64_t）</td>\n        <td>当前仅支持取值为0, 1。</td>\n"
        "      </tr>\n</tbody></table>\n")
    _table(tmp_path, "testcase_name,input_shapes,attributes,soc_series\n"
           "plain,\"((2, 3),)\",\"{'label_smoothing': 0.0, 'mode': 1}\",\n"
           "smoothed,\"((2, 3),)\",\"{'label_smoothing': 0.3, 'mode': 0}\",\n"
           "default,\"((4, 3),)\",\"{'mode': 1}\",\n", arch="arch35")
    op = _op(attrs=[{"name": "label_smoothing", "type": "float", "default": 0.0},
                    {"name": "mode", "type": "int", "default": 0}])
    assert ttk.documented_only_values(tmp_path, op) == {
        "label_smoothing": (0.0, "docs/aclnnFx.md:6")}
    cases = ttk.ttk_cases(tmp_path, op, "Ascend910B", "arch22")
    assert [c["name"] for c in cases.cases] == ["plain", "default"]
    assert cases.skipped == ["smoothed: label_smoothing 0.3, where docs/aclnnFx.md:6 says only 0 "
                             "is supported"]
    assert [c["name"] for c in ttk.ttk_cases(tmp_path, op, "Ascend950", "arch35").cases] == [
        "plain", "smoothed", "default"]
