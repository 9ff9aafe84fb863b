"""The splitter's working records for one line: a part being built, a piece of code waiting to be split, and
the Builder that collects parts, notes and jobs and makes the final Split.

The tree walk (tree.py), the fallback scanner's adapter (split.py) and the readers of what programs run
(nested.py) all add to one Builder; data flows one way, from the Builder into the frozen Split.
"""
from __future__ import annotations

from wispsh.model import Part, Split
from wispsh.parse.words import brace_overflow, expand_braces, has_unquoted_glob, read_away, second_words, unquote
from wispsh.support.lazyre import re

MAX_CODE_DEPTH = 16             # sh -c 'sh -c "…"' levels of literal code
MAX_BRACE_WORDS = 256


class RawPart:
    """A part being built (mutable until the Split is made). A plain class: dataclass creation costs
    import time on the hot path. `local`: its span in the code of the job that made it."""

    __slots__ = ("text", "span", "argv", "words", "assignments", "redirects", "origin", "loops",
                 "runtime_program", "opaque", "stdin_code", "stdin_quoted", "parent", "pipeline", "stage",
                 "background", "code_depth", "context", "local")

    def __init__(self, text: str, span: tuple[int, int], argv: list, words: list, assignments: list | None = None,
                 redirects: list | None = None, origin: str = "top", loops: tuple = (), runtime_program: bool = False,
                 opaque: bool = False, stdin_code: str | None = None, stdin_quoted: bool = False,
                 parent: int | None = None, pipeline: int | None = None, stage: int = 0, background: bool = False,
                 code_depth: int = 0, context: str | None = None, local: tuple[int, int] | None = None):
        self.text, self.span, self.argv, self.words = text, span, argv, words
        self.assignments = assignments if assignments is not None else []
        self.redirects = redirects if redirects is not None else []
        self.origin, self.loops, self.runtime_program, self.opaque = origin, loops, runtime_program, opaque
        self.stdin_code, self.stdin_quoted, self.parent = stdin_code, stdin_quoted, parent
        self.pipeline, self.stage, self.background = pipeline, stage, background
        self.code_depth, self.context = code_depth, context
        self.local = local


class Job:
    """Code to split: the line itself, or code found in it. `span` None: the line itself (real offsets).
    Otherwise every part it gives carries `span` (the text that holds the code), unless `base` is set:
    the code is the line's own text from offset `base`, and its parts get real spans."""

    __slots__ = ("code", "origin", "span", "parent", "depth", "loops", "base")

    def __init__(self, code: str, origin: str, span: tuple[int, int] | None, parent: int | None, depth: int,
                 loops: tuple = (), base: int | None = None):
        self.code, self.origin, self.span, self.parent, self.depth, self.loops = \
            code, origin, span, parent, depth, loops
        self.base = base

    def line_span(self, start: int, end: int) -> tuple[int, int]:
        """Where job-local character offsets [start, end) lie in the line."""
        if self.span is None:
            return start, end
        if self.base is not None:
            return self.base + start, self.base + end
        return self.span


class Builder:
    """Parts, notes and pending jobs of one line."""

    def __init__(self, line: str):
        self.line = line
        self.parts: list[RawPart] = []
        self.notes: list[str] = []
        self.ok = True
        self.jobs: list[Job] = []
        self.pipelines = 0

    def add(self, raw: RawPart) -> int:
        self.parts.append(raw)
        return len(self.parts) - 1

    def new_pipeline(self) -> int:
        self.pipelines += 1
        return self.pipelines

    def distrust(self, note: str) -> None:
        """The parse is not fully trusted (reported as parse.ok false) for this reason."""
        self.ok = False
        self.notes.append(note)

    def enqueue(self, code: str, origin: str, holder: int) -> None:
        """Code the part `holder` runs: split as a job of its own, its parts under the holder."""
        raw = self.parts[holder]
        if raw.code_depth + 1 > MAX_CODE_DEPTH:
            raw.opaque = True
            self.distrust(f"{origin} code nested deeper than {MAX_CODE_DEPTH} levels: judged whole")
            return
        self.jobs.append(Job(code, origin, raw.span, holder, raw.code_depth + 1, raw.loops))

    def dynamic(self, holder: int, what: str) -> None:
        """The part runs code known only at run time: it is judged whole."""
        self.parts[holder].opaque = True
        self.notes.append(f"{what} is known only at run time: judged whole")

    def opaque_job(self, job: Job, note: str) -> None:
        self.distrust(note)
        span = job.span if job.span is not None else (0, len(job.code))
        self.parts.append(RawPart(job.code, span, [], [], origin="opaque", opaque=True, parent=job.parent,
                                  code_depth=job.depth, loops=job.loops, local=(0, len(job.code))))

    def finish(self) -> Split:
        parts = []
        new = object.__new__
        for raw in self.parts:
            # Part(**fields) without calling its __init__ (the keyword call, the most costly step of a
            # 20,000-part line): the same object, its fields set at once
            part = new(Part)
            part.__dict__.update(
                text=raw.text, span=raw.span, argv=tuple(raw.argv), words=tuple(raw.words),
                assignments=tuple(raw.assignments), redirects=tuple(raw.redirects), origin=raw.origin,
                context=raw.context, loops=tuple(raw.loops), runtime_program=raw.runtime_program,
                opaque=raw.opaque, stdin_code=raw.stdin_code, stdin_quoted=raw.stdin_quoted, parent=raw.parent,
                pipeline=raw.pipeline, stage=raw.stage, background=raw.background, second=second_of(raw))
            parts.append(part)
        if parts and len(parts[0].__dict__) != len(Part.FIELDS):
            raise AssertionError("Part has fields finish() does not set")   # a field added to model.Part
        return Split(line=self.line, parts=tuple(parts), ok=self.ok, notes=tuple(dict.fromkeys(self.notes)),
                     second=line_second(self.line, parts))


