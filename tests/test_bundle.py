import io
import tarfile

import pytest

from opkg.core import bundle
from opkg.core.errors import RegistryError


def test_bundles_are_byte_identical_and_well_formed(tmp_path):
    lib = tmp_path / "lib.so"
    lib.write_bytes(b"\x7fELF...")
    meta = {"name": "x", "version": "1.0.0"}
    a, b = tmp_path / "a.tgz", tmp_path / "b.tgz"
    bundle.write_bundle(a, meta, {"lib/lib.so": lib, "z.txt": b"z", "a.txt": b"a"})
    lib.touch()   # a newer mtime must not change the archive
    bundle.write_bundle(b, meta, {"a.txt": b"a", "z.txt": b"z", "lib/lib.so": lib})
    assert a.read_bytes() == b.read_bytes()
    with tarfile.open(a) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == ["opkg-bundle.json", "a.txt", "lib/lib.so", "z.txt"]
    assert {(m.uid, m.gid, m.mtime) for m in members} == {(0, 0, bundle.FIXED_MTIME)}
    assert bundle.read_metadata(a) == {"name": "x", "version": "1.0.0", "format": 1}


def _evil(tmp_path, member: tarfile.TarInfo, data=b"x"):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        meta = b"{}"
        info = tarfile.TarInfo("opkg-bundle.json")
        info.size = len(meta)
        tar.addfile(info, io.BytesIO(meta))
        if member.isfile():
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
        else:
            tar.addfile(member)
    path = tmp_path / "evil.tgz"
    path.write_bytes(raw.getvalue())
    return path


@pytest.mark.parametrize("name, kind", [("../escape", tarfile.REGTYPE),
                                        ("/etc/passwd", tarfile.REGTYPE),
                                        ("link", tarfile.SYMTYPE), ("dev", tarfile.CHRTYPE)])
def test_safe_extract_refuses_escapes_links_and_devices(tmp_path, name, kind):
    member = tarfile.TarInfo(name)
    member.type = kind
    if kind == tarfile.SYMTYPE:
        member.linkname = "/etc/passwd"
    dest = tmp_path / "dest"
    with pytest.raises(RegistryError):
        bundle.safe_extract(_evil(tmp_path, member), dest)
    assert not dest.exists() or not any(dest.iterdir())
    assert not (tmp_path / "escape").exists()


def test_not_a_bundle(tmp_path):
    p = tmp_path / "x.tgz"
    p.write_bytes(b"not gzip")
    with pytest.raises(RegistryError, match="unreadable bundle"):
        bundle.read_metadata(p)
