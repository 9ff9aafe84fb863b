"""The fallback scanner: splits text tree-sitter could not be trusted with, and never drops any of it.

Two linear passes, no recursion:
1. `_lex` walks the text once with a stack of modes (code, "…", ${…}, $((…)), arrays, backticks) and records,
   for every construct, where it ends (`jump`), every nested code region ($(…), `…`, <(…), >(…), (…)),
   comments, and heredoc bodies (quoted and unquoted delimiters, <<-).
2. `_segment` reads one code region at its own level, jumping over constructs as parts of words, and cuts it
   into simple commands at ; & && || | |& newlines and case/loop keywords. Nested regions are read the same
   way, each attached to the command whose text holds it.
"""
from __future__ import annotations

import bisect

from wispsh.parse.words import ansi_c_end, heredoc_delimiter, is_assignment, unescape_backticks, unquote
from wispsh.support.lazyre import lazy_re

MAX_DEPTH = 200

_CODE, _DQ, _PARAM, _ARITH, _ARRAY, _HEREDOC, _PARAM_DQ, _BRACKET = range(8)
# _PARAM_DQ: ${…} inside "…" or a heredoc. _BRACKET: arithmetic in […]: a subscript (`${a[…]}`, `a[…]=`,
# `([…]=v)`) or `$[…]`; quotes do not stop a $(…) there.
_SKIP_WORDS = frozenset({"then", "else", "elif", "fi", "do", "done", "esac", "if", "while", "until", "{", "}",
                         "!", "[[", "]]"})
_HEADER_WORDS = frozenset({"for", "select", "case", "function"})
_HEADER_ENDERS = frozenset({"{", "do", "then"})
_WORD_BREAK = set(" \t\n;&|<>()")
# After `coproc NAME`, these begin the compound command NAME names (with a simple command there is no NAME).
_COMPOUND_STARTS = frozenset({"{", "while", "until", "for", "select", "if", "case", "[["})
_NAME = lazy_re(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NAMED_FD = lazy_re(r"^\{[A-Za-z_][A-Za-z0-9_]*\}$")
# `a[…]=`, `a[…]+=` at the start of a word (an assignment to an element: its subscript is arithmetic)
_ELEMENT_ASSIGNMENT = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*\[[^\]\n]*\]\+?=")
_ARRAY_ELEMENT = lazy_re(r"\[[^\]\n]*\]\+?=")
# The head of a ${…}: an optional ! or #, the parameter, then what follows it (the operator)
_PARAM_HEAD = lazy_re(r"[!#]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])")
_WORD_OPERATORS = ("-", "=", "+", "?")      # after an optional `:`: ${x:-word}, ${x=word}, …


class TooDeep(Exception):
    pass


class Site:
    """A place in the text where bash runs code: `$(…)`, `…`, <(…), >(…) (origin), the character offset of
    its opening (`open_at`) and of its code (`inner_start`, `inner_end`)."""

    __slots__ = ("open_at", "inner_start", "inner_end", "origin")

    def __init__(self, open_at: int, inner_start: int, inner_end: int, origin: str):
        self.open_at, self.inner_start, self.inner_end, self.origin = open_at, inner_start, inner_end, origin

    def __repr__(self) -> str:
        return f"Site({self.origin} at {self.open_at}: {self.inner_start}..{self.inner_end})"


class Segment:
    """One simple command found by the scanner (character offsets into the scanned text)."""

    __slots__ = ("start", "end", "words", "assignments", "redirects", "origin", "parent", "pipeline", "stage",
                 "background", "stdin_code", "stdin_quoted", "heredoc_code", "nested_code", "opaque", "loops")

    def __init__(self, start: int, end: int, words: list, assignments: list | None = None,
                 redirects: list | None = None, origin: str = "top", pipeline: int | None = None, stage: int = 0,
                 background: bool = False, opaque: bool = False):
        self.start, self.end, self.words = start, end, words
        self.assignments = assignments if assignments is not None else []
        self.redirects = redirects if redirects is not None else []    # (op, fd, target_text)
        self.origin, self.parent, self.pipeline, self.stage = origin, None, pipeline, stage
        self.background, self.opaque = background, opaque
        self.stdin_code: str | None = None
        self.stdin_quoted = False
        self.heredoc_code: list = []       # $(…) bodies of unquoted heredocs
        self.nested_code: list = []        # (origin, code) to split on its own: `a \`b\``
        self.loops: tuple = ()             # the `for`/`select` headers before it (LoopHeader)


