"""The resident build server: one process per workspace that keeps opkg's modules loaded, the
last proved null builds in memory, and learns of edits from inotify instead of a stat of every
input on each request.

One request at a time, on the main thread: the client's stdin, stdout and stderr are received
over the socket (SCM_RIGHTS) and put in place of the server's, the working directory and the
environment become the client's, and the command runs as `opkg` would run it (`runner`, given
by opkg.cli.serve). A second client waits in the socket's backlog, and builds started without
the server still serialise on the workspace lock.

Nothing stale. Events are read from the kernel's inotify queue when a request arrives; the
kernel queues an event before the write that caused it returns, so every edit made before the
request is seen. Any event in a watched tree moves the *generation*; a null build the fast path
proved is answered from memory only while the generation has not moved and the environment,
the interpreter and the compiler are the same (opkg.build.fastpath.RESIDENT); otherwise the
fast path's full check runs, then the build. On any doubt the server exits and asks the client
to start a new one: another opkg or Python, its own code or the workspace file changed, the
event queue overflowed, a watched root went away. Without inotify (not Linux, inotify_simple
missing, the watch limit reached; OPKG_SERVER_WATCH=stat) every request takes the full stat
check: the server still saves the start-up and imports, never correctness.
"""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import sys
import threading
import time
import _thread
from pathlib import Path

from opkg.build import client, fastpath

OPKG_DIR = client.OPKG_DIR


class Doubt(Exception):
    """Something the server cannot account for: it must restart."""


class Watcher:
    """inotify watches on whole trees; `changes()` drains what happened since the last call."""

    MASK_NAMES = ("MODIFY", "ATTRIB", "CLOSE_WRITE", "MOVED_FROM", "MOVED_TO", "CREATE",
                  "DELETE", "DELETE_SELF", "MOVE_SELF")

    def __init__(self, trees: list[str], shallow: list[str], restart_on: list[str],
                 ignore: list[str], outputs: str | None = None):
        from inotify_simple import INotify, flags

        self.flags = flags
        self.mask = 0
        for name in self.MASK_NAMES:
            self.mask |= getattr(flags, name)
        self.inotify = INotify()
        self.dirs: dict[int, str] = {}
        self.restart_on = [os.path.realpath(p) for p in restart_on]
        self.ignore = [os.path.realpath(p) for p in ignore]
        # the output directory: what changes there is reported by path (a build's own writes
        # land there and are no edit of an input)
        self.outputs = os.path.realpath(outputs) if outputs else None
        self.tops = {os.path.realpath(t) for t in trees}
        try:
            for tree in trees:
                self._add_tree(os.path.realpath(tree))
            for d in shallow:
                self._add(os.path.realpath(d))
        except Doubt:
            self.inotify.close()
            raise

    def _ignored(self, path: str) -> bool:
        return any(path == p or path.startswith(p + os.sep) for p in self.ignore)

    def _add(self, path: str) -> None:
        try:
            wd = self.inotify.add_watch(path, self.mask)
        except FileNotFoundError:
            return
        except OSError as exc:            # ENOSPC: fs.inotify.max_user_watches reached
            raise Doubt(f"cannot watch {path}: {exc.strerror}") from exc
        self.dirs[wd] = path

    def _add_tree(self, top: str) -> None:
        stack = [top]
        while stack:
            d = stack.pop()
            if self._ignored(d) or os.path.basename(d) in fastpath.SKIP_DIRS:
                continue
            self._add(d)
            try:
                with os.scandir(d) as entries:
                    stack.extend(e.path for e in entries if e.is_dir(follow_symlinks=False))
            except OSError:
                pass

    def changes(self) -> tuple[int, set[str]]:
        """What happened since the last call: how many events outside the output directory
        (0: no input changed), and the paths that changed inside it; Doubt if it cannot tell."""
        f = self.flags
        count = 0
        in_outputs: set[str] = set()
        out = self.outputs
        for event in self.inotify.read(timeout=0):
            if event.mask & f.Q_OVERFLOW:
                raise Doubt("the file-system watcher overflowed and lost events")
            where = self.dirs.get(event.wd)
            if where is None:
                continue
            path = os.path.join(where, event.name) if event.name else where
            if event.mask & f.IGNORED:
                self.dirs.pop(event.wd, None)
                continue
            if self._ignored(path) or event.name in fastpath.SKIP_DIRS:
                continue
            if any(path == p or path.startswith(p + os.sep) for p in self.restart_on):
                raise Doubt(f"{path} changed")
            if event.mask & (f.DELETE_SELF | f.MOVE_SELF) and where in self.tops:
                raise Doubt(f"{where} was removed or moved")
            if event.mask & f.ISDIR and event.mask & (f.CREATE | f.MOVED_TO):
                self._add_tree(path)
            if out is not None and (path == out or path.startswith(out + os.sep)):
                in_outputs.add(path)
            else:
                count += 1
        return count, in_outputs

    def close(self) -> None:
        self.inotify.close()


