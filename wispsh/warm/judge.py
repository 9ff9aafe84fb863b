"""The plain mode's warm judge: one request of the compiled client (native/client.c) -> an Outcome, or DEFER.

The same decision as wispsh in-process (invoke.decide; beneath an allowed line, cli/sh.py beneath_outcome),
for the client's pid, directory and environment, with the parser, tables and config kept loaded. What only
the in-process gate does is deferred to it (the client then runs the Python gate itself, as without a judge):
a line that needs a person's answer (asked on the client's own terminal or through `wisp watch`), --yes,
--explain, a script read from stdin, a shell without a line. A line is deferred before anything of it is
written (flow.verdict asks before it settles), so the in-process gate judges it afresh and alone.

The store: the judge writes approvals, grants and the audit through the same functions and locks as any
in-process gate (decide/lock.py), which were made for many gates at once (`make -j`, parallel agents); it
keeps nothing of the store between requests (only the config, read again when config.json changes).
"""
from __future__ import annotations

import os
import threading

DEFER = object()
SOURCE = "wispsh"


class _Defer(SystemExit):
    """Raised from the answers hook: flow.verdict passes SystemExit through (every other error refuses)."""


def _defer_questions(plan, *, config, env, yes, cwd):
    if plan.questions:
        raise _Defer()
    return ()


class PlainJudge:
    def __init__(self):
        self.lock = threading.Lock()          # the pipeline is not made for threads
        self.configs: dict[str, object] = {}

    def _config(self, home: str):
        from wispsh.sandbox.judge import WarmConfig

        if home not in self.configs:
            self.configs[home] = WarmConfig(home)
        return self.configs[home]

    def handle(self, req):
        """An Outcome (with the nested token minted for the client), or DEFER."""
        from wispsh import invoke
        from wispsh import invocation as shell
        from wispsh.cli import sh
        from wispsh.decide import nested
        from wispsh.sandbox.judge import LazyHere
        from wispsh.support import signing

        env = req.env
        try:
            invocation = shell.parse(req.argv, stdin_is_tty=req.tty)
        except shell.UsageError:
            return DEFER                      # the in-process gate says it, as it always has
        if invocation.explain or invocation.yes or invocation.mode not in (shell.COMMAND, shell.SCRIPT):
            return DEFER
        if not req.cwd:
            return DEFER
        home = signing.wisp_home(env)
        with self.lock:
            if env.get(nested.VARIABLE):
                outcome = sh.beneath_outcome(req.argv, env, req.cwd, req.pid, req.tty)
                if outcome is not None:
                    return outcome
            try:
                outcome = invoke.decide(
                    req.argv, env=dict(env), cwd=req.cwd, stdin_is_tty=req.tty, read_stdin=lambda: b"",
                    find_shell=sh._find_shell, config=self._config(home), answers=_defer_questions,
                    here=LazyHere(req.pid, env), allow_yes=False, pid=req.pid, source=SOURCE)
            except _Defer:
                return DEFER
        if outcome.session is not None:
            return DEFER
        if outcome.shell is not None and outcome.line:
            config = outcome.config
            token = nested.mint(home, dict(config.shells) if config is not None else {},
                                bool(config.deny) if config is not None else True, pid=req.pid)
            if token:
                outcome.env_add[nested.VARIABLE] = token
            else:                             # no key: what runs beneath is judged in full
                outcome.env_drop = (*outcome.env_drop, nested.VARIABLE)
        return outcome


def code_changed(since: float) -> bool:
    """Whether a module of wispsh this judge has loaded was changed after `since` (a checkout edited, an
    install updated): its answers would then not be the in-process gate's."""
    import sys

    for name, module in list(sys.modules.items()):
        if name == "wispsh" or name.startswith("wispsh."):
            path = getattr(module, "__file__", None)
            try:
                if path and os.stat(path).st_mtime > since:
                    return True
            except OSError:
                return True
    return False