class LoopHeader:
    """A `for NAME in WORDS` / `select NAME in WORDS` header the scanner read: where it stands, the variable, and
    its words as written ((start, end) offsets; none: `"$@"`). The variable keeps its last value after the
    loop, so every segment after the header is given it (a superset of the loop's body)."""

    __slots__ = ("at", "var", "words", "has_in")

    def __init__(self, at: int, var: str, words: list, has_in: bool):
        self.at, self.var, self.words, self.has_in = at, var, words, has_in


class _Region:
    """A nested code region: $(…), `…`, <(…), >(…), (…); regions[0] is the whole text."""

    __slots__ = ("open_at", "inner_start", "inner_end", "origin", "code_parent")

    def __init__(self, open_at: int, inner_start: int, inner_end: int, origin: str, code_parent: int):
        self.open_at, self.inner_start, self.inner_end = open_at, inner_start, inner_end
        self.origin, self.code_parent = origin, code_parent   # code_parent: enclosing region (-1: none)


class _Lexed:
    __slots__ = ("jump", "regions", "region_at", "heredocs", "bodies", "comments")

    def __init__(self, jump: dict, regions: list, region_at: dict, heredocs: dict, bodies: set, comments: set):
        self.jump = jump              # construct start -> index just past it
        self.regions = regions        # code regions
        self.region_at = region_at    # construct start -> region index
        self.heredocs = heredocs      # index of the << operator -> (body_start, body_end, quoted, strip_tabs)
        self.bodies = bodies          # starts of heredoc bodies in `jump`
        self.comments = comments


# Per mode, the characters (and words) the lexer must look at; everything between is skipped at C speed.
_CASE_WORD = r"|(?<![^\s;&|(])(?:case|esac)(?=[\s;&|)]|$)"
_NEXT_SPECIAL = {
    _CODE: lazy_re(r"[\\'\"$`#()<>\n]|(?<![^\s;&|(])[A-Za-z_]\w*\[" + _CASE_WORD),
    _DQ: lazy_re(r"[\\\"$`]"),
    _PARAM: lazy_re(r"[\\'\"$`}<>\[]"),
    _ARITH: lazy_re(r"[\\\"$`()]"),
    _ARRAY: lazy_re(r"[\\'\"$`()\[]"),
    _HEREDOC: lazy_re(r"[\\$`]"),
    _PARAM_DQ: lazy_re(r"[\\'\"$`}\[]"),
    _BRACKET: lazy_re(r"[\\\"$`\[\]]"),
}


def _word_end(text: str, i: int) -> int:
    """End of a plain heredoc delimiter word starting at i (quotes included)."""
    n = len(text)
    while i < n and text[i] not in _WORD_BREAK:
        if text[i] in "'\"":
            close = text.find(text[i], i + 1)
            i = n if close < 0 else close + 1
        elif text[i] == "\\":
            i += 2
        else:
            i += 1
    return min(i, n)


def _param_quotes_protect(text: str, start: int, at: int, in_dq: bool) -> bool:
    """Whether a single quote at `at` inside the ${…} opened at `start` quotes (bash then expands nothing
    inside it). The operator decides: `${x#'…'}`, `${x/'…'/'…'}`, `${x^'…'}` (patterns) quote everywhere;
    `${x:-'…'}` (a word) quotes only outside "…" and heredocs; `${x:0:'…'}` (arithmetic) never."""
    head = _PARAM_HEAD.match(text, start + 2)
    if head is None:
        return not in_dq
    j = head.end()
    if j < len(text) and text[j] == "[":    # a subscript that is closed: skip it
        depth = 0
        while j < at:
            if text[j] == "[":
                depth += 1
            elif text[j] == "]":
                depth -= 1
                if depth == 0:
                    j += 1
                    break
            j += 1
    if text.startswith(":", j):
        if text[j + 1:j + 2] in _WORD_OPERATORS:
            return not in_dq
        return False            # ${x:offset:length}: arithmetic
    if text[j:j + 1] in _WORD_OPERATORS:
        return not in_dq
    return True                 # #, ##, %, %%, /, //, ^, ^^, ",", ",,": a pattern or a replacement


class _NotArithmetic(Exception):
    """A `$((` or `((` turned out to be two parentheses (`$((a) | b)`): lex again reading it so."""

    def __init__(self, at: int):
        self.at = at


MAX_RELEXES = 32


class _TooManyRelexes(TooDeep):
    pass


def _lex(text: str, first_mode: int = _CODE, max_depth: int = MAX_DEPTH) -> _Lexed:
    commands_at: set[int] = set()
    for _ in range(MAX_RELEXES):
        try:
            return _lex_once(text, first_mode, commands_at, max_depth)
        except _NotArithmetic as found:
            commands_at.add(found.at)
    raise _TooManyRelexes()


