"""What the caller handed this process that the real shell must get as it was: the signal dispositions, the
signal mask, the standard descriptors it left closed, and the argv[0] it used.

`keep()` runs first in every entry point (cli/sh.py, the `wisp run` client, program shims), before anything
opens a file; `give_back(env)` runs just before the exec of the real shell (or program).

What a Python entry point can know (CPython 3.11 started by a `#!python -IS` launcher):
- the signal mask: CPython's start-up leaves it alone. Known.
- ignored signals: execve keeps SIG_IGN, and CPython keeps a signal it finds ignored (it installs its SIGINT
  handler only where SIGINT was SIG_DFL). Known, except for SIGPIPE and SIGXFSZ: CPython sets both to SIG_IGN
  unconditionally before any Python code runs, so whether the caller had them ignored is lost. They are given
  back SIG_DFL, which is what ordinary callers leave (subprocess, libuv and Go reset them for their children);
  a caller that ignored SIGPIPE on purpose (`trap '' PIPE` in a shell that then runs `sh -c`) gets SIG_DFL.
- handled signals: SIG_DFL after an exec, whatever this process did meanwhile. Known.
- argv[0]: lost. The kernel starts a `#!` script as `INTERPRETER [ARG] PATH ARGS...`: the caller's argv[0]
  (`bash`, `-bash`) is replaced by the path it executed. `caller_argv0` takes the bare name when looking that
  name up on PATH finds exactly that path (an execvp of `bash`), else the path (an exec of `/bin/sh` by path,
  as shell=True does in subprocess and node). A login shell's leading `-` cannot be seen at all: a `-bash` run
  through a Python shim is not a login shell (its caller can pass -l).
- closed fds 0-2: known (fstat fails). Each gets a placeholder that can be neither read nor written (O_PATH,
  close-on-exec): nothing wispsh opens lands there (an audit log opened as fd 1 would receive what the gate
  prints), a write there fails as on a closed fd, and the real shell finds the fd closed again after exec.

The seam for a compiled launcher (issue 29), which sees all of this before anything changes it: it sets
`WISP_CALLER=PID:IGNORED:BLOCKED:ARGV0` and execs the Python gate (or client) in the same process. PID is its
own pid (exec keeps it: a record some other process inherited is ignored), IGNORED and BLOCKED are hex masks
as /proc/PID/status shows SigIgn and SigBlk (bit n-1 for signal n), ARGV0 the caller's argv[0] (the rest of
the value, colons and all). The record never reaches the real shell's environment. Whoever sets one only
chooses the signals and argv[0] of the shell it starts itself, which it could choose directly.

Imports: posix, sys and _signal only (all loaded by the interpreter before any Python code): the `wisp run`
launcher imports this file as a top-level module, outside the package.
"""
import posix
import sys

import _signal

RECORD = "WISP_CALLER"
# Set to SIG_IGN by CPython itself at start-up, whatever the caller left.
SET_BY_PYTHON = frozenset(s for s in (getattr(_signal, "SIGPIPE", None), getattr(_signal, "SIGXFSZ", None)) if s)
_UNCHANGEABLE = frozenset(s for s in (getattr(_signal, "SIGKILL", None), getattr(_signal, "SIGSTOP", None)) if s)


class Kept:
    """The caller's state as recorded at start: `ignored` signal numbers, `blocked` (the mask), the standard
    fds it left `closed`, and its `argv0` when a launcher recorded it (None: not known)."""

    __slots__ = ("ignored", "blocked", "closed", "argv0", "recorded")

    def __init__(self, ignored, blocked, closed, argv0, recorded):
        self.ignored, self.blocked, self.closed = frozenset(ignored), frozenset(blocked), tuple(closed)
        self.argv0, self.recorded = argv0, recorded


_KEPT = []


def keep() -> Kept:
    """Record the caller's state (once per process) and hold its closed standard fds. Never raises."""
    if _KEPT:
        return _KEPT[0]
    closed = _hold_closed()
    record = parse_record(_environ_value(), posix.getpid())
    if record is not None:
        ignored, blocked, argv0 = record
        kept = Kept(ignored, blocked, closed, argv0, True)
    else:
        kept = Kept(_ignored_now() - SET_BY_PYTHON, _blocked_now(), closed, None, False)
    _KEPT.append(kept)
    return kept


def give_back(env: dict) -> None:
    """Just before exec: every disposition and the mask as the caller left them; the record taken out of `env`
    (str or bytes keys). After this a write to a closed pipe ends the process: flush first."""
    kept = keep()
    for number in _signal.valid_signals():
        if number in _UNCHANGEABLE:
            continue
        want = _signal.SIG_IGN if number in kept.ignored else _signal.SIG_DFL
        try:
            if _signal.getsignal(number) != want:
                _signal.signal(number, want)
        except (OSError, ValueError, RuntimeError):
            pass            # a signal the C library keeps for itself (glibc's 32 and 33)
    try:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, kept.blocked & _signal.valid_signals())
    except (OSError, ValueError):
        pass
    env.pop(RECORD, None)
    env.pop(RECORD.encode(), None)


