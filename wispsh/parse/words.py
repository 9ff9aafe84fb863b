"""Reading shell words as bash reads them: quote removal, ANSI-C decoding, brace expansion, and the
"second spelling" (quotes, escapes and $IFS read away, data of printing/searching programs kept).

Every function here works on one word's text (or one part's words) with plain loops: no recursion.
"""
from __future__ import annotations

from wispsh.support.lazyre import lazy_re

_NAME_START = lazy_re(r"[A-Za-z_]")
# After `$`, these begin an expansion bash performs at run time.
_EXPANSION_AFTER_DOLLAR = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789{(@*#?$!-")
_DQ_ESCAPABLE = set('$`"\\\n')
_IFS_WORD = lazy_re(r"\$IFS(?![A-Za-z0-9_])|\$\{IFS\}")

_SIMPLE_ESCAPES = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
    "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}


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


def _ansi_c_end(text: str, start: int) -> int:
    """Index just past the closing quote of a $'…' whose body starts at `start`."""
    i, n = start, len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == "'":
            return i + 1
        else:
            i += 1
    return n


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
            i = _ansi_c_end(word, i + 2)
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


def _read(word: str, keep_dynamic: bool) -> str | None:
    """Quote removal over one word. keep_dynamic=False: None when any part is known only at run time.
    keep_dynamic=True: expansions stay as written, $IFS reads as a space (the second spelling)."""
    if "\\\n" in word:
        word = drop_continuations(word)
    out: list[str] = []
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        if ch == "\\":
            if i + 1 < n:
                if word[i + 1] != "\n":
                    out.append(word[i + 1])
                i += 2
            else:
                out.append("\\")
                i += 1
        elif ch == "'":
            end = word.find("'", i + 1)
            end = n if end < 0 else end
            out.append(word[i + 1:end])
            i = end + 1
        elif ch == "$" and i + 1 < n and word[i + 1] == "'":
            end = _ansi_c_end(word, i + 2)
            out.append(decode_ansi_c(word[i + 2:end - 1] if word[end - 1:end] == "'" else word[i + 2:end]))
            i = end
        elif ch == '"' or (ch == "$" and i + 1 < n and word[i + 1] == '"'):
            i += 1 if ch == '"' else 2
            while i < n and word[i] != '"':
                c = word[i]
                if c == "\\" and i + 1 < n and word[i + 1] in _DQ_ESCAPABLE:
                    if word[i + 1] != "\n":
                        out.append(word[i + 1])
                    i += 2
                    continue
                if c == "`" or (c == "$" and i + 1 < n and word[i + 1] in _EXPANSION_AFTER_DOLLAR):
                    if not keep_dynamic:
                        return None
                    end = _expansion_end(word, i)
                    out.append(_ifs_as_space(word[i:end]))
                    i = end
                    continue
                out.append(c)
                i += 1
            i += 1
        elif ch == "`" or (ch == "$" and i + 1 < n and word[i + 1] in _EXPANSION_AFTER_DOLLAR):
            if not keep_dynamic:
                return None
            end = _expansion_end(word, i)
            out.append(_ifs_as_space(word[i:end]))
            i = end
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _ifs_as_space(expansion: str) -> str:
    return " " if _IFS_WORD.fullmatch(expansion) else expansion


def _expansion_end(word: str, i: int) -> int:
    """Index just past the expansion starting at word[i] ($name, ${…}, $(…), $((…)), `…`, $1, $@)."""
    n = len(word)
    if word[i] == "`":
        j = i + 1
        while j < n and word[j] != "`":
            j += 2 if word[j] == "\\" else 1
        return min(j + 1, n)
    nxt = word[i + 1]
    if nxt in "{(":
        closer = "}" if nxt == "{" else ")"
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
            elif c in "{(":
                depth += 1
            elif c in "})":
                depth -= 1
                if depth == 0 and c == closer:
                    return j + 1
            j += 1
        return n
    if _NAME_START.match(nxt):
        j = i + 2
        while j < n and (word[j].isalnum() or word[j] == "_"):
            j += 1
        return j
    return i + 2


_NEEDS_READING = lazy_re(r"[\\'\"$`]")


def unquote(word: str) -> str | None:
    """The word after quote removal, or None when bash only knows it at run time."""
    if not _NEEDS_READING.search(word):
        return word
    return _read(word, keep_dynamic=False)


def read_away(word: str) -> str:
    """The word with quotes and escapes read away, $IFS as a space, other expansions as written."""
    if not _NEEDS_READING.search(word):
        return word
    return _read(word, keep_dynamic=True) or ""


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


def _top_level_brace(word: str) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The first unquoted {a,b,…} of the word: (open, close, [(start, end) of each alternative])."""
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
        if ch == "$" and i + 1 < n and word[i + 1] in "{(":
            i = _expansion_end(word, i)
            continue
        if ch == "{":
            stack.append((i, []))
        elif ch == "," and stack:
            stack[-1][1].append(i)
        elif ch == "}" and stack:
            open_at, commas = stack.pop()
            if commas and not stack:
                bounds = [open_at, *commas, i]
                return open_at, i, [(bounds[k] + 1, bounds[k + 1]) for k in range(len(bounds) - 1)]
        i += 1
    return None


def expand_braces(word: str, limit: int = 256) -> list[str]:
    """Brace expansion of one word as written ({sh,-c,x} -> sh, -c, x), each result still as written.
    A word without a comma brace expands to itself. At most `limit` results (the rest are dropped
    only in the sense of not being spelled out; callers treat an overflow as a runtime program)."""
    done: list[str] = []
    todo = [word]
    while todo and len(done) < limit:
        current = todo.pop(0)
        found = _top_level_brace(current)
        if found is None:
            done.append(current)
            continue
        open_at, close_at, alternatives = found
        prefix, suffix = current[:open_at], current[close_at + 1:]
        todo[0:0] = [prefix + current[a:b] + suffix for a, b in alternatives]
    return done


# ---------------------------------------------------------------- the second spelling

# Programs whose arguments are data (patterns, messages, text): left as written in the second spelling.
DATA_PROGRAMS = frozenset({"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack"})
# git options whose value is data (a search pattern or a message).
GIT_DATA_OPTIONS = frozenset({"--grep", "-S", "-G", "-m", "--message", "--author", "--committer"})


def _base(program: str | None) -> str:
    return (program or "").rsplit("/", 1)[-1]


def second_words(words: tuple[str, ...], argv: tuple[str | None, ...]) -> list[str]:
    """The second spelling of a part's words (as written), one entry per word."""
    out: list[str] = []
    program = _base(argv[0] if argv else None)
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