def nests_deeper_than(text: str, limit: int) -> bool:
    """Whether `text`, read as code, nests its substitutions, subshells, parameter operands and quotes more than
    `limit` levels deep (one pass of the lexer; a text with fewer openers than that is not even read)."""
    if sum(text.count(c) for c in "({`\"'[") <= limit:
        return False
    try:
        _lex(text, max_depth=limit)
    except _TooManyRelexes:
        return False
    except TooDeep:
        return True
    return False


def _lex_once(text: str, first_mode: int, commands_at: set[int], max_depth: int = MAX_DEPTH) -> _Lexed:
    n = len(text)
    jump: dict[int, int] = {}
    regions = [_Region(0, 0, n, "top", -1)]
    region_at: dict[int, int] = {}
    heredocs: dict[int, tuple] = {}
    bodies: set[int] = set()
    comments: set[int] = set()
    pending: list[tuple] = []           # heredocs waiting for the next newline: (op_at, delimiter, quoted, strip)
    # stack entries: [mode, start, closer or paren depth, region index, mode's own state]
    # (the state: open `case` statements in code; for ${…}: 0 undecided, 1 quotes are plain, 2 quotes quote)
    stack: list[list] = [[first_mode, 0, None, 0, 0]]
    code_region = [0]                   # enclosing code region per stack level

    def push(mode: int, start: int, closer, origin: str | None, inner: int) -> None:
        if len(stack) > max_depth:
            raise TooDeep()
        region = -1
        if origin is not None:
            regions.append(_Region(start, inner, n, origin, code_region[-1]))
            region = len(regions) - 1
            region_at[start] = region
        stack.append([mode, start, closer, region, 0])
        code_region.append(region if region >= 0 else code_region[-1])

    def pop(end: int, inner_end: int) -> None:
        mode, start, _, region, _ = stack.pop()
        code_region.pop()
        jump[start] = end
        if region >= 0:
            regions[region].inner_end = inner_end

    i = 0
    while i < n:
        top = stack[-1]
        mode = top[0]
        found = _NEXT_SPECIAL[mode].search(text, i)   # skip plain text in one step
        if found is None:
            break
        i = found.start()
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and mode in (_PARAM, _PARAM_DQ):
            if top[4] == 0:     # decided once per ${…}, by its operator
                top[4] = 2 if _param_quotes_protect(text, top[1], i, mode == _PARAM_DQ) else 1
            if top[4] == 1:
                i += 1
                continue
        if c == "'" and mode in (_CODE, _PARAM, _ARRAY, _PARAM_DQ):
            close = text.find("'", i + 1)
            end = n if close < 0 else close + 1
            jump[i] = end
            i = end
            continue
        if c == "#" and mode == _CODE and (i == 0 or text[i - 1] in " \t\n;&|()"):
            close = text.find("\n", i)
            end = n if close < 0 else close
            jump[i] = end
            comments.add(i)
            i = end
            continue
        if mode == _CODE and top[2] == "`" and c == "`":
            pop(i + 1, i)
            i += 1
            continue
        if c == "$" and i + 1 < n:
            nxt = text[i + 1]
            if nxt == "'" and mode not in (_HEREDOC, _DQ, _PARAM_DQ, _ARITH, _BRACKET):
                jump[i] = ansi_c_end(text, i + 2)
                i = jump[i]
                continue
            if nxt == "(" and text.startswith("((", i + 1) and i not in commands_at:
                push(_ARITH, i, 0, None, i + 3)
                i += 3
                continue
            if nxt == "(":
                push(_CODE, i, ")", "$()", i + 2)
                i += 2
                continue
            if nxt == "{":
                push(_PARAM_DQ if mode in (_DQ, _HEREDOC, _PARAM_DQ) else _PARAM, i, "}", None, i + 2)
                i += 2
                continue
            if nxt == "[":
                push(_BRACKET, i + 1, 0, None, i + 2)
                i += 2
                continue
            if nxt == '"' and mode in (_CODE, _PARAM, _ARITH, _ARRAY, _PARAM_DQ, _BRACKET):
                push(_DQ, i, '"', None, i + 2)
                i += 2
                continue
        if c == "`":
            push(_CODE, i, "`", "``", i + 1)
            i += 1
            continue
        if mode == _DQ:
            if c == '"':
                pop(i + 1, i)
            i += 1
            continue
        if mode == _HEREDOC:
            i += 1
            continue
        if c == '"':
            push(_DQ, i, '"', None, i + 1)
            i += 1
            continue
        if mode == _PARAM and c in "<>" and text.startswith("(", i + 1):   # ${x:-<(cmd)}
            push(_CODE, i, ")", "<()" if c == "<" else ">()", i + 2)
            i += 2
            continue
        if mode in (_PARAM, _PARAM_DQ):
            if c == "}":
                pop(i + 1, i)
            elif c == "[" and _PARAM_HEAD.fullmatch(text, top[1] + 2, i):   # ${a[…]}: a subscript
                push(_BRACKET, i, 0, None, i + 1)
            i += 1
            continue
        if mode == _BRACKET:
            if c == "[":
                top[2] += 1
            elif c == "]":
                if top[2] > 0:
                    top[2] -= 1
                else:
                    pop(i + 1, i)
            i += 1
            continue
        if mode == _ARRAY and c == "[":
            if (i == 0 or text[i - 1] in " \t\n(") and _ARRAY_ELEMENT.match(text, i):   # ([k]=v …)
                push(_BRACKET, i, 0, None, i + 1)
            i += 1
            continue
        if mode in (_ARITH, _ARRAY):
            if c == "(":
                top[2] += 1
            elif c == ")":
                if top[2] > 0:
                    top[2] -= 1
                elif mode == _ARRAY:
                    pop(i + 1, i)
                elif text.startswith("))", i):
                    pop(i + 2, i)
                    i += 2
                    continue
                elif mode == _ARITH:   # `$((a) …`, `((a) …`: bash reads parentheses
                    raise _NotArithmetic(top[1])
            i += 1
            continue
        # mode == _CODE
        if text[found.end() - 1] == "[" and found.end() - i > 1:   # a word `name[…`
            bracket = found.end() - 1
            if _ELEMENT_ASSIGNMENT.match(text, i):   # a[…]=: the subscript is arithmetic
                push(_BRACKET, bracket, 0, None, bracket + 1)
            i = bracket + 1
            continue
        if c in "<>" and text.startswith("(", i + 1):
            push(_CODE, i, ")", "<()" if c == "<" else ">()", i + 2)
            i += 2
            continue
        if c == "(":
            if i > 0 and text[i - 1] == "=":
                push(_ARRAY, i, 0, None, i + 1)
            elif text.startswith("((", i) and i not in commands_at and (i == 0 or text[i - 1] in " \t\n;&|()"):
                push(_ARITH, i, 0, None, i + 2)     # (( … )), for (( … )): arithmetic
                i += 2
                continue
            else:
                push(_CODE, i, ")", "subshell", i + 1)
            i += 1
            continue
        if c in "ce" and (i == 0 or text[i - 1] in " \t\n;&|(") and (text.startswith("case", i)
                                                                   or text.startswith("esac", i)):
            after = text[i + 4:i + 5]
            if after == "" or after in " \t\n;&|)":
                top[4] += 1 if c == "c" else -1   # a case pattern's `)` does not close $( … )
                i += 4
                continue
        if c == ")" and top[2] == ")" and top[4] <= 0:
            pop(i + 1, i)
            i += 1
            continue
        if c == "<" and text.startswith("<<<", i):
            i += 3
            continue
        if c == "<" and text.startswith("<<", i):
            strip = text.startswith("<<-", i)
            j = i + (3 if strip else 2)
            while j < n and text[j] in " \t":
                j += 1
            end = _word_end(text, j)
            word = text[j:end]
            if word:
                delimiter, quoted = heredoc_delimiter(word)
                pending.append((i, delimiter, quoted, strip))
            i = max(end, i + 2)
            continue
        if c == "\n" and pending:
            body_start = i + 1
            j = body_start
            for op_at, delimiter, quoted, strip in pending:
                start = j
                while True:
                    if j >= n:
                        heredocs[op_at] = (start, n, quoted, strip)
                        break
                    close = text.find("\n", j)
                    line_end = n if close < 0 else close
                    line = text[j:line_end]
                    if (line.lstrip("\t") if strip else line) == delimiter:
                        heredocs[op_at] = (start, j, quoted, strip)
                        j = line_end + 1 if close >= 0 else n
                        break
                    j = line_end + 1 if close >= 0 else n
            pending.clear()
            if j > body_start:
                jump[body_start] = min(j, n)
                bodies.add(body_start)
            i = max(i + 1, min(j, n)) if j > body_start else i + 1
            continue
        i += 1
    while len(stack) > 1:   # unclosed constructs run to the end of the text
        pop(n, n)
    return _Lexed(jump, regions, region_at, heredocs, bodies, comments)


