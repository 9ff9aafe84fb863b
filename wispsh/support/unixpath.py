"""Unix socket paths longer than sun_path holds (108 bytes with its NUL on Linux, 104 elsewhere): bound and
connected through an O_PATH fd on the socket's directory, as /proc/self/fd/N/NAME. A runtime dir deep in a
home or a test's temporary tree made `wisp watch` refuse to start, and askers never find it."""
from __future__ import annotations

import contextlib
import os

ROOM = 104                      # the shortest sun_path of the systems wispsh runs on (macOS: 104)


@contextlib.contextmanager
def reachable(path):
    """A name for the socket at `path` that bind() and connect() take: the path itself when it fits, else
    the path through its directory's fd (open while the context is). OSError when even that does not fit."""
    text = os.fspath(path)
    if len(os.fsencode(text)) < ROOM:
        yield text
        return
    if not hasattr(os, "O_PATH"):
        raise OSError(f"socket path too long: {text}")
    fd = os.open(os.path.dirname(text) or ".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        name = f"/proc/self/fd/{fd}/{os.path.basename(text)}"
        if len(os.fsencode(name)) >= ROOM or not os.path.isdir(f"/proc/self/fd/{fd}"):
            raise OSError(f"socket path too long: {text}")
        yield name
    finally:
        os.close(fd)
