"""Regexes compiled on first use.

The rule tables hold many patterns and a line needs few of them; compiling every one at import costs more
than the rest of a `wispsh -c` start-up. A LazyPattern behaves as the compiled pattern it stands for.
"""
from __future__ import annotations

import re

_BOUND = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer", "pattern", "flags",
          "groups", "groupindex")


class LazyPattern:
    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str):
        # first use: compile, then keep the pattern's methods on the instance so later calls skip this hook
        compiled = re.compile(self._source, self._flags)
        for attr in _BOUND:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source!r})"


def lazy_re(source: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(source, flags)