def substitution_regions(text: str) -> list[tuple[int, int, int, str]]:
    """Every outermost $(…) and `…` in text read like a heredoc body or a quoted value (quotes do not
    protect): (opening, code start, code end, origin)."""
    if "$(" not in text and "`" not in text:
        return []
    try:
        lexed = _lex(text, _HEREDOC)
    except TooDeep:
        return [(0, 0, len(text), "$()")]
    return [(r.open_at, r.inner_start, r.inner_end, r.origin) for r in lexed.regions[1:] if r.code_parent == 0]


def region_code(text: str, region: tuple) -> str:
    """The code of a region substitution_regions found, as bash runs it (a backtick's text unescaped)."""
    code = text[region[1]:region[2]]
    return unescape_backticks(code) if region[3] == "``" else code


def code_sites(text: str) -> list[Site]:
    """Every place in `text`, read as code, where bash runs code: $(…), `…`, <(…), >(…), also inside
    ${…} operands, arithmetic and subscripts (where quotes do not protect) and unquoted heredoc bodies;
    in order of their opening. Text too deep to lex is one site for the whole."""
    try:
        lexed = _lex(text)
    except TooDeep:
        return [Site(0, 0, len(text), "opaque")]
    sites = [Site(r.open_at, r.inner_start, r.inner_end, r.origin) for r in lexed.regions[1:]
             if r.origin != "subshell"]
    for start, end, quoted, _ in lexed.heredocs.values():
        if not quoted:
            body = text[start:end]
            sites.extend(Site(start + a, start + b, start + c, origin)
                         for a, b, c, origin in substitution_regions(body))
    sites.sort(key=lambda s: s.open_at)
    return sites


