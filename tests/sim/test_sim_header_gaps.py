"""Header constructs cann-ops operators use that the sim lacked, on a small operator of our own
(tests/sim/pkgs/hdrgaps): AscendC::ToFloat on a bf16/half/float scalar, TQue configured by the
address of a constexpr TQueConfig (its bufferNumber checked against TPipe::InitBuffer), the CCE
builtins get_block_idx()/get_block_num(), block_idx/block_num, clz, bcnt1/bcnt0 and GetBlockNum() inside ASSERT called unqualified from a
class template with no `using namespace AscendC`, GetTPipePtr() from the global namespace; on the host, std::cout with no <iostream>, std::numeric_limits with no <limits>,
ge::DataType from register/tilingdata_base.h alone,
ge::UNKNOWN_DIM/UNKNOWN_RANK, ge::char_t and InferShapeContext::GetInputDesc and GetInputTensor; complex64 tensors
(tests/sim/pkgs/cplx); a TPipe copied from the kernel's (one pool)."""

from __future__ import annotations

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, TensorSpec, numpy_dtype
from opkg.sim import runtime
import simbuild

DTYPES = ("float32", "float16", "bfloat16")
OP = OpSpec("HdrGaps", (TensorSpec("x", DTYPES), TensorSpec("s", DTYPES)), (TensorSpec("y", DTYPES),),
            (AttrSpec("buffers", "int", required=True),))
N = 4 * 512


@pytest.fixture(scope="module", params=DTYPES)
def built(request, pkgs, soc910b, lib_cache):
    return simbuild.build(pkgs / "hdrgaps", OP, OP.variant(request.param), soc910b, lib_cache, stem="hdr_gaps")


def run(built, buffers=1):
    dtype = numpy_dtype(built.variant.dtype_of("x"))
    x = np.random.default_rng(0).uniform(-4, 4, N).astype(dtype)
    s = np.array([1.375], dtype=dtype)          # exact in every dtype
    y = np.full(N, np.nan, dtype=dtype)
    runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x, "s": s}, {"y": y},
                     {"buffers": buffers})
    return x, y


def test_tofloat_tqueconfig_and_block_builtins(built):
    x, y = run(built)
    want = (x.astype(np.float32) * np.float32(1.375)).astype(x.dtype)
    np.testing.assert_array_equal(y, want)      # every block covered its quarter


def test_initbuffer_disagreeing_with_tqueconfig_is_an_error(built, pkgs):
    with pytest.raises(runtime.SimError) as e:
        run(built, buffers=2)
    assert "its TQueConfig says bufferNumber = 1" in e.value.message
    assert e.value.line == simbuild.line_of(pkgs / "hdrgaps" / "op_kernel" / "hdr_gaps.cpp", "initbuffer")


def test_infer_shape_reads_input_descs_and_unknown_dims(built):
    shapes = runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (4, 512), "s": (1,)},
                                         {"buffers": 1})
    assert shapes["y"][0] == (4, 512)
    shapes = runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (-2,), "s": (1,)},
                                         {"buffers": 1})
    assert shapes["y"][0] == (-2,)
    # the InferShape broadcasts x and s through GetInputTensor, which had no tensors (a null
    # pointer: cann-ops KlDivTargetBackward crashed the verifier)
    shapes = runtime.infer_output_shapes(built.host, OP, built.variant, {"x": (4, 512), "s": (3, 1, 1)},
                                         {"buffers": 1})
    assert shapes["y"][0] == (3, 4, 512)


def _run_program(src: str, kernel: bool = True) -> list[str]:
    """Compiles `src` against the emulation headers (a kernel-side program is linked with the sim
    runtime, which defines what the headers only declare), runs it and splits its output."""
    import subprocess, tempfile
    from pathlib import Path

    from opkg.sim import flags

    with tempfile.TemporaryDirectory() as d:
        cpp, exe = Path(d) / "t.cpp", Path(d) / "t"
        cpp.write_text(src)
        inc = Path(flags.__file__).parent / "include"
        extra = ["-mf16c", str(flags.runtime_source())] if kernel else []
        subprocess.run([simbuild.CXX, "-std=c++17", f"-I{inc}", str(cpp), *extra, "-o", str(exe)], check=True)
        return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()


