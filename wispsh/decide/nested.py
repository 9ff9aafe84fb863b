"""Nested shells beneath an allowed line (plain mode: SHELL=wispsh, shims first on PATH).

A line the gate allowed runs in the real shell that wispsh exec'd in its place (same pid). Before that exec
wispsh hands the shell a token, `WISP_ALLOWED=<pid>.<start>.<mac>`: its own pid, its start time (clock ticks
since boot, from /proc, which nothing can rewrite) and an HMAC of both, the uid and the boot id, signed with the
wisp home's key (support/signing.py). A wispsh started beneath it (make, git hooks, npm scripts, pyenv shims,
`sh -c` loops) finds that pid, started at that time, among its own ancestors (or as itself: an `exec` in place)
and a valid signature: the line it is asked to run is beneath a line a person's gate already allowed, so it is
judged against the deny patterns only and audited compactly. A token copied into another process tree names
a process that is not an ancestor there; one that names an ancestor but was not signed with the key does not
verify; either is worth nothing (the line is judged in full).

"Beneath a line the gate allowed" means exactly that: an interactive shell started without a line is never an
allowed line (wispsh in interactive mode drops the token for what it starts). Under `wisp run` the
supervisor makes the same check from outside.

Everything here runs before the heavy imports: os and the signing helpers only.
"""
from __future__ import annotations

import os

VARIABLE = "WISP_ALLOWED"
MAX_HOPS = 128
# What policy/deny.py's built-in patterns and word checks cannot match without (rm -rf /, find / -delete, fork
# bombs, mkfs/dd/wipefs onto disks, chmod -R 777 /): a line holding none of them, read also with quotes,
# backslashes and $IFS taken away, cannot be refused by them.
NEEDLES = ("rm", "()", "mkfs", "of=", "chmod", "-delete", "/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd",
           "/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/mapper", "/dev/md", "/dev/dm-")   # deny._DISK


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time in clock ticks since boot) of `pid` from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
        fields = raw[raw.rindex(b")") + 2:].split()
        return int(fields[1]), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def _boot_id() -> bytes:
    try:
        with open("/proc/sys/kernel/random/boot_id", "rb") as fh:
            return fh.read().strip()
    except OSError:
        return b"-"


def _message(body: str) -> bytes:
    return b"wisp-allowed:%d:%s:%s" % (os.getuid(), _boot_id(), body.encode("utf-8", "surrogateescape"))


def mint(home: str, shells: dict, deny: bool) -> str | None:
    """The token for the shell this process is about to become (exec keeps the pid and start time).

    It also carries what the nested path needs of the config that allowed the line, signed with the rest:
    the configured real shells and whether deny patterns are set, so a nested wispsh reads no config file.
    None when that cannot be written safely (then what runs beneath is judged in full)."""
    from wispsh.support import signing

    me = _stat(os.getpid())
    if me is None or any(c in name + path for name, path in shells.items() for c in "|,=\0"):
        return None
    key = signing.key_for_signing(home)
    if key is None:
        return None
    listed = ",".join(f"{name}={path}" for name, path in sorted(shells.items()))
    body = f"1|{os.getpid()}|{me[1]}|{int(bool(deny))}|{listed}"
    return f"{body}|{signing.mac(key, _message(body))}"


class Allowed:
    """What a valid token says: the allowing pid, and the config it was allowed under."""

    __slots__ = ("pid", "shells", "deny")

    def __init__(self, pid: int, shells: dict, deny: bool):
        self.pid, self.shells, self.deny = pid, shells, deny


def allowing_ancestor(env, home: str) -> Allowed | None:
    """The allowed line this process runs beneath (itself included: an exec in place), when the token in
    `env` names one of its ancestors as started then and is signed with the home's key; else None."""
    token = env.get(VARIABLE, "")
    body, _, signature = token.rpartition("|")
    pieces = body.split("|")
    if len(pieces) != 5 or pieces[0] != "1" or not pieces[1].isdigit() or not pieces[2].isdigit() \
            or pieces[3] not in ("0", "1") or len(signature) != 64:
        return None
    want_pid, want_start = int(pieces[1]), int(pieces[2])
    pid = os.getpid()
    for _ in range(MAX_HOPS):
        if pid <= 0:
            return None
        info = _stat(pid)
        if info is None:
            return None
        if pid == want_pid:
            if info[1] != want_start:
                return None             # that pid, but another process: the allowed line is gone
            break
        if pid == 1:
            return None
        pid = info[0]
    else:
        return None
    from wispsh.support import signing

    key = signing.read_key(home)
    if key is None or not signing.same(signature, signing.mac(key, _message(body))):
        return None
    shells = dict(item.split("=", 1) for item in pieces[4].split(",") if "=" in item)
    return Allowed(want_pid, shells, pieces[3] == "1")


def needs_deny_check(text: str, user_patterns: bool) -> bool:
    """False when no deny pattern can match: no user pattern and none of the built-in patterns' needles."""
    if user_patterns or "$'" in text or '$"' in text:
        return True
    second = text.replace("\\", "").replace("'", "").replace('"', "").replace("${IFS}", " ").replace("$IFS", " ")
    return any(needle in text or needle in second for needle in NEEDLES)


def _json_str(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or 0xD800 <= code <= 0xDFFF:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def audit(home: str, text: str, beneath: int, cwd: str) -> None:
    """One compact event: what program the line starts with, its length and digest (never its text: no
    redaction runs here), the allowing pid. Appended in one write; a home or log that is not private is
    left alone (best effort: the allowed line above was audited in full)."""
    import time
    from _sha256 import sha256

    first = text.split(None, 1)[0][:64] if text.split() else ""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".%03dZ" % (int(time.time() * 1000) % 1000)
    line = ('{"ts": %s, "event": "nested", "decision": "beneath-allowed", "command": %s, "chars": %d, '
            '"sha256": "%s", "beneath": %d, "cwd": %s}\n') % (
        _json_str(stamp), _json_str(first), len(text),
        sha256(text.encode("utf-8", "surrogateescape")).hexdigest(), beneath, _json_str(cwd))
    try:
        st = os.stat(home)
        if st.st_uid != os.getuid() or st.st_mode & 0o022:
            return
        fd = os.open(os.path.join(home, "audit.jsonl"),
                     os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return
    try:
        fst = os.fstat(fd)
        if fst.st_uid == os.getuid() and not fst.st_mode & 0o077:
            os.write(fd, line.encode("utf-8", "surrogateescape"))
    except OSError:
        pass
    finally:
        os.close(fd)
