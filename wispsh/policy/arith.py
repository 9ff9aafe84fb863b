"""Values bash evaluates as arithmetic are code (levels.md), judged over the whole line.

bash evaluates the *value* of a variable in arithmetic - `$((x))`, `$[x]`, `((x))`, `for ((…))`, `let x`,
`[[ x -eq 1 ]]` (and -ne/-lt/-le/-gt/-ge inside `[[ ]]`; `test`/`[` do not), `${s:x:y}`, the subscript of an
indexed array (`${a[x]}`, `a[x]=`, `([x]=v)`, `read 'a[x]'`, `unset 'a[x]'`, `[[ -v a[x] ]]`), every value
given to a `declare -i` variable - and a value that holds a subscript runs the `$(…)` in it:
`x='a[$(rm -rf ~)]'; echo $((x))` deletes the home. A value used as a variable's name (`${!x}`, `-v "$x"`,
`unset "$x"`, `declare -n r=$x`, `printf -v "$x"`, `read "$x"`, `declare "$x=1"`) does the same through its
subscript. How the value was built does not matter (`d=$; x="a[$d(…)]"`, `printf -v x 'a[\\x24(…)]'`).

So the invariant, not a list of spellings: every arithmetic or subscript context that evaluates a value the gate
cannot prove to be a plain number is code the gate cannot read (high, `line.arith-value`); every value used as
a name that the gate cannot prove a plain name likewise (`line.arith-name`). Proven: integer literals and
arithmetic of them, the numbers bash keeps ($#, $?, ${#x}, RANDOM, …), what number printers print (`$(wc -l
< f)`, `$(date +%s)`, `$(git rev-list --count HEAD)`, …), and a variable whose every binding in the line
(policy/bindings.py: any form) is proven, and that the environment holds as a number or not at all. A value
read from a file, the network or input is not.
"""
from __future__ import annotations

from wispsh.model import Finding, Level
from wispsh.parse.words import COMMAND, LITERAL, PARAM, decode, expand_braces
from wispsh.policy import bindings
from wispsh.vocab.shells import SPLIT_AS_SH as SPLIT_SHELLS
from wispsh.support.lazyre import lazy_re, re

RULE, NAME_RULE = "line.arith-value", "line.arith-name"
MAX_FINDINGS = 4
MAX_DEPTH = 16

# Variables bash keeps as numbers itself (when the line does not bind them).
SHELL_NUMBERS = frozenset({"RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID", "EUID", "OPTIND",
                           "SHLVL", "HISTCMD", "EPOCHSECONDS", "BASH_SUBSHELL", "PIPESTATUS", "BASH_LINENO",
                           "GROUPS", "COLUMNS", "LINES", "HISTSIZE", "HISTFILESIZE", "BASH_ARGC", "COPROC_PID"})
NUMBER_PARAMS = frozenset({"#", "?", "$", "!"})
# [[ … ]] operators whose operands are arithmetic
ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_FALLBACK_TESTS = ARITH_TESTS | {"-v"}
# Builtins whose numeric operand zsh evaluates as arithmetic (bash reads a plain number there): the line may
# run under zsh (a zsh shim, `zsh -c`)
ZSH_NUMBERS = frozenset({"return", "exit", "break", "continue", "shift"})
# The builtins whose words hold arithmetic or names (a part of any other program holds them only in ${…}, $((…)))
WORD_CONTEXTS = frozenset({"[[", "let", "test", "[", "unset"}) | bindings.BINDERS | ZSH_NUMBERS
_NUMERIC_CONVERSION = lazy_re(r"%[-+ #0-9.*]*([a-zA-Z%])")

