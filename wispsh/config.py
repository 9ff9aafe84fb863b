"""The user's wisp home and config.json: read once, validated, trusted only when the user's own.

Config comes only from the wisp home, never from the project tree (an agent can write that).
Anything wrong with it is a ConfigError: wispsh refuses (exit 126) rather than guess.
"""
from __future__ import annotations

import os
import stat
from wispsh.model import Level
from wispsh.support.memo import cache
from wispsh.support.record import Record

_set = object.__setattr__  # records set their fields once, in __init__

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


def home_dir(env: dict[str, str] | None = None) -> str:
    """The wisp home: $WISP_HOME (absolute, else a ConfigError: a relative one would give every directory a
    home of its own), else ~/.wisp of the password database's home. A str (the hot path has no pathlib)."""
    env = os.environ if env is None else env
    home = env.get("WISP_HOME")
    if home:
        expanded = os.path.expanduser(home)
        if not os.path.isabs(expanded):
            raise ConfigError(f"WISP_HOME={home!r} is not an absolute path{FIX}set it to one (or unset it for "
                              "~/.wisp)")
        return expanded
    return os.path.join(user_home(), ".wisp")


def wisp_home(env: dict[str, str] | None = None) -> Path:
    """home_dir as a Path, for the CLI and the store."""
    from pathlib import Path

    return Path(home_dir(env))


# ---------------------------------------------------------------- the runtime dir

RUNTIME_NAME = "wisp"
RUN_USER_BASE = "/run/user"     # systemd's per-login runtime dirs
FALLBACK_BASE = "/tmp"          # the XDG fallback: FALLBACK_BASE/runtime-UID, which we make private


def runtime_dir(env: dict[str, str] | None = None) -> Path:
    """Where session and once grants, watch sockets and locks of this login live: $XDG_RUNTIME_DIR/wisp (the
    login's own directory); without XDG_RUNTIME_DIR, a directory of this user and this wisp home,
    /run/user/UID/wisp-HOMEID when that directory is the user's, else /tmp/runtime-UID/wisp-HOMEID (the XDG
    fallback, which private_runtime_dir makes and checks private: 0700 and the user's own). HOMEID names the
    wisp home (runtime_name): two wisp homes never share one (another install's session files would be read
    as forged grants of this one). No platformdirs import."""
    env = os.environ if env is None else env
    from pathlib import Path

    base = env.get("XDG_RUNTIME_DIR")
    if base and os.path.isabs(base):
        return Path(base) / RUNTIME_NAME
    uid = os.getuid()
    run_user = f"{RUN_USER_BASE}/{uid}"
    try:
        st = os.lstat(run_user)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid:
            return Path(run_user) / runtime_name(env)
    except OSError:
        pass
    return fallback_runtime_dir(env)


_RUNTIME_NAMES: dict[str | None, str] = {}      # WISP_HOME -> its name: every judged line asks (policy/context)


