"""Remote execution (inside the SCons process): a step sent as a REAPI action to a server's
Execution service, which hands it to one of its workers (`opkg worker`). The steps sent are
C++ compiles and links and verification (opkg.build.scons_glue._REMOTE_STEPS); generated files,
the precompiled header (workers read the headers instead) and bundles stay local.

The Action is the remote cache's (opkg.remote.actions) with every input the worker needs
declared in its input root: the step's sources and scanned headers, the files its argv names
with -include, and the toolchain's own trees it names (the sim headers and runtime sources).
The inputs and the Action go to the CAS (only what the server lacks), Execute runs it (the
server answers from its action cache when it has the result), and the outputs come back
checked against their digests before they replace the step's outputs, as a local step's
would. The worker that ran the step is reported (`remote_exec` events).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc

from opkg.remote.actions import PathMap, file_digest, make_action
from opkg.remote.client import Client, Rejected, RemoteError, _describe, re_pb2
from opkg.remote.config import RemoteConfig

EXEC_TIMEOUT = float(os.environ.get("OPKG_REMOTE_EXEC_TIMEOUT", "3600"))


def _tree(directory: str) -> list[str]:
    return sorted(str(p) for p in Path(directory).rglob("*") if p.is_file())


class Executor:
    def __init__(self, config: RemoteConfig, paths: PathMap, trees: list[str],
                 work_dir: Path):
        self.config = config
        self.paths = paths
        self.client = Client(config)
        self.execution = re_grpc.ExecutionStub(self.client.channel)
        self.work_dir = work_dir
        # toolchain directories (the sim headers...) shipped whole to a step that names them
        self.trees = {d: _tree(d) for d in trees if os.path.isdir(d)}

    def inputs(self, action, scanned: list[str]) -> list[str]:
        """Every file the step reads: its sources and scanned headers, -include'd files, and
        the toolchain trees its command or parameters name."""
        files = set(scanned) | set(action.inputs)
        argv = list(action.argv)
        files |= {argv[i + 1] for i, a in enumerate(argv[:-1])
                  if a == "-include" and os.path.isfile(argv[i + 1])}
        text = repr((action.argv, action.params))
        for directory, tree in self.trees.items():
            if directory in text:
                files.update(tree)
        return sorted(files)

    def run(self, action, identity: str, scanned: list[str],
            fresh: bool = False) -> tuple[str | None, str]:
        """Execute the step remotely and install its outputs: (error or None, worker).
        RemoteError: the server failed; Rejected: the worker's answer cannot be used."""
        inputs = self.inputs(action, scanned)
        remote = make_action(identity=identity, argv=action.argv, kind=action.kind,
                             outputs=action.outputs, inputs=inputs,
                             signature=action.signature, paths=self.paths)
        blobs = dict(remote.blobs)
        for path in inputs:
            digest, _ = file_digest(path)
            blobs[digest.hash] = (digest, Path(path))
        self.client.upload(blobs)
        response = self._execute(remote.digest, skip_cache=fresh)
        if response.status.code != 0:
            raise RemoteError(f"the server did not run the step: {response.status.message}")
        result = response.result
        worker = result.execution_metadata.worker or "?"
        if result.exit_code != 0:
            message = self.paths.local(self._stderr(result))
            return message or f"exit status {result.exit_code}", worker
        by_path = {f.path: f for f in result.output_files}
        wanted = set(remote.output_paths.values())
        if set(by_path) != wanted:
            raise Rejected(f"the worker returned other outputs than the step's: "
                           f"{sorted(set(by_path) ^ wanted)[:3]}")
        self.work_dir.mkdir(parents=True, exist_ok=True)
        dest = Path(tempfile.mkdtemp(prefix="exec-", dir=self.work_dir))
        try:
            got = self.client.download(list({f.digest.hash: f.digest
                                             for f in by_path.values()}.values()), dest)
            for out, rel in remote.output_paths.items():
                f = by_path[rel]
                Path(out).parent.mkdir(parents=True, exist_ok=True)
                tmp = f"{out}.remote-{os.getpid()}"
                shutil.copyfile(got[f.digest.hash], tmp)
                os.chmod(tmp, 0o755 if f.is_executable else 0o644)
                os.replace(tmp, out)
        finally:
            shutil.rmtree(dest, ignore_errors=True)
        return None, worker

    def _execute(self, digest, skip_cache: bool) -> re_pb2.ExecuteResponse:
        request = re_pb2.ExecuteRequest(instance_name=self.client.instance, action_digest=digest,
                                        skip_cache_lookup=skip_cache)
        try:
            for operation in self.execution.Execute(request, timeout=EXEC_TIMEOUT,
                                                    metadata=self.client.metadata):
                if operation.done:
                    if operation.HasField("error"):
                        raise RemoteError(f"the server failed the step: "
                                          f"{operation.error.message[:200]}")
                    response = re_pb2.ExecuteResponse()
                    operation.response.Unpack(response)
                    return response
        except grpc.RpcError as exc:
            raise RemoteError(_describe(exc)) from None
        raise RemoteError("the server ended the operation stream before the step finished")

    def _stderr(self, result) -> str:
        if result.stderr_raw:
            return result.stderr_raw.decode(errors="replace").strip()
        if not result.stderr_digest.hash:
            return ""
        dest = Path(tempfile.mkdtemp(prefix="stderr-", dir=self.work_dir))
        try:
            got = self.client.download([result.stderr_digest], dest)
            return got[result.stderr_digest.hash].read_text(errors="replace").strip()
        finally:
            shutil.rmtree(dest, ignore_errors=True)

    def close(self) -> None:
        self.client.close()


def make_executor(config: RemoteConfig, plan, trees: list[str]) -> Executor:
    from opkg.remote.level import path_map

    work = Path(plan.output_dir) / ".opkg" / "remote-exec"
    work.mkdir(parents=True, exist_ok=True)
    return Executor(config, path_map(plan), trees, work)