_TOKEN = lazy_re(r"([0-9][0-9A-Za-z_#@]*)|([A-Za-z_][A-Za-z0-9_]*)|(.)", re.S)
_UNSAFE = frozenset("[]$`'\"\\{}")      # in a value: a subscript, an expansion, quotes: not plain arithmetic
_INT = lazy_re(r"\s*[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+(?:#[0-9A-Za-z@_]+)?)\s*\Z")
_NAME = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ASSIGNS = lazy_re(r"(?<![=!<>])=(?!=)|\+\+|--|[-+*/%&|^]=|<<=|>>=")
_DIGITS_ONLY = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*//?\[[!^]0-9\]/\Z")     # ${x//[!0-9]/}: only digits are left
_PARAM_BODY = lazy_re(r"(#)?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^]]*\])?(.*)\Z", re.S)
_MARKERS = lazy_re(r"[A-Za-z0-9_]\[|=\(")        # a subscript, a compound assignment's `[k]=`
_OFFSET = lazy_re(r"\$\{#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[[^]]*\])?:(?![-=+?])")   # ${x:off:len}


def line_findings(judged, ctx, line: str, parsed_ok: bool = True) -> list[Finding]:
    """The line's arithmetic and name contexts, each judged against every binding the line makes. `parsed_ok`
    False: the fallback scanner read the line, and it does not keep `[[ … ]]` whole: a numeric test there is
    read as `[[`'s (arithmetic) whatever it stands in."""
    texts = _code_texts(judged, line)
    worded = [item for item in judged if item.key is not None and (
        item.key.program in WORD_CONTEXTS or not parsed_ok and not _FALLBACK_TESTS.isdisjoint(item.part.argv))
        or item.part.assignments and any("[" in a.name for a in item.part.assignments)]
    regions = [region for text in texts for region in _regions(text)]
    if not regions and not worded:
        return []
    model = Model(judged, ctx)
    contexts = list(dict.fromkeys(regions + [c for item in worded for c in _word_contexts(item, model)]))
    contexts += model.integer_contexts()
    found: list[Finding] = []
    seen: set = set()
    for kind, text, shown in contexts:
        why = model.name_context(text) if kind == "name" else model.expression(text) if kind != "input" else text
        if why is None or (kind, why) in seen:
            continue
        seen.add((kind, why))
        if kind == "name":
            says = (f"bash reads the variable named by {why} (in '{_short(shown)}'): the gate cannot prove that "
                    "value a plain name, and a subscript in a name runs the commands in it")
            rule = NAME_RULE
        else:
            says = (f"bash evaluates {why} as arithmetic (in '{_short(shown)}'): the gate cannot prove it a "
                    "plain number, and a subscript in such a value runs the commands in it")
            rule = RULE
        found.append(Finding(ctx.level_of("run-code", rule), rule, says, "run-code"))
        if len(found) >= MAX_FINDINGS:
            break
    return found


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 48 else text[:45] + "…"


def _regions(text: str) -> list[tuple[str, str]]:
    if not ("((" in text or "$[" in text or "${!" in text or "[" in text and _MARKERS.search(text)
            or "${" in text and ":" in text and _OFFSET.search(text)):
        return []       # (plain substring tests first: most lines compile no regex, and lex nothing)
    from wispsh.parse import scan

    out = []
    for kind, expr in scan.arithmetic_regions(text):
        if kind == "${!":
            out.append(("name", "$" + expr, "${!" + expr + "}"))
        else:
            out.append(("arith", expr, _SHOWN.get(kind, "{}").format(expr)))
    return out


_SHOWN = {"((": "(({}))", "$((": "$(({}))", "$[": "$[{}]", "[": "[{}]", "${:": "${{…:{}}}"}


def _code_texts(judged, line: str) -> list[str]:
    """The line, and the code it hands to shells and eval as literal text (`bash -c '((x))'`, `eval '…'`, a
    heredoc a shell reads): where an arithmetic command can stand without being a part of its own."""
    texts = [line]
    for item in judged:
        key = item.key
        if key is None or not key.command:
            continue
        program = key.program
        if program == "eval" and all(w is not None for w in key.command[1:]):
            texts.append(" ".join(key.command[1:]))
            continue
        if program in SPLIT_SHELLS:
            from wispsh.programs.interpreters import read_shell_words

            words = [w if w is not None else "\x00" for w in key.command[1:]]
            code, operands, _, parse_only, _ = read_shell_words(words)
            if parse_only:
                continue
            if code and operands and "\x00" not in operands[0]:
                texts.append(operands[0])
            elif not code and item.part.stdin_code:
                texts.append(item.part.stdin_code)
    return texts


