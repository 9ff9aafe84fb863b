"""What the real shell holds between commands, as the gate judges the next one with it: its working directory,
the values of the variables a command names, the functions it calls, the aliases it uses, its options.

The gate's pipeline already judges a line with the line's own `cd` and assignments (policy/sequence.py); a
command of a session is judged as the line the shell will in effect run: the values it reads set first, the
functions it calls defined first, then the command, in the shell's directory:

    d='build'                      (the variable, as the shell holds it now)
    f () { rm -rf "$1"; }          (the function, as `declare -f` prints it)
    f "$d"                         (what was typed)

so `f "$d"` is judged as the recursive delete of build it is. Aliases (bash, with expand_aliases on) are
expanded in the command's text first, as bash expands them.
"""
from __future__ import annotations

import re

_NAME = re.compile(r"\$\{?[#!]?([A-Za-z_][A-Za-z0-9_]*)")
_WORD = re.compile(r"(?<![\w$.{/-])([A-Za-z_][A-Za-z0-9_.:-]*)")
# Variables whose value the gate reads from the session, whatever the command names (where the rules look).
ALWAYS = ("HOME", "PATH", "TMPDIR", "OLDPWD")
# Never set in the prelude: assigning these is itself a finding (the command did not assign them).
NOT_IN_PRELUDE = frozenset({"PATH", "IFS", "ENV", "BASH_ENV", "PS0", "PS1", "PS2", "PS4", "PROMPT_COMMAND", "SHELLOPTS",
                            "BASHOPTS", "CDPATH", "HOME", "TMPDIR", "OLDPWD", "PWD", "GLOBIGNORE", "HISTFILE"})
MAX_NAMES = 200


class ShellState:
    """The real shell after the last command: `status` ($?), `last` ($_), `flags` ($-), `bashopts`, and what the
    last query returned (variables, functions, aliases by name)."""

    def __init__(self, cwd: str):
        self.cwd = cwd
        self.status = 0
        self.last: str | None = None
        self.flags = ""
        self.bashopts = ""
        self.variables: dict[str, str] = {}
        self.functions: dict[str, str] = {}
        self.aliases: dict[str, str] = {}

    def take_report(self, fields: list[str]) -> None:
        """Fields after the nonce: $-, BASHOPTS, count, $?, $_, PIPESTATUS..."""
        self.flags, self.bashopts = fields[0], fields[1]
        values = fields[3:3 + int(fields[2] or 0)]
        self.status = int(values[0]) if values and values[0].isdigit() else 0
        self.last = values[1] if len(values) > 1 else None

    def take_query(self, fields: list[str]) -> None:
        self.variables, self.functions, self.aliases = {}, {}, {}
        i = 0
        while i + 2 < len(fields) and fields[i] in ("v", "f", "a"):
            kind, name, value = fields[i:i + 3]
            {"v": self.variables, "f": self.functions, "a": self.aliases}[kind][name] = value
            i += 3

    def option(self, name: str) -> bool:
        return name in self.bashopts.split(":")

    def parse_options(self) -> tuple[str, ...]:
        """The real shell's options that change how it parses (for its `-n`)."""
        return ("-O", "extglob") if self.option("extglob") else ()


def names_in(text: str) -> tuple[list[str], list[str]]:
    """(the variables `text` expands, the words that may name a function or alias), bounded."""
    variables = list(dict.fromkeys(_NAME.findall(text)))[:MAX_NAMES]
    words = [w for w in dict.fromkeys(_WORD.findall(text)) if not w.endswith((".", ":", "-"))][:MAX_NAMES]
    return variables, words


def judged_text(text: str, state: ShellState, *, family: str) -> str:
    """The text the gate judges for `text` run in `state` (the prelude of values and functions, then the
    command with its aliases expanded)."""
    body = expand_aliases(text, state.aliases) if state.aliases and state.option("expand_aliases") else text
    prelude = []
    for name, value in state.variables.items():
        if name not in NOT_IN_PRELUDE and not _special(name, value):
            prelude.append(f"{name}={_quoted(value)}")
    for name, definition in state.functions.items():
        prelude.append(definition.rstrip("\n"))
    if not prelude:
        return body
    return "\n".join(prelude) + "\n" + body


def _special(name: str, value: str) -> bool:
    """A variable whose assignment is itself a finding (it steers a program, the gate, a loader): its value is
    the shell's own, not something the command sets, so it stays out of the prelude."""
    from wispsh.policy.env import FAMILY_PREFIXES, judge_variable

    return name.startswith(FAMILY_PREFIXES) or judge_variable(name, value, f"{name}={value}") is not None


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


_COMMAND_START = re.compile(r"(^|[;&|(\n]|&&|\|\||\bthen\b|\bdo\b|\belse\b|\{)(\s*)([A-Za-z_][A-Za-z0-9_.:-]*)")


def expand_aliases(text: str, aliases: dict[str, str]) -> str:
    """Each alias at a command's start replaced by its text, as bash does. Conservative: a word that only looks
    like a command start is expanded as well, which can only make the judged text do more."""
    def swap(m):
        name = m.group(3)
        if name not in aliases:
            return m.group(0)
        return m.group(1) + m.group(2) + aliases[name]
    return _COMMAND_START.sub(swap, text)
