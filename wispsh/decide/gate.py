"""The decision rules of ADR 0014, 0015 (with its 2026-10-11 amendment) and 0027.

plan():   per part, does it run (below the threshold, or a standing approval covers it), or must a person
          be asked; and what to ask. It reads the store only when some part could be covered by it.
settle(): the single place where answers become grants and audit events.

A standing approval only decides whether to ask; it covers a part only when its level at grant is at least
the part's level, the part does nothing of another kind than what it was granted for (its effects at the
threshold or above are among those the grant recorded: a `curl *` granted for a fetch does not cover a curl
that sends a file), and never a dangerous part.

Contained work (`wisp run` with its walls, levels.md): config.contained is the supervisor's word on which
parts the walls keep inside the project (sandbox/contained.py); a part at or above the threshold but below
config.contained.threshold (run.threshold, default high) whose effects it contains is decided "contained":
it runs without asking, the project having a restore point. The levels do not change; nothing of this holds
in plain mode (config.contained is None there).
"""
from __future__ import annotations

import os
from _collections_abc import Sequence  # collections.abc's own (loaded with os; no collections)

from wispsh.config import Config
from wispsh.model import Answer, Decision, DenyHit, Judged, Level, Plan, Question, Split, Verdict
from wispsh.support.record import Record

_set = object.__setattr__  # records set their fields once, in __init__

SCOPE_OF_CHOICE = {"y": "once", "s": "session", "p": "project", "a": "always"}
PERSISTED = ("project", "always")
# When several standing approvals match, report the narrowest.
SCOPE_ORDER = ("once", "session", "project", "always")
# Decisions that need no session: a line made only of these never walks the process tree (hot path).
SESSIONLESS = ("below-threshold", "denied", "contained")


# ---------------------------------------------------------------- plan


def _standing(config: Config, cwd: str, env):
    from pathlib import Path        # the store's (reached only when some part could be covered by it)

    from wispsh.decide import store

    try:
        return store.standing(Path(config.home), cwd=cwd, env=env)
    except Exception as exc:        # fail closed: nothing is covered, and the reason is shown
        return store.Standing((), (f"approvals could not be read: {exc}",))


def effects_of(verdicts, threshold: Level) -> frozenset:
    """What parts do, as a grant records it: the effects of their findings at the threshold or above (those
    below it do not ask on their own)."""
    return frozenset(effect for v in verdicts for effect, level in v.effects if level >= threshold)


def covers_effects(approval, effects: frozenset) -> bool:
    """A grant covers only parts that do nothing of another kind than what it was granted for; one stored
    without a record of its effects covers ordinary work only (policy/effects.ordinary)."""
    if approval.effects is None:
        if not effects:
            return True
        from wispsh.policy.effects import ordinary       # (a store with old entries: not the hot path)

        return all(ordinary(e) for e in effects)
    return effects.issubset(approval.effects)


def _covering(standing, pattern: str, texts: tuple[str, ...], legacy: str | None, level: Level,
              effects: frozenset = frozenset()) -> Decision | None:
    """The narrowest standing approval that covers a part keyed `pattern` at `level` doing `effects`, as a
    Decision."""
    direct, old = [], []
    for a in standing.approvals:
        if a.level < level or not covers_effects(a, effects):
            continue
        if a.exact_text:                            # pre-ADR-0015 entry: an exact command line
            if a.pattern in texts:
                direct.append(a)
        elif a.pattern == pattern:
            direct.append(a)
        elif legacy is not None and a.pattern == legacy and a.pre_verb:   # ADR 0027: only pre-verb entries
            old.append(a)
    if direct:
        best = min(direct, key=lambda a: SCOPE_ORDER.index(a.scope))
        return Decision(f"cached-{best.scope}", best.id)
    if old:
        best = min(old, key=lambda a: SCOPE_ORDER.index(a.scope))
        return Decision("cached-legacy", best.id)
    return None


