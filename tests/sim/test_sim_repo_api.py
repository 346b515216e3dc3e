"""The host and kernel API of current CANN that Huawei's operator repositories (ops-nn on its
base library opbase) use, at the paths CANN installs them (tests/sim/pkgs/repoapi, written here
in the style of ops-nn's operators):

- host: platform/platform_ascendc.h with platform/soc_spec.h (NpuArch, GetCurNpuArch,
  CalcTschNumBlocks), runtime/infer_shape_context.h, GetRequiredInputShape, CANN's log library
  (CheckLogLevel/DlogRecord as opbase's log/log.h declares and calls them), base/err_msg.h's
  REG_FORMAT_ERROR_MSG and REPORT_PREDEFINED_ERR_MSG;
- tiling-key templates: ASCENDC_TPL_ARGS_DECL/SEL and GET_TPL_TILING_KEY on the host, and the
  kernel written as a template over them, run as the instance the key selects;
- kernel: AscendC::Std, AscendCUtils (SetMask in lanes), the queues' AllocTensor(t)/DeQue(t)/DeQue().
"""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.sim import runtime
import simbuild

OP = OpSpec("RepoApi", (TensorSpec("x", ("float32",)),),
            (TensorSpec("y", ("float32",)), TensorSpec("info", ("int32",))),
            (AttrSpec("scale", "int", required=True), AttrSpec("mask_len", "int", default=0)))


@pytest.fixture(scope="module")
def built(pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "repoapi", OP, OP.variants()[0], soc910b, lib_cache,
                          tiling_sources=["op_host/repo_api.cpp"], tiling_header="op_host/repo_api_tiling.h",
                          kernel_source="op_kernel/repo_api.cpp")


def run(built, x, scale, mask_len=0):
    y = np.zeros_like(x)
    info = np.zeros(8, np.int32)
    run_info = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x},
                                {"y": y, "info": info}, {"scale": scale, "mask_len": mask_len})
    return y, info, run_info


def test_tiling_key_selects_the_template_instance_and_helpers_answer(built, capfd, monkeypatch):
    monkeypatch.delenv("ASCEND_GLOBAL_LOG_LEVEL", raising=False)
    x = np.arange(1, 201, dtype=np.float32) / 8
    y, info, run_info = run(built, x, 2)
    np.testing.assert_array_equal(y, x * 2)
    # scale 2 is the declared list's index 1 (2 bits), masked 0 at bit 2
    assert run_info.tiling_key == 1 and run_info.block_dim == 1
    # GetC0Count(4), GetBitSize(2), Std::max(3, 7.5) * 2, ceil_align(13, 8), the instance's
    # SCALE and MASKED, GetCurNpuArch on Ascend910B1 (DAV_2201), Std::min(200, 256)
    assert list(info) == [8, 16, 15, 16, 2, 0, 2201, 200]
    assert "[RepoApi] arch 2201 key 1" in capfd.readouterr().err   # DlogRecord at ERROR level


def test_masked_instance_multiplies_only_the_first_lanes_of_each_repeat(built):
    x = np.linspace(-3, 3, 200, dtype=np.float32)
    y, info, run_info = run(built, x, 4, mask_len=40)
    lane = np.arange(200) % 64
    np.testing.assert_array_equal(y, np.where(lane < 40, x * 4, -1.0).astype(np.float32))
    # scale 4: index 2; masked 1 at bit 2
    assert run_info.tiling_key == (2 | 1 << 2) and list(info[4:6]) == [4, 1]
    # SetMask(64) sets the low word only: every float lane of a repeat
    y, _, _ = run(built, x, 1, mask_len=64)
    np.testing.assert_array_equal(y, x)


def test_a_key_no_instance_was_built_for_is_an_error(built):
    # scale 4 unmasked is declared but not selected: CANN builds no kernel for that key
    with pytest.raises(runtime.SimError, match=r"tiling key 2 \(0x2\) selects no instance of the template kernel "
                                               r"repo_api"):
        run(built, np.ones(64, np.float32), 4)


def test_an_undeclared_value_gives_invalid_tiling_key(built, capfd):
    with pytest.raises(runtime.SimError, match="INVALID_TILING_KEY"):
        run(built, np.ones(64, np.float32), 3)
    err = capfd.readouterr().err
    assert "value 3 of scale is not among the values its ASCENDC_TPL_UINT_DECL declares" in err
    assert "[EZ0002] param=scale value=3" in err


def test_infer_shape_through_runtime_path(built):
    assert runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (5, 7)}, {"scale": 1}) == {
        "y": ((5, 7), "float32"), "info": ((8,), "int32")}


