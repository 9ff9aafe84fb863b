"""Reading a program's options the way getopt does: clusters, values, long forms, `--`.

`-rf`, `-fr`, `-r -f`, `--recursive --force` and `--rec --force` (a unique abbreviation) all read the same.
One helper for every family, so option spellings never become a text match.
"""
from __future__ import annotations

UNKNOWN = "\x00"        # stands for text known only at run time inside a word


class Options:
    __slots__ = ("flags", "values", "operands", "args")

    def __init__(self, args=()) -> None:
        self.flags: list[str] = []                  # every option seen, in order ("r", "f", "recursive")
        self.values: list[tuple[str, str]] = []     # (option, value) for options that took one
        self.operands: list[str] = []
        self.args = args                            # the words read, as given

    def has(self, *names: str) -> bool:
        return any(name in self.flags for name in names)

    def count(self, *names: str) -> int:
        return sum(1 for flag in self.flags if flag in names)

    def value(self, *names: str) -> str | None:
        found = None
        for name, value in self.values:
            if name in names:
                found = value
        return found

    def all(self, *names: str) -> list[str]:
        return [value for name, value in self.values if name in names]


def read_options(args, short_values: str = "", long_values=(), longs=(), stop_at_operand: bool = False,
                 optional_long_values=()) -> Options:
    """Split args into options and operands.

    short_values: short options that take a value ("o" for `sort -o F`).
    long_values: long options that take a value (`--output F` or `--output=F`).
    longs: every long option the program knows, for unique-prefix abbreviations.
    stop_at_operand: options end at the first operand (POSIX order, e.g. for `find`, `xargs`, `ssh`).
    optional_long_values: long options whose value may only be attached (`--exec-path[=dir]`).
    """
    out = Options(args)
    known_longs = None
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        if arg == "--":
            out.operands.extend(args[i:])
            break
        if arg.startswith("--") and len(arg) > 2:
            name, eq, value = arg[2:].partition("=")
            if known_longs is None:
                known_longs = tuple(longs) + tuple(long_values) + tuple(optional_long_values)
            if name not in known_longs:
                matches = [known for known in known_longs if known.startswith(name)]
                if len(set(matches)) == 1:
                    name = matches[0]
            out.flags.append(name)
            if eq:
                out.values.append((name, value))
            elif name in long_values and i < n:
                out.values.append((name, args[i]))
                i += 1
            continue
        if arg.startswith("-") and len(arg) > 1:
            j = 1
            while j < len(arg):
                letter = arg[j]
                out.flags.append(letter)
                if letter in short_values:
                    rest = arg[j + 1:]
                    if rest:
                        out.values.append((letter, rest))
                    elif i < n:
                        out.values.append((letter, args[i]))
                        i += 1
                    break
                j += 1
            continue
        out.operands.append(arg)
        if stop_at_operand:
            out.operands.extend(args[i:])
            break
    return out
