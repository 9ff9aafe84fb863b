"""The repository a git command will use, as it is on disk: which one (git's own discovery from where the
command starts), and the settings and hooks in it that run programs.

`git -C /tmp/r status` runs the `core.fsmonitor` of /tmp/r's config, and `git ls-remote` its
`core.sshCommand`: a repository is code. The rules (programs/git.py) judge the repositories a line could
have made without being asked by what their config and hooks run; this module only finds and reads them.
Paths are resolved as the kernel resolves them (git walks up the physical directory, and follows `.git`
files and `commondir` from where they really are). Bounded: MAX_CONFIG bytes of a config file, MAX_HOOKS
hook names; a config git would refuse or that this reader cannot follow is reported as unreadable (judged
as code).
"""
from __future__ import annotations

import os
import posixpath
import stat

MAX_CONFIG = 256 * 1024
MAX_HOOKS = 64
UNREADABLE = None       # what config_entries returns for a config it cannot read as git does


def is_git_directory(path: str) -> bool:
    """What git's is_git_directory() checks: a HEAD, and objects/ and refs/ (here or, for a linked worktree's
    git dir, in the common directory its `commondir` names)."""
    if not os.path.lexists(posixpath.join(path, "HEAD")):
        return False
    if os.path.isfile(posixpath.join(path, "commondir")):
        return True
    return os.path.isdir(posixpath.join(path, "objects")) and os.path.isdir(posixpath.join(path, "refs"))


def gitfile_target(path: str) -> str | None:
    """Where a `.git` file (`gitdir: DIR`) points, relative to the directory holding it; None when it says
    nothing git would follow."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(4096)
    except OSError:
        return None
    text = data.decode("utf-8", "surrogateescape").strip()
    if not text.startswith("gitdir:"):
        return None
    target = text[len("gitdir:"):].strip()
    return os.path.realpath(posixpath.join(posixpath.dirname(path), target)) if target else None


def discover(start: str) -> tuple[str | None, list[str]]:
    """(the git dir git uses for a command started in `start`, or None when there is none; every directory it
    looked in, from `start` up to the one it stopped at). At each level git takes `.git` (a directory that is
    a git dir, or a `.git` file), then the directory itself as a bare repository."""
    here = os.path.realpath(start)
    looked: list[str] = []
    while True:                         # each step is one component shorter: it ends at /
        looked.append(here)
        dot_git = posixpath.join(here, ".git")
        try:
            mode = os.stat(dot_git).st_mode
        except OSError:
            mode = 0
        if stat.S_ISREG(mode):
            return gitfile_target(dot_git) or dot_git, looked
        if stat.S_ISDIR(mode) and is_git_directory(dot_git):
            return os.path.realpath(dot_git), looked
        if is_git_directory(here):
            return here, looked
        parent = posixpath.dirname(here)
        if parent == here:
            break
        here = parent
    return None, looked


def common_dir(git_dir: str) -> str:
    """The directory holding the config and hooks a linked worktree's git dir shares (`commondir`)."""
    try:
        with open(posixpath.join(git_dir, "commondir"), "rb") as fh:
            named = fh.read(4096).decode("utf-8", "surrogateescape").strip()
    except OSError:
        return git_dir
    return os.path.realpath(posixpath.join(git_dir, named)) if named else git_dir


def config_files(git_dir: str) -> list[str]:
    """The repository's own config files git reads (those that exist)."""
    common = common_dir(git_dir)
    names = [posixpath.join(common, "config"), posixpath.join(git_dir, "config.worktree")]
    return [name for name in dict.fromkeys(names) if os.path.lexists(name)]


def hooks(where: str) -> list[str]:
    """The hooks in a hooks directory (without git's `.sample` files), by name."""
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return []
    return [name for name in names if not name.endswith(".sample") and
            os.path.isfile(posixpath.join(where, name))][:MAX_HOOKS]


def hooks_dir(git_dir: str) -> str:
    return posixpath.join(common_dir(git_dir), "hooks")