class Memory:
    """Null builds the fast path proved, per request key, valid while the generation holds
    (installed as opkg.build.fastpath.RESIDENT).

    The generation moves on any change outside the output directory. A change inside it (a
    build's outputs, opkg's own bookkeeping in out/.opkg, an output deleted by hand) forgets
    only the null builds whose recorded outputs it touches: the path of an output, or of a
    directory above one (a directory moved or removed as a whole reports only itself)."""

    def __init__(self):
        self.generation = 0
        self.proved: dict[str, tuple] = {}
        self.watching = False            # False: no events to trust, remember nothing

    def recall(self, key: str, signature):
        hit = self.proved.get(key)
        if hit and self.watching and hit[0] == self.generation and hit[1] == signature:
            return hit[2]
        return None

    def remember(self, key: str, generation: int, signature, value, outputs=(),
                 top: tuple[str, str] | None = None) -> None:
        if not self.watching:
            return
        paths = covering(outputs, *top) if top else frozenset()
        if paths is not None:            # None: an output the watcher cannot attribute
            self.proved[key] = (generation, signature, value, paths)

    def outputs_changed(self, paths: set[str]) -> None:
        for key, hit in list(self.proved.items()):
            if not paths.isdisjoint(hit[3]):
                del self.proved[key]


def covering(outputs, given: str, real: str) -> frozenset[str] | None:
    """The outputs and every directory above them up to the output directory, inclusive, as
    the watcher names them (`given` is the output directory as the plan spells it, `real` its
    real path); None when an output lies outside it."""
    found = {real}
    prefix = os.path.normpath(given) + os.sep
    for path in outputs:
        path = os.path.normpath(path)
        if not path.startswith(prefix):
            return None
        path = real + os.sep + path[len(prefix):]
        while path not in found:
            found.add(path)
            path = os.path.dirname(path)
    return frozenset(found)


class Recording:
    """A text stream that keeps what is written through it, in order with its sibling's
    (stdout and stderr share one `log`). Anything it does not know (the binary buffer, a
    rewind) marks the output as not replayable."""

    def __init__(self, stream, index: int, log: list):
        self._stream, self._index, self._log = stream, index, log
        self.tainted = False

    def write(self, text):
        if isinstance(text, str):
            self._log.append((self._index, text))
            return self._stream.write(text)
        written = self._stream.write(text)     # a text stream refuses bytes (click probes)
        self.tainted = True
        return written

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        self._stream.flush()

    def isatty(self):
        return self._stream.isatty()

    def fileno(self):
        return self._stream.fileno()

    def __getattr__(self, name):
        value = getattr(self._stream, name)        # what it lacks, a plain stream lacks too
        if name not in ("encoding", "errors", "closed", "name", "mode", "line_buffering",
                        "writable", "readable", "seekable"):
            self.tainted = True
        return value