def _word_contexts(item, model) -> list[tuple[str, str, str]]:
    """The contexts a builtin's words hold: `[[ A -eq B ]]`, `let EXPR`, `-v NAME`, subscripted or runtime
    names given to read/printf -v/mapfile/unset/declare, a declaration's `-i` values."""
    part, key = item.part, item.key
    out: list[tuple[str, str, str]] = []
    for assignment in part.assignments:
        name = assignment.name
        if "[" in name and name.endswith("]") and name.split("[", 1)[0] not in model.assoc:
            out.append(("arith", name.split("[", 1)[1][:-1], name + "="))
    if key is None:
        return out
    values, written = bindings.command_words(part, key)
    program = key.program
    if program == "[[" or program not in WORD_CONTEXTS:    # (the fallback's pieces of a `[[ … ]]`)
        for k, word in enumerate(written):
            if values[k] in ARITH_TESTS and 0 < k < len(written) - 1:
                shown = f"[[ {written[k - 1]} {values[k]} {written[k + 1]} ]]"
                out.append(("arith", written[k - 1], shown))
                out.append(("arith", written[k + 1], shown))
            elif values[k] == "-v" and k + 1 < len(written):
                out.extend(_name_word(written[k + 1]))
    elif program in ("test", "["):
        for k, value in enumerate(values):
            if value == "-v" and k + 1 < len(written):
                out.extend(_name_word(written[k + 1]))
    elif program == "let":
        out.extend(("arith", w, f"let {w}") for w in written[1:])
    elif program in ZSH_NUMBERS:
        out.extend(("arith", w, f"{program} {w} (zsh evaluates it)") for w in written[1:2] if w[:1] != "-")
    else:
        if program == "printf" and len(values) > 1:
            out.extend(_printf_numbers_args(values, written))
        evaluates_names = program in ("declare", "typeset", "local", "read", "printf", "mapfile", "readarray",
                                      "unset")
        own = model.of_part.get(id(part))
        for b in own if own is not None else bindings.of_part(part, key):
            if b.how in ("for", "assignment", "prefix"):
                continue
            if b.name == bindings.RUNTIME_NAME:
                if evaluates_names:
                    out.extend(_name_word(b.subscript or ""))
            elif b.how == "nameref" and b.written:
                out.extend(_name_word(b.written))     # `declare -n r=$x`: r reads the variable x names
            elif b.subscript is not None and b.name not in model.assoc:
                out.append(("arith", b.subscript, f"{program} {b.name}[{b.subscript}]"))
    return out


def _printf_numbers_args(values, written) -> list[tuple[str, str, str]]:
    """`printf '%d' "$x"`: zsh evaluates the argument of a numeric conversion as arithmetic."""
    k = 1
    if values[1:2] == ("-v",):
        k = 3
    if k >= len(values) or values[k] is None or "%" not in values[k]:     # (no conversion: no pattern compiled)
        return []
    conversions = [m.group(1) for m in _NUMERIC_CONVERSION.finditer(values[k]) if m.group(1) != "%"]
    if not conversions:
        return []
    out = []
    args = written[k + 1:]
    for n, arg in enumerate(args):
        if conversions[n % len(conversions)] in "diouxXcfeEgGaA":
            out.append(("arith", arg, f"printf {values[k]} {arg} (zsh evaluates it)"))
    return out


def _name_word(written: str) -> list[tuple[str, str, str]]:
    """A word whose value names a variable: its literal `NAME[sub]` gives an arithmetic subscript; what it
    expands must be a plain name."""
    if "$" in written or "`" in written:
        return [("name", written, written)]
    if "[" in written and written.rstrip("'\"").endswith("]"):
        return [("arith", written.strip("'\"").split("[", 1)[1][:-1], written)]
    return []


