"""The `wisp watch` wire: per-watcher Unix sockets in a private runtime directory, JSON lines, peer checks.

Every watcher listens on its own socket, <runtime dir>/watch/watch-<pid>.sock (directory 0700, the user's own).
An asker connects to every socket it finds and checks each peer by SO_PEERCRED. A socket that refuses
connections is stale and removed; a watcher binds under a temporary name and renames it into place once
listening, so a live socket is never seen refusing.

Messages: JSON objects, one per line, UTF-8.
  asker -> watcher   {"type": "ask", "id": ID, "request": {...prompt.question_request...}}
                     {"type": "answered", "id": ID, "choice": C, "by": PID|null, "note": TEXT}
                     {"type": "refused", "reason": TEXT}          (this watcher may not answer; then closed)
  watcher -> asker   {"type": "answer", "id": ID, "choice": "y"|"s"|"p"|"a"|"n", "note": TEXT (optional: why a
                     "n" came without a person's word, e.g. "wisp watch interrupted (SIGINT)")}
An asker that closes its connection withdraws its questions.
"""
from __future__ import annotations

import json
import os
import socket
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from wispsh.support.unixpath import reachable

MAX_MESSAGE = 1 << 20          # a line bigger than this is a broken peer


SEND_TIMEOUT = 2.0


def runtime_dir() -> Path:
    from wispsh.config import runtime_dir as where

    return where()


def socket_dir(*, create: bool) -> Path | None:
    """<runtime>/watch when it is ours and private (created 0700 if asked); None otherwise."""
    from wispsh.config import private_runtime_dir

    try:
        where = private_runtime_dir(create=create) / "watch"
    except OSError:
        return None
    if create:
        try:
            os.mkdir(where, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        st = os.lstat(where)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return where


def encode(message: dict) -> bytes:
    # ASCII escapes: a line's undecodable byte (a lone surrogate) goes over the wire exactly, as \udcNN
    return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


@dataclass
class Conn:
    """One connection, with the peer's credentials and a line buffer."""

    sock: socket.socket
    pid: int
    uid: int
    buffer: bytes = b""
    closed: bool = False

    @classmethod
    def wrap(cls, sock: socket.socket) -> "Conn":
        pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                             struct.calcsize("3i")))
        sock.settimeout(SEND_TIMEOUT)
        return cls(sock, pid, uid)

    def send(self, message: dict) -> bool:
        if self.closed:
            return False
        try:
            self.sock.sendall(encode(message))
            return True
        except OSError:
            return False

    def receive(self) -> list[dict] | None:
        """The complete messages now readable; None when the peer has gone (or broke the protocol)."""
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, socket.timeout):
            return []
        except OSError:
            return None
        if not data:
            return None
        self.buffer += data
        if len(self.buffer) > MAX_MESSAGE:
            return None
        *lines, self.buffer = self.buffer.split(b"\n")
        out = []
        for line in lines:
            try:
                msg = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                return None
            if isinstance(msg, dict):
                out.append(msg)
        return out

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.sock.close()
            except OSError:
                pass


def connect_watchers() -> list[Conn]:
    """Connections to every live watcher of this user; stale sockets are removed on the way."""
    where = socket_dir(create=False)
    if where is None:
        return []
    conns = []
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return []
    for name in names:
        if not (name.startswith("watch-") and name.endswith(".sock")):
            continue
        path = where / name
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(SEND_TIMEOUT)   # a unix connect to a full backlog fails at once (EAGAIN), never waits
        try:
            with reachable(path) as name:
                sock.connect(name)
        except ConnectionRefusedError:
            sock.close()
            _remove_stale(path)
            continue
        except OSError:
            sock.close()
            continue
        conns.append(Conn.wrap(sock))
    return conns


def _remove_stale(path: Path) -> None:
    try:
        st = os.lstat(path)
        if stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid():
            os.unlink(path)
    except OSError:
        pass


def listen(where: Path) -> tuple[socket.socket, Path]:
    """A listening socket at where/watch-<pid>.sock, visible only once it accepts."""
    final = where / f"watch-{os.getpid()}.sock"
    temp = where / f".bind-{os.getpid()}-{os.urandom(3).hex()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with reachable(temp) as name:          # (a deep runtime dir: through its directory's fd)
        sock.bind(name)
    os.chmod(temp, 0o600)
    sock.listen(16)
    os.rename(temp, final)
    return sock, final


def clean_stale(where: Path) -> None:
    for name in os.listdir(where):
        if name.startswith("watch-") and name.endswith(".sock"):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            probe.settimeout(1.0)
            try:
                with reachable(where / name) as reached:
                    probe.connect(reached)
            except ConnectionRefusedError:
                _remove_stale(where / name)
            except OSError:
                pass
            finally:
                probe.close()
