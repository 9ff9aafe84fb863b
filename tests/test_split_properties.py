"""Properties of the splitter over generated lines (tests/strategies.py) and random bytes.

- nothing raises, and no line falls into the internal-error fallback;
- every program the generator put in a command's place shows up as a part's program (as many times);
- nothing dropped: every non-blank character outside operators, keywords and loop/case headers lies in some
  part's span, in a heredoc body a part carries, or in a redirect a part carries.
"""
from __future__ import annotations

import collections
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import HEADER_VOCABULARY, random_line
from tiers import scaled
from wispsh.parse.split import split_line

_TOKENS = re.compile(r"\s+|(;;|&&|\|\||\|&|[;&|(){}!])")


def uncovered(line: str, split) -> list[str]:
    """Tokens of the line that no part holds, minus operators, keywords and header words."""
    covered = bytearray(len(line))
    allowed = set(HEADER_VOCABULARY)
    for part in split.parts:
        start, end = part.span
        covered[start:end] = b"\1" * (end - start)
        for r in part.redirects:
            written = f"{r.fd or ''}{r.op}"
            allowed.update({written + r.target_text, written, r.target_text}, _TOKENS.split(written))
        if part.stdin_code:
            at = line.find(part.stdin_code, end)
            if at >= 0:
                covered[at:at + len(part.stdin_code)] = b"\1" * len(part.stdin_code)
    residue = "".join(" " if covered[i] else ch for i, ch in enumerate(line))
    return [t for t in _TOKENS.split(residue) if t and t.strip() and t not in allowed]


def check_line(line: str, names: list[str]) -> None:
    split = split_line(line)
    assert not any("internal error" in n for n in split.notes), (line, split.notes)
    got = collections.Counter(p.argv[0] for p in split.parts if p.argv)
    missing = collections.Counter(names) - got
    assert not missing, (line, missing, [p.text for p in split.parts])
    left = uncovered(line, split)
    assert not left, (line, left)
    for part in split.parts:
        assert 0 <= part.span[0] <= part.span[1] <= len(line)
        assert part.parent is None or 0 <= part.parent < len(split.parts)


@settings(max_examples=scaled(2_500, 10_000), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_generated_lines(seed):
    line, names = random_line(random.Random(seed), max_depth=3 if seed % 4 == 0 else 2)
    check_line(line, names)


@settings(max_examples=scaled(600, 1500), deadline=None, database=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(data):
    line = data.decode("utf-8", "surrogateescape")
    split = split_line(line)
    assert not any("internal error" in n for n in split.notes), (line, split.notes)
    for part in split.parts:
        assert 0 <= part.span[0] <= part.span[1] <= len(line)


SHELL_ALPHABET = list("abc ;&|<>()`$'\"\\{}#!=*\n\t-") + ["$(", "<<", "EOF", "case", "esac", "in", "do", "done",
                                                           "for", "if", "then", "fi", "sh -c ", "eval ", ";;"]


@settings(max_examples=scaled(600, 1500), deadline=None, database=None)
@given(st.lists(st.sampled_from(SHELL_ALPHABET), max_size=40))
def test_shell_shaped_noise_never_raises(pieces):
    line = "".join(pieces)
    split = split_line(line)
    assert not any("internal error" in n for n in split.notes), (line, split.notes)
    if line.strip() and not split.ok:
        assert split.parts or all(s.strip().startswith("#") or not s.strip() for s in line.split("\n"))
