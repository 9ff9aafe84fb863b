"""The line's variable model: every form that binds a variable, read from one part.

`NAME=value` is one way among many. bash also binds a variable with `for NAME in …` and `select NAME in …`,
`read NAME` / `read -a NAME`, `printf -v NAME`, `mapfile`/`readarray NAME`, `getopts OPTSTRING NAME` (and
OPTARG), `declare`/`typeset`/`local`/`export`/`readonly NAME=value`, `${NAME:=word}` / `${NAME=word}`,
`unset NAME`, and a nameref (`declare -n REF=NAME`) makes REF another name for NAME. Each gives a Binding:
the name, the value as written in the line (None when it comes from input: read, mapfile), its static value
(None when known only at run time) and what bound it. The rules read them all the same way: a variable that
steers a program (policy/env.py) is judged whatever bound it, and arithmetic (policy/arith.py) asks of every
binding whether it is a plain number.

Not modelled: what a sourced file sets (`source f`: its text is judged as code where the gate can read it),
the variables bash sets itself (those are listed where they matter: arith.SHELL_NUMBERS).
"""
from __future__ import annotations

from wispsh.parse.words import PARAM, decode, unquote
from wispsh.support.lazyre import lazy_re, re

NAME = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*")
# NAME, NAME[…], NAME+ before an `=`: the target of a declaration's word
_TARGET = lazy_re(r"([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?(\+)?\Z", re.S)
# `${NAME:=word}`, `${NAME=word}`: the body of the expansion
_DEFAULT = lazy_re(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^]]*\])?:?=(.*)\Z", re.S)     # (an element too)
RUNTIME_NAME = "\x00"        # the name of a binding whose name is known only at run time (`read "$v"`)

DECLARERS = frozenset({"declare", "typeset", "local", "export", "readonly"})
BINDERS = DECLARERS | {"read", "mapfile", "readarray", "printf", "getopts", "unset"}
# options of read/mapfile that take a value (the next word, or the rest of the cluster)
READ_VALUES = frozenset("adinNptu")
MAPFILE_VALUES = frozenset("dnOsuCc")


class Binding:
    """One variable bound by one form. `name`: the variable (RUNTIME_NAME when a word known only at run time
    names it); `subscript`: the text of `NAME[…]` as written, if any; `written`: the value as written in the
    line, None when it comes from input or the filesystem (read, mapfile); `value`: its static value, None
    when known only at run time; `how`: the form ("assignment", "prefix", "for", "read", "mapfile", "printf
    -v", "getopts", "declare", "default", "unset", "nameref"); `words`: a loop's words (static values);
    `number`: bound to a number by its form (OPTIND)."""

    __slots__ = ("name", "subscript", "written", "value", "how", "words", "number", "loop")

    def __init__(self, name: str, written: str | None, value: str | None, how: str, subscript: str | None = None,
                 words: tuple = (), number: bool = False, loop=None):
        self.name, self.written, self.value, self.how = name, written, value, how
        self.subscript, self.words, self.number, self.loop = subscript, words, number, loop

    def __repr__(self) -> str:
        return f"Binding({self.how}: {self.name}{'[' + self.subscript + ']' if self.subscript else ''}" \
               f"={self.written!r})"


def binds(part, key) -> bool:
    """Whether the part's command is a builtin that binds a variable (printf only with -v): a cheap test before
    of_part."""
    program = key.program if key is not None else None
    return program in BINDERS and (program != "printf" or "-v" in part.argv or any(
        w is not None and w.startswith("-v") for w in part.argv))


def may_bind(part, key) -> bool:
    """Whether of_part can find anything in the part (most parts bind nothing)."""
    return bool(part.loops or part.assignments) or "${" in part.text or binds(part, key)


def command_words(part, key) -> tuple[tuple, tuple]:
    """The part's essential command (wrappers such as `command`, `builtin` removed) as static values and as
    written, aligned; ((), ()) when the part runs no command."""
    argv, words = part.argv, part.words
    if not argv:
        return (), ()
    command = tuple(key.command) if key is not None and key.command else tuple(argv)
    n = len(command)
    if n <= len(argv) and len(words) == len(argv):
        return tuple(argv[len(argv) - n:]), tuple(words[len(words) - n:])
    return tuple(argv), tuple(words) if len(words) == len(argv) else tuple("" for _ in argv)


