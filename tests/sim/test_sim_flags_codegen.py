"""Flags, generated entries and the header contract with opkg.core.model."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from opkg.core.model import DTYPES, FORMATS, AttrSpec, OpSpec, TensorSpec
from opkg.sim import codegen, flags, runtime
import simbuild

OP = OpSpec("LayerNormCustom",
            tuple(TensorSpec(n, ("float32", "float16")) for n in ("x", "gamma", "beta")),
            (TensorSpec("y", ("float32", "float16")),), (AttrSpec("epsilon", "float", 1e-5),))


def test_ge_enums_in_the_headers_match_the_model():
    text = (flags.include_dir() / "graph" / "types.h").read_text()
    values = {m.group(1): int(m.group(2)) for m in re.finditer(r"\b((?:DT|FORMAT)_\w+) = (\d+)", text)}
    for d in DTYPES.values():
        assert values[d.ge] == d.ge_value, d.name
    for name, value in FORMATS.items():
        assert values[f"FORMAT_{name}"] == value, name


def test_kernel_flags_define_dtypes_arch_and_tiling(tmp_path, soc910b):
    header = tmp_path / "t.h"
    header.write_text("")
    f = flags.kernel_flags(OP, OP.variant("float16"), soc910b, header)
    assert "-DDTYPE_X=half" in f and "-DDTYPE_GAMMA=half" in f and "-DDTYPE_Y=half" in f
    assert "-DORIG_DTYPE_X=DT_FLOAT16" in f and "-DDT_FLOAT16=1" in f
    assert "-D__NPU_ARCH__=2201" in f and "-DOPKG_SIM_OP_TYPE=LayerNormCustom" in f
    # CANN's CPU-debug macro only for a source with a `<<<>>>` launcher (the device build lacks it)
    assert "-D__CCE_KT_TEST__=1" not in f
    assert "-D__CCE_KT_TEST__=1" in flags.kernel_flags(OP, OP.variant("float16"), soc910b, header, launcher=True)
    assert f[f.index(str(header)) - 1] == "-include"
    without = flags.kernel_flags(OP, OP.variant("float32"), soc910b, None)
    assert [without[i + 1] for i, a in enumerate(without) if a == "-include"] == [
        str(flags.include_dir() / "opkg_sim" / "runtime" / n) for n in ("kernel_tu.h", "entry_names.h")]
    # the precompiled headers come before anything else a kernel reads
    pch = flags.kernel_flags(OP, OP.variant("float32"), soc910b, None, tmp_path / "p.h")
    assert [pch[i + 1] for i, a in enumerate(pch) if a == "-include"][0] == str(tmp_path / "p.h")
    assert f"-I{flags.include_dir()}" in flags.common_flags()
    assert (flags.include_dir() / "kernel_operator.h").is_file()


def test_kernels_and_their_precompiled_headers_are_optimised_less_than_the_block_runner(soc910b):
    # g++ takes the last -O: kernel TUs and the .gch they read at -Og (the same, or g++ would
    # refuse the .gch), the block runner, where the sim spends its time, at -O2
    def level(argv):
        return [a for a in argv if a.startswith("-O")][-1]
    kernel = flags.common_flags() + flags.kernel_flags(OP, OP.variant("float32"), soc910b, None)
    assert level(kernel) == "-Og" == flags.KERNEL_OPT
    assert level(flags.common_flags() + flags.pch_flags(soc910b)) == "-Og"
    assert level(flags.common_flags() + flags.arch_flags(soc910b)) == "-O2"


def test_header_digest_tracks_header_and_runtime_content(tmp_path):
    copy, runtime = tmp_path / "include", tmp_path / "src"
    shutil.copytree(flags.include_dir(), copy)
    shutil.copytree(flags.runtime_source().parent, runtime)
    assert flags.sources_digest(copy, runtime) == flags.header_digest()
    assert re.fullmatch(r"[0-9a-f]{64}", flags.header_digest())
    (copy / "kernel_operator.h").write_text((copy / "kernel_operator.h").read_text() + "\n")
    flags._digest.cache_clear()
    assert flags.sources_digest(copy, runtime) != flags.header_digest()
    shutil.copy(flags.include_dir() / "kernel_operator.h", copy / "kernel_operator.h")
    (runtime / "kernel_runtime.cpp").write_text((runtime / "kernel_runtime.cpp").read_text() + "\n")
    flags._digest.cache_clear()
    assert flags.sources_digest(copy, runtime) != flags.header_digest()


def test_kernel_entry_calls_the_snake_case_kernel_with_cann_parameter_order():
    src = codegen.kernel_entry_source(OP)
    assert 'extern "C" void layer_norm_custom(uint8_t* opkg_x, uint8_t* opkg_gamma, uint8_t* opkg_beta, ' \
           'uint8_t* opkg_y, uint8_t* opkg_workspace, uint8_t* opkg_tiling);' in src
    assert "args[5]" in src and "args[6]" not in src


def test_host_entry_declares_a_manifest_tiling_function():
    src = codegen.host_entry_source(OP, "optiling::ns2::LnTiling")
    assert "namespace optiling { namespace ns2 { " in src
    assert "ge::graphStatus LnTiling(gert::TilingContext* context);" in src
    assert "::optiling::ns2::LnTiling, inputs" in src
    assert "nullptr, inputs" in codegen.host_entry_source(OP)
    for bad in ("optiling::", "Tiling Func", "a::1b", "f()"):
        with pytest.raises(ValueError, match="not a C\\+\\+ qualified name"):
            codegen.host_entry_source(OP, bad)


RT = OpSpec("TilingRt", (TensorSpec("x", ("float32",)), TensorSpec("bias", ("float32",), param_type="optional")),
            (TensorSpec("y", ("int64",)),), (AttrSpec("big", "int", 1),))


def test_a_tiling_function_that_does_not_link_fails_the_build(pkgs, soc910b, lib_cache):
    with pytest.raises(simbuild.CompileError, match="undefined reference to `optiling::NoSuchTiling"):
        simbuild.build(pkgs / "tilingrt", RT, RT.variants()[0], soc910b, lib_cache,
                       stem="tiling_rt", tiling_function="optiling::NoSuchTiling")


def test_missing_tiling_function_is_explained(pkgs, soc910b, lib_cache):
    import numpy as np

    built = simbuild.build(pkgs / "tilingrt", RT, RT.variants()[0], soc910b, lib_cache,
                           stem="tiling_rt")
    with pytest.raises(runtime.SimError) as e:
        runtime.run_case(built.host, built.kernel, RT, built.variant, soc910b, {"x": np.zeros(8, np.float32)},
                         {"y": np.zeros(8, np.int64)}, {"big": 1})
    assert "no tiling function for op type TilingRt" in e.value.message
    assert "(OpDefs found: TilingRt)" in e.value.message and "tiling.function" in e.value.message


def test_libraries_loaded_into_one_process_keep_their_own_registries(pkgs, soc910b, lib_cache):
    from test_sim_errors import OP as FAULTY
    from test_sim_tiling_data import OP as TILING_RT

    faulty = simbuild.build(pkgs / "faulty", FAULTY, FAULTY.variants()[0], soc910b, lib_cache,
                            stem="faulty")
    rt = simbuild.build(pkgs / "tilingrt", TILING_RT, TILING_RT.variants()[0], soc910b, lib_cache,
                        stem="tiling_rt", tiling_function="optiling::TilingRtFunc")
    assert [p["type"] for p in runtime.host_prototypes(faulty.host)] == ["Faulty"]
    assert [p["type"] for p in runtime.host_prototypes(rt.host)] == ["TilingRt"]


def test_kernel_tiling_source_undefines_the_guard_and_suspends_dtype_macros(tmp_path):
    header = tmp_path / "pkg" / "op_host" / "t_tiling.h"
    guarded = "/* licence */\n// brief\n#ifndef T_TILING_H_\n#define T_TILING_H_\nstruct A {};\n#endif\n"
    text = flags.kernel_tiling_source(header, guarded, tmp_path / "out" / "gen")
    lines = text.splitlines()
    # relative paths only: another checkout or opkg install gives the same bytes (cache keys)
    assert str(tmp_path) not in text and str(flags.include_dir()) not in text
    inc = lines.index('#include "../../pkg/op_host/t_tiling.h"')
    assert lines.index('#pragma push_macro("DT_FLOAT16")') < lines.index("#undef DT_FLOAT16") < inc
    assert inc < lines.index('#pragma pop_macro("DT_FLOAT16")') < lines.index("#undef T_TILING_H_")
    assert lines[-1].endswith('kernel_tiling_using.h"')
    # no guard (or `#pragma once`): nothing of the header's is undefined
    once = flags.kernel_tiling_source(header, "#pragma once\n#ifndef X\n#define X 1\n#endif\n", tmp_path)
    assert "#undef X" not in once


def test_a_chevron_launch_is_found_outside_comments():
    assert flags.has_chevron_launch("void f_do(uint32_t n, void* s)\n{\n    f<<<n, nullptr, s>>>(x, y);\n}\n")
    assert flags.has_chevron_launch("k<<<\n    n, l2, s>>>(a);")
    assert not flags.has_chevron_launch("// k<<<n, l2, s>>>(a);\n/* k<<<n>>>(a) */\nint x = a << 3 >> 1;")


def test_simt_kernels_are_instrumented_and_read_their_own_precompiled_headers(tmp_path, soc910b):
    assert flags.uses_simt(["#include \"kernel_operator.h\"", '#include "simt_api/asc_simt.h"'])
    assert flags.uses_simt(["#  include <simt_api/math_functions.h>"])
    assert not flags.uses_simt(["#include \"kernel_operator.h\"\n// simt_api/asc_simt.h is not used"])
    pch = tmp_path / "p.h"
    plain = flags.kernel_flags(OP, OP.variant("float32"), soc910b, None, pch)
    simt = flags.kernel_flags(OP, OP.variant("float32"), soc910b, None, pch, simt=True)
    assert "-fsanitize=thread" not in plain and str(pch) in plain
    # the hooks' own runtime, never libtsan's: instrumentation flags only; the precompiled
    # headers given, which must be the set built with them (test_sim_pch.py)
    assert "-fsanitize=thread" in simt and "--param=tsan-distinguish-volatile=1" in simt and "-g1" in simt
    assert str(pch) in simt
    assert set(flags.SIMT_FLAGS) <= set(flags.pch_flags(soc910b, simt=True))
    assert not set(flags.SIMT_FLAGS) & set(flags.pch_flags(soc910b))
    assert flags.pch_dir_name(soc910b, simt=True) != flags.pch_dir_name(soc910b)
    assert "-fsanitize=thread" not in flags.link_flags()


def test_kernel_tiling_source_brings_only_the_tiling_classes_out_of_optiling(tmp_path):
    # the classes declared directly in optiling, here and in a header included by a relative
    # path (cann-ops CircularPadGrad's lives in circular_pad's common header); not a class of a
    # nested namespace, not one in a comment, and none of op_host's constants
    common = tmp_path / "common" / "op_host" / "common.h"
    common.parent.mkdir(parents=True)
    common.write_text("namespace optiling {\nBEGIN_TILING_DATA_DEF(CommonData)\nEND_TILING_DATA_DEF;\n}\n")
    header = tmp_path / "pkg" / "op_host" / "t_tiling.h"
    header.parent.mkdir(parents=True)
    text = ('#include "../../common/op_host/common.h"\n#include "missing.h"\n'
            "namespace optiling {\nconstexpr size_t MAX_DIM_NUM = 8;\n"
            "BEGIN_TILING_DATA_DEF(Inner)\n  TILING_DATA_FIELD_DEF(int64_t, n);\nEND_TILING_DATA_DEF;\n"
            "// BEGIN_TILING_DATA_DEF(Commented)\n"
            "namespace detail { BEGIN_TILING_DATA_DEF(Nested) END_TILING_DATA_DEF; }\n"
            "BEGIN_TILING_DATA_DEF(Outer)\n  TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);\nEND_TILING_DATA_DEF;\n"
            "REGISTER_TILING_DATA_CLASS(T, Outer)\n}\n")
    assert flags.tiling_classes(header, text) == ["CommonData", "Inner", "Outer"]
    lines = flags.kernel_tiling_source(header, text, tmp_path / "gen").splitlines()
    assert lines[-5:] == ['#include "opkg_sim/basic_api/core/tiling_slot.h"', '#include "opkg_sim/adv_api/kernel_tiling_lib.h"',
                          "using ::optiling::CommonData;", "using ::optiling::Inner;", "using ::optiling::Outer;"]
    assert not any("kernel_tiling_using" in line or "MAX_DIM_NUM" in line for line in lines)


def test_tiling_classes_of_a_header_found_through_the_include_directories(tmp_path):
    # cann-ops' batch_mat_mul_v3_tiling.h includes "../../mat_mul_v3/op_host/mat_mul_v3_tiling.h",
    # which the import copies into the package's include directory include/mat_mul_v3/op_host:
    # the compiler finds it there (the relative path leads back to the same directory), and its
    # classes (L2cacheUseInfo, which the kernel names) are the kernel's too
    inc = tmp_path / "pkg" / "include" / "mm" / "op_host"
    inc.mkdir(parents=True)
    (inc / "mm_tiling.h").write_text("namespace optiling {\nBEGIN_TILING_DATA_DEF(UseInfo)\n"
                                     "  TILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n"
                                     "BEGIN_TILING_DATA_DEF(MmData)\n  TILING_DATA_FIELD_DEF_STRUCT(UseInfo, info);\n"
                                     "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(Mm, MmData)\n}\n")
    header = tmp_path / "pkg" / "op_host" / "bmm_tiling.h"
    header.parent.mkdir(parents=True)
    text = ('#include "../../mm/op_host/mm_tiling.h"\nnamespace optiling {\n'
            "BEGIN_TILING_DATA_DEF(BmmData)\n  TILING_DATA_FIELD_DEF_STRUCT(MmData, mm);\nEND_TILING_DATA_DEF;\n"
            "REGISTER_TILING_DATA_CLASS(Bmm, BmmData)\n}\n")
    assert flags.tiling_classes(header, text) == ["BmmData"]          # beside the header: not there
    assert flags.tiling_classes(header, text, (inc,)) == ["UseInfo", "MmData", "BmmData"]
    lines = flags.kernel_tiling_source(header, text, tmp_path / "gen", roots=(inc,)).splitlines()
    assert lines[-3:] == ["using ::optiling::UseInfo;", "using ::optiling::MmData;", "using ::optiling::BmmData;"]
    assert flags.tiling_blocks(header, text) is None                 # MmData unknown without the roots
    blocks = flags.tiling_blocks(header, text, (inc,))
    assert blocks.index("(UseInfo)") < blocks.index("(MmData)") < blocks.index("(BmmData)")


def test_tiling_blocks_without_the_semicolon_after_end_tiling_data_def(tmp_path):
    # ops-nn's index/scatter_nd_update/op_host/arch22/scatter_nd_update_tiling.h ends each class
    # with a bare END_TILING_DATA_DEF; its outer class has STRUCT fields of the ones before
    header = tmp_path / "s_tiling.h"
    text = ("namespace optiling {\nBEGIN_TILING_DATA_DEF(Part)\nTILING_DATA_FIELD_DEF(uint64_t, n)\n"
            "END_TILING_DATA_DEF\nREGISTER_TILING_DATA_CLASS(PartOp, Part)\n"
            "BEGIN_TILING_DATA_DEF(Whole)\nTILING_DATA_FIELD_DEF_STRUCT(Part, part)\nEND_TILING_DATA_DEF\n"
            "REGISTER_TILING_DATA_CLASS(S, Whole)\n}\n")
    blocks = flags.tiling_blocks(header, text)
    assert blocks is not None
    assert blocks.index("BEGIN_TILING_DATA_DEF(Part)") < blocks.index("BEGIN_TILING_DATA_DEF(Whole)")
    assert len(re.findall(r"END_TILING_DATA_DEF\s*;", blocks)) == 2


def test_kernels_see_every_library_tiling_struct():
    """CANN's kernel_tiling.h gives every kernel the high-level libraries' tiling structs
    (TCubeTiling, SoftMaxTiling...) at global scope; kernel_tiling_lib.h must name each one the
    sim's lib/ headers declare, so a new library struct cannot be left out."""
    inc = Path(flags.__file__).parent / "include"
    declared = set()
    for h in sorted((inc / "lib").rglob("*.h")):
        declared.update(flags.tiling_classes(h, h.read_text()))
    text = (inc / "opkg_sim" / "adv_api" / "kernel_tiling_lib.h").read_text()
    assert declared and set(re.findall(r"using ::optiling::(\w+);", text)) == declared


