"""Fixtures for the registry tests (helpers live in registry_testlib.py)."""

from __future__ import annotations

import pytest

from registry_testlib import make_bundle


@pytest.fixture
def bundles(tmp_path):
    out = tmp_path / "bundles"
    out.mkdir()

    def make(*args, subdir=None, **kw):
        d = out / subdir if subdir else out
        d.mkdir(exist_ok=True)
        return make_bundle(d, *args, **kw)
    return make


@pytest.fixture
def registry(tmp_path):
    return tmp_path / "registry"


class DirBackend:
    """The directory registry, as the `backend` fixture hands it to a test."""

    kind = "dir"

    def __init__(self, root):
        self.location = root

    def open(self):
        from opkg.registry.store import Store

        return Store(self.location)

    def damage_blob(self, digest: str, data: bytes) -> None:
        path = self.open().blob_path(digest)
        path.chmod(0o644)
        path.write_bytes(data)

    def untouched(self) -> bool:
        """Nothing was ever written (a refused publish leaves no trace)."""
        return not self.location.exists()

    def stop(self) -> None:
        pass


class OciBackend:
    """An OCI registry (docker-registry on loopback, maybe with basic auth)."""

    kind = "oci"

    def __init__(self, server):
        self.server = server
        self.location = server.url

    def open(self):
        from opkg.registry.oci import OciStore

        return OciStore(self.location)

    def damage_blob(self, digest: str, data: bytes) -> None:
        self.server.blob_file(digest).write_bytes(data)

    def untouched(self) -> bool:
        return not (self.server.storage / "docker" / "registry" / "v2" / "repositories").exists()

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture(params=["dir", "oci", "oci-basic-auth"])
def backend(request, tmp_path, monkeypatch):
    """The registry test matrix runs against each backend: a directory, docker-registry
    (CNCF distribution) on loopback, and the same behind htpasswd basic auth."""
    if request.param == "dir":
        yield DirBackend(tmp_path / "registry")
        return
    from oci_server import DockerRegistry

    root = tmp_path / "oci-server"
    root.mkdir()
    server = DockerRegistry(root, auth=request.param == "oci-basic-auth")
    for k, v in server.env().items():
        monkeypatch.setenv(k, v)
    b = OciBackend(server)
    yield b
    b.stop()


@pytest.fixture
def run_opkg(capsys, monkeypatch, tmp_path):
    """Run the real `opkg` entry point in-process; returns (exit code, stdout, stderr)."""
    from opkg.cli import main

    monkeypatch.chdir(tmp_path)

    def run(*args):
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        return code, out, err
    return run