def test_template_kernel_builds_and_verifies_through_the_cli(workspace):
    # the sim toolchain's own planning: the generated unit around the template kernel
    import json
    import shutil
    from pathlib import Path

    from tests.conftest import opkg

    shutil.copytree(Path(__file__).parent / "pkgs" / "repoapi", workspace.root / "packages" / "repo_api")
    r = opkg("build", "packages/repo_api", "--json", cwd=workspace.root)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    unit = (workspace.root / "out/sim/repo_api/gen/tpl_kernel.cpp").read_text()
    assert '#include "op_kernel/repo_api.cpp"' in unit
    assert "::RepoApiOp::opkg_sim_tpl_decl" in unit


def _gxx(src, *flags):
    """g++ over `src` with the sim's headers (no kernel library: the tiling-key templates are
    header-only)."""
    import subprocess
    from pathlib import Path

    include = Path(__file__).resolve().parents[2] / "opkg" / "sim" / "include"
    return subprocess.run(["g++", "-std=c++17", f"-I{include}", *flags, str(src)],
                          capture_output=True, text=True)


def _kernel_syntax(src):
    """`src` checked as a kernel translation unit of the 910B (the sim's kernel macros)."""
    return _gxx(src, "-fsyntax-only", "-DOPKG_SIM_KERNEL=1", "-D__NPU_ARCH__=2201",
                "-D__CCE_AICORE__=220")


def test_a_host_compile_ignores_the_selection_as_the_devkit_does(tmp_path):
    """asc-devkit's template_argument.h defines ASCENDC_TPL_SEL as nothing in host code (outside
    ASCENDC_DEBUG): ops-nn's activation/clipped_swiglu/op_kernel/arch35/clipped_swiglu_tiling_key.h
    selects an undeclared TPL_FLOOR, which its host build never sees. The kernel build, which
    instantiates the selection, drops it as CANN's op compiler does (it reads the selection from
    the preprocessed text and skips an item that is no integer expression)."""
    src = tmp_path / "key.cpp"
    src.write_text('#include "ascendc/host_api/tiling/template_argument.h"\n'
                   "namespace Op {\n"
                   "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(g, 1, ASCENDC_TPL_UI_LIST, 0, 1));\n"
                   "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(\n"
                   "    ASCENDC_TPL_UINT_SEL(g, ASCENDC_TPL_UI_LIST, 0, 1, TPL_FLOOR)));\n"
                   "}\n"
                   "unsigned long long key() { using namespace Op; return GET_TPL_TILING_KEY(1); }\n")
    host = _gxx(src, "-fsyntax-only")
    assert host.returncode == 0, host.stderr
    kernel = _kernel_syntax(src)
    assert kernel.returncode == 0, kernel.stderr[-2000:]


def test_a_uint_range_longer_than_64_values_encodes_and_instantiates(tmp_path):
    """opbase's atvoss/reduce/reduce_tiling_key_decl.h declares three UINT parameters as the range
    0..100 (101 values in 8 bits); the devkit expands ranges without a length limit. The key holds
    each value's index in the expanded list, and the kernel side's instance table (the selected
    combinations) takes values from anywhere in the range."""
    import subprocess

    src = tmp_path / "range.cpp"
    src.write_text('#include <cstdio>\n'
                   '#include "ascendc/host_api/tiling/template_argument.h"\n'
                   "namespace Op {\n"
                   "ASCENDC_TPL_ARGS_DECL(Op,\n"
                   "    ASCENDC_TPL_UINT_DECL(p, 8, ASCENDC_TPL_UI_MIX, 2, 0, 70, 90, 100, 200, 201),\n"
                   "    ASCENDC_TPL_BOOL_DECL(b, 0, 1));\n"
                   "static constexpr ::opkg_sim::tpl::Selection sel{\n"
                   "    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(p, ASCENDC_TPL_UI_LIST, 0, 95, 201),\n"
                   "                         ASCENDC_TPL_BOOL_SEL(b, 1))};\n"
                   "}\n"
                   "int main() {\n"
                   "  using namespace Op;\n"
                   "  std::printf(\"%llu %llu %llu\\n\", (unsigned long long)GET_TPL_TILING_KEY(100, 1),\n"
                   "              (unsigned long long)GET_TPL_TILING_KEY(200, 0),\n"
                   "              (unsigned long long)GET_TPL_TILING_KEY(80, 0));\n"
                   "  using I = ::opkg_sim::tpl::Instances<opkg_sim_tpl_decl, sel>;\n"
                   "  for (size_t i = 0; i < I::count; ++i)\n"
                   "    std::printf(\"%llu=%llu,%llu\\n\", (unsigned long long)I::table.c[i].key,\n"
                   "                (unsigned long long)I::table.c[i].v[0], (unsigned long long)I::table.c[i].v[1]);\n"
                   "}\n")
    exe = tmp_path / "range"
    cc = _gxx(src, "-o", str(exe))
    assert cc.returncode == 0, cc.stderr[-3000:]
    run_ = subprocess.run([str(exe)], capture_output=True, text=True)
    lines = run_.stdout.split()
    # 0..70 are indices 0..70, 90..100 are 71..81, 200 and 201 are 82 and 83; b sits at bit 8
    assert lines[:3] == [str(81 | 1 << 8), "82", str(2**64 - 1)]
    assert "value 80 of p is not among the values" in run_.stderr
    assert lines[3:] == [f"{256}=0,1", f"{76 | 256}=95,1", f"{83 | 256}=201,1"]