def test_tiling_classes_registered_for_tiling_keys_come_from_the_headers_beside(tmp_path):
    # ops-nn's gather_elements: the op type's class in one header, a class per tiling key
    # (`GatherElements_20100`) in another of the same directory, which CANN's kernels also read
    host = tmp_path / "op_host" / "arch35"
    host.mkdir(parents=True)
    main = host / "g_tiling.h"
    main_text = ("#ifndef G_H\n#define G_H\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(GData)\nEND_TILING_DATA_DEF;\n"
                 "REGISTER_TILING_DATA_CLASS(G, GData)\n}\n#endif\n")
    main.write_text(main_text)
    (host / "g_keyed_tiling.h").write_text(
        "#ifndef GK_H\n#define GK_H\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(GKeyed)\nEND_TILING_DATA_DEF;\n"
        "REGISTER_TILING_DATA_CLASS(G_20100, GKeyed)\nREGISTER_TILING_DATA_CLASS(G_20200, GKeyed)\n}\n#endif\n")
    (host / "other_tiling.h").write_text(    # another operator's keyed class: not read
        "namespace optiling {\nBEGIN_TILING_DATA_DEF(HKeyed)\nEND_TILING_DATA_DEF;\n"
        "REGISTER_TILING_DATA_CLASS(GH_20100, HKeyed)\n}\n")
    keyed = flags.keyed_tiling_headers(main, main_text)
    assert keyed == [host / "g_keyed_tiling.h"]
    text = flags.kernel_tiling_source(main, main_text, tmp_path / "gen", keyed=tuple((h, h.read_text()) for h in keyed))
    lines = text.splitlines()
    # the guards go after both: the keyed header may include the main one (unsorted_segment_sum's)
    assert lines.index('#include "../op_host/arch35/g_tiling.h"') \
        < lines.index('#include "../op_host/arch35/g_keyed_tiling.h"') < lines.index("#undef G_H") \
        < lines.index("#undef GK_H")
    assert lines[-2:] == ["using ::optiling::GData;", "using ::optiling::GKeyed;"]
    # a kernel that reads only a keyed class (inplace_index_add's SIMT branch) reads the classes
    kernel = tmp_path / "op_kernel" / "g_apt.cpp"
    kernel.parent.mkdir()
    kernel.write_text("REGISTER_TILING_DEFAULT(Own);\nvoid g() { GET_TILING_DATA_WITH_STRUCT(GKeyed, t, tiling); }\n")
    pairs = tuple((h, h.read_text()) for h in keyed)
    assert flags.kernel_tiling_classes(main, main_text, pairs) == ["GData", "GKeyed"]
    assert flags.kernel_reads_host_tiling(kernel, main, flags.kernel_tiling_classes(main, main_text, pairs)) == "classes"
    assert flags.kernel_reads_host_tiling(kernel, main, flags.tiling_classes(main, main_text)) == "none"