class Model:
    """Every binding of the line by name (policy/bindings.py), the `-i` and `-A` attributes, namerefs, and the
    environment the line starts with: whether a variable's value is proven a plain number, or a plain name."""

    def __init__(self, judged, ctx):
        self.env = ctx.env
        self.by_name: dict[str, list] = {}
        self.integers: set = set()
        self.assoc: set = set()
        self.of_part: dict = {}             # id(part) -> its bindings (read again by the word contexts)
        seen_loops: set = set()
        for item in judged:
            part = item.part
            found = []
            for loop in part.loops:
                if loop not in seen_loops:
                    seen_loops.add(loop)
                    found.extend(bindings.loop_bindings(loop))
            if bindings.may_bind(part, item.key):
                own = self.of_part[id(part)] = bindings.of_part(part, item.key)
                found.extend(b for b in own if b.how != "for")
                if item.key is not None and item.key.program in bindings.DECLARERS:
                    integers, assoc = bindings.attributes(part, item.key)
                    self.integers |= integers
                    self.assoc |= assoc
            for b in found:
                self.by_name.setdefault(b.name, []).append(b)
        self.numbers: dict[str, str | None] = {}
        self.names: dict[str, str | None] = {}

    # ------------------------------------------------------------ numbers

    def number(self, name: str, depth: int = 0) -> str | None:
        """None when `name`'s value is proven a plain number (or arithmetic of proven names); else why not."""
        if name in self.numbers:
            return self.numbers[name]
        self.numbers[name] = None          # a name that depends on itself (`i=$((i+1))`) is as good as the rest
        why = self._number(name, depth)
        self.numbers[name] = why
        return why

    def _number(self, name: str, depth: int) -> str | None:
        if depth > MAX_DEPTH:
            return f"${name}"
        found = self.by_name.get(name, ())
        if name in self.integers:       # every value it is given is evaluated as it is given (integer_contexts)
            return None
        for b in found:
            why = self._binding(b, depth)
            if why is not None:
                return why
        if not found and name in SHELL_NUMBERS:
            return None
        if not found and name in ("REPLY", "OPTARG", "MAPFILE"):
            return f"${name} (what read, select or getopts read)"
        env = self.env.get(name)
        if env is not None and self._static(env, depth) is not None:
            return f"${name} (the environment's value)"
        return None

    def _binding(self, b, depth: int) -> str | None:
        name = b.name
        if b.number or b.how == "unset":
            return None
        if b.how == "for":
            return self._loop(b, depth)
        if b.written is None and b.value is None:
            return f"${name} (what {b.how} reads)"
        if b.how == "nameref":
            target = b.value or ""
            return None if _NAME.match(target) and self.number(target, depth + 1) is None else \
                f"${name} (a name for {target or 'a variable known only at run time'})"
        if b.how == "printf -v":
            if b.value is not None:
                return None if self._static(b.value, depth) is None else f"${name} (what printf -v makes)"
            return None if _printf_numbers(b.written or "") else f"${name} (what printf -v makes)"
        if b.how == "getopts":
            return f"${name} (an option letter getopts reads)"
        why = self._text(b.written or "", depth)
        return None if why is None else f"${name} ({b.how}: {why})"

    def _loop(self, b, depth: int) -> str | None:
        if b.value is not None:
            word = b.value
            if any(c in word for c in "*?[") or not all(_INT.match(w) for w in expand_braces(word) or [word]):
                return None if _INT.match(word) else f"${b.name} (the loop word '{_short(word)}')"
            return None
        over = b.written
        if over is None:
            return f"${b.name} (lines read from input)"
        why = self._text(over, depth, words=True)
        return None if why is None else f"${b.name} (the loop over {_short(over)}: {why})"

    def _static(self, value: str, depth: int) -> str | None:
        """A value as bash holds it: evaluated as arithmetic, its names are evaluated in turn (and an assignment
        in it is made: `x='PATH=2'; echo $((x))` sets PATH)."""
        if any(c in _UNSAFE for c in value) or _ASSIGNS.search(value):
            return f"'{_short(value)}'"
        for m in _TOKEN.finditer(value):
            if m.group(2) is not None:
                why = self.number(m.group(2), depth + 1)
                if why is not None:
                    return why
        return None

    def _text(self, written: str, depth: int, words: bool = False) -> str | None:
        """A value as written in the line (an assignment's right side, a loop's range): each piece proven."""
        if not written:
            return None
        for segment in decode(written):
            kind = segment.kind
            if kind == LITERAL:
                text = segment.value or ""
                if words and text.strip() and not all(
                        _INT.match(w) for part in text.split() for w in expand_braces(part) or [part]):
                    return f"'{_short(text)}'"
                why = self._static(text, depth)
                if why is not None:
                    return why
            else:
                why = self._expansion(segment, depth)
                if why is not None:
                    return why
        return None

    def _expansion(self, segment, depth: int) -> str | None:
        """What a $(…), ${…} or $((…)) puts in the text: a number printer's output, a proven variable, a number."""
        if segment.kind == COMMAND:
            return None if prints_number(segment.value or "") else f"the output of {_short(segment.text)}"
        if segment.kind == PARAM:
            return self._param(segment, depth)
        return None             # $((…)): a number (its own expression is a context of its own)

    def _param(self, segment, depth: int) -> str | None:
        if segment.value is not None:
            return self.number(segment.value, depth + 1)
        text = segment.text
        body = text[2:-1] if text.startswith("${") and text.endswith("}") else text[1:]
        if body in NUMBER_PARAMS or body.startswith("#") and len(body) > 1 or _DIGITS_ONLY.match(body):
            return None         # $#, $?, ${#x}, ${#a[@]}, ${x//[!0-9]/}
        m = _PARAM_BODY.match(body)
        if m is None or m.group(2).isdigit() or m.group(2) in ("@", "*", "-", "0"):
            return f"{_short(text)} (an argument or text known only at run time)"
        name, rest = m.group(2), m.group(4)
        if name in NUMBER_PARAMS:
            return None
        if m.group(3) and m.group(3) not in ("[@]", "[*]"):
            why = self.expression(m.group(3)[1:-1], depth + 1) if name not in self.assoc else None
            if why is not None:
                return why
        why = self.number(name, depth + 1)
        if why is not None:
            return why
        if rest.startswith((":-", ":=", "-", "=", ":+", "+")):
            word = rest[2:] if rest[:1] == ":" else rest[1:]
            return self._text(word, depth + 1)
        if rest.startswith(("@", ":?", "?")) and not rest.startswith(("@Q", "@E")):
            return None if rest.startswith(("?", ":?")) else f"{_short(text)}"
        return None             # ${x#…}, ${x%…}, ${x/…}, ${x:o:l}, ${x^^}: a piece of a proven number

    def expression(self, expr: str, depth: int = 0) -> str | None:
        """An arithmetic expression as written: None when every value it evaluates is proven."""
        if depth > MAX_DEPTH:
            return "a nested expression"
        for segment in decode(expr):
            kind = segment.kind
            if kind == LITERAL:
                text = segment.value or ""
                for m in _TOKEN.finditer(text):
                    if m.group(2) is not None:
                        why = self.number(m.group(2), depth + 1)
                        if why is not None:
                            return why
            else:
                why = self._expansion(segment, depth)
                if why is not None:
                    return why
        return None

    # ------------------------------------------------------------ names

    def name_context(self, written: str) -> str | None:
        """A word whose value names a variable: None when everything it expands is proven a plain name."""
        for segment in decode(written):
            if segment.kind == LITERAL:
                if "[" in (segment.value or ""):
                    return f"'{_short(written)}'"
            elif segment.kind == PARAM and segment.value is not None:
                why = self._plain_name(segment.value)
                if why is not None:
                    return why
            else:
                return f"{_short(segment.text)}"
        return None

    def _plain_name(self, name: str) -> str | None:
        if name in self.names:
            return self.names[name]
        self.names[name] = None
        why = None
        for b in self.by_name.get(name, ()):
            value = b.value
            if value is None and b.how == "for" and prints_names(b.written or ""):
                continue                    # `for k in $(compgen -e)`: each word a variable's name
            if value is None or not _NAME.match(value) and value != "":
                why = f"${name} ({b.how}: {_short(b.written or value or 'text known only at run time')})"
                break
        if why is None and not self.by_name.get(name):
            env = self.env.get(name)
            if env is not None and env and not _NAME.match(env):
                why = f"${name} (the environment's value)"
        self.names[name] = why
        return why

    def integer_contexts(self) -> list[tuple[str, str, str]]:
        """A `declare -i` variable evaluates every value it is given: each of them is a context (one read from
        input is not provable)."""
        out = []
        for name in self.integers:
            for b in self.by_name.get(name, ()):
                if b.how in ("unset", "nameref") or b.number:
                    continue
                shown = f"{b.how} into the integer variable {name}"
                if b.written is None and b.value is None:
                    out.append(("input", f"${name} (what {b.how} reads)", shown))
                elif b.how == "for" and b.value is not None:
                    out.append(("arith", b.value, shown))
                elif b.how == "for":
                    out.append(("input", f"${name} (a loop over {_short(b.written or '')})", shown))
                elif b.how == "printf -v" and b.value is not None:
                    out.append(("arith", b.value, shown))
                else:
                    out.append(("arith", b.written or "", shown))
        return out


