"""One opkg step as a REAPI Action: its Command and the Merkle tree of its input root.

Paths are made checkout-independent the way the local cache key is (the plan's aliases, plus
the output directory as `out/`), so the same step in another clone or on another runner has the
same Action digest. The input root holds every declared input (the step's sources and the
headers SCons scanned) under those relative paths, plus `.opkg-step.json`: the step's identity
(kind, argv, generated content, parameters, toolchain fingerprint) as the local cache keys it.
The toolchain fingerprint is also a platform property, so a server shows which toolchain built
an entry. A hit is possible only for a byte-identical Action.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass

from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re_pb2

from opkg.core.actions import alias_paths
from opkg.remote.client import digest_of

# part of every Action (a platform property): bumping it orphans entries of an older layout
ACTION_FORMAT = "opkg-reapi-2"
STEP_FILE = ".opkg-step.json"


class PathMap:
    """Absolute paths -> names relative to the input root (longest prefix first)."""

    def __init__(self, prefixes: dict[str, str]):
        self.prefixes = sorted(((p.rstrip("/"), n.strip("<>")) for p, n in prefixes.items()),
                               key=lambda kv: -len(kv[0]))

    def path(self, absolute: str) -> str:
        for prefix, name in self.prefixes:
            if absolute == prefix or absolute.startswith(prefix + "/"):
                return name + absolute[len(prefix):]
        return "abs" + absolute               # outside every known root: kept whole

    def text(self, text: str) -> str:
        return alias_paths(text, dict(self.prefixes))

    def local(self, text: str) -> str:
        """A worker's message (a compiler's `workspace/pkg/k.cpp:3:1: error`) with the input
        root's names back as this machine's paths, so it points at files the user can open."""
        import re

        for prefix, name in self.prefixes:
            text = re.sub(r"(?<![\w/.<@-])" + re.escape(name) + r"(?=/)", lambda _m: prefix, text)
        return text


_file_digests: dict[tuple, re_pb2.Digest] = {}
_digest_lock = threading.Lock()


def file_digest(path: str) -> tuple[re_pb2.Digest, bool]:
    """(SHA-256 digest, executable) of a file, memoised by its stat signature."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    with _digest_lock:
        known = _file_digests.get(key)
    if known is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        known = re_pb2.Digest(hash=h.hexdigest(), size_bytes=st.st_size)
        with _digest_lock:
            _file_digests[key] = known
    return known, bool(st.st_mode & 0o111)


@dataclass
class RemoteAction:
    digest: re_pb2.Digest
    output_paths: dict[str, str]          # absolute output path -> its path in the Action
    blobs: dict[str, tuple]               # hash -> (Digest, bytes): Action, Command, Directories


def make_action(*, identity: str, argv, kind: str, outputs, inputs, signature: str,
                paths: PathMap) -> RemoteAction:
    """inputs: absolute paths of the step's files (sources and scanned headers)."""
    blobs: dict[str, tuple] = {}

    def store(message_or_bytes) -> re_pb2.Digest:
        data = message_or_bytes if isinstance(message_or_bytes, bytes) \
            else message_or_bytes.SerializeToString(deterministic=True)
        d = digest_of(data)
        blobs[d.hash] = (d, data)
        return d

    platform = re_pb2.Platform(properties=[
        re_pb2.Platform.Property(name="opkg-format", value=ACTION_FORMAT),
        re_pb2.Platform.Property(name="opkg-toolchain", value=signature or "none")])
    output_paths = {o: paths.path(os.path.abspath(o)) for o in outputs}
    arguments = [paths.text(a) for a in argv] if kind == "exec" else ["opkg-step", kind]
    command = re_pb2.Command(arguments=arguments, output_paths=sorted(output_paths.values()),
                             output_files=sorted(output_paths.values()), platform=platform)
    # the tree: nested dicts of name -> Digest-and-executable (files) or dict (directories)
    tree: dict = {}
    step = paths.text(identity).encode()
    tree[STEP_FILE] = (store(step), False)
    for path in sorted(set(inputs)):
        node = tree
        *dirs, name = paths.path(path).split("/")
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = file_digest(path)

    def directory(node: dict) -> re_pb2.Digest:
        files, dirs = [], []
        for name in sorted(node):
            value = node[name]
            if isinstance(value, dict):
                dirs.append(re_pb2.DirectoryNode(name=name, digest=directory(value)))
            else:
                files.append(re_pb2.FileNode(name=name, digest=value[0], is_executable=value[1]))
        return store(re_pb2.Directory(files=files, directories=dirs))

    action = re_pb2.Action(command_digest=store(command), input_root_digest=directory(tree),
                           platform=platform)
    return RemoteAction(store(action), output_paths, blobs)
