"""The data that flows through the pipeline, one way, as immutable records.

parse/ -> Split[Part]; keys.py -> Key; policy/ -> Verdict; decide/gate.py -> Plan; ask/ -> Answer.
No stage mutates what an earlier one produced. (invocation.py's Invocation is its own: argv is read before
this module is imported.)

Records are plain classes (support/record.py), not dataclasses: every agent command imports this module,
and `dataclasses` (with the inspect, ast, dis and tokenize it brings) plus building 14 dataclasses cost more
start-up time than judging the line. They keep the dataclass interface the stages use: keyword or positional
construction with defaults, equality and hashing by fields, a repr, no assignment after construction, and
`replace(record, **changes)`.
"""
from __future__ import annotations

from wispsh.support.record import Record, replace  # noqa: F401  (replace: the one way to change a field)

_set = object.__setattr__  # records set their fields once, in __init__


_LEVEL_NAMES = ("SAFE", "LOW", "MODERATE", "HIGH", "DANGEROUS")


class _Levels(type):
    """What an IntEnum's class offers that the stages use: Level["HIGH"], iteration in order, len."""

    def __getitem__(cls, name: str) -> "Level":
        return cls._by_name[name]

    def __iter__(cls):
        return iter(cls._members)

    def __len__(cls) -> int:
        return len(cls._members)


class Level(int, metaclass=_Levels):
    """How bad a part is, from safe to dangerous: an int (compared, maxed, written to JSON as one) with a
    name. An enum.IntEnum's behaviour without the enum module (and the functools and collections it imports):
    every agent command imports this. Level(3) and Level["HIGH"] are the one Level.HIGH; str() is "high"
    (contracts.md), repr() "<Level.HIGH: 3>"."""

    __slots__ = ()
    _members: tuple = ()
    _by_name: dict = {}

    def __new__(cls, value: int) -> "Level":
        try:
            return cls._members[value] if value >= 0 else cls._members[len(cls._members)]
        except (IndexError, TypeError):
            raise ValueError(f"{value!r} is not a valid Level") from None

    @property
    def name(self) -> str:
        return _LEVEL_NAMES[self]

    @property
    def value(self) -> int:
        return int(self)

    def __str__(self) -> str:  # "moderate", as in contracts.md
        return _LEVEL_NAMES[self].lower()

    def __repr__(self) -> str:
        return f"<Level.{_LEVEL_NAMES[self]}: {int(self)}>"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else int.__format__(self, spec)     # as IntEnum: f"{lv}", f"{lv:>3}"

    def __reduce__(self):
        return Level, (int(self),)

    @classmethod
    def parse(cls, text: str) -> "Level":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown level {text!r} (one of safe, low, moderate, high, dangerous)") from None

    SAFE: "Level"
    LOW: "Level"
    MODERATE: "Level"
    HIGH: "Level"
    DANGEROUS: "Level"


Level._members = tuple(int.__new__(Level, value) for value in range(len(_LEVEL_NAMES)))
Level._by_name = dict(zip(_LEVEL_NAMES, Level._members))
for _member in Level._members:
    setattr(Level, _LEVEL_NAMES[_member], _member)
del _member


# ---------------------------------------------------------------- parse/


class Redirect(Record):
    """A redirection of a part: operator, fd, target."""

    op: str                 # ">", ">>", ">|", "&>", "&>>", "<", "<>", "<<", "<<-", "<<<", ">&", "<&"
    fd: str | None          # the fd written before the operator ("2" in 2>), as written
    target: str | None      # the target unquoted, None when it is known only at run time
    target_text: str        # the target as written

    __slots__ = FIELDS = ('op', 'fd', 'target', 'target_text')

    def __init__(self, op, fd, target, target_text) -> None:
        _set(self, 'op', op)
        _set(self, 'fd', fd)
        _set(self, 'target', target)
        _set(self, 'target_text', target_text)


