"""The plain mode's per-user warm judge process: started by the compiled client on first use (detached, its
own session), listening at RUNTIME/judge/TAG.sock (config.runtime_dir; the directory 0700 and the user's own,
TAG naming the install: native/build.py), exiting after WISP_JUDGE_IDLE seconds without a request (default
IDLE_SECONDS), when its socket is no longer its own, or when its code changed on disk.

Each connection: the peer's uid (SO_PEERCRED) must be this user's; the request is the `wisp run` wire format
(sandbox/client.py, kind "wispsh") with a last field, the client's nonce; the answer (sandbox/answer.py) ends
with HMAC-SHA256(key, "wisp-judge/1\\0" NONCE "\\0" BODY) under the key of the request's wisp home (the key that
signs grants, support/signing.py): a process that took the socket path cannot produce it, and the client
refuses an answer without it (native/client.c). One instance per socket: a lock file held while it serves.
"""
from __future__ import annotations

import os
import socket
import threading
import time

IDLE_SECONDS = 300.0
RECEIVE_SECONDS = 30.0
MAX_CLIENTS = 64
NONCE_BYTES = 64        # hex
DOMAIN = b"wisp-judge/1\0"


def _private(path: str) -> bool:
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return st.st_uid == os.getuid() and (st.st_mode & 0o777) == 0o700 and os.path.isdir(path)


def _idle_seconds() -> float:
    try:
        return max(0.5, float(os.environ.get("WISP_JUDGE_IDLE", IDLE_SECONDS)))
    except ValueError:
        return IDLE_SECONDS


def seal_for(key: bytes, nonce: bytes):
    from wispsh.support import signing

    return lambda body: signing.mac(key, DOMAIN + nonce + b"\0" + body).encode()


class Server:
    def __init__(self, path: str):
        from wispsh.warm.judge import PlainJudge

        self.path = path
        self.judge = PlainJudge()
        self.started = time.time()
        self.last = time.monotonic()
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.stopping = threading.Event()
        self.inode = None

    def serve(self) -> int:
        import fcntl

        # what answering needs, loaded before the first request: an install replaced later cannot take it away
        from wispsh.sandbox import answer, client, judge  # noqa: F401
        from wispsh.support import signing, text  # noqa: F401
        from wispsh.warm import judge as plain  # noqa: F401

        from wispsh.decide.lock import ensure_private_dir

        directory = os.path.dirname(self.path)
        try:
            ensure_private_dir(os.path.dirname(directory))
            ensure_private_dir(directory)
        except OSError:
            return 1
        if not (_private(directory) and _private(os.path.dirname(directory))):
            return 1                           # a directory others can enter or that is not ours: no judge
        lock = os.open(self.path[:-len(".sock")] + ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0                           # another judge serves this socket
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            os.unlink(self.path)               # a socket left by a judge that died (we hold the lock)
        except FileNotFoundError:
            pass
        listener.bind(self.path)
        os.chmod(self.path, 0o600)
        listener.listen(MAX_CLIENTS)
        self.inode = os.stat(self.path).st_ino
        listener.settimeout(1.0)
        try:
            while not self.stopping.is_set():
                try:
                    conn, _ = listener.accept()
                except socket.timeout:
                    if time.monotonic() - self.last > _idle_seconds() or not self._still_ours():
                        break
                    continue
                self.last = time.monotonic()
                if not self.slots.acquire(blocking=False):
                    conn.close()               # over the limit: the client refuses (went away)
                    continue
                threading.Thread(target=self._serve, args=(conn,), daemon=True).start()
        finally:
            self._drain(listener)
            os.close(lock)
        return 0

    def _drain(self, listener) -> None:
        """The end without a line cut short: the path goes first (a new client finds no judge and runs the
        in-process gate), then the connections already queued are served, and every request in hand ends
        before the process does (a client whose judge vanished mid-line refuses it)."""
        if self._still_ours():
            os.unlink(self.path)
        listener.setblocking(False)
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                break
            conn.setblocking(True)
            self.slots.acquire()
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()
        listener.close()
        for _ in range(MAX_CLIENTS):          # every slot back: no request is still being answered
            self.slots.acquire(timeout=RECEIVE_SECONDS)

    def _still_ours(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def _serve(self, conn: socket.socket) -> None:
        from wispsh.sandbox import answer, client
        from wispsh.sandbox.judge import BadRequest, parse_request
        from wispsh.support import signing
        from wispsh.warm.judge import DEFER, code_changed

        seal = None
        try:
            conn.settimeout(RECEIVE_SECONDS)
            pid, uid = client.peer(conn)
            body, _fds = client.receive(conn, fds_wanted=0)
            if body is None or uid != os.getuid() or pid <= 0:
                return
            fields = client.unpack(body)
            nonce = fields[-1]
            if len(nonce) != NONCE_BYTES:
                return
            try:
                req = parse_request(b"\0".join(fields[:-1]), pid=pid, uid=uid, stdin_fd=None)
            except BadRequest:
                return                         # the client refuses (went away)
            if req.kind != "wispsh" or req.start is None:
                return
            key = signing.key_for_signing(signing.wisp_home(req.env))
            if key is None:
                return
            seal = seal_for(key, nonce)
            conn.settimeout(None)
            if code_changed(self.started):     # judged by code that is no longer on disk: the gate judges
                self.stopping.set()
                answer.defer(conn, seal)
                return
            outcome = self.judge.handle(req)
            if outcome is DEFER:
                answer.defer(conn, seal)
            else:
                answer.send(conn, outcome, lambda _path: None, seal)
        except Exception:
            # an error of the judge's own (an install changed under it, say): the in-process gate judges the
            # line; before the answer could be sealed, nothing is sent and the client refuses
            if seal is not None:
                self.stopping.set()
                try:
                    answer.defer(conn, seal)
                except Exception:
                    pass
        finally:
            conn.close()
            self.last = time.monotonic()
            self.slots.release()


def main(path: str) -> None:
    import gc

    gc.disable()                               # acyclic data per request, as the in-process gate
    from wispsh.support import hotload

    hotload.install()
    os._exit(Server(path).serve())