def runtime_name(env: dict[str, str] | None = None) -> str:
    """`wisp-` and 12 hex digits naming the wisp home (its real path), for a runtime dir outside
    $XDG_RUNTIME_DIR."""
    given = (os.environ if env is None else env).get("WISP_HOME")
    found = _RUNTIME_NAMES.get(given)
    if found is not None:
        return found
    try:
        home = home_dir(env)
    except ConfigError:                 # refused elsewhere; a directory of its own all the same
        home = str(given)
    try:
        from _sha256 import sha256      # the C module alone (hashlib loads OpenSSL: ~10 ms)
    except ImportError:
        from hashlib import sha256
    digest = sha256(os.path.realpath(home).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    found = _RUNTIME_NAMES[given] = f"{RUNTIME_NAME}-{digest}"
    return found


def fallback_runtime_dir(env: dict[str, str] | None = None) -> Path:
    from pathlib import Path

    return Path(FALLBACK_BASE) / f"runtime-{os.getuid()}" / runtime_name(env)


def runtime_problem(path: Path) -> str | None:
    """Why a directory of the runtime dir is not private to the user (None when it is, or is missing)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    if stat.S_ISLNK(st.st_mode):
        return f"{path} is a symbolic link"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory"
    if st.st_uid != os.getuid():
        return f"{path} is owned by uid {st.st_uid}, not by you"
    if st.st_mode & 0o077:
        return f"{path} is mode {stat.S_IMODE(st.st_mode):o}, not private (700)"
    return None


def private_runtime_dir(env: dict[str, str] | None = None, *, create: bool) -> Path:
    """The runtime dir, made private (0700) when `create`; OSError naming the directory when it is not the
    user's own and private. The /tmp fallback's parent is checked the same way: /tmp is everyone's."""
    where = runtime_dir(env)
    fallback = where == fallback_runtime_dir(env)
    chain = (where.parent, where) if fallback else (where,)
    if create and not fallback:
        os.makedirs(where.parent, mode=0o700, exist_ok=True)
    for directory in chain:
        if create:
            try:
                os.mkdir(directory, 0o700)
            except FileExistsError:
                pass
            try:    # ours but too open (made by an older wispsh or another tool): private again
                st = os.lstat(directory)
                if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077:
                    os.chmod(directory, 0o700)
            except OSError:
                pass
        problem = runtime_problem(directory)
        if problem:
            raise OSError(f"runtime dir not private: {problem}; set XDG_RUNTIME_DIR to a directory of yours "
                          "(mode 700)")
    return where


FIX = "; fix: "      # a problem's text, then what to do about it (doctor shows the two apart)


def untrusted_reason(path: Path, st: os.stat_result | None = None) -> str | None:
    """Why a file or directory of the gate's own must not be trusted, then how to fix it; None when it may be."""
    try:
        st = st or os.stat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return f"{path} lies under a file, not a directory{FIX}set WISP_HOME to a directory of yours"
    if st.st_uid != os.getuid():
        return (f"{path} is owned by uid {st.st_uid}, not by you{FIX}move it aside and let wispsh make a new one "
                f"(or chown it to uid {os.getuid()})")
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} is writable by group or others (mode {stat.S_IMODE(st.st_mode):o}){FIX}chmod go-w {path}"
    return None


class Config(Record):
    path: str                       # its config.json (read or not): home is its directory
    threshold: Level
    persist_days: float
    wait_seconds: float
    prompt_seconds: float
    terminal_programs: tuple[str, ...]
    deny: tuple[str, ...]
    shells: dict[str, str]          # "bash" -> "/usr/bin/bash"
    known_shells: tuple[str, ...]   # shell.known: real shells /etc/shells does not list (never run by name)
    trusted_sources: tuple[str, ...]
    audit_max_bytes: int
    audit_required: bool            # a line at or above the threshold that cannot be audited is refused
    wait_seconds_by_agent: dict     # approval.waitSeconds as agent -> seconds
    protect: tuple[str, ...]        # run.protect: paths `wisp run` keeps read-only
    classifier: "ClassifierSettings | None"# classifier.*: the model's second opinion; None: off
    raw: dict
    run_threshold: Level            # run.threshold: under `wisp run` with its walls, for contained parts
    contained: object               # set by the `wisp run` supervisor only (sandbox/contained.py); None: plain

    __slots__ = FIELDS = ('path', 'threshold', 'persist_days', 'wait_seconds', 'prompt_seconds',
                          'terminal_programs', 'deny', 'shells', 'known_shells', 'trusted_sources',
                          'audit_max_bytes', 'audit_required', 'wait_seconds_by_agent', 'protect', 'classifier', 'raw',
                          'run_threshold', 'contained')

    def __init__(self, path, threshold=Level.MODERATE, persist_days=30.0, wait_seconds=120.0, prompt_seconds=300.0,
                 terminal_programs=(), deny=(), shells=None, known_shells=(), trusted_sources=(),
                 audit_max_bytes=10 * 1024 * 1024, audit_required=False, wait_seconds_by_agent=None, protect=(),
                 classifier=None, raw=None, run_threshold=Level.HIGH, contained=None) -> None:
        _set(self, 'path', path)
        _set(self, 'threshold', threshold)
        _set(self, 'persist_days', persist_days)
        _set(self, 'wait_seconds', wait_seconds)
        _set(self, 'prompt_seconds', prompt_seconds)
        _set(self, 'terminal_programs', terminal_programs)
        _set(self, 'deny', deny)
        _set(self, 'shells', {} if shells is None else shells)
        _set(self, 'known_shells', known_shells)
        _set(self, 'trusted_sources', trusted_sources)
        _set(self, 'audit_max_bytes', audit_max_bytes)
        _set(self, 'audit_required', audit_required)
        _set(self, 'wait_seconds_by_agent', {} if wait_seconds_by_agent is None else wait_seconds_by_agent)
        _set(self, 'protect', protect)
        _set(self, 'classifier', classifier)
        _set(self, 'raw', {} if raw is None else raw)
        _set(self, 'run_threshold', run_threshold)
        _set(self, 'contained', contained)

    def shell_path(self, name: str) -> str | None:
        return self.shells.get(name)

    @property
    def home(self) -> str:
        """The wisp home this config was read from (its approvals, audit, rules and key are there)."""
        return os.path.dirname(self.path)