def uncovered_note(standing, pattern: str, level: Level, effects: frozenset) -> str | None:
    """Why an approval of this very pattern, at a level that would do, did not cover the part: it does something
    of another kind ([approval.effects]); None when no such approval stands."""
    for a in standing.approvals:
        if a.pattern == pattern and not a.exact_text and a.level >= level and not covers_effects(a, effects):
            from wispsh.policy.effects import ordinary

            granted = ", ".join(a.effects) if a.effects is not None else "ordinary work (no record of its effects)"
            extra = sorted(e for e in effects if (e not in a.effects if a.effects is not None else not ordinary(e)))
            return (f"{pattern}: the {a.scope} approval {a.id} was given for {granted}; this part also does "
                    f"{', '.join(extra)}, so it is asked [approval.effects]")
    return None


def _runs_what_only_run_time_says(j: Judged) -> bool:
    """A program chosen at run time or text the splitter could not read: the same text can run anything,
    so no standing approval may cover it (peers.md: never a saved key for an opaque part)."""
    return j.part.runtime_program or j.part.opaque


def _decided_at_run_time(plan: Plan, q: Question) -> bool:
    return any(_runs_what_only_run_time_says(plan.judged[i]) for i in q.parts if i < len(plan.judged))


def _once_grants(standing):
    from wispsh.model import replace

    return replace(standing, approvals=tuple(a for a in standing.approvals if a.scope == "once"))


def plan(split: Split, judged: Sequence[Judged], line_verdict: Verdict, denied_by: DenyHit | None,
         config: Config, *, cwd: str, env) -> Plan:
    judged = tuple(judged)
    threshold = config.threshold
    line = split.line
    levels = [j.verdict.level for j in judged]
    contained = getattr(config, "contained", None)
    # why each part the walls might contain is not contained (None: it is); "" where it does not apply
    outside = [contained.why_not(j, cwd) if contained is not None and threshold <= lv < contained.threshold else ""
               for j, lv in zip(judged, levels)]
    held = [why is None for why in outside]

    def made(decisions, questions=(), verdict="run", covered=False, notes=()) -> Plan:
        if contained is not None:
            notes = tuple(notes) + tuple(f"not contained: {judged[i].part.text[:60]!r} {why}"
                                         for i, why in enumerate(outside) if why)
        if "contained" in (d.kind for d in decisions):
            notes = tuple(notes) + (contained.note(),)
        return Plan(line=line, split=split, judged=judged, line_verdict=line_verdict, decisions=tuple(decisions),
                    questions=tuple(questions), threshold=threshold, verdict=verdict, covered_line=covered,
                    denied_by=denied_by, notes=tuple(notes))

    if denied_by is not None:
        return made([Decision("denied")] * len(judged), verdict="deny")

    line_held = (contained is not None and threshold <= line_verdict.level < contained.threshold
                 and all(held[i] or lv < threshold for i, lv in enumerate(levels))
                 and contained.findings_outside(line_verdict.findings) is None)
    covered = line_verdict.level >= threshold and not line_held and all(line_verdict.level > lv for lv in levels)
    if covered:
        needs_store = line_verdict.level < Level.DANGEROUS
    else:
        needs_store = any(threshold <= lv < Level.DANGEROUS and not held[i] for i, lv in enumerate(levels))
    # The hot path: a line below the threshold never reaches the store (nor psutil/platformdirs).
    standing = _standing(config, cwd, env) if needs_store else None
    notes = standing.notes if standing else ()

    if covered:
        hit = None
        line_effects = effects_of([line_verdict] + [j.verdict for j in judged], threshold)
        if standing is not None:
            usable = _once_grants(standing) if any(map(_runs_what_only_run_time_says, judged)) else standing
            hit = _covering(usable, line, (line,), None, line_verdict.level, line_effects)
        above = Decision(hit.kind, hit.approval_id) if hit else Decision("covered-line")
        decisions = [Decision("below-threshold") if lv < threshold else Decision("contained") if held[i] else above
                     for i, lv in enumerate(levels)]
        if hit:
            return made(decisions, covered=True, notes=notes)
        question = Question(pattern=line, exact=True, level=line_verdict.level, findings=line_verdict.findings,
                            parts=tuple(range(len(judged))), whole_line=True, effects=tuple(sorted(line_effects)))
        return made(decisions, [question], verdict="ask", covered=True, notes=notes)

    decisions: list[Decision] = []
    notes = list(notes)
    for j, lv, inside in zip(judged, levels, held):
        if lv < threshold:
            decisions.append(Decision("below-threshold"))
            continue
        if inside:
            decisions.append(Decision("contained"))
            continue
        hit = None
        if lv < Level.DANGEROUS and standing is not None:
            usable = _once_grants(standing) if _runs_what_only_run_time_says(j) else standing
            effects = effects_of((j.verdict,), threshold)
            hit = _covering(usable, j.key.pattern, (j.key.pattern, j.part.text, line), j.key.legacy, lv, effects)
            note = uncovered_note(usable, j.key.pattern, lv, effects) if hit is None else None
            if note is not None and note not in notes:
                notes.append(note)
        decisions.append(hit or Decision("ask"))

    questions: list[Question] = []
    index: dict[str, int] = {}
    for i, (j, d) in enumerate(zip(judged, decisions)):
        if d.kind != "ask":
            continue
        pattern = j.key.pattern
        effects = effects_of((j.verdict,), threshold)
        if pattern not in index:
            index[pattern] = len(questions)
            questions.append(Question(pattern=pattern, exact=j.key.exact, level=j.verdict.level,
                                      findings=j.verdict.findings, parts=(i,), effects=tuple(sorted(effects))))
            continue
        q = questions[index[pattern]]
        findings = q.findings + tuple(f for f in j.verdict.findings if f.reason not in q.reasons)
        questions[index[pattern]] = Question(pattern=q.pattern, exact=q.exact, level=max(q.level, j.verdict.level),
                                             findings=findings, parts=q.parts + (i,),
                                             effects=tuple(sorted(effects.union(q.effects))))
    return made(decisions, questions, verdict="ask" if questions else "run", notes=notes)


