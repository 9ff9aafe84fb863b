"""The text the gated shell writes to the real shell around each command it allows (the only text the real
shell ever reads as commands), for bash and for POSIX shells (dash, zsh, ksh).

Per command, one line on the private command socket that is the real shell's stdin:

    { <restore $? and $_>; } 2>/dev/null; { COMMAND ; } 0<&IN IN<&- MARK>&-; { <report>; <wait>; } 2>/dev/null

- The group gives COMMAND the gate's own stdin (IN), so `read` and `cat` read the input after the command, as
  under `bash -s`; the private fds are closed inside it, so nothing COMMAND runs (nor its background jobs)
  holds or can write them; after it the shell puts them back.
- COMMAND keeps its own lines and the plumbing adds none, so `$LINENO` and the shell's error messages name the
  lines bash would (a command whose last line ends in a comment or a heredoc needs the group's `}` on a line of
  its own: one line more after it).
- The report goes to MARK with a nonce made for this command only, written after COMMAND's text: COMMAND
  cannot read it ahead (the shell reads its input a byte at a time and has not reached it), so no report
  can be forged from inside. Then the shell waits on MARK: the gate sends it queries (the values and
  functions the next command names, evaluated and answered on MARK) and an empty line when it has judged.
- `$?` and `$_` are put back by a function that removes itself, so `set`, `declare -f` and `$?` show what bash
  would; `&& :` keeps a non-zero status from tripping `set -e`. Under `set -x` the plumbing's trace goes to
  /dev/null (its own `2>`).

A refused command's text is never written: as many empty lines as it had, and the restore with 126 without
`&& :`, so that `set -e` and an ERR trap see it fail as bash would see a command fail.
"""
from __future__ import annotations

BASH, POSIX, ZSH = "bash", "posix", "zsh"
# The private fds in the real shell: bash takes two digits (rarely used by scripts); dash and zsh only one.
FDS = {BASH: (62, 63), POSIX: (8, 9)}
SEP = "\0"


def fds(family: str) -> tuple[int, int]:
    """(IN, MARK) for this shell family."""
    return FDS[BASH if family == BASH else POSIX]


def quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def restore(family: str, status: int, last: str | None, *, refused: bool = False) -> str:
    """What puts `$?` (and bash's `$_`) back before a command runs, or sets 126 for a refusal (a line's start)."""
    fn = "__wisp_rc() { \\unset -f __wisp_rc; return \"$1\"; }; "
    args = f"{status}" + (f" {quoted(last)}" if family == BASH and last is not None else "")
    tail = "" if refused or status == 0 else " && :"
    return "{ " + fn + "__wisp_rc " + args + tail + "; } 2>/dev/null; "


def wrapped(family: str, command: str) -> str:
    """COMMAND in its group, without a newline of its own when its last line allows (the report follows on it)."""
    fd_in, fd_mark = fds(family)
    closing = f" 0<&{fd_in} {fd_in}<&- {fd_mark}>&-; "
    body = command[:-1] if command.endswith("\n") else command
    last = body.rsplit("\n", 1)[-1].rstrip()
    if "#" in last or "<<" in command or last.endswith("\\") or not last:
        if body.rstrip("\n").endswith("\\"):
            body += "\n"
        return "{ " + body + "\n}" + closing
    joint = " }" if last.endswith(";") or last.endswith("&") and not last.endswith("&&") else " ; }"
    return "{ " + body + joint + closing


def report(family: str, nonce: str) -> str:
    """The report that follows a command, then the wait for the gate's queries (ends the line)."""
    _, fd_mark = fds(family)
    wait = (f"while IFS= read -r __wisp_q <&{fd_mark} && [ -n \"$__wisp_q\" ]; do eval \"$__wisp_q\"; done; "
            "unset __wisp_q")
    if family == BASH:
        return ("{ __wisp_p=(\"$?\" \"$_\" \"${PIPESTATUS[@]}\"); "
                f"\\builtin printf '%s\\0' {nonce} \"$-\" \"${{BASHOPTS-}}\" \"${{#__wisp_p[@]}}\" \"${{__wisp_p[@]}}\" "
                f">&{fd_mark}; \\builtin unset __wisp_p; {wait}; }} 2>/dev/null\n")
    return ("{ __wisp_s=$?; "
            f"printf '%s\\0' {nonce} \"$-\" '' 1 \"$__wisp_s\" >&{fd_mark}; unset __wisp_s; {wait}; }} 2>/dev/null\n")


def query(family: str, nonce: str, variables, functions) -> str:
    """A line (sent on MARK, evaluated by the waiting shell) that reports the named variables' values and
    functions' definitions (names are checked identifiers): `v NAME VALUE`, `f NAME TEXT` (bash, zsh; dash
    cannot print a function), then `a NAME TEXT` for aliases (bash), ending in `.`."""
    _, fd_mark = fds(family)
    out = [f"printf '%s\\0' {nonce}"]
    for name in variables:
        out.append(f"[ -n \"${{{name}+x}}\" ] && printf 'v\\0{name}\\0%s\\0' \"${{{name}}}\"")
    if family == ZSH:
        for name in functions:
            out.append(f"(( $+functions[{name}] )) && {{ printf 'f\\0{name}\\0'; typeset -f {name}; printf '\\0'; }}")
    if family == BASH:
        for name in functions:
            out.append(f"\\builtin declare -F {name} >/dev/null && {{ \\builtin printf 'f\\0{name}\\0'; "
                       f"\\builtin declare -f {name}; \\builtin printf '\\0'; }}")
            out.append(f"[[ -n \"${{BASH_ALIASES[{name}]+x}}\" ]] && \\builtin printf 'a\\0{name}\\0%s\\0' "
                       f"\"${{BASH_ALIASES[{name}]}}\"")
    out.append("printf '.\\0'")
    return "{ " + "; ".join(out) + f"; }} >&{fd_mark} 2>/dev/null\n"
