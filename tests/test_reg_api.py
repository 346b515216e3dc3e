"""The Ascend 950's register-based vector API (AscendC::Reg / AscendC::MicroAPI) on the sim:
a kernel written with it builds and verifies against NumPy, and its misuse is reported with the
kernel's file:line (tests/fixtures/reg_elu)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import opkg

def _float32_only(workspace, *flags, check=1):
    # one variant is enough to see a diagnostic
    return opkg("test", "packages/reg_elu", "--variant", "float32", "--jobs", "1", *flags, cwd=workspace.root,
                check=check)


def test_a_register_api_kernel_verifies_in_float32_float16_and_bfloat16(workspace):
    workspace.copy_fixture("reg_elu")
    r = opkg("build", "packages/reg_elu", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    assert set(target["variants"]) == {"float32", "float16_float32", "bfloat16_float32"}
    report = json.loads((workspace.root / "out/sim/reg_elu/Ascend950PR_9599/float16_float32/verification.json")
                        .read_text())
    for result in report["results"]:
        # the float exp of the C library and NumPy's may differ in the last bit, which can move
        # a float16 rounding by one unit: at most one float16 ulp, relative 2**-10
        assert result["passed"] and result["outputs"]["y"]["max_rel_error"] <= 2.0 ** -10


def test_a_mask_register_used_before_anything_set_it_is_an_error_at_its_line(workspace):
    workspace.copy_fixture("reg_elu", ("        mask = MicroAPI::UpdateMask<float>(count);\n", "        (void)count;\n"))
    r = _float32_only(workspace)
    assert "reg_elu.cpp:" in r.stdout and "the MaskReg was never set" in r.stdout, r.stdout


def test_a_store_past_the_unified_buffer_is_an_error_at_its_line(workspace):
    # y's buffer starts at UB byte 32768 (after x's 8192 floats): the first store starts 128 bytes
    # before the end of the 256 KiB UB and runs 128 bytes past it
    workspace.copy_fixture("reg_elu", ("MicroAPI::StoreAlign(dst + i * vl, y, mask);", "MicroAPI::StoreAlign(dst + i * vl + 57312, y, mask);"))
    r = _float32_only(workspace)
    assert "reg_elu.cpp:35" in r.stdout and "run past the end of the SoC's 262144-byte Unified Buffer" in r.stdout, \
        r.stdout


def test_a_lost_unaligned_store_tail_leaves_undefined_data_that_reaches_gm(workspace):
    """StoreUnAlign keeps the bytes after the last 32-byte boundary until StoreUnAlignPost: a
    kernel that never flushes them stores garbage, which the sim reports where it reaches GM."""
    workspace.copy_fixture("reg_elu", ("MicroAPI::StoreAlign(dst + i * vl, y, mask);",
                      "{ MicroAPI::UnalignReg u; __ubuf__ T* d = dst + i * vl; "
                      "MicroAPI::StoreUnAlign(d, y, u, 64 - (i == loops - 1 ? (loops * 64 - 111) : 0)); }"))
    r = _float32_only(workspace)
    assert "stores undefined values" in r.stdout, r.stdout


def test_register_api_families_match_numpy_exactly(workspace):
    """tests/fixtures/reg_families: Cast with FLOOR + SAT to int32 and TRUNC to half, post-updated
    LoadAlign, the DIST_BRC_B32 load, Arange + register Gather, ReduceDataBlock, Max,
    Interleave, Sub with carry + SubC (an int64 subtraction from 32-bit halves), the
    FIRST/PACK/masked stores and the older DataCopy spelling, each against its
    NumPy reference with no error at all."""
    shutil.copytree(Path(__file__).parent / "fixtures" / "reg_families", workspace.root / "packages" / "reg_families")
    r = opkg("build", "packages/reg_families", "--json", "--jobs", "1", cwd=workspace.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    assert target["passed"], r.stdout + r.stderr
    report = json.loads((workspace.root / "out/sim/reg_families/Ascend950PR_9599/float32_int32_float16_int64/"
                         "verification.json").read_text())
    assert len(report["results"]) == 2
    for result in report["results"]:
        assert result["passed"]
        assert {name: out["max_abs_error"] for name, out in result["outputs"].items()} == dict.fromkeys(
            ("sat", "inter", "rev", "blkmax", "brc", "half", "wide"), 0.0)


_STORE = "            MicroAPI::StoreAlign(dst + i * vl, y, mask);\n"
_RELOAD = "            { MicroAPI::RegTensor<float> again; MicroAPI::LoadAlign(again, dst + i * vl); }\n"


def test_a_load_of_what_the_vector_function_just_stored_needs_a_local_mem_bar(workspace):
    """A vector load of UB bytes a store of the same vector function wrote, with no
    LocalMemBar<VEC_STORE, VEC_LOAD> between them, may read them before the store lands (the
    devkit's LocalMemBar page): --sync-check reports it with both lines."""
    workspace.copy_fixture("reg_elu", (_STORE, _STORE + _RELOAD))
    r = _float32_only(workspace, "--sync-check")
    assert "reg_elu.cpp:36: " in r.stdout and "StoreAlign at packages/reg_elu/op_kernel/reg_elu.cpp:35" in r.stdout
    assert "no LocalMemBar<MemType::VEC_STORE, MemType::VEC_LOAD>" in r.stdout, r.stdout


def test_a_local_mem_bar_orders_the_load_after_the_store(workspace):
    barrier = "            MicroAPI::LocalMemBar<MicroAPI::MemType::VEC_STORE, MicroAPI::MemType::VEC_LOAD>();\n"
    workspace.copy_fixture("reg_elu", (_STORE, _STORE + barrier + _RELOAD))
    _float32_only(workspace, "--sync-check", check=0)


def test_the_950_toolchain_names_arch35_index_kernels_use_compile(tmp_path):
    """ONE_BLOCK_SIZE (the 950 toolchain's, which the devkit's dav_3510 code and ops-nn's
    scatter_add use undefined; a kernel's own in its namespace hides it) and the count-less
    store spelling DataCopyUnAlign<T, POST_MODE_UPDATE>(addr, reg, ureg) (unsorted_segment_sum):
    a Squeeze<STORE_REG> count stored at the post-updated address."""
    import subprocess

    from opkg.core.socs import get_soc
    from opkg.sim import flags

    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "using namespace AscendC;\n"
                   "static_assert(ONE_BLOCK_SIZE == 32);\n"
                   "namespace Own { using namespace AscendC; constexpr uint64_t ONE_BLOCK_SIZE = 64;\n"
                   "static_assert(ONE_BLOCK_SIZE == 64); }\n"
                   "void f(__ubuf__ int32_t* out, MicroAPI::RegTensor<int32_t>& r, MicroAPI::MaskReg& m) {\n"
                   "    MicroAPI::UnalignReg u;\n"
                   "    MicroAPI::RegTensor<int32_t> kept;\n"
                   "    MicroAPI::Squeeze<int32_t, MicroAPI::GatherMaskMode::STORE_REG>(kept, r, m);\n"
                   "    MicroAPI::DataCopyUnAlign<int32_t, MicroAPI::PostLiteral::POST_MODE_UPDATE>(out, kept, u);\n"
                   "    MicroAPI::DataCopyUnAlignPost(out, u);\n"
                   "}\n")
    soc = get_soc("Ascend950PR_9599")
    r = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc), "-fsyntax-only", str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def test_ctrl_register_fields_are_those_the_devkit_allows(tmp_path):
    """SetCtrlSpr<start, end> (ops-nn's gelu_quant sets bit 60, the float overflow mode): bits
    6..10 and the single bits 45, 48, 50, 53, 59 and 60, as dav_3510's SetCtrlSprImpl asserts."""
    import subprocess

    from opkg.core.socs import get_soc
    from opkg.sim import flags

    def compile_(body):
        src = tmp_path / "k.cpp"
        src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                       f"int64_t f() {{ {body} }}\n")
        return subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(get_soc("Ascend950PR_9599")),
                               "-fsyntax-only", str(src)], capture_output=True, text=True)

    ok = compile_("SetCtrlSpr<60, 60>(0); SetCtrlSpr<6, 10>(3); ResetCtrlSpr<60, 60>(); "
                  "return GetCtrlSpr<0, 63>() + GetCtrlSpr<6, 10>();")
    assert ok.returncode == 0, ok.stderr[-2000:]
    bad = compile_("SetCtrlSpr<61, 61>(1); return 0;")
    assert bad.returncode != 0 and "Invalid startBit/endBit on current device!" in bad.stderr
