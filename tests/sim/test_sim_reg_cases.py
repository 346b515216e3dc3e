"""Register-API forms of the Ascend 950 on an own kernel (tests/sim/pkgs/regcases) against NumPy:
the two-register tensors (RegTensor<T, RegTraitNumTwo>), whose `.reg[k]` reinterpreted as a
one-register tensor reads and writes the pair as the devkit lays it out (a 64-bit tensor's reg[0]
the low words, reg[1] the high ones; a 32-bit pair's reg[k] its k-th 64 elements); `Mula` called
unqualified, and `StoreAlign<...>` called unqualified with explicit template arguments (C++20 lookup,
which bisheng takes in C++17); `PairReduceElem`; the integer, bitwise, compare and select families;
configurations (a CastTrait, an ErfConfig) that name statics of templates."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec
from opkg.core.socs import get_soc
from opkg.sim import runtime
import simbuild

OP = OpSpec("RegCases", (TensorSpec("x", ("int32",)),), (TensorSpec("z", ("int32",)),),
            (AttrSpec("which", "int", required=True),))
WORDS = 256


@pytest.fixture(scope="module")
def built(pkgs, lib_cache):
    return simbuild.build(pkgs / "regcases", OP, OP.variant("int32"), get_soc("Ascend950PR_9599"),
                          lib_cache, stem="reg_cases")


def compile_950(src):
    """g++ -fsyntax-only of a source against the sim's headers for the Ascend 950."""
    import subprocess

    from opkg.sim import flags

    return subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(get_soc("Ascend950PR_9599")),
                           "-fsyntax-only", str(src)], capture_output=True, text=True)


def run(built, which, x):
    z = np.full(WORDS, -7, np.int32)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"z": z},
                     {"which": which})
    return z


def test_a_64_bit_pair_reads_as_its_low_and_high_words(built):
    rng = np.random.default_rng(5)
    wide = rng.integers(-2**62, 2**62, 64, dtype=np.int64)
    x = np.zeros(WORDS, np.int32)
    x[:128] = wide.view(np.int32)
    z = run(built, 1, x)
    low = (wide & 0xffffffff).astype(np.uint32).view(np.int32)
    high = (wide >> 32).astype(np.int32)
    np.testing.assert_array_equal(z[:64], low)
    np.testing.assert_array_equal(z[64:128], high)
    np.testing.assert_array_equal(z[128:192], low + np.int32(1))


def test_writes_through_a_float_pair_s_registers_land_in_the_pair(built):
    f = np.linspace(-3, 5, 128, dtype=np.float32)
    x = np.zeros(WORDS, np.int32)
    x[:128] = f.view(np.int32)
    z = run(built, 2, x)
    np.testing.assert_array_equal(z[:128].view(np.float32), f * 2)


def test_words_moved_into_a_64_bit_pair_s_halves_make_its_elements(built):
    rng = np.random.default_rng(6)
    x = rng.integers(-2**31, 2**31 - 1, WORDS, dtype=np.int64).astype(np.int32)
    z = run(built, 3, x)
    want = (x[:64].astype(np.int64) & 0xffffffff) | (x[64:128].astype(np.int64) << 32)
    np.testing.assert_array_equal(z[:128].view(np.int64), want)


def test_mula_found_by_argument_dependent_lookup_multiplies_and_adds(built):
    rng = np.random.default_rng(7)
    f = rng.uniform(-2, 2, 192).astype(np.float32)
    x = np.zeros(WORDS, np.int32)
    x[:192] = f.view(np.int32)
    got = run(built, 4, x)[:64].view(np.float32)
    exact = f[:64].astype(np.float64) * f[64:128] + f[128:192]
    # fused or rounded after the product (the devkit's page does not say): within one float
    # rounding of the terms' size of the exact result
    bound = 2.0 ** -23 * (np.abs(f[:64].astype(np.float64) * f[64:128]) + np.abs(f[128:192]))
    assert np.all(np.abs(got - exact) <= bound)


def test_pair_reduce_sums_neighbours_into_the_low_half(built):
    # small integers: every order of summation gives the same float
    f = np.arange(1, 65, dtype=np.float32)
    x = np.zeros(WORDS, np.int32)
    x[:64] = f.view(np.int32)
    z = run(built, 5, x)[:64].view(np.float32)
    kept = np.where(np.arange(64) < 50, f, 0)
    np.testing.assert_array_equal(z[:8], kept.reshape(8, 8).sum(axis=1))
    np.testing.assert_array_equal(z[8:], 0)


