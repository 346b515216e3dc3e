"""Debian's `docker-registry` (CNCF distribution 2.8) on a free loopback port, with filesystem
storage under the test's tmp directory (so a test can damage a blob the way a disk would),
optionally behind htpasswd basic auth. Stopped (its process group) by `stop`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

USER, PASSWORD = "ci", "s3cret-for-tests"

CONFIG = """\
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: {storage}
  delete:
    enabled: false
http:
  addr: 127.0.0.1:{port}
{auth}"""

AUTH = """\
auth:
  htpasswd:
    realm: opkg-tests
    path: {htpasswd}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DockerRegistry:
    def __init__(self, root: Path, *, auth: bool = False, namespace: str = "opkg"):
        self.root = root
        self.auth = auth
        self.storage = root / "storage"
        self.port = free_port()
        self.host = f"127.0.0.1:{self.port}"
        self.url = f"oci://{self.host}/{namespace}"
        auth_cfg = ""
        if auth:
            htpasswd = root / "htpasswd"
            subprocess.run(["htpasswd", "-Bbc", str(htpasswd), USER, PASSWORD], check=True,
                           capture_output=True)
            auth_cfg = AUTH.format(htpasswd=htpasswd)
        cfg = root / "config.yml"
        cfg.write_text(CONFIG.format(storage=self.storage, port=self.port, auth=auth_cfg))
        self.log = open(root / "registry.log", "w")
        self.proc = subprocess.Popen(["docker-registry", "serve", str(cfg)], stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("docker-registry exited:\n"
                                   + (self.root / "registry.log").read_text())
            try:
                if requests.get(f"http://{self.host}/v2/", timeout=2).status_code in (200, 401):
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("docker-registry did not answer in time:\n"
                                   + (self.root / "registry.log").read_text())
            time.sleep(0.1)

    def env(self) -> dict[str, str]:
        """What a client needs to reach this registry (plain HTTP on loopback; credentials
        when it asks for them)."""
        env = {"OPKG_OCI_PLAIN_HTTP": "1", "OPKG_OCI_SETTLE": "0.5"}
        if self.auth:
            env.update(OPKG_OCI_USERNAME=USER, OPKG_OCI_PASSWORD=PASSWORD)
        return env

    def blob_file(self, digest: str) -> Path:
        """Where distribution's filesystem driver keeps a blob (manifests are blobs too)."""
        hex_ = digest.split(":", 1)[1]
        return self.storage / "docker" / "registry" / "v2" / "blobs" / "sha256" / hex_[:2] / hex_ / "data"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()
