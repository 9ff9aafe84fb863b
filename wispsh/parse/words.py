"""Reading shell words as bash reads them: the one word decoder of the package.

`decode(word)` cuts one word (as written) into typed segments: LITERAL text (what bash reads after quote
removal, escapes, ANSI-C `$'…'`), and the pieces bash only knows at run time: PARAM (`$x`, `${x…}`), COMMAND
(`$(…)`, backticks), ARITH (`$((…))`, `$[…]`). Everything else here is a fold over those segments:
- `unquote(word)`: the static value, or None when any piece is known only at run time;
- `read_away(word)`: the "second spelling" (quotes and escapes read away, `$IFS` as a space, expansions kept
  as written), and `second_words` for a part's words (data of printing/searching programs kept as written);
- `expand_word(word, subst)`: the variables we know put in, UNKNOWN for the rest (what the rules need);
and the readings bash does before that: line continuations (`drop_continuations`), brace expansion
(`expand_braces`: `{sh,}` is `sh`, `{r..r}m` is `rm`), globs (`has_unquoted_glob`), heredoc delimiters.

Plain loops, no recursion (a word can nest 100,000 deep).
"""
from __future__ import annotations

from wispsh.support.lazyre import lazy_re, re

UNKNOWN = "\x00"    # stands for text known only at run time inside a word (programs.grammar.UNKNOWN)

LITERAL, PARAM, COMMAND, ARITH = "literal", "param", "command", "arith"