def arithmetic_regions(text: str) -> list[tuple[str, str]]:
    """Every place in `text`, read as code (and in its unquoted heredoc bodies), where bash evaluates text as
    arithmetic, as (kind, the text it evaluates, as written): "((" an arithmetic command or a `for ((…))`
    header, "$((" and "$[" expansions, "[" a subscript (`${a[…]}`, `a[…]=`, `([k]=v)`), "${:" the offset and
    length of `${x:…}`; and "${!" an indirection (the variable's value names the variable read, its subscript
    evaluated), given as the variable's name. Text too deep to lex is one region of its own (kind "?")."""
    try:
        lexed = _lex(text)
    except TooDeep:
        return [("?", text)]
    found = _arithmetic_in(text, lexed)
    for start, end, quoted, _ in lexed.heredocs.values():
        if not quoted:
            body = text[start:end]
            if "$" in body:
                try:
                    found.extend(_arithmetic_in(body, _lex(body, _HEREDOC)))
                except TooDeep:
                    found.append(("?", body))
    return found


def _arithmetic_in(text: str, lexed: _Lexed) -> list[tuple[str, str]]:
    found = []
    region_at = lexed.region_at
    skip = lexed.comments | lexed.bodies
    for start, end in lexed.jump.items():
        if start in skip:
            continue
        c = text[start]
        if c == "(" and text.startswith("((", start) and start not in region_at and (
                start == 0 or text[start - 1] != "$"):
            found.append(("((", text[start + 2:end - 2] if text.endswith("))", 0, end) else text[start + 2:end]))
        elif c == "$" and text.startswith("$((", start) and start not in region_at:
            found.append(("$((", text[start + 3:end - 2] if text.endswith("))", 0, end) else text[start + 3:end]))
        elif c == "[":
            kind = "$[" if start and text[start - 1] == "$" else "["
            found.append((kind, text[start + 1:end - 1] if text[end - 1:end] == "]" else text[start + 1:end]))
        elif c == "$" and text.startswith("${", start):
            head = _PARAM_HEAD.match(text, start + 2)
            if head is None:
                continue
            name = head.group(0)
            j = head.end()
            if name[:1] == "!" and len(name) > 1 and text[j:j + 1] in ("}", "["):
                found.append(("${!", name[1:]))
            if j < end and text[j] == "[":     # its subscript is a region of its own: skip past it
                j = lexed.jump.get(j, j)
            if text.startswith(":", j) and text[j + 1:j + 2] not in ("-", "=", "+", "?") and name[:1] != "!":
                found.append(("${:", text[j + 1:end - 1]))
    return found


def substitution_bodies(text: str) -> list[str]:
    """The code of every outermost $(…) and `…` in text read like a heredoc body or a quoted value
    (quotes do not protect: used where bash evaluates a subscript or an unquoted heredoc)."""
    try:
        lexed = _lex(text, _HEREDOC)
    except TooDeep:
        return [text]
    return [region_code(text, (r.open_at, r.inner_start, r.inner_end, r.origin)) for r in lexed.regions[1:]
            if r.code_parent == 0]


