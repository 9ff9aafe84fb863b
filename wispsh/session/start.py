"""From invoke.decide's Outcome for a shell started without a line to the session that gates it: an interactive
bash on a terminal gets the hook (its own line editing, job control and prompts); everything else, the piped
driver (an interactive dash or zsh too: read a line at a time, without line editing or job control)."""
from __future__ import annotations

import os


def spec_of(shell: str, argv, session: dict, env: dict, *, exe: str | None = None):
    from wispsh.session.driver import Spec
    from wispsh.support.inherited import RECORD

    argv = list(argv)
    env = {k: v for k, v in env.items() if k != RECORD}     # a launcher's record is for this process only
    count = int(session["options"])
    return Spec(exe=exe or shell, name=os.path.basename(os.path.realpath(shell)), family=session["family"],
                argv0=argv[0], options=argv[1:1 + count], args=argv[1 + count:], env=env,
                interactive=bool(session["interactive"]), login=bool(session["login"]),
                posix=bool(session.get("posix")))


def run(spec, judge) -> int:
    """Run the session to its end; the real shell's exit status (negative: the signal that ended it)."""
    if spec.interactive and spec.family == "bash" and os.isatty(0):
        from wispsh.session.hook import HookSession

        return HookSession(spec, judge).run()
    from wispsh.session.driver import PipedSession

    return PipedSession(spec, judge).run()
