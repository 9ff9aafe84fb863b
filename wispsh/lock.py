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


@contextmanager
def locked(home: Path):
    """Hold the wisp home's one lock file (exclusive) for the duration."""
    ensure_private_dir(home)
    fd = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                # closing releases the lock