_NAME_START = lazy_re(r"[A-Za-z_]")
_NAME = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*")
# After `$`, these begin an expansion bash performs at run time.
_EXPANSION_AFTER_DOLLAR = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789{([@*#?$!-")
_DQ_ESCAPABLE = frozenset('$`"\\\n')
_IFS_WORD = lazy_re(r"\$IFS(?![A-Za-z0-9_])|\$\{IFS\}")


def _plain(word: str) -> bool:
    """No quote, escape or expansion in it (none of \\ ' " $ `): nothing to read. Five C scans, no regex to
    compile for a line of plain words."""
    return not ("\\" in word or "'" in word or '"' in word or "$" in word or "`" in word)


_SIMPLE_ESCAPES = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
    "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}


# ---------------------------------------------------------------- the decoder


class Piece:
    """One piece of a word (parse/scan.py's Segment is a piece of a line): `kind`, the piece `text` as
    written, and its `value`: for LITERAL the characters bash reads; for PARAM the variable's name when the
    expansion is a plain `$x`/`${x}` (else None); for COMMAND and ARITH the code or expression inside.
    `quoted`: an expansion inside "…" (not word-split)."""

    __slots__ = ("kind", "text", "value", "quoted")

    def __init__(self, kind: str, text: str, value: str | None, quoted: bool = False):
        self.kind, self.text, self.value, self.quoted = kind, text, value, quoted

    def __repr__(self) -> str:
        return f"Piece({self.kind}, {self.text!r}, {self.value!r})"


def decode(word: str, static_only: bool = False) -> list[Piece] | None:
    """The segments of one word, left to right (adjacent literal text merged into one segment).
    `static_only`: None as soon as a piece known only at run time begins (without reading to its end)."""
    if "\\\n" in word:
        word = drop_continuations(word)
    out: list[Piece] = []
    lit: list[str] = []          # literal characters waiting to become a segment
    lit_text: list[str] = []     # the same, as written

    def flush() -> None:
        if lit_text:
            out.append(Piece(LITERAL, "".join(lit_text), "".join(lit)))
            lit.clear()
            lit_text.clear()

    def dynamic(start: int, quoted: bool) -> int:
        if static_only:
            raise _Dynamic
        end = expansion_end(word, start)
        text = word[start:end]
        flush()
        out.append(_dynamic_segment(text, quoted))
        return end

    try:
        _decode_into(word, lit, lit_text, flush, dynamic)
    except _Dynamic:
        return None
    flush()
    return out


class _Dynamic(Exception):
    """decode(static_only=True) met a piece known only at run time."""


def _decode_into(word: str, lit: list, lit_text: list, flush, dynamic) -> None:
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch == "\\":
            if i + 1 < n:
                lit.append(word[i + 1])
                lit_text.append(word[i:i + 2])
                i += 2
            else:
                lit.append("\\")
                lit_text.append("\\")
                i += 1
        elif ch == "'":
            end = word.find("'", i + 1)
            end = n if end < 0 else end
            lit.append(word[i + 1:end])
            lit_text.append(word[i:end + 1])
            i = end + 1
        elif ch == "$" and i + 1 < n and word[i + 1] == "'":
            end = ansi_c_end(word, i + 2)
            body = word[i + 2:end - 1] if word[end - 1:end] == "'" and end - 1 >= i + 2 else word[i + 2:end]
            # bash ends the string at its first NUL: $'rm\x00ls' is rm
            lit.append(decode_ansi_c(body).split("\x00", 1)[0])
            lit_text.append(word[i:end])
            i = end
        elif ch == '"' or (ch == "$" and i + 1 < n and word[i + 1] == '"'):   # "…" and $"…" (a translation)
            lit_text.append(word[i:i + (1 if ch == '"' else 2)])
            i += 1 if ch == '"' else 2
            while i < n and word[i] != '"':
                c = word[i]
                if c == "\\" and i + 1 < n and word[i + 1] in _DQ_ESCAPABLE:
                    if word[i + 1] != "\n":
                        lit.append(word[i + 1])
                    lit_text.append(word[i:i + 2])
                    i += 2
                elif c == "`" or (c == "$" and i + 1 < n and word[i + 1] in _EXPANSION_AFTER_DOLLAR):
                    i = dynamic(i, True)
                else:
                    lit.append(c)
                    lit_text.append(c)
                    i += 1
            if i < n:
                lit_text.append('"')
            i += 1
        elif ch == "`" or (ch == "$" and i + 1 < n and word[i + 1] in _EXPANSION_AFTER_DOLLAR):
            i = dynamic(i, False)
        else:
            lit.append(ch)
            lit_text.append(ch)
            i += 1


def _dynamic_segment(text: str, quoted: bool) -> Piece:
    if text.startswith("`"):
        return Piece(COMMAND, text, text[1:-1] if text.endswith("`") and len(text) > 1 else text[1:], quoted)
    if text.startswith("$(("):
        return Piece(ARITH, text, text[3:-2] if text.endswith("))") else text[3:], quoted)
    if text.startswith("$("):
        return Piece(COMMAND, text, text[2:-1] if text.endswith(")") else text[2:], quoted)
    if text.startswith("$["):
        return Piece(ARITH, text, text[2:-1] if text.endswith("]") else text[2:], quoted)
    if text.startswith("${"):
        body = text[2:-1] if text.endswith("}") else text[2:]
        name = _NAME.fullmatch(body)
        return Piece(PARAM, text, body if name else None, quoted)
    name = text[1:]
    return Piece(PARAM, text, name if _NAME.fullmatch(name) else None, quoted)


# ---------------------------------------------------------------- folds over the segments


PIPE_PATH = "/dev/fd/63"     # what bash hands a command for `<(…)` / `>(…)`: a pipe, not a file on disk


def redirect_target(text: str) -> str | None:
    """The file a redirect opens, from its target as written: `< <(cmd)` and `> >(cmd)` open the pipe bash
    makes (cmd is a part of its own), anything else the word after quote removal (None: known at run time)."""
    if text[:2] in ("<(", ">(") and text.endswith(")"):
        return PIPE_PATH
    return unquote(text)


def _one_quoted(word: str) -> str | None:
    """The text of a word that is one quoted string of plain characters (`'x1'`, `"a b"`), else None: the
    most common quoted word, read without the decoder."""
    quote = word[:1]
    if (quote == "'" or quote == '"') and word.find(quote, 1) == len(word) - 1 and "\\" not in word and (
            quote == "'" or not ("$" in word or "`" in word)):
        return word[1:-1]
    return None


def unquote(word: str) -> str | None:
    """The word after quote removal, or None when bash only knows it at run time."""
    if _plain(word):
        return word
    inner = _one_quoted(word)
    if inner is not None:
        return inner
    segments = decode(word, static_only=True)
    if segments is None:
        return None
    return "".join(s.value for s in segments)  # type: ignore[misc]


def read_away(word: str) -> str:
    """The word with quotes and escapes read away, $IFS as a space, other expansions as written."""
    if _plain(word):
        return word
    inner = _one_quoted(word)
    if inner is not None:
        return inner
    return "".join(s.value if s.kind == LITERAL else (" " if _IFS_WORD.fullmatch(s.text) else s.text)
                   for s in decode(word))  # type: ignore[misc]


def expand_word(written: str, subst: dict) -> str:
    """A word known only at run time, with the variables we know (`subst`) put in and the rest as UNKNOWN:
    `$x`/`${x}` from subst, `$(pwd)` and `` `pwd` `` as subst["PWD"], every other expansion UNKNOWN."""
    out: list[str] = []
    for segment in decode(written):
        kind = segment.kind
        if kind == LITERAL:
            out.append(segment.value)  # type: ignore[arg-type]
        elif kind == PARAM:
            if segment.value is not None:
                out.append(subst.get(segment.value, UNKNOWN))
            elif segment.text.startswith("${") and segment.text.endswith("}"):
                out.append(_braced(segment.text[2:-1], subst))
            else:
                out.append(UNKNOWN)
        elif kind == COMMAND and segment.value is not None and segment.value.strip() == "pwd" and "PWD" in subst:
            out.append(subst["PWD"])    # the directory the line runs in
        else:
            out.append(UNKNOWN)
    return "".join(out)


_BRACED = lazy_re(r"([A-Za-z_][A-Za-z0-9_]*)(%%|%|##|#|:-|-|/)?(.*)\Z", re.S)


def _braced(body: str, subst: dict) -> str:
    """`${name}` and the operators that keep a known value a path: `${f%.js}`, `${f#src/}`, `${x:-default}`,
    `${f/.js/.ts}`. Anything else, or an unknown name, is UNKNOWN: `${x:-ls}` with an x the line does not set
    is whatever the environment holds (`X=A=1` made `env "${X:-ls}" rm -rf d` run rm, judged as ls)."""
    m = _BRACED.match(body)
    if m is None:
        return UNKNOWN
    name, op, word = m.groups()
    value = subst.get(name)
    if op in (":-", "-"):
        if value is None or UNKNOWN in value:
            return UNKNOWN
        if value or op == "-":          # `${x-w}`: set, even to "", is x's value
            return value
        return _default_text(word)
    if value is None or op is None and word:
        return UNKNOWN
    if op is None:
        return value
    if UNKNOWN in value or any(c in word for c in _NOT_LITERAL):
        return UNKNOWN      # quotes and escapes in a pattern are removed by bash, not by a compare of text
    if op == "/":
        old, _, replacement = word.partition("/")
        anchor = old[:1] if old[:1] in ("#", "%") else ""
        pattern = old[len(anchor):]
        if not old or any(c in pattern for c in _PATTERN_CHARS) or "&" in replacement:
            return UNKNOWN  # `//`, a glob or extglob, `&` (bash 5.2 puts the match there): only at run time
        if anchor == "#":   # `${x/#ls/rm}`: at the start only
            return replacement + value[len(pattern):] if value.startswith(pattern) else value
        if anchor == "%":   # `${x/%ls/rm}`: at the end only
            return value[:len(value) - len(pattern)] + replacement if value.endswith(pattern) else value
        return value.replace(pattern, replacement, 1)
    if any(c in word for c in _PATTERN_CHARS):
        return UNKNOWN      # a glob pattern: which part it removes depends on the value at run time
    if op in ("%", "%%"):
        return value[:-len(word)] if word and value.endswith(word) else value
    return value[len(word):] if word and value.startswith(word) else value


_NOT_LITERAL = ("$", "`", "'", '"', "\\")
_PATTERN_CHARS = "*?[(|"        # a glob or extglob: what it matches is known at run time


def _default_text(word: str) -> str:
    """A default word's text when it holds no quote, escape or expansion; else UNKNOWN: its quotes are removed
    or kept by whether the whole word stands in double quotes (`"${x:-'a b'}"` keeps them), which this text
    does not say."""
    return UNKNOWN if UNKNOWN in word or any(c in word for c in _NOT_LITERAL) else word


# ---------------------------------------------------------------- extents


def decode_ansi_c(body: str) -> str:
    """The value of $'body' (body without the $' and the closing ')."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(chr(int(body[i + 1:j], 8) & 0xFF))
            i = j
        elif nxt in "xuU":
            limit = {"x": 2, "u": 4, "U": 8}[nxt]
            j = i + 2
            while j < n and j < i + 2 + limit and body[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 2:
                out.append("\\" + nxt)
            else:
                code = int(body[i + 2:j], 16)
                out.append(chr(code) if code < 0x110000 else "\ufffd")
            i = j
        elif nxt == "c" and i + 2 < n:
            out.append(chr(ord(body[i + 2]) & 0x1F))
            i += 3
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def unescape_backticks(body: str, in_double_quotes: bool = False) -> str:
    """A backtick substitution's text as bash parses it: a backslash before \\, ` or $ (and " when the
    substitution is inside double quotes) is removed; any other stays. `a \\`b\\`` runs b."""
    if "\\" not in body:
        return body
    keep = "\\`$\"" if in_double_quotes else "\\`$"
    out, i, n = [], 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n and body[i + 1] in keep:
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def ansi_c_end(text: str, start: int) -> int:
    """Index just past the closing quote of a $'…' whose body starts at `start` (the end of text if none)."""
    i, n = start, len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == "'":
            return i + 1
        else:
            i += 1
    return n


def expansion_end(word: str, i: int) -> int:
    """Index just past the expansion starting at word[i] ($name, ${…}, $(…), $((…)), $[…], `…`, $1, $@)."""
    n = len(word)
    if word[i] == "`":
        j = i + 1
        while j < n and word[j] != "`":
            j += 2 if word[j] == "\\" else 1
        return min(j + 1, n)
    nxt = word[i + 1] if i + 1 < n else ""
    if nxt in ("{", "(", "["):
        closer = {"{": "}", "(": ")", "[": "]"}[nxt]
        depth, j = 0, i + 1
        quote = None
        while j < n:
            c = word[j]
            if quote:
                if c == "\\" and quote == '"':
                    j += 2
                    continue
                if c == quote:
                    quote = None
            elif c == "\\":
                j += 2
                continue
            elif c in "'\"":
                quote = c
            elif c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
                if depth == 0 and c == closer:
                    return j + 1
            j += 1
        return n
    if nxt and _NAME_START.match(nxt):
        j = i + 2
        while j < n and (word[j].isalnum() or word[j] == "_"):
            j += 1
        return j
    return min(i + 2, n)


def drop_continuations(word: str) -> str:
    """The word with every line continuation (backslash-newline outside single quotes) removed, as bash's
    reader does before it looks at the word: `$\\⏎(rm x)` is a command substitution."""
    out: list[str] = []
    i, n, last = 0, len(word), 0
    while i < n:
        ch = word[i]
        if ch == "\\":
            if word.startswith("\\\n", i):
                out.append(word[last:i])
                last = i + 2
            i += 2
        elif ch == "'" and not (i > 0 and word[i - 1] == "$"):
            end = word.find("'", i + 1)
            i = n if end < 0 else end + 1
        elif ch == "$" and word.startswith("$'", i):
            i = ansi_c_end(word, i + 2)
        elif ch == '"':   # inside double quotes a continuation is removed too; only skip escaped quotes
            j = i + 1
            while j < n and word[j] != '"':
                if word[j] == "\\":
                    if word.startswith("\\\n", j):
                        out.append(word[last:j])
                        last = j + 2
                    j += 2
                else:
                    j += 1
            i = j + 1
        else:
            i += 1
    out.append(word[last:])
    return "".join(out)


def heredoc_delimiter(word: str) -> tuple[str, bool]:
    """A heredoc's delimiter as bash compares it (quotes removed, `<<EOF\\⏎X` is EOFX) and whether any of it
    was quoted (then the body is data: no expansion)."""
    joined = drop_continuations(word)
    quoted = any(q in joined for q in "'\"\\")
    value = unquote(joined)
    return (value if value is not None else joined), quoted


def is_assignment(word: str) -> bool:
    """`NAME=…`, `NAME+=…`, `NAME[SUB]=…` as written: an assignment when it leads a command."""
    eq = word.find("=")
    if eq <= 0:
        return False
    name = word[:eq]
    if name.endswith("+"):
        name = name[:-1]
    bracket = name.find("[")
    if bracket > 0 and name.endswith("]"):
        name = name[:bracket]
    return bool(_NAME.fullmatch(name))


def has_unquoted_glob(word: str) -> bool:
    """Whether the word has a glob character outside quotes (so bash expands it against files)."""
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch == "\\":
            i += 2
        elif ch == "'":
            end = word.find("'", i + 1)
            i = n if end < 0 else end + 1
        elif ch == '"':
            j = i + 1
            while j < n and word[j] != '"':
                j += 2 if word[j] == "\\" else 1
            i = j + 1
        elif ch in "*?" or (ch == "[" and "]" in word[i + 1:]):
            return True
        else:
            i += 1
    return False


# ---------------------------------------------------------------- brace expansion

_SEQUENCE = lazy_re(r"([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?")


def _sequence(body: str, limit: int) -> list[str] | None:
    """The words of a sequence expression `{1..5}`, `{01..10..2}`, `{a..e}`, `{Z..b}` (None: not one)."""
    m = _SEQUENCE.fullmatch(body)
    if m is None:
        return None
    if m.group(1) is not None:
        first, last = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        width = max(len(m.group(1)), len(m.group(2))) if (m.group(1).lstrip("-").startswith("0")
                                                           or m.group(2).lstrip("-").startswith("0")) else 0
        numbers = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)
        out = []
        for k in numbers:
            if len(out) >= limit:
                break
            out.append(f"{k:0{width}d}" if width else str(k))
        return out
    first_ch, last_ch = m.group(4), m.group(5)
    step = abs(int(m.group(6) or 1)) or 1
    a, b = ord(first_ch), ord(last_ch)
    codes = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
    # a character that is special to the shell is written escaped, so the word reads as that character
    return ["\\" + chr(k) if chr(k) in "\\'\"`$ |&;<>(){}*?[]#~=%" else chr(k) for k in codes][:limit]


def _top_level_brace(word: str, limit: int) -> tuple[int, int, list[str]] | None:
    """The first unquoted brace expression of the word that expands: (open, close, alternatives as written)."""
    stack: list[tuple[int, list[int]]] = []
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'":
            end = word.find("'", i + 1)
            i = n if end < 0 else end + 1
            continue
        if ch == '"':
            j = i + 1
            while j < n and word[j] != '"':
                j += 2 if word[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "$" and i + 1 < n and word[i + 1] in "{([":
            i = expansion_end(word, i)
            continue
        if ch == "`":
            i = expansion_end(word, i)
            continue
        if ch == "{":
            stack.append((i, []))
        elif ch == "," and stack:
            stack[-1][1].append(i)
        elif ch == "}" and stack:
            open_at, commas = stack.pop()
            if commas and not stack:
                bounds = [open_at, *commas, i]
                return open_at, i, [word[bounds[k] + 1:bounds[k + 1]] for k in range(len(bounds) - 1)]
            if not commas and not stack:
                words = _sequence(word[open_at + 1:i], limit)
                if words is not None:
                    return open_at, i, words
        i += 1
    return None


def expand_braces(word: str, limit: int = 256) -> list[str]:
    """Brace expansion of one word as written ({sh,-c,x} -> sh, -c, x; {r..r}m -> rm), each result still as
    written; an unquoted empty result is dropped, as bash drops it (`{sh,}` is `sh`). A word without a brace
    expression expands to itself. At most `limit` results (see brace_overflow)."""
    done: list[str] = []
    todo = [word]
    while todo and len(done) < limit:
        current = todo.pop(0)
        found = _top_level_brace(current, limit)
        if found is None:
            if current != "" or word == "":
                done.append(current)
            continue
        open_at, close_at, alternatives = found
        prefix, suffix = current[:open_at], current[close_at + 1:]
        todo[0:0] = [prefix + alternative + suffix for alternative in alternatives]
    return done


def brace_overflow(word: str, limit: int = 256) -> bool:
    """Whether the word expands to more than `limit` words."""
    return len(expand_braces(word, limit + 1)) > limit


# ---------------------------------------------------------------- the second spelling

# Programs whose arguments are data (patterns, messages, text): left as written in the second spelling.
DATA_PROGRAMS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack"})
# git options whose value is data (a search pattern or a message).
GIT_DATA_OPTIONS = frozenset({"--grep", "-S", "-G", "-m", "--message", "--author", "--committer"})


def _base(program: str | None) -> str:
    return (program or "").rsplit("/", 1)[-1]


def second_words(words: list[str], argv: list[str | None]) -> list[str]:
    """The second spelling of a part's words (as written), one entry per word."""
    program = _base(argv[0] if argv else None)
    if program != "git":    # the common cases, without the git option reading below
        if program in DATA_PROGRAMS and words:
            return [read_away(words[0]), *words[1:]]
        return [read_away(word) for word in words]
    out: list[str] = []
    data_from = 1 if program in DATA_PROGRAMS else None
    next_is_data = False
    for index, word in enumerate(words):
        keep = data_from is not None and index >= data_from
        if program == "git" and index > 0:
            value = argv[index] if index < len(argv) else None
            if next_is_data:
                keep, next_is_data = True, False
            elif value in GIT_DATA_OPTIONS:
                next_is_data = True
            elif value and any(value.startswith(opt + "=") for opt in GIT_DATA_OPTIONS if opt.startswith("--")):
                keep = True
            elif value and len(value) > 2 and value[:2] in ("-m", "-S", "-G"):
                keep = True
        out.append(word if keep else read_away(word))
    return out
