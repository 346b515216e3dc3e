"""The thin client of the resident build server (opkg.build.server).

`opkg build --server` (or OPKG_SERVER=1) sends the command line, the working directory and the
environment over a Unix socket in the output directory, hands over its stdin, stdout and stderr
(SCM_RIGHTS), and exits with the status the server sends back. This module is what `opkg` runs
first (opkg/__main__.py), so it imports only the standard library: no click, YAML or NumPy, and
nothing of opkg's; every other command goes on to the CLI (opkg.cli) untouched.

The server is started on first use, in the background, and restarted when it refuses a request
(another opkg or Python, its own code or the workspace file changed, its watcher lost events).
If it cannot be reached, or stops during a request, the command runs without it after a note.
"""

from __future__ import annotations

# imports cost start-up on every command: no json, re, socket (enum) or subprocess here
import _socket
import marshal
import os
import sys
import time

WORKSPACE_FILE = "opkg-workspace.yaml"
SERVER_DIR = (".opkg", "server")
SOCKET = "sock"
IDLE_DEFAULT = 3 * 3600          # seconds; OPKG_SERVER_IDLE overrides (0: never)
START_TIMEOUT = 60.0             # seconds for a new server to listen (a loaded machine is slow)
COMMANDS = ("build", "test")     # what the server answers; the rest runs in the CLI
OPKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def identity() -> dict:
    """What client and server must share; any difference restarts the server."""
    from opkg import __version__

    return {"version": __version__, "python": [sys.executable, sys.version], "opkg": OPKG_DIR}


def wanted(argv: list[str], env=os.environ) -> bool:
    command = next((a for a in argv if not a.startswith("-")), None)
    if command not in COMMANDS or env.get("OPKG_SERVER") == "0":
        return False
    return "--server" in argv or env.get("OPKG_SERVER") == "1"


def find_root(start: str) -> str | None:
    here = os.path.realpath(start)
    while True:
        if os.path.isfile(os.path.join(here, WORKSPACE_FILE)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def output_dir(root: str) -> str | None:
    """The workspace's output directory without a YAML parser: a top-level `output_dir:` with a
    plain or quoted scalar, else 'out'; None when the file says something this cannot read (the
    server checks the answer against the real parse and refuses a mismatch)."""
    with open(os.path.join(root, WORKSPACE_FILE), encoding="utf-8") as fh:
        text = fh.read()
    found = [line.partition(":")[2].strip() for line in text.splitlines()
             if line.partition(":")[0] == "output_dir"]
    if not found:
        return None if "output_dir" in text else os.path.join(root, "out")
    if len(found) > 1:
        return None
    value = found[0]
    if value[:1] in ("'", '"'):
        end = value.find(value[0], 1)
        rest = value[end + 1:].strip() if end > 0 else "?"
        value = value[1:end]
        if rest and not rest.startswith("#"):
            return None
    else:
        value = value.split(" #", 1)[0].strip()
        if value[:1] in tuple("{[&*!|>%@`#\"'") or ": " in value:
            return None
    if not value:
        return None
    return os.path.realpath(os.path.join(root, os.path.expanduser(value)))


def server_dir(out: str) -> str:
    return os.path.join(out, *SERVER_DIR)


def _connect(sdir: str):
    """Connect through a path relative to the socket's directory: socket paths are limited to
    108 bytes, output directories are not."""
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    cwd = os.open(".", os.O_RDONLY)
    try:
        os.chdir(sdir)
        conn.connect(SOCKET)
        return conn
    except OSError:
        conn.close()
        return None
    finally:
        os.fchdir(cwd)
        os.close(cwd)


def start(root: str, out: str) -> None:
    """Start a server for this workspace in its own session (it outlives this command)."""
    import subprocess

    sdir = server_dir(out)
    os.makedirs(sdir, mode=0o700, exist_ok=True)
    idle = os.environ.get("OPKG_SERVER_IDLE", str(IDLE_DEFAULT))
    with open(os.path.join(sdir, "log"), "ab") as log:
        subprocess.Popen([sys.executable, "-m", "opkg.cli.serve", "--root", root, "--output-dir",
                          out, "--idle", idle], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         start_new_session=True, close_fds=True, cwd=root)


def _wait_connect(sdir: str, timeout: float):
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        conn = _connect(sdir)
        if conn is not None or time.monotonic() > deadline:
            return conn
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def send(conn, message: dict, fds=()) -> None:
    """One message: its length (4 bytes) and its marshal encoding; `fds` ride along."""
    data = marshal.dumps(message)
    frame = len(data).to_bytes(4, "little") + data
    anc = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS,
            b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds))] if fds else []
    sent = conn.sendmsg([frame], anc)
    if sent < len(frame):
        conn.sendall(frame[sent:])


