"""Reading an OpDef from its source text (opkg/importers/opdef.py `parse_opdef_text`), the import's
fallback when host sources do not compile on the sim: literal lists are read, everything else is
named, never guessed."""

from __future__ import annotations

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
    assert why == ["OpDef MyOp in computed.cpp: input 'x' has a computed DataType list",
                   "OpDef MyOp in string.cpp: input 'x' has dtype ge::DT_STRING, which opkg "
                   "does not support"]


def test_an_opdef_without_outputs_is_read(tmp_path):
    # an operator that rewrites its inputs: import writes it with verify.inplace, whether the
    # OpDef is read by compiling or, as here, from the text
    src = tmp_path / "my_op.cpp"
    src.write_text(SOURCE.replace('this->Output("y")', 'this->Input("y")'))
    ops, why = parse_opdef_text([src])
    assert why == []
    assert [t["name"] for t in ops[0]["inputs"]] == ["x", "bias", "y"] and ops[0]["outputs"] == []
