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

Everything here runs before the heavy imports: os, the signing helpers and support/procs.py only.
"""
from __future__ import annotations

import os

from wispsh.support.procs import read

VARIABLE = "WISP_ALLOWED"
# Set for the shell that runs a checked line: everything beneath it was started by that line (an agent's
# command), which may not answer questions (`wisp watch`) nor say --yes. Only ever added, never removed.
GATED_VARIABLE = "WISP_GATED"
MAX_HOPS = 128
# What policy/deny.py's built-in patterns and word checks cannot match without (rm -rf /, find / -delete, fork
# bombs, mkfs/dd/wipefs onto disks, chmod -R 777 /): a line holding none of them, read also with quotes,
# backslashes and $IFS taken away, cannot be refused by them.
NEEDLES = ("rm", "()", "mkfs", "of=", "chmod", "-delete", "/dev/sd", "/dev/nvme", "/dev/hd", "/dev/vd", "/dev/xvd",
           "/dev/mmcblk", "/dev/disk", "/dev/rdisk", "/dev/mapper", "/dev/md", "/dev/dm-")   # deny._DISK


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time in clock ticks since boot) of `pid` from /proc, or None."""
    try:
        raw = read(f"/proc/{pid}/stat")
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


def mint(home: str, shells: dict, deny: bool, pid: int | None = None) -> str | None:
    """The token for the shell this process is about to become (exec keeps the pid and start time).

    It also carries what the nested path needs of the config that allowed the line, signed with the rest:
    the configured real shells and whether deny patterns are set, so a nested wispsh reads no config file.
    None when that cannot be written safely (then what runs beneath is judged in full). `pid`: the process that
    execs (the plain mode's warm judge mints for its client); default this one."""
    from wispsh.support import signing

    pid = os.getpid() if pid is None else pid
    me = _stat(pid)
    if me is None or any(c in name + path for name, path in shells.items() for c in "|,=\0"):
        return None
    key = signing.key_for_signing(home)
    if key is None:
        return None
    listed = ",".join(f"{name}={path}" for name, path in sorted(shells.items()))
    body = f"1|{pid}|{me[1]}|{int(bool(deny))}|{listed}"
    return f"{body}|{signing.mac(key, _message(body))}"


class Allowed:
    """What a valid token says: the allowing pid, and the config it was allowed under."""

    __slots__ = ("pid", "shells", "deny")

    def __init__(self, pid: int, shells: dict, deny: bool):
        self.pid, self.shells, self.deny = pid, shells, deny


def _initial_token(pid: int) -> str | None:
    """WISP_ALLOWED in the environment `pid` was started with (/proc/PID/environ: nothing it runs can change
    it, and a snapshot an agent sources afterwards cannot either)."""
    try:
        raw = read(f"/proc/{pid}/environ")
    except OSError:
        return None
    needle = VARIABLE.encode() + b"="
    at = 0 if raw.startswith(needle) else raw.find(b"\0" + needle) + 1
    if at == 0 and not raw.startswith(needle):
        return None
    end = raw.find(b"\0", at)
    return raw[at + len(needle):end if end >= 0 else len(raw)].decode("utf-8", "surrogateescape")


def _parse(token: str):
    body, _, signature = token.rpartition("|")
    pieces = body.split("|")
    if len(pieces) != 5 or pieces[0] != "1" or not pieces[1].isdigit() or not pieces[2].isdigit() \
            or pieces[3] not in ("0", "1") or len(signature) != 64:
        return None
    return body, signature, int(pieces[1]), int(pieces[2]), pieces[3] == "1", pieces[4]


def allowing_ancestor(env, home: str, pid: int | None = None) -> Allowed | None:
    """The allowed line this process runs beneath (itself included: an exec in place): the nearest ancestor
    that was started with a token naming itself, as started then, signed with the home's key; else None.
    The token is read from each ancestor's own initial environment, so the one in ours is only a hint."""
    if not env.get(VARIABLE):
        return None
    pid = os.getpid() if pid is None else pid     # the asker (the warm judge's client), default this process
    for _ in range(MAX_HOPS):
        if pid <= 1:
            return None
        info = _stat(pid)
        if info is None:
            return None
        token = _initial_token(pid)
        parsed = _parse(token) if token else None
        if parsed is not None and parsed[2] == pid:
            body, signature, _pid, start, deny, listed = parsed
            if start != info[1]:
                return None
            from wispsh.support import signing

            key = signing.read_key(home)
            if key is None or not signing.same(signature, signing.mac(key, _message(body))):
                return None
            shells = dict(item.split("=", 1) for item in listed.split(",") if "=" in item)
            return Allowed(pid, shells, deny)
        pid = info[0]
    return None


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


def audit(home: str, text: str, beneath: int, cwd: str, *, decision: str = "beneath-allowed",
          pattern: str | None = None) -> None:
    """One compact event: what program the line starts with, its length and digest (never its text: no
    redaction runs here), the allowing pid, and the decision (`denied-pattern` with the deny pattern's name
    when one matched). Appended in one write; a home or log that is not private is left alone (best effort:
    the allowed line above was audited in full). The `wisp run` supervisor writes the same event."""
    import time

    from wispsh.support.signing import sha256

    first = text.split(None, 1)[0][:64] if text.split() else ""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".%03dZ" % (int(time.time() * 1000) % 1000)
    extra = f', "deny_pattern": {_json_str(pattern)}' if pattern is not None else ""
    line = ('{"ts": %s, "event": "nested", "decision": %s, "command": %s, "chars": %d, '
            '"sha256": "%s", "beneath": %d, "cwd": %s%s}\n') % (
        _json_str(stamp), _json_str(decision), _json_str(first), len(text),
        sha256(text.encode("utf-8", "surrogateescape")).hexdigest(), beneath, _json_str(cwd), extra)
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