class Replies:
    """What a request answered from memory printed, to print again while nothing at all has
    changed (no event of the watcher, the same memory generation, environment and compiler).

    A null build at a thousand packages spends its time rendering the result (the table of
    every target, the case rows), not proving it: the second identical request replays the
    first one's output instead. Only commands whose output is all they do are kept: a known
    option list (no report files, no remote cache, no case selection from out/), no write to
    the file system during the request (the watcher saw nothing), nothing written around
    the recording streams."""

    # options a build or test may carry and still have no effect but its output
    FLAGS = {"--server", "--json", "--keep-going", "--quiet", "-q", "--verbose", "-v",
             "--no-wait", "--detail"}
    VALUED = {"--soc", "--toolchain", "-j", "--jobs", "--color"}
    SIZE = 8

    def __init__(self):
        self.kept: dict = {}

    def key(self, request: dict, fds) -> tuple | None:
        argv = request["argv"]
        i = 0
        while i < len(argv):
            arg = argv[i]
            if arg.startswith("-") and arg not in self.FLAGS:
                name = arg.split("=", 1)[0]
                if name not in self.VALUED:
                    return None
                if "=" not in arg:
                    i += 1
            i += 1
        terminal = []
        for fd in fds:
            try:
                terminal.append(os.get_terminal_size(fd) if os.isatty(fd) else None)
            except OSError:
                terminal.append(None)
        return (tuple(argv), request["cwd"], tuple(sorted(request["env"].items())),
                tuple(terminal))

    def recall(self, key, generation: int, signature):
        hit = self.kept.get(key)
        if hit and hit[0] == generation and hit[1] == signature:
            return hit[2], hit[3]
        return None

    def keep(self, key, generation: int, signature, log: list, status: int) -> None:
        if len(self.kept) >= self.SIZE:
            self.kept.pop(next(iter(self.kept)))
        self.kept[key] = (generation, signature, log, status)

    def forget(self) -> None:
        self.kept.clear()


