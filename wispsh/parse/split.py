"""split.py: a line of shell -> every simple command in it (Split of Parts). Nothing dropped.

tree-sitter-bash parses; five guard checks (design/parsers.md) decide whether the parse is trusted, and a
flagged text goes to the fallback scanner (scan.py) instead. Literal code handed to a shell (sh -c '…',
eval, su -c, trap, watch, env -S, ssh, heredocs into a shell, find -exec) is split again as code through a
work queue, never by recursion. Any internal error yields one opaque part for the whole line (fail closed).
"""
from __future__ import annotations

import bisect
import gc
import re
from collections import deque

from wispsh.model import Assignment, LoopRange, Part, Redirect, Split
from wispsh.parse import scan
from wispsh.parse.words import drop_continuations, expand_braces, has_unquoted_glob, read_away, second_words, unquote
from wispsh.support.lazyre import lazy_re

MAX_CHARS = 4_000_000           # a longer line is judged whole
MAX_NESTING = 200               # nested syntax levels within one parse ($( $( …, ( ( …, if if …)
MAX_CODE_DEPTH = 16             # sh -c 'sh -c "…"' levels of literal code
MAX_PARTS = 200_000
MAX_BRACE_WORDS = 256
MAX_HEREDOC_SUBSTITUTIONS = 5_000   # more $(…) in one heredoc: its code is one opaque part

_CONTROL = lazy_re(r"[\x00-\x08\x0b-\x1f\x7f]")
RESERVED = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "}", "{", "if", "while", "until",
                      "for", "case", "select", "function", "!", "[[", "]]", ";;", "in"})
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "fish", "oksh", "wispsh"})
_SHELL_OPTIONS_WITH_VALUE = frozenset({"--rcfile", "--init-file"})
_SSH_OPTIONS_WITH_VALUE = set("bcDEeFIiJLlmOopQRSWwB")
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
# Builtins that evaluate an argument as arithmetic or a subscript: a $(…) there runs even when quoted.
_EVALUATES_SUBSCRIPTS = frozenset({"test", "[", "[[", "let", "declare", "typeset", "local", "export",
                                   "readonly", "printf", "read", "unset", "wait", "mapfile", "readarray"})
_PROMPT_VARIABLES = frozenset({"PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4"})
_PART_NODES = frozenset({"command", "declaration_command", "unset_command", "test_command"})
_NEWLINE_CHECKED = frozenset({"command", "file_redirect", "declaration_command", "unset_command", "test_command"})
# Arithmetic contexts: `$(( ))`, `$[ ]`, subscripts. bash expands a $(…) there even inside single quotes.
_ARITHMETIC_NODES = frozenset({"arithmetic_expansion", "subscript"})
# Places where bash evaluates a variable's text: arithmetic (and the subscripts it holds), indirection, prompts.
_EVALUATES_TEXT = lazy_re(r"\$\(\(|\(\(|\$\[|\blet\b|\$\{!|@P\}|\[\[[^\n]*-(?:eq|ne|lt|le|gt|ge)\b"
                          r"|\b(?:declare|local|typeset)\s+-\w*[niaA]")
