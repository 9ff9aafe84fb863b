"""The project's covered files as a tree in memory, and a restore point as the root tree's id.

Covered: every regular file and symbolic link that git does not ignore (tracked or untracked), with its
content, git's mode (executable or not, link) and its exact permission bits (`modes`, beside the tree: git
keeps only the executable bit). Not covered: ignored files and directories (never read, never watched),
empty directories, the project's `.git`, what a nested repository (a submodule) holds (recorded as its
commit, as git records it), other file types (sockets, FIFOs).

`full_scan` is git's: `git add -A` into the shadow index (its stat cache: a file whose stat did not change is
not read again), then the tree read back. `sync` applies only what changed (watch.py's paths): each changed
path is stat'ed, read and hashed if it changed, and the trees above it are written again (objects in Python,
git.py `Objects`); new paths are asked of the ignore rules. A point after a line that changed 10 files of
10,000 reads those 10 files and writes about as many trees as they have directories above them.
"""
from __future__ import annotations

import os
import stat
import threading

from wispsh.restore.git import GIT_COMMIT, GIT_EXEC, GIT_FILE, GIT_LINK, GIT_TREE, GitError
from wispsh.restore.ignore import Ignore
from wispsh.restore.watch import Changes


# `git add` of a whole project writes its blobs into one pack (bulk check-in: every file is over the
# threshold), not one loose file each: the first scan of 10,000 files wrote 10,000 files before. Only for add:
# the threshold also makes `git diff` call such files binary.
PACKED = ("-c", "core.bigFileThreshold=1")
QUIET_SECONDS = 0.2     # Tree.keep_up: the project this long without a change is between lines


def canonical_perm(mode: int) -> int:
    return 0o755 if mode == GIT_EXEC else 0o644


def _is_git(name: bytes) -> bool:
    return name.lower() == b".git"


def _parent(path: bytes) -> bytes:
    at = path.rfind(b"/")
    return path[:at] if at >= 0 else b""


def _name(path: bytes) -> bytes:
    return path[path.rfind(b"/") + 1:]


def _join(folder: bytes, name: bytes) -> bytes:
    return folder + b"/" + name if folder else name


class Point:
    """What a restore point holds: the root tree and the permission bits that differ from git's."""

    __slots__ = ("tree", "modes")

    def __init__(self, tree: str, modes: str | None):
        self.tree, self.modes = tree, modes


