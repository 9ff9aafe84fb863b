"""os.path.realpath by the kernel: the path an O_PATH fd on `path` was opened by, read back from
/proc/self/fd. Python's realpath lstats each component in Python (18-32 us for /bin/sh on a small VM, a few
of them each request of the `wisp run` supervisor); this is three syscalls (~5 us). Anything the kernel
cannot open (a path that does not exist, a loop, no /proc) is resolved by os.path.realpath, as before."""
from __future__ import annotations

import os

_OPEN = getattr(os, "O_PATH", 0) | os.O_CLOEXEC


def real(path: str) -> str:
    """os.path.realpath(path) for a str path."""
    if _OPEN == os.O_CLOEXEC or not isinstance(path, str) or not path:
        return os.path.realpath(path)
    try:
        fd = os.open(path, _OPEN)
    except (OSError, ValueError):
        return os.path.realpath(path)
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return os.path.realpath(path)
    finally:
        os.close(fd)
    # the kernel's name is not a path the lexical walk gives for what is deleted, unreachable from our
    # root, or not a file system object (a socket's "socket:[N]")
    if not found.startswith("/") or found.endswith(" (deleted)"):
        return os.path.realpath(path)
    return found
