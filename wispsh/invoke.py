"""An sh argv -> an Outcome: what wispsh does with one invocation, decided by one code path for two callers.

`wispsh` in-process (cli/sh.py) and the `wisp run` supervisor (sandbox/judge.py, for a client inside the
namespace) both call `decide`. What differs is passed in: the argv's environment and directory, where the
config comes from (read now, or kept warm), where the real shell is, where answers come from, who is asking
(`here`), and whether the shell was started beneath a line the gate allowed (`beneath`: deny patterns only).
The outcome is data: exec this shell with this argv (and these bytes held on a sealed fd), or exit with this
status after writing this. The caller carries it out: cli/sh.py execs; the supervisor sends it to its client.

Hot path: nothing heavy at module level.
"""
from __future__ import annotations

import errno
import os

USAGE = 2

# The argv word that names the held text: the caller replaces it with ". /dev/fd/N" once the fd is placed.
HELD_WORD = ". \0held"


class Outcome:
    """Exec `shell` with `argv` (the env plus `env_add`, less `env_drop`; `held` bytes readable at the fd named
    by the argv word HELD_WORD), or, when `shell` is None, write `stdout`/`stderr` and exit with `status`.
    `line`: the exec runs a checked line (what a nested shell beneath it counts as an allowed line); `config`:
    the config it was judged under (in-process, the nested token carries what it needs of it)."""

    __slots__ = ("status", "stdout", "stderr", "shell", "argv", "env_add", "env_drop", "held", "line", "config",
                 "session", "beneath")

    def __init__(self, *, status=0, stdout="", stderr="", shell=None, argv=(), env_add=None, env_drop=(),
                 held=None, line=False, config=None, session=None):
        self.status, self.stdout, self.stderr = status, stdout, stderr
        self.shell, self.argv, self.env_add, self.held, self.line = shell, tuple(argv), env_add or {}, held, line
        self.env_drop, self.config = tuple(env_drop), config
        # a gated shell (no line: commands typed or piped into it, session/): the caller runs the session with
        # `shell` as its real shell; argv is its argv0, options and operands; session says how it is driven
        self.session: dict | None = session
        # a line beneath an allowed one (cli/sh.py beneath_outcome): its shell keeps the token, none is minted
        self.beneath = False

    def __repr__(self) -> str:
        if self.shell:
            return f"Outcome(exec {self.shell} {list(self.argv)!r} +{self.env_add} line={self.line})"
        return f"Outcome(exit {self.status} stdout={self.stdout!r} stderr={self.stderr!r})"


def exits(status: int, *, stdout: str = "", stderr: str = "") -> Outcome:
    return Outcome(status=status, stdout=stdout, stderr=stderr)


def refusal(message: str, warnings=()) -> Outcome:
    from wispsh.realshell import REFUSED, refusal_line

    said = ""
    if warnings:
        from wispsh.flow import warning_lines

        said = warning_lines(warnings)
    return Outcome(status=REFUSED, stderr=said + refusal_line(message) + "\n")


def runs(shell: str, argv, depth: int, *, line: bool, held: bytes | None = None, config=None,
         env_drop=()) -> Outcome:
    from wispsh.decide.nested import GATED_VARIABLE
    from wispsh.realshell import DEPTH_VARIABLE

    env_add = {DEPTH_VARIABLE: str(depth)}
    if line:
        env_add[GATED_VARIABLE] = "1"
    return Outcome(shell=shell, argv=argv, env_add=env_add, held=held, line=line, config=config, env_drop=env_drop)


def beneath_gated_line(env, pid: int) -> bool:
    """True when the process `pid` was started, at any depth, by a line that a gate checked (an agent's
    command): env says so, or the environment some ancestor was started with does (unsetting the variable
    does not change that record)."""
    from wispsh.decide.nested import GATED_VARIABLE

    if env.get(GATED_VARIABLE):
        return True
    from wispsh.decide.session import gated_ancestor

    return gated_ancestor(pid) is not None


