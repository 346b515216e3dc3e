"""The host API that ops-nn's matmul operators (hicann/ops-nn matmul/mat_mul_v3,
batch_mat_mul_v3, ...) need beyond the rest of the repository, on a program written here
(tests/sim/pkgs/matmulnn/host_api.cpp, which names what it mirrors): nlohmann/json.hpp (Debian's
nlohmann-json3-dev, which `make test` and .ci/run install), register/register_types.h,
ge::SUCCESS/FAILED, TilingContext::GetDeterministicLevel, AscendC::tiling::TCubeTiling on
the host, and the CANN library functions those headers declare (the tuning class factory, the
knowledge bank's QueryBank, the legacy library's GenTiling, TilingPrepareForOpCache,
CheckSupportConditionQbmm, GenWqbmmTiling), from the sim's host runtime. The kernel side (FORMAT_* macros, MatmulConfig) is in test_sim_flags_codegen.py and
test_sim_hl_matmul.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

from opkg.sim import flags

PKG = Path(__file__).parent / "pkgs" / "matmulnn"


def test_matmul_host_code_compiles_and_runs_with_the_sims_host_api(tmp_path):
    # not a skip: the JSON library is a declared dependency (Makefile check-host-headers)
    assert Path("/usr/include/nlohmann/json.hpp").is_file(), \
        "nlohmann/json.hpp missing: install Debian's nlohmann-json3-dev (make check-host-headers)"
    exe = tmp_path / "host_api"
    build = subprocess.run(["g++", *flags.common_flags(), "-DOPKG_SIM_HOST=1", "-o", str(exe),
                            str(PKG / "host_api.cpp"), str(flags.host_runtime_source())],
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    registry, legacy, text, key, base, status, success, level = run.stdout.strip().split("|")
    # the class registered is made again; no knowledge bank entry; no legacy cache tiling
    assert registry == "7,1,1,0"
    assert "GenTiling: CANN's legacy cache tiling is not in the sim" in run.stderr
    # the op cache is prepared (nothing to keep), no quant whitelist entry, no weight-quant tiling
    assert legacy == "1,1,0,0"
    assert "[wqbmm_custom] GenWqbmmTiling: CANN's legacy cache tiling is not in the sim" in run.stderr
    assert text == '{"k":512,"m":64,"n":256,"trans_b":true}'     # nlohmann orders object keys
    assert key == "64,512,256,1" and base == "128,256"
    assert status == f"{0xFFFFFFFF},0" and success == "0"           # ge::FAILED, GRAPH_SUCCESS
    assert level == "0"                                             # no deterministic option set


def test_matmul_configurations_have_asc_devkits_fields(soc910b):
    """Every static_assert in the fixture is one field a constructor sets (a wrong value fails
    the compile at that line)."""
    proc = subprocess.run(["g++", *flags.common_flags(), *flags.arch_flags(soc910b), "-fsyntax-only",
                           str(PKG / "matmul_config.cpp")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
