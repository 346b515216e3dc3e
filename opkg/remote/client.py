"""A REAPI v2 client for the action cache and the CAS (gRPC, BuildGrid's generated stubs).

Calls: GetCapabilities, GetActionResult, UpdateActionResult, FindMissingBlobs,
BatchUpdateBlobs / BatchReadBlobs for small blobs, ByteStream Write / Read for large ones.
Every call has a deadline, so a slow server costs seconds, not a hung build. Transport and
server errors become `RemoteError`; a blob whose bytes do not hash to its digest is
`Rejected` (the caller treats the entry as a miss). Only SHA-256 is spoken.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc
from buildgrid._protos.google.bytestream import bytestream_pb2, bytestream_pb2_grpc

from opkg.remote.config import RemoteConfig

CALL_TIMEOUT = float(os.environ.get("OPKG_REMOTE_CACHE_TIMEOUT", "10"))  # seconds per call
CHUNK = 1 << 20                        # ByteStream chunk
BATCH_LIMIT = 2 << 20                  # batch calls carry at most this much (below 4 MiB gRPC)
_SHA256 = re_pb2.DigestFunction.SHA256


class RemoteError(Exception):
    """The server could not be used (unreachable, too slow, refused, answered nonsense)."""


class Rejected(Exception):
    """A cache entry that must not be used (a blob that does not match its digest)."""


def digest_of(data: bytes) -> re_pb2.Digest:
    return re_pb2.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


def _describe(exc: grpc.RpcError) -> str:
    code = exc.code() if hasattr(exc, "code") else None
    detail = (exc.details() if hasattr(exc, "details") else "") or ""
    if code == grpc.StatusCode.UNAVAILABLE:
        return "unreachable (" + (detail.split("\n")[0][:160] or "connection failed") + ")"
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return f"no answer within {CALL_TIMEOUT:g}s"
    if code in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
        return f"refused the credentials ({code.name}: {detail[:160]})"
    return f"{code.name if code else 'error'}: {detail[:200]}"


class Client:
    def __init__(self, config: RemoteConfig):
        self.config = config
        self.instance = config.instance
        options = [("grpc.max_receive_message_length", 64 << 20),
                   ("grpc.max_send_message_length", 64 << 20)]
        if config.tls:
            read = lambda p: Path(p).read_bytes() if p else None   # noqa: E731
            creds = grpc.ssl_channel_credentials(read(config.ca_cert), read(config.client_key),
                                                 read(config.client_cert))
            self.channel = grpc.secure_channel(config.target, creds, options)
        else:
            self.channel = grpc.insecure_channel(config.target, options)
        token = config.token()
        self.metadata = (("authorization", f"Bearer {token}"),) if token else ()
        self.cas = re_grpc.ContentAddressableStorageStub(self.channel)
        self.ac = re_grpc.ActionCacheStub(self.channel)
        self.caps = re_grpc.CapabilitiesStub(self.channel)
        self.bytestream = bytestream_pb2_grpc.ByteStreamStub(self.channel)
        self.can_update = True

    def close(self) -> None:
        self.channel.close()

    def _call(self, method, request, timeout=None):
        try:
            return method(request, timeout=timeout or CALL_TIMEOUT, metadata=self.metadata)
        except grpc.RpcError as exc:
            raise RemoteError(_describe(exc)) from None

    # -- capabilities --------------------------------------------------------------------------

    def check(self) -> None:
        """GetCapabilities: the server answers, speaks SHA-256 and (if not) says whether this
        client may write to its action cache (then only reads happen)."""
        caps = self._call(self.caps.GetCapabilities,
                          re_pb2.GetCapabilitiesRequest(instance_name=self.instance))
        cache = caps.cache_capabilities
        if cache.digest_functions and _SHA256 not in cache.digest_functions:
            raise RemoteError("the server does not offer SHA-256 digests")
        self.can_update = cache.action_cache_update_capabilities.update_enabled

    def check_execution(self) -> bool:
        """GetCapabilities: whether the server runs actions (an Execution service, SHA-256)."""
        caps = self._call(self.caps.GetCapabilities,
                          re_pb2.GetCapabilitiesRequest(instance_name=self.instance))
        ex = caps.execution_capabilities
        return ex.exec_enabled and (not ex.digest_function or ex.digest_function == _SHA256)

    # -- action cache --------------------------------------------------------------------------

    def get_action_result(self, action_digest) -> re_pb2.ActionResult | None:
        try:
            return self.ac.GetActionResult(
                re_pb2.GetActionResultRequest(instance_name=self.instance,
                                              action_digest=action_digest,
                                              inline_stdout=False, inline_stderr=False),
                timeout=CALL_TIMEOUT, metadata=self.metadata)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                return None
            raise RemoteError(_describe(exc)) from None

    def update_action_result(self, action_digest, result: re_pb2.ActionResult) -> None:
        self._call(self.ac.UpdateActionResult,
                   re_pb2.UpdateActionResultRequest(instance_name=self.instance,
                                                    action_digest=action_digest,
                                                    action_result=result))

    # -- CAS -----------------------------------------------------------------------------------

    def upload(self, blobs: dict[str, tuple]) -> int:
        """blobs: hash -> (Digest, bytes or a Path). Uploads those the server lacks; returns
        how many it lacked."""
        if not blobs:
            return 0
        missing = []
        hashes = list(blobs)
        for start in range(0, len(hashes), 1000):
            reply = self._call(self.cas.FindMissingBlobs, re_pb2.FindMissingBlobsRequest(
                instance_name=self.instance,
                blob_digests=[blobs[h][0] for h in hashes[start:start + 1000]]))
            missing += [d.hash for d in reply.missing_blob_digests]
        batch, size = [], 0
        for h in missing:
            digest, data = blobs[h]
            if digest.size_bytes > BATCH_LIMIT // 2:
                self._write_stream(digest, data)
                continue
            if size + digest.size_bytes > BATCH_LIMIT:
                self._batch_update(batch)
                batch, size = [], 0
            batch.append(re_pb2.BatchUpdateBlobsRequest.Request(
                digest=digest, data=data if isinstance(data, bytes) else Path(data).read_bytes()))
            size += digest.size_bytes
        if batch:
            self._batch_update(batch)
        return len(missing)

    def _batch_update(self, requests) -> None:
        reply = self._call(self.cas.BatchUpdateBlobs, re_pb2.BatchUpdateBlobsRequest(
            instance_name=self.instance, requests=requests))
        for r in reply.responses:
            if r.status.code != 0:
                raise RemoteError(f"the server refused blob {r.digest.hash[:16]}…: "
                                  f"{r.status.message[:160]}")

    def _resource(self, digest, upload: bool) -> str:
        parts = [self.instance] if self.instance else []
        if upload:
            parts += ["uploads", str(uuid.uuid4())]
        parts += ["blobs", digest.hash, str(digest.size_bytes)]
        return "/".join(parts)

    def _write_stream(self, digest, data) -> None:
        name = self._resource(digest, upload=True)

        def requests():
            stream = open(data, "rb") if not isinstance(data, bytes) else None
            try:
                offset = 0
                while True:
                    chunk = stream.read(CHUNK) if stream else data[offset:offset + CHUNK]
                    last = offset + len(chunk) >= digest.size_bytes
                    yield bytestream_pb2.WriteRequest(
                        resource_name=name if offset == 0 else "", write_offset=offset,
                        finish_write=last, data=chunk)
                    offset += len(chunk)
                    if last:
                        return
            finally:
                if stream:
                    stream.close()

        timeout = CALL_TIMEOUT + digest.size_bytes / (8 << 20)    # at least 8 MiB/s
        reply = self._call(self.bytestream.Write, requests(), timeout=timeout)
        if reply.committed_size not in (digest.size_bytes, -1):
            raise RemoteError(f"the server kept {reply.committed_size} of "
                              f"{digest.size_bytes} bytes of blob {digest.hash[:16]}…")

    def download(self, digests, dest_dir: Path) -> dict[str, Path]:
        """Fetch blobs into files named by their hash under dest_dir, each verified against its
        digest as it is written. Rejected if any blob is missing or does not match."""
        small = [d for d in digests if d.size_bytes <= BATCH_LIMIT // 2]
        out = {}
        for d in digests:
            if d.size_bytes > BATCH_LIMIT // 2:
                out[d.hash] = self._read_stream(d, dest_dir / d.hash)
        batch, size = [], 0
        for d in small + [None]:
            if d is None or size + d.size_bytes > BATCH_LIMIT:
                if batch:
                    out.update(self._batch_read(batch, dest_dir))
                batch, size = [], 0
            if d is not None:
                batch.append(d)
                size += d.size_bytes
        return out

    def _batch_read(self, digests, dest_dir: Path) -> dict[str, Path]:
        reply = self._call(self.cas.BatchReadBlobs, re_pb2.BatchReadBlobsRequest(
            instance_name=self.instance, digests=digests))
        out = {}
        for r in reply.responses:
            if r.status.code != 0:
                raise Rejected(f"blob {r.digest.hash[:16]}… is not in the CAS "
                               f"({r.status.message[:120] or 'code ' + str(r.status.code)})")
            _check(r.digest, len(r.data), hashlib.sha256(r.data).hexdigest())
            path = dest_dir / r.digest.hash
            path.write_bytes(r.data)
            out[r.digest.hash] = path
        for d in digests:
            if d.hash not in out:
                raise Rejected(f"the server did not return blob {d.hash[:16]}…")
        return out

    def _read_stream(self, digest, path: Path) -> Path:
        h, size = hashlib.sha256(), 0
        timeout = CALL_TIMEOUT + digest.size_bytes / (8 << 20)
        try:
            with open(path, "wb") as fout:
                for reply in self.bytestream.Read(
                        bytestream_pb2.ReadRequest(resource_name=self._resource(digest, False)),
                        timeout=timeout, metadata=self.metadata):
                    h.update(reply.data)
                    size += len(reply.data)
                    if size > digest.size_bytes:
                        break
                    fout.write(reply.data)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                raise Rejected(f"blob {digest.hash[:16]}… is not in the CAS") from None
            raise RemoteError(_describe(exc)) from None
        _check(digest, size, h.hexdigest())
        return path


def _check(digest, size: int, hexdigest: str) -> None:
    if size != digest.size_bytes or hexdigest != digest.hash:
        raise Rejected(f"blob {digest.hash[:16]}… ({digest.size_bytes} bytes) arrived as "
                       f"{size} bytes hashing to {hexdigest[:16]}…")
