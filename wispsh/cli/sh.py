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

import os
import sys

USAGE = 2

def beneath_gated_line(env: dict[str, str]) -> bool:
    """True when this wispsh was started, at any depth, by a line that a gate checked (an agent's command)."""
    from wispsh.invoke import beneath_gated_line as beneath

    return beneath(env, os.getpid())


def main(argv: list[str] | None = None) -> int:
    """Fail closed around everything: an error anywhere before the exec refuses (126), never runs the line.

    Inside a `wisp run` namespace the in-process gate is not used: the supervisor outside judges, and this
    process is its client (sandbox/client.py), whatever started it (a shim, the console script)."""
    import gc

    from wispsh.support import inherited

    inherited.keep()                # the caller's signals, mask and closed fds, before anything opens a file
    inherited.quiet_closed_streams()
    # A short-lived process of acyclic data: the cyclic collector only made big lines superlinear, and off
    # before the imports it no longer walks every code object they unmarshal (~1 ms of each start-up).
    gc.disable()
    from wispsh.support import hotload

    hotload.install()               # the package's modules from one file (when it is there and current)
    try:
        from wispsh.sandbox.client import inside_run

        where = inside_run()
        if where is not None:
            from wispsh.sandbox.client import main as client

            client(where, list(sys.argv if argv is None else argv), launcher=False)
        return _main(argv)
    except Exception as exc:                    # SystemExit and the exec itself are not errors
        from wispsh.realshell import refuse

        refuse(f"wispsh: not run: internal error ({type(exc).__name__}: {exc})")


class _AllowedConfig:
    """The config a line beneath an allowed one runs under: the one the allowing line was judged with, as
    its token carries it (real shells; deny patterns are read from the wisp home only when it had some)."""

    deny: tuple[str, ...] = ()
    known_shells: tuple[str, ...] = ()

    def __init__(self, path: str, shells: dict):
        self.path, self.shells = path, shells

    def shell_path(self, name: str) -> str | None:
        return self.shells.get(name)


def _deny_hit(text: str, config):
    """The deny patterns alone, exactly as the full gate applies them (split, keys, policy/deny.py)."""
    from wispsh.pipeline import deny_only

    return deny_only(text, config)


def _beneath_allowed_line(argv: list[str]) -> None:
    """A line beneath a line the gate allowed (decide/nested.py), in this process: carried out when the token
    holds (never returns then); returns when it does not (the line is then judged in full)."""
    outcome = beneath_outcome(argv, os.environ, os.getcwd(), os.getpid(), os.isatty(0))
    if outcome is not None:
        perform(outcome, dict(os.environ))


def beneath_outcome(argv: list[str], env, cwd: str, pid: int, stdin_is_tty: bool):
    """The Outcome for a line beneath a line the gate allowed: the deny patterns only, a compact audit event,
    then the real shell (its token kept, none minted); None when the token does not hold for `pid` (the line
    is then judged in full). Also the plain mode's warm judge's answer for its client `pid` (warm/judge.py)."""
    from wispsh import invoke
    from wispsh import invocation as shell
    from wispsh.decide import nested
    from wispsh.invoke import read_script_or_error
    from wispsh.support import signing
    from wispsh.support.inherited import caller_argv0

    argv0 = caller_argv0(argv[0], env, pid)
    try:
        invocation = shell.parse(argv, stdin_is_tty=stdin_is_tty, argv0=argv0)
    except shell.UsageError:
        return None
    # a shell without a line is a gated shell (session/) even here: its commands are not the allowed line's
    if invocation.explain or invocation.yes or invocation.mode not in (shell.COMMAND, shell.SCRIPT):
        return None
    home = signing.wisp_home(env)
    allowed = nested.allowing_ancestor(env, home, pid)
    if allowed is None:
        return None
    config = _AllowedConfig(os.path.join(home, "config.json"), allowed.shells)
    if allowed.deny:                                # the user's own deny patterns: the config module reads them
        from pathlib import Path

        from wispsh.config import ConfigError, load_config

        try:
            config = load_config(Path(home))
        except ConfigError:
            return None
    from wispsh import realshell

    env = dict(env)
    try:
        real_shell = realshell.find_shell(invocation.shell_name, config, env, invocation.argv[0])
    except realshell.ShellNotFound:
        return None
    grammar = shell.grammar_of(real_shell)
    if grammar != invocation.grammar:
        invocation = shell.parse(argv, stdin_is_tty=stdin_is_tty, grammar=grammar, argv0=argv0)
        if invocation.mode not in (shell.COMMAND, shell.SCRIPT):
            return None
    invocation = invocation.run_by(real_shell)
    depth = realshell.next_depth(env)
    too_deep = realshell.depth_refusal(depth)
    if too_deep:
        return invoke.refusal(too_deep)
    data = None
    if invocation.mode == shell.COMMAND:
        text = invocation.line
    else:
        data = read_script_or_error(invocation.script, env, real_shell, cwd=cwd)[0]
        if data is None:
            return None                             # the full path says what the shell would say
        text = data.decode("utf-8", "surrogateescape")
    if nested.needs_deny_check(text, bool(config.deny)):
        hit = _deny_hit(text, config)
        if hit is not None:
            from wispsh.decide.gate import deny_refusal

            nested.audit(home, text, allowed.pid, cwd, decision="denied-pattern", pattern=hit.pattern)
            return invoke.refusal(deny_refusal(hit))
    nested.audit(home, text, allowed.pid, cwd)
    if invocation.mode == shell.COMMAND:
        outcome = invoke.runs(real_shell, invocation.command_argv(), depth, line=True)
    else:
        outcome = invoke.runs(real_shell, invocation.source_argv(invoke.HELD_WORD[2:]), depth, line=True, held=data)
    outcome.beneath = True
    return outcome


