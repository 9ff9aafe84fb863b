"""`wispsh`: parse argv as sh would, get the exact text to gate, gate it, exec the real shell on that text.

Hot path: imports stay lazy (no click, psutil or platformdirs here).

Script and stdin modes read the text once, gate it, and have the shell run those bytes from a sealed memfd:
`SHELL [opts] -c -- '. /dev/fd/N' NAME ARGS`. `$0` and `$1`... are as for the file. What differs from
the shell reading the file itself: bash's BASH_SOURCE[0] and its error prefixes say /dev/fd/N; a top-level
`return` ends the script quietly (bash would complain and go on); `set -x`/`-v` also show the `. /dev/fd/N`
line; zsh sets $0 to /dev/fd/N inside (FUNCTION_ARGZERO); a script read from stdin finds stdin at its end
(bash -s would let the script's own `read` take the lines that follow it).
"""
from __future__ import annotations

import errno
import os
import sys

USAGE = 2

HELP = """\
usage: wispsh [--yes] [sh options] -c LINE [NAME [ARG...]]
       wispsh [--yes] [sh options] SCRIPT [ARG...]
       wispsh --explain [--json] -c LINE | SCRIPT     (or a script on stdin)

wispsh stands in for sh: it splits the line (or script) into every command it
runs, rates each from safe to dangerous, asks a person about those at or above
the threshold, then runs exactly that text with the real shell. A refused line
exits 126 with one line on stderr.

wispsh's own options (first, before any shell option):
  --explain   print the plan (parts, levels, what would be asked); never asks,
              writes or runs. Exit 0 would run, 1 would ask, 3 would refuse.
  --json      with --explain: the plan as JSON (the schema in the README)
  --yes       answer every question "once" (deny patterns still refuse; ignored
              beneath a line wispsh already checked)
  --version   print the version
  --help      this text

Every other option is the real shell's (bash where present, else sh; config
shell.default), passed on unchanged: see `bash --help`. Approvals, the audit
and `wisp watch`: see `wisp --help`.
"""

# The most bytes read from a script or stdin: one more than wispsh judges (flow.MAX_TEXT), so that a bigger
# text is refused without being read whole.
READ_LIMIT = 4 * 1024 * 1024 + 1


def _read_all(fd: int, limit: int = READ_LIMIT) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(1 << 16, limit - size))
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


def read_script_or_error(name: str, env: dict[str, str], real_shell: str | None) -> tuple[bytes | None, OSError | None]:
    """The script's bytes, read once; or why it cannot be read (the first place's error, as the shell says)."""
    first: OSError | None = None
    reads_dirs_as_empty = bool(real_shell) and os.path.basename(os.path.realpath(real_shell)) == "dash"
    for place in _script_places(name, env, real_shell):
        try:
            fd = os.open(place, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError as exc:
            first = first or exc
            continue  # like bash: only a missing file sends it on to PATH
        except OSError as exc:
            return None, exc
        try:
            return _read_all(fd), None
        except OSError as exc:  # e.g. a directory
            if exc.errno == errno.EISDIR and reads_dirs_as_empty:
                return b"", None
            return None, exc
        finally:
            os.close(fd)
    return None, first or FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)


def read_script(name: str, env: dict[str, str], real_shell: str | None) -> bytes | None:
    """The script's bytes, read once; None when it cannot be read."""
    return read_script_or_error(name, env, real_shell)[0]


def beneath_gated_line(env: dict[str, str]) -> bool:
    """True when this wispsh was started, at any depth, by a line that a gate checked (an agent's command):
    our environment says so, or the environment some ancestor was started with does (unsetting the
    variable does not change that record)."""
    from wispsh.realshell import GATED_VARIABLE

    if env.get(GATED_VARIABLE):
        return True
    from wispsh.decide.session import gated_ancestor

    return gated_ancestor(os.getpid()) is not None


def main(argv: list[str] | None = None) -> int:
    """Fail closed around everything: an error anywhere before the exec refuses (126), never runs the line."""
    try:
        return _main(argv)
    except Exception as exc:                    # SystemExit and the exec itself are not errors
        from wispsh.realshell import refuse

        refuse(f"wispsh: not run: internal error ({type(exc).__name__}: {exc})")


class _AllowedConfig:
    """The config a line beneath an allowed one runs under: the one the allowing line was judged with, as
    its token carries it (real shells; deny patterns are read from the wisp home only when it had some)."""

    deny: tuple[str, ...] = ()

    def __init__(self, path: str, shells: dict):
        self.path, self.shells = path, shells

    def shell_path(self, name: str) -> str | None:
        return self.shells.get(name)


