"""The gate between reading a line and exec'ing the real shell: judge, ask, settle, then run or refuse.

`check` returns only when every part of the text is allowed; otherwise the process ends with 126
and one line on stderr. `explain` prints the plan and never asks, writes or runs.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from wispsh.config import Config, ConfigError, load_config
from wispsh.realshell import refuse

def _plan(text: str, args: Sequence[str], config: Config | None, *, remember: bool = True):
    from wispsh import pipeline

    config = config or load_config()
    return config, pipeline.judge(text, config, os.getcwd(), dict(os.environ), args, remember=remember)


def check(text: str, *, yes: bool = False, args: Sequence[str] = (), config: Config | None = None) -> None:
    """Return when `text` may run; refuse (exit 126) otherwise. Fails closed on any error."""
    try:
        config, plan = _plan(text, args, config)
        if plan.verdict == "run":
            _settle(plan, (), config, source="wispsh")
            return
        if plan.verdict == "deny":
            refuse(_settle(plan, (), config, source="wispsh").refusal)
        from wispsh.ask import collect, prompt

        answers = collect.answers(plan, config=config, env=os.environ, yes=yes, cwd=os.getcwd())
        settlement = _settle(plan, answers, config, source="--yes" if yes else "wispsh")
        if settlement.run:
            return
        refuse(prompt.refusal_line(plan, answers))
    except ConfigError as exc:
        refuse(f"wispsh: not run: config error: {exc}")
    except SystemExit:
        raise
    except BaseException as exc:  # fail closed: an error in the gate never lets the line run
        refuse(f"wispsh: not run: internal error while checking the line ({type(exc).__name__}: {exc})")


def _settle(plan, answers, config, *, source: str):
    from wispsh.decide import gate

    return gate.settle(plan, answers, config=config, cwd=os.getcwd(), env=os.environ, source=source)


def explain(text: str, *, as_json: bool, args: Sequence[str] = (), config: Config | None = None) -> int:
    """Print the plan for `text`; the exit status says what would happen (contracts.md)."""
    from wispsh.cli import explain as render

    try:
        _, plan = _plan(text, args, config, remember=False)
    except ConfigError as exc:
        sys.stderr.write(f"wispsh: config error: {exc}\n")
        return render.EXIT_FOR_VERDICT["deny"]
    sys.stdout.write((render.render_json(plan) if as_json else render.render_text(plan)) + "\n")
    return render.EXIT_FOR_VERDICT[plan.verdict]