def test_integer_bitwise_compare_and_select_match_numpy(built):
    rng = np.random.default_rng(8)
    a = rng.integers(-1000, 1000, 64, dtype=np.int32)
    b = rng.integers(-1000, 1000, 64, dtype=np.int32)
    x = np.zeros(WORDS, np.int32)
    x[:64], x[64:128] = a, b
    z = run(built, 6, x)
    np.testing.assert_array_equal(z[:64], a * b + np.minimum(a, b))
    np.testing.assert_array_equal(z[64:128], (a & b) ^ ~(a | b))
    np.testing.assert_array_equal(z[128:192], ((np.abs(a) << 3) >> 1) - np.maximum(np.minimum(a, 5), np.maximum(b, -5)))
    np.testing.assert_array_equal(z[192:], np.where((a < b) & (a >= 0), a, 0))


def test_configurations_naming_statics_of_templates_compile_and_apply(built):
    """g++ 12 crashes on a reference template argument naming a static of a template; the sim's
    Cast and the 950 math API take the configuration's code (core/algo_config.h), so dynamic_quant's
    and ge_glu_v2's spellings compile, and the trait's rounding mode is the one applied."""
    import math

    a = np.arange(-32, 32, dtype=np.int32) * 3
    x = np.zeros(WORDS, np.int32)
    x[:64] = a
    z = run(built, 8, x)
    np.testing.assert_array_equal(z[:64], np.floor(a.astype(np.float32) * 0.5).astype(np.int32))
    want = np.array([math.erf(v) for v in (a.astype(np.float32) / np.float32(64))], np.float32)
    np.testing.assert_array_equal(z[64:128].view(np.float32), want)


def test_a_gather_of_bytes_into_16_bit_lanes_reads_one_byte_a_lane(built):
    """Gather's int8 -> int16 and uint8 -> uint16 pairs (max_pool_v3's 8-bit kernels): the index
    counts bytes, each lane one byte, sign- or zero-extended; bytes past the last index unread."""
    rng = np.random.default_rng(10)
    raw = rng.integers(-128, 128, 384, dtype=np.int64).astype(np.int8)
    x = np.zeros(WORDS, np.int32)
    x[:96] = raw.view(np.int32)
    z = run(built, 9, x)
    np.testing.assert_array_equal(z[:64].view(np.int16), raw[0:384:3].astype(np.int16))
    np.testing.assert_array_equal(z[64:128].view(np.uint16), raw[0:384:3].view(np.uint8).astype(np.uint16))


def test_a_register_viewed_as_another_width_keeps_its_bytes_definedness(built):
    """(RegTensor<uint32_t>&)halfReg, as ops-nn's int4 quantization kernels view a register for
    Pack: the view's lane i is the half lanes 2i and 2i+1 (the same bytes: the lanes start at one
    offset in every RegTensor), defined where both are."""
    halves = np.linspace(-3, 3, 64).astype(np.float16)
    x = np.zeros(WORDS, np.int32)
    x[:32] = halves.view(np.int32)
    z = run(built, 10, x)
    np.testing.assert_array_equal(z[16:32].view(np.float16), halves[0::2])
    assert not z[:16].any()


def test_numeric_limits_give_the_types_extreme_and_special_values(tmp_path):
    """AscendC::NumericLimits<T> (ops-nn's 950 norm kernels: Lowest, NegativeInfinity, QuietNaN),
    checked at compile time against the values of the types."""
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   "static_assert(NumericLimits<int8_t>::Lowest() == -128 && NumericLimits<uint16_t>::Max() == 65535);\n"
                   "static_assert(NumericLimits<int32_t>::Min() == -2147483647 - 1);\n"
                   "static_assert(NumericLimits<float>::Max() == 3.4028234663852886e38f);\n"
                   "static_assert(NumericLimits<float>::Min() == 1.1754943508222875e-38f);\n"
                   "static_assert(NumericLimits<float>::DeNormMin() == 1.401298464324817e-45f);\n"
                   "static_assert(NumericLimits<float>::NegativeInfinity() < -NumericLimits<float>::Max());\n"
                   "static_assert(NumericLimits<float>::Infinity() > NumericLimits<float>::Max());\n"
                   "static_assert(float(NumericLimits<half>::Max()) == 65504.0f);\n"
                   "static_assert(float(NumericLimits<half>::Min()) == 0.00006103515625f);\n"
                   "static_assert(float(NumericLimits<bfloat16_t>::Lowest()) == -3.3895313892515355e38f);\n"
                   "static_assert(NumericLimits<float>::QuietNaN() != NumericLimits<float>::QuietNaN());\n"
                   "static_assert(__builtin_bit_cast(uint32_t, NumericLimits<float>::QuietNaN()) == 0x7FC00000u);\n"
                   # the tensor forms (rms_norm_grad's QuietNaN(dst, count)) fill by Duplicate
                   "void Fill(LocalTensor<float>& t, LocalTensor<half>& h, uint32_t n) {\n"
                   "    NumericLimits<float>::QuietNaN(t, n); NumericLimits<half>::Lowest(h, n); }\n")
    r = compile_950(src)
    assert r.returncode == 0, r.stderr[-3000:]


