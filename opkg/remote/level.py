"""The remote cache as the second level behind the local CacheDir (inside the SCons process).

`opkg.build.scons_glue`'s CacheDir subclass asks `fetch` when the local cache has no entry for an
output, and calls `upload` after a step ran and its outputs went into the local cache:

- fetch: GetActionResult for the step's Action; on a hit every output is downloaded and checked
  against its digest and the step's declared outputs, then handed to the local cache, which
  restores it as it restores its own entries (so the next build, or a second output of the same
  step, is a local hit). Anything wrong with an entry rejects it: a warning, and the step runs.
- upload: the outputs (digests checked against what the step wrote), the Action, its Command
  and its input-root directories go to the CAS (FindMissingBlobs, then only what is missing),
  then UpdateActionResult.

A server that is unreachable, slow or erroring is never a build failure: the first problem is
one warning, and the rest of the build does not call the server again. With
--remote-cache-required it fails the step instead (for CI that must fill the cache).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path

from opkg.remote.actions import PathMap, RemoteAction, file_digest
from opkg.remote.client import Client, Rejected, RemoteError, re_pb2
from opkg.remote.config import RemoteConfig


class RequiredRemoteFailed(Exception):
    """--remote-cache-required and the server failed: the step fails with this message."""


class RemoteLevel:
    def __init__(self, config: RemoteConfig, paths: PathMap, work_dir: Path, emit):
        self.config = config
        self.paths = paths
        self.emit = emit
        self.client = Client(config)
        self.work_dir = work_dir
        self.lock = threading.Lock()
        self.broken: str | None = None        # the first server problem; then no more calls
        self.fetched: dict[int, dict | None] = {}   # action index -> downloads

    # -- policy --------------------------------------------------------------------------------

    def _server_failed(self, action, problem: str) -> None:
        message = f"remote cache {self.config.url}: {problem}"
        if self.config.required:
            raise RequiredRemoteFailed(message + " (--remote-cache-required)")
        with self.lock:
            first = self.broken is None
            self.broken = self.broken or problem
        if first:
            self.emit("warning", target=action.target, step=action.step,
                      description=action.description,
                      message=message + "; building locally for the rest of this build")

    # -- fetch ---------------------------------------------------------------------------------

    def fetch(self, index: int, action, remote: RemoteAction) -> dict[str, tuple] | None:
        """The downloaded, verified outputs of the step (output -> (file, executable)), or
        None on a miss. Called once per step (later outputs of it reuse the first answer)."""
        if index in self.fetched:
            return self.fetched[index]
        self.fetched[index] = None
        if self.broken:
            return None
        try:
            result = self.client.get_action_result(remote.digest)
            if result is None:
                self.emit("remote_miss", target=action.target, step=action.step)
                return None
            files = self._download(result, remote)
        except RemoteError as exc:
            self._server_failed(action, str(exc))
            return None
        except Rejected as exc:
            self.emit("warning", target=action.target, step=action.step,
                      description=action.description,
                      message=f"rejected the remote cache entry for {action.description} "
                              f"({exc}); running the step")
            self.emit("remote_miss", target=action.target, step=action.step)
            return None
        self.fetched[index] = files
        self.emit("remote_hit", target=action.target, step=action.step,
                  description=action.description)
        return files

    def _download(self, result, remote: RemoteAction) -> dict[str, tuple]:
        if result.exit_code != 0:
            raise Rejected(f"it records a failed run (exit status {result.exit_code})")
        by_path = {f.path: f for f in result.output_files}
        wanted = set(remote.output_paths.values())
        if set(by_path) != wanted or result.output_directories or result.output_symlinks:
            raise Rejected("its outputs are not the step's outputs: "
                           f"{sorted(set(by_path) ^ wanted)[:3]}")
        self.work_dir.mkdir(parents=True, exist_ok=True)
        dest = Path(tempfile.mkdtemp(prefix="fetch-", dir=self.work_dir))
        try:
            unique = {f.digest.hash: f.digest for f in by_path.values()}
            blobs = self.client.download(list(unique.values()), dest)
        except BaseException:
            shutil.rmtree(dest, ignore_errors=True)
            raise
        return {out: (blobs[by_path[rel].digest.hash], by_path[rel].is_executable)
                for out, rel in remote.output_paths.items()}

    def done_with(self, index: int) -> None:
        """All outputs of the step were handed over: drop its downloads."""
        files = self.fetched.get(index)
        if files:
            shutil.rmtree(next(iter(files.values()))[0].parent, ignore_errors=True)

    # -- upload --------------------------------------------------------------------------------

    def upload(self, action, remote: RemoteAction, written: dict[str, str]) -> None:
        """After the step ran: outputs to the CAS, then the action result. `written`: output ->
        the digest recorded when the step finished (an output changed since is not uploaded)."""
        if self.broken or not self.config.update:
            return
        blobs = dict(remote.blobs)
        outputs = []
        for out, rel in sorted(remote.output_paths.items(), key=lambda kv: kv[1]):
            digest, executable = file_digest(out)
            if written.get(os.path.abspath(out), digest.hash) != digest.hash:
                return                    # changed after its step: never share it
            blobs[digest.hash] = (digest, Path(out))
            outputs.append(re_pb2.OutputFile(path=rel, digest=digest, is_executable=executable))
        try:
            self.client.upload(blobs)
            self.client.update_action_result(remote.digest, re_pb2.ActionResult(
                output_files=outputs, exit_code=0))
        except RemoteError as exc:
            self._server_failed(action, str(exc))
            return
        self.emit("remote_upload", target=action.target, step=action.step,
                  description=action.description)

    def close(self) -> None:
        self.client.close()
        shutil.rmtree(self.work_dir, ignore_errors=True)


def path_map(plan) -> PathMap:
    """Checkout-independent names: the plan's aliases, and the output directory as `out/`
    when it is outside the workspace (inside, it keeps its place under the workspace, where
    the verification jobs' workspace-relative paths expect it on a worker)."""
    prefixes = dict(plan.aliases)
    out = os.path.abspath(plan.output_dir)
    root = os.path.abspath(plan.workspace_root)
    if not out.startswith(root.rstrip("/") + "/"):
        prefixes[out] = "out"
    return PathMap(prefixes)


def make_level(config: RemoteConfig, plan, emit) -> RemoteLevel:
    return RemoteLevel(config, path_map(plan), Path(plan.output_dir) / ".opkg" / "remote-fetch",
                       emit)
