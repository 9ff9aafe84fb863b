"""Which parts get a second opinion: those the rules left uncertain, found by the effect kind and rule id of the
findings that decided their level (policy/effects.py names the kinds), never by reason text.

Kinds come first: rule ids change as the rules are rewritten ("interpreters.python3" became "python.inline"
when the interpreters became a table), the kinds do not. Findings that name no kind (nested code the rules
could not follow) are picked by rule id. Imported only when the classifier is configured and some part is
from moderate to high; it imports nothing that costs.
"""
from __future__ import annotations

from wispsh.model import Judged, Level

# (effect kind, rule id) of a finding that makes its part worth a second opinion. "*" matches anything, "x.*"
# an id starting "x.", "*.x" one ending ".x"; the kind "" is a finding that names no effect (yet).
UNCERTAIN: tuple[tuple[str, str], ...] = (
    ("unknown", "*"),                       # a program or verb the gate does not know
    ("run-code", "*"),                      # code the gate cannot read: inline code, opaque text, eval, $X args
    ("run-project", "path.run.project"),    # a script file of the project: bash x.sh, python3 x.py
    ("run-project", "program.project"),     # a program of the project: ./tool
    ("", "parse.*"),                        # nested code the gate could not fully read (pipeline.judge_code)
    ("", "code.*"),                         # nested code too deep or too long for the rules to follow
)

# The levels a second opinion can matter at: below moderate the rules rated the part by what they know of it
# (a user's table that lowers an unknown program says what it is); dangerous cannot be raised.
LOWEST, HIGHEST = Level.MODERATE, Level.HIGH


def _matches(pattern: str, value: str) -> bool:
    if pattern == "*":
        return True
    if pattern.endswith(".*"):
        return value.startswith(pattern[:-1])
    if pattern.startswith("*."):
        return value.endswith(pattern[1:])
    return value == pattern


def uncertain_findings(judged: Judged) -> tuple:
    """The findings of a part that make it uncertain (empty: the rules know what it does, or it is dangerous)."""
    verdict = judged.verdict
    if not LOWEST <= verdict.level <= HIGHEST:
        return ()
    return tuple(f for f in verdict.findings
                 if any(_matches(kind, f.kind) and _matches(rule, f.rule) for kind, rule in UNCERTAIN))


def uncertain_parts(judged) -> tuple[int, ...]:
    """Indices of the parts to ask the model about."""
    return tuple(i for i, j in enumerate(judged) if uncertain_findings(j))

