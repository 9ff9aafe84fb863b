"""A line of text to a Plan: harness templates -> split -> keys -> policy -> classifier -> deny -> gate.

Used by `wispsh` (before exec) and by `--explain` / `wisp explain`. It never asks, writes or runs.

An agent's own boilerplate (harness.py: an exact, known template around the payload) is judged as
plumbing: only the payload is split and judged, with spans pointing into the whole line. A known
snapshot-capture or version-probe run of an agent passes as plumbing too. Anything that differs from a
template by one byte is judged as written.
"""
from __future__ import annotations

from _collections_abc import Mapping, Sequence  # collections.abc's own (loaded with os; no collections)

from wispsh.config import Config
from wispsh.model import Finding, Judged, Level, Plan, Split, Verdict, replace

MAX_CODE_DEPTH = 3          # shell code a rule finds inside a word, inside such code, ...
MAX_CODE_LENGTH = 20_000
_code_depth = [0]


def judge(line: str, config: Config, cwd: str, env: Mapping[str, str], args: Sequence[str] = (), *,
          remember: bool = True, opinion: bool = True, stdin_tty: bool = False) -> Plan:
    """`remember`: cache a snapshot's passing verdict and the model's answers in the wisp home (False for
    --explain, which writes nothing). `opinion`: ask the configured model about the parts the rules left
    uncertain (classifier/; False for warming up a judge, which should make no calls). `stdin_tty`: the line's
    standard input is a terminal (policy.context.Context.stdin_tty)."""
    from wispsh.agents import marks
    from wispsh.parse import split

    hit = None
    if marks.may_be_plumbing(line):      # else no template can match: the matcher is not even imported
        from wispsh.agents import harness

        hit = harness.match(line, env=env, config=config, args=args)
    if hit is not None:
        from wispsh.agents import snapshots

        untrusted = _untrusted_snapshot(snapshots.snapshot_paths(hit.plumbing), config, cwd, env, remember)
        if untrusted is None:
            # the payload alone is the line: the refusal, the dialog and the audit show it, not the plumbing
            payload = split.split_line(hit.payload_decoded)
            note = (f"{hit.agent} boilerplate recognised (template {hit.template}); only its payload is judged"
                    + (f"; sources {', '.join(hit.sourced)}" if hit.sourced else ""))
            plan = _judge_split(replace(payload, notes=payload.notes + (note,)), config, cwd, env,
                                opinion=opinion, remember=remember, stdin_tty=stdin_tty)
            return replace(plan, template=hit.template, written=line)
        # a sourced snapshot whose content is not the agent's own capture: the whole line as written
        line_split = split.split_line(line)
        line_split = replace(line_split, notes=line_split.notes + (untrusted,))
        return _judge_split(line_split, config, cwd, env, opinion=opinion, remember=remember, stdin_tty=stdin_tty)
    plan = _judge_split(split.split_line(line), config, cwd, env, opinion=opinion, remember=remember,
                        stdin_tty=stdin_tty)
    if plan.verdict == "run":
        return plan
    from wispsh.agents import harness

    sourced: list[str] = []
    agent = harness.is_snapshot_run(line, env=env, config=config, args=args, sourced=sourced)
    if agent is None:
        return plan
    from wispsh.agents import snapshots

    untrusted = _untrusted_snapshot(snapshots.snapshot_paths(sourced), config, cwd, env, remember)
    if untrusted is not None:
        return replace(plan, notes=plan.notes + (untrusted,))
    # a known snapshot/probe run of the agent, exactly: its parts are the agent's plumbing, not the model's
    reason = f"{agent}'s own shell-snapshot or version probe run (known template)"
    plumbing = tuple(Judged(j.part, j.key, Verdict.of(Level.SAFE, "agent.plumbing", reason)) for j in plan.judged)
    known = replace(plan.split, notes=plan.split.notes + (reason,))
    return _decide(known, plumbing, Verdict(Level.SAFE, ()), config, cwd, env)


