"""The compat case-module checker (bench/compat/check_modules.py) and its OpDef scanner read a
cann-ops style project the way the harness needs: names, dynamic/optional params, dtypes per
variant, attrs; and they catch what a wrong module would break (a misspelt tensor, a golden whose
parameters are not the OpDef's inputs, a golden that fails on the case's inputs).
The projects here are small stand-ins written for the test, not corpus code."""

import sys
import textwrap
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench" / "compat"))

from check_modules import check_module  # noqa: E402
from opdef_scan import scan  # noqa: E402

OPDEF = """\
namespace ops {
class ScaleAdd : public OpDef {
public:
    explicit ScaleAdd(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Input("bias")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("mode").String();
    }
};
OP_ADD(ScaleAdd);
}
"""

HEADER = """\
#define FOREACH_OPDEF_PARAM_TENSORLIST(PARAM_TYPE, NAME) this->PARAM_TYPE(#NAME).ParamType(DYNAMIC);
#define FOREACH_OPDEF_PARAM_SCALAR(PARAM_TYPE, NAME) this->PARAM_TYPE(#NAME).Scalar();
#define FOREACH_BINARY_SCALAR_PARAM(...)                \\
    FOREACH_TENSOR_DTYPE_AND_FORMAT_PREPARE(__VA_ARGS__)\\
    FOREACH_OPDEF_PARAM_TENSORLIST(Input, x)            \\
    FOREACH_OPDEF_PARAM_SCALAR(Input, scalar)           \\
    FOREACH_OPDEF_PARAM_TENSORLIST(Output, y)
"""


def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "src/math/scale_add/op_host").mkdir(parents=True)
    (root / "src/math/scale_add/op_host/scale_add.cpp").write_text(OPDEF)
    (root / "src/foreach/foreach_mul_scalar/op_host").mkdir(parents=True)
    (root / "src/foreach/foreach_mul_scalar/op_host/foreach_mul_scalar.cpp").write_text(
        "namespace ops {\nFOREACH_OPDEF(HOST_CONFIG, BINARY_SCALAR, MulScalar, ge::DT_FLOAT16, "
        "ge::DT_INT32)\n}\n")
    (root / "src/common/inc/foreach").mkdir(parents=True)
    (root / "src/common/inc/foreach/foreach_proto_utils.h").write_text(HEADER)
    return root


