"""Shared by the restore-point tests: what a project's covered tree is, hashed the way a person would compare
it (every file git does not ignore: its bytes, its permission bits, a link's target), and what its .git is.
Holds no tests itself."""
from __future__ import annotations

import hashlib
import os
import stat
import subprocess


def ignored_by_git(root: str) -> set[str]:
    """Paths git itself calls ignored (files and directories), by the real git over the real project."""
    out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                          "--directory"], capture_output=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1"}).stdout
    return {p.decode().rstrip("/") for p in out.split(b"\0") if p}


def covered_state(root: str, ignored=None) -> dict[str, tuple]:
    """path -> ("file", sha256, perm) | ("link", target) of every covered file (not under .git, not ignored).
    `ignored(rel) -> bool` says what is ignored (default: under build/ or ending .log, the tests' rules)."""
    ignored = ignored or default_ignored
    state = {}
    for folder, dirs, files in os.walk(root):
        rel_dir = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if d != ".git" and not ignored(os.path.normpath(os.path.join(rel_dir, d)))]
        for name in files + [d for d in os.listdir(folder) if os.path.islink(os.path.join(folder, d))
                             and os.path.isdir(os.path.join(folder, d))]:
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if ignored(rel):
                continue
            path = os.path.join(folder, name)
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                state[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as fh:
                    state[rel] = ("file", hashlib.sha256(fh.read()).hexdigest(), stat.S_IMODE(st.st_mode))
    return state


def default_ignored(rel: str) -> bool:
    return rel == "build" or rel.startswith("build/") or rel.endswith(".log")


def git_dir_state(root: str) -> dict[str, tuple]:
    """Every file of the project's .git: bytes and mode (what undo must never change)."""
    state = {}
    base = os.path.join(root, ".git")
    for folder, _dirs, files in os.walk(base):
        for name in files:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as fh:
                    state[os.path.relpath(path, base)] = (hashlib.sha256(fh.read()).hexdigest(), st.st_mode)
    return state


def digest(state: dict) -> str:
    return hashlib.sha256(repr(sorted(state.items())).encode()).hexdigest()
