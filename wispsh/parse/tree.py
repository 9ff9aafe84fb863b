"""The tree-sitter walk: one job's code -> parts, and the places of code it walked (`claimed`).

tree-sitter-bash parses; the walk goes over the tree iteratively (a stack, never recursion: 100,000-deep
input must not crash) and makes one part per simple command, with its words, assignments, redirects,
pipeline, loops and origin. Guard checks (guards.py) raise Flagged when the tree is not to be trusted; the
driver (split.py) then gives the job to the fallback scanner. Every `$(…)`, backtick, `<(…)` and `>(…)` the
walk descends into, and every piece of code it hands on, is recorded in `claimed` (job-local character
offsets), so the driver can check that nothing was missed (guards.uncovered).

What the parser reads: the job's code with every non-ASCII character replaced by one two-byte character
(U+00A4). tree-sitter-bash's external scanner calls the C library's isdigit() on a Unicode code point after
a `{` (scanner.c, the `{1..2}` brace-range reader): undefined for values past 255, glibc reads past its
table, and the process dies with SIGSEGV depending on the address layout (the crash reproducers in
shared/repro/ each hold `{` before a character above U+00FF). bash itself never treats a non-ASCII
character as a separator or as part of a name, so the substitute changes no reading; every text is taken
from the original code by character offsets.
"""
from __future__ import annotations

import bisect
import sys

from wispsh.model import Assignment, LoopRange, Redirect
from wispsh.parse import guards, scan
from wispsh.parse.guards import Flagged, TooDeep
from wispsh.parse.parts import Builder, Job, RawPart, loops_used, settle_program
from wispsh.parse.words import heredoc_delimiter, redirect_target, unescape_backticks, unquote
from wispsh.support.lazyre import lazy_re

MAX_NESTING = 200               # nested syntax levels within one parse ($( $( …, ( ( …, if if …)
MAX_HEREDOC_SUBSTITUTIONS = 5_000   # more $(…) in one heredoc: its code is one opaque part

