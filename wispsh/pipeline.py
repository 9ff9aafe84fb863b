"""The pipeline from a line of text to a Plan: split -> keys -> rules (+ deny) -> gate.

Used by `wispsh` (before exec) and by `--explain` / `wisp explain`. It never asks, writes or runs.
"""
from __future__ import annotations

from .config import Config
from .model import Judged, Plan


def judge(line: str, config: Config, cwd: str, env: dict[str, str]) -> Plan:
    from . import deny, gate, keys, rules, split

    parsed = split.split_line(line)
    ctx = rules.Context.for_process(cwd=cwd, env=env, config=config)
    keyed = [keys.key_for(part) for part in parsed.parts]
    verdicts = [rules.judge_part(part, key, ctx) for part, key in zip(parsed.parts, keyed)]
    judged = tuple(Judged(p, k, v) for p, k, v in zip(parsed.parts, keyed, verdicts))
    line_verdict = rules.judge_line(parsed, judged, ctx)
    denied_by = deny.check(parsed, judged, config)
    return gate.plan(parsed, judged, line_verdict, denied_by, config, cwd=cwd, env=env)