def spawn(path, argv, env: dict, moves=()) -> int:
    """Start `path` in a child as posix_spawn would (`moves`: (from, to) fd pairs dup2'd in order, `to` left
    open across the exec), with give_back's signals and mask: the real shell of a gated shell (session/).
    Not posix_spawn itself: glibc's leaves its internal signals 32 and 33 ignored in the child, and the exec
    keeps them ignored (SigIgn 0000000180000000 where the caller had 0). Raises OSError as posix_spawn does
    when the exec fails (the child reports its errno on a close-on-exec pipe)."""
    env = dict(env)
    env.pop(RECORD, None)
    env.pop(RECORD.encode(), None)
    read_end, write_end = posix.pipe2(posix.O_CLOEXEC)
    pid = posix.fork()
    if pid == 0:
        try:
            posix.close(read_end)
            for source, target in moves:
                if source == target:
                    posix.set_inheritable(target, True)
                else:
                    posix.dup2(source, target, True)
            give_back(env)
            posix.execve(path, argv, env)
        except OSError as exc:
            try:
                posix.write(write_end, b"%d" % (exc.errno or 1))
            finally:
                posix._exit(127)
        except BaseException:
            posix._exit(127)
    posix.close(write_end)
    try:
        said = posix.read(read_end, 16)
    finally:
        posix.close(read_end)
    if said:
        posix.waitpid(pid, 0)
        number = int(said)
        raise OSError(number, posix.strerror(number), path)
    return pid


def record_value() -> bytes:
    """A WISP_CALLER record of the caller's state for this pid (exec keeps it), for when this process execs
    another Python entry point (the `wisp run` client becoming the gated shell's driver, session/inside.py):
    what the new interpreter changes at its start-up is then not taken for the caller's."""
    kept = keep()
    argv0 = (kept.argv0 or "").encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    return b"%d:%x:%x:%s" % (posix.getpid(), _mask_of(kept.ignored), _mask_of(kept.blocked), argv0)


def was_closed(fd: int) -> bool:
    """Whether the caller left `fd` (0, 1 or 2) closed (it now holds a placeholder)."""
    return fd in keep().closed


def parse_record(value, pid: int):
    """(ignored, blocked, argv0) from a WISP_CALLER value recorded for `pid`, or None (absent, malformed, or
    another process's)."""
    if not value:
        return None
    if isinstance(value, bytes):
        value = value.decode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    fields = value.split(":", 3)
    if len(fields) != 4 or not fields[0].isdigit() or int(fields[0]) != pid:
        return None
    try:
        ignored, blocked = _signals_of(int(fields[1], 16)), _signals_of(int(fields[2], 16))
    except ValueError:
        return None
    return ignored, blocked, fields[3] or None


def caller_argv0(path: str, env, pid: int) -> str:
    """The argv[0] the caller used, as well as it can be known: a launcher's record for `pid` in `env`, else
    the bare name when PATH finds exactly `path` under it (an execvp by name), else `path` itself."""
    record = parse_record(env.get(RECORD), pid)
    if record is not None and record[2]:
        return record[2]
    if "/" not in path:
        return path
    name = path[path.rfind("/") + 1:]
    if not name:
        return path
    for directory in env.get("PATH", "/usr/local/bin:/usr/bin:/bin").split(":"):
        candidate = (directory or ".") + ("" if directory.endswith("/") else "/") + name
        if _executable(candidate):
            return name if candidate == path else path
    return path


# ---------------------------------------------------------------- helpers


def _hold_closed() -> tuple:
    closed = []
    for fd in (0, 1, 2):
        try:
            posix.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:       # in order: the lowest free fd is this one, so the open lands on it
        try:
            flags = getattr(posix, "O_PATH", 0) or posix.O_RDONLY
            placeholder = posix.open("/" if flags != posix.O_RDONLY else "/dev/null", flags | posix.O_CLOEXEC)
            if placeholder != fd:
                posix.dup2(placeholder, fd, False)
                posix.close(placeholder)
        except OSError:
            pass
    return tuple(closed)


def _environ_value():
    return posix.environ.get(RECORD.encode())          # the initial environment, bytes on POSIX


def _ignored_now() -> frozenset:
    ignored = set()
    for number in _signal.valid_signals():
        try:
            if _signal.getsignal(number) == _signal.SIG_IGN:
                ignored.add(number)
        except (OSError, ValueError):
            pass
    return frozenset(ignored)


def _blocked_now() -> frozenset:
    try:
        return frozenset(_signal.pthread_sigmask(_signal.SIG_BLOCK, ()))
    except (OSError, ValueError):
        return frozenset()


def _mask_of(signals) -> int:
    return sum(1 << (number - 1) for number in signals)


def _signals_of(mask: int) -> frozenset:
    return frozenset(bit + 1 for bit in range(mask.bit_length()) if mask >> bit & 1)


def _executable(path: str) -> bool:
    try:
        mode = posix.stat(path).st_mode
    except OSError:
        return False
    return mode & 0o170000 == 0o100000 and posix.access(path, posix.X_OK)


class _Closed:
    """sys.stdout or sys.stderr where the caller left the fd closed (CPython then sets them to None): what is
    written goes nowhere, as the caller asked, instead of failing the gate."""

    closed = False

    def write(self, data) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self):
        return self


def quiet_closed_streams() -> None:
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, _Closed())