def module(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / "mods" / f"{name}.py"
    p.parent.mkdir(exist_ok=True)
    p.write_text(textwrap.dedent(body))
    return p


def test_scan_reads_names_kinds_dtypes_and_attrs(tmp_path):
    op = scan(corpus(tmp_path) / "src/math/scale_add")
    assert op.op_type == "ScaleAdd"
    assert [(p.name, p.kind, p.dtypes) for p in op.inputs] == [
        ("x", "required", ["float16", "float32"]), ("bias", "optional", ["float16", "float32"])]
    assert [p.name for p in op.outputs] == ["y"]
    # CANN's attr default is REQUIRED: only the AttrType(OPTIONAL) one is optional
    assert [(a.name, a.type, a.required) for a in op.attrs] == [("alpha", "float", False),
                                                                ("mode", "str", True)]


def test_scan_expands_foreach_macros_with_scalar_dtypes(tmp_path):
    op = scan(corpus(tmp_path) / "src/foreach/foreach_mul_scalar")
    assert op.op_type == "ForeachMulScalar"
    assert [(p.name, p.kind, p.dtypes) for p in op.inputs] == [
        ("x", "dynamic", ["float16", "int32"]), ("scalar", "required", ["float32", "int64"])]
    assert [(p.name, p.kind) for p in op.outputs] == [("y", "dynamic")]


GOOD = '''\
    """ScaleAdd: y = alpha * x + bias."""
    import numpy as np
    PATH = "src/math/scale_add"
    CASES = [{"name": "c", "shapes": {"x": [4, 8], "bias": [4, 8]}, "attrs": {"mode": "a"}, "ranges": {}}]
    def golden(x, bias, *, alpha=1.0, mode):
        return alpha * x.astype(np.float32) + bias
    OUT_OF_SCOPE = None
    '''


def test_a_correct_module_passes(tmp_path):
    root = corpus(tmp_path)
    assert check_module(module(tmp_path, "scale_add", GOOD), root) == []


def test_wrong_tensor_name_missing_required_attr_and_golden_args_are_reported(tmp_path):
    root = corpus(tmp_path)
    bad = GOOD.replace('"bias": [4, 8]}, "attrs": {"mode": "a"}', '"b": [4, 8]}, "attrs": {}')
    bad = bad.replace("def golden(x, bias,", "def golden(x, b,")
    errs = "\n".join(check_module(module(tmp_path, "scale_add", bad), root))
    assert "shape for 'b', not an input of ScaleAdd (x, bias)" in errs
    assert "required attr 'mode' has no value" in errs
    assert "golden takes (x, b); the OpDef inputs are (x, bias)" in errs


def test_a_golden_that_fails_on_the_case_inputs_is_reported(tmp_path):
    root = corpus(tmp_path)
    bad = GOOD.replace("return alpha * x.astype(np.float32) + bias", "return x @ bias")
    errs = "\n".join(check_module(module(tmp_path, "scale_add", bad), root))
    assert "golden raised ValueError" in errs


def test_dynamic_inputs_need_one_shape_per_tensor_and_a_list_output(tmp_path):
    root = corpus(tmp_path)
    body = '''\
        import numpy as np
        PATH = "src/foreach/foreach_mul_scalar"
        CASES = [{"name": "c", "shapes": {"x": [[3], [5, 2]], "scalar": [1]}, "ranges": {}}]
        def golden(x, scalar):
            return [t * scalar[0] for t in x]
        OUT_OF_SCOPE = None
        '''
    assert check_module(module(tmp_path, "foreach_mul_scalar", body), root) == []
    flat = body.replace('"x": [[3], [5, 2]]', '"x": [3, 5]')
    errs = "\n".join(check_module(module(tmp_path, "foreach_mul_scalar", flat), root))
    assert "dynamic input 'x' takes one shape per tensor" in errs
    single = body.replace("return [t * scalar[0] for t in x]", "return x[0] * scalar[0]")
    errs = "\n".join(check_module(module(tmp_path, "foreach_mul_scalar", single), root))
    assert "dynamic output 'y' must be a list of 2 arrays" in errs


def test_exact_values_are_a_case_key_and_must_fill_the_shape(tmp_path):
    root = corpus(tmp_path)
    given = GOOD.replace('"ranges": {}}', '"ranges": {}, "values": {"x": list(range(32))}}')
    assert check_module(module(tmp_path, "scale_add", given), root) == []
    short = given.replace("list(range(32))", "[1, 2, 3]")
    errs = "\n".join(check_module(module(tmp_path, "scale_add", short), root))
    assert "3 values for 'x' of shape [4, 8], which has 32 elements" in errs


def test_per_variant_attr_names_the_missing_variant_not_the_golden(tmp_path):
    root = corpus(tmp_path)
    both = GOOD.replace('"mode": "a"', '"mode": {"per_variant": {"float16": "a", "float32": "b"}}')
    assert check_module(module(tmp_path, "scale_add", both), root) == []
    one = both.replace(', "float32": "b"', "")
    errs = "\n".join(check_module(module(tmp_path, "scale_add", one), root))
    assert ("attr 'mode': per_variant has no value for variant(s) float32; give one per dtype "
            "variant: float16, float32") in errs
    assert "golden raised" not in errs


def test_inplace_inputs_follow_the_outputs_in_what_the_golden_returns(tmp_path):
    root = corpus(tmp_path)
    inplace = GOOD.replace("OUT_OF_SCOPE = None", 'OUT_OF_SCOPE = None\n    INPLACE = ["x"]')
    errs = "\n".join(check_module(module(tmp_path, "scale_add", inplace), root))
    assert "golden returned 1 outputs, expected 2 (y, x)" in errs
    both = inplace.replace("return alpha * x.astype(np.float32) + bias",
                           "return alpha * x.astype(np.float32) + bias, x * 2")
    assert check_module(module(tmp_path, "scale_add", both), root) == []
    wrong = both.replace('INPLACE = ["x"]', 'INPLACE = ["z"]')
    errs = "\n".join(check_module(module(tmp_path, "scale_add", wrong), root))
    assert "INPLACE names 'z', not an input of ScaleAdd (x, bias)" in errs


def test_output_shapes_are_checked_against_the_golden(tmp_path):
    root = corpus(tmp_path)
    stated = GOOD.replace('"ranges": {}}', '"ranges": {}, "output_shapes": {"y": [4, 8]}}')
    assert check_module(module(tmp_path, "scale_add", stated), root) == []
    wrong = stated.replace('"y": [4, 8]', '"y": [4, 9]')
    errs = "\n".join(check_module(module(tmp_path, "scale_add", wrong), root))
    assert "output 'y' has shape [4, 8], output_shapes says [4, 9]" in errs


def test_shared_text_is_inlined_so_the_copied_module_stands_alone(tmp_path):
    root = corpus(tmp_path)
    from check_modules import main, module_source

    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "_shared.py").write_text(
        "import numpy as np\n\n\ndef scaled(x, alpha):\n    return alpha * x.astype(np.float32)\n")
    path = module(tmp_path, "scale_add", GOOD.replace(
        "import numpy as np", "import numpy as np\n    from _shared import scaled").replace(
        "return alpha * x.astype(np.float32) + bias", "return scaled(x, alpha) + bias"))
    assert check_module(path, root) == []
    # what the harness writes into the package as compat_golden.py: no import of _shared left
    text = module_source(path)
    assert "from _shared" not in text and "def scaled(x, alpha):" in text
    standalone = tmp_path / "compat_golden.py"
    standalone.write_text(text)
    ns: dict = {}
    exec(compile(text, str(standalone), "exec"), ns)
    assert ns["golden"](np.ones(2), np.ones(2), mode="a").tolist() == [2.0, 2.0]
    # a module defining a name of _shared.py again is told to rename it
    again = path.read_text() + "\ndef scaled(x, alpha):\n    return x\n"
    errs = "\n".join(check_module(module(tmp_path, "scale_add", again), root))
    assert "defines scaled, which _shared.py defines too" in errs
    path.write_text(again.rsplit("\ndef scaled", 1)[0] + "\n")
    # _shared.py is not a module of an operator: main does not check it
    assert main(["--corpus", str(root), "--modules", str(tmp_path / "mods"), "-q"]) == 0