def _expect(cond: bool, path: Path, what: str) -> None:
    if not cond:
        raise ConfigError(f"{path}: {what}")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1e6


def _shown(value) -> str:
    import json

    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:39] + "…"


CLASSIFIER_PROVIDERS = ("openai", "anthropic")
# Every key of the classifier section, and what its value must be (unknown keys are errors).
CLASSIFIER_KEYS = {
    "url": "an http:// or https:// URL (the provider's API base, e.g. http://127.0.0.1:11434/v1)",
    "model": "a model name",
    "provider": "one of " + ", ".join(CLASSIFIER_PROVIDERS),
    "apiKeyEnv": "the name of the environment variable that holds the API key (never the key itself)",
    "timeoutSeconds": "a number of seconds above 0 and up to 60",
    "cacheDays": "a number of days from 0 to 365",
}


NUMBER = "a number of seconds from 0 to 1000000"
STRINGS = "a list of strings"
# Every key config.json may hold, as "section.key" -> what its value must be (the message says so). A key not
# listed is a typo or a setting of another version: an error, never silently ignored.
SCHEMA = {
    "approval.threshold": "one of safe, low, moderate, high, dangerous",
    "approval.persistDays": "a number of days from 0 to 1000000",
    "approval.waitSeconds": NUMBER + ", or an object of agent name -> such a number",
    "approval.promptSeconds": NUMBER,
    "approval.terminalPrograms": STRINGS,
    "deny": "a list of regular expressions (RE2 syntax)",
    "shell.default": "an absolute path", "shell.bash": "an absolute path", "shell.sh": "an absolute path",
    "shell.zsh": "an absolute path", "shell.dash": "an absolute path", "shell.ksh": "an absolute path",
    "shell.known": "a list of absolute paths: further real shells, beyond those /etc/shells lists",
    "trustedSources": STRINGS,
    "audit.maxBytes": "a positive whole number of bytes",
    "audit.required": "true or false",
    "run.protect": "a list of paths",
    "run.hide": "a list of paths",
    "run.writes": "true or false (the write wall)",
    "run.allowWrite": "a list of paths (relative: to the project)",
    "run.secrets": "true or false (the secret wall)",
    "run.allowRead": "a list of paths",
    "run.sockets": "true or false (the socket wall)",
    "run.allowSocket": "a list of paths",
    "run.sshAgent": "true or false", "run.gpgAgent": "true or false", "run.display": "true or false",
    "run.nesting": "true or false",
    "run.net": ('an object: mode ("off", "ask" or "all"), allow (HOST, HOST:PORT, HOST:* or *.DOMAIN[:PORT]), '
                'allowPorts (host loopback ports), hosts (name -> address), defaults (true or false)'),
    "run.threshold": "one of safe, low, moderate, high, dangerous (contained work under wisp run; default high)",
    "run.restore": "true or false (restore points under wisp run; without them nothing is contained)",
    **{f"classifier.{key}": what for key, what in CLASSIFIER_KEYS.items()},
}
SECTIONS = ("approval", "shell", "audit", "run", "classifier")


def _unknown(path: Path, key: str) -> ConfigError:
    import difflib

    section = key.split(".", 1)[0] if "." in key else None
    if section:
        known = [k for k in SCHEMA if k.startswith(section + ".")]
    else:
        known = list(dict.fromkeys(k.split(".", 1)[0] for k in SCHEMA))
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.7)
    hint = f" (did you mean {near[0]}?)" if near else f"; known: {', '.join(known)}"
    return ConfigError(f"{path}: unknown key {key}{hint}{FIX}correct or remove it")


def _wrong(path: Path, key: str, value) -> ConfigError:
    return ConfigError(f"{path}: {key} must be {SCHEMA[key]}, not {_shown(value)}")


