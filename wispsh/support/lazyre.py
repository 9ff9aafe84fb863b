"""Regexes compiled on first use, and `re` itself imported on first use.

The rule tables hold many patterns and a line needs few of them; compiling every one at import costs more
than the rest of a `wispsh -c` start-up. A LazyPattern behaves as the compiled pattern it stands for.

A line of plain words (`cd src && grep -rn foo . | head -20`) needs no regex at all, and importing `re`
(its compiler, parser and flag enum) is a millisecond of every start-up. So the modules on the gate's path
write `from wispsh.support.lazyre import re`: a stand-in whose flags (re.I, re.S, ...) are the plain ints
re.compile takes, and whose every other attribute is the real module's, imported when first asked for.
"""
from __future__ import annotations

_BOUND = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer", "pattern", "flags",
          "groups", "groupindex")


class _LazyRe:
    """`re`, imported on first use of anything but its flags."""

    # re.RegexFlag's values (re/_constants.py SRE_FLAG_*): a module may combine them at import time
    A = ASCII = 256
    I = IGNORECASE = 2          # noqa: E741 (re's own name)
    L = LOCALE = 4
    M = MULTILINE = 8
    S = DOTALL = 16
    U = UNICODE = 32
    X = VERBOSE = 64

    def __getattr__(self, name: str):
        import re as real

        value = getattr(real, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return "<re, imported on first use>"


re = _LazyRe()


class LazyPattern:
    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str):
        # first use: compile, then keep the pattern's methods on the instance so later calls skip this hook
        import re as real

        compiled = real.compile(self._source, self._flags)
        for attr in _BOUND:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source!r})"


def lazy_re(source: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(source, flags)