def deny_only(line: str, config: Config):
    """The deny pattern `line` hits (a DenyHit), or None: split and keyed as for a full judgement, no rules.
    For a shell started beneath a line the gate allowed (flow.beneath_allowed)."""
    from wispsh import keys
    from wispsh.parse import split
    from wispsh.policy import deny

    parsed = split.split_line(line)
    unrated = Verdict(Level.SAFE, ())
    judged = tuple(Judged(p, keys.key_for(p), unrated) for p in parsed.parts)
    return deny.check(parsed, judged, config)


def _untrusted_snapshot(paths: Sequence[str], config: Config, cwd: str, env: Mapping[str, str],
                        remember: bool = True) -> str | None:
    """Why one of the snapshot files the agent's plumbing sources is not the agent's own capture, or None.

    Trusted by content, not by place: a snapshot is judged (as snapshots.text_to_judge reads it) the first
    time it is seen, and a passing verdict is cached by its digest in the wisp home."""
    from wispsh.agents import snapshots
    from wispsh.parse import split

    home = config.home
    for path in paths:
        data = snapshots.read(path)
        if data is None:
            return f"snapshot {path} cannot be read as a regular file; the line is judged as written"
        sha = snapshots.digest(data)
        if snapshots.known(home, sha):
            continue
        text = snapshots.text_to_judge(data.decode("utf-8", "surrogateescape"), env)
        plan = _judge_split(split.split_line(text), config, cwd, env) if text is not None else None
        if plan is None or plan.verdict != "run":
            what = "" if plan is None else ": " + "; ".join(
                f"{plan.judged[i].part.text[:60]!r} ({plan.judged[i].verdict.level})"
                for q in plan.questions[:2] for i in q.parts[:1])
            return f"snapshot {path} holds more than the agent's own capture{what}; the line is judged as written"
        if remember:
            snapshots.remember(home, sha)
    return None


def rules_context(cwd: str, env: Mapping[str, str], config: Config | None, stdin_tty: bool = False):
    """Where the rules judge: the line's directories, the user's rule tables, and how to judge nested code.
    The user's tables are checked (their examples run) the first time they are seen as they are now."""
    from wispsh.policy import engine, user

    rules = user.load(config) if config is not None else user.EMPTY
    ctx = engine.Context.for_process(cwd=cwd, env=dict(env), config=config, overrides=rules.overrides,
                                     judge_code=judge_code, programs=rules.programs, stdin_tty=stdin_tty)
    if rules.files:
        _check_once(rules, ctx, config)
    return ctx


def judge_parts(parsed: Split, ctx) -> tuple[tuple[Judged, ...], Verdict]:
    """Every part keyed and judged, then the whole line (which follows the parts' facts)."""
    from wispsh import keys
    from wispsh.policy import line, sequence

    table = _multiplexers(ctx)
    judged = sequence.judge_in_order(parsed.parts, lambda part: keys.key_for(part, table), ctx, parsed.line)
    return judged, line.judge_whole_line(parsed, judged, ctx)


def _multiplexers(ctx):
    """The shipped multiplexer table, plus the user's programs with verbs (their keys name the verb)."""
    from wispsh import keys

    extra = frozenset(name for name, program in ctx.programs.items() if program.has_verbs)
    if not extra:
        return None
    shipped = keys.default_multiplexers()
    return replace(shipped, programs=shipped.programs | extra)


CHECKED_NAME = ".checked"       # in the rules directory: the digest of the tables whose examples passed


def _check_once(rules, ctx, config) -> None:
    import os

    from wispsh.config import ConfigError
    from wispsh.policy import user

    marker = os.path.join(user.rules_dir(config), CHECKED_NAME)
    try:
        with open(marker, encoding="ascii") as fh:
            if fh.read(200).strip() == rules.digest:
                return
    except (OSError, ValueError):
        pass
    problems = check_user_rules(rules, ctx)
    if problems:
        raise ConfigError(problems[0] + (f" (and {len(problems) - 1} more: wisp rules check)" if len(problems) > 1
                                         else ""))
    try:
        with open(marker + ".tmp", "w", encoding="ascii") as fh:
            fh.write(rules.digest + "\n")
        os.replace(marker + ".tmp", marker)
    except OSError:
        pass        # a read-only home (wisp run): checked again next time, no harm