_EVALUATING_NEEDLES = ("((", "$[", "let", "${!", "@P}", "[[", "declare", "local", "typeset")   # cheap pre-check
_NAMED_FD = lazy_re(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$")   # {fd}>file: a redirect that names its descriptor
_PROMPT_EXPANSION = lazy_re(r"\$\{[!#]?[A-Za-z_0-9]+(?:\[[^]]*\])?@P\}")   # ${x@P}: x's text run as a prompt
_HEREDOC_OWN = frozenset({"<<", "<<-", "heredoc_start", "heredoc_body", "heredoc_end", "file_redirect",
                          "herestring_redirect"})


def _printf_target(args: list) -> list:
    """The NAME of `printf -v NAME …` (a subscript there is evaluated), else nothing."""
    for i, word in enumerate(args):
        if word == "-v":
            return args[i + 1:i + 2]
        if word is not None and word.startswith("-v") and len(word) > 2:
            return [word[2:]]
        if word == "--" or word is None or not word.startswith("-"):
            return []
    return []


def _base(word: str | None) -> str:
    return (word or "").rsplit("/", 1)[-1]


# ---------------------------------------------------------------- internal records


class _Raw:
    """A part being built (mutable until the Split is made). A plain class: dataclass creation costs
    import time on the hot path."""

    __slots__ = ("text", "span", "argv", "words", "assignments", "redirects", "origin", "loops",
                 "runtime_program", "opaque", "stdin_code", "stdin_quoted", "parent", "pipeline", "stage",
                 "background", "code_depth", "context")

    def __init__(self, text: str, span: tuple[int, int], argv: list, words: list, assignments: list | None = None,
                 redirects: list | None = None, origin: str = "top", loops: tuple = (), runtime_program: bool = False,
                 opaque: bool = False, stdin_code: str | None = None, stdin_quoted: bool = False,
                 parent: int | None = None, pipeline: int | None = None, stage: int = 0, background: bool = False,
                 code_depth: int = 0, context: str | None = None):
        self.text, self.span, self.argv, self.words = text, span, argv, words
        self.assignments = assignments if assignments is not None else []
        self.redirects = redirects if redirects is not None else []
        self.origin, self.loops, self.runtime_program, self.opaque = origin, loops, runtime_program, opaque
        self.stdin_code, self.stdin_quoted, self.parent = stdin_code, stdin_quoted, parent
        self.pipeline, self.stage, self.background = pipeline, stage, background
        self.code_depth, self.context = code_depth, context


class _Job:
    """Text to split: the line, or code found in it (span None: the line itself, real offsets)."""

    __slots__ = ("code", "origin", "span", "parent", "depth", "loops")

    def __init__(self, code: str, origin: str, span: tuple[int, int] | None, parent: int | None, depth: int,
                 loops: tuple = ()):
        self.code, self.origin, self.span, self.parent, self.depth, self.loops = \
            code, origin, span, parent, depth, loops


class _Frame:
    __slots__ = ("origin", "loops", "parent", "pipeline", "stage", "background", "extra_redirects",
                 "in_backtick", "depth", "read_source", "arith", "in_string")

    def __init__(self, origin: str, loops: tuple, parent: int | None):
        self.origin = origin
        self.loops = loops
        self.parent = parent
        self.pipeline = None
        self.stage = 0
        self.background = False
        self.extra_redirects: tuple = ()
        self.in_backtick = False
        self.depth = 0
        self.read_source: str | None = None
        self.arith = False      # inside arithmetic or a subscript: single quotes do not stop $(…) there
        self.in_string = False  # inside "…": a ${x:-'…'} there holds plain characters, not a quoted string

    def but(self, **changes) -> "_Frame":
        new = _Frame.__new__(_Frame)
        new.origin, new.loops, new.parent, new.pipeline = self.origin, self.loops, self.parent, self.pipeline
        new.stage, new.background, new.extra_redirects = self.stage, self.background, self.extra_redirects
        new.in_backtick, new.depth = self.in_backtick, self.depth
        new.read_source = self.read_source
        new.arith, new.in_string = self.arith, self.in_string
        for name, value in changes.items():
            setattr(new, name, value)
        return new


class _LastCommandStdin:
    """A marker on the walk stack: once a statement's body is walked, its heredoc feeds its last command."""

    def __init__(self, first: int, stdin: tuple[str, bool], parent: int | None):
        self.first, self.stdin, self.parent = first, stdin, parent

    def apply(self, parts: list) -> None:
        candidates = [k for k in range(self.first, len(parts)) if parts[k].parent == self.parent]
        if candidates:
            last = max(candidates, key=lambda k: (parts[k].span[0], k))
            if parts[last].stdin_code is None:
                parts[last].stdin_code, parts[last].stdin_quoted = self.stdin


class _WithRedirects:
    """A marker on the walk stack: a statement and the redirects tree-sitter hung on an enclosing pipeline."""

    def __init__(self, node, redirects: tuple):
        self.node, self.redirects = node, redirects


class _Flagged(Exception):
    """The parse is not trusted (a guard check fired)."""


class _TooDeep(Exception):
    pass


# ---------------------------------------------------------------- text positions


class _Source:
    """The code being parsed: its bytes, and byte -> character offsets built once (bisect over the
    non-ASCII characters only, so ASCII text costs nothing)."""

    def __init__(self, code: str):
        self.code = code
        self.data = code.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(code)
        self._byte_at: list[int] = []   # byte offset just after each multi-byte character
        self._extra: list[int] = []     # extra bytes seen up to and including that character
        if not self.ascii:
            extra = 0
            for match in re.finditer(r"[^\x00-\x7f]", code):
                width = len(match.group().encode("utf-8", "surrogatepass")) - 1
                extra += width
                self._byte_at.append(match.start() + extra + 1)
                self._extra.append(extra)

    def char(self, byte_offset: int) -> int:
        if self.ascii:
            return byte_offset
        k = bisect.bisect_right(self._byte_at, byte_offset)
        return byte_offset - (self._extra[k - 1] if k else 0)

    def text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")

    def between(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", "surrogatepass")


_PARSER = None


def _parser():
    global _PARSER
    if _PARSER is None:
        tree_sitter = _binding("tree_sitter")
        _PARSER = tree_sitter.Parser(tree_sitter.Language(_binding("tree_sitter_bash").language()))
    return _PARSER


def _binding(package: str):
    """The compiled `_binding` module of tree-sitter or tree-sitter-bash, loaded without the package's
    __init__: those import typing and importlib.resources for things we never use, which costs more at
    start-up than parsing. Falls back to the ordinary import."""
    from importlib.machinery import PathFinder

    found = PathFinder.find_spec(package)
    spec = found and PathFinder.find_spec(f"{package}._binding", found.submodule_search_locations)
    if spec is None or spec.loader is None:
        import importlib

        return importlib.import_module(f"{package}._binding")
    module = spec.loader.create_module(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the splitter


def split_line(line: str) -> Split:
    """Every simple command of `line`. Never raises: on an internal error, one opaque whole-line part."""
    if "\x00" in line:
        return _without_nul(line)
    collecting = gc.isenabled()
    gc.disable()   # many short-lived, acyclic objects: the cyclic collector would only add superlinear pauses
    try:
        return _Splitter(line).run()
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

    parts = tuple(Part(**{**{f: getattr(p, f) for f in Part.__dataclass_fields__},
                          "span": (start(p.span[0]), max(start(p.span[0]), end(p.span[1])))}) for p in read.parts)
    return Split(line=line, parts=parts, ok=False,
                 notes=read.notes + ("NUL bytes in the text: read away, as bash drops them from its input",),
                 second=read.second)


def _whole_line_opaque(line: str, note: str) -> Split:
    part = Part(text=line, span=(0, len(line)), argv=(), words=(), origin="opaque", opaque=True, second=line)
    return Split(line=line, parts=(part,), ok=False, notes=(note,), second=line)


class _Splitter:
    def __init__(self, line: str):
        self.line = line
        self.parts: list[_Raw] = []
        self.notes: list[str] = []
        self.ok = True
        self.jobs: deque[_Job] = deque()
        self.pipelines = 0

    # ------------------------------------------------------------ driver

    def run(self) -> Split:
        line = self.line
        if len(line) > MAX_CHARS:
            return _whole_line_opaque(line, f"line longer than {MAX_CHARS} characters: judged whole")
        self.jobs.append(_Job(line, "top", None, None, 0))
        if ("'" in line or "\\" in line) and ("$(" in line or "`" in line) \
                and any(needle in line for needle in _EVALUATING_NEEDLES) and _EVALUATES_TEXT.search(line):
            # `read x <<< 'a[$(rm -rf ~)]'; echo $((x))`: quoted text reaches a variable, then bash evaluates it
            # (arithmetic, a subscript, ${!x}, ${x@P}): every $(…) the line holds as text is judged as code too
            bodies = scan.quoted_substitution_bodies(line)
            if bodies:   # one job for all: parsed once, however many there are
                self.jobs.append(_Job("\n".join(bodies), "stored code", (0, len(line)), None, 1))
        done = 0
        while self.jobs:
            job = self.jobs.popleft()
            self._run_job(job)
            while done < len(self.parts):    # parts that run commands give more parts or more code
                self._commands_run_by(done)
                done += 1
            if len(self.parts) > MAX_PARTS:
                return _whole_line_opaque(line, f"more than {MAX_PARTS} parts: judged whole")
        if not self.parts and line.strip() and not _only_comments(line):
            # Defensive: text with no part would be dropped; judge it whole instead.
            self.parts.append(_Raw(line, (0, len(line)), [], [], origin="opaque", opaque=True))
            self.notes.append("no command found in non-blank text: judged whole")
            self.ok = False
        return self._finish()

    def _run_job(self, job: _Job) -> None:
        code = job.code
        flagged: str | None = None
        if _CONTROL.search(code):
            flagged = "control character in the text"
        start = len(self.parts)
        pipelines = self.pipelines
        if flagged is None:
            try:
                self._walk(job)
            except _Flagged as why:
                flagged = str(why)
            except _TooDeep:
                del self.parts[start:]
                self._opaque_job(job, f"nesting deeper than {MAX_NESTING} levels: judged whole")
                return
        if flagged is not None:
            del self.parts[start:]
            self.pipelines = pipelines
            self.ok = False
            self.notes.append(f"parse flagged ({flagged}); fallback scanner used"
                              + ("" if job.span is None else f" for {job.origin} code"))
            self._scan(job)

    def _opaque_job(self, job: _Job, note: str) -> None:
        self.ok = False
        self.notes.append(note)
        span = job.span if job.span is not None else (0, len(job.code))
        self.parts.append(_Raw(job.code, span, [], [], origin="opaque", opaque=True, parent=job.parent,
                               code_depth=job.depth, loops=job.loops))

    # ------------------------------------------------------------ tree-sitter walk (iterative)

    def _walk(self, job: _Job) -> None:
        source = _Source(job.code)
        tree = _parser().parse(source.data)
        root = tree.root_node
        if root.has_error:
            raise _Flagged("syntax error in the parse tree")
        top = _Frame(job.origin, job.loops, job.parent)
        stack: list[tuple] = [(root, top)]
        while stack:
            node, frame = stack.pop()
            if isinstance(node, _LastCommandStdin):
                node.apply(self.parts)
                continue
            if isinstance(node, _WithRedirects):
                self._redirected_statement(source, job, node.node, frame, stack, node.redirects)
                continue
            kind = node.type
            if frame.depth > MAX_NESTING:
                raise _TooDeep()
            if node.child_count == 0:
                if kind == "word":
                    self._check_word(source, node, frame.in_backtick)
                    if b"(" in source.data[node.start_byte:node.end_byte]:
                        self._word_process_substitution(source, job, node, frame)
                elif not node.is_named and "`" in kind and kind != "`":
                    raise _Flagged("backticks run together")   # `a` `b` read as one token
                elif kind in (";;", ";&", ";;&") and node.parent is not None and node.parent.type != "case_item":
                    raise _Flagged(f"{kind} outside a case statement")
                elif kind == "raw_string" and frame.arith:
                    self._quoted_arithmetic(source, job, node, frame)
                continue
            if kind in _NEWLINE_CHECKED and kind not in _PART_NODES:   # parts are checked in _command_part
                self._check_newlines(source, node)
            if kind == "comment":
                continue
            if kind == "redirected_statement":
                self._redirected_statement(source, job, node, frame, stack)
            elif kind in _PART_NODES:
                index = self._command_part(source, job, node, (), frame)
                self._push_command_insides(stack, node, frame.but(parent=index, pipeline=None, stage=0,
                                                                  extra_redirects=(), read_source=None,
                                                                  depth=frame.depth + 1))
            elif kind in ("variable_assignment", "variable_assignments"):
                index = self._assignment_part(source, job, node, frame)
                self._push_children(stack, node, frame.but(parent=index))
            elif kind == "pipeline":
                self._pipeline(source, node, frame, stack)
            elif kind in ("program", "list", "compound_statement", "subshell"):
                self._sequence(source, node, frame, stack)
            elif kind == "for_statement":
                self._for(source, node, frame, stack)
            elif kind == "while_statement":
                self._while(source, job, node, frame, stack)
            elif kind in _ARITHMETIC_NODES or (kind == "expansion" and frame.in_string):
                self._push_children(stack, node, frame.but(arith=True))
            elif kind == "string":
                self._push_children(stack, node, frame.but(in_string=True))
            elif kind == "c_style_for_statement":   # the header is arithmetic, the body is not
                inside = frame.but(origin=_clause_origin(frame), depth=frame.depth + 1)
                for i in range(node.child_count - 1, -1, -1):
                    child = node.children[i]
                    body = child.type in ("do_group", "compound_statement")
                    stack.append((child, inside if body else inside.but(arith=True)))
            elif kind in ("if_statement", "elif_clause", "else_clause", "case_statement", "case_item",
                          "do_group", "negated_command"):
                origin = frame.origin if kind == "negated_command" else _clause_origin(frame)
                self._push_children(stack, node, frame.but(origin=origin, depth=frame.depth + 1))
            elif kind == "function_definition":
                # the body's parts are always parts (origin "function"), so a call of the function in
                # the line is judged as its body too; a call is a part of its own
                body = node.child_by_field_name("body")
                redirect_nodes = [c for c in node.children if c.type == "file_redirect"]
                # `f() { …; } > F`: the redirect applies to the body at every call, its $(…) runs then too
                inside = frame.but(origin="function", depth=frame.depth + 1, pipeline=None, stage=0,
                                   background=False, extra_redirects=frame.extra_redirects + tuple(
                                       self._redirect(source, r) for r in redirect_nodes))
                for child in redirect_nodes:
                    stack.append((child, inside))
                if body is not None:
                    if body.type == "compound_statement":
                        self._push_children(stack, body, inside)
                    else:
                        stack.append((body, inside))
            elif kind == "command_substitution":
                backtick = node.children[0].type == "`"
                if backtick and frame.in_backtick:
                    raise _Flagged("backtick substitution nested inside another")
                origin = "``" if backtick else "$()"
                self._push_children(stack, node, self._nested(frame, origin, backtick))
            elif kind == "process_substitution":
                origin = "<()" if source.text(node.children[0]).startswith("<") else ">()"
                self._push_children(stack, node, self._nested(frame, origin, frame.in_backtick))
            elif kind == "heredoc_body":
                continue   # read by _heredoc_code (tree-sitter misses backticks in heredoc bodies)
            else:   # words, strings, expansions…: depth counts only constructs that nest commands
                self._push_children(stack, node, frame)

    @staticmethod
    def _nested(frame: _Frame, origin: str, backtick: bool) -> _Frame:
        return frame.but(origin=origin, in_backtick=backtick, depth=frame.depth + 1, pipeline=None, stage=0,
                         background=False, extra_redirects=(), read_source=None, arith=False,
                         in_string=False)

    @staticmethod
    def _push_command_insides(stack: list, node, frame: _Frame) -> None:
        """A command's words, redirects and prefix assignments, walked for the code they hold; its
        assignments belong to the command's part, so they are not parts of their own."""
        children = node.children
        for i in range(len(children) - 1, -1, -1):
            child = children[i]
            if child.type == "variable_assignment":
                inner = child.children
                for k in range(len(inner) - 1, -1, -1):
                    stack.append((inner[k], frame))
            else:
                stack.append((child, frame))

    @staticmethod
    def _push_children(stack: list, node, frame: _Frame) -> None:
        children = node.children
        for i in range(len(children) - 1, -1, -1):
            stack.append((children[i], frame))

    # ------------------------------------------------------------ guard checks

    @staticmethod
    def _check_word(source: _Source, node, in_backtick: bool) -> None:
        text = source.data[node.start_byte:node.end_byte]
        if not in_backtick:   # outside backticks, \` is a plain character; inside, a nested substitution
            text = text.replace(b"\\\\", b"").replace(b"\\`", b"")
        if b"`" in text or b"\n" in text:
            raise _Flagged("a plain word holds a backtick or a newline")

    @staticmethod
    def _check_newlines(source: _Source, node, children=None) -> None:
        children = node.children if children is None else children
        for i in range(1, len(children)):
            gap = source.data[children[i - 1].end_byte:children[i].start_byte]
            if b"\n" in gap and b"\n" in gap.replace(b"\\\n", b""):
                raise _Flagged(f"a newline inside a {node.type}")

    # ------------------------------------------------------------ statements

    def _sequence(self, source: _Source, node, frame: _Frame, stack: list) -> None:
        kind = node.type
        first = node.children[0].type if node.child_count else ""
        if kind == "subshell":
            inner = frame.but(origin="subshell", depth=frame.depth + 1)
        elif kind == "compound_statement" and first == "{":
            inner = frame.but(origin="group", depth=frame.depth + 1)
        elif kind == "compound_statement" and first == "((":
            inner = frame.but(arith=True)
        else:
            inner = frame
        children = node.children
        for i in range(len(children) - 1, -1, -1):
            child = children[i]
            background = i + 1 < len(children) and children[i + 1].type == "&"
            stack.append((child, inner.but(background=True) if background else inner))

    def _pipeline(self, source: _Source, node, frame: _Frame, stack: list, last_redirects: tuple = ()) -> None:
        """Stages of a pipeline. tree-sitter reads `a | b 2>&1 | c` as ((a | b) 2>&1) | c: a redirect after
        a pipeline belongs to its last command, so nested pipelines are flattened into one."""
        self.pipelines += 1
        pipeline_id = self.pipelines
        stages: list[tuple] = [(c, ()) for c in node.children if c.type not in ("|", "|&")]
        if last_redirects and stages:
            stages[-1] = (stages[-1][0], tuple(last_redirects))
        k = 0
        while k < len(stages):
            stage, extra = stages[k]
            inner = stage.child_by_field_name("body") if stage.type == "redirected_statement" else None
            if inner is not None and inner.type == "pipeline":
                redirects = tuple(c for c in stage.children if c is not inner and c.type.endswith("redirect"))
                self._check_list_redirects(list(redirects))
                flat = [(c, ()) for c in inner.children if c.type not in ("|", "|&")]
                flat[-1] = (flat[-1][0], redirects + extra)
                stages[k:k + 1] = flat
                continue
            k += 1
        base = frame.but(pipeline=pipeline_id, depth=frame.depth + 1)
        for position in range(len(stages) - 1, -1, -1):
            read_source = stages[position - 1][0] if position > 0 else None   # named only if a loop reads it
            stage, extra = stages[position]
            item = _WithRedirects(stage, extra) if extra else stage
            stack.append((item, base.but(stage=position, read_source=read_source)))

    def _redirected_statement(self, source: _Source, job: _Job, node, frame: _Frame, stack: list,
                              extra: tuple = ()) -> None:
        """A statement with redirects (or, with `extra`, any statement given redirects moved onto it)."""
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            redirect_nodes = [c for c in node.children if c is not body and c.type.endswith("redirect")]
        else:
            body, redirect_nodes = node, []
        redirect_nodes += list(extra)
        while body is not None and body.type == "negated_command":   # `! a 2>&1`: the redirect is a's
            named = [c for c in body.children if c.is_named and c.type != "comment"]
            body = named[-1] if named else None
        if body is not None and body.type == "pipeline":
            self._check_list_redirects(redirect_nodes)
            self._pipeline(source, body, frame, stack, tuple(redirect_nodes))
            return
        if body is not None and body.type not in _PART_NODES:
            self._check_list_redirects(redirect_nodes)
        if body is not None and body.type in _PART_NODES:
            index = self._command_part(source, job, body, redirect_nodes, frame)
            inner = frame.but(parent=index, pipeline=None, stage=0, extra_redirects=(), read_source=None,
                              depth=frame.depth + 1)
            self._push_command_insides(stack, body, inner)
            self._push_redirect_insides(source, redirect_nodes, inner, frame, index, stack)
            return
        redirects = tuple(self._redirect(source, r) for r in redirect_nodes)
        for r in redirect_nodes:
            if r.type == "heredoc_redirect":
                self._heredoc_code(source, job, r, frame.parent)
        if body is None:   # `> f`, `2>/dev/null` alone: a part with no program
            index = self._new_part(source, job, node, node.start_byte, _redirect_end(node, redirect_nodes),
                                   [], [], [], list(redirects), frame)
            inner = frame.but(parent=index, depth=frame.depth + 1)
            self._push_redirect_insides(source, redirect_nodes, inner, frame, index, stack)
            return
        read_source = frame.read_source
        for r in redirects:
            if r.op in ("<", "<<", "<<-", "<<<"):
                read_source = {"<": "lines of " + r.target_text, "<<<": "lines of here-string " + r.target_text
                               }.get(r.op, "lines of heredoc " + r.target_text)
        inner = frame.but(extra_redirects=frame.extra_redirects + redirects, read_source=read_source,
                          depth=frame.depth + 1)
        stdin = [self._stdin_of(source, r) for r in redirect_nodes if r.type in ("heredoc_redirect",
                                                                                 "herestring_redirect")]
        if stdin:   # tree-sitter hangs `a && b <<EOF` on the list: the body feeds its last command
            stack.append((_LastCommandStdin(len(self.parts), stdin[-1], frame.parent), frame))
        stack.append((body, inner))
        self._push_redirect_insides(source, redirect_nodes, frame.but(depth=frame.depth + 1), frame,
                                    frame.parent, stack, push_first=True)

    @staticmethod
    def _check_list_redirects(redirect_nodes: list) -> None:
        """`a | b <x c d`: tree-sitter hangs a mid-command redirect, and the words after it, on the whole
        pipeline or list, and builds the pipeline wrong around it (`a || b >x c | d` becomes (a || b) | d).
        Nothing to repair with certainty: the fallback scanner reads such a line."""
        for r in redirect_nodes:
            if sum(1 for i in range(r.child_count) if r.field_name_for_child(i) == "destination") > 1:
                raise _Flagged("words after a redirect attached to a pipeline or list")

    def _push_redirect_insides(self, source, redirect_nodes, inner: _Frame, outer: _Frame, index,
                               stack: list, push_first: bool = False) -> None:
        """Walk what redirects hold: substitutions in targets, heredoc bodies, and the statements tree-sitter
        hangs inside a heredoc redirect (`cat <<EOF | sh`, `cat <<EOF && rm x`)."""
        later: list[tuple] = []
        for r in redirect_nodes:
            if r.type != "heredoc_redirect":
                later.append((r, inner))
                continue
            for child in r.children:
                if child.type == "heredoc_body":
                    continue    # read by _heredoc_code: tree-sitter misses backticks in heredoc bodies
                elif child.type == "file_redirect":
                    later.append((child, inner))
                elif child.type == "pipeline":   # the rest of a pipeline the heredoc's command starts
                    if index is not None and self.parts[index].pipeline is None:
                        self.pipelines += 1
                        self.parts[index].pipeline = self.pipelines
                    pipe = self.parts[index].pipeline if index is not None else None
                    stage0 = self.parts[index].stage if index is not None else 0
                    stages = [c for c in child.children if c.type not in ("|", "|&")]
                    for k, st in enumerate(stages):
                        later.append((st, outer.but(pipeline=pipe, stage=stage0 + k + 1,
                                                    depth=outer.depth + 1)))
                elif child.type not in _HEREDOC_OWN and child.is_named:
                    later.append((child, outer.but(depth=outer.depth + 1)))
        for item in reversed(later):
            stack.append(item)

    # ------------------------------------------------------------ parts

    def _command_part(self, source: _Source, job: _Job, node, redirect_nodes, frame: _Frame) -> int:
        kind = node.type
        words: list[tuple[int, str]] = []
        assignments: list[Assignment] = []
        redirects: list[Redirect] = []
        heredoc: tuple[str, bool] | None = None
        children = node.children
        types = [c.type for c in children]    # node.type builds a new str each time: read it once
        all_redirects = [c for c, t in zip(children, types) if t.endswith("redirect")]
        all_redirects += list(redirect_nodes)
        self._check_newlines(source, node, children)
        for r in all_redirects:
            if r.type == "file_redirect":
                self._check_newlines(source, r)
        if kind == "command":
            data = source.data
            for child, ctype in zip(children, types):
                if ctype == "variable_assignment":
                    assignments.append(self._assignment(source, child))
                elif ctype == "command_name":
                    name_text = source.text(child)
                    if name_text in RESERVED:
                        raise _Flagged(f"reserved word {name_text!r} used as a command name")
                    words.append((child.start_byte, child.end_byte, name_text))
                elif not ctype.endswith("redirect") and ctype != "comment" and child.is_named:
                    start, end = child.start_byte, child.end_byte
                    words.append((start, end, data[start:end].decode("utf-8", "surrogatepass")))
        elif kind == "test_command":
            children = node.children
            opener, closer = children[0], children[-1]
            words.append((opener.start_byte, opener.start_byte, source.text(opener)))
            inner = source.between(opener.end_byte, closer.start_byte)
            for offset, token in enumerate(scan.tokenize(inner)):
                words.append((opener.end_byte + 1 + offset, opener.end_byte + 1 + offset, token))
            if closer is not opener:
                words.append((closer.start_byte, closer.start_byte, source.text(closer)))
        else:   # declaration_command, unset_command: the keyword and every argument
            for child in node.children:
                if child.type.endswith("redirect") or child.type == "comment":
                    continue
                if child.type == "variable_assignment":
                    assignments.append(self._assignment(source, child))
                words.append((child.start_byte, child.end_byte, source.text(child)))
        for r in all_redirects:
            redirects.append(self._redirect(source, r))
            if r.type == "heredoc_redirect" or r.type == "herestring_redirect":
                heredoc = self._stdin_of(source, r)
            # Repair: tree-sitter takes words after a mid-command redirect as more destinations.
            destinations = [c for i, c in enumerate(r.children) if r.field_name_for_child(i) == "destination"]
            for extra in destinations[1:]:
                words.append((extra.start_byte, extra.end_byte, source.text(extra)))
        if redirects:
            words.sort(key=lambda w: w[0])
            words = self._named_descriptors(words, all_redirects, redirects)
        written = _join_touching(words, source.data)
        redirects.extend(frame.extra_redirects)
        start = min([node.start_byte] + [r.start_byte for r in redirect_nodes])
        end = _redirect_end(node, all_redirects)
        index = self._new_part(source, job, node, start, end, written, [unquote(w) for w in written],
                               assignments, redirects, frame)
        if heredoc is not None:
            self.parts[index].stdin_code, self.parts[index].stdin_quoted = heredoc
        for r in all_redirects:
            if r.type == "heredoc_redirect":
                self._heredoc_code(source, job, r, index)
        return index

    @staticmethod
    def _named_descriptors(words: list, redirect_nodes: list, redirects: list) -> list:
        """`exec {fd}>f rm`: a `{NAME}` word that touches a redirect operator is that redirect's descriptor
        (tree-sitter reads it as a word, which made `{fd}` the program)."""
        starts = {r.start_byte: k for k, r in enumerate(redirect_nodes)}
        kept = []
        for word in words:
            k = starts.get(word[1])
            if k is not None and _NAMED_FD.match(word[2]) and redirects[k].fd is None:
                r = redirects[k]
                redirects[k] = Redirect(op=r.op, fd=word[2], target=r.target, target_text=r.target_text)
            else:
                kept.append(word)
        return kept

    def _heredoc_code(self, source: _Source, job: _Job, node, holder: int | None) -> None:
        """$(…) and backticks of an unquoted heredoc body run when the heredoc is read: code of their own."""
        body, quoted = self._stdin_of(source, node)
        if quoted or ("$(" not in body and "`" not in body):
            return
        bodies = scan.substitution_bodies(body)
        if not bodies:
            return
        code = "\n".join(bodies)   # one job for all: a big heredoc is parsed once, not once per $(…)
        if len(bodies) > MAX_HEREDOC_SUBSTITUTIONS:
            span = job.span or (source.char(node.start_byte), source.char(node.end_byte))
            self.ok = False
            self.notes.append(f"heredoc with more than {MAX_HEREDOC_SUBSTITUTIONS} substitutions: "
                              "its code is judged whole")
            self.parts.append(_Raw(code, span, [], [], origin="heredoc", opaque=True, parent=holder,
                                   code_depth=job.depth + 1))
            return
        if holder is not None:
            self._enqueue(code, "heredoc", holder)
        else:
            span = job.span or (source.char(node.start_byte), source.char(node.end_byte))
            self.jobs.append(_Job(code, "heredoc", span, job.parent, job.depth + 1, job.loops))

    def _word_process_substitution(self, source: _Source, job: _Job, node, frame: _Frame) -> None:
        """`${x:-<(cmd)}`: tree-sitter keeps a process substitution inside an expansion as a plain word."""
        text = source.text(node)
        if "<(" in text or ">(" in text:
            self._code_of(source, job, node, frame, scan.process_substitution_bodies(text), "<()")

    def _quoted_arithmetic(self, source: _Source, job: _Job, node, frame: _Frame) -> None:
        """A single-quoted string in arithmetic or a subscript is not data: bash expands its $(…) and `…`."""
        text = source.text(node)
        if "$(" in text or "`" in text:
            self._code_of(source, job, node, frame, scan.substitution_bodies(text[1:-1]), "arithmetic")

    def _code_of(self, source: _Source, job: _Job, node, frame: _Frame, bodies: list, origin: str) -> None:
        """Code found inside a word: judged under the part that holds the word, else under the line's span."""
        if not bodies:
            return
        if frame.parent is not None:
            for body in bodies:
                self._enqueue(body, origin, frame.parent)
        else:   # `(( x['$(…)'] ))` is no command of its own: its code is judged under the span of the line
            span = job.span or (source.char(node.start_byte), source.char(node.end_byte))
            for body in bodies:
                self.jobs.append(_Job(body, origin, span, job.parent, job.depth + 1, job.loops))

    def _assignment_part(self, source: _Source, job: _Job, node, frame: _Frame) -> int:
        items = [node] if node.type == "variable_assignment" else \
            [c for c in node.children if c.type == "variable_assignment"]
        assignments = [self._assignment(source, c) for c in items]
        return self._new_part(source, job, node, node.start_byte, node.end_byte, [], [], assignments,
                              list(frame.extra_redirects), frame)

    def _new_part(self, source: _Source, job: _Job, node, start: int, end: int, words: list, argv: list,
                  assignments: list, redirects: list, frame: _Frame) -> int:
        if job.span is None:
            span = (source.char(start), source.char(end))
            text = self.line[span[0]:span[1]]
        else:
            span = job.span
            text = source.between(start, end)
        raw = _Raw(text, span, argv, words, assignments, redirects, origin=frame.origin, parent=frame.parent,
                   pipeline=frame.pipeline, stage=frame.stage, background=frame.background,
                   code_depth=job.depth)
        _settle_program(raw)
        raw.loops, raw.context = _loops_used(text, frame.loops)
        self.parts.append(raw)
        return len(self.parts) - 1

    def _assignment(self, source: _Source, node) -> Assignment:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        text = source.text(node)
        name_text = source.text(name) if name is not None else text.split("=", 1)[0]
        value_text = text.split("=", 1)[1] if "=" in text else ""
        if value is None:
            return Assignment(name_text.rstrip("+"), "", text)
        return Assignment(name_text.rstrip("+"), unquote(value_text), text)

    def _redirect(self, source: _Source, node) -> Redirect:
        fd = None
        op = ""
        target_text = ""
        for i, child in enumerate(node.children):
            fname = node.field_name_for_child(i)
            if fname == "descriptor":
                fd = source.text(child)
            elif not child.is_named and not op:
                op = source.text(child)
            elif child.type == "heredoc_start":
                target_text = source.text(child)
            elif (fname == "destination" or node.type == "herestring_redirect") and not target_text \
                    and child.is_named:
                target_text = source.text(child)
        return Redirect(op=op, fd=fd, target=unquote(target_text) if target_text else None,
                        target_text=target_text)

    def _stdin_of(self, source: _Source, node) -> tuple[str, bool]:
        if node.type == "herestring_redirect":
            words = [c for c in node.children if c.is_named]
            text = source.text(words[0]) if words else ""
            value = unquote(text)
            return (value if value is not None else text), value is not None
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        delimiter = source.text(start) if start is not None else ""
        text = source.text(body) if body is not None else ""
        if any(c.type == "<<-" for c in node.children):
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
        delimiter = drop_continuations(delimiter)   # `<<EOF\\⏎X` is the unquoted delimiter EOFX
        return text, any(q in delimiter for q in "'\"\\")

    # ------------------------------------------------------------ loops

    def _for(self, source: _Source, node, frame: _Frame, stack: list) -> None:
        variable = node.child_by_field_name("variable")
        values = [node.children[i] for i in range(node.child_count) if node.field_name_for_child(i) == "value"]
        has_in = any(c.type == "in" for c in node.children)
        var = source.text(variable) if variable is not None else "?"
        if values:
            over = source.between(values[0].start_byte, values[-1].end_byte)
        else:
            over = "" if has_in else '"$@"'
        words = tuple(unquote(source.text(v)) for v in values)
        loop = LoopRange(var, _one_line(over), words)
        body_frame = frame.but(origin="clause", loops=frame.loops + (loop,), depth=frame.depth + 1)
        header_frame = frame.but(depth=frame.depth + 1)
        for i in range(node.child_count - 1, -1, -1):
            child = node.children[i]
            if node.field_name_for_child(i) == "body" or child.type == "do_group":
                stack.append((child, body_frame))
            elif child.is_named and child is not variable:
                stack.append((child, header_frame))

    def _while(self, source: _Source, job: _Job, node, frame: _Frame, stack: list) -> None:
        loops = frame.loops
        for i, child in enumerate(node.children):
            if node.field_name_for_child(i) == "condition" and child.type == "command":
                name = child.child_by_field_name("name")
                if name is not None and unquote(source.text(name)) in ("read", "mapfile", "readarray"):
                    args = [unquote(source.text(c)) for c in child.children if c.type != "command_name"
                            and c.is_named]
                    names = [a for a in args if a and not a.startswith("-")]
                    var = names[-1] if names else "REPLY"
                    source_of = frame.read_source
                    if source_of is not None and not isinstance(source_of, str):   # the stage feeding the loop
                        source_of = "output of " + _one_line(source.text(source_of))
                    loops = loops + (LoopRange(var, source_of or "lines of stdin"),)
        clause = frame.but(origin="clause", depth=frame.depth + 1, read_source=None)
        body_frame = clause.but(loops=loops)
        for i in range(node.child_count - 1, -1, -1):
            child = node.children[i]
            stack.append((child, body_frame if node.field_name_for_child(i) == "body" else clause))

    # ------------------------------------------------------------ fallback scanner

    def _scan(self, job: _Job) -> None:
        segments = scan.scan(job.code)
        offset = len(self.parts)
        ids: dict[int, int] = {}
        for seg in segments:
            if seg.pipeline is not None and seg.pipeline not in ids:
                self.pipelines += 1
                ids[seg.pipeline] = self.pipelines
            if job.span is None:
                span = (seg.start, seg.end)
                text = self.line[seg.start:seg.end]
            else:
                span = job.span
                text = job.code[seg.start:seg.end]
            origin = seg.origin if seg.origin != "top" or job.origin == "top" else job.origin
            assignments = [_assignment_from_text(w) for w in seg.assignments]
            redirects = [Redirect(op, fd, unquote(t) if t else None, t) for op, fd, t in seg.redirects]
            raw = _Raw(text, span, [unquote(w) for w in seg.words], list(seg.words), assignments, redirects,
                       origin=origin, parent=(offset + seg.parent) if seg.parent is not None else job.parent,
                       pipeline=ids.get(seg.pipeline), stage=seg.stage, background=seg.background,
                       code_depth=job.depth, stdin_code=seg.stdin_code, stdin_quoted=seg.stdin_quoted,
                       opaque=seg.opaque)
            _settle_program(raw)
            raw.loops, raw.context = _loops_used(text, job.loops)
            self.parts.append(raw)
            for origin, code in seg.nested_code:
                self._enqueue(code, origin, len(self.parts) - 1)
            if seg.heredoc_code:   # $(…) in an unquoted heredoc body: code of its own, parsed once
                self._enqueue("\n".join(seg.heredoc_code), "heredoc", len(self.parts) - 1)

    # ------------------------------------------------------------ commands that run commands

    def _enqueue(self, code: str, origin: str, holder: int) -> None:
        raw = self.parts[holder]
        if raw.code_depth + 1 > MAX_CODE_DEPTH:
            raw.opaque = True
            self.ok = False
            self.notes.append(f"{origin} code nested deeper than {MAX_CODE_DEPTH} levels: judged whole")
            return
        self.jobs.append(_Job(code, origin, raw.span, holder, raw.code_depth + 1, raw.loops))

    def _dynamic(self, holder: int, what: str) -> None:
        self.parts[holder].opaque = True
        self.notes.append(f"{what} is known only at run time: judged whole")

    def _commands_run_by(self, index: int) -> None:
        raw = self.parts[index]
        argv = raw.argv
        if raw.opaque:
            return
        for assignment in raw.assignments:
            self._prompt_code(index, assignment.name, assignment.value)
            self._stored_code(index, assignment.name, assignment.value)
        if any("@P}" in word and _PROMPT_EXPANSION.search(word) for word in raw.words):
            self._dynamic(index, "a ${…@P} prompt expansion (a variable's text run as code)")
            return
        if not argv:
            return
        from wispsh.programs import wrappers

        written = raw.words if len(raw.words) == len(argv) else None
        unwrapped = wrappers.unwrap(tuple(argv), written)
        if unwrapped.code is not None:
            self._enqueue(unwrapped.code, unwrapped.code_origin or "env -S", index)
        elif _env_split_string_dynamic(argv):
            self._dynamic(index, "env -S string")
        command = list(unwrapped.command)
        if not command:
            return
        program = _base(command[0])
        args = command[1:]
        if program in SHELLS:
            self._shell(index, raw, args, unwrapped)
        elif program == "eval":
            code_args = [a for a in args if a != "--"] if args[:1] == ["--"] else args
            if any(a is None for a in code_args):
                self._dynamic(index, "eval's code")
            elif code_args:
                self._enqueue(" ".join(code_args), "eval", index)
        elif program in ("mapfile", "readarray"):
            self._option_code(index, args, ("-C",), "mapfile -C")
        elif program == "trap":
            rest = args[1:] if args[:1] == ["--"] else args
            if len(rest) >= 2 and rest[0] not in ("-", "-p", "-l", ""):
                if rest[0] is None:
                    self._dynamic(index, "trap's code")
                else:
                    self._enqueue(rest[0], "trap", index)
        elif program == "ssh":
            self._ssh(index, args)
        elif program == "find":
            self._find(index, raw, command)
        elif program == "git":
            self._git(index, raw, command)
        elif program in _VERB_RUNNERS:
            self._verb_runner(index, raw, command, program)
        elif program in _OPTION_CODE:
            self._option_code(index, args, _OPTION_CODE[program], program)
        elif program in wrappers.COMMAND_RUNNERS:
            inner = wrappers.command_run_by(command)
            if inner:
                self._run_directly(index, raw, command, list(inner), program)
        elif program == "alias":   # with expand_aliases, a later line runs the alias's text as code
            for value in args:
                if value is not None and "=" in value and not value.startswith("-"):
                    self._enqueue(value.split("=", 1)[1], "alias", index)
        elif program in ("export", "declare", "typeset", "local", "readonly"):
            known = {a.name for a in raw.assignments}   # tree-sitter's reading; the fallback gives words only
            for value in args:
                if value is not None and "=" in value:
                    name, _, text = value.partition("=")
                    if name not in known:
                        self._prompt_code(index, name, text)
                        self._stored_code(index, name, text)
        if program in _EVALUATES_SUBSCRIPTS:
            # printf evaluates only its -v target; its format and arguments are data
            evaluated = _printf_target(args) if program == "printf" else args
            for value in evaluated:
                if value and ("$(" in value or "`" in value):
                    for body in scan.substitution_bodies(value):
                        self._enqueue(body, "arithmetic", index)

    def _prompt_code(self, index: int, name: str, value: str | None) -> None:
        """PROMPT_COMMAND is code; PS1-PS4 expand $(…) when shown (PS4 under `set -x`), quoted or not."""
        if value is None or name not in _PROMPT_VARIABLES:
            return
        if name == "PROMPT_COMMAND":
            self._enqueue(value, "prompt", index)
        elif "$(" in value or "`" in value:
            bodies = scan.substitution_bodies(value)
            if bodies:
                self._enqueue("\n".join(bodies), "prompt", index)

    def _stored_code(self, index: int, name: str, value: str | None) -> None:
        """`x='a[$(rm -rf ~)]'`: a $(…) kept literal in a variable runs wherever bash later evaluates the text
        (`${x@P}`, `${!x}`, `$((x))`, `[[ $x -eq 1 ]]`): judged as code where it is stored."""
        if value is None or name in _PROMPT_VARIABLES or ("$(" not in value and "`" not in value):
            return
        for body in scan.substitution_bodies(value):
            self._enqueue(body, "stored code", index)

    @staticmethod
    def _verb_and_rest(program: str, command: list) -> tuple[str | None, list]:
        """A multiplexer's verb (after its global options) and the words after it."""
        from wispsh.keys import default_multiplexers

        takes = default_multiplexers().value_options.get(program, {})
        k, args = 1, command
        while k < len(args) and args[k] is not None and args[k].startswith("-") and args[k] != "--":
            k += 1 + (takes.get(args[k], 0) if "=" not in args[k] else 0)
        return (args[k] if k < len(args) else None), args[k + 1:]

    def _verb_runner(self, index: int, raw: _Raw, command: list, program: str) -> None:
        """`uv run CMD`, `npm exec CMD`, `bundle exec CMD`: CMD is a part of its own, so an approval of
        `uv run pytest` (keyed `uv run *`) never covers `uv run rm -rf ~`."""
        verb, rest = self._verb_and_rest(program, command)
        spec = _VERB_RUNNERS[program].get(verb or "")
        if spec is None:
            return
        value_options, code_options = spec
        k = 0
        while k < len(rest):
            word = rest[k]
            if word is None:
                break
            if word == "--":
                k += 1
                break
            if not word.startswith("-") or word == "-":
                break
            name, eq, attached = word.partition("=")
            if name in code_options:   # `npm exec -c 'CMD'`: code
                code = attached if eq else (rest[k + 1] if k + 1 < len(rest) else "")
                if code is None:
                    self._dynamic(index, f"{program} {verb}'s command")
                elif code:
                    self._enqueue(code, f"{program} {verb}", index)
                return
            k += 1 + (1 if name in value_options and not eq else 0)
        if rest[k:]:
            self._run_directly(index, raw, command, list(rest[k:]), f"{program} {verb}")

    def _git(self, index: int, raw: _Raw, command: list) -> None:
        """git verbs that run a command given on their command line."""
        verb, rest = self._verb_and_rest("git", command)
        if verb == "submodule":
            while rest and rest[0] is not None and rest[0].startswith("-"):
                rest = rest[1:]
            if rest[:1] == ["foreach"]:
                rest = rest[1:]
                while rest and rest[0] in ("--recursive", "-q", "--quiet"):
                    rest = rest[1:]
                self._joined_code(index, rest, "git submodule foreach")
        elif verb == "rebase":
            self._option_code(index, rest, ("-x", "--exec"), "git rebase --exec")
        elif verb == "bisect" and rest[:1] == ["run"] and len(rest) > 1:
            self._joined_code(index, rest[1:], "git bisect run")

    def _joined_code(self, index: int, words: list, origin: str) -> None:
        if not words:
            return
        if any(w is None for w in words):
            self._dynamic(index, f"{origin}'s command")
        else:
            self._enqueue(" ".join(words), origin, index)

    def _option_code(self, index: int, args: list, options: tuple[str, ...], origin: str) -> None:
        """The first value of one of `options` is code: `-c CODE`, `-cCODE`, `-qc CODE` (getopt clusters),
        `--command CODE`, `--command=CODE`."""
        short = {o[1] for o in options if len(o) == 2}
        for k, arg in enumerate(args):
            if arg is None or not arg.startswith("-") or arg == "-":
                continue
            following = args[k + 1] if k + 1 < len(args) else _NO_VALUE
            if arg.startswith("--"):
                name, eq, attached = arg.partition("=")
                if name not in options:
                    continue
                code = attached if eq else following
            else:
                at = next((j for j in range(1, len(arg)) if arg[j] in short), None)
                if at is None:
                    continue
                code = arg[at + 1:] or following
            if code is _NO_VALUE:
                return
            if code is None:
                self._dynamic(index, f"{origin} code")
            else:
                self._enqueue(code, origin, index)
            return

    def _shell(self, index: int, raw: _Raw, args: list, unwrapped) -> None:
        k, takes_code, reads_stdin = 0, False, False
        while k < len(args):
            arg = args[k]
            if arg is None:
                self._dynamic(index, "shell -c code" if takes_code else "a shell option")
                return
            if arg in ("--", "-"):
                k += 1
                break
            if arg.startswith("--"):
                k += 2 if arg in _SHELL_OPTIONS_WITH_VALUE else 1
                continue
            if len(arg) > 1 and arg[0] in "-+":
                cluster = arg[1:]
                if arg[0] == "-" and "c" in cluster:
                    takes_code = True
                if arg[0] == "-" and "s" in cluster:
                    reads_stdin = True
                k += 1
                k += sum(1 for ch in cluster if ch in "oO")   # -o NAME / +O NAME take the next word
                continue
            break
        if takes_code:
            if k >= len(args):
                return
            code = args[k]
            if code is None:
                self._dynamic(index, "shell -c code")
            elif "xargs" in unwrapped.wrappers and _xargs_replaces(raw.argv):
                self._dynamic(index, "shell -c code with xargs replacement")
            else:
                self._enqueue(code, _code_origin(unwrapped.wrappers), index)
            return
        if k < len(args) and not reads_stdin:
            return   # a script file: not code we can read
        if raw.stdin_code is not None:
            heredoc = any(r.op in ("<<", "<<-") for r in raw.redirects)
            self._enqueue(raw.stdin_code, "heredoc" if heredoc else "here-string", index)
        elif raw.pipeline is not None and raw.stage > 0:
            feeder = self._stage(raw.pipeline, raw.stage - 1)
            if feeder is not None:
                fed = self.parts[feeder]
                feeder_program = _base(fed.argv[0]) if fed.argv else ""
                if feeder_program == "echo" and all(a is not None for a in fed.argv):
                    words = [a for a in fed.argv[1:] if a not in ("-n", "-e", "-E")]
                    self._enqueue(" ".join(words), "pipe", index)
                elif feeder_program == "cat" and fed.stdin_code is not None and len(fed.argv) == 1:
                    self._enqueue(fed.stdin_code, "pipe", index)

    def _stage(self, pipeline: int, stage: int) -> int | None:
        for k in range(len(self.parts) - 1, -1, -1):
            p = self.parts[k]
            if p.pipeline == pipeline and p.stage == stage:
                return k
        return None

    def _ssh(self, index: int, args: list) -> None:
        k = 0
        while k < len(args):
            arg = args[k]
            if arg is None:
                self._dynamic(index, "an ssh argument")
                return
            if arg == "--":
                k += 1
                break
            if not arg.startswith("-") or arg == "-":
                break
            k += 2 if (len(arg) == 2 and arg[1] in _SSH_OPTIONS_WITH_VALUE) else 1
        rest = args[k + 1:]   # after the host
        if not rest:
            return
        if any(a is None for a in rest):
            self._dynamic(index, "ssh's remote command")
        else:
            self._enqueue(" ".join(rest), "ssh", index)

    def _run_directly(self, index: int, raw: _Raw, command: list, inner: list, origin: str) -> None:
        """A part for the command another program runs with exec (its words are argv, not code)."""
        offset = len(raw.argv) - len(inner)
        words = raw.words[offset:] if 0 <= offset and len(raw.words) == len(raw.argv) \
            and raw.argv[offset:] == inner else [a if a is not None else "?" for a in inner]
        extra = _Raw(" ".join(words), raw.span, list(inner), list(words), origin=origin, parent=index,
                     code_depth=raw.code_depth, loops=raw.loops, context=raw.context)
        _settle_program(extra)
        self.parts.append(extra)

    def _find(self, index: int, raw: _Raw, command: list) -> None:
        offset = len(raw.argv) - len(command)
        written = raw.words[offset:] if offset >= 0 and len(raw.words) == len(raw.argv) else \
            [a if a is not None else "?" for a in command]
        k = 1
        while k < len(command):
            if command[k] in _FIND_EXEC:
                end = k + 1
                while end < len(command) and command[end] not in (";", "+"):
                    end += 1
                argv, words = command[k + 1:end], written[k + 1:end]
                if argv:
                    extra = _Raw(" ".join(words), raw.span, list(argv), list(words), origin="find -exec",
                                 parent=index, code_depth=raw.code_depth, loops=raw.loops, context=raw.context)
                    _settle_program(extra)
                    self.parts.append(extra)
                k = end + 1
            else:
                k += 1

    # ------------------------------------------------------------ result

    def _finish(self) -> Split:
        parts = []
        for raw in self.parts:
            second = _second_of(raw)
            parts.append(Part(
                text=raw.text, span=raw.span, argv=tuple(raw.argv), words=tuple(raw.words),
                assignments=tuple(raw.assignments), redirects=tuple(raw.redirects), origin=raw.origin,
                context=raw.context, loops=tuple(raw.loops), runtime_program=raw.runtime_program,
                opaque=raw.opaque, stdin_code=raw.stdin_code, stdin_quoted=raw.stdin_quoted, parent=raw.parent,
                pipeline=raw.pipeline, stage=raw.stage, background=raw.background, second=second))
        return Split(line=self.line, parts=tuple(parts), ok=self.ok, notes=tuple(dict.fromkeys(self.notes)),
                     second=_line_second(self.line, parts))


# ---------------------------------------------------------------- helpers


_NO_VALUE = object()


def _runner(values: str = "", code: str = "") -> tuple[frozenset, frozenset]:
    return frozenset(values.split()), frozenset(code.split())


# Multiplexer verbs that run the command after their options: program -> verb -> (options taking a value,
# options whose value is code).
_VERB_RUNNERS: dict[str, dict[str, tuple[frozenset, frozenset]]] = {
    "uv": {"run": _runner("--with --with-editable --with-requirements -p --python --package --extra --group "
                          "--only-group --no-group --env-file --directory --project --index --default-index "
                          "--index-url --extra-index-url -f --find-links --config-file --cache-dir --color")},
    "uvx": {},
    "poetry": {"run": _runner("-C --directory -P --project")},
    "pdm": {"run": _runner("-p --project")},
    "hatch": {"run": _runner("-e --env")},
    "pipx": {"run": _runner("--spec --python --pip-args --index-url")},
    "conda": {"run": _runner("-n --name -p --prefix --cwd")},
    "mamba": {"run": _runner("-n --name -p --prefix --cwd")},
    "npm": {"exec": _runner("-p --package -w --workspace", "-c --call"),
            "x": _runner("-p --package -w --workspace", "-c --call")},
    "pnpm": {"exec": _runner("-C --dir -F --filter", "-c"), "dlx": _runner("--package")},
    "yarn": {"exec": _runner()},
    "bun": {"x": _runner("-p --package")},
    "bundle": {"exec": _runner("--gemfile")},
    "mise": {"exec": _runner("-C --cd -j --jobs", "-c --command"), "x": _runner("-C --cd -j --jobs", "-c --command")},
}

# Programs whose option's value is a command line they run (through a shell, or split and run).
_OPTION_CODE = {
    "script": ("-c", "--command"),
    "tar": ("--to-command", "--use-compress-program", "-I", "--info-script", "--new-volume-script", "-F"),
}

_CODE_WRAPPERS = {"watch": "watch", "su": "su -c", "flock": "flock -c", "xargs": "xargs"}


def _code_origin(wrappers: tuple[str, ...]) -> str:
    """Where `sh -c CODE` came from: a wrapper that builds it (watch, su -c) names it, else "sh -c"."""
    return _CODE_WRAPPERS.get(wrappers[-1], "sh -c") if wrappers else "sh -c"


def _clause_origin(frame: _Frame) -> str:
    return frame.origin if frame.origin in ("function",) else "clause"


def _join_touching(words: list[tuple[int, int, str]], data: bytes = b"") -> list[str]:
    """Words with no blank between them are one word to bash; tree-sitter splits some (`a$b-c$d/`), and
    splits at a line continuation (`e\\⏎val` is `eval` to bash): the continuation is kept in the word."""
    out: list[list[str]] = []   # pieces of each word, joined once at the end (no quadratic +=)
    last_end = -1
    for start, end, text in words:
        if out and end > start and (start == last_end or _only_continuations(data, last_end, start)):
            if start != last_end:
                out[-1].append(data[last_end:start].decode("utf-8", "surrogatepass"))
            out[-1].append(text)
        else:
            out.append([text])
        last_end = end
    return [pieces[0] if len(pieces) == 1 else "".join(pieces) for pieces in out]


def _only_continuations(data: bytes, start: int, end: int) -> bool:
    gap = data[start:end]
    return 0 < start < end and len(gap) % 2 == 0 and gap == b"\\\n" * (len(gap) // 2)


def _redirect_end(node, redirect_nodes) -> int:
    end = node.end_byte
    for r in redirect_nodes:
        if r.type == "heredoc_redirect":
            for c in r.children:
                if c.type in ("heredoc_start", "file_redirect", "herestring_redirect"):
                    end = max(end, c.end_byte)
        else:
            end = max(end, r.end_byte)
    return end


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _only_comments(line: str) -> bool:
    return all(not s.strip() or s.strip().startswith("#") for s in line.split("\n"))


def _assignment_from_text(text: str) -> Assignment:
    name, _, value = text.partition("=")
    return Assignment(name.rstrip("+"), unquote(value), text)


def _xargs_replaces(argv: list) -> bool:
    return any(a is not None and (a.startswith("-I") or a.startswith("-i") or a.startswith("--replace"))
               for a in argv)


def _env_split_string_dynamic(argv: list) -> bool:
    if not argv or _base(argv[0]) != "env":
        return False
    for k, a in enumerate(argv[1:], 1):
        if a in ("-S", "--split-string") and k + 1 < len(argv) and argv[k + 1] is None:
            return True
    return False


_TIME_WORDS = ("time", "coproc")


def _settle_program(raw: _Raw) -> None:
    """The program word as bash reads it: `time`/`coproc` keywords off, brace expansion where static,
    runtime_program when the program is an expansion or a glob."""
    words, argv = raw.words, raw.argv
    while words and argv and argv[0] in _TIME_WORDS and len(words) > 1:
        drop = 1
        if argv[0] == "time":
            while drop < len(argv) and argv[drop] in ("-p", "--"):
                drop += 1
        if drop >= len(words):
            break
        words, argv = words[drop:], argv[drop:]
    if words and "{" in words[0] and "," in words[0]:
        expanded = expand_braces(words[0], MAX_BRACE_WORDS)
        if len(expanded) > 1:
            words = expanded + list(words[1:])
            argv = [unquote(w) for w in expanded] + list(argv[1:])
    raw.words, raw.argv = list(words), list(argv)
    if argv:
        raw.runtime_program = argv[0] is None or has_unquoted_glob(words[0])


def _loops_used(text: str, loops: tuple) -> tuple[tuple, str | None]:
    if not loops:
        return (), None
    used = tuple(loop for loop in loops
                 if re.search(r"\$\{?[#!]?" + re.escape(loop.var) + r"(?![A-Za-z0-9_])", text))
    if not used:
        return (), None
    return used, "; ".join(f"{loop.var} in {loop.over}" for loop in used)


def _second_of(raw: _Raw) -> str:
    if raw.opaque and not raw.argv:
        return read_away(raw.text) if len(raw.text) < 100_000 else raw.text
    pieces = [read_away(a.text) for a in raw.assignments if not any(a.text == w for w in raw.words)]
    pieces += second_words(tuple(raw.words), tuple(raw.argv))
    for r in raw.redirects:
        pieces.append(f"{r.fd or ''}{r.op}{r.target_text}" if r.op not in ("<<", "<<-") else f"{r.op}{r.target_text}")
    return " ".join(p for p in pieces if p != "")


def _line_second(line: str, parts: list[Part]) -> str:
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
