"""The data that flows through the pipeline, one way, as frozen dataclasses.

shell.py -> Invocation; split.py -> Split[Part]; keys.py -> Key; rules -> Verdict;
gate.py -> Plan. No stage mutates what an earlier one produced.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Level(enum.IntEnum):
    SAFE = 0
    LOW = 1
    MODERATE = 2
    HIGH = 3
    DANGEROUS = 4

    def __str__(self) -> str:  # "moderate", as in contracts.md
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Level":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown level {text!r} (one of safe, low, moderate, high, dangerous)") from None


# ---------------------------------------------------------------- split.py


@dataclass(frozen=True)
class Redirect:
    """A redirection of a part: operator, fd, target."""

    op: str                 # ">", ">>", ">|", "&>", "&>>", "<", "<>", "<<", "<<-", "<<<", ">&", "<&"
    fd: str | None          # the fd written before the operator ("2" in 2>), as written
    target: str | None      # the target unquoted, None when it is known only at run time
    target_text: str        # the target as written


@dataclass(frozen=True)
class Assignment:
    """A variable assignment: NAME=value."""

    name: str               # "LD_PRELOAD", "a[1]"
    value: str | None       # unquoted static value; None when known only at run time
    text: str               # as written ("X=$(cmd)")


@dataclass(frozen=True)
class LoopRange:
    """What a loop variable ranges over."""

    var: str                # "f"
    over: str               # what it ranges over, as written: "~/*", '"$@"', "lines of list.txt"
    words: tuple[str | None, ...] = ()  # the range's static words (None: known only at run time)


@dataclass(frozen=True)
class Part:
    """One simple command of the line, with everything the later stages need to judge it."""

    text: str                           # as written (nested code: the code itself)
    span: tuple[int, int]               # character offsets into the top-level line
    argv: tuple[str | None, ...]        # static words unquoted; None for a word known only at run time
    words: tuple[str, ...] = ()         # the same words as written
    assignments: tuple[Assignment, ...] = ()   # prefix VAR=value (and bare assignment statements)
    redirects: tuple[Redirect, ...] = ()
    origin: str = "top"                 # "top", "$()", "``", "<()", ">()", "subshell", "group", "clause",
                                        # "function", "sh -c", "eval", "find -exec", "xargs", "heredoc",
                                        # "trap", "opaque", ...
    context: str | None = None          # "f in ~/*" for a part that uses a loop variable
    loops: tuple[LoopRange, ...] = ()   # the loop ranges behind `context`
    runtime_program: bool = False       # the program is chosen at run time ($X args, $(which rm) -rf)
    opaque: bool = False                # text the splitter could not read as commands (judged whole)
    stdin_code: str | None = None       # heredoc / here-string body fed to this part (code for interpreters)
    stdin_quoted: bool = False          # that body came from a quoted heredoc delimiter (no expansion)
    parent: int | None = None           # index of the part whose text holds this one (nested code)
    pipeline: int | None = None         # id of the pipeline this part is a stage of (None: not piped)
    stage: int = 0                      # position within that pipeline
    background: bool = False            # ended by `&`
    second: str = ""                    # the second spelling (quotes, escapes, $IFS read away; data kept)


@dataclass(frozen=True)
class Split:
    """A line split into its parts, with the parse's notes."""

    line: str
    parts: tuple[Part, ...]
    ok: bool = True                     # False when the guard checks flagged the parse or the fallback ran
    notes: tuple[str, ...] = ()
    second: str = ""                    # the second spelling of the whole line


# ---------------------------------------------------------------- keys.py


@dataclass(frozen=True)
class Key:
    """The approval key of a part: its essential program, verb and pattern."""

    program: str | None                 # essential program, directory stripped; None when unknowable
    verb: str | None                    # multiplexer verb ("commit"), else None
    pattern: str                        # "git commit *", "head *", or the exact text
    exact: bool                         # the pattern is the part's exact text
    legacy: str | None = None           # program-only key of a multiplexer ("git *")
    command: tuple[str | None, ...] = ()        # argv from the essential program on (wrappers removed)
    wrappers: tuple[str, ...] = ()      # wrappers unwrapped, outermost first ("sudo", "env", "timeout")
    env: tuple[Assignment, ...] = ()    # assignments from the prefix and from `env NAME=…`
    privileged: bool = False            # runs through sudo/doas/su
    runs_nothing: bool = False          # e.g. `command -v rm`: looks up, runs nothing


# ---------------------------------------------------------------- rules/


@dataclass(frozen=True)
class Finding:
    """One thing a rule found: how bad, which rule (a stable id such as "git.push.force"), and why."""

    level: Level
    rule: str
    reason: str
    kind: str = ""                      # the effect the policy rated ("publish", "run-code", "path:write", ...)


@dataclass(frozen=True)
class Verdict:
    """A level and the findings behind it (the worst ones first)."""

    level: Level
    findings: tuple[Finding, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f.reason for f in self.findings)

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(f.rule for f in self.findings)

    @classmethod
    def of(cls, level: Level, rule: str, *reasons: str) -> "Verdict":
        """A verdict whose every reason comes from one rule."""
        return cls(level, tuple(Finding(level, rule, r) for r in reasons))


@dataclass(frozen=True)
class DenyHit:
    """The deny pattern that refused a line, and the text it matched."""

    pattern: str
    matched: str


# ---------------------------------------------------------------- gate.py


@dataclass(frozen=True)
class Judged:
    """A part with its key and its verdict."""

    part: Part
    key: Key
    verdict: Verdict
    facts: object = None                # what the rules found that the whole-line rules follow (policy.cmd)
    opinion: object = None              # the model's second opinion (classifier.opinion.Opinion), None: not asked


@dataclass(frozen=True)
class Decision:
    """What the gate decided for one part."""

    kind: str                           # "below-threshold", "cached-once", "cached-session", "cached-project",
                                        # "cached-always", "cached-legacy", "covered-line", "ask", "denied"
    approval_id: str | None = None


@dataclass(frozen=True)
class Question:
    """One thing a person must answer: a part, or (covered line) the whole line."""

    pattern: str                        # what the answer is remembered under
    exact: bool
    level: Level
    findings: tuple[Finding, ...]
    parts: tuple[int, ...]              # indices of the parts it covers
    whole_line: bool = False

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f.reason for f in self.findings)


@dataclass(frozen=True)
class Plan:
    """Everything the gate decided about a line, before anyone is asked."""

    line: str
    split: Split
    judged: tuple[Judged, ...]
    line_verdict: Verdict
    decisions: tuple[Decision, ...]
    questions: tuple[Question, ...]
    threshold: Level
    verdict: str                        # "run" | "ask" | "deny"
    covered_line: bool = False
    denied_by: DenyHit | None = None
    notes: tuple[str, ...] = field(default=())
    # An agent's known boilerplate around the payload (harnesses.json): `line` is then the payload alone
    # (what the refusal, the dialog and the audit show), `template` the template's id, `written` the whole
    # line as the agent wrote it.
    template: str | None = None
    written: str | None = None


# ---------------------------------------------------------------- ask.py


@dataclass(frozen=True)
class Answer:
    """A person's (or --yes's) answer to one Question of a Plan."""

    question: int                       # index into Plan.questions
    choice: str                         # "y" once, "s" session, "p" project, "a" always, "n" no
    source: str                         # "tty", "watch", "--yes", "none" (no one could be asked)
    note: str = ""                      # e.g. "timed out", "interrupted", "watcher went away"
