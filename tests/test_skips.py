"""Skips are only for what the machine lacks: every skip reason written in the tests is on the allowlist, and
no skip condition runs the product (a test that skips when wispsh misbehaves cannot fail)."""
from __future__ import annotations

import re
from pathlib import Path

from conftest import allowed_skip_reasons

TESTS = Path(__file__).parent
REASON = re.compile(r"""(?:pytest\.skip\(|skipif\(.*?reason=)f?(["'])(.*?)\1""")
CONDITION = re.compile(r"skipif\((.*?),\s*reason=", re.S)


def _sources():
    return [(p, p.read_text()) for p in sorted(TESTS.rglob("*.py")) if p.name != "test_skips.py"]


def test_every_written_skip_reason_is_allowlisted():
    allowed = allowed_skip_reasons()
    seen = 0
    for path, text in _sources():
        for match in REASON.finditer(text):
            reason = re.sub(r"\{[^}]*\}", "zsh", match.group(2))   # an f-string's field names a tool
            seen += 1
            assert any(p.fullmatch(reason) for p in allowed), f"{path.name}: skip reason {reason!r} not allowed"
    assert seen >= 5


def test_no_skip_condition_runs_the_product():
    for path, text in _sources():
        for match in CONDITION.finditer(text):
            condition = match.group(1)
            assert not re.search(r"wispsh|pipeline|subprocess|_ready", condition), \
                f"{path.name}: skip condition depends on the product: {condition.strip()}"
