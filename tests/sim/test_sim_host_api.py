"""Host APIs cann-ops tiling code calls beyond PlatformAscendC (tests/sim/pkgs/hostapi):
fe::PlatFormInfos from platform/platform_info.h answered from the SoC row, graph/types.h's packed
formats, base/alog_pub.h and base/err_msg.h, securec.h, kernel_utils.h, a tiling registered with
IMPL_OP_OPTILING(...).TilingInputsDataDependency and .TilingParse<T>, InferShape and
InferDataType registered with IMPL_OP_INFERSHAPE, ge::Operator and ge::Tensor,
and a tiling header holding host code that the kernel build reads too (naming ge::DT_FLOAT16,
its include guard shared with a kernel header, closed by END_TILING_DATA_DEF without `;`)."""

from __future__ import annotations


import numpy as np
import pytest

from opkg.core.model import OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec("HostApi", (TensorSpec("x", ("float32",)), TensorSpec("n", ("int32",)),
                       TensorSpec("bias", ("float32",), param_type="optional")),
            (TensorSpec("y", ("int64",)),))


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hostapi", OP, OP.variants()[0], soc910b, lib_cache, stem="host_api")


def run(built, n, size=18):
    y = np.full(size, 7, np.int64)
    info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc,
                            {"x": np.zeros(8, np.float32), "n": np.array(n, np.int32)}, {"y": y}, {})
    return y, info


def test_platform_infos_and_host_helpers_reach_the_kernel(built, monkeypatch):
    monkeypatch.delenv("ASCEND_GLOBAL_LOG_LEVEL", raising=False)
    y, _ = run(built, [41, 0])
    soc = built.soc
    # fe::PlatFormInfos::GetCoreNum: the AIV cores of a separated SoC, as PlatformAscendC says
    assert (y[0], y[1]) == (soc.vector_cores, soc.vector_cores) == (48, 48)
    assert y[2] == soc.ub_bytes                                   # GetLocalMemSize(UB)
    assert y[3] == 48                                             # GetPlatformRes("SoCInfo", map)
    assert (y[4], y[5]) == (4, 3)                                 # FRACTAL_Z with sub-format 3
    assert y[6] == 41                                             # TilingInputsDataDependency({1})
    # snprintf_s cut at count characters says -1; memcpy_s past the destination: ERANGE_AND_RESET
    assert (y[7], y[8]) == (-1, 162)
    assert int(y[10]).to_bytes(8, "little") == b"abcdefg\0"
    assert y[9] == 10                                             # errors logged, debug not
    assert y[11] == soc.cube_cores == 24                          # TilingParse<T> ran first
    assert y[12] == 8                                             # ge::Operator name + ge::Tensor size
    assert y[13] == len("OP_TILING")                              # cann-ops' build default
    # a kernel header sharing the tiling header's include guard is read, with DT_* macros back
    assert y[14] == 4321
    assert y[15] == 1                                             # no desc for the absent bias
    # views, gert::Stride, GetShape, SetLocalMemorySize, ::ceil (Ascend 950 host calls)
    assert y[16] == 31111
    # the SoC table's platform: entries ([AICoreintrinsicDtypeMap] of Ascend910B1.ini): Fixpipe
    # out of L0C ("f32,s32,f16"), a bias table without bf16, three intrinsics known
    assert y[17] == 3011


def test_log_level_follows_ascend_global_log_level(built, monkeypatch):
    # the library is loaded in this process; the variable is read when tiling asks
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "0")
    assert run(built, [1])[0][9] == 11


def test_init_value_fills_the_output_before_the_kernel(built):
    # y has InitValue(0): the elements the kernel leaves alone hold 0, not what the caller put
    # there, and count as written
    y, info = run(built, [3], size=24)
    assert list(y[18:]) == [0] * 6 and y[6] == 3
    assert info.unwritten == {}


def test_infer_shape_registered_with_impl_op_infershape_runs(built):
    # the OpDef sets no InferShape; IMPL_OP_INFERSHAPE(HostApi).InferShape(...) is the op's
    assert runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (8,), "n": (2,)}, {}) == {
        "y": ((16,), "int64")}
    # the optional bias given: InferShape sees its shape (and null above, without it)
    assert runtime.infer_output_shapes(built.host, OP, built.variant,
                                       {"x": (8,), "n": (2,), "bias": (3,)}, {}) == {"y": ((17,), "int64")}
    [proto] = runtime.host_prototypes(built.host)
    assert proto["has_infer_shape"] and proto["has_infer_dtype"]


def test_infer_shape_reads_the_values_of_its_data_dependencies(built):
    # IMPL_OP_INFERSHAPE(HostApi)...InputsDataDependency({1}): InferShape gets n's values (as
    # cann-ops PadV4Grad's reads its paddings), the arrays' values given, not just their shapes
    given = {"x": np.zeros(8, np.float32), "n": np.array([5, 0], np.int32)}
    assert runtime.infer_output_shapes(built.host, OP, built.variant, given, {}) == {"y": ((21,), "int64")}


