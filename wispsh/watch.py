"""`wisp watch`: answer questions from agents that have no terminal of a person's.

Design: every watcher listens on its own Unix socket, <runtime dir>/watch/watch-<pid>.sock (directory 0700,
the user's own). An asking wispsh connects to every socket it finds, checks each watcher (same user by
SO_PEERCRED, not beneath the asking session, on a person's terminal: ask.watcher_refusal), sends each
question to all of them and takes the first answer; the others are told it was answered. No broker: a
watcher that quits or dies closes its socket, which the asker sees at once. A socket that refuses
connections is stale and removed; a watcher binds under a temporary name and renames it into place once
listening, so a live socket is never seen refusing.

Wire protocol: JSON objects, one per line, UTF-8.
  asker -> watcher   {"type": "ask", "id": ID, "request": {...ask.question_request...}}
                     {"type": "answered", "id": ID, "choice": C, "by": PID|null, "note": TEXT}
                     {"type": "refused", "reason": TEXT}          (this watcher may not answer; then closed)
  watcher -> asker   {"type": "answer", "id": ID, "choice": "y"|"s"|"p"|"a"|"n"}
An asker that closes its connection withdraws its questions.
"""
from __future__ import annotations

import json
import os
import selectors
import shutil
import socket
import stat
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MAX_MESSAGE = 1 << 20          # a line bigger than this is a broken peer
SEND_TIMEOUT = 2.0


def runtime_dir() -> Path:
    import warnings

    import platformdirs

    with warnings.catch_warnings():          # the /tmp fallback warns on stderr; we check the dir ourselves
        warnings.simplefilter("ignore")
        return Path(platformdirs.user_runtime_dir("wisp"))


def socket_dir(*, create: bool) -> Path | None:
    """<runtime>/watch when it is ours and private (created 0700 if asked); None otherwise."""
    where = runtime_dir() / "watch"
    if create:
        for d in (where.parent.parent, where.parent, where):
            try:
                os.mkdir(d, 0o700)
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
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


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
            sock.connect(str(path))
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
    if len(str(final).encode()) >= 104:
        raise OSError(f"socket path too long: {final}")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(temp))
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
                probe.connect(str(where / name))
            except ConnectionRefusedError:
                _remove_stale(where / name)
            except OSError:
                pass
            finally:
                probe.close()


# ------------------------------------------------------------------ the watcher


@dataclass
class Pending:
    conn: Conn
    id: str
    request: dict