def receive(conn, first: bytes = b"") -> dict | None:
    """The next message, or None when the peer closed or sent something unreadable."""
    buf = first
    while len(buf) < 4 or len(buf) < 4 + int.from_bytes(buf[:4], "little"):
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buf += chunk
    try:
        message = marshal.loads(buf[4:4 + int.from_bytes(buf[:4], "little")])
    except (ValueError, EOFError, TypeError):
        return None
    return message if isinstance(message, dict) else None


def _ask(conn, message: dict, fds=(0, 1, 2)) -> dict | None:
    """Send one request with our standard streams; the server's answer, or None if the server
    went away before answering. Ctrl-C closes our side: the server stops the build (as a local
    build would) and still answers."""
    try:
        send(conn, message, fds)
    except OSError:
        return None
    while True:
        try:
            return receive(conn)
        except KeyboardInterrupt:
            try:
                conn.shutdown(_socket.SHUT_WR)
            except OSError:
                return None
        except OSError:
            return None


def note(message: str) -> None:
    sys.stderr.write(f"opkg: {message}\n")
    sys.stderr.flush()


def run(argv: list[str]) -> int | None:
    """Run `argv` through this workspace's server: its exit status, or None to run it here."""
    cwd = os.getcwd()
    root = find_root(cwd)
    if root is None:
        return None                      # the CLI says what is missing
    try:
        out = output_dir(root)
    except OSError:
        return None
    if out is None:
        note(f"build server not used: {WORKSPACE_FILE} sets output_dir in a form the client "
             "does not read (use a plain path)")
        return None
    sdir = server_dir(out)
    request = {"argv": argv, "cwd": cwd, "env": dict(os.environ), **identity()}
    for _ in range(3):
        conn = _connect(sdir)
        if conn is None:
            start(root, out)
            conn = _wait_connect(sdir, START_TIMEOUT)
            if conn is None:
                note(f"the build server did not start (see {os.path.join(sdir, 'log')}); "
                     "building without it")
                return None
        try:
            answer = _ask(conn, request)
        finally:
            conn.close()
        if answer is None:
            note("the build server stopped during the request; building without it")
            return None
        if "exit" in answer:
            return int(answer["exit"])
        if "restart" in answer:
            note(f"restarting the build server: {answer['restart']}")
            _wait_gone(sdir)
            continue
        note(f"the build server refused the request: {answer.get('error')}; building "
             "without it")
        return None
    note("the build server kept restarting; building without it")
    return None


def _wait_gone(sdir: str, timeout: float = 10.0) -> None:
    """A server that asked for a restart is exiting: wait until it no longer listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        conn = _connect(sdir)
        if conn is None:
            return
        conn.close()
        time.sleep(0.01)


def shutdown(start_dir: str | None = None) -> str:
    """Stop this workspace's server; what happened, in words."""
    root = find_root(start_dir or os.getcwd())
    if root is None:
        return "no workspace here: no build server to stop"
    out = output_dir(root)
    if out is None:
        return "output_dir is not a plain path: no build server is used here"
    sdir = server_dir(out)
    conn = _connect(sdir)
    if conn is None:
        return "no build server is running for this workspace"
    try:
        answer = _ask(conn, {"shutdown": True}, fds=())
    finally:
        conn.close()
    _wait_gone(sdir)
    if answer is None or not answer.get("stopped"):
        return "the build server went away"
    return f"stopped the build server (pid {answer['pid']})"


def main(argv: list[str] | None = None) -> int | None:
    """`opkg ...` as typed: handled here (an exit status) or None for the CLI."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["shutdown"]:
        print(shutdown())
        return 0
    if not wanted(argv):
        return None
    return run(argv)
