"""Who is asking: the session's agent process, its name, and the project a directory belongs to.

The session is the nearest ancestor that is not a shell, wispsh or a wrapper, identified by pid AND start
time, so a process that later reuses the pid inherits nothing. psutil is imported only inside functions:
a line below the threshold never needs a session.
"""
from __future__ import annotations

import os

from wispsh.support.memo import cache
from wispsh.support.procs import read
from wispsh.support.record import Record
from wispsh.vocab.shells import BETWEEN

_set = object.__setattr__  # records set their fields once, in __init__

# Processes that stand between the agent and us (vocab/shells.BETWEEN, and these); never the session themselves.
WRAPPERS = frozenset({
    "env", "timeout", "nohup", "sudo", "doas", "su", "runuser", "setsid", "script", "nice", "ionice",
    "stdbuf", "time", "xargs", "flock", "chrt", "taskset", "unbuffer", "chronic", "caffeinate", "command",
})

# Agent name -> words that name it in a process's name or its first arguments (matched on basenames).
AGENT_PROCESS_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("claude", ("claude", "claude-code")),
    ("codex", ("codex",)),
    ("gemini", ("gemini", "gemini-cli")),
    ("opencode", ("opencode",)),
    ("aider", ("aider",)),
    ("goose", ("goose", "goosed")),
    ("continue", ("cn", "continue")),
    ("copilot", ("copilot", "github-copilot-cli")),
    ("amazon-q", ("q", "qchat", "amazon-q")),
    ("cursor", ("cursor", "cursor-agent")),
    ("cline", ("cline",)),
    ("openhands", ("openhands",)),
    ("swe-agent", ("sweagent", "swe-agent", "swerex-remote")),
    ("qwen", ("qwen", "qwen-code")),
    ("mini-swe-agent", ("mini", "mini-swe-agent", "minisweagent")),
)

# Environment markers the agents set for the commands they run (agents.md).
AGENT_ENV_MARKERS: tuple[tuple[str, str, str | None], ...] = (
    # (variable, agent, required value or None for "set and non-empty")
    ("CLAUDECODE", "claude", "1"),
    ("GEMINI_CLI", "gemini", "1"),
    ("CODEX_SANDBOX", "codex", None),
    ("CODEX_THREAD_ID", "codex", None),
    ("GOOSE_TERMINAL", "goose", None),
    ("OPENCODE", "opencode", None),
)


class Session(Record):
    id: str                      # file-name safe: "p<pid>-<start*100>" or "n-<hash of WISP_SESSION>"
    pid: int | None              # the agent process (None for a named session)
    started: float | None        # its start time (psutil create_time)
    name: str | None             # WISP_SESSION, when the harness named the session
    agent: str | None            # "claude", "codex", ... when known

    __slots__ = FIELDS = ('id', 'pid', 'started', 'name', 'agent')

    def __init__(self, id, pid, started, name=None, agent=None) -> None:
        _set(self, 'id', id)
        _set(self, 'pid', pid)
        _set(self, 'started', started)
        _set(self, 'name', name)
        _set(self, 'agent', agent)


def process_session_id(pid: int, started: float) -> str:
    return f"p{pid}-{round(started * 100)}"


def named_session_id(name: str) -> str:
    import hashlib      # only named sessions need it; below-threshold lines never do

    return "n-" + hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def agent_from_env(env) -> str | None:
    for var, agent, value in AGENT_ENV_MARKERS:
        have = env.get(var)
        if have and (value is None or have == value):
            return agent
    return None


