// Test operator for CANN's AOE tuning registries on the sim's host (register/tuning_tiling_registry.h,
// register/tuning_bank_key_registry.h), as cann-ops' shared op_tiling/aoe sources use them: a tuning
// struct with a nested one, registered per op type and created through the factory, goes to JSON
// and back; a bank key struct goes to its text and back through the registered functions. Its
// InferDataType is CANN's ready-made InferOutDataTypeSameWithFirstInput: y takes x's int32, which
// the OpDef's float32 for y contradicts on purpose (the test sees which one InferDataType gives).
#include "tuning_probe_tiling.h"
#include "register/op_def_registry.h"
#include "register/tuning_bank_key_registry.h"
#include "register/tuning_tiling_registry.h"

namespace tuningtiling {
BEGIN_TUNING_TILING_DEF(ProbeInner)
  TUNING_TILING_DATA_FIELD_DEF(uint8_t, k);
END_TUNING_TILING_DEF
DECLARE_SCHEMA(ProbeInner, FIELD(ProbeInner, k));

BEGIN_TUNING_TILING_DEF(ProbeTunnerTiling)
  TUNING_TILING_DATA_FIELD_DEF(uint32_t, m);
  TUNING_TILING_DATA_FIELD_DEF(uint64_t, n);
  TUNING_TILING_DATA_FIELD_DEF(ProbeInner, inner);
END_TUNING_TILING_DEF
DECLARE_SCHEMA(ProbeTunnerTiling, FIELD(ProbeTunnerTiling, m), FIELD(ProbeTunnerTiling, n),
               FIELD(ProbeTunnerTiling, inner));
REGISTER_TUNING_TILING_CLASS(TuningProbe, ProbeTunnerTiling);

struct ProbeBankKey {
    int32_t a = 0;
    int32_t b = 0;
};
DECLARE_STRUCT_RELATE_WITH_OP_V2(TuningProbe, ProbeBankKey, a, b);
}  // namespace tuningtiling

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    using namespace tuningtiling;
    TuningProbeTilingData tiling;
    auto made = TuningTilingClassFactory::CreateTilingDataInstance("TuningProbe");
    auto* src = static_cast<ProbeTunnerTiling*>(made.get());
    src->m = 3;
    src->n = 5;
    src->inner.k = 7;
    nlohmann::json j;
    src->ToJson(j);
    ProbeTunnerTiling copy;
    copy.FromJson(nlohmann::json::parse(j.dump()));
    tiling.set_tiling(static_cast<int32_t>(copy.m * 100 + copy.n * 10 + copy.inner.k));
    tiling.set_fields(static_cast<int32_t>(copy.GetItemInfo().size()));

    auto& funcs = OpBankKeyFuncRegistryV2::RegisteredOpFuncInfoV2();
    auto it = funcs.find(ge::AscendString("TuningProbe"));
    int32_t key = -1;
    if (it != funcs.end()) {
        auto in = std::make_shared<ProbeBankKey>();
        in->a = 2;
        in->b = 9;
        std::shared_ptr<void> args = in;
        ge::AscendString text;
        std::shared_ptr<void> back;
        size_t len = 0;
        if (it->second.GetBankKeyParseFuncV2()(args, sizeof(ProbeBankKey), text) &&
            it->second.GetBankKeyLoadFuncV2()(back, len, text)) {
            auto got = std::static_pointer_cast<ProbeBankKey>(back);
            key = got->a * 10 + got->b;
        }
    }
    tiling.set_bankKey(key);
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShapeTuningProbe(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace gert {
IMPL_OP_INFERSHAPE(TuningProbe).InferShape(ge::InferShapeTuningProbe).InferOutDataTypeSameWithFirstInput();
}  // namespace gert

namespace ops {
class TuningProbe : public OpDef {
public:
    explicit TuningProbe(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(TuningProbe);
}  // namespace ops