def test_the_devkits_size_constants_are_the_kernel_apis(tmp_path):
    """asc-devkit's kernel_utils_constants.h gives every kernel the sizes of a block and a repeat
    per dtype in namespace AscendC (ops-nn's norm/add_layer_norm/op_kernel/add_layer_norm_base.h
    reads ONE_BLK_FLOAT_NUM unqualified)."""
    src = tmp_path / "sizes.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'static_assert(ONE_BLK_FLOAT_NUM == 8 && ONE_BLK_HALF_NUM == 16, "block");\n'
                   'static_assert(ONE_REPEAT_FLOAT_SIZE == 64 && MAX_REPEAT_HALF_SIZE == 128 * 255, '
                   '"repeat");\n'
                   'static_assert(B16_DATA_NUM_PER_REPEAT == 128 && BYTE_PER_FRACTAL == 512, "sizes");\n')
    kernel = _kernel_syntax(src)
    assert kernel.returncode == 0, kernel.stderr[-3000:]


def test_the_data_block_size_is_a_constant_of_the_kernel_api(tmp_path):
    """asc-devkit's kernel_operator_sys_var_intf.h: `constexpr int16_t GetDataBlockSizeInBytes()`,
    which ops-nn's pooling/avg_pool3_d kernels call unqualified in templates (the UB's 32-byte
    data block)."""
    src = tmp_path / "block.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   "template <typename T> constexpr uint32_t PerBlock() "
                   "{ return GetDataBlockSizeInBytes() / sizeof(T); }\n"
                   'static_assert(PerBlock<float>() == 8, "8 floats a block");\n')
    kernel = _kernel_syntax(src)
    assert kernel.returncode == 0, kernel.stderr[-2000:]


def test_each_instance_keeps_the_kernel_type_its_selection_group_declares(tmp_path):
    """ASCENDC_TPL_KERNEL_TYPE_SEL is how a template kernel says which core CANN's op compiler
    builds an instance for (ops-nn's mat_mul_v3_tiling_key.h: AIC_ONLY for its plain product,
    MIX_AIC_1_2 for the keys whose vector cores work too); the generated entry runs an AIC_ONLY
    instance as the cube body (tpl_kernel.cpp.j2). A group without one has none (-1), as has a
    key no group selects."""
    import subprocess

    src = tmp_path / "types.cpp"
    src.write_text('#include <cstdio>\n'
                   '#include "ascendc/host_api/tiling/template_argument.h"\n'
                   "namespace Op {\n"
                   "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(m, 4, ASCENDC_TPL_UI_LIST, 0, 1, 2));\n"
                   "ASCENDC_TPL_SEL(\n"
                   "    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY),\n"
                   "                         ASCENDC_TPL_UINT_SEL(m, ASCENDC_TPL_UI_LIST, 0)),\n"
                   "    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_MIX_AIC_1_2),\n"
                   "                         ASCENDC_TPL_UINT_SEL(m, ASCENDC_TPL_UI_LIST, 1)),\n"
                   "    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(m, ASCENDC_TPL_UI_LIST, 2)));\n"
                   "}\n"
                   "int main() {\n"
                   "  using namespace Op;\n"
                   "  for (unsigned long long k = 0; k < 4; ++k)\n"
                   "    std::printf(\"%ld \", ::opkg_sim::tpl::kernel_type_of<opkg_sim_tpl_decl, opkg_sim_tpl_sel>(k));\n"
                   "}\n")
    exe = tmp_path / "types"
    cc = _gxx(src, "-o", str(exe), "-DOPKG_SIM_KERNEL=1", "-D__NPU_ARCH__=2201", "-D__CCE_AICORE__=220")
    assert cc.returncode == 0, cc.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True).stdout.split()
    assert out == ["1", "7", "-1", "-1"]


