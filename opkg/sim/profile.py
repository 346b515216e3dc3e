"""The kernel profile: per-block counters from a sim run, aggregated, and a roofline time
estimate per SoC. A model, not a measurement (docs/profile.md says what it leaves out).

`counters(blocks)` turns the `OpkgBlockProfile` entries the kernel library filled into plain
JSON-able data; `estimate(counters, soc)` prices them with the SoC table's model fields;
`profile(counters, soc)` is what verification.json stores per case.
"""

from __future__ import annotations

from opkg.model import SocInfo

COPY_DIRS = ("gm_to_ub", "ub_to_gm", "ub_to_ub")          # abi.h OpkgBlockProfile.copies order
# Copy-size buckets, as kcore.h count_copy fills them; the first (under 512 B) holds the copies
# that waste most of a GM burst on hardware.
BUCKET_EDGES = (0, 512, 2048, 8192, 32768)
MODEL_FIELDS = ("gm_bandwidth_gbps", "clock_ghz", "vector_bytes_per_cycle")
NOTE = ("a model, not a measurement: GM bytes over the SoC's GM bandwidth and vector bytes over "
        "its vector throughput, overlapped when every queue has BUFFER_NUM >= 2 (docs/profile.md)")


def counters(blocks, cores: int | None = None) -> dict:
    """Sums over blocks, plus the busiest block's GM and vector bytes (the slowest core
    decides the time) and per-block maxima of UB use and tile size. With more blocks than
    `cores`, the hardware runs them in waves: `waves` blocks one after another per core."""
    copies = {d: {"count": 0, "bytes": 0, "histogram": [
        {"from": lo, "below": hi, "count": 0}
        for lo, hi in zip(BUCKET_EDGES, BUCKET_EDGES[1:] + (None,))]} for d in COPY_DIRS}
    kinds: dict[str, dict] = {}
    waves = -(-len(blocks) // cores) if cores else 1
    out = {"blocks": len(blocks), "waves": max(waves, 1), "gm_read_bytes": 0, "gm_write_bytes": 0, "vector_other_calls": 0,
           "ub_alloc_bytes": 0, "ub_touched_bytes": 0, "tile_bytes": 0, "queues": 0,
           "min_queue_buffers": 0, "max_queue_buffers": 0,
           "busiest_block": {"gm_bytes": 0, "vector_bytes": 0}}
    min_buffers = None
    for b in blocks:
        out["gm_read_bytes"] += b.gm_read_bytes
        out["gm_write_bytes"] += b.gm_write_bytes
        for i, d in enumerate(COPY_DIRS):
            copies[d]["count"] += b.copies[i]
            copies[d]["bytes"] += b.copy_bytes[i]
            for j, bucket in enumerate(copies[d]["histogram"]):
                bucket["count"] += b.copy_hist[i][j]
        vec_bytes = 0
        for k in b.vec[:b.vec_kinds]:
            name = k.name.decode("ascii", "replace")
            row = kinds.setdefault(name, {"calls": 0, "elements": 0, "bytes": 0, "repeats": 0})
            for f in row:
                row[f] += getattr(k, f)
            vec_bytes += k.bytes
        out["vector_other_calls"] += b.vec_other_calls
        busiest = out["busiest_block"]
        busiest["gm_bytes"] = max(busiest["gm_bytes"], b.gm_read_bytes + b.gm_write_bytes)
        busiest["vector_bytes"] = max(busiest["vector_bytes"], vec_bytes)
        for f, src in (("ub_alloc_bytes", b.ub_alloc_bytes), ("ub_touched_bytes", b.ub_touched_bytes),
                       ("tile_bytes", b.max_copy_bytes), ("max_queue_buffers", b.max_queue_buffers)):
            out[f] = max(out[f], src)
        out["queues"] = max(out["queues"], b.queues)
        if b.queues:
            min_buffers = b.min_queue_buffers if min_buffers is None else min(min_buffers, b.min_queue_buffers)
    out["min_queue_buffers"] = min_buffers or 0
    out["gm_bytes"] = out["gm_read_bytes"] + out["gm_write_bytes"]
    out["copies"] = copies
    out["small_copies"] = sum(copies[d]["histogram"][0]["count"] for d in ("gm_to_ub", "ub_to_gm"))
    out["vector"] = {"calls": sum(r["calls"] for r in kinds.values()) + out.pop("vector_other_calls"),
                     "bytes": sum(r["bytes"] for r in kinds.values()),
                     "by_kind": dict(sorted(kinds.items()))}
    return out


def estimate(c: dict, soc: SocInfo) -> dict:
    """Roofline time for one run on `soc`; without a model figure, no estimate and a note."""
    missing = [f for f in MODEL_FIELDS if getattr(soc, f) is None]
    if missing:
        return {"soc": soc.name, "total_us": None,
                "note": f"no time estimate for {soc.name}: toolchains/socs.yaml has no "
                        f"{', '.join(missing)} for it"}
    # GM bandwidth is shared by the whole chip; the vector units are per core, so the busiest
    # block's vector work is what the cores finish last.
    copy_us = c["gm_bytes"] / (soc.gm_bandwidth_gbps * 1e3)
    compute_us = (c["busiest_block"]["vector_bytes"] * c.get("waves", 1)
                  / (soc.vector_bytes_per_cycle * soc.clock_ghz * 1e3))
    overlapped = c["min_queue_buffers"] >= 2
    total = max(copy_us, compute_us) if overlapped else copy_us + compute_us
    both = copy_us + compute_us
    return {"soc": soc.name, "total_us": total, "copy_us": copy_us, "compute_us": compute_us,
            "copy_share": copy_us / both if both else 0.0,
            "compute_share": compute_us / both if both else 0.0,
            "bound": "memory" if copy_us >= compute_us else "compute",
            "overlapped": overlapped, "cores_used": -(-c["blocks"] // c.get("waves", 1)),
            "note": None if overlapped else (
                "copy and compute add up: " + ("no TQue holds 2 or more buffers" if c["queues"]
                                               else "the kernel uses no TQue") + " (BUFFER_NUM < 2)")}


def profile(c: dict, soc: SocInfo) -> dict:
    """The per-case record verification.json keeps."""
    return {"model": True, "note": NOTE, "counters": c, "estimate": estimate(c, soc)}
