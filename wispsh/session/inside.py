"""A gated shell inside a `wisp run` namespace: the driver the client becomes (sandbox/client.py) when the
supervisor answers `session`. The real shell has no path inside: it is spawned through the fd on its binary
the supervisor sent (close-on-exec: the shell and what it runs never hold it); every command is judged by the
supervisor outside (judges.Supervisor)."""
from __future__ import annotations

import os
import sys


def main(args: list[str]) -> None:
    from wispsh.support import inherited

    inherited.keep()            # the client's record of its caller's signals (sandbox/client.py, _session)
    try:
        _main(args)
    except BaseException as exc:          # nothing but the session's own end leaves here
        try:
            os.write(2, f"wispsh: not run: internal error in the gated shell ({type(exc).__name__}: {exc})\n"
                     .encode("utf-8", "replace"))
        finally:
            os._exit(126)


def _main(args: list[str]) -> None:
    from wispsh.session import driver, judges, start

    socket_path, fd, shell = os.fsencode(args[0]), int(args[1]), args[2]
    argc = int(args[3])
    argv = args[4:4 + argc]
    envc = int(args[4 + argc])
    env = dict(os.environ)
    for entry in args[5 + argc:5 + argc + envc]:
        key, sep, value = entry.partition("=")
        if sep:
            env[key] = value
        else:
            env.pop(key, None)
    family, interactive, login, options, said = args[5 + argc + envc:10 + argc + envc]
    os.set_inheritable(fd, False)                       # the real shell and its children never get it
    if said:
        sys.stderr.write(said)
        sys.stderr.flush()
    spec = start.spec_of(shell, argv, {"family": family, "interactive": interactive == "1", "login": login == "1",
                                       "options": int(options)}, env, exe=f"/proc/self/fd/{fd}")
    driver.exit_like(start.run(spec, judges.Supervisor(socket_path)))
