"""The wisp home's one lock file: every write to the home (approvals, audit) happens while holding it.

Kept apart from store.py so that auditing a line that needed no approval does not load the store.

Waiting: as long as the work needs. Each holder writes its pid into the lock file once it holds it, so a
waiter can tell a queue that moves (200 agents adding approvals at once: the holder changes every few
milliseconds) from a holder that is stuck. Only one holder keeping the lock past HOLDER_SECONDS (a process
stopped with the lock held, or a lock held across a hang) ends the wait, with a message naming that pid.
"""
from __future__ import annotations

import fcntl
import os

LOCK_NAME = "wisp.lock"


def ensure_private_dir(path) -> None:
    """Create `path` (a str or a Path) user-only when missing; an existing one is left as it is (and judged by
    trust)."""
    if os.path.isdir(path):
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return
    os.chmod(path, 0o700)


# One holder keeping the lock longer than this is stuck (the work under the lock takes milliseconds).
HOLDER_SECONDS = 10.0


class LockStuck(OSError):
    """One process has held the lock for too long: the message names it and what to do."""


def _holder(fd: int) -> str:
    """What the current holder wrote into the lock file ("pid"), or "" before it wrote."""
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""


def _acquire(fd: int, path) -> None:
    import errno
    import time

    pause = 0.001
    seen, since = None, time.monotonic()
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            holder = _holder(fd)
            now = time.monotonic()
            if holder != seen:                   # the lock changed hands: the queue moves
                seen, since = holder, now
            elif now - since >= HOLDER_SECONDS:
                who = f"pid {holder}" if holder else "another process"
                raise LockStuck(errno.EDEADLK, f"{path} has been held by {who} for over {HOLDER_SECONDS:g}s "
                                               f"(stopped or hung?): end that process, or wait and retry",
                                str(path)) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.02)


class locked:
    """`with locked(home):` holds the wisp home's one lock file (exclusive) for the duration. A class, not a
    contextlib.contextmanager: the audit of every line takes this lock, and contextlib is an import."""

    __slots__ = ("home", "fd")

    def __init__(self, home) -> None:
        self.home, self.fd = home, -1

    def __enter__(self) -> None:
        ensure_private_dir(self.home)
        path = os.path.join(self.home, LOCK_NAME)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            _acquire(self.fd, path)
        except BaseException:
            os.close(self.fd)
            raise
        try:                            # who holds it, for waiters (a full disk may refuse: then they wait on)
            os.pwrite(self.fd, f"{os.getpid():<31}\n".encode(), 0)
        except OSError:
            pass

    def __exit__(self, *exc) -> None:
        os.close(self.fd)               # closing releases the lock
