"""Whether the text read so far is one complete command for the real shell, or it needs more lines.

The gated shell reads a line at a time and must hand the real shell exactly the lines it judged: never half a
`for` loop or a heredoc without its body (the rest would run unjudged, joined to it), and never read a line
past the command (it may be a `read`'s data). The real shell's own parser decides: `SHELL -n` (parse, run
nothing) on the text; its verdict, told apart by what it says, is the answer. A line of plain words, which no
grammar can leave open, is answered without it (`echo READY`, `ls -la | head`, `cd /tmp && make`).

What `-n` cannot see: aliases (not defined in a shell that runs nothing). An alias whose text opens a compound
command is the one way the real shell could want more than the gate judged; the gated shell then waits for a
report that does not come while the shell waits for lines: nothing unjudged runs (docs/wisp-run.md).
"""
from __future__ import annotations

import os

COMPLETE = "complete"       # one or more whole commands: judge and run
MORE = "more"               # a command is open: read another line
BROKEN = "broken"           # a syntax error for `-n`: judged all the same (the real shell, with aliases or
                            # options `-n` did not see, may read it otherwise), and if allowed bash says why

# A line with none of these cannot be left open, by any word in it: quotes, escapes, expansions that nest,
# groups, subshells, heredocs, comments (which may hide a quote), history's `!`.
_OPENERS = frozenset("'\"\\`(){}[]<#!")
RESERVED = frozenset({"if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while", "until",
                      "for", "select", "function", "time", "coproc", "in", "[[", "]]", "{", "}", "!"})
_TRAILING = ("|", "&&", "||", "|&", "\\")

BASH, POSIX, ZSH = "bash", "posix", "zsh"


def plainly_complete(text: str) -> bool:
    """True for text that is complete by its look alone: words, `$NAME`, and operators that close."""
    if not text.endswith("\n") or "\n" in text[:-1] or not text.strip():
        return False
    if any(c in _OPENERS for c in text) or "$(" in text or "${" in text:
        return False
    body = text.rstrip()
    if body.endswith(_TRAILING):
        return False
    words = body.replace(";", " ").replace("&", " ").replace("|", " ").split()
    return not any(word in RESERVED for word in words)


def status(text: str, *, family: str, oracle) -> str:
    """COMPLETE, MORE or BROKEN for `text` (lines read so far, each ending in a newline but perhaps the last at
    the end of input). `oracle(text) -> (exit status, stderr)` runs the real shell with -n on it."""
    if plainly_complete(text):
        return COMPLETE
    if not text.strip() or _only_comments(text):
        return COMPLETE
    rc, said = oracle(text)
    if family == BASH:
        if ("unexpected end of file" in said or "unexpected EOF while looking for matching" in said
                or "delimited by end-of-file" in said):
            return MORE
        if rc != 0:
            return BROKEN
        if _ends_in_backslash(text):
            rc2, _ = oracle(text + ";\n")      # `x \` then `;` reads `x ;` only when the newline was escaped
            return MORE if rc2 == 0 else COMPLETE
        return COMPLETE
    # dash, zsh, ksh: an error on the line after the last one is the end of input arriving too early
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if rc != 0:
        at = _error_line(said)
        return MORE if at is not None and at > lines else BROKEN
    body = text.rstrip()
    if body.endswith(_TRAILING) or _heredoc_open(text):
        return MORE
    return COMPLETE


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") and "\\" not in line for line in text.split("\n"))


def _ends_in_backslash(text: str) -> bool:
    body = text.rstrip("\n")
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


def _error_line(said: str) -> int | None:
    """The line number a dash/zsh/ksh syntax error names (`F: 3: Syntax error…`, `F:3: parse error…`)."""
    for line in said.splitlines():
        for sep in (": ", ":"):
            head, _, rest = line.partition(sep)
            number = rest.split(":", 1)[0].strip()
            if head and number.isdigit():
                return int(number)
    return None


def _heredoc_open(text: str) -> bool:
    """A heredoc whose delimiter line has not come (dash and zsh take end of input as its end)."""
    import re

    wanted: list[tuple[str, bool]] = []
    for line in text.split("\n"):
        if wanted:
            word, strip = wanted[0]
            if (line.lstrip("\t") if strip else line) == word:
                wanted.pop(0)
            continue
        for m in re.finditer(r"<<(-?)\s*(['\"]?)([^\s'\";&|<>()]+)\2", line):
            wanted.append((m.group(3), bool(m.group(1))))
    return bool(wanted)


def spawn_oracle(shell: str, name: str, options=()):
    """An oracle for `status`: the real shell at `shell` (a path, or /proc/self/fd/N under `wisp run`), called
    `name`, with -n and the options that change how it parses (`-O extglob`), reading the text on stdin; its
    stderr read back."""
    def oracle(text: str) -> tuple[int, str]:
        argv = [name, *options, "-n"]
        r_in, w_in = os.pipe()
        r_err, w_err = os.pipe()
        actions = [(os.POSIX_SPAWN_DUP2, r_in, 0), (os.POSIX_SPAWN_DUP2, w_err, 2),
                   (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)]
        try:
            pid = os.posix_spawn(shell, argv, {"PATH": os.defpath, "LC_ALL": "C"}, file_actions=actions)
        finally:
            os.close(r_in)
            os.close(w_err)
        data = text.encode("utf-8", "surrogateescape")
        try:
            while data:
                data = data[os.write(w_in, data):]
        except BrokenPipeError:
            pass
        finally:
            os.close(w_in)
        chunks = []
        while True:
            chunk = os.read(r_err, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(r_err)
        _, status_ = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status_), b"".join(chunks).decode("utf-8", "replace")
    return oracle
