"""The second-opinion step the pipeline runs after the rules and before the gate: for each part the rules left
uncertain (select.py), the model's level and one-line reason, from the cache or one call; a part whose answer
is above the rules' level takes the model's level, with a `classifier.raised` finding first.

It can only raise. The rules' level is the floor: an answer at or below it changes nothing, so text in the
line that talks the model into "safe" lowers nothing. No answer (not configured, timed out, an error, an
unreadable reply) leaves the rules' level, and the part's Opinion says why (the audit and --explain show it).
Never instead of asking: a part at or above the threshold is asked whatever the model says.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from wispsh.classifier import cache, request, select
from wispsh.model import Finding, Judged, Level, Split, Verdict, replace

RULE = "classifier.raised"
MAX_PARTS = 8               # asked about per line; the others keep the rules' level, and say so
GRACE_SECONDS = 0.25        # beyond the timeout, for the threads to hand back what they have


@dataclass(frozen=True)
class Opinion:
    """The model's second opinion on one part."""

    model: str
    rules_level: Level                  # the floor
    level: Level | None = None          # the model's answer; None when there is none
    reason: str = ""
    raised: bool = False                # the part now has the model's level
    cached: bool = False
    latency_ms: float = 0.0             # the call's own time (0: cached or not asked)
    error: str = ""                     # why there is no answer: the rules' level stands

    def to_json(self) -> dict:
        return {"model": self.model, "level": None if self.level is None else str(self.level),
                "reason": self.reason, "rules_level": str(self.rules_level), "raised": self.raised,
                "cached": self.cached, "latency_ms": round(self.latency_ms, 1), "error": self.error or None}

    def summary(self) -> str:
        """One line for --explain and the dialog."""
        if self.level is None:
            return f"model {self.model}: no answer ({self.error}); the rules' level stands"
        how = (f"raised from {self.rules_level}" if self.raised
               else f"not above the rules' {self.rules_level}: the rules' level stands")
        return f"model {self.model}: {self.level} ({how}{', cached' if self.cached else ''}): {self.reason}"


def second_opinions(parsed: Split, judged: tuple[Judged, ...], config, *, remember: bool = True,
                    environ=None) -> tuple[Judged, ...]:
    """The judged parts, the uncertain ones with the model's opinion (and level, when it is higher)."""
    settings = config.classifier
    picked = select.uncertain_parts(judged)
    if settings is None or not picked:
        return judged
    home = config.home
    model = settings.model
    out = list(judged)
    asked: dict[str, tuple[str, list[int]]] = {}    # digest -> (message, parts)
    for n, i in enumerate(picked):
        j = judged[i]
        if n >= MAX_PARTS:
            out[i] = replace(j, opinion=Opinion(model, j.verdict.level,
                                                error=f"not asked: over {MAX_PARTS} parts in one line"))
            continue
        message = request.user_message(j, select.uncertain_findings(j), parsed.line)
        sha = cache.digest(f"prompt {request.PROMPT_VERSION}", settings.provider, settings.url, model, message)
        asked.setdefault(sha, (message, []))[1].append(i)

    answers: dict[str, tuple] = {}                  # digest -> (level | None, reason, cached, ms, error)
    for sha in asked:
        hit = cache.read(home, sha)
        if hit is not None:
            answers[sha] = (hit[0], hit[1], True, 0.0, "")
    missing = {sha: message for sha, (message, _) in asked.items() if sha not in answers}
    if missing:
        answers.update(_ask_all(settings, missing, environ))
        if remember:
            for sha in missing:
                level, reason, _, _, error = answers[sha]
                if level is not None and not error:
                    cache.write(home, sha, level, reason, days=settings.cache_days, model=model)

    for sha, (_, parts) in asked.items():
        level, reason, cached, ms, error = answers[sha]
        for i in parts:
            out[i] = _with_opinion(judged[i], Opinion(model, judged[i].verdict.level, level, reason,
                                                      cached=cached, latency_ms=ms, error=error))
    return tuple(out)


def _with_opinion(j: Judged, opinion: Opinion) -> Judged:
    floor = j.verdict.level
    if opinion.level is None or opinion.level <= floor:
        return replace(j, opinion=opinion)
    raised = replace(opinion, raised=True)
    said = f"model {opinion.model}: {opinion.reason or 'no reason given'}"
    verdict = Verdict(opinion.level, (Finding(opinion.level, RULE, said),) + j.verdict.findings,
                      ((RULE, opinion.level),) + j.verdict.effects)
    return replace(j, verdict=verdict, opinion=raised)


def _ask_all(settings, messages: dict[str, str], environ) -> dict[str, tuple]:
    """Every question at once, each in a thread of its own; the whole bounded by the timeout."""
    import threading

    results: dict[str, tuple] = {}
    threads = []
    for sha, message in messages.items():
        def run(sha=sha, message=message):
            try:
                results[sha] = ask(settings, message, environ)
            except Exception as exc:    # a fault here leaves the rules' level, like any failed call
                results[sha] = (None, "", False, 0.0, f"internal error: {type(exc).__name__}: {exc}"[:120])
        thread = threading.Thread(target=run, name="wispsh-classifier", daemon=True)
        thread.start()
        threads.append(thread)
    deadline = time.monotonic() + settings.timeout + GRACE_SECONDS
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    for sha in messages:
        if sha not in results:      # a thread still waiting (a name lookup the socket timeout does not bound)
            results[sha] = (None, "", False, settings.timeout * 1000, f"timed out after {settings.timeout:g} s")
    return dict(results)


def ask(settings, message: str, environ=None) -> tuple:
    """One call: (level | None, reason, cached=False, milliseconds, error)."""
    from wispsh.classifier import client

    started = time.perf_counter()

    def failed(error: str) -> tuple:
        return None, "", False, (time.perf_counter() - started) * 1000, error

    try:
        status, raw = client.call(settings, request.body(settings.provider, settings.model, message),
                                  environ=environ)
    except client.ClientError as exc:
        return failed(str(exc))
    if not 200 <= status < 300:
        return failed(f"HTTP {status}")
    try:
        level, reason = request.parse_answer(request.reply_text(settings.provider, raw))
    except request.AnswerError as exc:
        return failed(f"unreadable answer: {exc}")
    return level, reason, False, (time.perf_counter() - started) * 1000, ""
