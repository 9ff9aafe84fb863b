"""The wisp home's signing key (`grants.key`, the same file decide/store.py signs runtime grants with) and
HMAC-SHA256 built on CPython's own SHA-256 alone (`_sha256`, `_sha2` from 3.12): cheap enough for the
nested-shell check, which runs before any heavy import. Nothing here imports pathlib, json, hmac or the store."""
from __future__ import annotations

import os

KEY_NAME = "grants.key"
MIN_KEY_BYTES = 32
_BLOCK = 64


def wisp_home(env) -> str:
    """As config.wisp_home: $WISP_HOME, else ~/.wisp of the password database's home."""
    home = env.get("WISP_HOME")
    if home:
        return os.path.expanduser(home)
    import pwd

    try:
        user = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        user = ""
    if not (user and os.path.isabs(user) and os.path.isdir(user)):
        user = os.path.expanduser("~")
    return os.path.join(user, ".wisp")


def _private(st: os.stat_result) -> bool:
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def read_key(home: str) -> bytes | None:
    """The key, or None when it is missing or not trusted (not a private regular file of ours, in a wisp home
    of ours that no one else can write)."""
    try:
        if not _private(os.stat(home)):
            return None
        fd = os.open(os.path.join(home, KEY_NAME), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (st.st_mode & 0o170000) != 0o100000 or not _private(st) or st.st_mode & 0o077 or st.st_size > 4096:
            return None
        data = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) >= MIN_KEY_BYTES else None


def key_for_signing(home: str) -> bytes | None:
    """The key, made when missing (as the store makes it: 64 hex characters, mode 0600)."""
    key = read_key(home)
    if key is not None:
        return key
    import secrets

    try:
        fd = os.open(os.path.join(home, KEY_NAME), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return read_key(home)
    except OSError:
        return None
    try:
        os.write(fd, secrets.token_hex(32).encode())
    finally:
        os.close(fd)
    return read_key(home)


def sha256(data: bytes = b""):
    """A SHA-256 object without hashlib's import (OpenSSL): CPython's own module, `_sha256` up to 3.11 and
    `_sha2` from 3.12 on."""
    try:
        from _sha256 import sha256 as make
    except ImportError:
        from _sha2 import sha256 as make
    return make(data)


def mac(key: bytes, message: bytes) -> str:
    """HMAC-SHA256 (RFC 2104) of message, hex."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = sha256(bytes(b ^ 0x36 for b in key) + message).digest()
    return sha256(bytes(b ^ 0x5C for b in key) + inner).hexdigest()


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two hex strings."""
    from _operator import _compare_digest

    return _compare_digest(a.encode(), b.encode())