class Assignment(Record):
    """A variable assignment: NAME=value."""

    name: str               # "LD_PRELOAD", "a[1]"
    value: str | None       # unquoted static value; None when known only at run time
    text: str               # as written ("X=$(cmd)")

    __slots__ = FIELDS = ('name', 'value', 'text')

    def __init__(self, name, value, text) -> None:
        _set(self, 'name', name)
        _set(self, 'value', value)
        _set(self, 'text', text)


class LoopRange(Record):
    """What a loop variable ranges over."""

    var: str                # "f"
    over: str               # what it ranges over, as written: "~/*", '"$@"', "lines of list.txt"
    words: tuple[str | None, ...]       # the range's static words (None: known only at run time)
    span: tuple[int, int] | None        # where `over` is in the line (the parts of its $(…) lie inside); not compared

    __slots__ = FIELDS = ('var', 'over', 'words', 'span')
    COMPARED = SHOWN = ('var', 'over', 'words')

    def __init__(self, var, over, words=(), span=None) -> None:
        _set(self, 'var', var)
        _set(self, 'over', over)
        _set(self, 'words', words)
        _set(self, 'span', span)


class Part(Record):
    """One simple command of the line, with everything the later stages need to judge it.

    No __slots__: its fields live in its __dict__, so that the splitter builds a Part with one dict update
    (parse/parts.py Builder.finish: 20,000 parts a line, where one setattr per field showed)."""

    text: str                           # as written (nested code: the code itself)
    span: tuple[int, int]               # character offsets into the top-level line
    argv: tuple[str | None, ...]        # static words unquoted; None for a word known only at run time
    words: tuple[str, ...]              # the same words as written
    assignments: tuple[Assignment, ...]        # prefix VAR=value (and bare assignment statements)
    redirects: tuple[Redirect, ...]
    origin: str                         # "top", "$()", "``", "<()", ">()", "subshell", "group", "clause",
                                        # "function", "sh -c", "eval", "find -exec", "xargs", "heredoc",
                                        # "trap", "opaque", ...
    context: str | None                 # "f in ~/*" for a part that uses a loop variable
    loops: tuple[LoopRange, ...]        # the loop ranges behind `context`
    runtime_program: bool               # the program is chosen at run time ($X args, $(which rm) -rf)
    opaque: bool                        # text the splitter could not read as commands (judged whole)
    stdin_code: str | None              # heredoc / here-string body fed to this part (code for interpreters)
    stdin_quoted: bool                  # that body came from a quoted heredoc delimiter (no expansion)
    parent: int | None                  # index of the part whose text holds this one (nested code)
    pipeline: int | None                # id of the pipeline this part is a stage of (None: not piped)
    stage: int                          # position within that pipeline
    background: bool                    # ended by `&`
    second: str                         # the second spelling (quotes, escapes, $IFS read away; data kept)

    FIELDS = ('text', 'span', 'argv', 'words', 'assignments', 'redirects', 'origin', 'context', 'loops',
              'runtime_program', 'opaque', 'stdin_code', 'stdin_quoted', 'parent', 'pipeline', 'stage',
              'background', 'second')

    def __init__(self, text, span, argv, words=(), assignments=(), redirects=(), origin="top", context=None,
                 loops=(), runtime_program=False, opaque=False, stdin_code=None, stdin_quoted=False, parent=None,
                 pipeline=None, stage=0, background=False, second="") -> None:
        self.__dict__.update(text=text, span=span, argv=argv, words=words, assignments=assignments,
                             redirects=redirects, origin=origin, context=context, loops=loops,
                             runtime_program=runtime_program, opaque=opaque, stdin_code=stdin_code,
                             stdin_quoted=stdin_quoted, parent=parent, pipeline=pipeline, stage=stage,
                             background=background, second=second)


class Split(Record):
    """A line split into its parts, with the parse's notes."""

    line: str
    parts: tuple[Part, ...]
    ok: bool                            # False when the guard checks flagged the parse or the fallback ran
    notes: tuple[str, ...]
    second: str                         # the second spelling of the whole line

    __slots__ = FIELDS = ('line', 'parts', 'ok', 'notes', 'second')

    def __init__(self, line, parts, ok=True, notes=(), second="") -> None:
        _set(self, 'line', line)
        _set(self, 'parts', parts)
        _set(self, 'ok', ok)
        _set(self, 'notes', notes)
        _set(self, 'second', second)


