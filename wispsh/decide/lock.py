"""The wisp home's one lock file: every write to the home (approvals, audit) happens while holding it.

Kept apart from store.py so that auditing a line that needed no approval does not load the store.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

LOCK_NAME = "wisp.lock"


def ensure_private_dir(path: Path) -> None:
    """Create `path` user-only when missing; an existing one is left as it is (and judged by trust)."""
    if path.is_dir():
        return
    os.makedirs(path.parent, exist_ok=True)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return
    os.chmod(path, 0o700)


LOCK_WAIT_SECONDS = 10.0   # a lock held longer than this (a process holding it forever) is an error, not a hang


def _acquire(fd: int, path: Path) -> None:
    import errno
    import time

    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OSError(errno.EWOULDBLOCK, f"{path} has been held by another process for over "
                                                 f"{LOCK_WAIT_SECONDS:g}s") from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


@contextmanager
def locked(home: Path):
    """Hold the wisp home's one lock file (exclusive) for the duration."""
    ensure_private_dir(home)
    fd = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        _acquire(fd, home / LOCK_NAME)
        yield
    finally:
        os.close(fd)                # closing releases the lock
