"""The audit log: `$WISP_HOME/audit.jsonl`, one JSON event a line, secrets redacted before writing.

Events are appended with one write under the wisp home's lock, and the file is rotated to
`audit.jsonl.1` once it would grow past `audit.maxBytes`.
"""
from __future__ import annotations

import json
import os
import re
import stat
import time
from datetime import datetime, timezone
from pathlib import Path
from wispsh.support.lazyre import lazy_re

AUDIT_NAME = "audit.jsonl"
FIELDS = ("ts", "event", "command", "pattern", "line", "level", "reasons", "decision", "approval_id", "scope",
          "session", "source", "cwd")
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
HIDDEN = "***"

_SECRET_NAME = r"[A-Za-z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|KEY|CREDENTIALS?|AUTH)[A-Za-z0-9_]*"
_VALUE = r"""(?:"(?:[^"\\]|\\.)*"?|'[^']*'?|[^\s;&|)'"]+)"""
_MYSQL_FAMILY = lazy_re(r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlshow)\b")

# (needle, pattern, replacement) in order; each keeps the name and hides the value. The needle is text the
# pattern cannot match without: most lines hold none, and their patterns are never compiled.
REDACTIONS: tuple[tuple[str, re.Pattern, str], ...] = (
    # URLs with credentials: https://user:pass@host
    ("://", lazy_re(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@'\"]*:)[^\s/@'\"]+(@)"), rf"\g<1>{HIDDEN}\g<2>"),
    # Authorization and similar headers, to the end of the quoted or unquoted header
    (":", lazy_re(r"(?i)\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|cookie)(\s*:\s*)[^'\"\n]+"),
     rf"\g<1>\g<2>{HIDDEN}"),
    # NAME_TOKEN=value, export API_KEY="...", --secret-key=value
    ("=", lazy_re(rf"(?i)(\b{_SECRET_NAME}\s*=\s*){_VALUE}"), rf"\g<1>{HIDDEN}"),
    # --password=value / --password value / --token value / --api-key value
    ("--", lazy_re(r"(?i)(--(?:password|passwd|pass|token|secret|api-key|apikey|access-token|auth-token)(?:=|\s+))"
                   + _VALUE), rf"\g<1>{HIDDEN}"),
    # sshpass -p value
    ("sshpass", lazy_re(r"(\bsshpass\s+(?:-\w+\s+)*-p\s*)" + _VALUE), rf"\g<1>{HIDDEN}"),
)
_ATTACHED_P = lazy_re(r"((?:^|\s)-p)(?!\s)" + _VALUE)


def redact(text: str) -> str:
    """The text with secret values replaced by ***."""
    for needle, pattern, replacement in REDACTIONS:
        if needle in text:
            text = pattern.sub(replacement, text)
    if "-p" in text and _MYSQL_FAMILY.search(text):     # mysql -pSECRET (elsewhere -p is a flag: mkdir -p)
        text = _ATTACHED_P.sub(rf"\g<1>{HIDDEN}", text)
    return text


def _redacted(value):
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return [_redacted(v) for v in value]
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    return value


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def event(kind: str, **fields) -> dict:
    """An event with every contract field (None when it does not apply), plus any extra ones."""
    data = dict.fromkeys(FIELDS)
    data["ts"] = now_iso()
    data["event"] = kind
    data.update(fields)
    return data


def _encode(events) -> bytes:
    lines = [json.dumps(_redacted(e), ensure_ascii=False, default=str) for e in events]
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape") if lines else b""


def append_locked(home: Path, events, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Append `events` with one write. The caller holds the lock."""
    data = _encode(events)
    if not data:
        return
    path = home / AUDIT_NAME
    fd = _open_log(path)
    try:
        size = os.fstat(fd).st_size
        if size and size + len(data) > max_bytes:
            os.close(fd)
            fd = -1
            os.replace(path, home / (AUDIT_NAME + ".1"))
            fd = _open_log(path)
        os.write(fd, data)
    finally:
        if fd >= 0:
            os.close(fd)


def _open_log(path: Path) -> int:
    """The log opened for appending; OSError when it is not a regular file (a FIFO there must not hang us)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    os.set_blocking(fd, True)
    return fd


def append(home: Path, events, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    from wispsh.decide.lock import locked

    with locked(home):
        append_locked(home, events, max_bytes)


def read(home: Path, n: int | None = None) -> list[dict]:
    """The last `n` events (all when None); a line that is not JSON is returned as {"unreadable": text}."""
    try:
        with open(home / AUDIT_NAME, "rb") as fh:
            lines = fh.read().decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        return []
    if n is not None:
        lines = lines[-n:] if n > 0 else []
    return [_parse(line) for line in lines if line.strip()]


def _parse(line: str) -> dict:
    try:
        value = json.loads(line)
        return value if isinstance(value, dict) else {"unreadable": line}
    except json.JSONDecodeError:
        return {"unreadable": line}


def follow(home: Path, poll: float = 0.25):
    """Yield events appended from now on, across rotations, forever."""
    path = home / AUDIT_NAME
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
                    yield _parse(line.decode("utf-8", "replace"))
        else:
            time.sleep(poll)