# ---------------------------------------------------------------- settle


class Settlement(Record):
    run: bool                               # every part may run
    decisions: tuple[Decision, ...]         # per part, in the audit's words ("asked-session", "denied-user", ...)
    refusal: str | None                     # the stderr line for a deny-pattern hit or an audit that is required
                                            # and failed (else ask.refusal_line words the refusal)
    line_decision: Decision | None          # covered line: what the line's own answer decided
    grants: tuple                           # store.Approval made from the answers
    notes: tuple[str, ...]                  # what the answers became (e.g. "remembered for this line only")
    warnings: tuple[str, ...]               # what went wrong auditing or remembering: said on stderr
    audit_error: str | None                 # why the audit could not be written (None: it was)

    __slots__ = FIELDS = ('run', 'decisions', 'refusal', 'line_decision', 'grants', 'notes', 'warnings',
                          'audit_error')

    def __init__(self, run, decisions, refusal=None, line_decision=None, grants=(), notes=(), warnings=(),
                 audit_error=None) -> None:
        _set(self, 'run', run)
        _set(self, 'decisions', decisions)
        _set(self, 'refusal', refusal)
        _set(self, 'line_decision', line_decision)
        _set(self, 'grants', grants)
        _set(self, 'notes', notes)
        _set(self, 'warnings', warnings)
        _set(self, 'audit_error', audit_error)


def deny_refusal(hit: DenyHit) -> str:
    """The stderr line for a deny-pattern hit (question refusals are ask.refusal_line's)."""
    from wispsh.decide.audit import redact
    from wispsh.support.text import shown

    matched = shown(redact(" ".join(hit.matched.split())[:80]))
    return f"wispsh: not run: {matched!r} matches the deny pattern {shown(hit.pattern)!r}; nothing ran"