_PART_NODES = frozenset({"command", "declaration_command", "unset_command", "test_command"})
_SEPARATORS = frozenset({";", "&", "&&", "||", "\n"})   # between statements: leaves with nothing to check
_NEWLINE_CHECKED = frozenset({"command", "file_redirect", "declaration_command", "unset_command", "test_command"})
# Arithmetic contexts: `$(( ))`, `$[ ]`, subscripts. bash expands a $(…) there even inside single quotes.
_ARITHMETIC_NODES = frozenset({"arithmetic_expansion", "subscript"})
_NAMED_FD = lazy_re(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$")   # {fd}>file: a redirect that names its descriptor
_HEREDOC_OWN = frozenset({"<<", "<<-", "heredoc_start", "heredoc_body", "heredoc_end", "file_redirect",
                          "herestring_redirect"})
_NON_ASCII = lazy_re(r"[^\x00-\x7f]")
_PARSER_STAND_IN = "\u00a4"


# ---------------------------------------------------------------- what the parser reads


class Source:
    """The code being parsed: the bytes the parser reads (non-ASCII characters stood in for, see the module
    docstring) and byte -> character offsets (every non-ASCII character is two bytes there)."""

    __slots__ = ("code", "data", "ascii", "_ends")

    def __init__(self, code: str):
        self.code = code
        self.ascii = code.isascii()
        if self.ascii:
            self.data = code.encode("ascii")
            self._ends: list[int] = []
        else:
            self.data = _NON_ASCII.sub(_PARSER_STAND_IN, code).encode("utf-8")
            # byte offset just after the k-th non-ASCII character: its character offset + k + 2
            self._ends = [m.start() + k + 2 for k, m in enumerate(_NON_ASCII.finditer(code))]

    def char(self, byte_offset: int) -> int:
        if self.ascii:
            return byte_offset
        return byte_offset - bisect.bisect_right(self._ends, byte_offset)

    def text(self, node) -> str:
        if self.ascii:
            return self.code[node.start_byte:node.end_byte]
        return self.code[self.char(node.start_byte):self.char(node.end_byte)]

    def between(self, start: int, end: int) -> str:
        if self.ascii:
            return self.code[start:end]
        return self.code[self.char(start):self.char(end)]


_PARSER = None


def parser():
    """The one tree-sitter-bash parser of the process (made on first use)."""
    global _PARSER
    if _PARSER is None:
        tree_sitter = _binding("tree_sitter")
        _PARSER = tree_sitter.Parser(tree_sitter.Language(_binding("tree_sitter_bash").language()))
    return _PARSER


def parse(source: Source):
    return parser().parse(source.data)


def _binding(package: str):
    """The compiled `_binding` module of tree-sitter or tree-sitter-bash, loaded without the package's
    __init__: those import typing and importlib.resources for things we never use, which costs more at
    start-up than parsing. Falls back to the ordinary import. The import system's own PathFinder, as loaded at
    start-up: importlib.machinery would import the importlib package and its warnings module."""
    from _frozen_importlib_external import PathFinder

    found = PathFinder.find_spec(package)
    spec = found and PathFinder.find_spec(f"{package}._binding", found.submodule_search_locations)
    if spec is None or spec.loader is None:
        import importlib

        return importlib.import_module(f"{package}._binding")
    # tree-sitter's module init takes re.compile, for the #match? predicates of queries, and makes its LogType
    # with enum.IntEnum, for a parser's logger: the gate uses neither, and importing re and enum (with the
    # functools and collections enum brings) costs a line of plain words more than parsing it. So the init
    # gets stand-ins: a compile that imports the real re when first called (support/lazyre.py), and an
    # IntEnum that makes a plain int class with the members. Nothing else runs while they are registered.
    stand_ins = {}
    if "re" not in sys.modules:
        stand_ins["re"] = type(sys)("re")
        stand_ins["re"].compile = _compile_later
    if "enum" not in sys.modules:
        stand_ins["enum"] = type(sys)("enum")
        stand_ins["enum"].IntEnum = _int_class
    sys.modules.update(stand_ins)
    try:
        module = spec.loader.create_module(spec)
    finally:
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
    spec.loader.exec_module(module)
    return module


def _compile_later(*args, **kwargs):
    import re

    return re.compile(*args, **kwargs)


def _int_class(name: str, members: dict):
    """What tree-sitter's IntEnum("LogType", {"PARSE": 0, "LEX": 1}) is used for: LogType(n), LogType.PARSE."""
    made = type(name, (int,), {"__slots__": (), "__module__": "tree_sitter"})
    for member, value in members.items():
        setattr(made, member, made(value))
    return made


# ---------------------------------------------------------------- walk records


class _Frame:
    """What the walk knows at a node: where its parts come from and what they are part of."""

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
        new = self.copy()
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def copy(self) -> "_Frame":
        new = _Frame.__new__(_Frame)
        new.origin, new.loops, new.parent, new.pipeline = self.origin, self.loops, self.parent, self.pipeline
        new.stage, new.background, new.extra_redirects = self.stage, self.background, self.extra_redirects
        new.in_backtick, new.depth = self.in_backtick, self.depth
        new.read_source = self.read_source
        new.arith, new.in_string = self.arith, self.in_string
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


class _LastCommandRedirects:
    """A marker on the walk stack: tree-sitter hangs `a && b > f`'s redirect on the list; bash gives it to the
    list's last command only (a redirect belongs to a simple command or a compound one, never to a list)."""

    def __init__(self, first: int, redirects: tuple, parent: int | None):
        self.first, self.redirects, self.parent = first, redirects, parent

    def apply(self, parts: list) -> None:
        candidates = [k for k in range(self.first, len(parts)) if parts[k].parent == self.parent]
        if candidates:
            last = max(candidates, key=lambda k: (parts[k].span[0], k))
            parts[last].redirects = list(parts[last].redirects) + list(self.redirects)


class _WithRedirects:
    """A marker on the walk stack: a statement and the redirects tree-sitter hung on an enclosing pipeline."""

    def __init__(self, node, redirects: tuple):
        self.node, self.redirects = node, redirects


# ---------------------------------------------------------------- the walk


class Walker:
    """Walks one job's tree into the Builder. `claimed`: job-local character offsets of every substitution
    walked or handed on as code."""

    def __init__(self, out: Builder, job: Job):
        self.out = out
        self.job = job
        self.claimed: set[int] = set()
        self.handed: list[tuple[int, int]] = []   # job-local [start, end) of text handed on whole as code
        self.source = Source(job.code)

    def walk(self) -> None:
        source, job = self.source, self.job
        tree = parse(source)
        root = tree.root_node
        if root.has_error:
            raise Flagged("syntax error in the parse tree")
        top = _Frame(job.origin, job.loops, job.parent)
        stack: list[tuple] = [(root, top)]
        markers = (_LastCommandStdin, _LastCommandRedirects, _WithRedirects)
        while stack:
            node, frame = stack.pop()
            if node.__class__ in markers:   # one test for the few markers among many nodes
                if node.__class__ is not _WithRedirects:
                    node.apply(self.out.parts)
                else:
                    self._redirected_statement(node.node, frame, stack, node.redirects)
                continue
            kind = node.type
            if frame.depth > MAX_NESTING:
                raise TooDeep()
            if node.child_count == 0:
                if kind == "word":
                    guards.check_word(source.data, node, frame.in_backtick)
                elif not node.is_named and "`" in kind and kind != "`":
                    raise Flagged("backticks run together")   # `a` `b` read as one token
                elif kind in (";;", ";&", ";;&") and node.parent is not None and node.parent.type != "case_item":
                    raise Flagged(f"{kind} outside a case statement")
                elif kind == "raw_string" and frame.arith:
                    self._quoted_arithmetic(node, frame)
                continue
            if kind in _NEWLINE_CHECKED and kind not in _PART_NODES:   # parts are checked in _command_part
                guards.check_newlines(source.data, node)
            if kind == "comment":
                continue
            if kind == "redirected_statement":
                self._redirected_statement(node, frame, stack)
            elif kind in _PART_NODES:
                index = self._command_part(node, (), frame)
                self._push_command_insides(stack, node, _inside_command(frame, index))
            elif kind in ("variable_assignment", "variable_assignments"):
                index = self._assignment_part(node, frame)
                self._push_children(stack, node, frame.but(parent=index))
            elif kind == "pipeline":
                self._pipeline(node, frame, stack)
            elif kind in ("program", "list", "compound_statement", "subshell"):
                self._sequence(node, frame, stack)
            elif kind == "for_statement":
                self._for(node, frame, stack)
            elif kind == "while_statement":
                self._while(node, frame, stack)
            elif kind in _ARITHMETIC_NODES or (kind == "expansion" and frame.in_string and not _pattern_operator(node)):
                # in "…", ${x:-'…'} holds plain characters (its $(…) runs); a pattern's quotes still quote
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
                self._function(node, frame, stack)
            elif kind == "command_substitution":
                backtick = node.children[0].type == "`"
                if backtick and frame.in_backtick:
                    raise Flagged("backtick substitution nested inside another")
                self.claimed.add(source.char(node.start_byte))
                if backtick and source.data.find(b"\\", node.start_byte, node.end_byte) >= 0:
                    self._backtick_code(node, frame)
                    continue
                if not backtick and _bash_reads_arithmetic(node, source.data):
                    self._arithmetic_code(node, frame)
                    continue
                origin = "``" if backtick else "$()"
                self._push_children(stack, node, _nested(frame, origin, backtick))
            elif kind == "process_substitution":
                self.claimed.add(source.char(node.start_byte))
                origin = "<()" if source.text(node.children[0]).startswith("<") else ">()"
                self._push_children(stack, node, _nested(frame, origin, frame.in_backtick))
            elif kind == "heredoc_body":
                continue   # read by _heredoc_code (tree-sitter misses backticks in heredoc bodies)
            else:   # words, strings, expansions…: depth counts only constructs that nest commands
                self._push_children(stack, node, frame)

    def _push_command_insides(self, stack: list, node, frame: _Frame) -> None:
        """A command's words, redirects and prefix assignments, walked for the code they hold; its
        assignments belong to the command's part, so they are not parts of their own. A plain word holds no
        code: it is only checked here, not walked (most of a line is plain words)."""
        data = self.source.data
        start, end = node.start_byte, node.end_byte
        # no backtick and no newline in the whole command: no plain word of it can hold one (check_word)
        checked = data.find(b"`", start, end) >= 0 or data.find(b"\n", start, end) >= 0
        children = node.children
        for i in range(len(children) - 1, -1, -1):
            child = children[i]
            kind = child.type
            if kind == "word" and child.child_count == 0:
                if checked:
                    guards.check_word(data, child, frame.in_backtick)
            elif kind == "command_name" and child.child_count == 1 and child.children[0].type == "word" \
                    and child.children[0].child_count == 0:
                if checked:
                    guards.check_word(data, child.children[0], frame.in_backtick)
            elif kind == "variable_assignment":
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

    # ------------------------------------------------------------ statements

    def _sequence(self, node, frame: _Frame, stack: list) -> None:
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
        types = [c.type for c in children]
        for i in range(len(children) - 1, -1, -1):
            if types[i] in _SEPARATORS:
                continue        # a leaf the walk would only pass over
            background = i + 1 < len(children) and types[i + 1] == "&"
            stack.append((children[i], inner.but(background=True) if background else inner))

    def _function(self, node, frame: _Frame, stack: list) -> None:
        """The body's parts are always parts (origin "function"), so a call of the function in the line is
        judged as its body too; a call is a part of its own. `f() { …; } > F`: the redirect applies to the
        body at every call, its $(…) runs then too."""
        body = node.child_by_field_name("body")
        redirect_nodes = [c for c in node.children if c.type == "file_redirect"]
        inside = frame.but(origin="function", depth=frame.depth + 1, pipeline=None, stage=0,
                           background=False, extra_redirects=frame.extra_redirects + tuple(
                               self._redirect(r) for r in redirect_nodes))
        for child in redirect_nodes:
            stack.append((child, inside))
        if body is not None:
            if body.type == "compound_statement":
                self._push_children(stack, body, inside)
            else:
                stack.append((body, inside))

    def _pipeline(self, node, frame: _Frame, stack: list, last_redirects: tuple = ()) -> None:
        """Stages of a pipeline. tree-sitter reads `a | b 2>&1 | c` as ((a | b) 2>&1) | c: a redirect after
        a pipeline belongs to its last command, so nested pipelines are flattened into one."""
        pipeline_id = self.out.new_pipeline()
        stages: list[tuple] = [(c, ()) for c in node.children if c.type not in ("|", "|&")]
        if last_redirects and stages:
            stages[-1] = (stages[-1][0], tuple(last_redirects))
        k = 0
        while k < len(stages):
            stage, extra = stages[k]
            inner = stage.child_by_field_name("body") if stage.type == "redirected_statement" else None
            if inner is not None and inner.type == "pipeline":
                redirects = tuple(c for c in stage.children if c is not inner and c.type.endswith("redirect"))
                guards.check_list_redirects(list(redirects))
                flat = [(c, ()) for c in inner.children if c.type not in ("|", "|&")]
                flat[-1] = (flat[-1][0], redirects + extra)
                stages[k:k + 1] = flat
                continue
            k += 1
        for position in range(len(stages) - 1, -1, -1):
            stage, extra = stages[position]
            item = _WithRedirects(stage, extra) if extra else stage
            inner = frame.copy()
            inner.pipeline, inner.depth, inner.stage = pipeline_id, frame.depth + 1, position
            inner.read_source = stages[position - 1][0] if position > 0 else None   # named only if a loop reads it
            stack.append((item, inner))

    def _redirected_statement(self, node, frame: _Frame, stack: list, extra: tuple = ()) -> None:
        """A statement with redirects (or, with `extra`, any statement given redirects moved onto it)."""
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            redirect_nodes = [c for c in node.children if c is not body and c.type.endswith("redirect")]
            self._check_nothing_between(node)
        else:
            body, redirect_nodes = node, []
        redirect_nodes += list(extra)
        while body is not None and body.type == "negated_command":   # `! a 2>&1`: the redirect is a's
            named = [c for c in body.children if c.is_named and c.type != "comment"]
            body = named[-1] if named else None
        if body is not None and body.type == "pipeline":
            guards.check_list_redirects(redirect_nodes)
            self._pipeline(body, frame, stack, tuple(redirect_nodes))
            return
        if body is not None and body.type not in _PART_NODES:
            guards.check_list_redirects(redirect_nodes)
        if body is not None and body.type in _PART_NODES:
            index = self._command_part(body, redirect_nodes, frame)
            inner = _inside_command(frame, index)
            self._push_command_insides(stack, body, inner)
            self._push_redirect_insides(redirect_nodes, inner, frame, index, stack)
            return
        redirects = tuple(self._redirect(r) for r in _flat_redirects(redirect_nodes))
        for r in redirect_nodes:
            if r.type == "heredoc_redirect":
                self._heredoc_code(r, frame.parent)
        if body is None:   # `> f`, `2>/dev/null` alone: a part with no program
            index = self._new_part(node.start_byte, _redirect_end(node, redirect_nodes), [], [], [],
                                   list(redirects), frame)
            inner = frame.but(parent=index, depth=frame.depth + 1)
            self._push_redirect_insides(redirect_nodes, inner, frame, index, stack)
            return
        read_source = frame.read_source
        for r in redirects:
            if r.op in ("<", "<<", "<<-", "<<<"):
                read_source = {"<": "lines of " + r.target_text, "<<<": "lines of here-string " + r.target_text
                               }.get(r.op, "lines of heredoc " + r.target_text)
        if body.type == "list" and redirects:
            # `x && y > f`: only y writes f (bash); the redirect is given to the list's last command when walked
            inner = frame.but(read_source=read_source, depth=frame.depth + 1)
            stack.append((_LastCommandRedirects(len(self.out.parts), redirects, frame.parent), frame))
        else:
            inner = frame.but(extra_redirects=frame.extra_redirects + redirects, read_source=read_source,
                              depth=frame.depth + 1)
        stdin = [self._stdin_of(r) for r in redirect_nodes if r.type in ("heredoc_redirect", "herestring_redirect")]
        if stdin:   # tree-sitter hangs `a && b <<EOF` on the list: the body feeds its last command
            stack.append((_LastCommandStdin(len(self.out.parts), stdin[-1], frame.parent), frame))
        stack.append((body, inner))
        self._push_redirect_insides(redirect_nodes, frame.but(depth=frame.depth + 1), frame, frame.parent, stack,
                                    push_first=True)

    def _check_nothing_between(self, node) -> None:
        """No text between a statement's command and its redirects may go unread, or the part is not what
        runs (the one word tree-sitter-bash is known to drop there, `-` before a heredoc, is put back by
        _dropped_dash)."""
        children = node.children
        for before, after in zip(children, children[1:]):
            gap = self.source.between(before.end_byte, after.start_byte).replace("\\\n", "")
            if gap.strip() and not (gap.strip() == "-" and after.type == "heredoc_redirect"):
                raise Flagged("words the parse tree dropped")

    def _push_redirect_insides(self, redirect_nodes, inner: _Frame, outer: _Frame, index, stack: list,
                               push_first: bool = False) -> None:
        """Walk what redirects hold: substitutions in targets, heredoc bodies, and the statements tree-sitter
        hangs inside a heredoc redirect (`cat <<EOF | sh`, `cat <<EOF && rm x`)."""
        parts = self.out.parts
        later: list[tuple] = []
        for r in redirect_nodes:
            if r.type != "heredoc_redirect":
                later.append((r, inner))
                continue
            for child in r.children:
                if child.type == "heredoc_body":
                    continue    # read by _heredoc_code: tree-sitter misses backticks in heredoc bodies
                elif child.type in ("file_redirect", "herestring_redirect"):
                    later.append((child, inner))
                elif child.type == "pipeline":   # the rest of a pipeline the heredoc's command starts
                    if index is not None and parts[index].pipeline is None:
                        parts[index].pipeline = self.out.new_pipeline()
                    pipe = parts[index].pipeline if index is not None else None
                    stage0 = parts[index].stage if index is not None else 0
                    stages = [c for c in child.children if c.type not in ("|", "|&")]
                    for k, st in enumerate(stages):
                        later.append((st, outer.but(pipeline=pipe, stage=stage0 + k + 1, depth=outer.depth + 1)))
                elif child.type not in _HEREDOC_OWN and child.is_named:
                    later.append((child, outer.but(depth=outer.depth + 1)))
        for item in reversed(later):
            stack.append(item)

    # ------------------------------------------------------------ parts

    def _command_part(self, node, redirect_nodes, frame: _Frame) -> int:
        source = self.source
        kind = node.type
        words: list[tuple[int, int, str]] = []
        assignments: list[Assignment] = []
        redirects: list[Redirect] = []
        heredoc: tuple[str, bool] | None = None
        children = node.children
        types = [c.type for c in children]    # node.type builds a new str each time: read it once
        all_redirects = [c for c, t in zip(children, types) if t.endswith("redirect")]
        all_redirects += list(redirect_nodes)
        guards.check_newlines(source.data, node, children)
        for r in all_redirects:
            if r.type == "file_redirect":
                guards.check_newlines(source.data, r)
        if kind == "command":
            code, char = source.code, source.char
            for child, ctype in zip(children, types):
                if ctype == "variable_assignment":
                    assignments.append(self._assignment(child))
                    continue
                if ctype.endswith("redirect") or ctype == "comment" or not child.is_named:
                    continue
                start, end = child.start_byte, child.end_byte
                text = code[start:end] if source.ascii else code[char(start):char(end)]
                if ctype == "command_name":
                    guards.check_command_name(text)
                words.append((start, end, text))
            dash = _dropped_dash(source, node, redirect_nodes)
            if dash is not None:
                words.append((dash, dash + 1, "-"))
        elif kind == "test_command":
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
                    assignments.append(self._assignment(child))
                words.append((child.start_byte, child.end_byte, source.text(child)))
        for r in all_redirects:
            if r.type in ("heredoc_redirect", "herestring_redirect"):
                heredoc = self._stdin_of(r)
            if r.type == "heredoc_redirect":   # `tee -a <<'EOF' FILE`: words after the marker are arguments
                for i in range(r.child_count):
                    if r.field_name_for_child(i) == "argument":
                        child = r.children[i]
                        words.append((child.start_byte, child.end_byte, source.text(child)))
        flat = _flat_redirects(all_redirects) if all_redirects else all_redirects
        for r in flat:
            redirects.append(self._redirect(r))
            # Repair: tree-sitter takes words after a mid-command redirect as more destinations.
            destinations = [c for i, c in enumerate(r.children) if r.field_name_for_child(i) == "destination"]
            for extra in destinations[1:]:
                words.append((extra.start_byte, extra.end_byte, source.text(extra)))
        if redirects:
            words.sort(key=lambda w: w[0])
            words = self._named_descriptors(words, flat, redirects)
        written = _join_touching(words, source)
        redirects.extend(frame.extra_redirects)
        start = min([node.start_byte] + [r.start_byte for r in redirect_nodes]) if redirect_nodes else node.start_byte
        end = _redirect_end(node, all_redirects) if all_redirects else node.end_byte
        index = self._new_part(start, end, written, [unquote(w) for w in written], assignments, redirects, frame)
        if heredoc is not None:
            self.out.parts[index].stdin_code, self.out.parts[index].stdin_quoted = heredoc
        for r in all_redirects:
            if r.type == "heredoc_redirect":
                self._heredoc_code(r, index)
        return index

    @staticmethod
    def _named_descriptors(words: list, redirect_nodes: list, redirects: list) -> list:
        """`exec {fd}>f rm`: a `{NAME}` word that touches a redirect operator is that redirect's descriptor
        (tree-sitter reads it as a word, which made `{fd}` the program); so is a number (`sh 0</tmp/f`: bash
        reads fd 0, tree-sitter an argument `0`)."""
        starts = {r.start_byte: k for k, r in enumerate(redirect_nodes)}
        kept = []
        for word in words:
            k = starts.get(word[1])
            if k is not None and (_NAMED_FD.match(word[2]) or word[2].isdigit()) and redirects[k].fd is None:
                r = redirects[k]
                redirects[k] = Redirect(op=r.op, fd=word[2], target=r.target, target_text=r.target_text)
            else:
                kept.append(word)
        return kept

    def _heredoc_code(self, node, holder: int | None) -> None:
        """$(…) and backticks of an unquoted heredoc body run when the heredoc is read: code of their own."""
        source, job = self.source, self.job
        body_node = next((c for c in node.children if c.type == "heredoc_body"), None)
        body, quoted = self._stdin_of(node)
        if quoted or body_node is None or ("$(" not in body and "`" not in body):
            return
        raw_body = source.text(body_node)
        regions = scan.substitution_regions(raw_body)
        if not regions:
            return
        at = source.char(body_node.start_byte)
        self.claimed.update(at + r[0] for r in regions)
        bodies = [scan.region_code(raw_body, r) for r in regions]
        code = "\n".join(bodies)   # one job for all: a big heredoc is parsed once, not once per $(…)
        if len(bodies) > MAX_HEREDOC_SUBSTITUTIONS:
            span = job.line_span(source.char(node.start_byte), source.char(node.end_byte))
            self.out.distrust(f"heredoc with more than {MAX_HEREDOC_SUBSTITUTIONS} substitutions: "
                              "its code is judged whole")
            self.out.add(RawPart(code, span, [], [], origin="heredoc", opaque=True, parent=holder,
                                 code_depth=job.depth + 1))
            return
        if holder is not None:
            self.out.enqueue(code, "heredoc", holder)
        else:
            span = job.line_span(source.char(node.start_byte), source.char(node.end_byte))
            self.out.jobs.append(Job(code, "heredoc", span, job.parent, job.depth + 1, job.loops))

    def _quoted_arithmetic(self, node, frame: _Frame) -> None:
        """A single-quoted string in arithmetic or a subscript is not data: bash expands its $(…) and `…`."""
        text = self.source.text(node)
        if "$(" in text or "`" in text:
            at = self.source.char(node.start_byte) + 1
            regions = scan.substitution_regions(text[1:-1])
            self.claimed.update(at + r[0] for r in regions)
            self._code_of(node, frame, [scan.region_code(text[1:-1], r) for r in regions], "arithmetic")

    def _backtick_code(self, node, frame: _Frame) -> None:
        r"""bash reads a backtick substitution's text twice: first a backslash before \, ` or $ (and " within
        "…") is removed, then what is left is parsed as code. tree-sitter parses it once, as written, which hid
        b in `a "\`b\`"` and c in `a $(b \`c\`)`: such a text is handed on unescaped, as a job of its own."""
        text = self.source.text(node)
        body = text[1:-1] if len(text) > 1 and text.endswith("`") else text[1:]
        i = 0
        while i < len(body):        # bash's own extent: the first backtick no backslash escapes ends it
            if body[i] == "`":
                raise Flagged("a backtick substitution read past its closing backtick")
            i += 2 if body[i] == "\\" else 1
        if i > len(body):
            raise Flagged("a backtick substitution whose closing backtick is escaped")
        self._hand_on(node, frame, [unescape_backticks(body, frame.in_string)], "``")

    def _arithmetic_code(self, node, frame: _Frame) -> None:
        """`$((2 + $(c) ))` that tree-sitter took for a substitution holding a subshell, and bash reads as
        arithmetic: its text holds no command but the substitutions in it (found by the scanner's lexer)."""
        text = self.source.text(node)
        end = -1
        sites = scan.code_sites(text)
        if any(site.origin == "opaque" for site in sites):
            return      # too deep for the lexer: the driver's invariant check finds that and judges the job whole
        for site in sites:
            if site.open_at < end:
                continue            # inside the last one: its job's business
            end = site.inner_end
            code = text[site.inner_start:site.inner_end]
            self._code_of(node, frame, [unescape_backticks(code, frame.in_string) if site.origin == "``" else code],
                          site.origin)
        self._hand_on(node, frame, [], "$()")

    def _hand_on(self, node, frame: _Frame, bodies: list, origin: str) -> None:
        """`bodies`, the code of the text of `node`, split as jobs of their own; the text is covered by them."""
        source = self.source
        self.handed.append((source.char(node.start_byte), source.char(node.end_byte)))
        self._code_of(node, frame, bodies, origin)

    def _code_of(self, node, frame: _Frame, bodies: list, origin: str) -> None:
        """Code found inside a word: judged under the part that holds the word, else under the line's span."""
        if not bodies:
            return
        if frame.parent is not None:
            for body in bodies:
                self.out.enqueue(body, origin, frame.parent)
        else:   # `(( x['$(…)'] ))` is no command of its own: its code is judged under the span of the line
            job, source = self.job, self.source
            span = job.line_span(source.char(node.start_byte), source.char(node.end_byte))
            for body in bodies:
                self.out.jobs.append(Job(body, origin, span, job.parent, job.depth + 1, job.loops))

    def _assignment_part(self, node, frame: _Frame) -> int:
        items = [node] if node.type == "variable_assignment" else \
            [c for c in node.children if c.type == "variable_assignment"]
        assignments = [self._assignment(c) for c in items]
        return self._new_part(node.start_byte, node.end_byte, [], [], assignments, list(frame.extra_redirects),
                              frame)

    def _new_part(self, start: int, end: int, words: list, argv: list, assignments: list, redirects: list,
                  frame: _Frame) -> int:
        source, job = self.source, self.job
        local = (start, end) if source.ascii else (source.char(start), source.char(end))
        span = local if job.span is None else job.line_span(*local)
        text = self.out.line[span[0]:span[1]] if job.span is None else source.between(start, end)
        raw = RawPart(text, span, argv, words, assignments, redirects, origin=frame.origin, parent=frame.parent,
                      pipeline=frame.pipeline, stage=frame.stage, background=frame.background,
                      code_depth=job.depth, local=local)
        settle_program(raw)
        if frame.loops:
            raw.loops, raw.context = loops_used(text, frame.loops)
        parts = self.out.parts
        parts.append(raw)
        return len(parts) - 1

    def _assignment(self, node) -> Assignment:
        source = self.source
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        text = source.text(node)
        name_text = source.text(name) if name is not None else text.split("=", 1)[0]
        value_text = text.split("=", 1)[1] if "=" in text else ""
        if value is None:
            return Assignment(name_text.rstrip("+"), "", text)
        return Assignment(name_text.rstrip("+"), unquote(value_text), text)

    def _redirect(self, node) -> Redirect:
        source = self.source
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
        return Redirect(op=op, fd=fd, target=redirect_target(target_text) if target_text else None,
                        target_text=target_text)

    def _stdin_of(self, node) -> tuple[str, bool]:
        source = self.source
        if node.type == "herestring_redirect":
            words = [c for c in node.children if c.is_named]
            text = source.text(words[0]) if words else ""
            value = unquote(text)
            return (value if value is not None else text), value is not None
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        text = source.text(body) if body is not None else ""
        if any(c.type == "<<-" for c in node.children):
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
        _, quoted = heredoc_delimiter(source.text(start) if start is not None else "")
        return text, quoted

    # ------------------------------------------------------------ loops

    def _for(self, node, frame: _Frame, stack: list) -> None:
        source = self.source
        variable = node.child_by_field_name("variable")
        values = [node.children[i] for i in range(node.child_count) if node.field_name_for_child(i) == "value"]
        has_in = any(c.type == "in" for c in node.children)
        var = source.text(variable) if variable is not None else "?"
        if values:
            over = source.between(values[0].start_byte, values[-1].end_byte)
        else:
            over = "" if has_in else '"$@"'
        words = tuple(unquote(source.text(v)) for v in values)
        span = self.job.line_span(source.char(values[0].start_byte), source.char(values[-1].end_byte)) \
            if values else None
        loop = LoopRange(var, _one_line(over), words, span)
        body_frame = frame.but(origin="clause", loops=frame.loops + (loop,), depth=frame.depth + 1)
        header_frame = frame.but(depth=frame.depth + 1)
        for i in range(node.child_count - 1, -1, -1):
            child = node.children[i]
            if node.field_name_for_child(i) == "body" or child.type == "do_group":
                stack.append((child, body_frame))
            elif child.is_named and child is not variable:
                stack.append((child, header_frame))

    def _while(self, node, frame: _Frame, stack: list) -> None:
        source = self.source
        loops = frame.loops
        for i, child in enumerate(node.children):
            if node.field_name_for_child(i) == "condition" and child.type == "command":
                name = child.child_by_field_name("name")
                if name is not None and unquote(source.text(name)) in ("read", "mapfile", "readarray"):
                    args = [unquote(source.text(c)) for c in child.children if c.type != "command_name"
                            and c.is_named]
                    names = [a for a in args if a and not a.startswith("-")]
                    var = names[-1] if names else "REPLY"
                    source_of, span = frame.read_source, None
                    if source_of is not None and not isinstance(source_of, str):   # the stage feeding the loop
                        span = self.job.line_span(source.char(source_of.start_byte), source.char(source_of.end_byte))
                        source_of = "output of " + _one_line(source.text(source_of))
                    loops = loops + (LoopRange(var, source_of or "lines of stdin", (), span),)
        clause = frame.but(origin="clause", depth=frame.depth + 1, read_source=None)
        body_frame = clause.but(loops=loops)
        for i in range(node.child_count - 1, -1, -1):
            child = node.children[i]
            stack.append((child, body_frame if node.field_name_for_child(i) == "body" else clause))


# ---------------------------------------------------------------- helpers


def _inside_command(frame: _Frame, index: int) -> _Frame:
    """The frame for what a command's words hold: their code belongs to the command's part."""
    new = frame.copy()
    new.parent, new.pipeline, new.stage, new.extra_redirects, new.read_source = index, None, 0, (), None
    new.depth = frame.depth + 1
    return new


def _nested(frame: _Frame, origin: str, backtick: bool) -> _Frame:
    return frame.but(origin=origin, in_backtick=backtick, depth=frame.depth + 1, pipeline=None, stage=0,
                     background=False, extra_redirects=(), read_source=None, arith=False, in_string=False)


def _bash_reads_arithmetic(node, data: bytes) -> bool:
    """A `command_substitution` tree-sitter read as `$(` + a subshell + `)` whose parentheses close together
    (`$((2 + 3))` inside arithmetic): bash's `$((` is arithmetic when the parenthesis after it closes right
    before another `)` (parse.y: parse_arith_cmd), so bash reads arithmetic there. `$((a) | b)` and `$((a) )`
    stay substitutions."""
    if node.child_count != 3:
        return False
    inner = node.children[1]
    return (inner.type == "subshell" and inner.start_byte == node.start_byte + 2
            and inner.end_byte == node.end_byte - 1 and data[node.end_byte - 2:node.end_byte] == b"))")


def _clause_origin(frame: _Frame) -> str:
    return frame.origin if frame.origin in ("function",) else "clause"


_PATTERN_OPERATORS = frozenset({"#", "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,"})


def _pattern_operator(node) -> bool:
    """Whether an `expansion` node's operator takes a pattern (`${x#…}`, `${x/…/…}`, `${x^…}`)."""
    for i in range(node.child_count):
        if node.field_name_for_child(i) == "operator" and node.children[i].type in _PATTERN_OPERATORS:
            return True
    return False


def _flat_redirects(redirect_nodes) -> list:
    """Every redirect of a command, whatever its order relative to heredoc markers: tree-sitter hangs the
    redirects written after `<<EOF` (`cat <<'EOF' >> ~/.bashrc`, `cat <<A <<B 2>e`) inside the heredoc
    redirect."""
    out = []
    for r in redirect_nodes:
        out.append(r)
        if r.type == "heredoc_redirect":
            out.extend(c for c in r.children if c.type in ("file_redirect", "herestring_redirect"))
    return out


def _join_touching(words: list[tuple[int, int, str]], source: Source) -> list[str]:
    """Words with no blank between them are one word to bash; tree-sitter splits some (`a$b-c$d/`), and
    splits at a line continuation (`e\\⏎val` is `eval` to bash): the continuation is kept in the word."""
    data = source.data
    out: list = []      # each word's text, or the list of its pieces (joined once at the end: no quadratic +=)
    joined = False
    last_end = -1
    for start, end, text in words:
        if out and end > start and (start == last_end or data[last_end] == 0x5C and   # a backslash
                                    _only_continuations(data, last_end, start)):
            pieces = out[-1]
            if pieces.__class__ is str:
                pieces = out[-1] = [pieces]
                joined = True
            if start != last_end:
                pieces.append(source.between(last_end, start))
            pieces.append(text)
        else:
            out.append(text)
        last_end = end
    if not joined:
        return out
    return [pieces if pieces.__class__ is str else "".join(pieces) for pieces in out]


def _dropped_dash(source: Source, node, redirect_nodes) -> int | None:
    """tree-sitter-bash drops a lone `-` right before a heredoc (`awk -f - <<'EOF'` parses as `awk -f`, and
    `python3 - <<'EOF'` as `python3`): the byte offset of that `-` when the command's statement has one."""
    for r in redirect_nodes:
        if r.type == "heredoc_redirect" and r.start_byte > node.end_byte:
            gap = source.between(node.end_byte, r.start_byte).replace("\\\n", "")
            if gap.strip() == "-":
                return node.end_byte + source.between(node.end_byte, r.start_byte).index("-")
            return None
    return None


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