def _deny_hit(text: str, config):
    """The deny patterns alone, exactly as the full gate applies them (split, keys, policy/deny.py)."""
    from wispsh import keys
    from wispsh.model import Judged, Level, Verdict
    from wispsh.parse import split
    from wispsh.policy import deny

    parsed = split.split_line(text)
    judged = tuple(Judged(p, keys.key_for(p), Verdict(Level.SAFE, ())) for p in parsed.parts)
    return deny.check(parsed, judged, config)


def _beneath_allowed_line(argv: list[str]) -> None:
    """A line beneath a line the gate allowed (decide/nested.py): the deny patterns only, a compact audit
    event, then the real shell. Returns when the token does not hold (the line is then judged in full)."""
    from wispsh.cli import shell
    from wispsh.decide import nested
    from wispsh.support import signing

    try:
        invocation = shell.parse(argv, stdin_is_tty=os.isatty(0))
    except shell.UsageError:
        return
    if invocation.explain or invocation.yes or invocation.mode not in (shell.COMMAND, shell.SCRIPT, shell.STDIN):
        return
    env = os.environ
    home = signing.wisp_home(env)
    allowed = nested.allowing_ancestor(env, home)
    if allowed is None:
        return
    config = _AllowedConfig(os.path.join(home, "config.json"), allowed.shells)
    if allowed.deny:                                # the user's own deny patterns: the config module reads them
        from pathlib import Path

        from wispsh.config import ConfigError, load_config

        try:
            config = load_config(Path(home))
        except ConfigError:
            return
    from wispsh import realshell

    env = dict(env)
    try:
        real_shell = realshell.find_shell(invocation.shell_name, config, env, invocation.argv0)
    except realshell.ShellNotFound:
        return
    grammar = shell.grammar_of(real_shell)
    if grammar != invocation.grammar:
        invocation = shell.parse(argv, stdin_is_tty=os.isatty(0), grammar=grammar)
        if invocation.mode not in (shell.COMMAND, shell.SCRIPT, shell.STDIN):
            return
    depth = realshell.next_depth(env)
    realshell.check_depth(depth)
    data = None
    if invocation.mode == shell.COMMAND:
        text = invocation.line
    elif invocation.mode == shell.SCRIPT:
        data = read_script(invocation.script, env, real_shell)
        if data is None:
            return                                  # the full path says what the shell would say
        text = data.decode("utf-8", "surrogateescape")
    else:
        data = _read_all(0)                         # read once: from here on this path decides
        text = data.decode("utf-8", "surrogateescape")
    if nested.needs_deny_check(text, bool(config.deny)):
        hit = _deny_hit(text, config)
        if hit is not None:
            from wispsh.decide.audit import redact

            matched = redact(" ".join(hit.matched.split())[:160])
            realshell.refuse(f"wispsh: not run: {matched!r} matches the deny pattern {hit.pattern!r}; nothing ran")
    nested.audit(home, text, allowed.pid, os.getcwd())
    if invocation.mode == shell.COMMAND:
        realshell.exec_shell(real_shell, invocation.command_argv(), env, depth, gated=True, mint=False)
    realshell.exec_shell(real_shell, invocation.source_argv(realshell.hold_text(data)), env, depth, gated=True,
                         mint=False)


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    if os.environ.get("WISP_ALLOWED"):            # decide.nested.VARIABLE: checked before any heavy import
        _beneath_allowed_line(argv)
    from wispsh import realshell
    from wispsh.cli import shell

    try:
        invocation = shell.parse(argv, stdin_is_tty=os.isatty(0))
    except shell.UsageError as exc:
        sys.stderr.write(f"wispsh: {exc}\n")
        return USAGE
    if invocation.mode == shell.HELP:
        sys.stdout.write(HELP)
        return 0
    if invocation.mode == shell.VERSION:
        from wispsh import __version__

        sys.stdout.write(f"wispsh {__version__}\n")
        return 0

    from wispsh.config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as exc:
        if invocation.explain:                  # --explain: say it, exit as "would refuse"
            sys.stderr.write(f"wispsh: config error: {exc}\n")
            return 3
        realshell.refuse(f"wispsh: not run: config error: {exc}")
    env = dict(os.environ)
    mode = invocation.mode
    if invocation.explain and mode not in (shell.COMMAND, shell.SCRIPT, shell.STDIN):
        sys.stderr.write("wispsh: --explain needs a line (-c LINE), a script file, or a script on stdin\n")
        return USAGE
    if not invocation.explain:
        depth = realshell.next_depth(env)
        realshell.check_depth(depth)
        try:
            real_shell = realshell.find_shell(invocation.shell_name, config, env, invocation.argv0)
        except realshell.ShellNotFound as exc:
            realshell.refuse(f"wispsh: not run: {exc}")
        grammar = shell.grammar_of(real_shell)
        if grammar != invocation.grammar:      # read argv as the shell that will run reads it
            invocation = shell.parse(argv, stdin_is_tty=os.isatty(0), grammar=grammar)
            mode = invocation.mode

    if mode in (shell.INTERACTIVE, shell.PASSTHROUGH):
        # Interactive: gating typed lines comes later. Passthrough: the shell only prints or refuses.
        if mode == shell.INTERACTIVE:
            from wispsh.decide.nested import VARIABLE

            env.pop(VARIABLE, None)     # an interactive shell started without a line is never an allowed line
        realshell.exec_shell(real_shell, invocation.passthrough_argv(), env, depth)
    if mode == shell.COMMAND:
        text = invocation.line
        data = None
    else:
        data, error = ((_read_all(0), None) if mode == shell.STDIN
                       else read_script_or_error(invocation.script, env, None if invocation.explain else real_shell))
        if data is None:  # unreadable script: the real shell's message and status, and nothing runs
            if invocation.explain:
                sys.stderr.write(f"wispsh: cannot read {invocation.script}\n")
                return USAGE
            realshell.refuse_unreadable_script(real_shell, invocation.argv0, invocation.script, error)
        if len(data) >= READ_LIMIT:      # not read whole: refused before any parsing, never run in part
            what = f"{READ_LIMIT - 1:,} bytes"
            if invocation.explain:
                sys.stderr.write(f"wispsh: would refuse: the script is over {what}, the most wispsh checks\n")
                return 3
            realshell.refuse(f"wispsh: not run: the script is over {what}, the most wispsh checks; nothing ran")
        text = data.decode("utf-8", "surrogateescape")

    from wispsh import flow
    from wispsh.parse import split

    split.guard_native_crashes()   # this process is the gate: a parser that crashes natively is a judged part
    import gc

    gc.disable()    # a short-lived process of acyclic data: the cyclic collector only made big lines superlinear
    operands = invocation.args if mode == shell.COMMAND else ()   # $0 $1 …: an agent's template may use them
    started = None
    if mode == shell.SCRIPT:        # an installed tool run through its #! line: judged as it was started
        from wispsh.agents import installed

        started = installed.as_started(invocation.script, invocation.args, data, env, os.getcwd())
    judged = text if started is None else (started.line or "")
    if invocation.explain:
        notes, also = _startup_for_explain(invocation, env, config, mode)
        notes = notes + ((started.note,) if started is not None else ())
        return flow.explain(judged, as_json=invocation.json, args=operands, config=config, notes=notes, also=also)
    # --yes said by a line beneath a checked one is an agent approving itself: it answers nothing
    yes = invocation.yes and not beneath_gated_line(env)
    if started is not None and started.line is None:
        _audit_hook(config, started)            # git's own step: said in the audit, nothing to judge
    else:
        flow.check(judged, yes=yes, args=operands, config=config)  # returns only when all may run; else exits 126
    # script and stdin modes run the text through `. /dev/fd/N`: a function named `.` would run instead
    runs = (text,) if mode == shell.COMMAND else (text, ". ")
    for implicit in shell.implicit_code(invocation, env, real_shell, runs):
        flow.check(implicit, yes=yes, config=config)     # what the shell runs besides the text is checked too

    if mode == shell.COMMAND:
        realshell.exec_shell(real_shell, invocation.command_argv(), env, depth, gated=True, config=config)
    realshell.exec_shell(real_shell, invocation.source_argv(realshell.hold_text(data)), env, depth, gated=True,
                         config=config)
    return REFUSED_UNREACHABLE


def _audit_hook(config, started) -> None:
    from wispsh.decide import audit

    try:
        audit.append(config.path.parent, [audit.event("installed-script", line=started.path, decision="git-hook",
                                                      reasons=[started.note], cwd=os.getcwd())])
    except OSError:
        pass                # best effort, as for the nested path: git's step runs either way


def _startup_for_explain(invocation, env: dict[str, str], config, mode: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """For --explain: notes naming the start-up files the real shell reads (trusted or not), and the code it
    runs besides the text (the untrusted ones, BASH_ENV, ...), judged like the check does."""
    from wispsh import realshell, startup
    from wispsh.cli import shell

    try:
        real_shell = realshell.find_shell(invocation.shell_name, config, env, invocation.argv0)
    except realshell.ShellNotFound:
        return (), ()
    text = invocation.line if mode == shell.COMMAND else ""
    runs = (text,) if mode == shell.COMMAND else (text, ". ")
    return (startup.notes(startup.read_by(invocation, env, real_shell)),
            shell.implicit_code(invocation, env, real_shell, runs))


REFUSED_UNREACHABLE = 126  # exec_shell never returns; fail closed if it ever did


if __name__ == "__main__":
    sys.exit(main())