def quoted_substitution_bodies(text: str) -> list[str]:
    """The $(…) and `…` that text holds as data (in single quotes, escaped): those substitution_bodies finds
    and a reading as code does not."""
    try:
        real = _lex(text)
    except TooDeep:
        return [text]
    as_code: dict[str, int] = {}
    for r in real.regions[1:]:
        if r.origin in ("$()", "``"):
            body = region_code(text, (r.open_at, r.inner_start, r.inner_end, r.origin))
            as_code[body] = as_code.get(body, 0) + 1
    out = []
    for body in substitution_bodies(text):
        if as_code.get(body, 0) > 0:
            as_code[body] -= 1
        else:
            out.append(body)
    return out


def tokenize(text: str) -> list[str]:
    """Whitespace-separated words of text, quotes and substitutions kept whole."""
    try:
        lexed = _lex(text)
    except TooDeep:
        return [text] if text.strip() else []
    out: list[str] = []
    i, n, start = 0, len(text), None
    while i < n:
        c = text[i]
        if c in " \t\n":
            if start is not None:
                out.append(text[start:i])
                start = None
            i += 1
            continue
        if start is None:
            start = i
        if i in lexed.jump:
            i = max(lexed.jump[i], i + 1)
        elif c == "\\":
            i += 2
        else:
            i += 1
    if start is not None:
        out.append(text[start:n])
    return out


# ---------------------------------------------------------------- pass 2


