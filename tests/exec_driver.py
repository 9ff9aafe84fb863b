"""Test driver: wispsh's argv handling and exec (invocation.py + realshell.py) WITHOUT the gate.

Used only by tests to check exec parity independently of the pipeline's verdicts; it never ships.
Run as: python exec_driver.py ARGV0 [ARGS...]  (ARGV0 plays the name wispsh was called as).
"""
import os
import sys

from wispsh import invoke as wmain
from wispsh import realshell
from wispsh import invocation as shell
from wispsh.config import load_config


def drive(argv):
    from wispsh.support import inherited

    inherited.keep()
    argv0 = inherited.caller_argv0(argv[0], os.environ, os.getpid())
    invocation = shell.parse(argv, stdin_is_tty=os.isatty(0), argv0=argv0)
    env = dict(os.environ)
    depth = realshell.next_depth(env)
    realshell.check_depth(depth)
    try:
        real_shell = realshell.find_shell(invocation.shell_name, load_config(), env, invocation.argv[0])
    except realshell.ShellNotFound as exc:
        realshell.refuse(f"wispsh: not run: {exc}")
    if shell.grammar_of(real_shell) != invocation.grammar:
        invocation = shell.parse(argv, stdin_is_tty=os.isatty(0), grammar=shell.grammar_of(real_shell),
                                 argv0=argv0)
    invocation = invocation.run_by(real_shell)
    if invocation.mode in (shell.INTERACTIVE, shell.PASSTHROUGH):
        realshell.exec_shell(real_shell, invocation.passthrough_argv(), env, depth)
    if invocation.mode == shell.COMMAND:
        realshell.exec_shell(real_shell, invocation.command_argv(), env, depth)
    data, error = ((wmain._read_all(0), None) if invocation.mode == shell.STDIN
                   else wmain.read_script_or_error(invocation.script, env, real_shell))
    if data is None:
        realshell.refuse_unreadable_script(real_shell, invocation.argv0, invocation.script, error)
    if os.environ.get("WISP_TEST_AFTER_READ"):  # lets a test swap the file between the read and the exec
        os.system(os.environ["WISP_TEST_AFTER_READ"])
    realshell.exec_shell(real_shell, invocation.source_argv(realshell.hold_text(data)), env, depth)


if __name__ == "__main__":
    drive(sys.argv[1:])