def of_part(part, key=None) -> list[Binding]:
    """Every binding the part makes, in the order bash makes them (its loops' first: the part runs in them)."""
    found: list[Binding] = []
    for loop in part.loops:
        found.extend(loop_bindings(loop))
    words_text = part.words
    prefix = bool(part.argv)
    for assignment in part.assignments:
        if prefix and assignment.text in words_text:
            continue            # a declaration's own word (`export X=1`): read with the declaration below
        name, _, written = assignment.text.partition("=")
        base, subscript = _split_target(name.rstrip("+"))
        found.append(Binding(base, written, assignment.value, "prefix" if prefix else "assignment", subscript))
    texts = [w for w in words_text if "${" in w] + [a.text for a in part.assignments if "${" in a.text] + [
        r.target_text for r in part.redirects if "${" in (r.target_text or "")]
    for text in texts:
        found.extend(_defaults(text))
    if prefix:
        values, written = command_words(part, key)
        program = (values[0] or "").rsplit("/", 1)[-1] if values else ""
        if program in BINDERS:
            found.extend(_builtin(program, values, written, part))
    return found


def loop_bindings(loop) -> list[Binding]:
    """A for/select (or while-read) loop binds its variable to each of its words in turn (known only at run
    time for a word that expands, or for lines read from input)."""
    if not loop.words:
        return [Binding(loop.var, None if loop.over.startswith(("lines of", "output of")) else loop.over, None,
                        "for", loop=loop)]
    return [Binding(loop.var, loop.over, word, "for", words=loop.words, loop=loop) for word in loop.words]


def _split_target(name: str) -> tuple[str, str | None]:
    if "[" in name and name.endswith("]"):
        base, _, rest = name.partition("[")
        return base, rest[:-1]
    return name, None


def _defaults(text: str) -> list[Binding]:
    """`${NAME:=word}` / `${NAME=word}` in a word: NAME gets word when it is unset (or empty)."""
    out = []
    for segment in decode(text):
        if segment.kind != PARAM or not segment.text.startswith("${") or "=" not in segment.text:
            continue
        body = segment.text[2:-1] if segment.text.endswith("}") else segment.text[2:]
        m = _DEFAULT.match(body)
        if m is not None:
            word = m.group(3)
            out.append(Binding(m.group(1), word, unquote(word), "default", (m.group(2) or "")[1:-1] or None))
            if "${" in word:
                out.extend(_defaults(word))
    return out


def _options(values, written, takes: frozenset, start: int = 1):
    """getopt-style reading of a builtin's words: ({option: [(value, written)]}, operand indices)."""
    opts: dict[str, list] = {}
    operands: list[int] = []
    i, n = start, len(values)
    while i < n:
        word = values[i]
        if word is None or operands:
            operands.append(i)
            i += 1
            continue
        if word == "--":
            operands.extend(range(i + 1, n))
            break
        if not word.startswith("-") or word == "-":
            operands.append(i)
            i += 1
            continue
        k = 1
        while k < len(word):
            letter = word[k]
            if letter in takes:
                if k + 1 < len(word):
                    opts.setdefault(letter, []).append((word[k + 1:], written[i][k + 1:]))
                elif i + 1 < n:
                    opts.setdefault(letter, []).append((values[i + 1], written[i + 1]))
                    i += 1
                break
            opts.setdefault(letter, []).append(("", ""))
            k += 1
        i += 1
    return opts, operands


def _named(value: str | None, written: str, how: str, **more) -> Binding:
    """A binding to the variable a word names (`NAME` or `NAME[…]`; a word known only at run time names any)."""
    if value is None:
        return Binding(RUNTIME_NAME, None, None, how, subscript=written, **more)
    base, subscript = _split_target(value)
    return Binding(base, None, None, how, subscript, **more)


def _builtin(program: str, values, written, part=None) -> list[Binding]:
    if program == "read":
        opts, operands = _options(values, written, READ_VALUES)
        out = [_named(v, w, "read") for v, w in opts.get("a", ())]
        out += [_named(values[i], written[i], "read") for i in operands]
        out = out or [Binding("REPLY", None, None, "read")]
        if part is not None and part.stdin_code is not None and part.stdin_quoted and not opts.get("a") and \
                not opts.get("d") and all(b.name != RUNTIME_NAME for b in out):
            # `read x <<< 'text'`: what it reads is the line's own static text (its first line, split among the
            # names, the last taking the rest)
            line = part.stdin_code.split("\n", 1)[0]
            pieces = line.split(None, len(out) - 1) if len(out) > 1 else [line.strip()]
            for k, b in enumerate(out):
                b.value = pieces[k] if k < len(pieces) else ""
                b.written = b.value
        return out
    if program in ("mapfile", "readarray"):
        opts, operands = _options(values, written, MAPFILE_VALUES)
        return [_named(values[i], written[i], program) for i in operands[:1]] or [
            Binding("MAPFILE", None, None, program)]
    if program == "printf":
        opts, operands = _options(values, written, frozenset("v"))
        if not opts.get("v"):
            return []
        name, name_written = opts["v"][-1]
        args = [values[i] for i in operands]
        text = printf_output(args[0], args[1:]) if args and all(a is not None for a in args) else None
        b = _named(name if name else None, name_written, "printf -v")
        b.written = " ".join(written[i] for i in operands)
        b.value = text
        return [b]
    if program == "getopts":       # getopts OPTSTRING NAME [ARG…]: NAME an option letter (or `?`), OPTARG its value
        out = [Binding("OPTARG", None, None, "getopts"), Binding("OPTIND", "1", "1", "getopts", number=True)]
        if len(values) >= 3:
            out.append(_named(values[2], written[2], "getopts"))
        return out
    if program == "unset":
        opts, operands = _options(values, written, frozenset())
        if "f" in opts:
            return []
        out = []
        for i in operands:
            if values[i] is None:
                out.append(_named(None, written[i], "unset"))
            else:
                base, subscript = _split_target(values[i])
                out.append(Binding(base, "", "", "unset", subscript))
        return out
    return _declaration(program, values, written)


