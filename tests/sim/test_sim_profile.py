"""The kernel profile: counters that can be counted by hand, and the roofline model on top."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest

from opkg.sim import runtime
from opkg.sim.profile import estimate, profile
from opkg.core.socs import get_soc
import simbuild
from test_sim_kernels import ADD, build_add
from test_sim_vector_ops import OP as VEC_OP, PADDED

N = 8 * 2048          # the add kernel: 8 blocks, 8 tiles, BUFFER_NUM 2 -> 16 tiles of 128 per block


def run_add(built, dtype):
    x = np.ones(N, dtype)
    z = np.zeros_like(x)
    info = runtime.run_case(built.host, built.kernel, ADD, built.variant, built.soc, {"x": x, "y": x},
                            {"z": z}, {})
    assert np.all(z == 2)
    return info.profile


def test_add_counters_are_exact(pkgs, lib_cache, soc910b):
    c = run_add(build_add(pkgs, "float32", soc910b, lib_cache), np.float32)
    # 16 tiles per block, each: two 512-byte loads, one Add of 128 floats, one 512-byte store
    assert c["blocks"] == 8
    assert (c["gm_read_bytes"], c["gm_write_bytes"], c["gm_bytes"]) == (2 * N * 4, N * 4, 3 * N * 4)
    load, store, local = (c["copies"][d] for d in ("gm_to_ub", "ub_to_gm", "ub_to_ub"))
    assert (load["count"], load["bytes"], store["count"], store["bytes"]) == (256, 2 * N * 4, 128, N * 4)
    assert local == {"count": 0, "bytes": 0, "histogram": [
        {"from": lo, "below": hi, "count": 0}
        for lo, hi in ((0, 512), (512, 2048), (2048, 8192), (8192, 32768), (32768, None))]}
    assert [b["count"] for b in load["histogram"]] == [0, 256, 0, 0, 0]    # 512 B is not small
    assert c["small_copies"] == 0 and c["tile_bytes"] == 512
    assert c["vector"] == {"calls": 128, "bytes": N * 4, "by_kind": {
        "Add": {"calls": 128, "elements": N, "bytes": N * 4, "repeats": 256}}}
    assert c["busiest_block"] == {"gm_bytes": 3 * N * 4 // 8, "vector_bytes": N * 4 // 8}
    assert c["per_block"] == {"gm_bytes": [3 * N * 4 // 8] * 8, "vector_bytes": [N * 4 // 8] * 8}
    # three queues of 2 x 512 B; a queue hands out its buffers in turn, as the device's cursor
    # does, so one tile at a time still writes both buffers of each queue over the run
    assert (c["queues"], c["min_queue_buffers"], c["max_queue_buffers"]) == (3, 2, 2)
    assert (c["ub_alloc_bytes"], c["ub_touched_bytes"]) == (3 * 2 * 512, 3 * 2 * 512)


def test_copies_under_512_bytes_are_flagged(pkgs, lib_cache, soc910b):
    c = run_add(build_add(pkgs, "float16", soc910b, lib_cache), np.float16)
    assert c["tile_bytes"] == 256
    assert [b["count"] for b in c["copies"]["gm_to_ub"]["histogram"]] == [256, 0, 0, 0, 0]
    assert [b["count"] for b in c["copies"]["ub_to_gm"]["histogram"]] == [128, 0, 0, 0, 0]
    assert c["small_copies"] == 384


def test_double_buffering_lowers_the_estimate(pkgs, lib_cache, soc910b, tmp_path):
    single = tmp_path / "add1"
    shutil.copytree(pkgs / "add", single)
    src = single / "op_kernel/add_custom.cpp"
    src.write_text(src.read_text().replace("BUFFER_NUM = 2;", "BUFFER_NUM = 1;"))
    one = run_add(simbuild.build(single, ADD, ADD.variant("float32"), soc910b, lib_cache,
                                 stem="add_custom"), np.float32)
    two = run_add(build_add(pkgs, "float32", soc910b, lib_cache), np.float32)
    # same traffic and work; one buffer per queue means tiles twice as large, half as many
    assert one["gm_bytes"] == two["gm_bytes"] and one["vector"]["bytes"] == two["vector"]["bytes"]
    assert (one["tile_bytes"], one["min_queue_buffers"], one["copies"]["gm_to_ub"]["count"]) == (1024, 1, 128)
    e1, e2 = estimate(one, soc910b), estimate(two, soc910b)
    assert not e1["overlapped"] and e2["overlapped"]
    assert e1["total_us"] == pytest.approx(e1["copy_us"] + e1["compute_us"])
    assert e2["total_us"] == pytest.approx(max(e2["copy_us"], e2["compute_us"]))
    assert e2["total_us"] < e1["total_us"]
    assert "BUFFER_NUM < 2" in e1["note"] and e2["note"] is None


def test_roofline_arithmetic(pkgs, lib_cache, soc910b):
    c = run_add(build_add(pkgs, "float32", soc910b, lib_cache), np.float32)
    soc = dataclasses.replace(soc910b, gm_bandwidth_gbps=100.0, clock_ghz=2.0, vector_bytes_per_cycle=128)
    e = estimate(c, soc)
    copy_us = 3 * N * 4 / 100e9 * 1e6                  # whole-chip bytes over chip bandwidth
    compute_us = (N * 4 // 8) / (128 * 2.0e9) * 1e6     # the busiest block over one core
    assert (e["copy_us"], e["compute_us"]) == (pytest.approx(copy_us), pytest.approx(compute_us))
    assert e["bound"] == "memory" and e["copy_share"] == pytest.approx(copy_us / (copy_us + compute_us))
    assert e["cores_used"] == 8
    p = profile(c, soc)
    assert p["model"] is True and "not a measurement" in p["note"]


def test_a_soc_without_a_figure_gets_a_note_not_an_estimate(pkgs, lib_cache):
    soc = get_soc("Ascend310P3")      # the table has no public figures for it
    c = run_add(build_add(pkgs, "float32", soc, lib_cache), np.float32)
    e = estimate(c, soc)
    assert e["total_us"] is None and "copy_us" not in e
    assert "no time estimate for Ascend310P3" in e["note"]
    assert "gm_bandwidth_gbps, clock_ghz, vector_bytes_per_cycle" in e["note"]
    # only the missing one is named
    b2 = get_soc("Ascend910B2")
    assert b2.clock_ghz and b2.vector_bytes_per_cycle and b2.gm_bandwidth_gbps is None
    note = estimate(c, b2)["note"]
    assert note.endswith("has no gm_bandwidth_gbps for it") and "clock_ghz" not in note


@pytest.fixture(scope="module")
def vec32(pkgs, lib_cache):
    return simbuild.build(pkgs / "ops", VEC_OP, VEC_OP.variant("float32"), get_soc("Ascend910B1"), lib_cache,
                          stem="vec_ops")


def run_vec(built, which, count=1000):
    x = np.ones(PADDED, np.float32)
    z = np.zeros(PADDED, np.float32)
    info = runtime.run_case(built.host, built.kernel, VEC_OP, built.variant, built.soc, {"x": x, "y": x},
                            {"z": z}, {"which": which, "scalar": 1.0, "count": count})
    return info.profile


def test_level0_calls_count_masked_elements_and_repeats(vec32):
    c = run_vec(vec32, 70)     # Duplicate of 1024 floats, then a level-0 Add: mask 32, 4 repeats
    assert c["vector"]["by_kind"] == {
        "Duplicate": {"calls": 1, "elements": 1024, "bytes": 4096, "repeats": 16},
        "Add": {"calls": 1, "elements": 4 * 32, "bytes": 4 * 32 * 4, "repeats": 4}}
    assert c["vector"]["calls"] == 2
    # TQue<.., 1> with InitBuffer(.., 1, ..): no double buffering
    assert (c["queues"], c["min_queue_buffers"], c["max_queue_buffers"]) == (3, 1, 1)


def test_datacopypad_and_ub_to_ub_copies_are_counted_by_direction(vec32):
    c = run_vec(vec32, 80, count=1000)
    load, store, local = (c["copies"][d] for d in ("gm_to_ub", "ub_to_gm", "ub_to_ub"))
    # DataCopy x, y (4096 B each) and DataCopyPad of 1000 floats; UB->UB DataCopy of 1008 floats;
    # DataCopyPad of 1008 floats back to GM
    assert (load["count"], load["bytes"]) == (3, 2 * 4096 + 4000)
    assert (local["count"], local["bytes"]) == (1, 1008 * 4)
    assert (store["count"], store["bytes"]) == (1, 1008 * 4)
    assert c["gm_bytes"] == 2 * 4096 + 4000 + 1008 * 4
    assert c["tile_bytes"] == 4096
    assert c["small_copies"] == 0


def test_reductions_and_layout_instructions_are_counted(vec32):
    # WholeReduceMax with a bit mask of every other lane (32 of 64 float lanes), 2 repeats
    kinds = run_vec(vec32, 102)["vector"]["by_kind"]
    assert kinds["WholeReduceMax"] == {"calls": 1, "elements": 2 * 32, "bytes": 2 * 32 * 4, "repeats": 2}
    # Brcb of 4 repeats: each fills 8 blocks of 32 bytes
    kinds = run_vec(vec32, 130)["vector"]["by_kind"]
    assert kinds["Brcb"] == {"calls": 1, "elements": 4 * 64, "bytes": 4 * 256, "repeats": 4}