def _remember(config: Config, question: Question, scope: str, *, source: str, cwd: str, env, here, ident: str):
    """One grant for one answer; a persisted scope the store refuses falls back to the session."""
    from pathlib import Path

    from wispsh.decide import store

    home = Path(config.home)
    try:
        return store.grant(home, pattern=question.pattern, scope=scope, level=question.level, source=source,
                           cwd=cwd, env=env, persist_days=config.persist_days, here=here, ident=ident,
                           effects=question.effects), None
    except (store.StoreError, OSError) as exc:
        if scope not in PERSISTED or here is None:
            return None, f"not remembered ({exc}): it counted for this line only"
        try:
            made = store.grant(home, pattern=question.pattern, scope="session", level=question.level,
                               source=source, cwd=cwd, env=env, here=here, ident=ident, effects=question.effects)
            return made, f"{exc}; remembered for this session only"
        except (store.StoreError, OSError) as exc2:
            return None, f"not remembered ({exc}; {exc2}): it counted for this line only"


def _risky(plan: Plan) -> bool:
    """A line some part (or the whole) of which is at or above the threshold: audit.required guards these."""
    return plan.line_verdict.level >= plan.threshold or any(j.verdict.level >= plan.threshold for j in plan.judged)


def settle(plan: Plan, answers: Sequence[Answer], *, config: Config, cwd: str, env, source: str) -> Settlement:
    """Apply the answers to the plan: the final decision per part, the audit, then the grants.

    Nothing ran, nothing remembered: the grants of a line's answers are written only when the whole line
    runs. The audit comes first (with the ids the grants will have), so that `audit.required` can still
    refuse a line whose audit failed before anything is remembered."""
    from wispsh.decide import audit, session

    env = os.environ if env is None else env
    needs_session = bool(plan.questions) or any(d.kind not in SESSIONLESS for d in plan.decisions)
    here = None
    notes: list[str] = []
    warnings: list[str] = []
    if needs_session:
        try:
            here = session.here(env)
        except Exception as exc:         # no session: nothing can be remembered beyond this line
            notes.append(f"session unknown: {exc}")

    answer_of: dict[int, Answer] = {}
    for a in answers:
        if 0 <= a.question < len(plan.questions):
            answer_of.setdefault(a.question, a)

    outcome: list[Decision] = []         # per question
    wanted: list[tuple[int, str, str]] = []     # (question, scope, id) to remember if the line runs
    for qi, q in enumerate(plan.questions):
        a = answer_of.get(qi)
        if a is None or a.source == "none" or (a.choice not in SCOPE_OF_CHOICE and a.choice != "n"):
            outcome.append(Decision("denied-unasked"))
            continue
        if a.choice == "n":
            outcome.append(Decision("denied-interrupted" if a.source == "signal" else
                                    "denied-timeout" if a.note.startswith("timed out") else
                                    "denied-withdrawn" if a.note.startswith("withdrawn") else "denied-user"))
            continue
        scope = SCOPE_OF_CHOICE[a.choice]
        kind = f"asked-{scope}"
        if scope != "once" and _decided_at_run_time(plan, q):
            # its text does not say what runs ($X args, bash -c "$CMD"): an answer covers this line only
            scope, kind = "once", "asked-once"
            notes.append(f"{q.pattern}: remembered for this line only (what it runs is known only at run time)")
        elif q.level >= Level.DANGEROUS and scope in PERSISTED:    # dangerous is never persisted
            scope, kind = "session", "downgraded-session"
        from wispsh.decide.store import new_id     # only when there is an answer to remember (not the hot path)

        ident = new_id()
        wanted.append((qi, scope, ident))
        outcome.append(Decision(kind, ident))

    question_of = {i: qi for qi, q in enumerate(plan.questions) for i in q.parts}
    final: list[Decision] = []
    for i, d in enumerate(plan.decisions):
        if plan.verdict == "deny":
            final.append(Decision("denied-pattern"))
        elif d.kind == "covered-line":
            lined = outcome[question_of[i]] if i in question_of else Decision("denied-unasked")
            final.append(Decision("covered-line", lined.approval_id) if _allowed(lined) else lined)
        elif d.kind == "ask":
            final.append(outcome[question_of[i]] if i in question_of else Decision("denied-unasked"))
        else:
            final.append(d)
    run = plan.verdict != "deny" and all(_allowed(d) for d in outcome) and all(_allowed(d) for d in final)
    if not run:                          # nothing ran, nothing remembered: the answers' ids name no grant
        wanted = []
        outcome = [Decision(d.kind) for d in outcome]
        final = [Decision(d.kind) if d.kind.startswith(("asked-", "downgraded-", "covered-line")) else d
                 for d in final]
    line_decision = outcome[0] if plan.covered_line and plan.questions else None

    refusal = deny_refusal(plan.denied_by) if plan.verdict == "deny" else None
    audit_error = None
    try:
        audit.append(config.home, _events(plan, final, line_decision, answer_of, here, env, cwd, source,
                                                 ran=run), config.audit_max_bytes)
    except OSError as exc:
        audit_error = str(exc)
        if run and config.audit_required and _risky(plan):
            run, wanted = False, []
            refusal = (f"wispsh: not run: the audit could not be written and audit.required is set: {exc}; "
                       "nothing ran")
        else:
            warnings.append(f"audit not written: {exc}" + ("; the line runs unaudited" if run else ""))

    grants = []
    for qi, scope, ident in wanted:
        q = plan.questions[qi]
        if here is None and scope not in PERSISTED:
            made, problem = None, "not remembered (the session is unknown): it counted for this line only"
        else:
            made, problem = _remember(config, q, scope, source=source, cwd=cwd, env=env, here=here, ident=ident)
        if made is not None:
            grants.append(made)
        if problem:
            said = SCOPE_WORDS_OF.get(answer_of[qi].choice, scope) if qi in answer_of else scope
            (warnings if made is None or made.scope != scope else notes).append(
                f"your answer {said!r} for {_shown_pattern(q.pattern)}: {problem}")
    if warnings and any(w.startswith("your answer") for w in warnings) and audit_error is None:
        _audit_not_stored(config, plan, [w for w in warnings if w.startswith("your answer")], here, env, cwd)
    return Settlement(run=run, decisions=tuple(final), refusal=refusal, line_decision=line_decision,
                      grants=tuple(grants), notes=tuple(notes), warnings=tuple(warnings), audit_error=audit_error)