def config_entries(path: str) -> list[tuple[str, str | None]] | None:
    """(key, value) of every setting in a git config file, keys as git names them (section and variable
    lowercased, a subsection as written); a variable with no `=` has the value None (true). UNREADABLE (None)
    for a file that cannot be read, is too big, or that git's parser would refuse."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_CONFIG + 1)
    except OSError:
        return UNREADABLE
    if len(data) > MAX_CONFIG:
        return UNREADABLE
    return parse_config(data.decode("utf-8", "surrogateescape"))


def parse_config(text: str) -> list[tuple[str, str | None]] | None:
    """git-config(1)'s syntax: `[section]`, `[section "subsection"]`, the old `[section.subsection]`,
    `name = value` (quotes, the escapes \\n \\t \\b \\" \\\\, a backslash continuing the line, `#` and `;`
    comments outside quotes), a header and a variable on one line."""
    lines = text.removeprefix("\ufeff").split("\n")       # (git skips a UTF-8 byte order mark)
    entries: list[tuple[str, str | None]] = []
    section = None
    i = 0
    while i < len(lines):
        line = lines[i].lstrip(" \t\r")
        i += 1
        if line.startswith("["):
            read = _header(line)
            if read is None:
                return None
            section, line = read
            line = line.lstrip(" \t\r")
        if not line.strip() or line[0] in "#;":
            continue
        end = 0
        while end < len(line) and (line[end].isalnum() and line[end].isascii() or line[end] == "-"):
            end += 1
        if end == 0 or not line[0].isalpha():
            return None
        name, rest = line[:end].lower(), line[end:].lstrip(" \t\r")
        if section is not None:             # (git reads a variable before any section as a bare name)
            name = f"{section}.{name}"
        if not rest or rest[0] in "#;":
            entries.append((name, None))
            continue
        if rest[0] != "=":
            return None
        value, i = _value(rest[1:], lines, i)
        if value is None:
            return None
        entries.append((name, value))
    return entries


def _header(line: str) -> tuple[str, str] | None:
    """(the section's name, what follows the header on its line), or None for a header git refuses."""
    quote = line.find('"')
    close = line.find("]")
    if close < 0:
        return None
    if quote < 0 or quote > close:                  # [section] or [section.subsection]
        name = line[1:close].strip()
        if not name or any(not (ch.isalnum() and ch.isascii() or ch in "-.") for ch in name):
            return None
        return name.lower(), line[close + 1:]
    name = line[1:quote].strip()
    if not name or any(not (ch.isalnum() and ch.isascii() or ch in "-.") for ch in name):
        return None
    sub: list[str] = []
    j = quote + 1
    while j < len(line) and line[j] != '"':
        if line[j] == "\\" and j + 1 < len(line):
            j += 1
        sub.append(line[j])
        j += 1
    if j >= len(line) or not line[j + 1:].lstrip(" \t").startswith("]"):
        return None
    after = line[j + 1:].lstrip(" \t")[1:]
    return f"{name.lower()}.{''.join(sub)}", after


_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}


def _value(text: str, lines: list[str], i: int) -> tuple[str | None, int]:
    """The value after `=`, as git's parse_value() reads it, and the index of the line after it; None for a
    quote left open or an escape git refuses. Outside quotes a run of blanks inside the value is kept as that
    many spaces and blanks at its ends are dropped; a backslash at the end of a line continues the value."""
    out: list[str] = []
    length = 0
    quoted = False
    spaces = 0
    while True:
        if text.endswith("\r"):
            text = text[:-1]                # git reads CR LF as LF
        continued = False
        comment = False
        j = 0
        while j < len(text):
            ch = text[j]
            j += 1
            if comment:
                continue
            if not quoted and ch in " \t\v\f\r":
                if length:
                    spaces += 1
                continue
            if not quoted and ch in ";#":
                comment = True
                continue
            if spaces:
                out.append(" " * spaces)
                length += spaces
                spaces = 0
            if ch == "\\":
                if j >= len(text):          # a backslash that continues the value on the next line
                    continued = True
                    break
                escaped = _ESCAPES.get(text[j])
                if escaped is None:
                    return None, i
                out.append(escaped)
                length += 1
                j += 1
            elif ch == '"':
                quoted = not quoted
            else:
                out.append(ch)
                length += 1
        if continued and i < len(lines):
            text = lines[i]
            i += 1
            continue
        if quoted:
            return None, i
        return "".join(out), i
