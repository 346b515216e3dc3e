"""`opkg worker`: a bot of the Remote Workers API (google.devtools.remoteworkers.v1test2) that
executes REAPI actions for a BuildGrid server.

The bot opens a session (CreateBotSession) and keeps it (UpdateBotSession, which the server
holds open until it has work or the call's deadline passes). A lease carries an Action (or its
digest); the bot runs it with opkg.remote.sandbox, uploads the outputs and its stdout/stderr to
the CAS, and hands back an ActionResult naming itself in execution_metadata.worker. The server
stores the result in its action cache and answers the client's Execute. One lease at a time:
start as many workers as the machine has cores.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import grpc
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import bots_pb2, bots_pb2_grpc
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import worker_pb2
from buildgrid._protos.google.rpc import code_pb2

from opkg.remote import sandbox
from opkg.remote.client import Client, digest_of, re_pb2
from opkg.remote.actions import file_digest

POLL = 10.0           # seconds the server may hold an UpdateBotSession open


class Worker:
    def __init__(self, config, name: str, work_dir: Path | None = None, log=print):
        self.client = Client(config)
        self.bots = bots_pb2_grpc.BotsStub(self.client.channel)
        self.name = name
        self.work_dir = Path(work_dir or tempfile.gettempdir())
        self.log = log
        self.executed = 0

    def _call(self, method, request, timeout):
        return method(request, timeout=timeout, metadata=self.client.metadata)

    def _session(self) -> bots_pb2.BotSession:
        worker = worker_pb2.Worker(devices=[worker_pb2.Device(handle=self.name)])
        session = bots_pb2.BotSession(bot_id=self.name, status=bots_pb2.BotStatus.OK,
                                      worker=worker)
        return self._call(self.bots.CreateBotSession, bots_pb2.CreateBotSessionRequest(
            parent=self.client.instance, bot_session=session), POLL)

    def serve(self, stop=lambda: False) -> None:
        """Lease and run actions until stop() is true (checked between server calls)."""
        session = self._session()
        name = session.name
        self.log(f"opkg worker {self.name}: session {name}")
        while not stop():
            for lease in session.leases:
                if lease.state == bots_pb2.LeaseState.ACTIVE:
                    self._execute(lease)
            # the server's answer may leave out who we are; the request must not
            session.name, session.bot_id = name, self.name
            session.status = bots_pb2.BotStatus.OK
            try:
                session = self._call(self.bots.UpdateBotSession, bots_pb2.UpdateBotSessionRequest(
                    name=name, bot_session=session), POLL)
            except grpc.RpcError as exc:
                if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise
                # held with nothing to do: the same session (completed leases included) again

    def _execute(self, lease) -> None:
        action = re_pb2.Action()
        if lease.payload.Is(re_pb2.Action.DESCRIPTOR):
            lease.payload.Unpack(action)
        else:
            digest = re_pb2.Digest()
            lease.payload.Unpack(digest)
            action = re_pb2.Action.FromString(self._blob(digest))
        started = time.monotonic()
        try:
            result = self._run(action)
            lease.status.code = code_pb2.OK
            lease.result.Pack(result)
        except Exception as exc:    # the lease fails with the reason; the bot keeps serving
            lease.status.code = code_pb2.INTERNAL
            lease.status.message = f"opkg worker {self.name}: {exc}"
            self.log(lease.status.message)
        lease.state = bots_pb2.LeaseState.COMPLETED
        self.executed += 1
        self.log(f"opkg worker {self.name}: lease {lease.id} done in "
                 f"{time.monotonic() - started:.2f}s")

    def _blob(self, digest) -> bytes:
        scratch = Path(tempfile.mkdtemp(dir=self.work_dir))
        try:
            return self.client.download([digest], scratch)[digest.hash].read_bytes()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def _run(self, action) -> re_pb2.ActionResult:
        command = re_pb2.Command.FromString(self._blob(action.command_digest))
        scratch = Path(tempfile.mkdtemp(prefix="opkg-worker-", dir=self.work_dir))
        try:
            root = scratch / "root"
            sandbox.lay_out(self.client, action.input_root_digest, root)
            outputs = list(command.output_paths or command.output_files)
            status, out, err = sandbox.run(command, root, outputs)
            blobs, files = {}, []
            if status == 0:
                for rel in sorted(outputs):
                    digest, executable = file_digest(str(root / rel))
                    blobs[digest.hash] = (digest, root / rel)
                    files.append(re_pb2.OutputFile(path=rel, digest=digest,
                                                   is_executable=executable))
            streams = {}
            for name, text in (("stdout", out), ("stderr", err)):
                data = text.encode()
                streams[name] = digest_of(data)
                blobs[streams[name].hash] = (streams[name], data)
            self.client.upload(blobs)
            result = re_pb2.ActionResult(output_files=files, exit_code=status,
                                         stdout_digest=streams["stdout"],
                                         stderr_digest=streams["stderr"])
            result.execution_metadata.worker = self.name
            return result
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def close(self) -> None:
        self.client.close()