def test_the_scalar_cast_of_bfloat16_follows_the_devkit(pkgs):
    """asc-devkit's scalar Cast (kernel_scalar_convert.h; ops-nn's add_layer_norm_quant reads a
    bf16 scale with `Cast(gm.GetValue(0))`): bf16 -> float widens exactly, float -> bf16 rounds
    to nearest, ties to even (unlike the truncating ToBfloat16), overflows to infinity, and
    makes NaN 0x7fff."""
    src = r'''
#include "kernel_operator.h"
#include <cmath>
#include <cstdio>
int main() {
    float tie_down = 1.0f + 1.0f / 256.0f, tie_up = 1.0f + 3.0f / 256.0f, above = 1.0f + 1.5f / 256.0f;
    bfloat16_t b = AscendC::ToBfloat16(tie_up);
    std::printf("%.9g %04x %04x %04x %04x %04x %04x\n", AscendC::Cast(b), AscendC::Cast(tie_down).bits,
                AscendC::Cast(tie_up).bits, AscendC::Cast(above).bits, AscendC::Cast(-3.4e38f).bits,
                AscendC::Cast(NAN).bits, AscendC::Cast(-INFINITY).bits);
}
'''
    assert _run_program(src) == ["1.0078125", "3f80", "3f82", "3f81", "ff80", "7fff", "ff80"]


def test_hf32_mode_rounds_the_float_inputs_of_mmad(pkgs):
    """SetHF32Mode/SetHF32TransMode (the devkit's kernel_operator_mm_intf.h; ops-nn's conv3d
    backprop kernels set it): float Mmad operands keep 11 mantissa bits, rounded to nearest, a tie
    to even or (NEAREST_ZERO, the bit Matmul's SetHF32(true, 1) sets) away from zero; off, they
    pass unchanged (the operand loader Mmad uses)."""
    src = r'''
#include "kernel_operator.h"
#include <cstdio>
int main() {
    float v[3];
    auto load = [&]() { v[0] = 1.0f + 2048.0f / 8388608.0f; v[1] = -(1.0f + 2049.0f / 8388608.0f); v[2] = 2.5f;
                        AscendC::cube_detail::hf32_round<float, float>(v, 3); };
    load(); std::printf("%.9g %.9g\n", v[0], v[1]);
    AscendC::SetHF32Mode(AscendC::HF32Mode::ENABLE);
    load(); std::printf("%.9g %.9g %.9g\n", v[0], v[1], v[2]);
    AscendC::SetHF32TransMode(AscendC::HF32TransMode::NEAREST_ZERO);
    load(); std::printf("%.9g %.9g\n", v[0], v[1]);
}
'''
    off_a, off_b, even_a, even_b, even_c, away_a, away_b = _run_program(src)
    assert (off_a, off_b) == ("1.00024414", "-1.00024426")
    # 1 + half an HF32 ulp is a tie: to even it stays 1, away from zero it is 1 + 2^-11;
    # 1 + 2049/2^23 is past the half either way: -(1 + 2^-11)
    assert (even_a, even_b, even_c) == ("1", "-1.00048828", "2.5")
    assert (away_a, away_b) == ("1.00048828", "-1.00048828")


def test_tofloat_and_tobfloat16_follow_cann(pkgs):
    """ToBfloat16 keeps the upper 16 bits of the float (no rounding), ToFloat widens exactly."""
    src = r'''
#include "kernel_operator.h"
#include <cstdio>
int main() {
    float f = 1.0f + 3.0f / 256.0f;   // halfway between bf16 0x3f81 and 0x3f82: RNE would give 0x3f82
    bfloat16_t b = AscendC::ToBfloat16(f);
    std::printf("%04x %.9g %.9g %.9g\n", b.bits, AscendC::ToFloat(b), AscendC::ToFloat(half(0.5f)), AscendC::ToFloat(2.5f));
}
'''
    out = _run_program(src)
    assert out == ["3f81", "1.0078125", "0.5", "2.5"]


def test_every_arithmetic_type_converts_to_bfloat16_t():
    """The device's bfloat16_t (__bf16) takes any arithmetic value implicitly. cann-ops' foreach
    scalar kernels instantiate `T(inScalarGM.GetValue(0))` with T = bfloat16_t and a half scalar
    GM; the sim's float/double/int constructors made half, int64_t and unsigned ambiguous."""
    src = r'''
#include "kernel_operator.h"
#include <cstdio>
template <class T, class S> T first(__gm__ S* p) {
    AscendC::GlobalTensor<S> g;
    g.SetGlobalBuffer(p, 1);
    T v = T(g.GetValue(0));
    return v;
}
int main() {
    half h[1] = {half(1.5f)};
    bfloat16_t a = first<bfloat16_t>(h);
    bfloat16_t b = h[0];
    bfloat16_t c = int64_t(-3), d = uint8_t(200), e = 2.25, f = true, g = 7u, r = 1.0f + 3.0f / 256.0f;
    std::printf("%g %g %g %g %g %g %g %g %04x\n", float(a), float(b), float(c), float(d), float(e), float(f),
                float(g), float(half(a)), r.bits);
}
'''
    out = _run_program(src)
    # the float constructor still rounds to nearest even (0x3f82), unlike ToBfloat16
    assert out == ["1.5", "1.5", "-3", "200", "2.25", "1", "7", "1.5", "3f82"]


