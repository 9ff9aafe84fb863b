"""Reading a file descriptor up to a limit: one byte past it is read, so a caller can tell "too big" from
"exactly at the limit" without trusting a size that may change while it reads."""
from __future__ import annotations

import os


def read_at_most(fd: int, limit: int) -> bytes:
    """The file's bytes, at most `limit` + 1 of them (more than `limit`: the file is over it)."""
    chunks, left = [], limit + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
