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


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


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


def read_script(name: str, env: dict[str, str], real_shell: str | None) -> bytes | None:
    """The script's bytes, read once; None when it cannot be read (the real shell then says why)."""
    for place in _script_places(name, env, real_shell):
        try:
            fd = os.open(place, os.O_RDONLY)
        except FileNotFoundError:
            continue  # like bash: only a missing file sends it on to PATH
        except OSError:
            return None
        try:
            return _read_all(fd)
        except OSError:  # e.g. a directory
            return None
        finally:
            os.close(fd)
    return None


def main(argv: list[str] | None = None) -> int:
    from . import run, shell

    argv = list(sys.argv if argv is None else argv)
    try:
        invocation = shell.parse(argv, stdin_is_tty=os.isatty(0))
    except shell.UsageError as exc:
        sys.stderr.write(f"wispsh: {exc}\n")
        return USAGE
    if invocation.mode == shell.VERSION:
        from . import __version__

        sys.stdout.write(f"wispsh {__version__}\n")
        return 0

    from .config import ConfigError, load_config

    try:
        config = load_config()
    except ConfigError as exc:
        if invocation.explain:                  # --explain: say it, exit as "would refuse"
            sys.stderr.write(f"wispsh: config error: {exc}\n")
            return 3
        run.refuse(f"wispsh: not run: config error: {exc}")
    env = dict(os.environ)
    mode = invocation.mode
    if invocation.explain and mode not in (shell.COMMAND, shell.SCRIPT, shell.STDIN):
        sys.stderr.write("wispsh: --explain needs a line (-c LINE), a script file, or a script on stdin\n")
        return USAGE
    if not invocation.explain:
        depth = run.next_depth(env)
        run.check_depth(depth)
        try:
            real_shell = run.find_shell(invocation.shell_name, config, env, invocation.argv0)
        except run.ShellNotFound as exc:
            run.refuse(f"wispsh: not run: {exc}")

    if mode in (shell.INTERACTIVE, shell.PASSTHROUGH):
        # Interactive: gating typed lines comes later. Passthrough: the shell only prints or refuses.
        run.exec_shell(real_shell, invocation.passthrough_argv(), env, depth)
    if mode == shell.COMMAND:
        text = invocation.line
        data = None
    else:
        data = (_read_all(0) if mode == shell.STDIN
                else read_script(invocation.script, env, None if invocation.explain else real_shell))
        if data is None:  # unreadable script: the real shell reports it with its own message and status
            if invocation.explain:
                sys.stderr.write(f"wispsh: cannot read {invocation.script}\n")
                return USAGE
            run.exec_shell(real_shell, invocation.passthrough_argv(), env, depth)
        text = data.decode("utf-8", "surrogateescape")

    from . import flow

    operands = invocation.args if mode == shell.COMMAND else ()   # $0 $1 …: an agent's template may use them
    if invocation.explain:
        return flow.explain(text, as_json=invocation.json, args=operands, config=config)
    flow.check(text, yes=invocation.yes, args=operands, config=config)  # returns only when every part may run; else exits 126

    if mode == shell.COMMAND:
        run.exec_shell(real_shell, invocation.command_argv(), env, depth)
    run.exec_shell(real_shell, invocation.source_argv(run.hold_text(data)), env, depth)
    return REFUSED_UNREACHABLE


REFUSED_UNREACHABLE = 126  # exec_shell never returns; fail closed if it ever did


if __name__ == "__main__":
    sys.exit(main())
