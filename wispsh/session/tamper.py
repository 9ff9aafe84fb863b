"""Commands that would take a gated shell's plumbing apart: refused before they are judged, whoever asks.

The real shell runs only what the gate writes to it, so a typed command cannot skip the gate; what it could do
is break the plumbing the gate relies on: the private fds, the functions and variables the plumbing defines
for a moment (`__wisp_…`), the builtins it calls (a function named `printf` or `builtin`, `enable -n`), and
in an interactive bash the readline bindings that hand each typed line to the gate (`bind`, switching line
editing off, completions that run code on a key press). A command that touches any of them is refused as
tampering with the gate; the session goes on.
"""
from __future__ import annotations

import re

WHY = "tampers with the gated shell"

_MINE = re.compile(r"__wisp")
# builtins the plumbing calls: a function of that name would run instead of it
_SHADOWS = re.compile(r"(?:^|[\s;&|(){}])(?:function\s+)?(?:builtin|command|unset|printf|read|declare|typeset|"
                      r"history|bind|test|\[|return|local|set|shopt|eval|exec|trap|enable|alias|unalias|printf)"
                      r"\s*\(\s*\)|(?:^|[\s;&|(){}])function\s+(?:builtin|command|unset|printf|read|declare|"
                      r"typeset|history|bind|test|return|local|set|shopt|eval|exec|trap|enable|alias|unalias)\b")
_ENABLE = re.compile(r"(?:^|[\s;&|(){}`])enable\s+(?!-[ap]*\s*(?:$|[;&|\n)]))")
_BIND = re.compile(r"(?:^|[\s;&|(){}`])bind\b(?P<rest>[^\n;&|]*)")
# listing functions and variables, and setting readline variables (`bind 'set enable-bracketed-paste off'`);
# not the listings of macros and key sequences (-p -s -S -X name the sequence Enter runs)
_BIND_READ_ONLY = re.compile(r"^\s*(?:-[lvV]+\s*)*$|^\s*['\"]set\s+[\w-]+\s+[\w-]+['\"]\s*$")
_EDITING_OFF = re.compile(r"(?:^|[\s;&|(){}])set\s+[^\n;&|]*\+o\s+(?:emacs|vi)\b|(?:^|[\s;&|(){}])set\s+"
                          r"[^\n;&|]*-o\s+\$|(?:^|[\s;&|(){}])set\s+[^\n;&|]*\+o\s+\$")
_COMPLETE_RUNS = re.compile(r"(?:^|[\s;&|(){}])complete\s+[^\n;&|]*-[A-Za-z]*[CF]")


def _fd_pattern(fds) -> re.Pattern:
    alt = "|".join(str(fd) for fd in fds)
    return re.compile(rf"(?:(?<![0-9])(?:{alt})\s*[<>]|[<>]&\s*-?(?:{alt})\b|/dev/fd/(?:{alt})\b|"
                      rf"/proc/[^\s/]+/fd/(?:{alt})\b|-u\s*(?:{alt})\b)")


def check(text: str, *, fds, interactive: bool) -> str | None:
    """Why `text` tampers with the gated shell (a refusal line), or None."""
    found = None
    if _MINE.search(text):
        found = "it names the gate's own plumbing (__wisp…)"
    elif _fd_pattern(fds).search(text):
        found = f"it uses the gate's private file descriptors ({', '.join(map(str, fds))})"
    elif _SHADOWS.search(text):
        found = "it defines a function named like a builtin the gate's plumbing calls"
    elif _ENABLE.search(text):
        found = "it turns shell builtins on or off (enable)"
    elif interactive:
        for m in _BIND.finditer(text):
            if not _BIND_READ_ONLY.match(m.group("rest")):
                found = "it changes the line editor's key bindings (bind), which hand each typed line to the gate"
                break
        if found is None and _EDITING_OFF.search(text):
            found = "it turns line editing off (set +o emacs/vi), which hands each typed line to the gate"
        if found is None and _COMPLETE_RUNS.search(text):
            found = "it makes a key press (completion) run code that is not judged (complete -C/-F)"
    if found is None:
        return None
    from wispsh.support.text import shown

    first = " ".join(text.split())[:80]
    return f"wispsh: not run: {shown(first)} ({WHY}: {found}); nothing ran"