def _find_shell(invocation, config, env):
    from wispsh import realshell

    return realshell.find_shell(invocation.shell_name, config, env, invocation.argv[0])


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    if os.environ.get("WISP_ALLOWED"):            # decide.nested.VARIABLE: checked before any heavy import
        _beneath_allowed_line(argv)
    from wispsh import invoke
    from wispsh.parse import split

    split.guard_native_crashes()   # this process is the gate: a parser that crashes natively is a judged part
    env = dict(os.environ)
    _read_all = invoke._read_all
    outcome = invoke.decide(argv, env=env, cwd=os.getcwd(), stdin_is_tty=os.isatty(0),
                            read_stdin=lambda: _read_all(0), find_shell=_find_shell)
    return perform(outcome, env)


def perform(outcome, env: dict[str, str]) -> int:
    """Carry out an Outcome in this process: exec the shell (never returns), or write and return the status.
    A checked line's shell gets the nested token (realshell.exec_shell mints it from the outcome's config)."""
    from wispsh import invoke, realshell

    if outcome.stdout:
        from wispsh.support.text import utf8

        sys.stdout.flush()
        sys.stdout.buffer.write(utf8(outcome.stdout))       # strict UTF-8 whatever the locale says
        sys.stdout.buffer.flush()
    if outcome.stderr:                                      # a refusal, or the warnings of a line that runs
        sys.stderr.write(outcome.stderr)
        sys.stderr.flush()
    if outcome.shell is None:
        if outcome.status == realshell.REFUSED:
            os._exit(realshell.REFUSED)            # as realshell.refuse: nothing else runs on the way out
        return outcome.status
    if outcome.session is not None:
        _gated_shell(outcome, env)
    _refresh_bundle()
    if "wispsh.parse.split" in sys.modules:     # a crash guard's child nobody collected: not the shell's child
        sys.modules["wispsh.parse.split"].collect_guard()
    argv = list(outcome.argv)
    if outcome.held is not None:
        argv[argv.index(invoke.HELD_WORD)] = ". " + realshell.hold_text(outcome.held)
    env = {k: v for k, v in env.items() if k not in outcome.env_drop}
    depth = int(outcome.env_add.get(realshell.DEPTH_VARIABLE, "1"))
    realshell.exec_shell(outcome.shell, argv, env, depth, gated=outcome.line, mint=not outcome.beneath,
                         config=outcome.config)
    return REFUSED_UNREACHABLE


REFUSED_UNREACHABLE = 126  # exec_shell never returns; fail closed if it ever did


def _gated_shell(outcome, env: dict[str, str]) -> "NoReturn":  # noqa: F821
    """A shell without a line: this process stays as the gate (session/), judging in-process, warm."""
    from wispsh.parse import split
    from wispsh.session import driver, judges, start

    # a warm host, as the supervisor: no fork per parse (a native crash would end the gate, and with it the
    # real shell, whose only input is the gate: nothing runs unjudged)
    split.collect_guard()
    split.guard_native_crashes(False)
    env = {k: v for k, v in env.items() if k not in outcome.env_drop}
    env.update(outcome.env_add)
    spec = start.spec_of(outcome.shell, outcome.argv, outcome.session, env)
    driver.exit_like(start.run(spec, judges.InProcess()))


def _refresh_bundle() -> None:
    """Write the modules bundle again when this run found it missing or behind a source, or imported a module
    of the standard library it lacks (once per change: the next start-ups read it). A read-only install keeps
    the ordinary imports."""
    from wispsh.support import hotload

    if sys.dont_write_bytecode:         # as for the .pyc files
        return
    finder = hotload.installed()
    wanted = hotload.stdlib_modules()
    if finder is not None and not finder.stale and wanted <= set(finder.index):
        return
    try:
        hotload.build(stdlib=wanted | hotload.bundled_stdlib())     # what other lines needed stays in it
    except (OSError, SyntaxError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
