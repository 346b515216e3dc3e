"""What the build wrote: the SHA-256 and stat signature of every build output, recorded the
moment it was written (a step finished, or a cache entry was restored), so that a damaged
output is found before anything says "nothing changed" or publishes it.

    <output_dir>/.opkg/outputs.jsonl    one line per write: {"path", "sha256", "stat"}

Each line is one short O_APPEND write, so concurrent writers (SCons' job threads) never
interleave and a crash leaves whole lines; the last line for a path wins. The stat signature is
(mtime, ctime, size, inode): a user or tool can set mtime back but not ctime, so an output
whose signature is unchanged holds the recorded bytes, and a check re-hashes only outputs whose
signature changed. A null build therefore costs one stat per output, not a read.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

LOG = Path(".opkg") / "outputs.jsonl"
_CHUNK = 1 << 20


def signature(st: os.stat_result) -> list[int]:
    return [st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino]


def file_digest(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


class OutputRecord:
    """The record of one output directory."""

    def __init__(self, output_dir):
        self.root = Path(output_dir).resolve()
        self.path = self.root / LOG
        self.lines = 0                    # lines in the log when it was last loaded
        self._prefix = str(self.root).rstrip("/") + "/"

    def _key(self, path) -> str:
        # relative inside the output directory, so a copied or moved workspace keeps its record
        # (string operations: this runs for every output of every build)
        p = os.path.abspath(path)
        return p[len(self._prefix):] if p.startswith(self._prefix) else p

    def note(self, path, digest: str | None = None) -> str:
        """Record what `path` holds now (its digest, computed unless given); returns it."""
        digest = digest or file_digest(path)
        line = json.dumps({"path": self._key(path), "sha256": digest,
                           "stat": signature(os.stat(path))}) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
        return digest

    def load(self) -> dict[str, dict]:
        """path key -> {"sha256", "stat"}; unreadable lines are skipped (their outputs then
        count as unknown, which costs a rebuild, never a wrong result)."""
        out: dict[str, dict] = {}
        self.lines = 0
        try:
            text = self.path.read_text()
        except (OSError, UnicodeDecodeError):
            return out
        lines = text.splitlines()
        self.lines = len(lines)
        for line in lines:
            try:
                rec = json.loads(line)
                out[rec["path"]] = {"sha256": str(rec["sha256"]), "stat": list(rec["stat"])}
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def digest_of(self, path) -> str | None:
        rec = self.load().get(self._key(path))
        return rec["sha256"] if rec else None

    def check(self, paths) -> tuple[list[tuple[str, str]], list[str]]:
        """Existing outputs among `paths` that are (damaged: [(path, why)], unknown: [path]).
        Damaged: the bytes differ from the recorded digest. Unknown: no record (written by an
        older opkg, or the build stopped between writing and recording). Outputs whose stat
        signature changed but whose bytes did not are re-recorded."""
        record = self.load()
        damaged, unknown = [], []
        for path in paths:
            try:
                st = os.stat(path)
            except OSError:
                continue                   # missing: the build makes it anyway
            rec = record.get(self._key(path))
            if rec is None:
                unknown.append(path)
            elif signature(st) != rec["stat"]:
                try:
                    digest = file_digest(path)
                except OSError as exc:
                    damaged.append((path, f"unreadable: {exc.strerror or exc}"))
                    continue
                if digest != rec["sha256"]:
                    damaged.append((path, f"it hashes to sha256:{digest[:16]}…, the build "
                                          f"wrote sha256:{rec['sha256'][:16]}…"))
                else:
                    self.note(path, digest)   # touched, copied: same bytes
        if self.lines > 4 * len(record) + 1024:
            self._compact(record)
        return damaged, unknown

    def unverified(self, paths) -> list[str]:
        """Outputs whose current stat signature is not the one recorded with their digest
        (so their content is not known to be what the build wrote)."""
        record = self.load()
        out = []
        for path in paths:
            rec = record.get(self._key(path))
            try:
                if rec is None or signature(os.stat(path)) != rec["stat"]:
                    out.append(path)
            except OSError:
                out.append(path)
        return out

    def _compact(self, record: dict) -> None:
        """Rewrite the log with one line per output that still exists (a build in another
        process appending meanwhile may lose a line: that output then counts as unknown)."""
        from opkg.util.fsutil import atomic_write_text

        keep = []
        for key, rec in sorted(record.items()):
            if (self.root / key).exists():
                keep.append(json.dumps({"path": key, **rec}) + "\n")
        atomic_write_text(self.path, "".join(keep))
