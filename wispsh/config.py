"""The user's wisp home and config.json: read once, validated, trusted only when the user's own.

Config comes only from the wisp home, never from the project tree (an agent can write that).
Anything wrong with it is a ConfigError: wispsh refuses (exit 126) rather than guess.
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from wispsh.model import Level

CONFIG_NAME = "config.json"


class ConfigError(Exception):
    """The config cannot be used; the message names the file and the problem."""


MAX_CONFIG_BYTES = 1 << 20     # a config bigger than this is not one (and is not read into memory)


def user_home() -> str:
    """The user's home from the password database, not $HOME: a line run through the gate can set HOME for
    the shells it starts (`HOME=/tmp/x bash s.sh`), and a nested wispsh must not then read config and
    approvals the agent wrote there. $HOME is used only when the database has no usable entry."""
    import pwd

    try:
        home = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        home = ""
    if home and os.path.isabs(home) and os.path.isdir(home):
        return home
    return os.path.expanduser("~")


def wisp_home(env: dict[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    home = env.get("WISP_HOME")
    if home:
        return Path(home).expanduser()
    return Path(user_home()) / ".wisp"


def untrusted_reason(path: Path, st: os.stat_result | None = None) -> str | None:
    """Why a file or directory of the gate's own must not be trusted, or None when it may be."""
    try:
        st = st or os.stat(path)
    except FileNotFoundError:
        return None
    if st.st_uid != os.getuid():
        return f"{path} is owned by uid {st.st_uid}, not by you"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


@dataclass(frozen=True)
class Config:
    path: Path
    threshold: Level = Level.MODERATE
    persist_days: float = 30.0
    wait_seconds: float = 120.0
    prompt_seconds: float = 300.0
    terminal_programs: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    shells: dict[str, str] = field(default_factory=dict)        # "bash" -> "/usr/bin/bash"
    trusted_sources: tuple[str, ...] = ()
    audit_max_bytes: int = 10 * 1024 * 1024
    raw: dict = field(default_factory=dict)

    def shell_path(self, name: str) -> str | None:
        return self.shells.get(name)


def _expect(cond: bool, path: Path, what: str) -> None:
    if not cond:
        raise ConfigError(f"{path}: {what}")


def _number(data: dict, key: str, default: float, path: Path) -> float:
    value = data.get(key, default)
    _expect(isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1e6,
            path, f"approval.{key} must be a non-negative number up to 1e6, not {value!r}")
    return float(value)


def _strings(value, path: Path, key: str) -> tuple[str, ...]:
    _expect(isinstance(value, list) and all(isinstance(v, str) for v in value),
            path, f"{key} must be a list of strings")
    return tuple(value)


def parse_config(data: object, path: Path) -> Config:
    _expect(isinstance(data, dict), path, "the top level must be a JSON object")
    approval = data.get("approval", {})
    _expect(isinstance(approval, dict), path, "approval must be an object")
    try:
        threshold = Level.parse(approval.get("threshold", "moderate"))
    except (ValueError, AttributeError) as exc:
        raise ConfigError(f"{path}: approval.threshold: {exc}") from None
    shells = data.get("shell", {})
    _expect(isinstance(shells, dict), path, "shell must be an object of name -> absolute path")
    for name, where in shells.items():
        _expect(isinstance(where, str) and os.path.isabs(where), path,
                f"shell.{name} must be an absolute path, not {where!r}")
    audit = data.get("audit", {})
    _expect(isinstance(audit, dict), path, "audit must be an object")
    max_bytes = audit.get("maxBytes", 10 * 1024 * 1024)
    _expect(isinstance(max_bytes, int) and not isinstance(max_bytes, bool) and max_bytes > 0, path,
            "audit.maxBytes must be a positive integer")
    return Config(
        path=path,
        threshold=threshold,
        persist_days=_number(approval, "persistDays", 30, path),
        wait_seconds=_number(approval, "waitSeconds", 120, path),
        prompt_seconds=_number(approval, "promptSeconds", 300, path),
        terminal_programs=_strings(approval.get("terminalPrograms", []), path, "approval.terminalPrograms"),
        deny=_strings(data.get("deny", []), path, "deny"),
        shells=dict(shells),
        trusted_sources=_strings(data.get("trustedSources", []), path, "trustedSources"),
        audit_max_bytes=max_bytes,
        raw=data,
    )


def load_config(home: Path | None = None) -> Config:
    """The config of the wisp home; defaults when there is none. Raises ConfigError (fail closed)."""
    home = home or wisp_home()
    path = home / CONFIG_NAME
    try:    # O_NONBLOCK: a FIFO planted as config.json must not hang every line
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return Config(path=path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path}: not a regular file")
        if st.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: {st.st_size} bytes, over the limit of {MAX_CONFIG_BYTES}")
        for thing, st in ((home, None), (path, st)):
            reason = untrusted_reason(thing, st)
            if reason:
                raise ConfigError(f"{path}: not trusted: {reason}")
        raw = fh.read(MAX_CONFIG_BYTES + 1)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: invalid JSON: {exc}") from None
    return parse_config(data, path)


@cache
def current() -> Config:
    """The config of this process's wisp home, read once."""
    return load_config()
