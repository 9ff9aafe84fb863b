"""split.py: a line of shell -> every simple command in it (Split of Parts). Nothing dropped.

The driver of the parse package. The line is a job; each job is walked with tree-sitter (tree.py) unless a
guard check flags it (guards.py), then the fallback scanner (scan.py) cuts it. After a walk the invariant
is checked: every place the scanner's lexer says bash runs code must be one the walk descended into; the
code of a place it missed is split all the same (guards.uncovered). Then each new part is read for what it
runs (nested.py: sh -c, eval, find -exec, …, from programs/code_carriers.py), which gives more jobs and
parts: a work queue, never recursion. Any internal error yields one opaque part for the whole line.
"""
from __future__ import annotations

import bisect
import gc
import os
import sys

from wispsh.model import Assignment, LoopRange, Part, Redirect, Split
from wispsh.parse import guards, nested, scan, tree
from wispsh.parse.guards import Flagged, TooDeep
from wispsh.parse.parts import Builder, Job, RawPart, loops_used, settle_program
from wispsh.parse.words import redirect_target, unescape_backticks, unquote
from wispsh.support.lazyre import lazy_re, re

MAX_CHARS = 4_000_000           # a longer line is judged whole
MAX_PARTS = 200_000
MAX_NESTING = tree.MAX_NESTING
RESERVED = guards.RESERVED

# Places where bash evaluates a variable's text: arithmetic (and the subscripts it holds), indirection, prompts.
_EVALUATES_TEXT = lazy_re(r"\$\(\(|\(\(|\$\[|\blet\b|\$\{!|@P\}|\[\[[^\n]*-(?:eq|ne|lt|le|gt|ge)\b"
                          r"|\b(?:declare|local|typeset)\s+-\w*[niaA]")
_EVALUATING_NEEDLES = ("((", "$[", "let", "${!", "@P}", "[[", "declare", "local", "typeset")   # cheap pre-check


def split_line(line: str) -> Split:
    """Every simple command of `line`. Never raises: on an internal error, one opaque whole-line part."""
    if "\x00" in line:
        return _without_nul(line)
    collecting = gc.isenabled()
    gc.disable()   # many short-lived, acyclic objects: the cyclic collector would only add superlinear pauses
    try:
        return _split(line)
    except Exception as exc:  # fail closed: judged whole, parse not ok
        return _whole_line_opaque(line, f"internal error in the splitter: {type(exc).__name__}: {exc}")
    finally:
        if collecting:
            gc.enable()


def _without_nul(line: str) -> Split:
    """bash drops NUL bytes from what it reads (`r\\0m` runs rm): split the text bash reads, with spans mapped
    back onto the line as given."""
    read = split_line(line.replace("\x00", ""))
    nul_at = [k - j for j, k in enumerate(m.start() for m in re.finditer("\x00", line))]   # in read offsets

    def start(offset: int) -> int:
        return offset + bisect.bisect_right(nul_at, offset)

    def end(offset: int) -> int:
        return offset + bisect.bisect_left(nul_at, offset)

    parts = tuple(Part(**{**{f: getattr(p, f) for f in Part.FIELDS},
                          "span": (start(p.span[0]), max(start(p.span[0]), end(p.span[1])))}) for p in read.parts)
    return Split(line=line, parts=parts, ok=False,
                 notes=read.notes + ("NUL bytes in the text: read away, as bash drops them from its input",),
                 second=read.second)


def _whole_line_opaque(line: str, note: str) -> Split:
    part = Part(text=line, span=(0, len(line)), argv=(), words=(), origin="opaque", opaque=True, second=line)
    return Split(line=line, parts=(part,), ok=False, notes=(note,), second=line)


