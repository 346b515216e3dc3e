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

OP_ADD(MyOp);
}