class _Cutter:
    """Cuts one code region into segments."""

    def __init__(self, text: str, lexed: _Lexed, out: list[Segment], pipelines: list[int],
                 patterns: set[int] | None = None, headers: list | None = None):
        self.text = text
        self.headers = headers if headers is not None else []   # LoopHeaders of the whole text, in order
        self.lexed = lexed
        self.out = out
        self.pipelines = pipelines
        self.committed: list[tuple[int, int, int]] = []   # (start, end, segment index) in this region
        self.patterns = patterns if patterns is not None else set()   # `(pat)` regions: case patterns
        self.case_depth = 0         # open `case` statements of this region
        self.in_patterns = False    # reading a case item's patterns (after `in`, `;;`, `;&`, `;;&`)
        self.pipeline_segments: dict[int, list[int]] = {}     # pipeline id -> its segments in `out`

    def cut(self, lo: int, hi: int, origin: str) -> list[tuple[int, int, int]]:
        text, jump = self.text, self.lexed.jump
        self.origin = origin
        self._new_segment()
        self.pipeline, self.stage = None, 0
        word_start = None
        i = lo
        while i < hi:
            c = text[i]
            if i in jump:
                if i in self.lexed.comments or i in self.lexed.bodies or (
                        text.startswith("((", i) and i not in self.lexed.region_at):   # (( … )): no command
                    word_start = self._end_word(word_start, i)
                    i = jump[i]
                    continue
                region = self.lexed.region_at.get(i)
                if region is not None and self.in_patterns and self.lexed.regions[region].origin == "subshell":
                    self.patterns.add(region)   # `case x in (a|b) …`: the patterns, in parentheses
                    self.in_patterns = False
                    word_start = None
                    i = jump[i]
                    continue
                if region is not None and self.lexed.regions[region].origin == "subshell":
                    word_start = self._end_word(word_start, i)
                    inner = self.lexed.regions[region]
                    self.coproc_name = None     # `coproc NAME ( … )`: NAME names the coprocess
                    if len(self.words) == 1 and not text[inner.inner_start:inner.inner_end].strip():
                        self.words.clear()          # `name()`: a function definition's header
                        self.seg_start = None
                    else:
                        self._end_segment()
                    i = jump[i]
                    continue
                if word_start is None:
                    word_start = i
                i = max(jump[i], i + 1)
                continue
            if c == "\\":
                if text.startswith("\\\n", i):
                    i += 2
                    continue
                if word_start is None:
                    word_start = i
                i += 2
                continue
            if c in " \t":
                word_start = self._end_word(word_start, i)
                i += 1
                continue
            if c == "\n":
                word_start = self._end_word(word_start, i)
                self._end_segment()
                self.pipeline, self.stage = None, 0
                i += 1
                continue
            if c in ";&|<>)":
                if c in "<>" or text.startswith("&>", i):
                    fd = None
                    if word_start is not None and (text[word_start:i].isdigit()
                                                   or _NAMED_FD.match(text[word_start:i])):
                        fd, word_start = text[word_start:i], None
                    word_start = self._end_word(word_start, i)
                    op = _operator_at(text, i)
                    self.pending_redirect = (op, fd, i)
                    self._touch(i, i + len(op))
                    i += len(op)
                    continue
                word_start = self._end_word(word_start, i)
                if self.in_patterns and c == "|":       # a | b) …: alternatives, not a pipe
                    i += 1
                    continue
                if c == ")":          # a case pattern's end: what came before is a pattern, not a command
                    self.in_patterns = False
                    self.words.clear()
                    self.header = False
                    self.seg_start = None
                    i += 1
                    continue
                op = _operator_at(text, i)
                if op in ("|", "|&"):
                    if self.pipeline is None:
                        self.pipelines[0] += 1
                        self.pipeline, self.stage = self.pipelines[0], 0
                    self._end_segment()
                    self.stage += 1
                elif op == "&":
                    self.background = True
                    self._end_segment(background_pipeline=self.pipeline)
                    self.pipeline, self.stage = None, 0
                else:
                    self._end_segment()
                    self.pipeline, self.stage = None, 0
                    if op in (";;", ";&", ";;&") and self.case_depth:
                        self.in_patterns = True
                i += len(op)
                continue
            if word_start is None:
                word_start = i
            i += 1
        self._end_word(word_start, hi)
        self._end_segment()
        return self.committed

    def _new_segment(self) -> None:
        self.words: list[tuple[int, int]] = []
        self.assignments: list[str] = []
        self.redirects: list[tuple] = []
        self.heredocs: list[tuple] = []
        self.herestring: str | None = None
        self.seg_start: int | None = None
        self.seg_end = 0
        self._finish_header()
        self.header = False
        self.header_word = ""
        self.loop: list | None = None     # a for/select header being read: [at, var, words, seen `in`]
        self.background = False
        self.pending_redirect = None
        self.coproc = False             # just read `coproc`: a NAME may follow
        self.coproc_name: tuple[int, int] | None = None

    def _header_word(self, word: str, start: int, end: int) -> None:
        """A word of a for/select header: the name, `in`, then the words it ranges over."""
        loop = self.loop
        if loop is None:
            return None
        if loop[1] is None:
            loop[1] = word if _NAME.match(word) else None
            if loop[1] is None:
                self.loop = None        # `for ((…))`: nothing bound by name
        elif not loop[3] and word == "in":
            loop[3] = True
        elif loop[3]:
            loop[2].append((start, end))
        return None

    def _finish_header(self) -> None:
        loop = getattr(self, "loop", None)
        if loop is not None and loop[1] is not None:
            self.headers.append(LoopHeader(loop[0], loop[1], loop[2], loop[3]))
        self.loop = None

    def _touch(self, start: int, end: int) -> None:
        if self.seg_start is None:
            self.seg_start = start
        self.seg_end = max(self.seg_end, end)

    def _end_word(self, word_start: int | None, end: int) -> None:
        if word_start is None:
            return None
        word = self.text[word_start:end]
        if self.in_patterns:            # a pattern is never a command; `esac` ends the statement
            if word == "esac":
                self.in_patterns = False
                self.case_depth -= 1
            return None
        if word == "esac" and not self.words and not self.assignments and self.case_depth and not self.header:
            self.case_depth -= 1        # `esac` after a last item without `;;`
            return None
        if self.header and self.header_word == "case" and word == "in" and not self.in_patterns:
            self.header = False
            self.in_patterns = True
            self.case_depth += 1
            self.words.clear()
            self.seg_start = None
            return None
        if self.pending_redirect is not None:
            op, fd, op_at = self.pending_redirect
            self.pending_redirect = None
            self.redirects.append((op, fd, word))
            if op in ("<<", "<<-") and op_at in self.lexed.heredocs:
                self.heredocs.append(self.lexed.heredocs[op_at])
                self.herestring = None      # the later stdin redirect wins
            elif op == "<<<":
                self.herestring = word
            self._touch(word_start, end)
            return None
        if not self.words and not self.assignments and not self.header:
            if self.coproc_name is not None:
                name, self.coproc_name = self.coproc_name, None
                if word not in _COMPOUND_STARTS:   # `coproc rm -rf x`: rm is the command
                    self.words.append(name)
                    self._touch(*name)
                    self.words.append((word_start, end))
                    self._touch(word_start, end)
                    return None
            elif self.coproc:
                self.coproc = False
                if _NAME.match(word):
                    self.coproc_name = (word_start, end)
                    return None
            elif word == "coproc":
                self.coproc = True
                return None
        if not self.words and not self.assignments:
            if self.header and word in _HEADER_ENDERS:
                self._finish_header()
                self.header = False
                self.seg_start = None
                return None
            if self.header:
                return self._header_word(word, word_start, end)
            if word in _SKIP_WORDS:
                return None
            if word in _HEADER_WORDS:
                self.header = True
                self.header_word = word
                if word in ("for", "select"):
                    self.loop = [word_start, None, [], False]
                return None
        if self.header:
            if word in _HEADER_ENDERS:
                self._finish_header()
                self.header = False
                self.words.clear()
                self.seg_start = None
                return None
            return self._header_word(word, word_start, end)
        if not self.words and is_assignment(word):
            self.assignments.append(word)
        else:
            self.words.append((word_start, end))
        self._touch(word_start, end)
        return None

    def _end_segment(self, background_pipeline: int | None = None) -> None:
        if self.coproc_name is not None:        # `coproc NAME` alone: bash runs NAME
            self.words.append(self.coproc_name)
            self._touch(*self.coproc_name)
            self.coproc_name = None
        if self.pending_redirect is not None:   # an operator with no target: keep it in the part
            self.redirects.append((self.pending_redirect[0], self.pending_redirect[1], ""))
            self.pending_redirect = None
        if not self.header and (self.words or self.assignments or self.redirects) and self.seg_start is not None:
            seg = Segment(self.seg_start, self.seg_end, [self.text[a:b] for a, b in self.words],
                          list(self.assignments), list(self.redirects), origin=self.origin,
                          pipeline=self.pipeline, stage=self.stage, background=self.background)
            if self.headers:
                seg.loops = tuple(h for h in self.headers if h.at < seg.start)
            for start, end, quoted, strip in self.heredocs:   # the last one is stdin; all are expanded
                body = self.text[start:end]
                if strip:
                    body = "\n".join(line.lstrip("\t") for line in body.split("\n"))
                seg.stdin_code, seg.stdin_quoted = body, quoted
                if not quoted and ("$(" in body or "`" in body):
                    seg.heredoc_code.extend(substitution_bodies(body))
            if self.herestring is not None:
                value = unquote(self.herestring)
                seg.stdin_code = value if value is not None else self.herestring
                seg.stdin_quoted = value is not None
            self.out.append(seg)
            self.committed.append((seg.start, seg.end, len(self.out) - 1))
            if seg.pipeline is not None:
                self.pipeline_segments.setdefault(seg.pipeline, []).append(len(self.out) - 1)
        if background_pipeline is not None:   # `a | b &`: every stage runs in the background
            for k in self.pipeline_segments.get(background_pipeline, ()):
                self.out[k].background = True
        self._new_segment()


