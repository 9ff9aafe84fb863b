"""The audit log: `$WISP_HOME/audit.jsonl`, one JSON event a line, secrets redacted before writing.

Each batch (the events of one line) is one `write` to the log opened O_APPEND, under the audit's lock held
shared (`audit.lock`): concurrent appends never wait for each other and each lands whole. All or nothing:
when a write comes up short (a full disk), the log is taken alone and the half batch cut out, keeping what
others appended after it, so no torn or glued event is ever left. The file is rotated to `audit.jsonl.1`
(with the lock held alone) once it would grow past `audit.maxBytes`. Every event is valid JSON in strict UTF-8 on one line, whatever the text
holds (support/text.dumps).

Bounded: the judged line goes into the events of a line once. A line of up to LINE_EXCERPT characters is
every event's `line`; a longer one is stored once, up to LINE_STORED characters, in a `line` event with its
sha256 (`line_sha256`, of the line's bytes), and every other event of that line carries an excerpt and the
digest. A `command` longer than COMMAND_MAX is cut the same way (nested code holds the code around it: a
100,000-deep `$(` would otherwise write the line 100,000 times). A line of more than MAX_PART_EVENTS parts
keeps the events of every part that needed a decision and counts the rest in one `classification.summary`
event: the audit grows with what was decided, not with the size of the text.
"""
from __future__ import annotations

import errno
import os
import stat
import time

from wispsh.support.lazyre import lazy_re, re
from wispsh.support.text import dumps_line

AUDIT_NAME = "audit.jsonl"
FIELDS = ("ts", "event", "command", "pattern", "line", "level", "reasons", "decision", "approval_id", "scope",
          "session", "source", "cwd")
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
HIDDEN = "***"
LINE_EXCERPT = 240          # a line up to this long is every event's `line`; longer ones are cut to it
LINE_STORED = 64 * 1024     # the `line` event of a long line holds this much of it
COMMAND_MAX = 1000          # a part's text beyond this is cut (with `command_sha256`)
MAX_PART_EVENTS = 500       # past this many parts, those below the threshold are counted in one event
REASON_MAX = 500
ELLIPSIS = "…"              # what a cut text ends with; it folds to no ASCII letter, so the needles still hold

_SECRET_NAME = r"[A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*"
_VALUE = r"""(?:"(?:[^"\\]|\\.)*"?|'[^']*'?|[^\s;&|)'"]+)"""
_MYSQL_FAMILY = lazy_re(r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlshow)\b")

# (needles, pattern, replacement) in order; each keeps the name and hides the value. The needles are text the
# pattern cannot match without (the first one as written, one of the others in the lowercased text when it is
# ASCII, the ellipsis of a cut apart: non-ASCII text may hold a letter the case-blind pattern folds, such as the
# Kelvin sign): most texts
# hold none, and their patterns are never compiled nor run (every field of every audit event is redacted).
REDACTIONS: tuple[tuple[tuple[str, ...], re.Pattern, str], ...] = (
    # URLs with credentials: https://user:pass@host
    (("://",), lazy_re(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@'\"]*:)[^\s/@'\"]+(@)"), rf"\g<1>{HIDDEN}\g<2>"),
    # Authorization and similar headers, to the end of the quoted or unquoted header
    ((":", "authorization", "api-key", "x-auth-token", "cookie"),
     lazy_re(r"(?i)\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie)(\s*:\s*)[^'\"\n]+"),
     rf"\g<1>\g<2>{HIDDEN}"),
    # NAME_TOKEN=value, export API_KEY="...", --secret-key=value
    (("=", "token", "secret", "passw", "passphrase", "key", "credential", "auth"),
     lazy_re(rf"(?i)(\b{_SECRET_NAME}\s*=\s*){_VALUE}"), rf"\g<1>{HIDDEN}"),
    # --password=value / --password value / --token value / --api-key value
    (("--", "pass", "token", "secret", "api-key", "apikey"),
     lazy_re(r"(?i)(--(?:password|passwd|pass|token|secret|api-key|apikey|access-token|auth-token)(?:=|\s+))"
             + _VALUE), rf"\g<1>{HIDDEN}"),
    # sshpass -p value
    (("sshpass",), lazy_re(r"(\bsshpass\s+(?:-\w+\s+)*-p\s*)" + _VALUE), rf"\g<1>{HIDDEN}"),
)
_ATTACHED_P = lazy_re(r"((?:^|\s)-p)(?!\s)" + _VALUE)


