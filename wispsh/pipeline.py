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
from wispsh.model import Finding, Judged, Level, Plan, Split, Verdict

MAX_CODE_DEPTH = 3          # shell code a rule finds inside a word, inside such code, ...
MAX_CODE_LENGTH = 20_000
_code_depth = [0]


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


def rules_context(cwd: str, env: Mapping[str, str], config: Config | None):
    """Where the rules judge: the line's directories, the user's rule levels, and how to judge nested code."""
    from wispsh.policy import engine, user

    overrides = user.load(config).overrides if config is not None else {}
    return engine.Context.for_process(cwd=cwd, env=dict(env), config=config, overrides=overrides,
                                      judge_code=judge_code)


def judge_parts(parsed: Split, ctx) -> tuple[tuple[Judged, ...], Verdict]:
    """Every part keyed and judged, then the whole line (which follows the parts' facts)."""
    from wispsh import keys
    from wispsh.policy import engine, line

    judged = tuple(engine.judge(part, keys.key_for(part), ctx) for part in parsed.parts)
    return judged, line.judge_whole_line(parsed, judged, ctx)


def judge_code(text: str, ctx, cwd: str | None = None, whole_line: bool = True) -> Verdict:
    """Shell code a rule found inside a part's words that the splitter did not split (a rule's delegation,
    tmux's command string): split and judged as a line of its own. Bounded: too deep or too long is high."""
    if _code_depth[0] >= MAX_CODE_DEPTH or len(text) > MAX_CODE_LENGTH:
        return Verdict.of(Level.HIGH, "code.too-deep", "code nested too deeply to follow")
    if not text.strip():
        return Verdict(Level.SAFE, ())
    from wispsh.parse import split

    if cwd is not None and cwd != ctx.cwd:
        ctx = replace(ctx, cwd=cwd)
    _code_depth[0] += 1
    try:
        inner = split.split_line(text)
        judged, line_verdict = judge_parts(inner, ctx)
        verdicts = [j.verdict for j in judged] + ([line_verdict] if whole_line else [])
        top = max(verdicts, key=lambda v: v.level, default=Verdict(Level.SAFE, ()))
        if not inner.ok:
            return Verdict(max(top.level, Level.HIGH),
                           top.findings + (Finding(Level.HIGH, "parse.partial", "code the gate could not fully read"),))
        return top
    except Exception:       # fail closed: code we cannot judge counts as high
        return Verdict.of(Level.HIGH, "parse.error", "code the gate could not read")
    finally:
        _code_depth[0] -= 1


def _judge_split(parsed: Split, config: Config, cwd: str, env: Mapping[str, str]) -> Plan:
    ctx = rules_context(cwd, env, config)
    judged, line_verdict = judge_parts(parsed, ctx)
    return _decide(parsed, judged, line_verdict, config, cwd, env)


def _decide(parsed: Split, judged: tuple[Judged, ...], line_verdict: Verdict, config: Config, cwd: str,
            env: Mapping[str, str]) -> Plan:
    from wispsh.decide import gate
    from wispsh.policy import deny

    denied_by = deny.check(parsed, judged, config)
    return gate.plan(parsed, judged, line_verdict, denied_by, config, cwd=cwd, env=env)
