"""git over a tree an agent wrote, run by the supervisor outside the walls: nothing the project holds may make
it run code or change how it reads files.

- Our own git directory (`--git-dir` is the shadow's), so the project's `.git/config` (core.fsmonitor, hooks,
  filters, aliases, includes) is never read; our config is written here, not with `git config`.
- A clean environment: no system or global config (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null), a HOME
  and XDG_CONFIG_HOME of its own (empty), no GIT_* of the person's (GIT_EXTERNAL_DIFF, GIT_SSH...), LC_ALL=C.
- No hooks (core.hooksPath=/dev/null), no fsmonitor, and `info/attributes` unsets every attribute that would
  convert content (text, eol, ident, filter, working-tree-encoding): info/attributes outranks the project's
  `.gitattributes`, so what is stored is the files' bytes, and a filter named there has no driver anyway
  (drivers come only from config, and ours has none). No textconv or external diff for the same reason.
- git itself is found in the system's directories, not on a PATH the project could put first.
- safe.directory: with the git directory named (GIT_DIR), git does no repository discovery, and so no
  ownership check: the shadow is the person's own, and the project's ownership never decides anything.

No fsync (core.fsync none; the objects written here do not either): a restore point is a record of work in
progress, and 10,000 fsyncs made the first scan of a 10,000-file project take 18 s here instead of 1 s. A
machine that loses power can lose the last points.

The objects the supervisor writes on the hot path (blobs, trees) are written here in Python (`Objects`), as
loose objects in git's own format: no process per restore point.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import zlib

from wispsh.support.bounded import read_at_most
from wispsh.support.gitconfig import core_setting

CONFIG = """\
[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\thooksPath = /dev/null
\tattributesFile = /dev/null
\tuntrackedCache = true
\tquotePath = false
\tprecomposeUnicode = false
\texcludesFile = {excludes}
[gc]
\tauto = 0
[index]
\tversion = 4
[protocol]
\tallow = never
[submodule]
\trecurse = false
[advice]
\tdetachedHead = false
"""
# Outranks every .gitattributes of the project: the bytes as they are, nothing run, nothing converted; diff
# and merge unspecified (no driver of the project's: ours has none; unset would make every file binary).
ATTRIBUTES = "* -text -eol -crlf -ident -filter !diff !merge -working-tree-encoding -export-subst\n"
SYSTEM_PATH = "/usr/bin:/bin:/usr/local/bin"
INLINE_LIMIT = 64 << 20         # a file bigger than this is written to its object a chunk at a time


class GitError(Exception):
    pass


def git_binary() -> str | None:
    return shutil.which("git", path=SYSTEM_PATH)


def global_excludes(env) -> str:
    """The person's global ignore file (core.excludesFile of ~/.gitconfig, else $XDG_CONFIG_HOME/git/ignore or
    ~/.config/git/ignore), read as git reads it: the project's ignore rules include it."""
    home = env.get("HOME") or os.path.expanduser("~")
    for config in (os.path.join(home, ".gitconfig"),
                   os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "git", "config")):
        found = core_setting(config, "excludesFile")
        if found:
            return os.path.join(home, found[2:]) if found.startswith("~/") else found
    return os.path.join(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "git", "ignore")


