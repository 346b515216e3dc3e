"""The kernel profile: per-block counters from a sim run, aggregated, and a roofline time
estimate per SoC. A model, not a measurement (docs/profile.md says what it leaves out).

`counters(blocks)` turns the `OpkgBlockProfile` entries the kernel library filled into plain
JSON-able data; `estimate(counters, soc)` prices them with the SoC table's model fields;
`profile(counters, soc)` is what verification.json stores per case.
"""

from __future__ import annotations

from functools import lru_cache

from opkg.core.model import SocInfo
from opkg.core.socs import MODEL_FIELDS

COPY_DIRS = ("gm_to_ub", "ub_to_gm", "ub_to_ub")          # abi.h OpkgBlockProfile.copies order
# Copy-size buckets, as kcore.h count_copy fills them; the first (under 512 B) holds the copies
# that waste most of a GM burst on hardware.
BUCKET_EDGES = (0, 512, 2048, 8192, 32768)
NOTE = ("a model, not a measurement: GM bytes over the SoC's GM bandwidth and vector bytes over "
        "its vector throughput, overlapped when a queue has BUFFER_NUM >= 2 (docs/profile.md)")


@lru_cache(maxsize=2)
def _block_dtype(struct):
    import numpy as np

    return np.dtype(struct)


def counters(blocks, cores: int | None = None) -> dict:
    """Sums over blocks, plus the busiest block's GM and vector bytes (the slowest core
    decides the time) and per-block maxima of UB use and tile size. With more blocks than
    `cores`, the hardware runs them in waves: `waves` blocks one after another per core."""
    import numpy as np

    # one structured row per block, viewed in place (the dtype is built once: deriving it from
    # the buffer's format string on every run costs more than the aggregation)
    a = np.frombuffer(memoryview(blocks).cast("B"), dtype=_block_dtype(type(blocks)._type_))
    n = len(a)
    waves = max(-(-n // cores) if cores else 1, 1)
    copies_n, copies_b, hist = (a[f].sum(axis=0) if n else np.zeros(s, np.uint64)
                                for f, s in (("copies", 3), ("copy_bytes", 3),
                                             ("copy_hist", (3, len(BUCKET_EDGES)))))
    copies = {d: {"count": int(copies_n[i]), "bytes": int(copies_b[i]), "histogram": [
        {"from": lo, "below": hi, "count": int(hist[i][j])}
        for j, (lo, hi) in enumerate(zip(BUCKET_EDGES, BUCKET_EDGES[1:] + (None,)))]}
        for i, d in enumerate(COPY_DIRS)}
    # vector instructions by kind: only the first vec_kinds entries of each block are used
    used = np.arange(a["vec"].shape[1] if n else 0)[None, :] < a["vec_kinds"][:, None] if n else None
    kinds: dict[str, dict] = {}
    block_vec_bytes = np.zeros(n, np.uint64)
    if n and used.any():
        vec = a["vec"][used]
        block_vec_bytes = np.where(used, a["vec"]["bytes"], 0).sum(axis=1)
        # names are char[24] in C: one fixed-width bytes value per row
        labels = np.ascontiguousarray(vec["name"]).view(f"S{vec['name'].shape[-1]}").reshape(-1)
        names, inverse = np.unique(labels, return_inverse=True)
        inverse = inverse.reshape(-1)
        for i, name in enumerate(names):
            rows = vec[inverse == i]
            kinds[name.decode("ascii", "replace")] = {f: int(rows[f].sum())
                                                      for f in ("calls", "elements", "bytes", "repeats")}
    gm_block = (a["gm_read_bytes"] + a["gm_write_bytes"]) if n else np.zeros(0, np.uint64)
    with_queues = a["min_queue_buffers"][a["queues"] > 0] if n else np.zeros(0, np.uint32)

    def top(field):
        return int(a[field].max()) if n else 0

    out = {"blocks": n, "waves": waves,
           "gm_read_bytes": int(a["gm_read_bytes"].sum()) if n else 0,
           "gm_write_bytes": int(a["gm_write_bytes"].sum()) if n else 0,
           "ub_alloc_bytes": top("ub_alloc_bytes"), "ub_touched_bytes": top("ub_touched_bytes"),
           "tile_bytes": top("max_copy_bytes"), "queues": top("queues"),
           "min_queue_buffers": int(with_queues.min()) if len(with_queues) else 0,
           "max_queue_buffers": top("max_queue_buffers"),
           "busiest_block": {"gm_bytes": int(gm_block.max()) if n else 0,
                             "vector_bytes": int(block_vec_bytes.max()) if n else 0},
           # each block's share, in block order: the load balance `opkg report` draws
           "per_block": {"gm_bytes": [int(v) for v in gm_block],
                         "vector_bytes": [int(v) for v in block_vec_bytes]}}
    out["gm_bytes"] = out["gm_read_bytes"] + out["gm_write_bytes"]
    out["copies"] = copies
    out["small_copies"] = sum(copies[d]["histogram"][0]["count"] for d in ("gm_to_ub", "ub_to_gm"))
    other = int(a["vec_other_calls"].sum()) if n else 0
    out["cube"] = {"calls": int(a["cube_calls"].sum()) if n else 0,
                   "flops": int(a["cube_flops"].sum()) if n else 0,
                   "busiest_block_flops": top("cube_flops")}
    out["vector"] = {"calls": sum(r["calls"] for r in kinds.values()) + other,
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
    # copies overlap compute when the queue the data streams through holds two buffers; a
    # queue filled once per block (LayerNorm's gamma and beta) needs only one, so one queue
    # with BUFFER_NUM >= 2 is enough (the counters do not say which queue streams)
    overlapped = c["max_queue_buffers"] >= 2
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
