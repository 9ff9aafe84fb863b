"""Which paths of the project changed since the last restore point: inotify, from outside the namespace (the
kernel reports changes made by any process, in any mount namespace, on the watched directories).

A watch per directory that restore points cover (ignored directories are not watched: node_modules costs
nothing). Events are read when a point is taken (`changes`), not as they come: between two lines the kernel
queues them. What inotify cannot say, and so makes the next point a full scan (`Changes.full`): the queue
overflowed, a watch could not be added (fs.inotify.max_user_watches), inotify is missing. What it does not
see at all (docs/wisp-run.md): a write through a hard link made from outside the project, a write through
a shared memory mapping.
"""
from __future__ import annotations

import errno
import os
import struct

IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF = 0x400, 0x800
IN_Q_OVERFLOW, IN_IGNORED, IN_ISDIR = 0x4000, 0x8000, 0x40000000
IN_ONLYDIR, IN_DONT_FOLLOW, IN_EXCL_UNLINK = 0x01000000, 0x02000000, 0x04000000
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000
MASK = (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)
EVENT = struct.Struct("iIII")


class Changes:
    """What changed: paths relative to the root (bytes), and whether only a full scan can tell."""

    __slots__ = ("paths", "full", "why")

    def __init__(self):
        self.paths: set[bytes] = set()
        self.full = False
        self.why = ""

    def need_full(self, why: str) -> None:
        if not self.full:
            self.full, self.why = True, why


_LIBC = None


def _libc():
    global _LIBC
    if _LIBC is None:
        import ctypes
        import ctypes.util

        _LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    return _LIBC


class Watcher:
    def __init__(self, root: str):
        self.root = os.fsencode(root)
        self.fd = -1
        self.paths: dict[int, bytes] = {}      # watch descriptor -> directory (relative; b"" the root)
        self.wds: dict[bytes, int] = {}
        self.pending = Changes()
        self.broken = ""
        try:
            fd = _libc().inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        except (OSError, AttributeError) as exc:
            self.broken = f"inotify not available ({exc})"
            return
        if fd < 0:
            import ctypes

            self.broken = f"inotify not available ({os.strerror(ctypes.get_errno())})"
            return
        self.fd = fd

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def watch(self, rel: bytes) -> bool:
        """Watch one directory (relative to the root). False when the kernel refused (then every later point
        is a full scan, until a full scan watches again)."""
        if self.fd < 0:
            return False
        import ctypes

        path = os.path.join(self.root, rel) if rel else self.root
        wd = _libc().inotify_add_watch(self.fd, path, MASK)
        if wd < 0:
            err = ctypes.get_errno()
            if err in (errno.ENOENT, errno.ENOTDIR):
                return True                     # gone already: its parent's event says so
            self.broken = f"a directory could not be watched ({os.strerror(err)}; fs.inotify.max_user_watches?)"
            return False
        old = self.paths.get(wd)
        if old is not None and old != rel:
            self.wds.pop(old, None)
        self.paths[wd] = rel
        self.wds[rel] = wd
        return True

    def unwatch_under(self, rel: bytes) -> None:
        """Forget the watches at and below a directory that was moved away or deleted."""
        prefix = rel + b"/"
        for path in [p for p in self.wds if p == rel or p.startswith(prefix)]:
            wd = self.wds.pop(path)
            self.paths.pop(wd, None)
            if self.fd >= 0:
                _libc().inotify_rm_watch(self.fd, wd)

    def changes(self) -> Changes:
        """Everything that happened since the last call, and a new empty set for what comes next."""
        self.gather()
        found, self.pending = self.pending, Changes()
        if self.fd < 0 or self.broken:
            found.need_full(self.broken or "no inotify")
        return found

    def gather(self) -> int:
        """Read the events queued so far into what the next `changes` returns; how many there were."""
        if self.fd < 0 or self.broken:
            return 0
        found = self.pending
        read = 0
        moved_from: dict[int, bytes] = {}
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError as exc:
                found.need_full(f"inotify read failed ({exc})")
                break
            at = 0
            while at + EVENT.size <= len(data):
                read += 1
                wd, mask, cookie, size = EVENT.unpack_from(data, at)
                name = data[at + EVENT.size:at + EVENT.size + size].rstrip(b"\0")
                at += EVENT.size + size
                if mask & IN_Q_OVERFLOW:
                    found.need_full("inotify's queue overflowed")
                    continue
                folder = self.paths.get(wd)
                if folder is None:
                    continue
                if mask & IN_IGNORED:
                    self.paths.pop(wd, None)
                    if self.wds.get(folder) == wd:
                        self.wds.pop(folder, None)
                    continue
                if not name:                    # the watched directory itself (deleted, moved): its parent says it
                    continue
                path = folder + b"/" + name if folder else name
                found.paths.add(path)
                if mask & IN_ISDIR:
                    if mask & IN_MOVED_FROM:
                        moved_from[cookie] = path
                    elif mask & IN_MOVED_TO and cookie in moved_from:
                        self._renamed(moved_from.pop(cookie), path)
                    elif mask & IN_DELETE:
                        self.unwatch_under(path)
        for path in moved_from.values():        # moved out of what is watched: its watches would lie
            self.unwatch_under(path)
        return read

    def _renamed(self, old: bytes, new: bytes) -> None:
        """A watched directory renamed within the project: its watches follow the inode, their paths move."""
        prefix = old + b"/"
        for path in [p for p in self.wds if p == old or p.startswith(prefix)]:
            wd = self.wds.pop(path)
            moved = new + path[len(old):]
            self.paths[wd] = moved
            self.wds[moved] = wd
