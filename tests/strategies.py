"""Generated shell lines for the splitter's properties and oracles.

`random_line(rng)` composes commands, operators, quotes, substitutions, compound commands, functions,
heredocs and literal `sh -c`/`eval` code, and returns the line with the program names it put in a command's
place (the splitter must show each of them). Cheap by design: hypothesis draws one seed, this builds the line.
Program names are c0..c7 (stubs in the recording oracle); nothing else is ever in a command's place.
"""
from __future__ import annotations

import random

PROGRAMS = [f"c{i}" for i in range(8)]
PLAIN_ARGS = ["a1", "-f", "--long=x", "'q x'", '"d x"', "\\e", "'it''s'", "$HOME", '"$v"', "*.txt", "é", "x\\ y",
              "${v:-z}", "$'t\\tu'"]
REDIRECTS = ["2>/dev/null", ">out", "<in", "2>&1", ">>log"]
# Text outside parts that the splitter may leave uncovered: keywords, operators, loop/case headers,
# function names, heredoc delimiters.
HEADER_VOCABULARY = ["for", "in", "do", "done", "while", "until", "if", "then", "else", "elif", "fi", "case", "esac",
                     "v", "1", "2", "3", "$v", "p", "*", "fn", "EOF", "'EOF'", "break", "!", "{", "}", "(", ")",
                     ";", ";;", "&&", "||", "|", "|&", "&"]


class _Gen:
    def __init__(self, rng: random.Random, max_depth: int = 3, newlines_in_substitutions: bool = True):
        self.rng = rng
        self.max_depth = max_depth
        self.names: list[str] = []
        self.newlines_in_substitutions = newlines_in_substitutions
        self.in_substitution = 0

    def name(self) -> str:
        name = self.rng.choice(PROGRAMS)
        self.names.append(name)
        return name

    def command(self, depth: int, quotes_ok: bool = True) -> str:
        rng = self.rng
        words = []
        if rng.random() < 0.1:
            words.append("X=1")
        if rng.random() < 0.05 and depth < self.max_depth:
            words.append(f"Y=$({self.simple()})")
        words.append(self.name())
        for _ in range(rng.randrange(0, 4)):
            roll = rng.random()
            if depth < self.max_depth and roll < 0.12:
                self.in_substitution += 1
                inner = self.list(depth + 1, quotes_ok)
                self.in_substitution -= 1
                words.append(f"$( {inner})" if inner.startswith("(") else f"$({inner})")
            elif depth < self.max_depth and roll < 0.17:
                words.append(f'"$({self.simple()})"')
            elif depth < self.max_depth and roll < 0.2:
                words.append(f"`{self.simple()}`")
            elif depth < self.max_depth and roll < 0.23:
                words.append(f"<({self.simple()})")
            else:
                arg = rng.choice(PLAIN_ARGS)
                if not quotes_ok and ("'" in arg or "\\" in arg):
                    arg = "a1"
                words.append(arg)
        if rng.random() < 0.25:   # mostly at the end; in the middle now and then (tree-sitter misreads it)
            at = len(words) if rng.random() < 0.85 else rng.randrange(1, len(words) + 1)
            words.insert(at, rng.choice(REDIRECTS))
        return " ".join(words)

    def simple(self) -> str:
        return f"{self.name()} a1"

    def pipeline(self, depth: int, quotes_ok: bool) -> str:
        parts = [self.command(depth, quotes_ok) for _ in range(self.rng.choice((1, 1, 1, 2, 3)))]
        return self.rng.choice((" | ", " |& ")).join(parts)

    def compound(self, depth: int, quotes_ok: bool = True) -> str:
        rng = self.rng
        if depth >= self.max_depth:
            return self.pipeline(depth, quotes_ok)
        roll = rng.randrange(14)
        inner = lambda: self.list(depth + 1, quotes_ok)  # noqa: E731
        if roll < 4:
            return self.pipeline(depth, quotes_ok)
        if roll == 4:
            return f"( {inner()} )"
        if roll == 5:
            return "{ " + _term(inner()) + "}"
        if roll == 6:
            return f"if {_term(inner())}then {_term(inner())}else {_term(inner())}fi"
        if roll == 7:
            return f"for v in 1 2 3; do {_term(inner())}done"
        if roll == 8:
            return f"while {_term(inner())}do {_term(inner())}break; done"
        if roll == 9:
            return f"case $v in p) {_term(inner())};; *) {_term(inner())};; esac"
        if roll == 10:
            body = _term(inner())
            self.names.append("fn")
            return "fn() { " + body + "}; fn"
        if roll == 11 and quotes_ok and self._newlines_ok():
            quoted = rng.random() < 0.5
            head = self.command(depth, quotes_ok=True)
            sub = f"$({self.simple()})" if not quoted else "$(c0 not-run)"
            delimiter = "'EOF'" if quoted else "EOF"
            return f"{head} <<{delimiter}\nline {sub} it's\nEOF\n"
        if roll == 12 and quotes_ok:
            return f"sh -c '{self.list(depth + 1, quotes_ok=False)}'"
        if roll == 13 and quotes_ok:
            return f"! {self.pipeline(depth, quotes_ok)}"
        return self.pipeline(depth, quotes_ok)

    def list(self, depth: int, quotes_ok: bool = True) -> str:
        rng = self.rng
        out = ""
        for k in range(rng.choice((1, 1, 2, 3))):
            item = self.compound(depth, quotes_ok)
            if k:
                separators = ("; ", " && ", " || ", " & ", "\n") if self._newlines_ok() else ("; ", " && ", " || ",
                                                                                              " & ")
                out += "" if out.endswith("\n") else rng.choice(separators)
            out += item
        return out


    def _newlines_ok(self) -> bool:
        return self.newlines_in_substitutions or not self.in_substitution