def redact(text: str) -> str:
    """The text with secret values replaced by ***."""
    for needles, pattern, replacement in REDACTIONS:
        if needles[0] not in text:
            continue
        if len(needles) > 1 and (text.isascii() or text.replace(ELLIPSIS, "").isascii()):
            lower = text.lower()
            if not any(word in lower for word in needles[1:]):
                continue
        text = pattern.sub(replacement, text)
    if "-p" in text and ("mysql" in text or "mariadb" in text) and _MYSQL_FAMILY.search(text):
        # mysql -pSECRET (elsewhere -p is a flag: mkdir -p); the names first: most -p lines compile nothing
        text = _ATTACHED_P.sub(rf"\g<1>{HIDDEN}", text)
    return text


def _redacted(value, done: dict):
    if isinstance(value, str):
        found = done.get(value)
        if found is None:
            found = done[value] = redact(value)
        return found
    if isinstance(value, (list, tuple)):
        return [_redacted(v, done) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v, done) for k, v in value.items()}
    return value


def now_iso() -> str:
    """UTC to the millisecond, `2026-05-09T12:34:56.789Z` (without datetime: this runs for every line)."""
    ns = time.time_ns()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 1_000_000_000)) + \
        ".%03dZ" % (ns // 1_000_000 % 1000)


def event(kind: str, **fields) -> dict:
    """An event with every contract field (None when it does not apply), plus any extra ones."""
    data = dict.fromkeys(FIELDS)
    data["ts"] = now_iso()
    data["event"] = kind
    data.update(fields)
    return data


def digest(text: str) -> str:
    from wispsh.support.signing import sha256   # CPython's own SHA-256: hashlib loads OpenSSL (~2 ms)

    return sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def line_fields(line: str) -> tuple[dict, dict | None]:
    """(the fields every event of this line carries, the one `line` event a long line needs or None).

    Redacted before it is cut, so that a cut never leaves half a secret behind its name."""
    if len(line) <= LINE_EXCERPT:
        return {"line": line}, None
    shown = redact(line[:LINE_STORED + 4096])
    common = {"line": cut(shown, LINE_EXCERPT), "line_sha256": digest(line)}
    whole = {"line": cut(shown, LINE_STORED), "line_sha256": common["line_sha256"], "line_chars": len(line),
             "line_truncated": len(line) > LINE_STORED}
    return common, whole


def command_fields(text: str) -> dict:
    if len(text) <= COMMAND_MAX:
        return {"command": text}
    return {"command": cut(redact(text[:COMMAND_MAX + 4096]), COMMAND_MAX), "command_sha256": digest(text)}


def reasons_field(reasons) -> list[str]:
    return [cut(r, REASON_MAX) for r in reasons]


EXACT_FIELDS = ("line", "command", "pattern", "cwd")     # beside them, `<name>_base64` when they hold bytes


def _encode(events) -> list[bytes]:
    done: dict[str, str] = {}           # the events of a line repeat its texts (line, cwd, command, pattern)
    return [(dumps_line(_with_bytes(_redacted(e, done))) + "\n").encode("utf-8") for e in events]


def _with_bytes(event: dict) -> dict:
    """An undecodable byte is written `\\xNN` in the JSON (support/text.dumps): the exact bytes of such a field
    go beside it, `<name>_base64` (read() puts them back)."""
    from wispsh.support.text import b64_text, has_bytes

    for name in EXACT_FIELDS:
        value = event.get(name)
        if isinstance(value, str) and has_bytes(value):
            event[f"{name}_base64"] = b64_text(value)
    return event


class AuditError(OSError):
    """The audit could not be written; the message names the file and what to do."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


def _advice(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free space on its filesystem"
    if exc.errno == errno.EROFS:
        return "its filesystem is read-only: remount it or set WISP_HOME elsewhere"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "make it writable by you (chmod u+w)"
    if exc.errno == errno.EFBIG:
        return "the file is at the size limit of this process or filesystem"
    return "check the wisp home with `wisp doctor`"


def append_locked(home, events, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Append `events`, each one line, all or none, from under the store's lock (the audit's own is taken
    alone here: store lock, then audit lock, the one order).

    Raises AuditError (an OSError) naming the file when they could not all be written."""
    from wispsh.decide.lock import AUDIT_LOCK_NAME, locked

    data = b"".join(_encode(events))
    if data:
        with locked(home, name=AUDIT_LOCK_NAME):
            _guarded(os.path.join(home, AUDIT_NAME), lambda: _append(home, data, max_bytes, exclusive=True))


def _append(home, data: bytes, max_bytes: int, *, exclusive: bool):
    """Write `data` (the events of one line, each ending in a newline) with one write() at the end of the log:
    None when done. Appenders share the lock (one write to a file opened O_APPEND lands whole, after every
    other, whatever runs beside it); what needs the log to itself says so, for the caller to do holding the
    lock alone: ("rotate",) when the log is full, ("repair", start, end) after a short write."""
    path = os.path.join(home, AUDIT_NAME)
    fd = _open_log(path)
    try:
        size = os.fstat(fd).st_size
        if size and size + len(data) > max_bytes:
            if not exclusive:
                return ("rotate",)
            os.close(fd)
            fd = -1
            os.replace(path, os.path.join(home, AUDIT_NAME + ".1"))
            fd = _open_log(path)
        try:
            written = os.write(fd, data)
        except OSError:
            written = 0
            if not exclusive:
                raise
        if written == len(data):
            return None
        end = os.lseek(fd, 0, os.SEEK_CUR)      # O_APPEND: just past what this write put there
        if not exclusive:
            return ("repair", end - written, end)
        _cut(fd, end - written, end)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    finally:
        if fd >= 0:
            os.close(fd)


def _cut(fd: int, start: int, end: int) -> None:
    """Take the bytes [start, end) (half an event) out of the log, keeping what others appended after them:
    never leave half an event for the next one to glue onto. The caller holds the lock alone."""
    size = os.fstat(fd).st_size
    tail = os.pread(fd, max(0, size - end), end) if size > end else b""
    os.ftruncate(fd, start)
    if tail:
        os.pwrite(fd, tail, start)


def _repair(home, start: int, end: int) -> None:
    fd = os.open(os.path.join(home, AUDIT_NAME), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        _cut(fd, start, end)
    finally:
        os.close(fd)


def _guarded(path: str, work):
    try:
        return work()
    except AuditError:
        raise
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise AuditError(exc.errno or 0, f"cannot write {path}: {why} ({_advice(exc)})") from None


def _open_log(path: str) -> int:
    """The log opened for appending; AuditError when it is not a regular file (a FIFO there must not hang us)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise AuditError(0, f"cannot write {path}: not a regular file (move it aside)")
    os.set_blocking(fd, True)
    return fd


def append(home, events, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Append under the lock; AuditError (an OSError) when the events could not be written."""
    from wispsh.decide.lock import AUDIT_LOCK_NAME, locked

    data = b"".join(_encode(events))    # redacted and encoded before the lock: under it, only the write
    if not data:
        return
    path = os.path.join(home, AUDIT_NAME)
    try:
        with locked(home, shared=True, name=AUDIT_LOCK_NAME):
            needs = _guarded(path, lambda: _append(home, data, max_bytes, exclusive=False))
        if needs is not None:
            with locked(home, name=AUDIT_LOCK_NAME):
                if needs[0] == "rotate":
                    _guarded(path, lambda: _append(home, data, max_bytes, exclusive=True))
                else:
                    _guarded(path, lambda: _repair(home, needs[1], needs[2]))
                    raise AuditError(errno.ENOSPC, f"cannot write {path}: {os.strerror(errno.ENOSPC)} (a short "
                                                   f"write; {_advice(OSError(errno.ENOSPC, ''))})")
    except AuditError:
        raise
    except OSError as exc:              # the lock itself (a full disk, a read-only home, home not a directory)
        raise AuditError(exc.errno or 0, f"cannot write {os.path.join(home, AUDIT_NAME)}: {exc.strerror or exc} "
                                         f"({_advice(exc)})") from None


def read(home, n: int | None = None) -> list[dict]:
    """The last `n` events (all when None); a line that is not JSON is returned as {"unreadable": text}."""
    try:
        with open(os.path.join(home, AUDIT_NAME), "rb") as fh:
            # split at newlines only: U+2028 and friends are inside events (str.splitlines would cut there)
            lines = [row for row in fh.read().decode("utf-8", "surrogateescape").split("\n") if row.strip()]
    except FileNotFoundError:
        return []
    if n is not None:
        lines = lines[-n:] if n > 0 else []
    return [_parse(line) for line in lines if line.strip()]


def _parse(line: str) -> dict:
    import json

    try:
        value = json.loads(line)
    except json.JSONDecodeError:
        return {"unreadable": line}
    if not isinstance(value, dict):
        return {"unreadable": line}
    for name in EXACT_FIELDS:               # the exact text, where the JSON could only show its bytes
        data = value.get(f"{name}_base64")
        if isinstance(data, str):
            from wispsh.support.text import from_b64

            try:
                value[name] = from_b64(data)
            except ValueError:
                pass
    return value


def follow(home, poll: float = 0.25):
    """Yield events appended from now on, across rotations, forever."""
    path = os.path.join(home, AUDIT_NAME)
    position, inode = 0, None
    try:
        st = os.stat(path)
        position, inode = st.st_size, st.st_ino
    except FileNotFoundError:
        pass
    pending = b""
    while True:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            time.sleep(poll)
            continue
        if st.st_ino != inode or st.st_size < position:     # rotated: start the new file from its beginning
            position, inode, pending = 0, st.st_ino, b""
        if st.st_size > position:
            with open(path, "rb") as fh:
                fh.seek(position)
                chunk = fh.read()
            position += len(chunk)
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for line in complete:
                if line.strip():
                    yield _parse(line.decode("utf-8", "surrogateescape"))
        else:
            time.sleep(poll)


def writable_problem(home) -> str | None:
    """Why an event could not be appended to the audit now (with the fix after config.FIX), or None.

    Reads only: the kind of file, write permission, a read-only or full filesystem (`wisp doctor`)."""
    from wispsh.config import FIX

    path = os.path.join(home, AUDIT_NAME)
    try:                    # a read-only filesystem first: no chmod can make a file there writable
        fs = os.statvfs(path if os.path.lexists(path) else home)
    except OSError:
        fs = None
    if fs is not None and fs.f_flag & os.ST_RDONLY:
        return f"{path} is on a read-only filesystem{FIX}remount it read-write, or set WISP_HOME elsewhere"
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return f"{path} is not a regular file{FIX}move it aside (mv {path} {path}.bad)"
        if not os.access(path, os.W_OK):
            if st.st_uid != os.getuid():
                return f"{path} is not yours (owned by uid {st.st_uid}){FIX}move it aside (mv {path} {path}.bad)"
            return f"{path} is not writable by you{FIX}chmod u+w {path}"
    except FileNotFoundError:
        if not os.path.isdir(home):
            return None                 # made with the wisp home on the first write
        if not os.access(home, os.W_OK | os.X_OK):
            return f"{home} is not writable by you, so {AUDIT_NAME} cannot be made{FIX}chmod u+rwx {home}"
    except OSError as exc:
        return f"{path}: {exc.strerror}{FIX}see the wisp home's directory"
    if fs is None:
        return None
    if fs.f_bavail * fs.f_frsize < 64 * 1024:
        return (f"{path}: its filesystem is full ({fs.f_bavail * fs.f_frsize} bytes free){FIX}free space "
                "there; until then lines run unaudited (audit.required: true refuses them)")
    return None