def decide(argv, *, env, cwd: str, stdin_is_tty: bool, read_stdin, find_shell, config=None, answers=None,
           here=None, allow_yes=True, pid: int | None = None, source: str = "wispsh",
           beneath: dict | None = None, plans: list | None = None) -> Outcome:
    """The Outcome for `argv` run with `env` in `cwd`. Never raises: an error anywhere refuses (126).

    read_stdin() -> bytes: the script on stdin (only called for that mode).
    find_shell(invocation, config, env) -> the real shell's path, or raises realshell.ShellNotFound.
    config: a Config, or a callable that returns one (raises ConfigError); None: read the wisp home's now.
    answers: see flow.verdict. here: the asking process (decide.session.Here), None for this process.
    allow_yes: whether --yes may answer (never for a request that came over the `wisp run` socket).
    pid: the asking process, for the --yes ancestry check (None: this process).
    beneath: set when the shell was started beneath a line the gate allowed: deny patterns only, no question.
    plans: when a list, every plan judged is added to it (flow.verdict's `seen`).
    """
    if here is not None:                  # who asks, for the store and the grants (decide.session.here)
        from wispsh.decide import session

        session.asking_for(here)
    try:
        return _decide(argv, env=env, cwd=cwd, stdin_is_tty=stdin_is_tty, read_stdin=read_stdin,
                       find_shell=find_shell, config=config, answers=answers, allow_yes=allow_yes,
                       pid=pid, source=source, beneath=beneath, plans=plans)
    except Exception as exc:
        return refusal(f"wispsh: not run: internal error ({type(exc).__name__}: {exc})")
    finally:
        if here is not None:
            session.asking_for(None)


def _config(config):
    if config is None:
        from wispsh.config import load_config

        return load_config()
    return config() if callable(config) else config


