"""A program shim (`wispsh-shim program`, agents/shims.py lays it): its argv gated as the line
`shlex.join(argv)` through the same gate as `wispsh -c`, then the real program of its name found on PATH past
the shims. On the hot path of every program shim: nothing heavy is imported at module level."""
from __future__ import annotations

import os
import sys

NOT_FOUND = 127                              # as a shell says for a command it cannot find


def run_program(argv: list[str] | None = None) -> int:
    """The program shim: gate `shlex.join(argv)` (argv[0] = the program's name), then exec the real one."""
    import shlex

    from wispsh import realshell
    from wispsh.support import inherited

    inherited.keep()                        # the caller's signals and closed fds, given back at the exec
    inherited.quiet_closed_streams()
    argv = list(sys.argv if argv is None else argv)
    name = os.path.basename(argv[0])
    env = dict(os.environ)
    depth = realshell.next_depth(env)
    realshell.check_depth(depth)
    real = realshell.search_path(name, env, realshell.own_directories(argv[0]))
    if real is None:
        sys.stderr.write(f"wispsh: {name}: command not found (no real {name} on PATH past the shims)\n")
        return NOT_FOUND
    from wispsh import flow

    # Accepted: variables that make the program run code (GIT_SSH_COMMAND, ...) are judged where a line sets
    # them, not here. Returns only when every part may run; else exits 126.
    flow.check(shlex.join([name, *argv[1:]]))
    realshell.exec_shell(real, [name, *argv[1:]], env, depth, gated=True)
    return realshell.REFUSED                          # exec_shell never returns; fail closed if it did
