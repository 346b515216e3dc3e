"""Which kernel entry the sim compiles for a SoC: ops-nn kernels define a template entry for
Ascend 950 under `#if __CCE_AICORE__ == 310` and an extern "C" one in the #else; the template
path (an entry generated per tiling key) is taken only where the preprocessor keeps it."""

from __future__ import annotations

from opkg.core.socs import soc_table
from opkg.sim import codegen, flags

# in the form of hicann/ops-nn pooling/adaptive_avg_pool3d_grad/op_kernel/*.cpp
KERNEL = """\
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310
template <uint64_t MODE = 0>
__global__ __aicore__ void pool_grad(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
}
#else
extern "C" __global__ __aicore__ void pool_grad(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
}
#endif
"""


def _defines(soc: str) -> dict:
    return codegen.arch_defines(flags.arch_flags(soc_table(None)[soc]))


def test_the_template_entry_counts_only_where_the_preprocessor_keeps_it():
    assert _defines("Ascend910B1")["__CCE_AICORE__"] == 220
    assert not codegen.template_kernel("k.cpp", KERNEL, "pool_grad", _defines("Ascend910B1"))
    assert codegen.template_kernel("k.cpp", KERNEL, "pool_grad", {"__CCE_AICORE__": 310})
    # a condition on a macro the compile line does not define is undecided: both kept
    other = KERNEL.replace("defined(__CCE_AICORE__) && __CCE_AICORE__ == 310", "SOME_OPTION")
    assert codegen.template_kernel("k.cpp", other, "pool_grad", _defines("Ascend910B1"))


def test_branches_of_if_elif_else_and_nesting():
    code = "\n".join(["#if A == 1", "a", "#elif B > 1", "b", "#else", "c",
                      "#if !defined(C) || C != 2", "d", "#endif", "#endif", "e"])
    assert codegen.active_code(code, {"A": 1}).split() == ["a", "e"]
    assert codegen.active_code(code, {"A": 0, "B": 2}).split() == ["b", "e"]
    assert codegen.active_code(code, {"A": 0, "B": 0}).split() == ["c", "d", "e"]
    assert codegen.active_code(code, {"A": 0, "B": 0, "C": 2}).split() == ["c", "e"]
    # a macro the compile line does not define (a header may): every branch from there kept
    assert codegen.active_code(code, {"A": 0}).split() == ["b", "c", "d", "e"]
    assert codegen.active_code(code, {}).split() == ["a", "b", "c", "d", "e"]
    assert codegen.active_code("#ifdef A\na\n#else\nb\n#endif", {"A": 0}).split() == ["a"]


def test_the_tiling_key_declaration_is_found_through_the_includes_the_soc_keeps(tmp_path):
    # in the form of hicann/ops-nn conv/conv3d_v2/op_kernel: the Ascend 950's key header under
    # `#if __CCE_AICORE__ > 300`, the 910B's in the #else, each declaring in its own namespace
    (tmp_path / "arch35").mkdir()
    (tmp_path / "arch35" / "key_950.h").write_text(
        "namespace Key950 {\nASCENDC_TPL_ARGS_DECL(conv, ASCENDC_TPL_UINT_DECL(A, 1, 0, 1));\n}\n")
    (tmp_path / "key_910b.h").write_text(
        "namespace Key910B {\nASCENDC_TPL_ARGS_DECL(conv, ASCENDC_TPL_UINT_DECL(B, 1, 0, 1));\n}\n")
    kernel = ("#if (__CCE_AICORE__ > 300)\n#include \"arch35/key_950.h\"\n#else\n"
              "#include \"key_910b.h\"\n#endif\n")
    source = tmp_path / "conv.cpp"
    source.write_text(kernel)
    assert codegen.tpl_decl_namespace(source, kernel, [tmp_path],
                                      defines=_defines("Ascend910B1")) == "Key910B"
    assert codegen.tpl_decl_namespace(source, kernel, [tmp_path],
                                      defines={"__CCE_AICORE__": 310}) == "Key950"
    # without the compile line's macros every branch is kept: the first include found wins
    assert codegen.tpl_decl_namespace(source, kernel, [tmp_path]) == "Key950"