_OPERATORS = ("&>>", "<<<", "<<-", ";;&", "&&", "||", "|&", ";;", ";&", ">>", ">|", ">&", "<&", "<>", "<<",
              "&>", ";", "&", "|", "<", ">")


def _operator_at(text: str, i: int) -> str:
    for op in _OPERATORS:
        if text.startswith(op, i):
            return op
    return text[i]


def scan(text: str) -> list[Segment]:
    """Every simple command of text, as segments with character offsets into text. Never drops text:
    nesting past MAX_DEPTH gives one opaque segment for the whole text."""
    try:
        lexed = _lex(text)
    except TooDeep:
        return [Segment(0, len(text), [], origin="opaque", opaque=True)]
    out: list[Segment] = []
    pipelines = [0]
    # Regions in order of appearance: a region's parent region is always cut before it.
    committed_by_region: dict[int, tuple[list, list]] = {}
    parent_of_region: dict[int, int | None] = {}
    handed_on: set[int] = set()    # backtick regions passed on as code of their own, with what they hold
    patterns: set[int] = set()     # `(a|b)` of a case item: patterns, not a subshell
    headers: list = []             # every for/select header, in the order read
    for index, region in enumerate(lexed.regions):
        if region.code_parent in handed_on:
            handed_on.add(index)
            continue
        if index in patterns:
            continue
        parent = None
        if region.origin == "subshell":
            parent = parent_of_region.get(region.code_parent)
        elif region.code_parent >= 0:
            starts, holders = committed_by_region.get(region.code_parent, ([], []))
            k = bisect.bisect_right(starts, region.open_at) - 1
            if k >= 0 and holders[k][0] <= region.open_at < max(holders[k][1], region.open_at + 1):
                parent = holders[k][2]
        parent_of_region[index] = parent
        inner = text[region.inner_start:region.inner_end]
        if region.origin == "``" and "\\" in inner and parent is not None:
            # inside backticks bash first removes the backslash before \\ ` $: `a \`b\`` runs b
            out[parent].nested_code.append(("``", unescape_backticks(inner)))
            handed_on.add(index)
            continue
        before = len(out)
        cutter = _Cutter(text, lexed, out, pipelines, patterns, headers)
        holders = cutter.cut(region.inner_start, region.inner_end, region.origin)
        committed_by_region[index] = ([h[0] for h in holders], holders)
        for seg in out[before:]:
            seg.parent = parent
    return out