def test_keyed_tiling_classes_of_a_dependency_unit_reach_the_kernel_as_classes_only(tmp_path):
    # ops-nn's avg_pool3_d: its header registers AvgPool3D; the classes for its tiling keys are
    # registered in pool_3d_common/op_host/arch35 (a unit its CMake DEPENDENCIES build with it),
    # beside host classes deriving op_host's TilingBaseClass, which no kernel build has
    own = tmp_path / "avg" / "op_host"
    common = tmp_path / "common" / "op_host" / "arch35"
    own.mkdir(parents=True)
    common.mkdir(parents=True)
    main = own / "avg_tiling.h"
    main_text = ("#ifndef A_H\n#define A_H\n#include \"register/tilingdata_base.h\"\nnamespace optiling {\n"
                 "BEGIN_TILING_DATA_DEF(AData)\nTILING_DATA_FIELD_DEF(int64_t, n);\nEND_TILING_DATA_DEF;\n"
                 "REGISTER_TILING_DATA_CLASS(Avg, AData)\n}\n#endif\n")
    main.write_text(main_text)
    keyed_file = common / "small_kernel_tiling.h"
    keyed_file.write_text(
        "#ifndef S_H\n#define S_H\n#include \"register/tilingdata_base.h\"\n#include \"op_host/tiling_base.h\"\n"
        "namespace optiling {\nBEGIN_TILING_DATA_DEF(SmallData)\nTILING_DATA_FIELD_DEF(int32_t, kd);\n"
        "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(Avg_300001, SmallData)\n"
        "class SmallTiling : public TilingBaseClass { };\n}\n#endif\n")
    assert flags.keyed_tiling_headers(main, main_text) == []                 # not beside the header
    keyed = flags.keyed_tiling_headers(main, main_text, (str(common),))
    assert keyed == [keyed_file.resolve()]
    pairs = tuple((h, h.read_text()) for h in keyed)
    text = flags.kernel_tiling_source(main, main_text, tmp_path / "gen", "classes", pairs)
    assert "small_kernel_tiling.h" not in text and "TilingBaseClass" not in text
    assert text.splitlines()[-2:] == ["using ::optiling::AData;", "using ::optiling::SmallData;"]
    gen = tmp_path / "gen" / "kernel_tiling.h"
    gen.parent.mkdir()
    gen.write_text(text)
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nint32_t f(const SmallData& t, const AData& a) '
                   "{ return t.kd + int32_t(a.n); }\n")
    from opkg.core.socs import get_soc

    soc = get_soc("Ascend950PR_9599")
    r = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc), "-include", str(gen),
                        "-fsyntax-only", str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def test_ext_vector_type_becomes_a_gcc_vector_of_the_same_lanes(tmp_path):
    # ops-nn's gather_nd_simt.h: `typedef int32_t int4 __attribute__((ext_vector_type(4)));`,
    # which g++ would ignore (int4 a plain int32_t)
    src = ("#include <cstdint>\ntypedef int32_t int4 __attribute__((ext_vector_type(4)));\n"
           "static_assert(sizeof(int4) == 16, \"four lanes\");\n"
           "int32_t f(int32_t a) { int4 v = (int4){a, a + 1, a + 2, a + 3}; return v[3]; }\n")
    assert flags.ext_vector_flags(["int x;"]) == []
    defs = flags.ext_vector_flags([src])
    assert defs == ["-Dext_vector_type(n)=vector_size((n) * 4)"]
    (tmp_path / "v.cpp").write_text(src)
    cxx = shutil.which("g++")
    ok = subprocess.run([cxx, "-std=c++17", *defs, "-c", str(tmp_path / "v.cpp"), "-o", str(tmp_path / "v.o")],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bare = subprocess.run([cxx, "-std=c++17", "-c", str(tmp_path / "v.cpp"), "-o", str(tmp_path / "w.o")],
                          capture_output=True, text=True)
    assert bare.returncode != 0 and "four lanes" in bare.stderr     # what the flag fixes
    # element types of different widths (or unknown ones) cannot share the macro: said
    with pytest.raises(ValueError, match="int64_t, int32_t|int32_t, int64_t"):
        flags.ext_vector_flags([src, "typedef int64_t long2 __attribute__((ext_vector_type(2)));"])
# A kernel that tests its tensors' formats in `#if`, as ops-nn's MatMulV3 does
# (hicann/ops-nn matmul/mat_mul_v3/op_kernel/mat_mul_v3.cpp: an empty fallback definition of
# FORMAT_FRACTAL_NZ, then `defined(FORMAT_X1) && FORMAT_X1 == FORMAT_FRACTAL_NZ`), and a tiling
# header that names ge::Format's enumerators (read in the same translation unit).
_FORMAT_KERNEL = """\
#include "kernel_operator.h"
#ifndef FORMAT_FRACTAL_NZ
#define FORMAT_FRACTAL_NZ
#endif
#if defined(FORMAT_X2) && FORMAT_X2 == FORMAT_FRACTAL_NZ
constexpr int x2_is_nz = 1;
#else
constexpr int x2_is_nz = 0;
#endif
static_assert(x2_is_nz == EXPECT_NZ, "FORMAT_X2 as the variant's format");
static_assert(FORMAT_X1 == FORMAT_ND && FORMAT_ND == 2 && FORMAT_FRACTAL_NZ == 29, "kernel_type.h");
static_assert(kFmt == 2, "the tiling header saw ge::FORMAT_ND");
"""


@pytest.mark.parametrize("x2_format, nz", [("ND", 0), ("FRACTAL_NZ", 1)])
def test_kernels_see_their_tensor_formats_as_cann_defines_them(tmp_path, soc910b, x2_format, nz):
    op = OpSpec("MatFmt", (TensorSpec("x1", ("float16",)),
                           TensorSpec("x2", ("float16",), (x2_format,))),
                (TensorSpec("y", ("float16",)),), ())
    header = tmp_path / "fmt_tiling.h"
    header.write_text('#include "graph/types.h"\nconstexpr int kFmt = ge::FORMAT_ND;\n')
    gen = tmp_path / "gen"
    gen.mkdir()
    (gen / "t.h").write_text(flags.kernel_tiling_source(header, header.read_text(), gen))
    f = flags.kernel_flags(op, op.variants()[0], soc910b, gen / "t.h")
    assert f"-DFORMAT_X2=FORMAT_{x2_format}" in f and "-DFORMAT_Y=FORMAT_ND" in f
    src = tmp_path / "k.cpp"
    src.write_text(_FORMAT_KERNEL)
    import subprocess
    proc = subprocess.run(["g++", *flags.common_flags(), *f, f"-DEXPECT_NZ={nz}", "-fsyntax-only",
                           str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
