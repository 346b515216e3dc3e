"""Archive bombs: a bundle that unpacks to far more than it weighs, or to a flood of entries, is
refused by publish and install while it streams, as an error, never a MemoryError. Damaged
archives are errors too, never tracebacks."""

from __future__ import annotations

import gzip
import io
import json
import resource
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from opkg.core.bundle import FIXED_MTIME, MAX_ENTRIES
from opkg.registry.store import Store
from opkg.registry.records import index_add
from registry_testlib import child_env


class _Zeros(io.RawIOBase):
    def __init__(self, n):
        self.left = n

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


def bomb(path: Path, *, payload: int = 0, entries: int = 0) -> Path:
    """A bundle-shaped archive: real metadata first, then `payload` zero bytes in one member
    or `entries` empty members."""
    meta = json.dumps({"format": 1, "name": "bomb", "version": "1.0.0", "soc": "Ascend910B1",
                       "toolchain": {"id": "sim"}, "variants": [],
                       "verification": {"passed": True, "cases": 0, "failed": 0}}).encode()
    with gzip.GzipFile(path, "wb", compresslevel=9, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w|") as tar:
        for name, size, src in [("opkg-bundle.json", len(meta), io.BytesIO(meta)),
                                ("lib/libbomb.so", payload, io.BufferedReader(_Zeros(payload)))]:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = size, FIXED_MTIME
            tar.addfile(info, src)
        for i in range(entries):
            info = tarfile.TarInfo(f"lib/f{i}")
            info.mtime = FIXED_MTIME
            tar.addfile(info, io.BytesIO(b""))
    return path


@pytest.fixture(scope="module")
def gigabyte_bomb(tmp_path_factory):
    path = bomb(tmp_path_factory.mktemp("bombs") / "bomb-1.0.0-Ascend910B1-sim.opkg.tgz",
                payload=1 << 30)
    assert path.stat().st_size < 2 << 20    # ~1 MiB on disk
    return path


def opkg_capped(*args, cwd):
    """The real CLI, its address space capped at 1 GiB so a regression fails, not swaps."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    return subprocess.run([sys.executable, "-m", "opkg", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=300, preexec_fn=cap,
                          env=child_env())


def _publish_raw(store: Store, path: Path) -> None:
    """Place an archive in the registry as an older or hostile publisher could, digest and
    all: only the installer's own caps can stop it."""
    digest, size = store.put_blob(src=path)
    record = {"format": 1, "name": "bomb", "version": "1.0.0", "summary": "", "op": None,
              "socs": ["Ascend910B1"],
              "bundles": [{"soc": "Ascend910B1", "toolchain": {"id": "sim"}, "blob": digest,
                           "size": size, "variants": []}], "published": {}}
    store.ensure_writable()
    _, rec_digest = store.commit_record("bomb", "1.0.0", record)
    store.update_index(lambda index: index_add(index, record, rec_digest))


def test_publish_refuses_a_gigabyte_bomb(gigabyte_bomb, registry, tmp_path):
    r = opkg_capped("publish", "--bundle", gigabyte_bomb, "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr
    assert "refused: unpacks to more than 256 MiB" in r.stderr
    assert "hint: a bundle unpacks to at most 256 MiB" in r.stderr
    assert not (registry / "index.json").exists()


def test_install_refuses_a_gigabyte_bomb(gigabyte_bomb, registry, tmp_path):
    _publish_raw(Store(registry), gigabyte_bomb)
    dest = tmp_path / "ops"
    r = opkg_capped("install", "bomb", "--soc", "Ascend910B1", "--dest", dest,
                    "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr, r.stderr
    assert "refused: unpacks to more than 256 MiB" in r.stderr
    assert not [p for p in dest.rglob("*") if p.is_file()]


def test_a_flood_of_entries_is_refused(registry, tmp_path):
    path = bomb(tmp_path / "bomb-1.0.0-Ascend910B1-sim.opkg.tgz", entries=MAX_ENTRIES + 10)
    r = opkg_capped("publish", "--bundle", path, "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"refused: more than {MAX_ENTRIES} entries" in r.stderr
    _publish_raw(Store(registry), path)
    dest = tmp_path / "ops"
    r = opkg_capped("install", "bomb", "--soc", "Ascend910B1", "--dest", dest,
                    "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1 and f"more than {MAX_ENTRIES} entries" in r.stderr, r.stderr
    assert not (dest / "bomb").exists()


def test_a_member_claiming_terabytes_is_refused_at_its_header(registry, tmp_path):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        info = tarfile.TarInfo("opkg-bundle.json")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"{}"))
    header = bytearray(raw.getvalue()[:512])
    header[124:136] = b"%011o\0" % (1 << 40)            # size field: 1 TiB
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    path = tmp_path / "huge.opkg.tgz"
    path.write_bytes(gzip.compress(bytes(header) + bytes(1024)))
    r = opkg_capped("publish", "--bundle", path, "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    # publish reads the whole archive first, through the capped stream: skipping the member
    # would pass the cap, so it is refused before any of it is decompressed
    assert "refused: unpacks to more than 256 MiB" in r.stderr


def _metadata_bundle(path: Path, meta: bytes, damage=None) -> Path:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        info = tarfile.TarInfo("opkg-bundle.json")
        info.size, info.mtime = len(meta), FIXED_MTIME
        tar.addfile(info, io.BytesIO(meta))
        info = tarfile.TarInfo("lib/libx.so")
        data = bytes(range(256)) * 64
        info.size, info.mtime = len(data), FIXED_MTIME
        tar.addfile(info, io.BytesIO(data))
    blob = gzip.compress(raw.getvalue())
    path.write_bytes(damage(blob) if damage else blob)
    return path


GOOD_META = json.dumps({"format": 1, "name": "bomb", "version": "1.0.0", "soc": "Ascend910B1",
                        "toolchain": {"id": "sim"}}).encode()


@pytest.mark.parametrize("meta, damage, message", [
    (b'\x80{"format": 1}', None, "damaged bundle"),                      # not UTF-8
    (b"[1, 2]", None, "opkg-bundle.json is not a JSON object"),
    (GOOD_META, lambda b: b[:len(b) * 2 // 3], "damaged bundle"),       # truncated stream
    (GOOD_META, lambda b: b[:30] + b"\xff" * 40 + b[70:], "damaged bundle"),
], ids=["not-utf8-metadata", "list-metadata", "truncated", "overwritten"])
def test_damaged_archives_are_errors(registry, tmp_path, meta, damage, message):
    path = _metadata_bundle(tmp_path / "bomb-1.0.0-Ascend910B1-sim.opkg.tgz", meta, damage)
    r = opkg_capped("publish", "--bundle", path, "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert message in r.stderr
    _publish_raw(Store(registry), path)
    r = opkg_capped("install", "bomb", "--soc", "Ascend910B1", "--dest", tmp_path / "ops",
                    "--registry", registry, cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert message in r.stderr
