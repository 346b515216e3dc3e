"""Reading an OpDef from its source text (opkg/importers/opdef.py `parse_opdef_text`), the import's
fallback when host sources do not compile on the sim: literal lists are read, everything else is
named, never guessed."""

from __future__ import annotations

from pathlib import Path

from opkg.importers.opdef import parse_opdef_text, to_manifest_op

SOURCE = """\
#include "register/op_def_registry.h"
namespace ops {
class MyOp : public OpDef {
public:
    explicit MyOp(const char* name) : OpDef(name)
    {
        this->Input("x")       // the data
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("axes").AttrType(OPTIONAL).ListInt({-1, 0});
        this->Attr("mode").AttrType(OPTIONAL).String("mean");
        this->Attr("k").Int();     /* no AttrType: required, as CANN's default */
        this->SetInferShape(ge::InferShape);
        OpAICoreConfig config;
        config.Input("x").DataType({ge::DT_FLOAT16});   // a per-SoC config, not the prototype
        this->AICore().AddConfig("ascend910b").AddConfig("ascend310p", config);
    }
};
OP_ADD(MyOp);
}
"""


def test_literal_opdef_is_read(tmp_path):
    src = tmp_path / "my_op.cpp"
    src.write_text(SOURCE)
    ops, why = parse_opdef_text([src])
    assert why == []
    op = to_manifest_op(ops[0])
    assert op["type"] == "MyOp" and op["has_infer_shape"]
    assert op["configs"] == ["ascend910b", "ascend310p"]
    assert op["inputs"] == [
        {"name": "x", "dtypes": ["float16", "float32", "bfloat16"], "formats": ["ND"]},
        {"name": "bias", "dtypes": ["float16", "float32", "bfloat16"], "formats": ["ND"],
         "param_type": "optional"}]
    assert op["outputs"] == [{"name": "y", "dtypes": ["float16", "float32", "bfloat16"],
                              "formats": ["ND"]}]
    assert op["attrs"] == [
        {"name": "eps", "type": "float", "default": 1e-5},
        {"name": "axes", "type": "list_int", "default": [-1, 0]},
        {"name": "mode", "type": "str", "default": "mean"},
        {"name": "k", "type": "int", "required": True}]


def test_what_cannot_be_read_is_named(tmp_path):
    computed = tmp_path / "computed.cpp"
    computed.write_text(SOURCE.replace("DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})\n"
                                       "            .Format", "DataType(kTypes)\n            .Format", 1))
    string = tmp_path / "string.cpp"      # a dtype opkg does not have (double it has)
    string.write_text(SOURCE.replace("ge::DT_BF16", "ge::DT_STRING"))
    ops, why = parse_opdef_text([computed, string])
    assert ops == []
    assert why == ["OpDef MyOp in computed.cpp:9: input 'x' has a computed DataType list (kTypes)",
                   "OpDef MyOp in string.cpp:9: input 'x' has dtype ge::DT_STRING, which opkg "
                   "does not support"]


def test_an_opdef_without_outputs_is_read(tmp_path):
    # an operator that rewrites its inputs: import writes it with verify.inplace, whether the
    # OpDef is read by compiling or, as here, from the text
    src = tmp_path / "my_op.cpp"
    src.write_text(SOURCE.replace('this->Output("y")', 'this->Input("y")'))
    ops, why = parse_opdef_text([src])
    assert why == []
    assert [t["name"] for t in ops[0]["inputs"]] == ["x", "bias", "y"] and ops[0]["outputs"] == []


def test_lists_of_different_lengths_are_named_not_an_index_error(tmp_path):
    """Found by `make fuzz` (tests/fuzz/corpus/opdef/format-list-short.cpp): three dtypes and
    two formats made to_manifest_op raise IndexError."""
    src = tmp_path / "my_op.cpp"
    src.write_text(SOURCE.replace(
        'DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})\n            .Format({ge::FORMAT_ND, '
        'ge::FORMAT_ND, ge::FORMAT_ND});\n        this->Attr("eps")',
        'DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})\n            .Format({ge::FORMAT_ND, '
        'ge::FORMAT_ND});\n        this->Attr("eps")', 1))
    ops, why = parse_opdef_text([src])
    assert ops == []
    assert why == ["OpDef MyOp in my_op.cpp:13: output 'y' lists 3 dtypes and 2 formats; they pair "
                   "up by position"]
    # a compiled OpDef's lists reach to_manifest_op directly: an error, not an IndexError
    import pytest

    from opkg.core.errors import UsageError

    declared = {"type": "MyOp", "inputs": [{"name": "x", "dtypes": ["float16", "float32"],
                                             "formats": ["ND", "ND"], "param_type": "required"}],
                "outputs": [{"name": "y", "dtypes": ["float16", "float32", "bfloat16"],
                             "formats": [], "param_type": "required"}],
                "attrs": [], "has_infer_shape": True, "aicore": {"configs": []}}
    with pytest.raises(UsageError, match="lists differ in length"):
        to_manifest_op(declared)


# -- OpDefs as ops-nn writes them (tests/fixtures/opdef_text, each naming the file it mirrors) --

FIXTURES = Path(__file__).parent / "fixtures" / "opdef_text"
EVALUATED = ["named_lists_def.cpp", "local_lists_def.cpp", "expression_defaults_def.cpp"]