# ---------------------------------------------------------------- programs that print a number

_DATE_DIGITS = lazy_re(r"\+(?:%[sNYmdHMSjuwyVUWGgCeIklq%]|[0-9:./ -])*\Z")
_STAT_DIGITS = lazy_re(r"(?:%[sbBfhiotTuUgGxXyYzZwW]|[0-9 :\n\\nt])*\Z")
_PRINTF_DIGITS = lazy_re(r"(?:%[-+ 0#]*[0-9]*[diuxXo]|[0-9 \\nt:.,-])*\Z")
_ECHO_ARITH = lazy_re(r"\s*echo\s+(?:\$\(\([^()`]*\)\)\s*)+\Z")
_JQ_COUNT = lazy_re(r"(?:^|\|)\s*length\s*$")
_CURL_NUMBERS = lazy_re(r"(?:%\{(?:http_code|response_code|size_download|size_upload|num_redirects|http_connect)\}"
                        r"|\\n|\s)+\Z")
_WC_FLAGS = frozenset({"-l", "-c", "-w", "-m", "-L", "--lines", "--bytes", "--words", "--chars",
                       "--max-line-length", "-lc", "-cl", "-lw", "-wl", "-lm", "-ml"})


# compgen's lists of variable names: identifiers only, so no word of them (split by any IFS) holds a subscript
_NAME_LISTS = frozenset({("-e",), ("-v",), ("-A", "variable"), ("-A", "export"), ("-A", "arrayvar")})