# ---------------------------------------------------------------- keys.py


class Key(Record):
    """The approval key of a part: its essential program, verb and pattern."""

    program: str | None                 # essential program, directory stripped; None when unknowable
    verb: str | None                    # multiplexer verb ("commit"), else None
    pattern: str                        # "git commit *", "head *", or the exact text
    exact: bool                         # the pattern is the part's exact text
    legacy: str | None                  # program-only key of a multiplexer ("git *")
    command: tuple[str | None, ...]             # argv from the essential program on (wrappers removed)
    wrappers: tuple[str, ...]           # wrappers unwrapped, outermost first ("sudo", "env", "timeout")
    env: tuple[Assignment, ...]         # assignments from the prefix and from `env NAME=…`
    privileged: bool                    # runs through sudo/doas/su
    runs_nothing: bool                  # e.g. `command -v rm`: looks up, runs nothing

    __slots__ = FIELDS = ('program', 'verb', 'pattern', 'exact', 'legacy', 'command', 'wrappers', 'env',
                          'privileged', 'runs_nothing')

    def __init__(self, program, verb, pattern, exact, legacy=None, command=(), wrappers=(), env=(),
                 privileged=False, runs_nothing=False) -> None:
        _set(self, 'program', program)
        _set(self, 'verb', verb)
        _set(self, 'pattern', pattern)
        _set(self, 'exact', exact)
        _set(self, 'legacy', legacy)
        _set(self, 'command', command)
        _set(self, 'wrappers', wrappers)
        _set(self, 'env', env)
        _set(self, 'privileged', privileged)
        _set(self, 'runs_nothing', runs_nothing)


# ---------------------------------------------------------------- policy/


class Finding(Record):
    """One thing a rule found: how bad, which rule (a stable id such as "git.push.force"), and why."""

    level: Level
    rule: str
    reason: str
    kind: str                           # the effect the policy rated ("publish", "run-code", "path:write", ...)

    __slots__ = FIELDS = ('level', 'rule', 'reason', 'kind')

    def __init__(self, level, rule, reason, kind="") -> None:
        _set(self, 'level', level)
        _set(self, 'rule', rule)
        _set(self, 'reason', reason)
        _set(self, 'kind', kind)

    @property
    def effect(self) -> str:
        """What kind of thing the finding says the part does, as a standing approval records it: the policy's
        effect kind for a program's row ("fetch", "change", "run-code"), the rule itself where the place or the
        variable is the point ("path.send.secret", "path.embed.secret", "env.LD_PRELOAD", "flow.…")."""
        kind = self.kind
        return kind if kind and kind[:5] != "path:" and kind != "env" else self.rule


class Verdict(Record):
    """A level and the findings behind it (the worst ones first), and every effect the part has at any level
    (what a standing approval must match: decide/gate.py)."""

    level: Level
    findings: tuple[Finding, ...]
    effects: tuple[tuple[str, Level], ...]     # (Finding.effect, its level) of every finding above safe

    __slots__ = FIELDS = ('level', 'findings', 'effects')

    def __init__(self, level, findings=(), effects=None) -> None:
        _set(self, 'level', level)
        _set(self, 'findings', findings)
        _set(self, 'effects', tuple((f.effect, f.level) for f in findings) if effects is None else effects)

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


class DenyHit(Record):
    """The deny pattern that refused a line, and the text it matched."""

    pattern: str
    matched: str

    __slots__ = FIELDS = ('pattern', 'matched')

    def __init__(self, pattern, matched) -> None:
        _set(self, 'pattern', pattern)
        _set(self, 'matched', matched)


# ---------------------------------------------------------------- decide/gate.py