def _declaration(program: str, values, written) -> list[Binding]:
    """declare/typeset/local/export/readonly [-aAfFgiIlnrtux] NAME[=VALUE]…: the bindings, with the attributes
    the rules need (`-n` a nameref; `-i`, `-A` read by arith)."""
    flags = set()
    out = []
    for i in range(1, len(values)):
        value, text = values[i], written[i]
        if value is not None and value[:1] in ("-", "+") and len(value) > 1 and "=" not in value:
            if value[0] == "-":
                flags.update(value[1:])
            continue
        if "f" in flags or "F" in flags or "p" in flags and "=" not in (value or text):
            return []           # functions, or printing
        head, eq, rest = text.partition("=")
        m = _TARGET.match(unquote(head) or "") if "$" not in head and "`" not in head else None
        if m is None:
            out.append(Binding(RUNTIME_NAME, rest if eq else None, None, program, subscript=text))
            continue
        if eq:      # (a bare NAME keeps the value it has: no binding)
            how = "nameref" if "n" in flags else program
            out.append(Binding(m.group(1), rest, unquote(rest), how, (m.group(2) or "")[1:-1] or None))
        elif "n" in flags:  # `x=ls; declare -n x`: x now names the variable its value names (known at run time)
            out.append(Binding(m.group(1), None, None, "nameref"))
    return out


def attributes(part, key=None) -> tuple[set, set]:
    """The names a declaration gives the integer (-i) and associative-array (-A) attributes."""
    if not part.argv:
        return set(), set()
    values, written = command_words(part, key)
    program = (values[0] or "").rsplit("/", 1)[-1] if values else ""
    if program not in DECLARERS:
        return set(), set()
    flags: set = set()
    integers, assoc = set(), set()
    for value, text in zip(values[1:], written[1:]):
        if value is not None and value[:1] == "-" and len(value) > 1 and "=" not in value:
            flags.update(value[1:])
            continue
        m = _TARGET.match(unquote(text.partition("=")[0]) or "")
        if m is None:
            continue
        if "i" in flags:
            integers.add(m.group(1))
        if "A" in flags:
            assoc.add(m.group(1))
    return integers, assoc


# ---------------------------------------------------------------- what printf makes

_PRINTF_ESCAPE = lazy_re(r"\\(x[0-9A-Fa-f]{1,2}|0?[0-7]{1,3}|[abefnrtv\\'\"]|u[0-9A-Fa-f]{4})")
_PRINTF_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
                  "\\": "\\", "'": "'", '"': '"'}


_PRINTF_PIECE = lazy_re(r"\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|u[0-9A-Fa-f]{1,4}|.)|%([-+ #0-9.*]*)([a-zA-Z%])", re.S)
_PRINTF_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
                  "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"'}


def _escape(code: str, octal_zero: bool = False) -> str:
    if code in _PRINTF_SIMPLE:
        return _PRINTF_SIMPLE[code]
    if code[0] in "xu" and len(code) > 1:
        return chr(int(code[1:], 16))
    if code[0] in "01234567":
        digits = code[1:] if octal_zero and code[0] == "0" else code
        return chr(int(digits or "0", 8) & 0xFF)
    return "\\" + code


def printf_output(fmt: str, args: list[str]) -> str:
    """What `printf FMT ARGS` prints, read as printf reads it: one pass over the format, a `\\` escape is the
    character it names (`\\x24` is `$`), a conversion takes the next argument (%b with its escapes read), and
    the format is reused while arguments remain."""
    queue = list(args)

    def piece(m) -> str:
        if m.group(1) is not None:
            return _escape(m.group(1))
        conversion = m.group(3)
        if conversion == "%":
            return "%"
        arg = queue.pop(0) if queue else ""
        if conversion == "b":
            return _PRINTF_PIECE.sub(lambda e: _escape(e.group(1), True) if e.group(1) is not None else e.group(0),
                                     arg)
        return arg

    out = [_PRINTF_PIECE.sub(piece, fmt)]
    for _ in range(64):
        if not queue or not any(m.group(3) not in (None, "%") for m in _PRINTF_PIECE.finditer(fmt)):
            break
        out.append(_PRINTF_PIECE.sub(piece, fmt))
    return "".join(out)