def prints_names(written: str) -> bool:
    """Whether `written` is one `$(…)` (or backquotes) whose command prints only variable names: `compgen -e`
    (Copilot CLI's login-environment snapshot loops over it), `compgen -v`, `compgen -A export`, …"""
    text = written.strip()
    if text.startswith("$(") and text.endswith(")"):
        code = text[2:-1]
    elif text.startswith("`") and text.endswith("`") and text.count("`") == 2:
        code = text[1:-1]
    else:
        return False
    if "`" in code or "\n" in code or "$" in code:
        return False
    words = _last_stage(code)
    if "|" in code or not words or words[0] != "compgen":
        return False
    return tuple(words[1:]) in _NAME_LISTS


def prints_number(code: str) -> bool:
    """Whether the command `$(code)` runs prints only a number (or numbers): the last stage of its pipeline is a
    counter or a clock, so what reaches arithmetic is digits whatever it read."""
    if _ECHO_ARITH.match(code):
        return True             # `$(echo $((a + b)))`
    if "`" in code or "\n" in code or "$(" in code:
        return False
    return _counter(_last_stage(code))


def _last_stage(code: str) -> list[str]:
    """The words of the last stage of a pipeline (quotes read as sh reads them), its redirects left out; [] for
    anything but one plain pipeline (`;`, `&&`, `||`, `&`: which command prints is not known)."""
    import shlex

    lexer = shlex.shlex(code, posix=True, punctuation_chars="|&;<>()")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return []
    if any(t in (";", "&", "&&", "||", "(", ")", ";;") for t in tokens):
        return []
    if "|" in tokens:
        tokens = tokens[len(tokens) - tokens[::-1].index("|"):]
    out, skip = [], False
    for t in tokens:
        if skip:
            skip = False
        elif t and set(t) <= set("<>&"):
            skip = True
            if out and out[-1].isdigit():
                out.pop()       # `2>`: the descriptor
        else:
            out.append(t)
    return out


