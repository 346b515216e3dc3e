"""bfloat16 end to end: inputs, goldens and comparison through ml_dtypes' bfloat16; the sim's bf16
arithmetic and float32 -> bf16 Cast round as the device does (bit-exact against the golden in
every round mode); a bf16 mismatch is reported like any other, never as a raw ValueError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from opkg.core.model import numpy_dtype
from opkg.verify.inputs import make_input
from tests.conftest import opkg

FIXTURE = Path(__file__).parent / "fixtures" / "bf16_ops"
SOC = "Ascend910B1"


def test_bf16_inputs_are_ml_dtypes_and_round_to_nearest_even():
    assert numpy_dtype("bfloat16") == np.dtype(ml_dtypes.bfloat16)
    x = make_input(3, "case", "x", (64,), "bfloat16", (-2.0, 2.0))
    assert x.dtype == ml_dtypes.bfloat16 and x.shape == (64,)
    # the same draw as the float32 variant, rounded (nearest even) to bf16
    f = make_input(3, "case", "x", (64,), "float32", (-2.0, 2.0))
    assert (np.abs(x.astype(np.float32) - f) <= np.abs(f) * 2.0 ** -8).all()
    assert np.float32(1 + 2 ** -8).astype(ml_dtypes.bfloat16) == 1.0     # a tie goes to even


@pytest.fixture
def bf16_ws(workspace):
    shutil.copytree(FIXTURE, workspace.root / "packages" / "bf16_ops")
    return workspace


def _report(ws):
    return json.loads((ws.root / "out/sim/bf16_ops" / SOC / "bfloat16_float32" / "verification.json").read_text())


def test_bf16_kernel_verifies_bit_exactly_in_every_round_mode(bf16_ws):
    r = opkg("build", "packages/bf16_ops", "--json", cwd=bf16_ws.root, check=0)
    [target] = json.loads(r.stdout)["targets"]
    report = _report(bf16_ws)
    assert target["passed"], json.dumps(report["results"], indent=1)[:3000]
    outs = [c["outputs"]["z"] for c in report["results"]]
    assert len(outs) == 8 and all(o["dtype"] == "bfloat16" and o["mismatches"] == 0 for o in outs)


def test_a_bf16_mismatch_is_a_reported_failure(bf16_ws):
    golden = bf16_ws.root / "packages/bf16_ops/golden.py"
    # a golden that truncates where the kernel asked CAST_FLOOR: negative values differ by an ulp
    text = golden.read_text()
    assert '"round", "floor"' in text
    golden.write_text(text.replace('"round", "floor"', '"round", "trunc"'))
    r = opkg("build", "packages/bf16_ops", cwd=bf16_ws.root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "ValueError" not in r.stdout + r.stderr
    by_case = {c["case"]: c for c in _report(bf16_ws)["results"]}
    assert not by_case["cast_floor"]["passed"] and by_case["cast_floor"]["error"] is None
    assert by_case["cast_floor"]["outputs"]["z"]["mismatches"] > 0
    assert all(c["passed"] for name, c in by_case.items() if name != "cast_floor")


def test_bf16_compound_volatile_and_constexpr(tmp_path):
    # the device's bfloat16_t is __bf16: `res += x` (ops-nn's SIMT segment_sum) adds in float and
    # rounds the sum to bf16 once; 1 + 2^-8 is a tie that goes to even (1.0), 1 + 3 * 2^-9 rounds up
    import subprocess

    from opkg.sim import flags

    src = tmp_path / "bf.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "int main() {\n"
                   "    bfloat16_t a = 1.0f, b = 1.0f;\n"
                   "    a += 0.00390625f;\n"
                   "    b += bfloat16_t(0.005859375f);\n"
                   "    bfloat16_t c = 3.0f;\n"
                   "    c -= 1.0; c *= (half)1.5; c /= 4;\n"
                   "    static_assert(std::is_trivially_copyable<bfloat16_t>::value);\n"
                   "    static constexpr bfloat16_t one = 1.0;\n"   # atvoss's MAKE_CONST(bfloat16_t, 1.0)
                   "    static_assert(one.bits == 0x3f80 && float(one) == 1.0f && bfloat16_t(0.1f).bits == 0x3dcd);\n"
                   "    volatile bfloat16_t v[2];\n"   # through a volatile GM pointer (SIMT gather_elements)
                   "    volatile bfloat16_t* p = v;\n"
                   "    p[0] = c; p[1] = p[0]; bfloat16_t back = p[1];\n"
                   "    return (float(a) == 1.0f && float(b) == 1.0078125f && float(c) == 0.75f &&\n"
                   "            float(back) == 0.75f) ? 0 : 1;\n"
                   "}\n")
    exe = tmp_path / "bf"
    r = subprocess.run(["g++", *flags.common_flags(), "-D__NPU_ARCH__=3510", "-D__CCE_AICORE__=310",
                        "-DOPKG_SIM_KERNEL=1", str(src), "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert subprocess.run([str(exe)]).returncode == 0
