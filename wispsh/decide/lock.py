"""The wisp home's lock files: every write to the home happens while holding one. `wisp.lock` for the store
(approvals.json, the key, runtime grants), `audit.lock` for the audit (its appends share it; rotating or
mending the log takes it alone).

Kept apart from store.py so that auditing a line that needed no approval does not load the store.

Waiting: as long as the work needs. Each holder writes its pid into the lock file once it holds it, so a
waiter can tell a queue that moves (200 agents adding approvals at once: the holder changes every few
milliseconds) from a holder that is stuck. One holder keeping the lock past HOLDER_SECONDS ends the wait,
with a message naming that pid, when it is not running (stopped, asleep or hung with the lock held); one that
is runnable is only short of CPU on a loaded machine (a person's grant must not fail because agents are
busy) and is waited for up to RUNNABLE_SECONDS. The work under the lock is kept to the read-modify-write
itself (store.py, audit.py): no imports, no key derivation, no fsync.
"""
from __future__ import annotations

import fcntl
import os

LOCK_NAME = "wisp.lock"
AUDIT_LOCK_NAME = "audit.lock"  # the audit's own: its appends never wait behind a change of approvals.json


def ensure_private_dir(path) -> None:
    """Create `path` (a str or a Path) user-only when missing, and its missing parent too (the runtime dir's
    /tmp fallback, /tmp/runtime-UID, made 755 by the umask was a runtime dir `wisp doctor` calls not private);
    an existing one is left as it is (and judged by trust)."""
    if os.path.isdir(path):
        return
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return
    os.chmod(path, 0o700)


# One holder keeping the lock longer than this is stuck (the work under the lock takes milliseconds)...
HOLDER_SECONDS = 10.0
# ...unless it is runnable: then it waits for a CPU (hundreds of processes start at once on two cores)
RUNNABLE_SECONDS = 120.0


class LockStuck(OSError):
    """One process has held the lock for too long: the message names it and what to do."""


def _holder(fd: int) -> str:
    """What the current holder wrote into the lock file ("pid"), or "" before it wrote."""
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""


def _acquire(fd: int, path, until=None, mode: int = fcntl.LOCK_EX) -> bool:
    """Hold the lock (True), or stop waiting as soon as `until()` is true (False: the work was done for us)."""
    import errno
    import time

    pause = 0.001
    seen, since = None, time.monotonic()
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if until is not None and until():
                return False
            holder = _holder(fd)
            now = time.monotonic()
            if holder != seen:                   # the lock changed hands: the queue moves
                seen, since = holder, now
            elif now - since >= HOLDER_SECONDS and (now - since >= RUNNABLE_SECONDS or not _runnable(holder)):
                who = f"pid {holder}" if holder else "another process"
                raise LockStuck(errno.EDEADLK, f"{path} has been held by {who} for over {HOLDER_SECONDS:g}s "
                                               f"(stopped or hung?): end that process, or wait and retry",
                                str(path)) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.02)


def _runnable(holder: str) -> bool:
    """Whether the process `holder` names is running or waiting for a CPU (state R in /proc): starved by load,
    not stuck. False when it cannot be told (no /proc, another pid namespace, gone)."""
    if not holder.isdigit():
        return False
    try:
        with open(f"/proc/{holder}/stat", "rb") as fh:
            stat = fh.read()
        return stat[stat.rindex(b")") + 2:stat.rindex(b")") + 3] == b"R"
    except (OSError, ValueError):
        return False


class locked:
    """`with locked(home):` holds the wisp home's one lock file (exclusive) for the duration. A class, not a
    contextlib.contextmanager: the audit of every line takes this lock, and contextlib is an import.

    `with locked(home, until=done) as held:` stops waiting once done() is true (another holder did the work
    queued for us: store.py's group commit); `held` says whether the lock is held. `shared`: held beside other
    shared holders, never beside an exclusive one (the audit's appends: each is one whole write)."""

    __slots__ = ("home", "fd", "until", "mode", "name")

    def __init__(self, home, until=None, shared: bool = False, name: str = LOCK_NAME) -> None:
        self.home, self.fd, self.until, self.name = home, -1, until, name
        self.mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX

    def __enter__(self) -> bool:
        ensure_private_dir(self.home)
        path = os.path.join(self.home, self.name)
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            held = _acquire(self.fd, path, self.until, self.mode)
        except BaseException:
            os.close(self.fd)
            raise
        if not held:
            os.close(self.fd)
            self.fd = -1
            return False
        try:                            # who holds it, for waiters (a full disk may refuse: then they wait on)
            os.pwrite(self.fd, f"{os.getpid():<31}\n".encode(), 0)
        except OSError:
            pass
        return True

    def __exit__(self, *exc) -> None:
        if self.fd >= 0:
            os.close(self.fd)           # closing releases the lock