def _basename(word: str) -> str:
    base = word.rsplit("/", 1)[-1].lower()
    for suffix in (".js", ".mjs", ".cjs", ".py", ".exe"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base


def agent_from_process(name: str, cmdline: list[str]) -> str | None:
    words = {_basename(name)} | {_basename(w) for w in cmdline[:3] if w and not w.startswith("-")}
    # node/python scripts: the package directory names the agent (…/@openai/codex/bin/codex.js)
    for w in cmdline[:3]:
        for piece in w.lower().split("/"):
            if piece in ("claude-code", "codex", "gemini-cli", "opencode", "aider", "copilot", "cursor-agent",
                         "qwen-code", "minisweagent"):
                words.add(piece)
    for agent, names in AGENT_PROCESS_WORDS:
        if words.intersection(names):
            return agent
    return None


def is_wispsh(name: str, cmdline: list[str]) -> bool:
    if _basename(name) == "wispsh":
        return True
    if not _basename(name).startswith(("python", "pypy")):
        return False
    for i, word in enumerate(cmdline[1:4], start=1):
        if _basename(word) == "wispsh" or (word == "-m" and cmdline[i + 1:i + 2] in (["wispsh"], ["wispsh.main"], ["wispsh.cli.sh"])):
            return True
    return False


def passes_through(name: str, cmdline: list[str]) -> bool:
    """True for a process between the agent and us: a shell, wispsh, or a wrapper."""
    base = _basename(name)
    if base.startswith("-"):                      # login shells: "-bash"
        base = base[1:]
    return base in BETWEEN or base in WRAPPERS or is_wispsh(name, cmdline)


class Here(Record):
    """This process seen from above: its session and the (pid, start) of every ancestor."""

    session: Session
    ancestors: tuple[tuple[int, float], ...]
    me: tuple[int, float] | None            # this process: a shell that execs in place keeps the pid

    __slots__ = FIELDS = ('session', 'ancestors', 'me')

    def __init__(self, session, ancestors, me=None) -> None:
        _set(self, 'session', session)
        _set(self, 'ancestors', ancestors)
        _set(self, 'me', me)


def _walk(name: str | None, agent: str | None, of: int | None = None) -> Here:
    import psutil

    ancestors: list[tuple[int, float]] = []
    found: tuple[int, float] | None = None
    try:
        proc = psutil.Process(of).parent()
    except psutil.Error:
        proc = None
    while proc is not None:
        try:
            pid, started = proc.pid, proc.create_time()
            pname, cmdline = proc.name(), proc.cmdline()
        except psutil.Error:
            break
        ancestors.append((pid, started))
        if agent is None:
            agent = agent_from_process(pname, cmdline)
        if found is None and not passes_through(pname, cmdline):
            found = (pid, started)
        if pid <= 1:
            break
        try:
            proc = proc.parent()
        except psutil.Error:
            break
    if found is None and ancestors:
        found = ancestors[-1]                     # only shells above us: the outermost one
    if found is None:                             # no readable parent at all: ourselves, fail closed
        me = psutil.Process(of)
        found = (me.pid, me.create_time())
    if name:
        session = Session(named_session_id(name), None, None, name=name, agent=agent)
    else:
        session = Session(process_session_id(*found), found[0], found[1], agent=agent)
    try:
        me = psutil.Process(of)
        myself = (me.pid, me.create_time())
    except psutil.Error:
        myself = None
    return Here(session, tuple(ancestors), myself)


_walk_once = cache(_walk)


# The `wisp run` supervisor judges for a process inside the namespace: while it does, on its worker thread,
# this names that process (a lazily walked Here), and here() answers with it instead of this process's own.
_local = None


def asking_for(found) -> None:
    """Set (or, with None, clear) the process here() describes on this thread (the supervisor's judge):
    a sandbox.judge.LazyHere, a Here walked when needed, with `me` and `began` read without the walk."""
    global _local
    if _local is None:
        import threading

        _local = threading.local()
    _local.here = found


def here(env=None) -> Here:
    """The session and ancestry of this process (walked once per process).

    Accepted: WISP_SESSION is the harness's word; a line that sets it (a WISP_ assignment, rated dangerous)
    joins the session it names, and a named session's grants live as long as the runtime dir.
    """
    if _local is not None and getattr(_local, "here", None) is not None:
        return _local.here
    env = os.environ if env is None else env
    return _walk_once(env.get("WISP_SESSION") or None, agent_from_env(env))


def here_of(pid: int, env) -> Here:
    """The session and ancestry of another process (the `wisp run` supervisor asks this for the process inside
    that sent a request; its pid as the supervisor's /proc shows it). Walked each time: pids come and go."""
    return _walk(env.get("WISP_SESSION") or None, agent_from_env(env), pid)


def current(env=None) -> Session:
    return here(env).session


def alive(pid: int, started: float) -> bool:
    """True when the process `pid` exists and is the one that started at `started`."""
    import psutil

    try:
        return abs(psutil.Process(pid).create_time() - started) < 0.05
    except psutil.Error:
        return False


def start_time(pid: int) -> float | None:
    import psutil

    try:
        return psutil.Process(pid).create_time()
    except psutil.Error:
        return None


def project_root(cwd: str) -> str:
    """The git work tree root holding `cwd`, else `cwd` itself (absolute, symlinks resolved)."""
    here_dir = os.path.realpath(cwd)
    probe = here_dir
    while True:
        if os.path.exists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return here_dir
        probe = parent


def _parent_pid(pid: int) -> int | None:
    try:
        raw = read(f"/proc/{pid}/stat")
        return int(raw[raw.rindex(b")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def started_with(pid: int, variable: str) -> bool:
    """True when process `pid` was started with `variable` set (its initial environment, which nothing it
    runs can rewrite for us: unsetting the variable later does not hide it)."""
    try:
        raw = read(f"/proc/{pid}/environ")
    except OSError:
        return False
    needle = variable.encode() + b"="
    return raw.startswith(needle) or b"\0" + needle in raw


def gated_ancestor(pid: int, *, limit: int = 256) -> int | None:
    """The nearest process at or above `pid` that was started beneath a line a gate checked (it carries
    WISP_GATED from realshell.exec_shell), or None. Linux /proc only; elsewhere None, and only the environment of
    the process itself can tell (accepted: a process detached from the tree that also dropped the variable
    looks like one a person started)."""
    from wispsh.decide.nested import GATED_VARIABLE

    for _ in range(limit):
        if pid is None or pid <= 0:
            return None
        if started_with(pid, GATED_VARIABLE):
            return pid
        if pid == 1:
            return None
        pid = _parent_pid(pid)
    return None


def _proc_name_and_args(pid: int) -> tuple[str, list[str]] | None:
    try:
        name = read(f"/proc/{pid}/comm").strip().decode("utf-8", "surrogateescape")
        args = [a.decode("utf-8", "surrogateescape") for a in read(f"/proc/{pid}/cmdline").split(b"\0") if a]
    except OSError:
        return None
    return name, args


def started_epoch(pid: int) -> float | None:
    """When `pid` started, in seconds since the epoch, from /proc (boot time + its start in clock ticks)."""
    try:
        raw = read(f"/proc/{pid}/stat")
        ticks = int(raw[raw.rindex(b")") + 2:].split()[19])
        up = float(read("/proc/uptime").split()[0])
    except (OSError, ValueError, IndexError):
        return None
    import time

    # the boot time to 10 ms (/proc/stat's btime is whole seconds, too coarse for "before or after")
    return time.time() - up + ticks / os.sysconf("SC_CLK_TCK")


CLOCK_SLACK = 0.05      # seconds: a file changed about when the session began counts as changed in it


def session_started(pid: int | None = None, *, limit: int = 256) -> float | None:
    """When the session above `pid` (default: this process) started: the nearest ancestor that is not a
    shell, wispsh or a wrapper, read from /proc without psutil (the start-up file and installed-script
    checks run below the threshold too). None when it cannot be told (callers then fail closed)."""
    pid = _parent_pid(os.getpid()) if pid is None else pid
    outermost = None
    for _ in range(limit):
        if pid is None or pid <= 0:
            break
        seen = _proc_name_and_args(pid)
        if seen is None:
            return None
        if not passes_through(*seen):
            return started_epoch(pid)
        outermost = pid
        if pid == 1:
            break
        pid = _parent_pid(pid)
    return started_epoch(outermost) if outermost else None


def changed_in_session(path: str, st: os.stat_result | None = None) -> bool:
    """True when the inode at `path` changed (written, renamed, linked, chmod'ed: its ctime, which no one can
    set back) after the session began: the agent may have written it. Unknown counts as changed."""
    try:
        st = st or os.stat(path)
    except OSError:
        return True
    began = _session_began()
    return began is None or st.st_ctime >= began - CLOCK_SLACK


def _session_began() -> float | None:
    """When the asking session began: this process's (cached), or, in the `wisp run` supervisor judging for a
    process inside (asking_for), that process's agent: a tool installed before the agent started is not the
    agent's, however long ago the supervisor's own terminal opened."""
    asking = getattr(_local, "here", None) if _local is not None else None
    if asking is None:
        return _session_started_here()
    return asking.began             # sandbox.judge.LazyHere: read once a request


@cache
def _session_started_here() -> float | None:
    return session_started()       # once per process: the ancestry above a running wispsh does not change