def _term(text: str) -> str:
    return text if text.endswith("\n") else text + "; "


def random_line(rng: random.Random, max_depth: int = 3,
                newlines_in_substitutions: bool = True) -> tuple[str, list[str]]:
    gen = _Gen(rng, max_depth, newlines_in_substitutions)
    line = gen.list(0)
    return line, gen.names


# ---------------------------------------------------------------- lines built around parameter expansions

# Every parameter-expansion operator bash has. With a pattern: #, ##, %, %%, the /… family (pattern and
# replacement), case changes; with a word: :-, :=, :+, :?, -, =, +, ?; transformations; substrings.
PATTERN_OPS = ["#", "##", "%", "%%", "^", "^^", ",", ",,"]
REPLACE_OPS = ["/", "//", "/#", "/%"]
WORD_OPS = [":-", ":=", ":+", "-", "=", "+"]          # :? and ? end the shell: rare, see below
TRANSFORMS = ["@Q", "@E", "@P", "@A", "@a", "@U", "@u", "@L"]
CONTEXTS = ["top", "bash -c", "eval", "subshell", "group", "if", "[[", "for", "assignment", "case", "heredoc",
            "here-string", "declare", "local"]


class _Expansions:
    """Lines that put commands (c0..c7) inside every operand of every parameter expansion, in every kind
    of code carrier, in every statement context. `names`: the commands put where bash may run them."""

    def __init__(self, rng: random.Random, max_depth: int = 3):
        self.rng = rng
        self.max_depth = max_depth
        self.names: list[str] = []

    def name(self) -> str:
        name = self.rng.choice(PROGRAMS)
        self.names.append(name)
        return name

    # ---- code

    def command(self, depth: int, sq: bool, bt: bool) -> str:
        words = [self.name()]
        for _ in range(self.rng.randrange(0, 3)):
            words.append(self.word(depth + 1, sq, bt) if depth < self.max_depth and self.rng.random() < 0.4
                         else self.rng.choice(["a1", "-f", "z"]))
        return " ".join(words)

    def code(self, depth: int, sq: bool, bt: bool) -> str:
        roll = self.rng.random()
        if roll < 0.6 or depth >= self.max_depth:
            return self.command(depth, sq, bt)
        if roll < 0.75:
            return f"{self.command(depth, sq, bt)} | {self.command(depth, sq, bt)}"
        if roll < 0.9:
            return f"{self.command(depth, sq, bt)} && {self.command(depth, sq, bt)}"
        return f"( {self.command(depth, sq, bt)} )"

    def carrier(self, depth: int, sq: bool, bt: bool, dq: bool) -> str:
        """A construct bash runs code in: $(…), `…`, <(…), $((…)), or a ${…} holding one."""
        rng = self.rng
        kinds = ["$()", "$()", "param", "param", "arith"] + ([] if bt else ["``"]) + ([] if dq else ["<()"])
        if depth >= self.max_depth:
            return f"$({self.name()})"
        kind = rng.choice(kinds)
        if kind == "$()":
            code = self.code(depth + 1, sq, bt)
            return f"$( {code})" if code.startswith("(") else f"$({code})"   # `$((` would be arithmetic
        if kind == "``":
            return f"`{self.code(depth + 1, sq, True)}`"
        if kind == "<()":
            return f"<( {self.code(depth + 1, sq, bt)})"
        if kind == "arith":
            return f"$(({self.arith(depth + 1, sq, bt)}))"
        return self.param(depth + 1, sq, bt, dq)

    def arith(self, depth: int, sq: bool, bt: bool) -> str:
        """Arithmetic text: a $(…) there runs, in a subscript too, even inside single quotes."""
        inner = f"$({self.command(depth, sq, bt)})"
        return self.rng.choice([f"1+{inner}", f"a[{inner}]", f"{inner}+0"] + ([f"'{inner}'"] if sq else []))

    def param(self, depth: int, sq: bool, bt: bool, dq: bool) -> str:
        rng = self.rng
        var = rng.choice(["x", "x", "y", "a"])      # x is set, y and a are not
        if var == "a" or rng.random() < 0.15:
            var = f"{var}[{self.arith(depth, sq, bt)}]"
        roll = rng.random()
        if roll < 0.35:
            return "${" + var + rng.choice(PATTERN_OPS) + self.operand(depth, sq, bt, dq) + "}"
        if roll < 0.5:
            return "${" + var + rng.choice(REPLACE_OPS) + self.operand(depth, sq, bt, dq) + "/" \
                + self.operand(depth, sq, bt, dq) + "}"
        if roll < 0.8:
            return "${" + var + rng.choice(WORD_OPS) + self.operand(depth, sq, bt, dq) + "}"
        if roll < 0.9:   # substring: offset and length are arithmetic
            length = "1" if rng.random() < 0.5 else self.arith(depth, sq, bt)
            return "${" + var + ":" + self.arith(depth, sq, bt) + ":" + length + "}"
        if roll < 0.95:
            return "${" + rng.choice(["!", "#"]) + var + "}" + f"$({self.command(depth, sq, bt)})"
        return "${" + var + rng.choice(TRANSFORMS) + "}" + f"$({self.command(depth, sq, bt)})"

    def operand(self, depth: int, sq: bool, bt: bool, dq: bool) -> str:
        """The word of a ${…}: literal text, quoted data, a nested ${…} or a code carrier."""
        pieces = []
        for _ in range(self.rng.randrange(1, 3)):
            roll = self.rng.random()
            if roll < 0.55:
                pieces.append(self.carrier(depth, sq, bt, dq))
            elif roll < 0.7 and sq:
                pieces.append("'q*'")                           # data: never run
            elif roll < 0.85:
                pieces.append(f'"{self.carrier(depth, sq, bt, True)}"')
            else:
                pieces.append(self.rng.choice(["p", "*", "?b", "[a-z]"]))
        return "".join(pieces)

    def word(self, depth: int, sq: bool, bt: bool) -> str:
        roll = self.rng.random()
        if roll < 0.45:
            return self.param(depth, sq, bt, False)
        if roll < 0.75:
            return f'"{self.param(depth, sq, bt, True)}"'
        if roll < 0.9:
            return "w" + self.carrier(depth, sq, bt, False)
        return f'"{self.carrier(depth, sq, bt, True)}"'

    # ---- statements

    def statement(self, depth: int, sq: bool = True) -> str:
        rng = self.rng
        context = rng.choice(CONTEXTS if sq else [c for c in CONTEXTS if c not in ("bash -c", "eval")])
        word = lambda: self.word(depth, sq, False)       # noqa: E731
        command = lambda: self.command(depth, sq, False)  # noqa: E731
        if context == "top":
            return command()
        if context in ("bash -c", "eval"):
            inner = self.statement(depth + 1, sq=False) if depth < self.max_depth else self.command(depth, False, False)
            return f"bash -c '{inner}'" if context == "bash -c" else f"eval '{inner}'"
        if context == "subshell":
            return f"( {command()} )"
        if context == "group":
            return "{ " + command() + "; }"
        if context == "if":
            return f"if {command()}; then {command()}; fi"
        if context == "[[":
            return f"[[ {word()} == z ]]"
        if context == "for":
            return f"for i in {word()}; do {command()}; done"
        if context == "assignment":
            return f"v={word()}"
        if context == "case":
            return f"case {word()} in z) {command()};; esac"
        if context == "heredoc":   # the body reads like "…": no <(…) there
            body = self.param(depth, sq, False, True) if rng.random() < 0.6 else self.carrier(depth, sq, False, True)
            return f"cat <<EOF\n{body}\nEOF\n"
        if context == "here-string":
            return f"cat <<< {word()}"
        if context == "declare":
            return f"declare v={word()}"
        return f"f() {{ local v={word()}; }}; f"

    def line(self) -> str:
        out = ""
        for k in range(self.rng.choice((1, 1, 2, 3))):
            item = self.statement(0)
            if k:
                out += "" if out.endswith("\n") else self.rng.choice(("; ", " && ", " || ", "\n"))
            out += item
        return out


def expansion_line(rng: random.Random, max_depth: int = 3) -> tuple[str, list[str]]:
    """A line built around parameter expansions and code carriers, and the commands it holds."""
    gen = _Expansions(rng, max_depth)
    line = gen.line()
    return line, gen.names