class Tree:
    def __init__(self, shadow, *, project_git_dir: str | None = None, project_index: str | None = None,
                 watcher=None):
        self.shadow = shadow
        self.objects = shadow.objects
        self.root = os.fsencode(shadow.work_tree)
        self.project_git_dir = project_git_dir
        self.project_index = project_index
        self.watcher = watcher
        self.ignore = Ignore(shadow)
        self.files: dict[bytes, tuple] = {}     # path -> (git mode, sha, permission bits, stat key)
        self.kids: dict[bytes, set] = {b"": set()}  # directory -> its covered names (files and directories)
        self.trees: dict[bytes, bytes] = {}     # directory -> its tree's sha, while nothing under it changed
        self.ignored_dirs: set[bytes] = set()   # not walked, not watched
        self.modes: dict[bytes, int] = {}       # path -> permission bits, where they are not 644/755
        self.modes_sha: str | None = None
        self.modes_changed = True
        self.lock = threading.RLock()
        self.scans = 0                          # full scans made (a test and the bench read it)
        self.why_full = ""

    # ------------------------------------------------------------ the point

    def point(self) -> Point:
        """Bring the tree up to date with the project, write what is new; the point's ids."""
        with self.lock:
            self.sync()
            tree = self._tree(b"").hex()
            if self.modes_changed:
                self.modes_sha = self._modes_blob()
                self.modes_changed = False
            return Point(tree, self.modes_sha)

    def keep_up(self, lock, stopping, quiet: float = QUIET_SECONDS) -> None:
        """Between lines (a thread of the supervisor's): once the project has been quiet for `quiet` seconds
        after a change, sync, so that the point before the next line reads only what changed since (a
        build's outputs were read on that line's path). lock(): the journal's lock (no sync beside an undo);
        returns when `stopping` is set or the watcher is gone. A sync that fails makes the next a full scan."""
        import select

        watcher = self.watcher
        if watcher is None or watcher.fd < 0 or watcher.broken:
            return                              # (every point a full scan: none between lines as well)
        poller = select.poll()
        poller.register(watcher.fd, select.POLLIN)
        while not stopping.is_set():
            try:
                ready = poller.poll(1000)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            if ready[0][1] & (select.POLLNVAL | select.POLLERR) or stopping.is_set() or watcher.broken:
                return
            while not stopping.wait(quiet):
                with self.lock:
                    if not watcher.gather():
                        break
            if stopping.is_set():
                return
            try:
                with lock(), self.lock:
                    self.sync()
            except Exception:
                pass

    def sync(self) -> None:
        with self.lock:
            if self.watcher is None or not self.scans:
                self.full_scan()
                return
            changes = self.watcher.changes()
            try:
                self._sync(changes)
            except BaseException:               # what it had not applied is lost with it: the next, a full scan
                self.watcher.pending.need_full("a sync failed")
                raise

    def _sync(self, changes) -> None:
        if changes.full:
            self.full_scan(changes.why)
        elif any(_name(p) == b".gitignore" for p in changes.paths):
            self.full_scan("a .gitignore changed")
        else:
            self._apply(changes.paths)

    # ------------------------------------------------------------ full scan (git)

    def full_scan(self, why: str = "") -> None:
        with self.lock:
            self.why_full = why
            self.shadow.copy_excludes(self.project_git_dir)
            self.ignore.restart()
            self._walk_dirs()
            shadow = self.shadow
            shadow.run(*PACKED, "add", "-A", "--ignore-errors", check=False)
            forced = self._tracked_but_ignored()
            if forced:
                shadow.run(*PACKED, "--literal-pathspecs", "add", "-f", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul",
                           input=b"".join(p + b"\0" for p in forced), check=False)
            root = shadow.run("write-tree").strip()
            listing = shadow.run("ls-tree", "-r", "-t", "-z", "--full-tree", root.decode())
            self._load(listing)
            self.scans += 1
            if self.watcher is not None:        # what changed while git read it: read again, whatever its stat
                during = self.watcher.changes()
                if during.full:
                    self.watcher.pending.need_full(during.why)
                else:
                    self._apply(during.paths, force=True)

    def _walk_dirs(self) -> None:
        """Every directory to cover, breadth first, asking the ignore rules a level at a time; each watched
        before it is listed (what is made in it after the listing is an event)."""
        self.ignored_dirs = set()
        level = [b""]
        watcher = self.watcher
        while level:
            found = []
            for folder in level:
                if watcher is not None and not watcher.watch(folder):
                    watcher = None              # no more watches: every point a full scan (watch.broken says)
                found += self._subdirs(folder)
            flags = self.ignore.ignored(found)
            level = []
            for path, ignored in zip(found, flags):
                (self.ignored_dirs.add if ignored else level.append)(path)

    def _subdirs(self, folder: bytes) -> list[bytes]:
        out = []
        try:
            with os.scandir(os.path.join(self.root, folder) if folder else self.root) as it:
                for entry in it:
                    if _is_git(entry.name) or not entry.is_dir(follow_symlinks=False):
                        continue
                    path = _join(folder, entry.name)
                    if not os.path.lexists(os.path.join(self.root, path, b".git")):    # a nested repository:
                        out.append(path)                                               # git records its commit
        except OSError:
            pass
        return out

    def _tracked_but_ignored(self) -> list[bytes]:
        """Files the project's own git tracks although its ignore rules match them (added with -f once):
        read from the project's index through our git (nothing of the project's git runs)."""
        if not self.project_index or not os.path.isfile(self.project_index):
            return []
        try:
            out = self.shadow.run("ls-files", "-z", "-c", "-i", "--exclude-standard", index=self.project_index)
        except GitError:
            return []
        return [p for p in out.split(b"\0") if p and os.path.lexists(os.path.join(self.root, p))]

    def _load(self, listing: bytes) -> None:
        files, kids, trees = {}, {b"": set()}, {}
        for row in listing.split(b"\0"):
            if not row:
                continue
            meta, _, path = row.partition(b"\t")
            mode, kind, sha = meta.split(b" ")
            parent = _parent(path)
            kids.setdefault(parent, set()).add(_name(path))
            if kind == b"tree":
                kids.setdefault(path, set())
                trees[path] = bytes.fromhex(sha.decode())
                continue
            files[path] = (int(mode, 8), bytes.fromhex(sha.decode()), None, None)
        modes = {}
        for path, (mode, sha, _, _) in list(files.items()):
            if mode == GIT_COMMIT:
                continue
            try:
                st = os.lstat(os.path.join(self.root, path))
            except OSError:
                continue                        # gone since: its event comes
            perm = stat.S_IMODE(st.st_mode) if mode != GIT_LINK else None
            files[path] = (mode, sha, perm, _key(st))
            if perm is not None and perm != canonical_perm(mode):
                modes[path] = perm
        self.files, self.kids, self.trees, self.modes = files, kids, trees, modes
        self.modes_changed = True

    # ------------------------------------------------------------ what changed (Python)

    def _apply(self, paths, force=False) -> None:
        if not paths:
            return
        present, renamed = [], {}
        for path in sorted(paths, key=len):
            if self._out_of_scope(path):
                continue
            try:
                st = os.lstat(os.path.join(self.root, path))
            except OSError:
                st = None
            if st is None or not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                self._remove(path, renamed)
            else:
                present.append((path, st))
        new = []
        for path, st in present:
            known = self.files.get(path)
            if stat.S_ISDIR(st.st_mode):
                if known is not None and known[0] == GIT_COMMIT:
                    continue                    # a nested repository: not covered
                if known is not None:
                    self._remove(path, renamed)
                if path in self.kids:
                    new += self._rewalk(path, renamed, force)
                else:
                    new.append(path)
                continue
            if path in self.kids:
                self._remove(path, renamed)
            if known is not None:
                self._update(path, st, force, renamed)
            else:
                new.append(path)
        self._add_new(new, renamed)

    def _out_of_scope(self, path: bytes) -> bool:
        parts = path.split(b"/")
        if any(_is_git(p) for p in parts):
            return True
        for end in range(1, len(parts)):
            if b"/".join(parts[:end]) in self.ignored_dirs:
                return True
        return path in self.ignored_dirs

    def _add_new(self, new: list[bytes], renamed: dict) -> None:
        seen: set[bytes] = set()
        while new:
            new = [p for p in dict.fromkeys(new) if p not in seen]
            seen.update(new)
            flags = self.ignore.ignored(new)
            later = []
            for path, ignored in zip(new, flags):
                full = os.path.join(self.root, path)
                try:
                    st = os.lstat(full)
                except OSError:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    if ignored:
                        self.ignored_dirs.add(path)
                        continue
                    if os.path.lexists(os.path.join(full, b".git")):
                        self.watcher.pending.need_full("a nested repository appeared") if self.watcher else None
                        continue
                    if self.watcher is not None and not self.watcher.watch(path):
                        self.watcher.pending.need_full(self.watcher.broken)
                    self._dir(path)
                    later += self._listing(path)
                elif not ignored and (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                    self._update(path, st, True, renamed)
            new = later

    def _listing(self, folder: bytes) -> list[bytes]:
        try:
            names = os.listdir(os.path.join(self.root, folder))
        except OSError:
            return []
        return [_join(folder, n) for n in names if not _is_git(n)]

    def _rewalk(self, folder: bytes, renamed: dict, force: bool) -> list[bytes]:
        """A directory that itself changed (made, moved in, its mode): everything under it compared again."""
        new, stack = [], [folder]
        while stack:
            here = stack.pop()
            on_disk = set()
            for path in self._listing(here):
                on_disk.add(_name(path))
                try:
                    st = os.lstat(os.path.join(self.root, path))
                except OSError:
                    continue
                if path in self.kids and stat.S_ISDIR(st.st_mode):
                    if self.watcher is not None:
                        self.watcher.watch(path)
                    stack.append(path)
                elif path in self.files and not stat.S_ISDIR(st.st_mode):
                    if self.files[path][0] != GIT_COMMIT:
                        self._update(path, st, force, renamed)
                elif path not in self.ignored_dirs:
                    new.append(path)
            for gone in list(self.kids.get(here, ())):
                if gone not in on_disk:
                    self._remove(_join(here, gone), renamed)
        return new

    # ------------------------------------------------------------ the model

    def _dir(self, folder: bytes) -> None:
        """A directory in the model, linked into its parent's names (and so up to the root)."""
        if folder in self.kids:
            return
        self.kids[folder] = set()
        if folder:
            parent = _parent(folder)
            self._dir(parent)
            self.kids[parent].add(_name(folder))

    def _invalidate(self, path: bytes) -> None:
        folder = _parent(path)
        while True:
            self.trees.pop(folder, None)
            if not folder:
                return
            folder = _parent(folder)

    def _update(self, path: bytes, st, force: bool, renamed: dict) -> None:
        key = _key(st)
        known = self.files.get(path)
        if known is not None and known[3] == key and not force:
            return
        full = os.path.join(self.root, path)
        if stat.S_ISLNK(st.st_mode):
            try:
                sha = self.objects.write(b"blob", os.readlink(full))
            except OSError:
                return
            mode, perm = GIT_LINK, None
        else:
            mode = GIT_EXEC if st.st_mode & stat.S_IXUSR else GIT_FILE
            perm = stat.S_IMODE(st.st_mode)
            sha = renamed.get(_reuse_key(st))
            if sha is None:
                sha = self.objects.blob_of_file(full, st.st_size)
            if sha is None:
                return                          # unreadable or gone: kept as it was (its event comes)
        if known is None:
            self._dir(_parent(path))
            self.kids[_parent(path)].add(_name(path))
        self.files[path] = (mode, sha, perm, key)
        self._invalidate(path)
        wanted = perm if perm is not None and perm != canonical_perm(mode) else None
        if self.modes.get(path) != wanted:
            if wanted is None:
                self.modes.pop(path, None)
            else:
                self.modes[path] = wanted
            self.modes_changed = True

    def _remove(self, path: bytes, renamed: dict) -> None:
        known = self.files.pop(path, None)
        if known is not None:
            if known[3] is not None:
                renamed[(known[3][0], known[3][1], known[3][2])] = known[1]
            if self.modes.pop(path, None) is not None:
                self.modes_changed = True
        elif path in self.kids:
            for name in list(self.kids[path]):
                self._remove(_join(path, name), renamed)
            del self.kids[path]
            self.trees.pop(path, None)
            if self.watcher is not None:
                self.watcher.unwatch_under(path)
        else:
            self.ignored_dirs.discard(path)
            return
        self.kids.get(_parent(path), set()).discard(_name(path))
        self._invalidate(path)

    def _tree(self, folder: bytes) -> bytes:
        sha = self.trees.get(folder)
        if sha is not None:
            return sha
        entries = []
        for name in self.kids.get(folder, ()):
            path = _join(folder, name)
            known = self.files.get(path)
            if known is not None:
                entries.append((name, known[0], known[1]))
            elif path in self.kids:
                sub = self._tree(path)
                if self.kids[path] and sub != EMPTY_TREE:
                    entries.append((name, GIT_TREE, sub))
        sha = self.objects.tree(entries)
        self.trees[folder] = sha
        return sha

    def _modes_blob(self) -> str | None:
        if not self.modes:
            return None
        text = b"".join(b"%o %s\0" % (self.modes[p], p) for p in sorted(self.modes))
        return self.objects.write(b"blob", text).hex()

    # ------------------------------------------------------------ what the gate asks (sandbox/contained.py)

    def ignored_present(self, path: bytes) -> bool:
        """An existing path (relative) that no restore point holds: ignored, under an ignored directory, in a
        nested repository, or not a file git keeps. Call after sync. The project's .git is not asked here."""
        if any(_is_git(p) for p in path.split(b"/")) or not os.path.lexists(os.path.join(self.root, path)):
            return False
        return path not in self.files and path not in self.kids

    def ignored_under(self, folder: bytes) -> bool:
        """Whether anything under a directory (relative; b"" the project) is in no restore point: an ignored
        file or directory, or what a nested repository holds. Call after sync."""
        if folder and (self._out_of_scope(folder) or self.files.get(folder, (0,))[0] == GIT_COMMIT):
            return not any(_is_git(p) for p in folder.split(b"/"))
        stack = [folder]
        while stack:
            here = stack.pop()
            for name in self._names(here):
                if _is_git(name):
                    continue
                path = _join(here, name)
                known = self.files.get(path)
                if known is not None:
                    if known[0] == GIT_COMMIT:
                        return True
                    continue
                if path in self.ignored_dirs:
                    return True
                full = os.path.join(self.root, path)
                if os.path.isdir(full) and not os.path.islink(full):
                    stack.append(path)          # covered, or empty, or new: looked into
                else:
                    return True                 # a file no point holds
        return False

    def _names(self, folder: bytes) -> list[bytes]:
        try:
            return os.listdir(os.path.join(self.root, folder) if folder else self.root)
        except OSError:
            return []

    def close(self) -> None:
        self.ignore.close()


EMPTY_TREE = bytes.fromhex("4b825dc642cb6eb9a060e54bf8d69288fbee4904")


def _key(st) -> tuple:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def _reuse_key(st) -> tuple:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


__all__ = ["Tree", "Point", "Changes", "canonical_perm"]