# ---------------------------------------------------------------- a part's words as bash runs them

_TIME_WORDS = ("time", "coproc")


def settle_program(raw: RawPart) -> None:
    """The words as bash runs them: `time`/`coproc` keywords off the front, brace expansion of every word
    (`{sh,} -c …` runs sh, `"$HOME"/{.ssh,.gnupg}` is two words), runtime_program when the program is an
    expansion or a glob."""
    words, argv = raw.words, raw.argv
    while words and argv and argv[0] in _TIME_WORDS and len(words) > 1:
        drop = 1
        if argv[0] == "time":
            while drop < len(argv) and argv[drop] in ("-p", "--"):
                drop += 1
        if drop >= len(words):
            break
        words, argv = words[drop:], argv[drop:]
    if "{" in "".join(words):     # one C scan (most parts hold no brace)
        new_words: list[str] = []
        new_argv: list = []
        for k, (word, value) in enumerate(zip(words, argv)):
            if "{" not in word:
                new_words.append(word)
                new_argv.append(value)
                continue
            expanded = expand_braces(word, MAX_BRACE_WORDS)
            if brace_overflow(word, MAX_BRACE_WORDS):   # too many to spell out: known only at run time
                new_words.append(word)
                new_argv.append(None)
                continue
            new_words.extend(expanded)
            new_argv.extend(unquote(w) if w != word else value for w in expanded)
        words, argv = new_words, new_argv
    if words is not raw.words:
        raw.words, raw.argv = list(words), list(argv)
    if argv:
        first = words[0]
        raw.runtime_program = argv[0] is None or ("*" in first or "?" in first or "[" in first) and \
            has_unquoted_glob(first)


def loops_used(text: str, loops: tuple) -> tuple[tuple, str | None]:
    """Every loop around a part (its variable is bound there, used or not: `for HISTFILE in …; do history -w`
    reads it by name, `for x in …; do ((x))` evaluates it), and the context shown: the loops its text expands."""
    if not loops:
        return (), None
    used = [loop for loop in loops
            if re.search(r"\$\{?[#!]?" + re.escape(loop.var) + r"(?![A-Za-z0-9_])", text)]
    return tuple(loops), "; ".join(f"{loop.var} in {loop.over}" for loop in used) or None


def second_of(raw: RawPart) -> str:
    if raw.opaque and not raw.argv:
        return read_away(raw.text) if len(raw.text) < 100_000 else raw.text
    pieces = second_words(raw.words, raw.argv)
    if raw.assignments:
        pieces[0:0] = [read_away(a.text) for a in raw.assignments if a.text not in raw.words]
    for r in raw.redirects:
        pieces.append(f"{r.fd or ''}{r.op}{r.target_text}" if r.op not in ("<<", "<<-") else f"{r.op}{r.target_text}")
    return " ".join([p for p in pieces if p])


def line_second(line: str, parts: list[Part]) -> str:
    """The line with each outermost part replaced by its second spelling; operators kept as written."""
    outer = sorted((p for p in parts if p.parent is None), key=lambda p: p.span)
    out: list[str] = []
    at = 0
    for p in outer:
        start, end = p.span
        if start < at:
            continue
        out.append(line[at:start])
        out.append(p.second)
        at = end
    out.append(line[at:])
    return "".join(out)