def _check_value(key: str, value, path: Path) -> None:
    if key in ("approval.threshold", "run.threshold"):
        ok = isinstance(value, str) and value.strip().lower() in ("safe", "low", "moderate", "high", "dangerous")
    elif key == "approval.waitSeconds":
        ok = _is_number(value) or (isinstance(value, dict) and bool(value)
                                   and all(isinstance(k, str) and k and _is_number(v) for k, v in value.items()))
    elif key in ("approval.persistDays", "approval.promptSeconds"):
        ok = _is_number(value)
    elif key in ("run.writes", "run.secrets", "run.sockets", "run.sshAgent", "run.gpgAgent", "run.display",
                 "run.nesting", "run.restore"):
        ok = isinstance(value, bool)
    elif key == "run.net":                  # a section of its own: support/netrules.py reads and checks it
        from wispsh.support.netrules import check_section

        problem = check_section(value)
        if problem:
            raise ConfigError(f"{path}: run.net must be {SCHEMA[key]}; {problem}")
        ok = True
    elif key in ("approval.terminalPrograms", "trustedSources", "run.protect", "run.hide", "run.allowWrite",
                 "run.allowRead", "run.allowSocket"):
        ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
    elif key == "deny":
        ok = isinstance(value, list) and all(isinstance(v, str) and v for v in value)
    elif key == "shell.known":
        ok = isinstance(value, list) and all(isinstance(v, str) and os.path.isabs(v) for v in value)
    elif key.startswith("shell."):
        ok = isinstance(value, str) and os.path.isabs(value)
    elif key == "audit.maxBytes":
        ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    elif key == "audit.required":
        ok = isinstance(value, bool)
    elif key.startswith("classifier."):
        ok = True                           # parse_classifier reads the section as a whole
    else:                                   # pragma: no cover - every SCHEMA key is handled above
        ok = False
    if not ok:
        raise _wrong(path, key, value)


def validate(data: object, path: Path) -> None:
    """Raise ConfigError naming the first unknown key or wrong value (the file and what it must be)."""
    _expect(isinstance(data, dict), path, "the top level must be a JSON object")
    for name, value in data.items():
        if name in SECTIONS:
            if not isinstance(value, dict):
                raise ConfigError(f"{path}: {name} must be an object of settings, not {_shown(value)}")
            for key, item in value.items():
                full = f"{name}.{key}"
                if full not in SCHEMA:
                    raise _unknown(path, full)
                _check_value(full, item, path)
        elif name in SCHEMA:
            _check_value(name, value, path)
        else:
            raise _unknown(path, name)


def parse_config(data: object, path: Path) -> Config:
    validate(data, path)
    approval = data.get("approval", {})
    audit = data.get("audit", {})
    wait = approval.get("waitSeconds", 120)
    by_agent = {k: float(v) for k, v in wait.items()} if isinstance(wait, dict) else {}
    return Config(
        path=path,
        threshold=Level.parse(approval.get("threshold", "moderate")),
        persist_days=float(approval.get("persistDays", 30)),
        wait_seconds=float(by_agent.get("default", 120) if by_agent else wait),
        wait_seconds_by_agent=by_agent,
        prompt_seconds=float(approval.get("promptSeconds", 300)),
        terminal_programs=tuple(approval.get("terminalPrograms", [])),
        deny=tuple(data.get("deny", [])),
        shells={k: v for k, v in data.get("shell", {}).items() if k != "known"},
        known_shells=tuple(data.get("shell", {}).get("known", [])),
        trusted_sources=tuple(data.get("trustedSources", [])),
        audit_max_bytes=audit.get("maxBytes", 10 * 1024 * 1024),
        audit_required=audit.get("required", False),
        protect=tuple(data.get("run", {}).get("protect", [])),
        classifier=parse_classifier(data.get("classifier"), path),
        raw=data,
        run_threshold=Level.parse(data.get("run", {}).get("threshold", "high")),
    )


# ---------------------------------------------------------------- classifier.* (the model's second opinion)



class ClassifierSettings:
    """classifier.* of config.json: where the second opinion comes from. A plain class: it is built on every
    line's config read, and only read off the hot path."""

    __slots__ = ("url", "model", "provider", "api_key_env", "timeout", "cache_days")

    def __init__(self, url: str, model: str, provider: str = "openai", api_key_env: str | None = None,
                 timeout: float = 2.0, cache_days: float = 7.0) -> None:
        self.url, self.model, self.provider = url, model, provider
        self.api_key_env, self.timeout, self.cache_days = api_key_env, timeout, cache_days

    def __repr__(self) -> str:
        return (f"ClassifierSettings({self.provider} {self.model} at {self.url}, key from "
                f"{self.api_key_env or 'nothing'}, {self.timeout} s)")


