"""`opkg profile` advice: the overlap model follows the kernel's queues, and each note is
printed once with what it applies to (no NumPy build needed: counters as the sim records them)."""

from __future__ import annotations

from opkg.cli.profile import render
from opkg.sim.profile import estimate
from opkg.core.socs import get_soc


def counters(min_buffers: int, max_buffers: int, queues: int = 4) -> dict:
    return {"blocks": 48, "waves": 1, "gm_read_bytes": 1 << 20, "gm_write_bytes": 1 << 19,
            "gm_bytes": 3 << 19, "ub_alloc_bytes": 4096, "ub_touched_bytes": 4096,
            "tile_bytes": 1024, "queues": queues, "min_queue_buffers": min_buffers,
            "max_queue_buffers": max_buffers, "small_copies": 0,
            "busiest_block": {"gm_bytes": 1 << 15, "vector_bytes": 1 << 15},
            "copies": {d: {"count": 1, "bytes": 1, "histogram": []}
                       for d in ("gm_to_ub", "ub_to_gm", "ub_to_ub")},
            "vector": {"calls": 10, "bytes": 1 << 15, "by_kind": {}}}


def test_layernorm_queues_double_buffer():
    """LayerNorm: x and y through BUFFER_NUM 2 queues, gamma and beta (read once per block)
    through BUFFER_NUM 1: copies overlap compute, and no note says to double-buffer."""
    soc = get_soc("Ascend910B1")
    e = estimate(counters(1, 2), soc)
    assert e["overlapped"] and e["note"] is None
    assert e["total_us"] == max(e["copy_us"], e["compute_us"])
    single = estimate(counters(1, 1), soc)
    assert not single["overlapped"] and "BUFFER_NUM < 2" in single["note"]
    assert "uses no TQue" in estimate(counters(0, 0, queues=0), soc)["note"]


def rows(package, soc, c, cases=("a", "b", "c"), variants=("float16", "float32")):
    return [{"package": package, "label": f"//packages/{package}", "soc": soc,
             "variant": v, "case": k, "error": None,
             "profile": {"counters": c, "estimate": estimate(c, get_soc(soc))}}
            for v in variants for k in cases]


def test_each_note_once_with_where_it_applies():
    text = render(rows("single", "Ascend910B1", counters(1, 1))
                  + rows("single", "Ascend910B4", counters(1, 1))
                  + rows("single", "Ascend310P3", counters(1, 1))
                  + rows("layernorm", "Ascend910B1", counters(1, 2)))
    notes = [l for l in text.splitlines() if l.startswith("note:")]
    assert len(notes) == 2, notes
    assert notes[0].startswith("note: copy and compute add up: no TQue holds 2 or more buffers")
    assert notes[0].endswith("[single on Ascend910B1 (6 cases), single on Ascend910B4 (6 cases)]")
    assert notes[1].startswith("note: no time estimate for Ascend310P3")
    assert notes[1].endswith("[single on Ascend310P3 (6 cases)]")
    assert "layernorm" not in "".join(notes)