def git_places(root: Path) -> tuple[list[str], str] | None:
    """The git directories whose top level holds HEAD, the index and packed refs (the worktree's
    and the common one), and the work tree's top."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--absolute-git-dir", "--git-common-dir",
                              "--show-toplevel"], cwd=root, capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = out.stdout.split("\n")
    if out.returncode != 0 or len(lines) < 3 or not lines[0]:
        return None
    common = os.path.realpath(os.path.join(root, lines[1]))
    return sorted({lines[0], common}), lines[2]


class Server:
    def __init__(self, ws, runner, idle: float):
        self.ws = ws
        self.runner = runner
        self.idle = idle
        # the log keeps the server's own stderr: fds 0-2 are the client's during a request
        self.log = os.fdopen(os.dup(2), "w", buffering=1)
        self.out = str(ws.settings.output_dir)
        self.sdir = client.server_dir(self.out)
        self.memory = Memory()
        self.watcher = None
        self.identity = client.identity()
        self.stopping = False
        self.recalled = False            # this request was answered from memory
        self.replies = Replies()

    def say(self, text: str) -> None:
        print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {text}", file=self.log,
              flush=True)

    def watch(self) -> None:
        from opkg.build import wslock

        if os.environ.get("OPKG_SERVER_WATCH") == "stat" or not sys.platform.startswith("linux"):
            self.say("watching: no (stat check on every request)")
            return
        root = str(self.ws.root)
        trees = [root]
        if not Path(self.out).is_relative_to(root):
            trees.append(self.out)
        shallow = []
        git = git_places(self.ws.root)
        if git:
            # commits and the index: a bundle's provenance records the commit and dirty flag
            shallow, top = git
            trees += [os.path.join(d, "refs") for d in shallow]
            if top != root:
                trees.append(top)        # the dirty flag sees edits anywhere in the work tree
        # external repositories (docs/repositories.md) may lie anywhere: a path checkout's
        # files are inputs; a git checkout in the cache counts by its presence only
        for repo, walk in fastpath._repository_roots(self.ws):
            if not os.path.isdir(repo):
                # its appearance would go unseen (nothing above it is watched)
                self.say(f"watching: no ({repo} is missing; stat check on every request)")
                return
            if not Path(repo).is_relative_to(root):
                (trees if walk else shallow).append(repo)
        trees.append(OPKG_DIR)
        try:
            self.watcher = Watcher(trees, shallow,
                                   restart_on=[str(self.ws.root / client.WORKSPACE_FILE),
                                               OPKG_DIR],
                                   ignore=[self.sdir, str(wslock.lock_path(self.out))],
                                   outputs=self.out)
        except ImportError:
            self.say("watching: no (inotify_simple is not installed; stat check on every "
                     "request)")
            return
        except Doubt as exc:
            self.say(f"watching: no ({exc}; stat check on every request)")
            return
        self.memory.watching = True
        self.say(f"watching {len(self.watcher.dirs)} directories")

    def serve(self) -> int:
        """Listen until idle, shut down or in doubt; the exit status of the process."""
        os.makedirs(self.sdir, mode=0o700, exist_ok=True)
        lock = os.open(os.path.join(self.sdir, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + 10
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    self.say("another server holds this workspace; exiting")
                    return 0
                time.sleep(0.02)
        os.ftruncate(lock, 0)
        os.pwrite(lock, f"{os.getpid()}\n".encode(), 0)     # for `kill` and the tests
        # a request is cancelled through _thread.interrupt_main(), which does nothing while
        # SIGINT is ignored, as it is in a server started from a background job
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.default_int_handler)
        self.watch()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        os.chdir(self.sdir)              # bind a relative path: socket paths are short
        try:
            os.unlink(client.SOCKET)     # a killed server's; we hold the lock
        except FileNotFoundError:
            pass
        listener.bind(client.SOCKET)
        listener.listen(16)
        self.say(f"listening for {self.ws.root}")
        fastpath.RESIDENT = self
        try:
            while not self.stopping:
                listener.settimeout(self.idle or None)
                try:
                    conn, _ = listener.accept()
                except socket.timeout:
                    self.say(f"idle for {self.idle:g} s; exiting")
                    break
                with conn:
                    self.handle(conn)
        except KeyboardInterrupt:
            self.say("terminated")
        finally:
            fastpath.RESIDENT = None
            try:
                os.unlink(os.path.join(self.sdir, client.SOCKET))
            except OSError:
                pass
            listener.close()
            if self.watcher:
                self.watcher.close()
            os.close(lock)
        return 0

    # -- fastpath.RESIDENT ------------------------------------------------------------------

    def recall(self, key: str, signature):
        hit = self.memory.recall(key, signature)
        self.recalled = self.recalled or hit is not None
        return hit

    def remember(self, key: str, generation: int, signature, value, outputs=()) -> None:
        self.memory.remember(key, generation, signature, value, outputs,
                             (self.out, os.path.realpath(self.out)))

    @property
    def generation(self) -> int:
        return self.memory.generation

    # -- one request ------------------------------------------------------------------------

    def handle(self, conn: socket.socket) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            request = client.receive(conn, data) if data else None
        except OSError as exc:
            self.say(f"unreadable request: {exc}")
            return
        if request is None:
            # another Python's marshal format, or a broken client: start afresh
            self.stopping = True
            self.say("restart: unreadable request")
            self.reply(conn, {"restart": "the request was unreadable (another Python?)"})
            for fd in fds:
                os.close(fd)
            return
        try:
            if request.get("shutdown"):
                self.stopping = True
                self.say("shut down by opkg shutdown")
                self.reply(conn, {"stopped": True, "pid": os.getpid()})
                return
            reason = self.doubt(request)
            if reason:
                self.stopping = True
                self.say(f"restart: {reason}")
                self.reply(conn, {"restart": reason})
                return
            if len(fds) != 3:
                self.reply(conn, {"error": "the request did not carry stdin, stdout and stderr"})
                return
            status = self.run(conn, request, fds)
            self.reply(conn, {"exit": status})
        finally:
            for fd in fds:
                os.close(fd)

    def reply(self, conn: socket.socket, answer: dict) -> None:
        try:
            client.send(conn, answer)
        except OSError:
            pass                          # the client is gone; nothing waits for the answer

    def doubt(self, request: dict) -> str | None:
        for key in ("version", "python", "opkg"):
            if request.get(key) != self.identity[key]:
                return f"the client runs another {'opkg' if key != 'python' else 'Python'}"
        try:
            self.drain()
        except Doubt as exc:
            return str(exc)
        return None

    def drain(self) -> bool:
        """Take in what the watcher saw; True when it saw anything. Doubt if it cannot tell."""
        if self.watcher is None:
            return True
        inputs, outputs = self.watcher.changes()
        if inputs:
            self.memory.generation += 1
        if outputs:
            self.memory.outputs_changed(outputs)
        if inputs or outputs:
            self.replies.forget()
            return True
        return False

    def run(self, conn: socket.socket, request: dict, fds: list[int]) -> int:
        """Run the command as the client's process would, with its streams, cwd and env."""
        saved = [os.dup(n) for n in (0, 1, 2)]
        env = dict(os.environ)
        streams = sys.stdin, sys.stdout, sys.stderr
        done = threading.Event()
        guard = threading.Lock()

        def cancel_on_hangup():
            # the client closes its side on Ctrl-C (or dies): stop the build as Ctrl-C would
            try:
                while conn.recv(1024):
                    pass
            except OSError:
                pass
            with guard:
                if not done.is_set():
                    _thread.interrupt_main()

        try:
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            for n, fd in enumerate(fds):
                os.dup2(fd, n)
            sys.stdin = open(0, "r", closefd=False)
            sys.stdout = open(1, "w", closefd=False, buffering=1 if os.isatty(1) else -1)
            sys.stderr = open(2, "w", closefd=False, buffering=1, errors="backslashreplace")
            started = time.monotonic()
            argv = request["argv"]
            key = self.replies.key(request, fds) if self.memory.watching else None
            signature = fastpath._signature(request["env"]) if key else None
            replay = self.replies.recall(key, self.memory.generation, signature) if key \
                else None
            if replay is not None:
                log, status = replay
                streams_now = (sys.stdout, sys.stderr)
                for index, text in log:
                    streams_now[index].write(text)
                self.say(f"{' '.join(argv)}: exit {status} in "
                         f"{(time.monotonic() - started) * 1000:.1f} ms (its output again)")
                return status
            threading.Thread(target=cancel_on_hangup, daemon=True).start()
            self.say(f"request: {' '.join(argv)}")
            self.recalled = False
            log: list = []
            recorders = [Recording(sys.stdout, 0, log), Recording(sys.stderr, 1, log)]
            sys.stdout, sys.stderr = recorders
            status = self.runner(argv)
            self.say(f"{' '.join(argv)}: exit {status} in "
                     f"{(time.monotonic() - started) * 1000:.1f} ms"
                     + (" (a null build from memory)" if self.recalled else ""))
            try:
                changed = self.drain()
            except Doubt as exc:
                self.stopping = True
                self.say(f"restart: {exc}")
                changed = True
            if key and self.recalled and not changed and \
                    not any(r.tainted for r in recorders):
                self.replies.keep(key, self.memory.generation, signature, log, status)
            return status
        except KeyboardInterrupt:
            return 130
        except Exception:                 # noqa: BLE001  a bug: show it, as opkg would, and restart
            import traceback

            traceback.print_exc()
            self.stopping = True
            self.say("restart: the request failed unexpectedly (traceback sent to the client)")
            return 1
        finally:
            with guard:
                done.set()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            sys.stdin, sys.stdout, sys.stderr = streams
            for n, fd in enumerate(saved):
                os.dup2(fd, n)
                os.close(fd)
            os.environ.clear()
            os.environ.update(env)
            os.chdir(self.sdir)