def test_get_format_name_spells_formats_without_the_prefix(tmp_path):
    """ge::GetFormatName (ops-nn's npu_alloc_float_status logs a wrong format with it, beside
    the literal "ND"); a sub-format and C0 packed into the value do not change the name."""
    _host_program_succeeds(tmp_path, '#include "graph/types.h"\n#include <string>\n'
                           'int main() { return std::string(ge::GetFormatName(ge::FORMAT_ND)) == "ND" &&\n'
                           '    std::string(ge::GetFormatName(ge::Format(ge::FORMAT_NCHW | (1 << 8)))) == "NCHW" '
                           '? 0 : 1; }\n')


def test_operator_descs_by_name_and_index(tmp_path):
    """ge::Operator's GetInputDesc/GetOutputDesc by name and by index (ops-nn's masked_scatter
    reads `op.GetInputDesc("x").GetShape()` in its OpDef's check): an Operator outside a graph
    has empty descs, and GetInputDesc(0) is the index form, as with CANN's std::string one."""
    _host_program_succeeds(tmp_path, '#include "graph/operator.h"\n'
                           'int main() { ge::Operator op("MaskedScatter");\n'
                           '    return op.GetInputDesc("x").GetShape().GetDimNum() + '
                           'op.GetInputDesc(0).GetShape().GetDimNum() + '
                           'op.GetOutputDesc("y").GetShape().GetDimNum() + '
                           'op.GetOutputDesc(0u).GetShape().GetDimNum() == 0 ? 0 : 1; }\n')


def test_check_support_registered_by_hand(tmp_path):
    """An OpDef's CheckSupport function registered with CANN's check-function helper (ops-nn's
    masked_scatter: `optiling::OpCheckFuncHelper(FUNC_CHECK_SUPPORTED, name,
    opDef.AICore().GetCheckSupport())`): the AI Core definition gives back the function it
    was set, and registering it compiles (the sim asks no operator whether it supports a node)."""
    _host_program_succeeds(tmp_path, '#include "register/op_def_registry.h"\n'
                           'static ge::graphStatus Check(const ge::Operator&, ge::AscendString&) '
                           '{ return ge::GRAPH_SUCCESS; }\n'
                           'int main() { ops::OpAICoreDef core;\n'
                           '    if (core.GetCheckSupport() != nullptr) return 1;\n'
                           '    core.SetCheckSupport(Check);\n'
                           '    optiling::OpCheckFuncHelper(FUNC_CHECK_SUPPORTED, "MaskedScatter", '
                           'core.GetCheckSupport());\n'
                           '    return core.GetCheckSupport() == &Check ? 0 : 1; }\n')


def _host_program_succeeds(tmp_path, source: str) -> None:
    """`source` compiles against the sim's host headers and its main returns 0."""
    import subprocess

    from opkg.sim import flags

    src = tmp_path / "prog.cpp"
    src.write_text(source)
    exe = tmp_path / "prog"
    r = subprocess.run(["g++", *flags.common_flags(), "-DOPKG_SIM_HOST=1", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert subprocess.run([str(exe)]).returncode == 0


def test_continuous_vector_is_untyped_as_canns(tmp_path):
    """gert::ContinuousVector's GetData() is `const void*` (ops-nn's InferShapes static_cast it:
    avg_pool_v2's data_format to `const char*`, the pooling lists to `const int64_t*`); a list
    attr read through GetAttrPointer<gert::ContinuousVector> or GetListInt is the same list,
    and stays so in a copy of the attrs."""
    _host_program_succeeds(
        tmp_path,
        '#include "exe_graph/runtime/tiling_context.h"\n'
        'int main() {\n'
        '    gert::RuntimeAttrs a;\n'
        '    gert::RuntimeAttrs::Value v;\n'
        '    v.kind = 5;\n'
        '    v.ints = gert::TypedContinuousVector<int64_t>(std::vector<int64_t>{3, 5, 7});\n'
        '    a.values_.push_back(v);\n'
        '    gert::RuntimeAttrs b = a;\n'
        '    a.values_.clear();\n'
        '    const gert::ContinuousVector* cv = b.GetAttrPointer<gert::ContinuousVector>(0);\n'
        '    const int64_t* d = static_cast<const int64_t*>(cv->GetData());\n'
        '    const char* c = static_cast<const char*>(cv->GetData());\n'
        '    const int64_t* typed = b.GetListInt(0)->GetData();\n'
        '    return cv->GetSize() == 3 && d[2] == 7 && typed == d && c != nullptr ? 0 : 1;\n'
        '}\n')


def test_platform_ascendc_brings_mutex_as_the_devkits(tmp_path):
    """The devkit's tiling/platform/platform_ascendc.h includes <mutex>; ops-nn's matmul
    tiling_cache.h takes std::unique_lock from it (it includes only <shared_mutex> itself)."""
    _host_program_succeeds(
        tmp_path,
        '#include "tiling/platform/platform_ascendc.h"\n'
        '#include <shared_mutex>\n'
        'std::shared_mutex m;\n'
        'int main() { std::unique_lock<std::shared_mutex> l(m); return l.owns_lock() ? 0 : 1; }\n')
