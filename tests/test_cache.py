"""`opkg cache stats` / `opkg cache prune`: sizes, hit rates, LRU order, safety under builds."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from opkg.build import cache

SOC = "Ascend910B1"


def opkg(*args, cwd, check=0):
    r = subprocess.run([sys.executable, "-m", "opkg", *args], cwd=cwd, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == check, r.stdout + r.stderr
    return r.stdout


def test_parse_size():
    assert cache.parse_size("1024") == 1024
    assert cache.parse_size("500M") == 500 * 1024 ** 2
    assert cache.parse_size("2g") == 2 * 1024 ** 3
    assert cache.parse_size("1.5GiB") == int(1.5 * 1024 ** 3)
    assert cache.parse_size("4 KB") == 4096
    with pytest.raises(ValueError):
        cache.parse_size("lots")


def _entry(root: Path, sig: str, size: int, age: float) -> Path:
    path = root / "scons" / sig[:2].upper() / sig
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"x" * size)
    t = time.time() - age
    os.utime(path, (t, t))
    return path


def test_prune_removes_least_recently_used_first(tmp_path):
    root = tmp_path / "c"
    old = _entry(root, "aa01", 1000, age=3000)
    mid = _entry(root, "bb02", 1000, age=2000)
    new = _entry(root, "cc03", 1000, age=10)
    s = cache.stats(root)
    assert s["entries"] == 3 and s["size"] == 3000
    r = cache.prune(root, 2000)
    assert r == {"removed": 1, "freed": 1000, "size": 2000, "entries": 2}
    assert not old.exists() and mid.exists() and new.exists()
    cache.prune(root, 1500)
    assert not mid.exists() and new.exists()
    # nothing half-deleted is left in the fan-out directories
    assert sorted(p.name for p in (root / "scons").rglob("*") if p.is_file()) == ["cc03"]


def test_a_restore_counts_as_use(tmp_path):
    root = tmp_path / "c"
    a = _entry(root, "aa01", 10, age=3000)
    b = _entry(root, "bb02", 10, age=2000)
    os.utime(a)                     # what SCons does when it restores an entry
    cache.prune(root, 10)
    assert a.exists() and not b.exists()


def test_prune_waits_for_builds_holding_the_cache(tmp_path):
    root = tmp_path / "c"
    _entry(root, "aa01", 100, age=100)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom opkg.build import cache\n"
         "with cache.shared_lock(sys.argv[1]):\n    print('held', flush=True)\n"
         "    time.sleep(1.5)\n", str(root)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(TimeoutError):
        cache.prune(root, 0, wait=0.2)
    assert cache.stats(root)["entries"] == 1
    started = time.monotonic()
    assert cache.prune(root, 0, wait=30)["removed"] == 1
    assert time.monotonic() - started > 0.3      # it waited for the holder
    holder.wait(timeout=30)


def test_hit_rate_from_recorded_builds(tmp_path):
    root = tmp_path / "c"
    root.mkdir()
    cache.note_build(root, 0, 10, "/w")
    cache.note_build(root, 30, 0, "/w")
    s = cache.stats(root)
    assert (s["hits"], s["misses"], s["hit_rate"]) == (30, 10, 0.75)
    assert cache.stats(root, last=1)["hit_rate"] == 1.0


def test_cli_stats_and_prune_on_a_real_build(workspace):
    workspace.copy_package("add_custom")
    ws = workspace.root
    summaries = [opkg("build", "//...", "--soc", SOC, cwd=ws).splitlines()[-1]]
    opkg("clean", cwd=ws)
    summaries.append(opkg("build", "//...", "--soc", SOC, cwd=ws).splitlines()[-1])
    s = json.loads(opkg("cache", "stats", "--json", cwd=ws))
    assert s["cache_dir"] == os.environ["OPKG_CACHE_DIR"]
    first, second = s["builds"]
    assert first["misses"] > 0 and first["hits"] == 0
    assert second["hits"] > 0 and second["misses"] == 0
    assert s["entries"] > 0 and s["size"] > 0
    text = opkg("cache", "stats", cwd=ws)
    assert "hit rate: " in text and f"in {s['entries']} entries" in text
    # the same numbers, in the same words, as each build's summary line
    for summary, line in zip(summaries, text.splitlines()[-2:]):
        ran, cached = re.search(r"(\d+) steps ran, (\d+) from cache", summary).groups()
        assert re.search(rf"\b{ran} steps ran, +{cached} from cache", line), (summary, line)
    total = f"{first['misses'] + second['misses']} steps ran, {first['hits'] + second['hits']}"
    assert f"over the last 2 build(s) that ran SCons: {total} from cache" in text
    assert "removed" in opkg("cache", "prune", "--max-size", "0", cwd=ws)
    assert json.loads(opkg("cache", "stats", "--json", cwd=ws))["entries"] == 0
    r = subprocess.run([sys.executable, "-m", "opkg", "cache", "prune", "--max-size", "lots"],
                       cwd=ws, capture_output=True, text=True)
    assert r.returncode == 2 and "not a size" in r.stderr