def _decide(argv, *, env, cwd, stdin_is_tty, read_stdin, find_shell, config, answers, allow_yes, pid,
            source, beneath, plans=None) -> Outcome:
    from wispsh import realshell
    from wispsh import invocation as shell
    from wispsh.config import ConfigError

    from wispsh.support.inherited import caller_argv0

    argv0 = caller_argv0(argv[0], env, _pid(pid)) if argv else None
    try:
        invocation = shell.parse(argv, stdin_is_tty=stdin_is_tty, argv0=argv0)
    except shell.UsageError as exc:
        return exits(USAGE, stderr=f"wispsh: {exc}\n")
    if invocation.mode == shell.HELP:
        return exits(0, stdout=shell.HELP_TEXT)
    if invocation.mode == shell.VERSION:
        from wispsh import __version__

        return exits(0, stdout=f"wispsh {__version__}\n")
    if invocation.mode == shell.COMMAND and not invocation.explain and beneath is None:
        _start_guard(invocation.line)       # as early as the line is known: it parses while the rest loads
    try:
        config = _config(config)
    except ConfigError as exc:
        if invocation.explain:                  # --explain: say it, exit as "would refuse"
            return exits(3, stderr=f"wispsh: config error: {exc}\n")
        return refusal(f"wispsh: not run: config error: {exc}")
    mode = invocation.mode
    if invocation.explain and mode not in (shell.COMMAND, shell.SCRIPT, shell.STDIN):
        return exits(USAGE, stderr="wispsh: --explain needs a line (-c LINE), a script file, or a script on stdin\n")
    real_shell = depth = None
    if not invocation.explain:
        depth = realshell.next_depth(env)
        too_deep = realshell.depth_refusal(depth)
        if too_deep:
            return refusal(too_deep)
        try:
            real_shell = find_shell(invocation, config, env)
        except realshell.ShellNotFound as exc:
            return refusal(f"wispsh: not run: {exc}")
        grammar = shell.grammar_of(real_shell)
        if grammar != invocation.grammar:      # read argv as the shell that will run reads it
            invocation = shell.parse(argv, stdin_is_tty=stdin_is_tty, grammar=grammar, argv0=argv0)
            mode = invocation.mode
        invocation = invocation.run_by(real_shell)

    if mode == shell.STDIN and not invocation.explain and _parse_only(invocation.options):
        # `bash -n < x` (SWE-ReX's pre-check): the shell reads its input, checks the syntax and runs none of it
        return runs(real_shell, invocation.passthrough_argv(), depth, line=False)
    if mode in (shell.INTERACTIVE, shell.STDIN) and not invocation.explain:
        # also beneath an allowed line: what is typed or piped into a shell comes from whoever holds its input
        # (Codex's `bash -lc 'bash --norc'`, then writes to it), not from the line that was allowed
        return _gated_shell(invocation, env=env, cwd=cwd, config=config, real_shell=real_shell, depth=depth,
                            answers=answers, source=source)
    if mode in (shell.INTERACTIVE, shell.PASSTHROUGH):
        # Passthrough: the shell only prints or refuses; not a checked line.
        return runs(real_shell, invocation.passthrough_argv(), depth, line=False)
    if mode == shell.COMMAND:
        text = invocation.line
        data = None
    else:
        data, error = ((read_stdin(), None) if mode == shell.STDIN
                       else read_script_or_error(invocation.script, env, None if invocation.explain else real_shell,
                                                 cwd=cwd))
        if data is None:  # unreadable script: the real shell's message and status, and nothing runs
            if invocation.explain:
                return exits(USAGE, stderr=f"wispsh: cannot read {invocation.script}\n")
            message, status = realshell.unreadable_script(real_shell, invocation.argv0, invocation.script, error)
            return exits(status, stderr=message + "\n")
        if len(data) >= READ_LIMIT:      # not read whole: refused before any parsing, never run in part
            what = f"{READ_LIMIT - 1:,} bytes"
            if invocation.explain:
                return exits(3, stderr=f"wispsh: would refuse: the script is over {what}, the most wispsh checks\n")
            return refusal(f"wispsh: not run: the script is over {what}, the most wispsh checks; nothing ran")
        text = data.decode("utf-8", "surrogateescape")

    from wispsh import flow

    operands = invocation.args if mode == shell.COMMAND else ()   # $0 $1 …: an agent's template may use them
    started = None
    if mode == shell.SCRIPT:        # an installed tool run through its #! line: judged as it was started
        from wispsh.agents import installed

        started = installed.as_started(invocation.script, invocation.args, data, env, cwd)
    judged = text if started is None else (started.line or "")
    if invocation.explain:
        notes, also = _startup_for_explain(invocation, env, config, mode, find_shell)
        notes = notes + ((started.note,) if started is not None else ())
        status, out, err = flow.explained(judged, as_json=invocation.json, args=operands, config=config, cwd=cwd,
                                          env=env, notes=notes, also=also, stdin_tty=stdin_is_tty)
        return exits(status, stdout=out, stderr=err)
    # script and stdin modes run the text through `. /dev/fd/N`: a function named `.` would run instead
    warnings: list[str] = []             # what went wrong remembering or auditing: said on stderr
    texts = (text,) if mode == shell.COMMAND else (text, ". ")
    implicit = shell.implicit_code(invocation, env, real_shell, texts)   # what the shell runs besides the text
    if beneath is not None:
        for checked in (judged, *implicit):
            refused = flow.beneath_allowed(checked, config=config, cwd=cwd, beneath=beneath["pid"])
            if refused is not None:
                return refusal(refused)
    elif started is not None and started.line is None:
        _audit_hook(config, started, cwd)       # git's own step: said in the audit, nothing to judge
    else:
        _start_guard(judged)                # (a script's text: known only now)
        # --yes said by a line beneath a checked one is an agent approving itself: it answers nothing
        yes = allow_yes and invocation.yes and not beneath_gated_line(env, _pid(pid))
        common = dict(yes=yes, config=config, cwd=cwd, env=env, answers=answers, source=source, warnings=warnings,
                      seen=plans, stdin_tty=stdin_is_tty)
        reports = _syntax_check(invocation, real_shell, env, cwd) if mode == shell.COMMAND and started is None \
            else None
        refused = flow.verdict(judged, args=operands, shell_reports=reports, **common)
        for checked in implicit:
            if refused is not None:
                break
            refused = flow.verdict(checked, **common)
        if refused is not None:
            return refusal(refused, warnings)

    if mode == shell.COMMAND:
        outcome = runs(real_shell, invocation.command_argv(), depth, line=True, config=config)
    else:
        outcome = runs(real_shell, invocation.source_argv(HELD_WORD[2:]), depth, line=True, held=data, config=config)
    outcome.stderr = flow.warning_lines(warnings)          # said before the shell runs
    return outcome


