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

# The most text wispsh judges: bigger is refused before it is parsed (every stage is linear, but 4 MiB is
# twice the largest input the benchmark holds to a second; a `-c` line is at most 128 KiB on Linux anyway).
MAX_TEXT = 4 * 1024 * 1024


def too_big(text: str | bytes) -> str | None:
    """Why `text` is not judged at all (too big), or None."""
    if len(text) <= MAX_TEXT:
        return None
    return (f"the text is {len(text):,} characters, over the {MAX_TEXT // (1024 * 1024)} MiB wispsh checks; "
            "nothing ran (split it, or run it with the real shell yourself)")


def _plan(text: str, args: Sequence[str], config: Config | None, *, remember: bool = True):
    from wispsh import pipeline

    config = config or load_config()
    return config, pipeline.judge(text, config, os.getcwd(), dict(os.environ), args, remember=remember)


def _warn(settlement) -> None:
    """What went wrong remembering or auditing, one line each on stderr (the line itself still runs)."""
    if not settlement.warnings:
        return
    from wispsh.support.text import shown

    for warning in settlement.warnings:
        sys.stderr.write(f"wispsh: warning: {shown(' '.join(warning.split()))}\n")
    sys.stderr.flush()


def check(text: str, *, yes: bool = False, args: Sequence[str] = (), config: Config | None = None) -> None:
    """Return when `text` may run; refuse (exit 126) otherwise. Fails closed on any error."""
    try:
        big = too_big(text)
        if big:
            refuse(f"wispsh: not run: {big}")
        config, plan = _plan(text, args, config)
        if plan.verdict == "run":
            settlement = _settle(plan, (), config, source="wispsh")
            if not settlement.run:
                refuse(settlement.refusal)
            _warn(settlement)
            return
        if plan.verdict == "deny":
            settlement = _settle(plan, (), config, source="wispsh")
            _warn(settlement)
            refuse(settlement.refusal)
        from wispsh.ask import collect, prompt

        answers = collect.answers(plan, config=config, env=os.environ, yes=yes, cwd=os.getcwd())
        settlement = _settle(plan, answers, config, source="--yes" if yes else "wispsh")
        _warn(settlement)
        if settlement.run:
            return
        refuse(settlement.refusal or prompt.refusal_line(plan, answers))
    except ConfigError as exc:
        refuse(f"wispsh: not run: config error: {exc}")
    except SystemExit:
        raise
    except BaseException as exc:  # fail closed: an error in the gate never lets the line run
        refuse(f"wispsh: not run: internal error while checking the line ({type(exc).__name__}: {exc})")


def _settle(plan, answers, config, *, source: str):
    from wispsh.decide import gate

    return gate.settle(plan, answers, config=config, cwd=os.getcwd(), env=os.environ, source=source)


def explain(text: str, *, as_json: bool, args: Sequence[str] = (), config: Config | None = None,
            notes: Sequence[str] = (), also: Sequence[str] = ()) -> int:
    """Print the plan for `text`; the exit status says what would happen (contracts.md).

    `notes` are added to the plan's (the start-up files the shell reads); `also` is code the shell runs
    besides the text (an untrusted start-up file, BASH_ENV, ...): each is judged as the check judges it, named
    in a note with its verdict, and the worst verdict is the exit status."""
    from dataclasses import replace

    from wispsh.cli import explain as render
    from wispsh.support.text import shown, utf8

    big = too_big(text)
    if big:
        sys.stderr.write(f"wispsh: would refuse: {big}\n")
        return render.EXIT_FOR_VERDICT["deny"]
    try:
        config, plan = _plan(text, args, config, remember=False)
        extra, worst = list(notes), plan.verdict
        for line in also:
            _, other = _plan(line, (), config, remember=False)
            reasons = "; ".join(f"{f.level}: {f.reason}" for j in other.judged for f in j.verdict.findings)[:300]
            extra.append(f"the shell also runs {line!r} (not part of the line): {other.verdict}"
                         + (f" ({reasons})" if reasons else ""))
            worst = max(worst, other.verdict, key=("run", "ask", "deny").index)
    except ConfigError as exc:
        sys.stderr.write(f"wispsh: config error: {shown(str(exc))}\n")
        return render.EXIT_FOR_VERDICT["deny"]
    if extra:
        plan = replace(plan, notes=plan.notes + tuple(extra), verdict=worst)
    out = (render.render_json(plan) if as_json else render.render_text(plan)) + "\n"
    sys.stdout.flush()
    sys.stdout.buffer.write(utf8(out))          # strict UTF-8 whatever the locale says
    sys.stdout.buffer.flush()
    return render.EXIT_FOR_VERDICT[worst]
