"""The model's answers kept in the wisp home, so a repeated part costs nothing: `classifier-cache/<digest>`,
the digest of everything the model was shown (part, line, the rules' findings), the model, the endpoint and
the prompt version. Each entry expires (classifier.cacheDays) and is signed with the home's key (grants.key):
a file an agent writes there is not one of ours.

Treated like the store: a directory or entry that is not the user's own, or that group or others can write,
is not read (nor written); a corrupt, unsigned or expired entry is ignored. Ignored means asking the model
again; nothing here can lower a level, since the rules' level is the floor whatever the cache says.
"""
from __future__ import annotations

import json
import os
import stat
import time

from wispsh.model import Level

CACHE_DIR = "classifier-cache"
MAX_ENTRY_BYTES = 4096
SWEEP_ONE_IN = 64           # a write sweeps expired entries now and then


def digest(*pieces: str) -> str:
    from wispsh.support.signing import sha256

    h = sha256()
    for piece in pieces:
        data = piece.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def _private(st: os.stat_result) -> bool:
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _directory(home: str) -> str | None:
    """The cache directory when it may be trusted (missing counts: nothing to read), else None."""
    where = os.path.join(home, CACHE_DIR)
    try:
        st = os.lstat(where)
    except FileNotFoundError:
        return where
    except OSError:
        return None
    return where if stat.S_ISDIR(st.st_mode) and _private(st) else None


def untrusted(home: str) -> str | None:
    """Why the cache is not used, or None (for `wisp doctor`)."""
    where = os.path.join(home, CACHE_DIR)
    if _directory(home) is None:
        return f"{where} is not a directory of yours that only you can write: the cache is not used"
    return None


def _signed(key: bytes, sha: str, level: str, reason: str, expires: float) -> str:
    from wispsh.support import signing

    return signing.mac(key, "\0".join(("classifier-cache", sha, level, reason, repr(expires))).encode())


def read(home: str, sha: str, *, now: float | None = None) -> tuple[Level, str] | None:
    """The cached answer (level, reason), or None when there is none to trust."""
    from wispsh.support import signing

    where = _directory(home)
    key = signing.read_key(home) if where is not None else None
    if key is None:
        return None
    try:
        fd = os.open(os.path.join(where, sha), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private(st) or st.st_size > MAX_ENTRY_BYTES:
            return None
        raw = os.read(fd, MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        entry = json.loads(raw.decode("utf-8"))
        level, reason, expires, mac = entry["level"], entry["reason"], entry["expires"], entry["mac"]
        if not (isinstance(level, str) and isinstance(reason, str) and isinstance(mac, str)
                and isinstance(expires, (int, float)) and not isinstance(expires, bool)):
            return None
        if not signing.same(mac, _signed(key, sha, level, reason, float(expires))):
            return None
        if float(expires) <= (time.time() if now is None else now):
            return None
        return Level.parse(level), reason
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None


def write(home: str, sha: str, level: Level, reason: str, *, days: float, model: str) -> None:
    """Keep an answer (best effort: a cache that cannot be written only means asking again)."""
    from wispsh.support import signing

    if days <= 0:
        return
    where = _directory(home)
    if where is None or not os.path.isdir(home):
        return
    key = signing.key_for_signing(home)
    if key is None:
        return
    expires = float(int(time.time() + days * 86400))
    entry = {"level": str(level), "reason": reason, "model": model, "expires": expires,
             "mac": _signed(key, sha, str(level), reason, expires)}
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        if _directory(home) is None:
            return
        tmp = os.path.join(where, f".{sha}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, json.dumps(entry, ensure_ascii=False).encode("utf-8"))
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(where, sha))
    except OSError:
        return
    if int.from_bytes(os.urandom(1), "big") % SWEEP_ONE_IN == 0:
        sweep(home)


def sweep(home: str, *, now: float | None = None) -> int:
    """Remove expired and unreadable entries (and temporary files older than an hour); how many went."""
    where = _directory(home)
    if where is None:
        return 0
    now = time.time() if now is None else now
    removed = 0
    try:
        names = os.listdir(where)
    except OSError:
        return 0
    for name in names:
        path = os.path.join(where, name)
        try:
            if name.endswith(".tmp"):
                stale = os.lstat(path).st_mtime < now - 3600
            else:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
                try:
                    raw = os.read(fd, MAX_ENTRY_BYTES + 1) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
                finally:
                    os.close(fd)
                expires = json.loads(raw.decode("utf-8")).get("expires")
                stale = not isinstance(expires, (int, float)) or expires <= now
        except (OSError, ValueError, AttributeError):
            stale = True
        if stale:
            try:
                os.unlink(path)
                removed += 1
            except OSError:
                pass
    return removed