class Judged(Record):
    """A part with its key and its verdict."""

    part: Part
    key: Key
    verdict: Verdict
    facts: object                       # what the rules found that the whole-line rules follow (policy.cmd)
    opinion: object                     # the model's second opinion (classifier.opinion.Opinion), None: not asked

    __slots__ = FIELDS = ('part', 'key', 'verdict', 'facts', 'opinion')

    def __init__(self, part, key, verdict, facts=None, opinion=None) -> None:
        _set(self, 'part', part)
        _set(self, 'key', key)
        _set(self, 'verdict', verdict)
        _set(self, 'facts', facts)
        _set(self, 'opinion', opinion)


class Decision(Record):
    """What the gate decided for one part."""

    kind: str                           # "below-threshold", "cached-once", "cached-session", "cached-project",
                                        # "cached-always", "cached-legacy", "covered-line", "ask", "denied"
    approval_id: str | None

    __slots__ = FIELDS = ('kind', 'approval_id')

    def __init__(self, kind, approval_id=None) -> None:
        _set(self, 'kind', kind)
        _set(self, 'approval_id', approval_id)


class Question(Record):
    """One thing a person must answer: a part, or (covered line) the whole line."""

    pattern: str                        # what the answer is remembered under
    exact: bool
    level: Level
    findings: tuple[Finding, ...]
    parts: tuple[int, ...]              # indices of the parts it covers
    whole_line: bool
    effects: tuple[str, ...]            # what its parts do (at the threshold or above): what a grant covers

    __slots__ = FIELDS = ('pattern', 'exact', 'level', 'findings', 'parts', 'whole_line', 'effects')

    def __init__(self, pattern, exact, level, findings, parts, whole_line=False, effects=()) -> None:
        _set(self, 'pattern', pattern)
        _set(self, 'exact', exact)
        _set(self, 'level', level)
        _set(self, 'findings', findings)
        _set(self, 'parts', parts)
        _set(self, 'whole_line', whole_line)
        _set(self, 'effects', effects)

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f.reason for f in self.findings)


class Plan(Record):
    """Everything the gate decided about a line, before anyone is asked."""

    line: str
    split: Split
    judged: tuple[Judged, ...]
    line_verdict: Verdict
    decisions: tuple[Decision, ...]
    questions: tuple[Question, ...]
    threshold: Level
    verdict: str                        # "run" | "ask" | "deny"
    covered_line: bool
    denied_by: DenyHit | None
    notes: tuple[str, ...]
    # An agent's known boilerplate around the payload (harnesses.json): `line` is then the payload alone
    # (what the refusal, the dialog and the audit show), `template` the template's id, `written` the whole
    # line as the agent wrote it.
    template: str | None
    written: str | None

    __slots__ = FIELDS = ('line', 'split', 'judged', 'line_verdict', 'decisions', 'questions', 'threshold',
                          'verdict', 'covered_line', 'denied_by', 'notes', 'template', 'written')

    def __init__(self, line, split, judged, line_verdict, decisions, questions, threshold, verdict,
                 covered_line=False, denied_by=None, notes=(), template=None, written=None) -> None:
        _set(self, 'line', line)
        _set(self, 'split', split)
        _set(self, 'judged', judged)
        _set(self, 'line_verdict', line_verdict)
        _set(self, 'decisions', decisions)
        _set(self, 'questions', questions)
        _set(self, 'threshold', threshold)
        _set(self, 'verdict', verdict)
        _set(self, 'covered_line', covered_line)
        _set(self, 'denied_by', denied_by)
        _set(self, 'notes', notes)
        _set(self, 'template', template)
        _set(self, 'written', written)


# ---------------------------------------------------------------- ask/


class Answer(Record):
    """A person's (or --yes's) answer to one Question of a Plan."""

    question: int                       # index into Plan.questions
    choice: str                         # "y" once, "s" session, "p" project, "a" always, "n" no
    source: str                         # "tty", "watch", "--yes", "none" (no one could be asked)
    note: str                           # e.g. "timed out", "interrupted", "watcher went away"

    __slots__ = FIELDS = ('question', 'choice', 'source', 'note')

    def __init__(self, question, choice, source, note="") -> None:
        _set(self, 'question', question)
        _set(self, 'choice', choice)
        _set(self, 'source', source)
        _set(self, 'note', note)
