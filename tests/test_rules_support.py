"""Shared helpers for the rules tests: a real project and home on disk, and a line judged end to end."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from wispsh import pipeline
from wispsh.policy import deny, engine
from wispsh.parse import split
from wispsh.config import Config
from wispsh.model import Judged, Level, replace


@dataclass
class Place:
    root: Path
    home: Path
    project: Path
    env: dict
    config: Config
    ctx: engine.Context


def make_place(tmp: Path, deny_patterns: tuple[str, ...] = ()) -> Place:
    """A home with a git project inside it, as an agent works in."""
    home = tmp / "home" / "agent"
    project = home / "project"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / "src").mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "USER": "agent", "LANG": "C.UTF-8"}
    config = Config(path=home / ".wisp" / "config.json", deny=deny_patterns)
    ctx = pipeline.rules_context(str(project), env, config)
    return Place(tmp, home, project, env, config, ctx)


@dataclass
class Outcome:
    reached: Level          # max of the part levels, the line level, and a deny
    parts: tuple[Judged, ...]
    line: object
    denied: object

    @property
    def part_levels(self) -> list[Level]:
        return [j.verdict.level for j in self.parts]


def judge(line: str, place: Place) -> Outcome:
    """As the gate judges a line: with a context of its own (its memos of places, links and files read are the
    line's, as pipeline.judge makes one a line)."""
    parsed = split.split_line(line)
    ctx = replace(place.ctx, places={}, real_dirs={}, read_once={})
    judged, line_verdict = pipeline.judge_parts(parsed, ctx)
    denied = deny.check(parsed, judged, place.config)
    levels = [j.verdict.level for j in judged] + [line_verdict.level]
    if denied is not None:
        levels.append(Level.DANGEROUS)
    return Outcome(max(levels, default=Level.SAFE), judged, line_verdict, denied)


def describe(outcome: Outcome) -> str:
    lines = []
    for j in outcome.parts:
        lines.append(f"  part {j.part.text[:60]!r} [{j.part.origin}] -> {j.verdict.level}: "
                     f"{'; '.join(j.verdict.reasons[:2])}")
    lines.append(f"  line -> {outcome.line.level}: {'; '.join(outcome.line.reasons[:2])}")
    if outcome.denied is not None:
        lines.append(f"  denied by {outcome.denied.matched!r}")
    return "\n".join(lines)


def here() -> str:
    return os.path.dirname(os.path.abspath(__file__))


def rule_ids(outcome: Outcome) -> set[str]:
    """Every rule id the line's verdicts name (each part's worst findings and the whole line's)."""
    return {f.rule for j in outcome.parts for f in j.verdict.findings} | {f.rule for f in outcome.line.findings}


def reaches(line: str, place: Place, least: Level, rule: str | None = None) -> None:
    """The line reaches `least`, with a finding of `rule` among its reasons (when given)."""
    outcome = judge(line, place)
    assert outcome.reached >= least, describe(outcome)
    assert rule is None or rule in rule_ids(outcome), describe(outcome)


def stays_within(line: str, place: Place, most: Level) -> None:
    """The line reaches no more than `most` (a benign look-alike)."""
    outcome = judge(line, place)
    assert outcome.reached <= most, describe(outcome)