def test_a_four_element_braced_copy_list_is_data_copy_params():
    """CANN's DataCopyExtParams constructor takes five values, so DataCopyPad(gm, local,
    {1, bytes, 0, 0}) resolves to the DataCopyParams overload; a defaulted fifth made it
    ambiguous (cann-ops InplaceAttnSoftmax did not compile)."""
    import subprocess, tempfile
    from pathlib import Path

    from opkg.sim import flags

    src = r'''
#include "kernel_operator.h"
#include <type_traits>
static_assert(!std::is_constructible<AscendC::DataCopyExtParams, int, int, int, int>::value,
              "four values make a DataCopyParams only");
void store(AscendC::GlobalTensor<half> gm, AscendC::LocalTensor<half> ub) {
    AscendC::DataCopyPad(gm, ub, {1, (uint16_t)(16 * sizeof(half)), 0, 0});
}
int main() {}
'''
    with tempfile.TemporaryDirectory() as d:
        cpp = Path(d) / "t.cpp"
        cpp.write_text(src)
        inc = Path(flags.__file__).parent / "include"
        r = subprocess.run([simbuild.CXX, "-std=c++17", "-mf16c", "-fsyntax-only", f"-I{inc}", str(cpp)],
                           capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_kernels_call_scalar_min_and_max_unqualified():
    """The device compiler gives kernel code scalar min/max without an include (cann-ops'
    EyeFp64: `int realTimes = min(numRows, numColumns);` under `using namespace AscendC`);
    std::min stays usable beside them."""
    src = r'''
#include "kernel_operator.h"
#include <algorithm>
#include <cstdio>
using namespace AscendC;
int main() {
    int rows = 18, cols = 10;
    uint32_t a = 7;
    std::printf("%d %d %lld %d\n", min(rows, cols), max(rows, cols), (long long)min(a, int64_t(-1)),
                std::min(rows, cols));
}
'''
    out = _run_program(src)
    assert out == ["10", "18", "-1", "10"]


def test_attr_getters_reinterpret_any_set_attr_as_cann_does():
    """CANN's RuntimeAttrs::GetInt(i) is GetAttrPointer<int64_t>(i): a pointer to the stored
    value whatever its kind (cann-ops' Eye reads GetInt on its ListInt attr and ignores the
    value); only an unset attr gives nullptr. The sim returned nullptr, and Eye's tiling
    dereferenced it."""
    src = r'''
#include "register/op_def_registry.h"
#include <cstdio>
int main() {
    gert::RuntimeAttrs a;
    a.values_.resize(3);
    a.values_[0].kind = 5;   // ListInt
    a.values_[0].ints = gert::TypedContinuousVector<int64_t>({3, 4});
    a.values_[1].kind = 2;   // Int
    a.values_[1].i = 7;      // values_[2] unset
    std::printf("%d %lld %d %d\n", a.GetInt(0) == a.GetAttrPointer<int64_t>(0) && a.GetInt(0) != nullptr,
                (long long)*a.GetInt(1), a.GetListInt(1) != nullptr, a.GetInt(2) == nullptr);
}
'''
    out = _run_program(src, kernel=False)
    assert out == ["1", "7", "1", "1"]


CPLX = OpSpec("CplxScale", (TensorSpec("x", ("complex64",)),), (TensorSpec("y", ("complex64",)),),
              (AttrSpec("scale", "float", required=True),))


def test_complex64_tensors_reach_tiling_and_kernel(pkgs, soc910b, lib_cache):
    """DT_COMPLEX64 in the OpDef, DTYPE_X a pair of floats, NumPy complex64 in and out."""
    b = simbuild.build(pkgs / "cplx", CPLX, CPLX.variant("complex64"), soc910b, lib_cache, stem="cplx_scale")
    x = (np.arange(64, dtype=np.float32) - 1j * np.arange(64, dtype=np.float32)[::-1]).astype(np.complex64)
    y = np.full(64, np.nan, dtype=np.complex64)
    runtime.run_case(b.host, b.kernel, CPLX, b.variant, b.soc, {"x": x}, {"y": y}, {"scale": -1.5})
    np.testing.assert_array_equal(y, x * np.float32(-1.5))
    (proto,) = runtime.host_prototypes(b.host)
    assert proto["inputs"][0]["dtypes"] == ["complex64"]     # the OpDef check can compare it