class Shadow:
    """The shadow repository of one project: `git` run over the project's files with our git dir and index."""

    def __init__(self, git_dir: str, work_tree: str):
        self.git_dir = git_dir
        self.work_tree = work_tree
        self.binary = git_binary()
        self.objects = Objects(os.path.join(git_dir, "objects"))

    def create(self, *, excludes: str) -> None:
        """Make the git directory (idempotent): config, attributes, an empty home for git."""
        for sub in ("objects/info", "objects/pack", "refs/heads", "info", "home"):
            os.makedirs(os.path.join(self.git_dir, sub), mode=0o700, exist_ok=True)
        if any(c in excludes for c in "\n\"\\"):
            excludes = "/dev/null"
        _write(os.path.join(self.git_dir, "config"), CONFIG.format(excludes=excludes))
        _write(os.path.join(self.git_dir, "info", "attributes"), ATTRIBUTES)
        head = os.path.join(self.git_dir, "HEAD")
        if not os.path.exists(head):
            _write(head, "ref: refs/heads/points\n")

    def copy_excludes(self, project_git_dir: str | None) -> None:
        """The project's `.git/info/exclude` is part of its ignore rules: copied as ours (patterns only)."""
        text = b""
        if project_git_dir:
            try:
                with open(os.path.join(project_git_dir, "info", "exclude"), "rb") as fh:
                    text = fh.read(1 << 20)
            except OSError:
                pass
        target = os.path.join(self.git_dir, "info", "exclude")
        try:
            with open(target, "rb") as fh:
                if fh.read() == text:
                    return
        except OSError:
            pass
        _write(target, text)

    def env(self, index: str | None = None) -> dict:
        home = os.path.join(self.git_dir, "home")
        env = {"PATH": SYSTEM_PATH, "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_ATTR_NOSYSTEM": "1",
               "GIT_DIR": self.git_dir, "GIT_WORK_TREE": self.work_tree, "GIT_NO_REPLACE_OBJECTS": "1",
               "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "LANG": "C"}
        if index:
            env["GIT_INDEX_FILE"] = index
        return env

    def run(self, *args: str, input: bytes | None = None, index: str | None = None, check: bool = True) -> bytes:
        if self.binary is None:
            raise GitError("git is not installed (it keeps the restore points)")
        done = subprocess.run([self.binary, *args], input=input, capture_output=True, env=self.env(index),
                              cwd=self.work_tree, stdin=None if input is not None else subprocess.DEVNULL)
        if check and done.returncode != 0:
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {args[0]}: {said[-1] if said else f'exit {done.returncode}'}")
        return done.stdout

    def popen(self, *args: str) -> subprocess.Popen:
        if self.binary is None:
            raise GitError("git is not installed (it keeps the restore points)")
        return subprocess.Popen([self.binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=self.env(), cwd=self.work_tree)


def _write(path: str, text) -> None:
    data = text.encode() if isinstance(text, str) else text
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


# ---------------------------------------------------------------- objects, written by us


GIT_FILE, GIT_EXEC, GIT_LINK, GIT_TREE, GIT_COMMIT = 0o100644, 0o100755, 0o120000, 0o40000, 0o160000


class Objects:
    """Loose objects in git's format (zlib of "TYPE SIZE\\0DATA", named by its SHA-1)."""

    def __init__(self, where: str):
        self.where = where
        self.known: set[bytes] = set()

    def _path(self, sha: bytes) -> str:
        text = sha.hex()
        return os.path.join(self.where, text[:2], text[2:])

    def has(self, sha: bytes) -> bool:
        return sha in self.known or os.path.exists(self._path(sha))

    def write(self, kind: bytes, data: bytes) -> bytes:
        header = b"%s %d\0" % (kind, len(data))
        sha = hashlib.sha1(header + data).digest()
        if sha in self.known:
            return sha
        path = self._path(sha)
        if not os.path.exists(path):
            self._store(path, zlib.compress(header + data, 1))
        self.known.add(sha)
        return sha

    def _store(self, path: str, packed: bytes) -> None:
        folder = os.path.dirname(path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        tmp = os.path.join(folder, f"tmp_{os.getpid()}_{os.urandom(4).hex()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o400)
        try:
            os.write(fd, packed) if len(packed) < (1 << 30) else _write_all(fd, packed)
        finally:
            os.close(fd)
        os.replace(tmp, path)

    def blob_of_file(self, path: str, size: int) -> bytes | None:
        """The blob of a regular file's content (None: it went away). A file that changes while it is read
        is read again, and then taken as read (its next change is the next point's)."""
        for _ in range(3):
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
            except OSError:
                return None
            try:
                if size > INLINE_LIMIT:
                    return self._blob_streamed(fd, path)
                data = read_at_most(fd, size)
            except OSError:
                return None
            finally:
                os.close(fd)
            if len(data) == size:
                break
            size = len(data)
        return self.write(b"blob", data)

    def _blob_streamed(self, fd: int, path: str) -> bytes:
        size = os.fstat(fd).st_size
        header = b"blob %d\0" % size
        digest = hashlib.sha1(header)
        packer = zlib.compressobj(1)
        folder = os.path.join(self.where, "tmp")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        tmp = os.path.join(folder, f"big_{os.getpid()}_{os.urandom(4).hex()}")
        seen = 0
        with open(tmp, "wb") as out:
            out.write(packer.compress(header))
            while seen <= size:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                seen += len(chunk)
                digest.update(chunk)
                out.write(packer.compress(chunk))
            out.write(packer.flush())
        if seen != size:                      # changed while read: once more, in memory
            os.unlink(tmp)
            os.lseek(fd, 0, os.SEEK_SET)
            return self.write(b"blob", read_at_most(fd, 1 << 62))
        sha = digest.digest()
        final = self._path(sha)
        os.makedirs(os.path.dirname(final), mode=0o700, exist_ok=True)
        os.replace(tmp, final)
        self.known.add(sha)
        return sha

    def tree(self, entries) -> bytes:
        """entries: (name bytes, git mode, sha) in any order; sorted as git sorts them."""
        ordered = sorted(entries, key=lambda e: e[0] + b"/" if e[1] == GIT_TREE else e[0])
        return self.write(b"tree", b"".join(b"%o %s\0%s" % (mode, name, sha) for name, mode, sha in ordered))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def empty_tree_sha() -> bytes:
    return hashlib.sha1(b"tree 0\0").digest()