SCOPE_WORDS_OF = {"y": "once", "s": "session", "p": "project", "a": "always"}


def _shown_pattern(pattern: str) -> str:
    from wispsh.support.text import shown

    text = shown(pattern)
    return repr(text if len(text) <= 60 else text[:59] + "…")


def _audit_not_stored(config: Config, plan: Plan, problems, here, env, cwd) -> None:
    from wispsh.decide import audit

    try:
        fields, _ = audit.line_fields(plan.line)
        audit.append(config.home, [audit.event("approval.not-stored", reasons=list(problems), cwd=cwd,
                                                      session=here.session.id if here else None, **fields)],
                     config.audit_max_bytes)
    except OSError:
        pass                            # already said on stderr


def _allowed(d: Decision) -> bool:
    return not d.kind.startswith("denied")


def _events(plan: Plan, final, line_decision, answer_of, here, env, cwd, source, *, ran: bool) -> list[dict]:
    from wispsh.decide import audit, session

    if here is not None:
        sess, agent = here.session.id, here.session.agent
    else:                                       # below the threshold: no process walk (hot path)
        name = env.get("WISP_SESSION") or None
        sess, agent = (session.named_session_id(name) if name else None), session.agent_from_env(env)
    line_common, whole = audit.line_fields(plan.line)
    common = dict(session=sess, source=agent, entry=source, cwd=cwd, **line_common)
    if plan.template:                          # the payload is the line; the agent's plumbing is named apart
        common["template"] = plan.template
    question_of = {i: qi for qi, q in enumerate(plan.questions) for i in q.parts}

    def answered_by(qi):
        a = answer_of.get(qi)
        return a.source if a else None

    events = []
    if whole is not None:                       # a long line: stored once, the other events carry its digest
        events.append(audit.event("line", session=sess, source=agent, entry=source, cwd=cwd, **whole))
    logged = range(len(plan.judged))
    if len(plan.judged) > audit.MAX_PART_EVENTS:
        # a huge line (a generated script, deep nesting): every part that needed a decision keeps its events;
        # the parts that ran below the threshold are counted in one event, so the audit grows with what was
        # decided, not with the size of the text
        def is_quiet(i: int) -> bool:
            return (plan.judged[i].verdict.level < plan.threshold
                    and final[i].kind in ("below-threshold", "denied-pattern"))

        logged = [i for i in range(len(plan.judged)) if not is_quiet(i)]
        quiet = [plan.judged[i] for i in range(len(plan.judged)) if is_quiet(i)]
        levels: dict[str, int] = {}
        for j in quiet:
            levels[str(j.verdict.level)] = levels.get(str(j.verdict.level), 0) + 1
        events.append(audit.event("classification.summary", count=len(quiet),
                                  decision="denied-pattern" if plan.verdict == "deny" else "below-threshold",
                                  levels=levels, patterns=sorted({j.key.pattern for j in quiet})[:20], **common))
    for j in (plan.judged[i] for i in logged):
        opinion = {"classifier": j.opinion.to_json()} if j.opinion is not None else {}   # model, latency, raised
        events.append(audit.event("classification", pattern=audit.cut(j.key.pattern, audit.COMMAND_MAX),
                                  level=str(j.verdict.level),
                                  reasons=audit.reasons_field(j.verdict.reasons), rules=list(j.verdict.rules),
                                  **audit.command_fields(j.part.text), **common, **opinion))
    for i in logged:
        j, d = plan.judged[i], final[i]
        extra = {}
        if d.kind == "denied-pattern" and plan.denied_by:
            extra["deny_pattern"] = plan.denied_by.pattern
        if i in question_of and not plan.covered_line:
            extra["answered_by"] = answered_by(question_of[i])
            said = answer_of.get(question_of[i])
            if said is not None and said.note and d.kind.startswith("denied"):
                extra["answer_note"] = said.note        # "interrupted by SIGTERM", "the watcher went away"
        if not ran and d.kind.startswith(("asked-", "downgraded-")):
            extra["remembered"] = False         # answered, but the line did not run: nothing was stored
        events.append(audit.event("approval.decided", pattern=audit.cut(j.key.pattern, audit.COMMAND_MAX),
                                  level=str(j.verdict.level), reasons=audit.reasons_field(j.verdict.reasons),
                                  rules=list(j.verdict.rules), decision=d.kind,
                                  approval_id=d.approval_id, scope=_scope_of(d.kind),
                                  **audit.command_fields(j.part.text), **common, **extra))
    if line_decision is not None:
        q = plan.questions[0]
        events.append(audit.event("approval.decided", pattern=audit.cut(q.pattern, audit.COMMAND_MAX),
                                  level=str(q.level), reasons=audit.reasons_field(q.reasons),
                                  rules=[f.rule for f in q.findings], decision=line_decision.kind,
                                  approval_id=line_decision.approval_id, scope=_scope_of(line_decision.kind),
                                  whole_line=True, answered_by=answered_by(0),
                                  **audit.command_fields(plan.line), **common))
    return events


def _scope_of(kind: str) -> str | None:
    for prefix in ("cached-", "asked-", "downgraded-"):
        if kind.startswith(prefix):
            return kind[len(prefix):]
    return None
