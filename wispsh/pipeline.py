"""The pipeline from a line of text to a Plan: split -> keys -> rules (+ deny) -> gate.

Used by `wispsh` (before exec) and by `--explain` / `wisp explain`. It never asks, writes or runs.

An agent's own boilerplate (harness.py: an exact, known template around the payload) is judged as
plumbing: only the payload is split and judged, with spans pointing into the whole line. A known
snapshot-capture or version-probe run of an agent passes as plumbing too. Anything that differs from a
template by one byte is judged as written.
"""
from __future__ import annotations

from dataclasses import replace
from collections.abc import Mapping, Sequence

from wispsh.config import Config
from wispsh.model import Judged, Level, Plan, Split, Verdict


def judge(line: str, config: Config, cwd: str, env: Mapping[str, str], args: Sequence[str] = ()) -> Plan:
    from wispsh.agents import harness
    from wispsh.parse import split

    hit = harness.match(line, env=env, config=config, args=args)
    if hit is not None:
        payload = split.split_line(hit.payload_decoded)
        parts = tuple(replace(p, span=hit.span_in_line(*p.span)) for p in payload.parts)
        note = (f"{hit.agent} boilerplate recognised (template {hit.template}); only its payload is judged"
                + (f"; sources {', '.join(hit.sourced)}" if hit.sourced else ""))
        plan = _judge_split(replace(payload, parts=parts, notes=payload.notes + (note,)), config, cwd, env)
        return replace(plan, line=line)
    plan = _judge_split(split.split_line(line), config, cwd, env)
    if plan.verdict == "run":
        return plan
    agent = harness.is_snapshot_run(line, env=env, config=config, args=args)
    if agent is None:
        return plan
    # a known snapshot/probe run of the agent, exactly: its parts are the agent's plumbing, not the model's
    reason = f"{agent}'s own shell-snapshot or version probe run (known template)"
    plumbing = tuple(Judged(j.part, j.key, Verdict.of(Level.SAFE, "agent.plumbing", reason)) for j in plan.judged)
    return _decide(plan.split, plumbing, Verdict(Level.SAFE, ()), config, cwd, env)


def _judge_split(parsed: Split, config: Config, cwd: str, env: Mapping[str, str]) -> Plan:
    from wispsh import keys
    from wispsh.policy import engine

    ctx = engine.Context.for_process(cwd=cwd, env=env, config=config)
    judged = []
    for part in parsed.parts:
        key = keys.key_for(part)
        judged.append(Judged(part, key, engine.judge_part(part, key, ctx)))
    judged = tuple(judged)
    return _decide(parsed, judged, engine.judge_line(parsed, judged, ctx), config, cwd, env)


def _decide(parsed: Split, judged: tuple[Judged, ...], line_verdict: Verdict, config: Config, cwd: str,
            env: Mapping[str, str]) -> Plan:
    from wispsh.policy import deny
    from wispsh.decide import gate

    denied_by = deny.check(parsed, judged, config)
    return gate.plan(parsed, judged, line_verdict, denied_by, config, cwd=cwd, env=env)