def _text_ops(names):
    ops, why = parse_opdef_text([FIXTURES / n for n in names])
    return {o["type"]: to_manifest_op(o) for o in ops}, why


def test_named_and_local_lists_and_per_soc_configs_are_evaluated():
    ops, why = _text_ops(EVALUATED[:2])
    assert why == []
    named = ops["NamedLists"]
    assert [t["dtypes"] for t in named["inputs"]] == [
        ["float16", "float32", "int32"] * 2, ["int32"] * 3 + ["int64"] * 3]
    # a config with only flags adds a SoC; one with lists of its own is that SoC's prototype
    assert named["configs"] == ["ascend910b", "ascend910_93", "ascend950"]
    assert list(named["soc_configs"]) == ["ascend950"]
    assert named["soc_configs"]["ascend950"]["inputs"][0]["dtypes"] == ["float16", "float32", "int8", "float64"]
    local = ops["LocalLists"]
    assert local["inputs"] == [{"name": "x", "dtypes": ["float16", "float32", "bfloat16"], "formats": ["ND"],
                                "param_type": "dynamic"}]
    # the config a member function builds and returns
    assert local["soc_configs"] == {"ascend310p": {
        "inputs": [{"name": "x", "dtypes": ["float16", "float32"], "formats": ["ND"], "param_type": "dynamic"}],
        "outputs": [{"name": "y", "dtypes": ["float16", "float32"], "formats": ["ND"], "param_type": "dynamic"}]}}


def test_expression_defaults_are_evaluated_not_made_required():
    ops, why = _text_ops(EVALUATED[2:])
    assert why == []
    assert {a["name"]: a.get("default", "REQUIRED") for a in ops["ExpressionDefaults"]["attrs"]} == {
        "alpha": 0.16666667,        # 1.0f / 6.0f, as the float the OpDef holds
        "block": 32, "half_block": 15, "limit": 0.0,
        "dst_type": 2,              # ge::DT_INT8
        "scale": -6.0, "round_mode": "rint", "sym": True}


def test_what_the_text_does_not_determine_is_named_with_file_and_line():
    ops, why = _text_ops(["expression_gaps_def.cpp", "gaps_list_def.cpp"])
    assert ops == {}
    assert why == [
        "OpDef ExpressionGaps in expression_gaps_def.cpp:13: attr 'axis' default `SHARED_AXIS`: "
        "SHARED_AXIS is not defined in this file (a constant of another header?)",
        "OpDef GapsList in gaps_list_def.cpp:13: input 'x' has a computed DataType list (types)"]


def test_text_reading_agrees_with_the_compiled_opdefs():
    # the compiled OpDef (the sim's registry, as the import reads it first) is the reference
    from opkg.importers.opdef import read_opdefs

    probe = read_opdefs([FIXTURES / n for n in EVALUATED + ["expression_gaps_def.cpp"]], [FIXTURES], FIXTURES)
    compiled = {o["type"]: to_manifest_op(o) for o in probe.ops}
    text, _ = _text_ops(EVALUATED)
    assert set(compiled) == {*text, "ExpressionGaps"}
    for name, op in text.items():
        assert op == compiled[name], name
    # what the text could not tell, the compiler knows: the other header's constant
    assert compiled["ExpressionGaps"]["attrs"] == [{"name": "axis", "type": "int", "default": 3}]


def test_an_attr_named_twice_is_one_attr_with_the_last_definition():
    from opkg.importers.opdef import read_opdefs

    probe = read_opdefs([FIXTURES / "attr_twice_def.cpp"], [FIXTURES], FIXTURES)
    [op] = [to_manifest_op(o) for o in probe.ops]
    assert op["attrs"] == [{"name": "axis", "type": "int", "default": 0},
                           {"name": "sqrt_mode", "type": "bool", "default": False}]


def test_bin_query_lists_leave_the_opdefs_own_lists_as_they_are():
    from opkg.importers.opdef import read_opdefs

    probe = read_opdefs([FIXTURES / "bin_query_def.cpp"], [FIXTURES], FIXTURES)
    [op] = [to_manifest_op(o) for o in probe.ops]
    assert op["inputs"] == [{"name": "x", "dtypes": ["int16", "int32"], "formats": ["ND"]}]


def test_addconfig_takes_the_config_as_it_is_at_the_call(tmp_path):
    """CANN's AddConfig stores a copy of the OpAICoreConfig: lists given to the config after the
    call belong to later AddConfig calls only (cann-ops' BatchMatMulV3 adds its config to
    ascend910b first, then sets dtype lists on it)."""
    src = tmp_path / "my_op.cpp"
    src.write_text(SOURCE.replace(
        '''        OpAICoreConfig config;
        config.Input("x").DataType({ge::DT_FLOAT16});   // a per-SoC config, not the prototype
        this->AICore().AddConfig("ascend910b").AddConfig("ascend310p", config);''',
        '''        OpAICoreConfig config;
        this->AICore().AddConfig("ascend910b", config);
        config.Input("x").DataType({ge::DT_FLOAT16});
        this->AICore().AddConfig("ascend310p", config);'''))
    ops, why = parse_opdef_text([src])
    assert why == []
    assert list(ops[0]["aicore"]["soc_configs"]) == ["ascend310p"]
    assert ops[0]["aicore"]["soc_configs"]["ascend310p"]["inputs"][0]["dtypes"] == ["float16"]