@dataclass
class Watcher:
    """The state of one `wisp watch`: its connections and the questions waiting, in arrival order."""

    term: object
    colour: bool
    width: int
    queue: list[Pending] = field(default_factory=list)
    shown: str | None = None
    notifier: list = field(default_factory=list)

    def show_head(self) -> None:
        from .ask import render

        if not self.queue or self.shown == self.queue[0].id:
            return
        head = self.queue[0]
        self.shown = head.id
        more = len(self.queue) - 1
        asker = f"  (asked by pid {head.conn.pid}" + (f"; {more} more waiting)" if more else ")")
        body, prompt = render(head.request, colour=self.colour, width=self.width).rsplit("\n", 1)
        self.term.write("\n" + body + "\n" + asker + "\n" + prompt)

    def drop(self, keep) -> None:
        """Remove waiting questions for which keep(p) is false; say so when the one on screen goes."""
        head = self.queue[0] if self.queue else None
        self.queue = [p for p in self.queue if keep(p)]
        if head is not None and head not in self.queue and self.shown == head.id:
            self.shown = None

    def on_message(self, conn: Conn, msg: dict) -> None:
        from .ask import valid_request

        kind = msg.get("type")
        if kind == "ask" and valid_request(msg.get("request")) and isinstance(msg.get("id"), str):
            self.queue.append(Pending(conn, msg["id"], msg["request"]))
            self.notify(msg["request"])
        elif kind == "answered":
            on_screen = self.queue and self.queue[0].conn is conn and self.queue[0].id == msg.get("id")
            self.drop(lambda p: not (p.conn is conn and p.id == msg.get("id")))
            if on_screen:
                note = f" ({msg['note']})" if msg.get("note") else ""
                by = f" by watcher {msg['by']}" if msg.get("by") else ""
                self.term.write(f"\n  answered elsewhere{by}: {msg.get('choice')}{note}\n")
        elif kind == "refused":
            self.term.write(f"\n  wisp watch: a question was not sent here: {msg.get('reason')}\n")

    def on_gone(self, conn: Conn) -> None:
        on_screen = self.queue and self.queue[0].conn is conn
        self.drop(lambda p: p.conn is not conn)
        if on_screen:
            self.term.write("\n  withdrawn: the asking wispsh went away (it was killed or gave up)\n")

    def on_key(self, ch: str) -> bool:
        """Handle one key; False to quit."""
        from .ask import CTRL_C, CTRL_D, choice_for_key, echo_for

        if ch in (CTRL_C, CTRL_D) or (ch in "qQ" and not self.queue):
            return False
        if not self.queue:
            return True
        head = self.queue[0]
        got = choice_for_key(ch, head.request.get("level") == "dangerous",
                             bool(head.request.get("this_line_only")))
        if got is None:
            return True
        choice, note = got
        head.conn.send({"type": "answer", "id": head.id, "choice": choice})
        self.term.write(echo_for(choice, note, str(head.request.get("pattern"))) + "\n")
        self.queue.pop(0)
        self.shown = None
        return True

    def notify(self, request: dict) -> None:
        tool = shutil.which("notify-send")
        if not tool:
            return
        self.notifier = [p for p in self.notifier if p.poll() is None]
        try:
            self.notifier.append(subprocess.Popen(
                [tool, "--app-name=wisp", "wispsh asks for approval",
                 f"{request.get('level')}: {str(request.get('pattern'))[:80]}"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True))
        except OSError:
            pass


def serve(config, env) -> int:
    """Run `wisp watch` on this process's terminal until the person quits. Exit status for the CLI."""
    import sys

    from . import ask

    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        sys.stderr.write("wisp watch: needs a terminal (run it in your own terminal window)\n")
        return 2
    persons, why = ask.terminal_is_persons(ask._controlling_tty_nr("self"), config)
    if not persons:
        os.close(fd)
        sys.stderr.write(f"wisp watch: this terminal is not a person's ({why}); "
                         "run wisp watch in your own terminal window\n")
        return 2
    where = socket_dir(create=True)
    if where is None:
        os.close(fd)
        sys.stderr.write(f"wisp watch: {runtime_dir() / 'watch'} is not a private directory of yours\n")
        return 2
    clean_stale(where)
    listener, path = listen(where)
    try:
        with ask.RawTerminal(fd) as term:
            try:
                _loop(term, listener, ask.use_colour(env), ask._terminal_width(fd))
            finally:
                try:
                    os.unlink(path)
                except OSError:
                    pass
                listener.close()
    except ask._Cancel:
        pass                                       # SIGINT: quit like Ctrl-C
    finally:
        os.close(fd)
    return 0


def _loop(term, listener: socket.socket, colour: bool, width: int) -> None:
    watcher = Watcher(term, colour, width)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "listen")
    sel.register(term.fd, selectors.EVENT_READ, "tty")
    sel.register(term.wake_fd, selectors.EVENT_READ, "wake")      # a signal wakes the loop at once
    term.write(f"wisp watch (pid {os.getpid()}): waiting for questions from agents. q quits.\n")
    while True:
        watcher.show_head()
        for key, _ in sel.select():
            if key.data == "wake":
                term.drain_wakeups()
            elif key.data == "listen":
                try:
                    sock, _ = listener.accept()
                except OSError:
                    continue
                conn = Conn.wrap(sock)
                if conn.uid != os.getuid():
                    conn.close()
                    continue
                sel.register(sock, selectors.EVENT_READ, conn)
            elif key.data == "tty":
                try:
                    data = os.read(term.fd, 64)
                except OSError:
                    return
                if not data:
                    return
                text = data.decode("latin-1")
                if text.startswith("\x1b"):
                    continue
                before = len(watcher.queue)
                for ch in text:
                    if not watcher.on_key(ch):
                        return
                    if len(watcher.queue) != before:
                        break                      # one key answers one question; the rest answer nothing
            else:
                conn = key.data
                messages = conn.receive()
                if messages is None:
                    sel.unregister(conn.sock)
                    watcher.on_gone(conn)
                    conn.close()
                    continue
                for msg in messages:
                    watcher.on_message(conn, msg)
                if conn.closed or any(m.get("type") == "refused" for m in messages):
                    sel.unregister(conn.sock)
                    watcher.on_gone(conn)
                    conn.close()
