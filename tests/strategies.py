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
                separators = ("; ", " && ", " || ", " & ", "\n") if self._newlines_ok() else ("; ", " && ", " || ", " & ")
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