def _split(line: str) -> Split:
    if len(line) > MAX_CHARS:
        return _whole_line_opaque(line, f"line longer than {MAX_CHARS} characters: judged whole")
    out = Builder(line)
    out.jobs.extend(_first_jobs(line))
    done = 0
    while out.jobs:
        batch = list(out.jobs)      # the code known now; what it runs comes in the next batch, in order
        out.jobs.clear()
        crashed = _parser_crashes([job.code for job in batch])
        for k, job in enumerate(batch):
            if k in crashed:
                out.opaque_job(job, f"the parser crashed on this text ({crashed[k]}): judged whole")
            else:
                _run_job(out, job)
            while done < len(out.parts):    # parts that run commands give more parts or more code
                nested.read(out, done)
                done += 1
            if len(out.parts) > MAX_PARTS:
                return _whole_line_opaque(line, f"more than {MAX_PARTS} parts: judged whole")
    if not out.parts and line.strip() and not _only_comments(line) and not _only_arithmetic(line):
        # Defensive: text with no part would be dropped; judge it whole instead.
        out.add(RawPart(line, (0, len(line)), [], [], origin="opaque", opaque=True))
        out.distrust("no command found in non-blank text: judged whole")
    return out.finish()


def _first_jobs(line: str) -> list[Job]:
    """The code of a line known before anything is walked: the first batch (start_guard parses it early)."""
    jobs = [Job(line, "top", None, None, 0)]
    if ("'" in line or "\\" in line) and ("$(" in line or "`" in line) \
            and any(needle in line for needle in _EVALUATING_NEEDLES) and _EVALUATES_TEXT.search(line):
        # `read x <<< 'a[$(rm -rf ~)]'; echo $((x))`: quoted text reaches a variable, then bash evaluates it
        # (arithmetic, a subscript, ${!x}, ${x@P}): every $(…) the line holds as text is judged as code too
        bodies = scan.quoted_substitution_bodies(line)
        if bodies:   # one job for all: parsed once, however many there are
            jobs.append(Job("\n".join(bodies), "stored code", (0, len(line)), None, 1))
    return jobs


_GUARDED = [False]
_EARLY: dict[tuple[str, ...], tuple[int, int]] = {}     # codes -> (pid, pipe) of a guard child parsing them


def guard_native_crashes(on: bool = True) -> None:
    """Parse in a forked child first from now on (see _parser_crashes). The gate's own process turns it on
    (cli/sh.py): a small, single-threaded process, where a fork costs about half a millisecond. A process with
    a big heap pays far more per fork (page tables): the test suite and warm hosts leave it off."""
    _GUARDED[0] = on


def _parser_crashes(codes: list[str]) -> dict[int, str]:
    """Which of `codes` kill the process that parses them (tree-sitter is C; its scanner once read past a
    table on some Unicode input and died by SIGSEGV: fixed at the root in tree.Source). With the guard on, a
    forked child parses them all first, so a native crash is never the gate's answer: the code that crashed it
    is judged whole instead, by this process, which never parses it. One fork per batch of code (the line,
    then the code it holds: a few per line); only when a batch crashes is each of its codes tried alone.
    Never in a process running other threads (a fork copies one thread only) or where fork does not exist."""
    if not _guard_on():
        return {}
    todo = [k for k, code in enumerate(codes) if not guards.has_control(code)]   # those are scanned
    if not todo:
        return {}
    death = _parse_in_child([codes[k] for k in todo])
    if death is None:
        return {}
    if len(todo) == 1:
        return {todo[0]: death}
    return {k: found for k in todo if (found := _parse_in_child([codes[k]])) is not None}


def _guard_on() -> bool:
    return _GUARDED[0] and hasattr(os, "fork") and not (
        "threading" in sys.modules and sys.modules["threading"].active_count() > 1)


def start_guard(line: str) -> None:
    """Fork the guard's child for the first batch of `line` now, when the gate knows the line it will split:
    the child parses while this process loads and reads the rest of what judging needs, and split_line then
    only collects how it ended (the same child, the same code: nothing is parsed here before it survived).
    For the gate's own process (the guard on); a line an agent's template may wrap is split as its payload
    instead, so it is left to split_line."""
    if not _guard_on() or _EARLY:
        return
    if "\x00" in line:
        line = line.replace("\x00", "")          # what split_line splits (bash drops NUL bytes)
    if len(line) > MAX_CHARS:
        return
    codes = [job.code for job in _first_jobs(line)]
    todo = tuple(code for code in codes if not guards.has_control(code))
    if todo:
        _EARLY[todo] = _fork_parse(todo)


def collect_guard() -> None:
    """Wait for the guard children this process started: one started early and never asked for (the line was
    refused before it was split, or not split at all), and those that lived (they said so, then exited on
    their own time): the shell this process becomes must not inherit them."""
    for pid, reader in _EARLY.values():
        os.close(reader)
        os.waitpid(pid, 0)
    _EARLY.clear()
    while _LIVED_CHILDREN:
        os.waitpid(_LIVED_CHILDREN.pop(), 0)