def _syntax_check(invocation, real_shell: str, env, cwd: str):
    """shell_reports for flow.verdict: whether the real shell would stop at a syntax error in the line before
    it runs any of it. Only where nothing the shell reads first could change its reading of the line: not
    interactive, no start-up file at all (one could define aliases, and alias text can hold a newline)."""
    def reports(text: str) -> bool:
        from wispsh import realshell, startup

        if invocation.interactive or startup.read_by(invocation, env, real_shell):
            return False
        return realshell.reports_syntax_error_first(real_shell, invocation.argv0, invocation.options, text, env,
                                                    cwd)
    return reports


def _restricted(invocation, real_shell: str) -> bool:
    names = (os.path.basename(invocation.argv0).lstrip("-"), os.path.basename(os.path.realpath(real_shell)))
    return any(n.startswith("rbash") for n in names) or any(
        w in ("--restricted", "-restricted") or w[:1] == "-" and not w.startswith("--") and "r" in w[1:]
        and w not in ("-o", "-O") for w in invocation.options)


def _parse_only(options) -> bool:
    """Whether these options leave noexec on (`-n`, `-o noexec`; the last of -n/+n wins): a shell that is not
    interactive then reads its commands and runs none of them."""
    options = list(options)
    on = False
    for i, word in enumerate(options):
        if word in ("-o", "+o") and options[i + 1:i + 2] == ["noexec"]:
            on = word == "-o"
        elif word[:1] in "-+" and not word.startswith("--") and "n" in word[1:] and word not in ("-o", "+o", "-O", "+O"):
            on = word[0] == "-"
    return on


def _gated_shell(invocation, *, env, cwd, config, real_shell, depth, answers, source) -> Outcome:
    """A shell started without a line (its commands typed or piped in): a gated shell (session/), each command
    judged before it runs. What the shell runs at start besides (an untrusted --rcfile, BASH_ENV, exported
    functions) is judged first. Not a checked line: nothing it starts counts as beneath an allowed line (its
    token above is dropped), and approvals of the shell itself (`bash *`) cover nothing typed into it."""
    from wispsh import flow
    from wispsh import invocation as shell
    from wispsh.decide.nested import VARIABLE

    if _restricted(invocation, real_shell):
        return refusal("wispsh: not run: a restricted shell (-r, rbash) cannot be a gated shell: the gate's plumbing "
                       "needs the redirections it forbids; give it its commands with -c; nothing ran")
    warnings: list[str] = []
    for checked in shell.implicit_code(invocation, env, real_shell, ("",)):
        refused = flow.verdict(checked, config=config, cwd=cwd, env=env, answers=answers, source=source,
                               warnings=warnings)
        if refused is not None:
            return refusal(refused, warnings)
    base = os.path.basename(os.path.realpath(real_shell))
    family = "bash" if base.startswith("bash") else "zsh" if base.startswith("zsh") else "posix"
    interactive = invocation.mode == shell.INTERACTIVE
    options, posix = invocation.options, False
    if interactive and family != "bash":
        # only bash's line editor can hand the gate each typed line: an interactive sh is bash in posix mode
        # (dash has no line editing to lose), an interactive zsh or ksh is bash; without a bash, the piped driver
        from wispsh import realshell

        try:
            bash = realshell.find_shell("bash", config, env, invocation.argv[0])
        except realshell.ShellNotFound:
            bash = None
        if bash is not None:
            posix = family == "posix"
            real_shell, family = bash, "bash"
            options = tuple(w for w in options if posix and w[:1] in "-+" and not w.startswith("--")) + (
                () if posix else ("--norc",))
    outcome = runs(real_shell, (invocation.argv0, *options, *invocation.args), depth, line=False,
                   env_drop=(VARIABLE,))
    outcome.session = {"family": family, "interactive": interactive, "login": invocation.login,
                       "options": len(options), "posix": posix}
    outcome.stderr = flow.warning_lines(warnings)
    return outcome


def _start_guard(text: str) -> None:
    """The crash guard's child (parse/split.py) started on `text` now, so that it parses while the gate reads
    its config and loads its rules; a no-op where the guard is off (the `wisp run` supervisor). Not for a line
    an agent's template may wrap: its payload is split first."""
    from wispsh.agents.marks import may_be_plumbing
    from wispsh.parse import split

    if not may_be_plumbing(text):
        split.start_guard(text)


