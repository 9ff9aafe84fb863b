"""Linear-time regular expressions for patterns a user writes (config `deny`), through RE2 (google-re2).

Python's re backtracks: a deny pattern such as `(a+)+$` takes 2^n steps on thirty `a`s and one other
character, so one line would hang every agent's shell. RE2 runs in time linear in the text, whatever the
pattern, and refuses at compile time what it cannot run that way (backreferences, lookarounds): such a
pattern is an error naming it, never silently ignored. Imported only when config has deny patterns, so
the hot path of a user without any pays nothing (re2 costs ~1.6 ms to import).
"""
from __future__ import annotations


class PatternError(ValueError):
    """The pattern cannot be compiled as a linear-time regular expression; the message says why."""


class LinearPattern:
    """A compiled RE2 pattern with the part of re.Pattern the deny check uses (search, pattern)."""

    def __init__(self, source: str):
        try:
            import re2
        except ImportError:                     # fail closed: a user's patterns must never be skipped
            raise PatternError("the RE2 engine (the google-re2 package) is not installed; reinstall wispsh") \
                from None
        options = re2.Options()
        options.log_errors = False              # RE2 would print its own complaint on stderr
        options.max_mem = 64 << 20
        try:
            self._compiled = re2.compile(source, options)
        except re2.error as exc:
            why = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) \
                else str(exc)
            raise PatternError(f"{why} (RE2 syntax: no backreferences or lookarounds)") from None
        self.pattern = source

    def search(self, text: str):
        try:
            return self._compiled.search(text)
        except UnicodeEncodeError:              # an undecodable byte of the line (surrogateescape): matched as U+FFFD
            return self._compiled.search(_replace_surrogates(text))


def _replace_surrogates(text: str) -> str:
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


def compile(source: str) -> LinearPattern:  # noqa: A001 - the name re uses
    return LinearPattern(source)
