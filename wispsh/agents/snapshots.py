"""Snapshot files an agent's plumbing sources (Claude Code's and Codex's shell snapshots), trusted by content,
not by place.

The first time a template sources a snapshot, the pipeline judges what the file holds: the agent's own capture
of functions, options, aliases and exports passes; its verdict is then cached by digest in the wisp home
(`trusted-snapshots/<sha256>`, each entry signed with the home's key, so a file an agent writes there is not
one of ours). Here: reading the file, the digest, the cache, and the text to judge — the capture's shapes
read the way bash will run them: Claude's base64-wrapped functions decoded, the agents' own known functions
(harnesses.json `snapshot_functions`) set aside, an alias judged as the code it expands to."""
from __future__ import annotations

import os
import re

from wispsh.agents.harness import default_table
from wispsh.support.bounded import read_at_most

# The gate's own bookkeeping, saved by a capture that ran beneath it: WISP_GATED only says what is true of a
# gated line anyway, WISP_DEPTH only counts (a forged one can only refuse), and a stale WISP_ALLOWED is a hint
# that nothing trusts (decide/nested.py reads each ancestor's own initial environment).
GATE_BOOKKEEPING = ("WISP_GATED", "WISP_DEPTH", "WISP_ALLOWED")
SNAPSHOT_KINDS = ("claude-snapshot", "codex-snapshot", "codex-snapshot-tmp")
CACHE_DIR = "trusted-snapshots"
MAX_BYTES = 8 << 20

_B64_FUNCTION = re.compile(r"""^eval "\$\(echo '([A-Za-z0-9+/=\n]*)' \| base64 -d\)" > /dev/null 2>&1$""", re.M)
_PATH_EXPORT = re.compile(r"""^(?:export PATH=([^\s'"$`\\;&|<>()]*)|declare -x PATH="([^"$`\\]*)")$""", re.M)
_EXPORT = re.compile(r"""^(?:declare -x ([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\$`]|\\.)*)"|export ([A-Za-z_][A-Za-z0-9_]*)=([^\s'"$`\\;&|<>()]*))$""", re.M)
_ALIAS = re.compile(r"""^alias (?:-- )?([^\s=/$`'"]+)='((?:[^']|'\\'')*)'$""", re.M)


def snapshot_paths(plumbing) -> list[str]:
    """The snapshot files among what a template match recognised ("kind=path" entries)."""
    out = []
    for item in plumbing:
        kind, _, path = item.partition("=")
        if kind in SNAPSHOT_KINDS:
            out.append(path)
    return out


def read(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (st.st_mode & 0o170000) != 0o100000 or st.st_size > MAX_BYTES:
            return None
        data = read_at_most(fd, MAX_BYTES)
        return data if len(data) <= MAX_BYTES else None
    finally:
        os.close(fd)


def digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _entry(home: str, sha: str) -> str:
    return os.path.join(home, CACHE_DIR, sha)


def known(home: str, sha: str) -> bool:
    """True when a snapshot with this digest was judged the agent's own capture before (signed entry)."""
    from wispsh.support import signing

    key = signing.read_key(home)
    if key is None:
        return False
    try:
        fd = os.open(_entry(home, sha), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or st.st_mode & 0o022:
            return False
        stored = os.read(fd, 256).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return signing.same(stored, signing.mac(key, b"trusted-snapshot:" + sha.encode()))


def remember(home: str, sha: str) -> None:
    """Cache a passing verdict (best effort: a cache that cannot be written only means judging again)."""
    from wispsh.support import signing

    key = signing.key_for_signing(home)
    if key is None:
        return
    directory = os.path.join(home, CACHE_DIR)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        tmp = _entry(home, sha) + f".{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, (signing.mac(key, b"trusted-snapshot:" + sha.encode()) + "\n").encode())
        finally:
            os.close(fd)
        os.replace(tmp, _entry(home, sha))
    except OSError:
        pass


# Claude Code 2.1.332 writes its own binary's path into the functions it captures
CLAUDE_EXE = "$CLAUDE_EXE"
_EXE = r"(/[A-Za-z0-9_./@+-]+/claude(?:\.exe)?)"


def _without_function_of_binary(text: str, known_function: str) -> str:
    """`text` with each copy of `known_function` removed whose $CLAUDE_EXE is one binary throughout, and that
    binary a regular executable file only the user (or root) can change; any other copy stays to be judged."""
    from wispsh.support.owned import not_ours

    first, rest = known_function.split(CLAUDE_EXE, 1)
    pattern = re.escape(first) + _EXE + "".join(
        (r"\1" if i % 2 else re.escape(piece)) for i, piece in enumerate(
            sum(([p, None] for p in rest.split(CLAUDE_EXE)), [])[:-1]))
    regex = re.compile(pattern)

    def drop(m: re.Match) -> str:
        exe = m.group(1)
        ok = os.path.normpath(exe) == exe and os.access(exe, os.X_OK) and not_ours(exe) is None
        return "" if ok else m.group(0)

    return regex.sub(drop, text)


def _unquote_sq(value: str) -> str:
    return value.replace("'\\''", "'")


def text_to_judge(text: str, env) -> str | None:
    """The snapshot as code to judge: what it defines and runs when sourced, the agents' own functions set
    aside. None when a wrapped function does not decode (then it is not a capture of the agent's)."""
    import base64
    import binascii

    def decode(m: re.Match) -> str:
        try:
            return base64.b64decode(m.group(1).replace("\n", ""), validate=True).decode("utf-8") + "\n"
        except (binascii.Error, UnicodeDecodeError, ValueError):
            raise ValueError("not a base64 function") from None

    try:
        text = _B64_FUNCTION.sub(decode, text)
    except ValueError:
        return None
    home = env.get("HOME") or ""
    for known_function in default_table().snapshot_functions:
        if "$HOME" in known_function and not home:
            continue
        known_function = known_function.replace("$HOME", home)
        if CLAUDE_EXE in known_function:
            text = _without_function_of_binary(text, known_function)
        else:
            text = text.replace(known_function, "")
    current = set((env.get("PATH") or "").split(":"))

    def path_export(m: re.Match) -> str:
        # the capture's PATH: harmless when it searches no directory the current PATH does not already search
        value = m.group(1) if m.group(1) is not None else m.group(2)
        return "" if set(value.split(":")) <= current else m.group(0)

    text = _PATH_EXPORT.sub(path_export, text)

    def same_export(m: re.Match) -> str:
        # an export of the value the variable already has here changes nothing (Codex saves the whole
        # environment, WISP_HOME and XDG_RUNTIME_DIR included)
        name = m.group(1) or m.group(3)
        value = re.sub(r"\\(.)", r"\1", m.group(2)) if m.group(1) else m.group(4)
        if name in GATE_BOOKKEEPING:
            return ""
        return "" if env.get(name) == value else m.group(0)

    text = _EXPORT.sub(same_export, text)
    return _ALIAS.sub(lambda m: _unquote_sq(m.group(2)), text)
