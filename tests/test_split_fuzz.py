"""Nothing hides from the splitter (issue 11): a grammar-based differential fuzz against the real bash, and the
invariant as a property.

The lines (strategies.expansion_line) put commands inside every operand of every parameter expansion (#, ##,
%, %%, the /… family, ^, ^^, ",", ",,", :-, :=, :+, -, =, +, @Q/@E/@P…, substrings, !-indirection,
subscripts), inside $(…), backticks, <(…), $((…)) and nested ${…}, at top level and inside literal
`bash -c '…'`, `eval '…'`, (…), { …; }, if, [[ ]], for words, assignments, case words, heredocs,
here-strings and declarations. bash runs each with stub programs on PATH that log their names; every name it
logged must be a part, or the line must hold an opaque part judged high or above.
"""
from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle import Stubs, programs_of
from strategies import expansion_line
from tiers import scaled
from wispsh.config import Config
from wispsh.model import Level
from wispsh.parse import scan
from wispsh.parse.split import split_line

FLAGGING = "echo a\n\\true\n"    # tree-sitter reads `echo a⏎\true` as one command: the guard sends it to the scanner
FUZZ_SEED = 11_000
FUZZ_LINES = scaled(800, 3_000)


def opaque_at_high(line: str, tmp_path) -> bool:
    from wispsh import pipeline

    home = tmp_path / "home"
    (home / "p").mkdir(parents=True, exist_ok=True)
    plan = pipeline.judge(line, Config(path=home / "config.json"), str(home / "p"), {"HOME": str(home)})
    return any(j.part.opaque and j.verdict.level >= Level.HIGH for j in plan.judged)


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    return Stubs(tmp_path_factory.mktemp("fuzz"))


def test_every_command_bash_runs_is_a_part(stubs, tmp_path):
    started = time.monotonic()
    lines = [expansion_line(random.Random(FUZZ_SEED + k))[0] for k in range(FUZZ_LINES)]
    ran = stubs.run(lines)
    ran_any = 0
    hidden = []
    for line, logged in zip(lines, ran):
        if not logged:
            continue
        ran_any += 1
        missing = set(logged) - programs_of(split_line(line))
        if missing and not opaque_at_high(line, tmp_path):
            hidden.append((line, sorted(missing)))
    elapsed = time.monotonic() - started
    print(f"differential fuzz: {len(lines)} lines (seed {FUZZ_SEED}), bash ran stubs in {ran_any}, "
          f"{len(hidden)} with a command the splitter did not show, {elapsed:.1f} s")
    assert not hidden, hidden[:10]
    assert ran_any > len(lines) // 2        # the oracle must really have run most lines


@settings(max_examples=scaled(1_000, 3_000), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_the_invariant_on_generated_lines(seed):
    """Every command the generator put where bash may run it is a part (or the line is opaque), and every
    place the lexer sees code at the top level holds a part's span (or lies inside an opaque part)."""
    line, names = expansion_line(random.Random(seed))
    split = split_line(line)
    assert not any("internal error" in n for n in split.notes), (line, split.notes)
    opaque = [p for p in split.parts if p.opaque]
    if not opaque:
        assert set(names) <= programs_of(split), (line, set(names) - programs_of(split))
    # the same line read by the fallback scanner (a line tree-sitter misreads before it flags the whole text)
    scanned = split_line(FLAGGING + line)
    assert not scanned.ok
    if not any(p.opaque for p in scanned.parts):
        assert set(names) <= programs_of(scanned), (line, set(names) - programs_of(scanned))
    for site in scan.code_sites(line):
        body = line[site.inner_start:site.inner_end]
        if not body.strip():
            continue
        # a part of its own for the code (parts from a heredoc carry the span of the command it feeds, so
        # the test is by text), or an opaque part over the place
        held = any(p.origin != "top" and p.text.strip() and p.text in body for p in split.parts) or any(
            p.opaque and p.span[0] <= site.open_at < max(p.span[1], p.span[0] + 1) for p in split.parts)
        assert held, (line, site, [(p.text, p.span, p.origin) for p in split.parts])
