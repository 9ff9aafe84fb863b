"""Whether a file is the user's own: only the user (or root) can change it, all the way up.

Used for what the gate trusts as the user's rather than the agent's: the shells' start-up files (startup.py)
and installed scripts run through their `#!` line (agents/installed.py). Plain os.stat calls: this runs
below the threshold too.
"""
from __future__ import annotations

import os
import stat


def _owner_ok(st: os.stat_result) -> bool:
    return st.st_uid in (os.getuid(), 0)


def not_ours(path: str, *, own_directory_shared: bool = True) -> str | None:
    """None when `path` is a regular file owned by the user or root, writable by no one else, in directories
    owned by the user or root that no one else may write, except sticky ones (no one else can rename or
    delete what is ours in them: a HOME under /tmp is fine); else why not. Checked for the file's real path
    and for the link that names it (replacing the link is enough). `own_directory_shared=False`: the file's
    own directory may not be writable by others even when sticky (a script lying in /tmp itself)."""
    try:
        real = os.path.realpath(path)
        st = os.stat(real)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if not _owner_ok(st):
        return "is not yours (owned by uid %d)" % st.st_uid
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by others"
    for start in {os.path.dirname(real), os.path.dirname(os.path.abspath(path))}:
        directory, first = start, True
        while True:
            try:
                dst = os.stat(directory)
            except OSError:
                return f"sits in {directory}, which cannot be read"
            if not _owner_ok(dst):
                return f"sits in {directory}, which is not yours"
            shared = dst.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            if shared and (not dst.st_mode & stat.S_ISVTX or (first and not own_directory_shared)):
                return f"sits in {directory}, which others may write"
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory, first = parent, False
    return None