@pytest.mark.parametrize("soc_name", ["Ascend910B1", "Ascend950PR_9599"])
def test_a_template_kernel_with_a_cube_only_instance_compiles_on_every_soc(tmp_path, soc_name):
    """A selection group declaring ASCENDC_TPL_AIC_ONLY brings the core-by-task-type header; the
    generated entry applies the instance's kernel type only where the header models it (Atlas
    A2/A3's vector build), and compiles elsewhere as before (ops-nn's arch35 kernels declare
    AIC_ONLY groups too)."""
    import subprocess

    from opkg.core.model import OpSpec, TensorSpec
    from opkg.core.socs import get_soc
    from opkg.sim import codegen, flags

    kernel = tmp_path / "k.cpp"
    kernel.write_text(
        '#include "kernel_operator.h"\n'
        '#include "ascendc/host_api/tiling/template_argument.h"\n'
        "ASCENDC_TPL_ARGS_DECL(Cube, ASCENDC_TPL_UINT_DECL(m, 4, ASCENDC_TPL_UI_LIST, 0, 1));\n"
        "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIC_ONLY),\n"
        "                                    ASCENDC_TPL_UINT_SEL(m, ASCENDC_TPL_UI_LIST, 0)),\n"
        "                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),\n"
        "                                    ASCENDC_TPL_UINT_SEL(m, ASCENDC_TPL_UI_LIST, 1)));\n"
        "template <uint64_t M>\n"
        "__global__ __aicore__ void cube(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {\n"
        "    if ASCEND_IS_AIV { return; }\n"
        "}\n")
    op = OpSpec("Cube", (TensorSpec("x", ("float16",)),), (TensorSpec("y", ("float16",)),))
    unit = tmp_path / "tpl_kernel.cpp"
    unit.write_text(codegen.tpl_kernel_source(str(kernel), op, ""))
    soc = get_soc(soc_name)
    extra = flags.core_type_flags([kernel.read_text()])
    assert extra, "an ASCENDC_TPL_AIC_ONLY group asks for the core-by-task-type header"
    cc = subprocess.run(["g++", *flags.common_flags(), *flags.kernel_flags(op, op.variants()[0], soc, None), *extra,
                         "-fsyntax-only",
                         str(unit)], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr[-3000:]


def test_headers_on_canns_kernel_include_path_by_their_names(tmp_path):
    """CANN's kernel build has the devkit's include/basic_api and the toolkit's include/ on its
    path: ops-nn's conv3d kernels include "kernel_common.h" by its name, modulate_grad's kernel
    <acl/acl.h> (the runtime API's umbrella header)."""
    src = tmp_path / "names.cpp"
    src.write_text('#include "kernel_common.h"\n#include "basic_api/kernel_common.h"\n'
                   '#include "kernel_tpipe.h"\n#include "kernel_operator_data_copy_intf.h"\n'
                   '#include "kernel_operator_dump_tensor_intf.h"\n#include <acl/acl.h>\n'
                   "static_assert(ACL_SUCCESS == 0, \"acl\");\n"
                   "AscendC::TPipe* Pipe() { return GetTPipePtr(); }\n")


def test_devkit_names_kernels_use_unqualified(tmp_path):
    """Names of the devkit and the compiler that ops-nn's 910B kernels use as CANN's build gives
    them: Fixpipe's QuantMode_t values unqualified (a builtin plain enum: flat_quant), the L0
    sizes and repeat strides of kernel_utils_constants.h (conv3d_backprop_*, weight_quant_batch_
    matmul_v2), COPY_TILING_WITH_STRUCT (fused_linear_cross_entropy_loss_grad)."""
    src = tmp_path / "unqualified.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   "struct Inner { uint32_t a; uint32_t b; };\nstruct Outer { uint32_t n; Inner inner; };\n"
                   "static_assert(TOTAL_L0A_SIZE == 65536 && ONE_FOURTH_DEFAULT_REPEAT_STRIDE == 2, \"sizes\");\n"
                   "static_assert(RESERVED_WORKSPACE == 16 * 1024 * 1024, \"the 910B's system workspace\");\n"
                   "uint32_t Copy(const Outer* t) {\n"
                   "    QuantMode_t q = F322F16;\n"
                   "    AscendC::QuantMode_t r = QuantMode_t::NoQuant;\n"
                   "    COPY_TILING_WITH_STRUCT(Inner, &t->inner, byPointer);\n"
                   "    COPY_TILING_WITH_STRUCT(Inner, t->inner, byValue);\n"
                   "    ENABLE_DETERMINISTIC();\n"
                   "    InitDump(false, nullptr, 1024);\n"
                   "    ReduceLastND shape{1, 2, 3, 4, 5, 6};\n"
                   "    LocalTensor<float> c, ab;\n"
                   "    if (shape.dstK == 0) MmadImpl(c, ab, ab, MmadParams{});\n"
                   "    if (shape.dstK == 1) LoadDataImpl(ab, ab, LoadData2DParams{});\n"
                   "    return byPointer->a + byValue->b + (q != r);\n}\n")
    kernel = _kernel_syntax(src)
    assert kernel.returncode == 0, kernel.stderr[-2000:]
    kernel = _kernel_syntax(src)
    assert kernel.returncode == 0, kernel.stderr[-2000:]
