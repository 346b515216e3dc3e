"""The sort APIs on the sim, on A2 (Ascend910B1: (score, index) pairs, Sort32 repeats of 32) and
310P (Ascend310P3: region proposals, RpSort16 repeats of 16): Concat + Sort + Extract, Sort runs
merged by MrgSort/MrgSort4, exhausted suspension with sortedNum and GetMrgSortResult,
GetSortLen/GetSortOffset, the proposal instructions, against NumPy's stable descending order;
and a bad validBit reported at the kernel's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from opkg.core.model import AttrSpec, OpSpec, SimModes, TensorSpec
from opkg.sim import runtime
from opkg.core.socs import get_soc
import simbuild

OP = OpSpec(
    "SortApi",
    (TensorSpec("x", ("float32", "float16")),),
    (TensorSpec("z", ("float32", "float16")), TensorSpec("zi", ("int32", "int32"))),
    (AttrSpec("which", "int", required=True), AttrSpec("tmp_elems", "int", required=True)),
)
N = 128
KERNEL = Path(__file__).parent / "pkgs" / "sortapi" / "op_kernel" / "sort_api.cpp"
SOCS = {"a2": "Ascend910B1", "310p": "Ascend310P3"}


@pytest.fixture(scope="module", params=[(s, d) for s in SOCS for d in ("float32", "float16")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def built(request, pkgs, lib_cache):
    soc, dtype = request.param
    variant = next(v for v in OP.variants() if v.dtype_of("x") == dtype)
    return simbuild.build(pkgs / "sortapi", OP, variant, get_soc(SOCS[soc]), lib_cache, stem="sort_api")


def pairs(built) -> bool:
    return built.soc.name == SOCS["a2"]


def run(built, which, x, tmp_elems=0, modes=SimModes(), info=None):
    z = np.full(N, 7, x.dtype)
    zi = np.full(N, 7, np.int32)
    got = runtime.run_case(built.host, built.kernel, OP, built.variant, built.soc, {"x": x}, {"z": z, "zi": zi},
                           {"which": which, "tmp_elems": tmp_elems}, modes=modes)
    if info is not None:
        info.append(got)
    return z, zi


def scores(built):
    dtype = np.dtype(built.variant.dtype_of("x")).type
    x = np.random.default_rng(11).integers(-20, 20, N).astype(dtype)   # many ties
    x[:5] = [np.inf, -np.inf, -0.0, 0.0, np.finfo(dtype).max]
    x[7] = np.finfo(dtype).smallest_subnormal
    return x


def stable_desc(x, per=None):
    """Stable descending order of x (per runs of `per` if given): NumPy's reference order."""
    per = per or len(x)
    order = np.concatenate([b + np.argsort(-x[b:b + per].astype(np.float64), kind="stable")
                            for b in range(0, len(x), per)])
    return order


@pytest.mark.parametrize("which", [1, 2])
def test_full_sort_and_merged_runs_match_numpy(built, which):
    x = scores(built)
    z, zi = run(built, which, x)
    order = stable_desc(x)
    np.testing.assert_array_equal(z, x[order])
    np.testing.assert_array_equal(zi, order)


def test_exhausted_suspension_reports_the_counts(built):
    x = scores(built)
    per = 32 if pairs(built) else 16
    z, zi = run(built, 3, x)
    runs = [x[b:b + per][stable_desc(x[b:b + per])] for b in range(0, 4 * per, per)]
    # merge until the first run is used up: the reference, element by element
    pos = [0, 0, 0, 0]
    merged = []
    while all(p < per for p in pos):
        k = max(range(4), key=lambda k: (runs[k][pos[k]].astype(np.float64), -k))
        merged.append(runs[k][pos[k]])
        pos[k] += 1
    np.testing.assert_array_equal(z[:len(merged)], merged)
    np.testing.assert_array_equal(zi[:4], pos)
    assert zi[4] == len(merged)                    # GetMrgSortResult: the same counts
    record = (8 // x.dtype.itemsize) if pairs(built) else 8
    assert (zi[5], zi[6]) == (10 * record, 3 * record)   # GetSortLen<T>(10), GetSortOffset<T>(3)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_proposal_instructions_on_310p(pkgs, lib_cache, dtype):
    variant = next(v for v in OP.variants() if v.dtype_of("x") == dtype)
    built = simbuild.build(pkgs / "sortapi", OP, variant, get_soc(SOCS["310p"]), lib_cache, stem="sort_api")
    x = scores(built)
    z, _ = run(built, 5, x)
    np.testing.assert_array_equal(z, x[stable_desc(x, 16)])


def test_bad_valid_bit_is_reported(built):
    with pytest.raises(runtime.SimError) as err:
        run(built, 4, scores(built))
    msg = str(err.value)
    marker = "bad-valid" if pairs(built) else "bad-valid4"
    assert f"sort_api.cpp:{simbuild.line_of(KERNEL, marker)}" in msg
    assert "validBit 5 must be 3, 7 or 15" in msg


def test_full_sort_tmp_smaller_than_the_records_is_reported(built):
    # the records run on past tmpLocal inside the UB: warned by default, as the device does not
    # check; an error with --strict-bounds
    at = f"sort_api.cpp:{simbuild.line_of(KERNEL, 'full-sort')}"
    info = []
    run(built, 1, scores(built), tmp_elems=64, info=info)
    assert any(at in l and "tmpLocal" in l for l in info[0].log if "warning:" in l), info[0].log
    with pytest.raises(runtime.SimError) as err:
        run(built, 1, scores(built), tmp_elems=64, modes=SimModes(strict_bounds=True))
    assert at in str(err.value)
    assert "tmpLocal" in str(err.value)