def _counter(words: list[str]) -> bool:
    if not words:
        return False
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    options = [a for a in args if a.startswith("-")]
    operands = [a for a in args if not a.startswith("-")]
    if program == "wc":
        return bool(options) and all(o in _WC_FLAGS for o in options) and not [o for o in operands if o != "-"]
    if program in ("nproc", "getconf", "pidof"):
        return True
    if program == "tput":
        return operands[:1] in (["cols"], ["lines"], ["colors"])
    if program == "id":
        return any(o in ("-u", "-g", "-ur", "-gr", "-ru", "-rg", "--user", "--group") for o in options) and \
            len(operands) <= 1
    if program == "date":
        formats = [a for a in operands if a.startswith("+")]
        return len(formats) == 1 and bool(_DATE_DIGITS.match(formats[0])) and not any(
            o.startswith(("-f", "--file")) for o in options)
    if program == "stat":
        for k, a in enumerate(args):
            if a in ("-c", "--format", "--printf", "-f") and k + 1 < len(args):
                return bool(_STAT_DIGITS.match(args[k + 1]))
            if a.startswith(("--format=", "--printf=")):
                return bool(_STAT_DIGITS.match(a.split("=", 1)[1]))
            if a.startswith(("-c", "-f")) and len(a) > 2:        # -c%s
                return bool(_STAT_DIGITS.match(a[2:]))
        return False
    if program == "jq":         # `jq length f.json`, `jq '.items | length'`: a count
        filters = [a for a in operands if not a.endswith(".json")]
        return bool(filters) and bool(_JQ_COUNT.search(filters[0]))
    if program == "curl":       # `curl -s -o /dev/null -w '%{http_code}' URL`: the status code, not the body
        discards = any(args[k + 1:k + 2] == ["/dev/null"] for k, a in enumerate(args) if a in ("-o", "--output"))
        formats = [args[k + 1] for k, a in enumerate(args[:-1]) if a in ("-w", "--write-out")]
        return discards and len(formats) == 1 and bool(_CURL_NUMBERS.match(formats[0]))
    if program == "seq":
        return not any(o.startswith(("-f", "--format", "-s", "--separator")) for o in options)
    if program == "shuf":
        return any(o.startswith(("-i", "--input-range")) for o in options)
    if program == "expr":
        return any(a in ("+", "-", "*", "/", "%") for a in args) and not any(
            a in (":", "match", "substr", "index", "length") for a in args)
    if program in ("grep", "egrep", "fgrep"):
        counts = any(o == "-c" or o == "--count" or o[:1] == "-" and o[1:2] != "-" and "c" in o for o in options)
        return counts and len(operands) <= 2 and not any(o in ("-r", "-R", "--recursive") for o in options)
    if program == "git" and args[:1] == ["rev-list"]:
        return "--count" in args
    if program == "pgrep":
        return not any(o in ("-l", "-a", "--list-name", "--list-full") for o in options)
    if program == "printf":
        return bool(operands) and bool(_PRINTF_DIGITS.match(operands[0]))
    if program == "echo":
        return bool(operands) and all(_INT.match(a) for a in operands)
    return False


def _printf_numbers(written: str) -> bool:
    """`printf -v n '%d' "$x"`: a format of number conversions only prints digits."""
    fmt = written.split(" ", 1)[0].strip("'\"")
    return bool(fmt) and "%" in fmt and bool(_PRINTF_DIGITS.match(fmt))