def check_user_rules(rules, ctx) -> list[str]:
    """Every example of the user's tables holds: each row's examples fire it, not_examples do not, each
    command example gets its level. One message per problem, naming the file and line of the row."""
    from wispsh import keys
    from wispsh.parse import split
    from wispsh.policy import engine

    problems = []

    def fired(line: str, program):
        table = _multiplexers(ctx)
        for part in split.split_line(line).parts:
            key = keys.key_for(part, table)
            if key.program in program.names:
                return engine.analyse(part, key, ctx)
        return None

    def nodes(command, prefix):
        yield prefix, command
        for word, child in command.verbs.items():
            yield from nodes(child, f"{prefix} {word}")

    for program in {id(p): p for p in rules.programs.values()}.values():
        for prefix, node in nodes(program, program.name):
            items = list(node.rows) + list(node.on) + [r for r in (node.default, node.no_verb) if r is not None]
            for item in items:
                where = rules.origin.get(item.id, program.name)
                if not item.examples:
                    problems.append(f"{where}: {item.id} has no example (examples = [\"{prefix} …\"])")
                for line in item.examples:
                    cmd = fired(line, program)
                    if cmd is None or item.id not in cmd.fired:
                        problems.append(f"{where}: {item.id}: its example {line!r} does not fire it")
                for line in item.not_examples:
                    cmd = fired(line, program)
                    if cmd is not None and item.id in cmd.fired:
                        problems.append(f"{where}: {item.id}: {line!r} must not fire it")
            for line, level in node.examples.items():
                cmd = fired(line, program)
                got = engine.verdict_of(cmd).level if cmd is not None else None
                if got != Level.parse(level):
                    problems.append(f"{rules.origin.get(program.name, program.name)}: {line!r} is {got}, the "
                                    f"table says {level}")
    return problems


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


def _judge_split(parsed: Split, config: Config, cwd: str, env: Mapping[str, str], *, opinion: bool = False,
                 remember: bool = True, stdin_tty: bool = False) -> Plan:
    """`opinion`: ask the model's second opinion after the rules (not for a snapshot's text: the rules alone)."""
    ctx = rules_context(cwd, env, config, stdin_tty)
    judged, line_verdict = judge_parts(parsed, ctx)
    if opinion:
        parsed, judged = second_opinion(parsed, judged, config, remember=remember)
    return _decide(parsed, judged, line_verdict, config, cwd, env)


def second_opinion(parsed: Split, judged: tuple[Judged, ...], config: Config, *, remember: bool = True,
                   environ=None) -> tuple[Split, tuple[Judged, ...]]:
    """The model's second opinion on the parts the rules left uncertain (classifier/): it can only raise.
    A line whose parts the rules all rated below moderate (or dangerous), or no classifier in config, never
    loads the classifier."""
    # classifier.select asks only about parts from moderate to high (its LOWEST and HIGHEST)
    if getattr(config, "classifier", None) is None or \
            not any(Level.MODERATE <= j.verdict.level <= Level.HIGH for j in judged):
        return parsed, judged
    try:
        from wispsh.classifier import select

        if not select.uncertain_parts(judged):
            return parsed, judged
        from wispsh.classifier import opinion

        return parsed, opinion.second_opinions(parsed, judged, config, remember=remember, environ=environ)
    except Exception as exc:    # a fault in the second opinion leaves the rules' levels, and says so
        return replace(parsed, notes=parsed.notes + (f"classifier not used: {type(exc).__name__}: {exc}",)), judged


def _decide(parsed: Split, judged: tuple[Judged, ...], line_verdict: Verdict, config: Config, cwd: str,
            env: Mapping[str, str]) -> Plan:
    from wispsh.decide import gate
    from wispsh.policy import deny

    denied_by = deny.check(parsed, judged, config)
    return gate.plan(parsed, judged, line_verdict, denied_by, config, cwd=cwd, env=env)