def test_index_family_spellings_compile(tmp_path):
    """What ops-nn's 950 index kernels take from the device's headers and compiler: the TopK
    implementation's global TWO/THREE/FOUR (a kernel's own constant in its namespace hides them),
    bisheng's `mem_bar(VST_VLD)`, its built-in `int4` (one type with a kernel's own ext_vector
    typedef of it) and `__simt_callee__` without the SIMT API, the high-level `Fill` of GM, the
    two-form `assert` without <cassert>, `adv_api/sort/sort.h` by name, the SIMT math API's
    global isnan/isinf/isfinite, the float bit patterns of kernel_utils_constants.h (F32_NEG_INF:
    ops-nn's pooling SIMT kernels), and `int4x2_t` in a discarded branch and instantiated."""
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "adv_api/sort/sort.h"\n'
                   '#include "simt_api/math_functions.h"\n'
                   "using namespace AscendC;\n"
                   "template <class T> bool Nan(float v) { return isnan(v) || isinf(v) || !isfinite(v); }\n"
                   "template <class T> void Quant(MicroAPI::RegTensor<half>& h, MicroAPI::MaskReg& m) {\n"
                   "    if constexpr (sizeof(T) == 1) { MicroAPI::RegTensor<int4x2_t> q;\n"
                   "        MicroAPI::Cast<int4x2_t, half, MicroAPI::castTrait>(q, h, m); } }\n"
                   "template void Quant<int16_t>(MicroAPI::RegTensor<half>&, MicroAPI::MaskReg&);\n"
                   "static_assert(TWO == 2 && THREE == 3 && FOUR == 4 && sizeof(int4) == 16);\n"
                   "static_assert(F32_NEG_INF == 0xff800000u && F32_INF == 0x7f800000u && F32_NAN == 0x7fc00000u);\n"
                   "namespace Idx { typedef int32_t int4 __attribute__((vector_size((4) * 4))); }\n"
                   "using namespace Idx;\n"
                   "template <class T> struct Elem { using type = int4; };\n"
                   "__simt_callee__ inline int4 Copy16(int4 v) { return v; }\n"
                   "namespace Own { constexpr int32_t TWO = 5; static_assert(TWO == 5); }\n"
                   "void f(GlobalTensor<int8_t>& g, int n) {\n"
                   "    __VEC_SCOPE__ { mem_bar(VST_VLD); mem_bar(VV_ALL); }\n"
                   "    Fill(g, uint64_t(n), int8_t(0));\n"
                   '    assert(n >= 0, "n is %d", n);\n'
                   "    assert(n < 1 << 20);\n"
                   "}\n")
    r = compile_950(src)
    assert r.returncode == 0, r.stderr[-3000:]
    # instantiated for int4: the cast to int4x2_t compiles (test_sim_lowfloat.py runs it)
    src.write_text(src.read_text().replace("Quant<int16_t>", "Quant<int8_t>"))
    r = compile_950(src)
    assert r.returncode == 0, r.stderr[-3000:]


def test_squeezed_stores_go_to_the_base_plus_the_ar_register(built):
    rng = np.random.default_rng(9)
    a = rng.integers(-50, 50, 128, dtype=np.int32)
    x = np.zeros(WORDS, np.int32)
    x[:128] = a
    z = run(built, 7, x)
    kept = a[a > 0]
    assert z[255] == len(kept)
    np.testing.assert_array_equal(z[:len(kept)], kept)
