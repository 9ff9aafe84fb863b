"""Answers for a plan's questions, from the first place that may give them: --yes, the person's terminal,
`wisp watch`, or no one (the caller refuses). Nothing here reads stdin."""
from __future__ import annotations

import os
from collections.abc import Mapping

from wispsh.config import Config
from wispsh.model import Answer, Plan
from wispsh.ask.broker import ask_watchers
from wispsh.ask.dialog import tty_dialog
from wispsh.ask.terminal import open_persons_terminal


def answers(plan: Plan, *, config: Config, env: Mapping[str, str], yes: bool, cwd: str) -> tuple[Answer, ...]:
    """Answers to plan.questions, in order, stopping at the first "n"; () when no one can be asked."""
    if not plan.questions:
        return ()
    if yes:
        return tuple(Answer(i, "y", "--yes") for i in range(len(plan.questions)))
    fd = open_persons_terminal(config)
    if fd is not None:
        try:
            return tty_dialog(plan, fd, config=config, env=env, cwd=cwd)
        finally:
            os.close(fd)
    return ask_watchers(plan, config=config, env=env, cwd=cwd)