def _pid(pid: int | None) -> int:
    return os.getpid() if pid is None else pid


def _audit_hook(config, started, cwd: str) -> None:
    from wispsh.decide import audit

    try:
        audit.append(config.home, [audit.event("installed-script", line=started.path, decision="git-hook",
                                                      reasons=[started.note], cwd=cwd)])
    except OSError:
        pass                # best effort, as for the nested path: git's step runs either way


def _startup_for_explain(invocation, env, config, mode: str, find_shell) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """For --explain: notes naming the start-up files the real shell reads (trusted or not), and the code it
    runs besides the text (the untrusted ones, BASH_ENV, ...), judged like the check does."""
    from wispsh import realshell, startup
    from wispsh import invocation as shell

    try:
        real_shell = find_shell(invocation, config, env)
    except realshell.ShellNotFound:
        return (), ()
    text = invocation.line if mode == shell.COMMAND else ""
    texts = (text,) if mode == shell.COMMAND else (text, ". ")
    return (startup.notes(startup.read_by(invocation, env, real_shell)),
            shell.implicit_code(invocation, env, real_shell, texts))


# ---------------------------------------------------------------- reading a script once

# The most bytes read from a script or stdin: one more than wispsh judges (flow.MAX_TEXT), so that a bigger
# text is refused without being read whole.
READ_LIMIT = 4 * 1024 * 1024 + 1


def _read_all(fd: int, limit: int = READ_LIMIT) -> bytes:
    chunks, size = [], 0
    while size < limit:
        try:
            chunk = os.read(fd, min(1 << 16, limit - size))
        except OSError as exc:
            if exc.errno != errno.EBADF:
                raise
            chunk = b""             # stdin closed by the caller: bash reads that as the end of its input
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


# A script named without a slash and missing from the current directory is looked up on PATH by bash
# (zsh with PATH_SCRIPT, ksh); dash does not. wispsh must read the file the shell would run.
SHELLS_THAT_DO_NOT_SEARCH_PATH = ("dash",)


def _script_places(name: str, env: dict[str, str], real_shell: str | None):
    yield name
    if os.sep in name or (real_shell and os.path.basename(os.path.realpath(real_shell))
                          in SHELLS_THAT_DO_NOT_SEARCH_PATH):
        return
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        yield os.path.join(directory or ".", name)


def read_script_or_error(name: str, env: dict[str, str], real_shell: str | None,
                         cwd: str | None = None) -> tuple[bytes | None, OSError | None]:
    """The script's bytes, read once; or why it cannot be read (the first place's error, as the shell says; a
    file `real_shell` would refuse to run as binary, realshell.BinaryScript). Relative places are taken from
    `cwd` (default: this process's directory)."""
    from wispsh import realshell

    first: OSError | None = None
    reads_dirs_as_empty = bool(real_shell) and os.path.basename(os.path.realpath(real_shell)) == "dash"
    for named in _script_places(name, env, real_shell):
        place = os.path.join(cwd, named) if cwd is not None and not os.path.isabs(named) else named
        try:
            fd = os.open(place, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError as exc:
            first = first or exc
            continue  # like bash: only a missing file sends it on to PATH
        except OSError as exc:
            return None, exc
        try:
            data = _read_all(fd)
            checked = bool(real_shell) and _seekable(fd)    # bash checks only what it can read twice
        except OSError as exc:  # e.g. a directory
            if exc.errno == errno.EISDIR and reads_dirs_as_empty:
                return b"", None
            return None, exc
        finally:
            os.close(fd)
        if checked and realshell.refuses_as_binary(real_shell, data):
            return None, realshell.BinaryScript(named)
        return data, None
    return None, first or FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)


def _seekable(fd: int) -> bool:
    if os.isatty(fd):
        return False
    try:
        os.lseek(fd, 0, os.SEEK_CUR)
    except OSError:
        return False
    return True


def read_script(name: str, env: dict[str, str], real_shell: str | None) -> bytes | None:
    """The script's bytes, read once; None when it cannot be read."""
    return read_script_or_error(name, env, real_shell)[0]