_LIVED = b"+"                   # what a guard child writes once it has parsed every code (or met an error)
_LIVED_CHILDREN: list[int] = []


def _fork_parse(codes) -> tuple[int, int]:
    """(the child's pid, the read end of its pipe): the child parses `codes`, writes _LIVED, and exits. The
    parent reads the pipe rather than waiting for the exit, which takes as long again (the child's copy of
    this process is torn down)."""
    tree.parser()           # made before the fork: the child inherits it
    reader, writer = os.pipe()      # close-on-exec, as every fd Python makes
    pid = os.fork()
    if pid == 0:    # the child: parse, and leave without running anything of the parent's (no flush, no atexit)
        os.close(reader)
        try:
            for code in codes:
                tree.parse(tree.Source(code))
        except BaseException:
            pass        # not a crash: the parent meets the same error and judges the text whole
        try:
            os.write(writer, _LIVED)
        except OSError:
            pass
        os._exit(0)
    os.close(writer)
    return pid, reader


def _parse_in_child(codes: list[str]) -> str | None:
    """Parse `codes` in a forked child: None when it lived, else how it died ("SIGSEGV")."""
    started = _EARLY.pop(tuple(codes), None)
    collect_guard()                     # one started for code that is not split after all: collected, unused
    pid, reader = started if started is not None else _fork_parse(codes)
    try:
        said = os.read(reader, 1)       # what it wrote, or b"" once it is gone without writing
    finally:
        os.close(reader)
    if said == _LIVED:
        _LIVED_CHILDREN.append(pid)
        return None
    _, status = os.waitpid(pid, 0)
    if not os.WIFSIGNALED(status):
        return None
    number = os.WTERMSIG(status)
    import signal   # only here: its import costs start-up time on every line

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _run_job(out: Builder, job: Job) -> None:
    start, pipelines, queued = len(out.parts), out.pipelines, len(out.jobs)
    try:
        guards.check_control(job.code)
        walker = tree.Walker(out, job)
        walker.walk()
    except (Flagged, TooDeep) as why:
        del out.parts[start:]          # nothing of a walk that was not trusted stays
        out.pipelines = pipelines
        while len(out.jobs) > queued:
            out.jobs.pop()
        if isinstance(why, TooDeep):
            out.opaque_job(job, f"nesting deeper than {MAX_NESTING} levels: judged whole")
            return
        out.distrust(f"parse flagged ({why}); fallback scanner used"
                     + ("" if job.span is None else f" for {job.origin} code"))
        _scan(out, job)
        return
    missed = guards.uncovered(job.code, walker.claimed, walker.handed)
    if missed:
        _split_missed(out, job, start, missed)


def _split_missed(out: Builder, job: Job, first: int, missed: list) -> None:
    """Places where bash runs code that the walk did not show as code (`${x#$(cmd)}` was one unparsed leaf):
    their code is split as a job of its own, under the innermost part of this job whose text holds it."""
    out.distrust("code the parse tree did not show as code (" + ", ".join(sorted({s.origin for s in missed}))
                 + "): split from the text")
    # the innermost part holding each place: one sweep over the parts sorted by where they start (the
    # places come in order), a stack of the parts still open
    spans = sorted((raw.local[0], -raw.local[1], k) for k, raw in enumerate(out.parts[first:], first)
                   if raw.local is not None)
    open_parts: list[tuple[int, int]] = []    # (end, index)
    j = 0
    for site in missed:
        if site.origin == "opaque":
            out.opaque_job(job, "text too deeply nested to read: judged whole")
            continue
        while j < len(spans) and spans[j][0] <= site.open_at:
            start, negative_end, k = spans[j]
            while open_parts and open_parts[-1][0] <= start:
                open_parts.pop()
            open_parts.append((-negative_end, k))
            j += 1
        while open_parts and open_parts[-1][0] <= site.open_at:
            open_parts.pop()
        holder = open_parts[-1][1] if open_parts else None
        code = job.code[site.inner_start:site.inner_end]
        base = None
        if site.origin == "``":
            unescaped = unescape_backticks(code)    # inside backticks \\ \` \$ lose their backslash
            base_ok = unescaped == code
            code = unescaped
        else:
            base_ok = True
        if base_ok and job.span is None:
            base = site.inner_start
        elif base_ok and job.base is not None:
            base = job.base + site.inner_start
        if holder is not None:
            raw = out.parts[holder]
            out.jobs.append(Job(code, site.origin, raw.span, holder, raw.code_depth, raw.loops, base))
        else:
            span = job.line_span(site.inner_start, site.inner_end)
            out.jobs.append(Job(code, site.origin, span, job.parent, job.depth, job.loops, base))