def _endpoint_url(url: str) -> bool:
    """http(s)://host[:port][/path]: no credentials in it (they would show wherever the URL is shown), a port
    that is a port. Read without urllib (this runs on every line's config read)."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("http", "https") or any(c.isspace() for c in url):
        return False
    authority = rest.split("/", 1)[0].split("?", 1)[0]
    if not authority or "@" in authority:
        return False
    host, port = authority, ""
    if authority.startswith("["):
        host, _, after = authority.partition("]")
        if after and not after.startswith(":"):
            return False
        port = after[1:]
    elif ":" in authority:
        host, _, port = authority.rpartition(":")
    if (port or authority.endswith(":")) and not (port.isdigit() and 0 < int(port) < 65536):
        return False
    return bool(host.strip("["))


def parse_classifier(section: object, path: Path) -> ClassifierSettings | None:
    """The classifier section, or None when there is none (no network call ever happens then)."""
    if section is None:
        return None
    _expect(isinstance(section, dict), path, "classifier must be an object of settings")

    def wrong(key: str) -> ConfigError:
        # apiKeyEnv's wrong value may be the key itself: never echoed
        shown = "" if key == "apiKeyEnv" else f", not {section[key]!r}"
        return ConfigError(f"{path}: classifier.{key} must be {CLASSIFIER_KEYS[key]}{shown}")

    for key in ("url", "model"):
        _expect(key in section, path, f"classifier.{key} is missing: it must be {CLASSIFIER_KEYS[key]}")
    url, model = section["url"], section["model"]
    if not (isinstance(url, str) and _endpoint_url(url)):
        raise wrong("url")
    if not (isinstance(model, str) and model.strip()):
        raise wrong("model")
    provider = section.get("provider", "openai")
    if provider not in CLASSIFIER_PROVIDERS:
        raise wrong("provider")
    key_env = section.get("apiKeyEnv")
    if key_env is not None and not (isinstance(key_env, str) and key_env.isascii()
                                    and key_env.replace("_", "a").isalnum() and not key_env[0].isdigit()):
        raise wrong("apiKeyEnv")
    timeout = section.get("timeoutSeconds", 2)
    if not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and 0 < timeout <= 60):
        raise wrong("timeoutSeconds")
    days = section.get("cacheDays", 7)
    if not (isinstance(days, (int, float)) and not isinstance(days, bool) and 0 <= days <= 365):
        raise wrong("cacheDays")
    return ClassifierSettings(url, model.strip(), provider, key_env, float(timeout), float(days))


def load_config(home: str | Path | None = None) -> Config:
    """The config of the wisp home; defaults when there is none. Raises ConfigError (fail closed).
    Its `path` is a str (home_dir's), its `home` the directory."""
    home = home or home_dir()
    try:
        st = os.stat(home)
        if not stat.S_ISDIR(st.st_mode):
            raise ConfigError(f"the wisp home {home} is not a directory{FIX}move it aside (mv {home} {home}.old); "
                              "wispsh makes a new one")
    except FileNotFoundError:
        pass
    except NotADirectoryError:
        raise ConfigError(f"the wisp home {home} lies under a file, not a directory{FIX}set WISP_HOME to a "
                          "directory of yours") from None
    path = os.path.join(home, CONFIG_NAME)
    try:    # O_NONBLOCK: a FIFO planted as config.json must not hang every line
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return Config(path=path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):       # a directory or FIFO there: os.fdopen would fail or hang
        os.close(fd)
        raise ConfigError(f"{path} is not a regular file{FIX}move it aside (mv {path} {path}.bad)")
    with os.fdopen(fd, "rb") as fh:
        if st.st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: {st.st_size} bytes, over the limit of {MAX_CONFIG_BYTES}")
        for thing, st in ((home, None), (path, st)):
            reason = untrusted_reason(thing, st)
            if reason:
                raise ConfigError(f"{path} is not trusted: {reason}")
        raw = fh.read(MAX_CONFIG_BYTES + 1)
    import json     # only when there is a config.json

    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: invalid JSON ({exc}){FIX}correct it, or move it aside (mv {path} {path}.bad)") \
            from None
    return parse_config(data, path)


@cache
def current() -> Config:
    """The config of this process's wisp home, read once."""
    return load_config()
