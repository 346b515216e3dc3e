"""More of the host API that ops-nn and its base library opbase use (tests/sim/pkgs/repoview,
written here in the style of ops-nn's operators): gert::Stride and the view queries of
TilingContext that opbase's atvoss tiling calls (a contiguous tensor: no view, no stride, offset
-1), StorageShape::GetShape and ==, fe::PlatformInfoManager with fe::PlatformInfo,
acl/acl_rt.h's aclsysGetVersionNum (no package installed), GetComputeNodeOutputNum of the
InferShape and InferDataType contexts, and an IR prototype (graph/operator_reg.h's REG_OP) that
the tiling header includes, so both the host and the kernel build read it. A prototype whose
closing name or attribute default is wrong fails to compile, as CANN's does.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import flags, runtime
import simbuild

OP = OpSpec("RepoView", (TensorSpec("x", ("float32",)),),
            (TensorSpec("y", ("float32",)), TensorSpec("info", ("int32",))),
            (AttrSpec("scale", "int", required=True),))


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "repoview", OP, OP.variants()[0], soc910b, lib_cache, stem="repo_view")


def test_host_api_answers_as_for_a_contiguous_tensor_on_the_soc(built, soc910b):
    x = np.linspace(-2, 2, 200, dtype=np.float32)
    y = np.zeros_like(x)
    info = np.zeros(8, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"y": y, "info": info},
                     {"scale": 3})
    np.testing.assert_array_equal(y, x * 3)
    # no view; Stride{8,1}+1: 3 dims, first 8; PlatformInfo's ai_core_cnt is the SoC's AI Cores;
    # aclsysGetVersionNum fails (-1); same shape; 2 default axes; dst_type DT_FLOAT (0); alpha 1.702
    assert list(info) == [0, 38, soc910b.cube_cores, -1, 1, 2, 0, 1702]


def test_infer_shape_and_dtype_count_the_node_outputs(built):
    shapes = runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (4, 50)}, {"scale": 1})
    assert shapes["y"][0] == (4, 50) and shapes["info"][0] == (8,)


PROTO = """#include "graph/operator_reg.h"
namespace ge {{
REG_OP(Good)
    .INPUT(x, TensorType({{DT_FLOAT}}))
    .ATTR(k, {attr})
    .OP_END_FACTORY_REG({end})
}}
"""


def compile_proto(tmp_path, attr="Int, 2", end="Good", kernel=False):
    src = tmp_path / "proto.cpp"
    src.write_text(PROTO.format(attr=attr, end=end))
    extra = ["-DDT_FLOAT=0"] if kernel else []   # a kernel build's DT_* macros (flags.arch_flags)
    return subprocess.run(["g++", *flags.common_flags(), *extra, "-fsyntax-only", str(src)],
                          capture_output=True, text=True)


def test_a_prototype_compiles_in_host_and_kernel_builds(tmp_path):
    assert compile_proto(tmp_path).returncode == 0
    assert compile_proto(tmp_path, attr="Type, DT_FLOAT", kernel=True).returncode == 0


def test_a_prototype_closed_under_another_name_is_rejected(tmp_path):
    r = compile_proto(tmp_path, end="Other")
    assert r.returncode != 0 and "OP_END_FACTORY_REG" in r.stderr


def test_an_attribute_default_of_the_wrong_type_is_rejected(tmp_path):
    r = compile_proto(tmp_path, attr='ListInt, "one"')
    assert r.returncode != 0 and "proto.cpp:5" in r.stderr


def test_current_kernel_header_paths_reach_the_api(tmp_path, soc910b):
    # ops-nn kernels include these by the devkit's layout (include/, include/basic_api, include/adv_api)
    src = tmp_path / "k.cpp"
    src.write_text('#include "basic_api/kernel_vec_intf.h"\n#include "kernel_operator_intf.h"\n'
                   '#include "kernel_basic_intf.h"\n#include "adv_api/math/exp.h"\n'
                   '#include "utils/init_global_memory.h"\n'
                   "void f(AscendC::LocalTensor<float>& y, AscendC::LocalTensor<float>& x) {\n"
                   "    AscendC::Exp<float, 0, false>(y, x, 64);\n}\n"
                   "void g(AscendC::GlobalTensor<float>& y) { AscendC::InitGlobalMemory(y, 64, 0.0f); }\n")
    r = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc910b), "-fsyntax-only", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


def _host_program_passes(tmp_path, source: str) -> None:
    """`source` built as host code against the sim's headers, and its main returning 0."""
    src, exe = tmp_path / "prog.cpp", tmp_path / "prog"
    src.write_text(source)
    r = subprocess.run(["g++", *flags.common_flags(), "-DOPKG_SIM_HOST=1", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert subprocess.run([str(exe)]).returncode == 0


def test_native_datatype_options_of_the_tiling_key_templates_are_the_dtype_numbers(tmp_path):
    # ops-nn's arch35 tiling keys name dtypes as the devkit documents them: C_DT_FLOAT, ...
    _host_program_passes(tmp_path,
                         '#include "ascendc/host_api/tiling/template_argument.h"\n#include "graph/types.h"\n'
                         "ASCENDC_TPL_ARGS_DECL(K, ASCENDC_TPL_DATATYPE_DECL(D, C_DT_FLOAT, C_DT_BF16, C_DT_INT32));\n"
                         "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D, C_DT_BF16)));\n"
                         "static_assert(C_DT_FLOAT == ge::DT_FLOAT && C_DT_BF16 == ge::DT_BF16 && "
                         "C_DT_INT64 == ge::DT_INT64 && C_DT_FLOAT8_E4M3FN == ge::DT_FLOAT8_E4M3FN && "
                         "C_DT_FLOAT4_E1M2 == ge::DT_FLOAT4_E1M2);\n"
                         "int main() { return GET_TPL_TILING_KEY(static_cast<uint64_t>(C_DT_BF16)) == 27 ? 0 : 1; }\n")


def test_a_tiling_key_declaration_of_twenty_parameters(tmp_path):
    # ops-nn's weight_quant_batch_matmul_v2 declares 20 template parameters (its
    # weight_quant_batch_matmul_v2_kernel_tiling_key.h); the sim's table held 12
    decl = ",\n".join(f"    ASCENDC_TPL_BOOL_DECL(P{i}, 0, 1)" for i in range(20))
    sel = ", ".join(f"ASCENDC_TPL_BOOL_SEL(P{i}, {i % 2})" for i in range(20))
    _host_program_passes(tmp_path,
                         '#include "ascendc/host_api/tiling/template_argument.h"\n'
                         f"ASCENDC_TPL_ARGS_DECL(K,\n{decl});\n"
                         f"ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL({sel}));\n"
                         "int main() { return GET_TPL_TILING_KEY(" + ", ".join(str(i % 2) for i in range(20))
                         + ") == 0xAAAAA ? 0 : 1; }\n")


def test_the_host_tiling_s_cube_constants_and_a_tiling_from_buffer_sizes(tmp_path):
    # ops-nn's quant_batch_matmul_v3 tiling: `using AscendC::BLOCK_CUBE; using AscendC::ONE_BLK_SIZE;`
    # (the devkit's tiling_api.h declares them on the host) and its fallback tiling from a
    # matmul_tiling::PlatformInfo of its compile info's buffer sizes: the tiling is bound by them
    # (an L0C of 1 KiB holds no base block of C)
    _host_program_passes(tmp_path,
                         '#include "tiling/tiling_api.h"\n'
                         "using AscendC::BLOCK_CUBE;\nusing AscendC::ONE_BLK_SIZE;\n"
                         "static_assert(BLOCK_CUBE == 16 && ONE_BLK_SIZE == 32 && AscendC::CUBE_MAX_SIZE == 256);\n"
                         "int main() {\n"
                         "    auto tile = [](uint64_t l0c) {\n"
                         "        matmul_tiling::PlatformInfo info = {platform_ascendc::SocVersion::ASCEND310P, 512 * 1024,\n"
                         "                                            l0c, 192 * 1024, 64 * 1024, 64 * 1024};\n"
                         "        matmul_tiling::MatmulApiTiling mm(info);\n"
                         "        using matmul_tiling::TPosition; using matmul_tiling::CubeFormat;\n"
                         "        mm.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_INT8);\n"
                         "        mm.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_INT8);\n"
                         "        mm.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_INT32);\n"
                         "        mm.SetShape(512, 512, 256);\n        mm.SetOrgShape(512, 512, 256);\n"
                         "        optiling::TCubeTiling t;\n"
                         "        return mm.GetTiling(t);\n"
                         "    };\n"
                         "    return tile(128 * 1024) != -1 && tile(1024) == -1 ? 0 : 1;\n"
                         "}\n")


def test_a_kernel_selection_reads_its_values_as_cann_s_op_compiler_does(tmp_path):
    """CANN's op compiler reads ASCENDC_TPL_SEL from the preprocessed text and drops an item it
    cannot read as an integer expression (ops-nn's clipped_swiglu selects an undefined
    TPL_FLOOR); the devkit's header declares namespace AscendC on the host (swish's tiling says
    `using namespace AscendC;` with nothing else declaring it)."""
    src = tmp_path / "key.cpp"
    src.write_text('#include "ascendc/host_api/tiling/template_argument.h"\n'
                   "using namespace AscendC;\n#define A 0\n#define B 1\n"
                   "constexpr opkg_sim::tpl::Param sel = ASCENDC_TPL_UINT_SEL(g, ASCENDC_TPL_UI_LIST, A, B, "
                   "TPL_FLOOR, (1 << 1), 1U, 010, 0x3, -1, 7 / 2, -7 / 2 + 5);\n"
                   "static_assert(sel.n == 6 && sel.at(0) == 0 && sel.at(1) == 1 && sel.at(2) == 2 &&"
                   " sel.at(3) == 3 && sel.at(4) == 3 && sel.at(5) == 1);\n"
                   "constexpr opkg_sim::tpl::Param rng = ASCENDC_TPL_UINT_SEL(g, ASCENDC_TPL_UI_RANGE, 1, 0, 2);\n"
                   "static_assert(rng.n == 3 && rng.at(2) == 2);\n")
    r = subprocess.run(["g++", *flags.common_flags(), "-DOPKG_SIM_KERNEL=1", "-fsyntax-only", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


def test_the_compute_node_hands_out_the_context_s_tensor_descriptions(tmp_path):
    # ops-nn's threshold InferShape: GetComputeNodeInfo()->GetInputTdInfo(0)'s dtype onto
    # MutableOutputTdInfo(0), which is the context's output description
    _host_program_passes(tmp_path,
                         '#include "exe_graph/runtime/tiling_context.h"\n'
                         "int main() {\n"
                         "    gert::InferShapeContext c;\n"
                         "    c.input_descs_.resize(1); c.output_descs_.resize(1);\n"
                         "    c.input_descs_[0].dtype_ = ge::DT_INT32;\n"
                         "    auto node = c.GetComputeNodeInfo();\n"
                         "    node->MutableOutputTdInfo(0)->SetDataType(node->GetInputTdInfo(0)->GetDataType());\n"
                         "    return c.GetOutputDesc(0)->GetDataType() == ge::DT_INT32 && !node->GetInputTdInfo(1) ? 0 : 1;\n"
                         "}\n")


def test_an_optional_input_the_node_lacks_is_not_one_of_its_inputs(tmp_path):
    # ops-nn's mish_grad cases leave out the optional tanhx; opbase's elementwise tiling checks
    # GetInputShape(i) for every i below GetComputeNodeInputNum(), as GE counts the node's inputs
    _host_program_passes(tmp_path,
                         '#include "exe_graph/runtime/tiling_context.h"\n'
                         "int main() {\n"
                         "    gert::TilingContext t;\n"
                         "    t.inputs_.resize(3); t.present_ = {true, true, false};\n"
                         "    gert::InferShapeContext s;\n"
                         "    s.inputs_.resize(3); s.present_ = {true, true, false};\n"
                         "    return t.GetComputeNodeInputNum() == 2 && s.GetComputeNodeInputNum() == 2 &&\n"
                         "           t.GetInputShape(1) && !t.GetInputShape(2) ? 0 : 1;\n"
                         "}\n")


def test_a_kernel_header_including_kernel_tiling_sees_the_api_tiling_structs(tmp_path, soc910b):
    # ops-nn's plain tiling structs (quant_batch_matmul_v3_tiling_data.h) hold a TCubeTiling from
    # kernel_tiling/kernel_tiling.h, and current CANN names them in AscendC::tiling too
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_tiling/kernel_tiling.h"\n'
                   "struct P { TCubeTiling mm; AscendC::tiling::SoftMaxTiling sm; };\n"
                   "static_assert(sizeof(P::mm) == sizeof(AscendC::tiling::TCubeTiling));\n"
                   "int f(P& p) { return p.mm.baseM + p.sm.srcM; }\n")
    r = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc910b), "-fsyntax-only", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


def test_950_kernel_spellings_of_the_index_family_compile(tmp_path):
    # ops-nn's arch35 index kernels (scatter_update, gather_elements): `__simd_vf__ inline`
    # functions, InitGlobalMemory, DataSyncBarrier before a SIMT launch, GetUintDivMagicAndShift,
    # the 950's Sort with a SortConfig, the count form of Copy and the scalar GM atomics
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   "constexpr SortConfig CFG{SortType::RADIX_SORT, false};\n"
                   "__simd_vf__ inline void Vf(__ubuf__ float* p) { p[0] = 1.0f; }\n"
                   "static __simd_vf__ inline void Vf2(__ubuf__ float* p) { p[1] = 2.0f; }\n"
                   "void f(GlobalTensor<int32_t>& g, LocalTensor<int32_t>& a, LocalTensor<int32_t>& b,\n"
                   "       LocalTensor<uint32_t>& i, __ubuf__ float* p) {\n"
                   "    InitGlobalMemory(g, 64, 0);\n    DataSyncBarrier<MemDsbT::UB>();\n    Vf(p);\n    Vf2(p);\n"
                   "    uint64_t m = 0, s = 0;\n    GetUintDivMagicAndShift(m, s, uint64_t(7));\n"
                   "    Sort<int32_t, true, CFG>(a, i, b, 64u);\n    Copy(a, b, 64);\n"
                   "    uint32_t old = AtomicAdd((__gm__ uint32_t*)g.GetPhyAddr(), uint32_t(1));\n"
                   "    old = AtomicExch((__gm__ uint32_t*)g.GetPhyAddr(), old);\n}\n")
    r = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(get_soc("Ascend950PR_9599")), "-fsyntax-only",
                        str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