def _scan(out: Builder, job: Job) -> None:
    segments = scan.scan(job.code)
    offset = len(out.parts)
    headers: dict = {}      # LoopHeader -> its LoopRange (made once however many segments follow it)
    ids: dict[int, int] = {}
    for seg in segments:
        if seg.pipeline is not None and seg.pipeline not in ids:
            ids[seg.pipeline] = out.new_pipeline()
        span = job.line_span(seg.start, seg.end)
        text = out.line[span[0]:span[1]] if job.span is None else job.code[seg.start:seg.end]
        origin = seg.origin if seg.origin != "top" or job.origin == "top" else job.origin
        assignments = [_assignment_from_text(w) for w in seg.assignments]
        redirects = [Redirect(op, fd, redirect_target(t) if t else None, t) for op, fd, t in seg.redirects]
        raw = RawPart(text, span, [unquote(w) for w in seg.words], list(seg.words), assignments, redirects,
                      origin=origin, parent=(offset + seg.parent) if seg.parent is not None else job.parent,
                      pipeline=ids.get(seg.pipeline), stage=seg.stage, background=seg.background,
                      code_depth=job.depth, stdin_code=seg.stdin_code, stdin_quoted=seg.stdin_quoted,
                      opaque=seg.opaque, local=(seg.start, seg.end))
        settle_program(raw)
        raw.loops, raw.context = loops_used(text, job.loops + _header_loops(job, seg.loops, headers))
        index = out.add(raw)
        for origin, code in seg.nested_code:
            out.enqueue(code, origin, index)
        if seg.heredoc_code:   # $(…) in an unquoted heredoc body: code of its own, parsed once
            out.enqueue("\n".join(seg.heredoc_code), "heredoc", index)


def _header_loops(job: Job, found: tuple, made: dict) -> tuple:
    """The LoopRanges of the for/select headers the scanner read before a segment."""
    loops = []
    for header in found:
        loop = made.get(header)
        if loop is None:
            code = job.code
            words = [code[a:b] for a, b in header.words]
            over = " ".join(words) if header.has_in else '"$@"'
            span = job.line_span(header.words[0][0], header.words[-1][1]) if header.words else None
            loop = made[header] = LoopRange(header.var, over.replace("\n", " "), tuple(unquote(w) for w in words), span)
        loops.append(loop)
    return tuple(loops)


def _only_arithmetic(line: str) -> bool:
    """`((count++))`, `(( n > 0 )) && ((n--))`: arithmetic commands and nothing else. They run no command; the
    values they evaluate are judged by the rules (policy/arith.py), so nothing is dropped."""
    if "((" not in line:
        return False
    try:
        lexed = scan._lex(line)
    except scan.TooDeep:
        return False
    rest, at = [], 0
    for start in sorted(k for k in lexed.jump if line.startswith("((", k) and k not in lexed.region_at and
                        (k == 0 or line[k - 1] != "$")):
        if start < at:
            continue
        if not line.endswith("))", 0, lexed.jump[start]):
            return False        # unclosed: not an arithmetic command
        rest.append(line[at:start])
        at = lexed.jump[start]
    rest.append(line[at:])
    left = "".join(rest)
    for token in ("&&", "||", ";", "!", "\n", " ", "\t"):
        left = left.replace(token, "")
    return left == "" and not _only_comments(line)


def _only_comments(line: str) -> bool:
    return all(not s.strip() or s.strip().startswith("#") for s in line.split("\n"))


def _assignment_from_text(text: str) -> Assignment:
    name, _, value = text.partition("=")
    return Assignment(name.rstrip("+"), unquote(value), text)
