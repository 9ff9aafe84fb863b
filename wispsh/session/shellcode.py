"""The text the gated shell writes to the real shell around each command it allows (the only text the real
shell ever reads as commands), for bash and for POSIX shells (dash, zsh, ksh).

Per command, on the private command socket that is the real shell's stdin:

    { <restore $? and $_ to what the last command left>; } 2>/dev/null
    { COMMAND
    } 0<&IN IN<&- MARK>&-; { <report: nonce, $?, $_, $PIPESTATUS, $-, BASHOPTS>; } 2>/dev/null

- The group gives COMMAND the gate's own stdin (IN), so `read` and `cat` read the input after the command, as
  under `bash -s`; the private fds are closed inside it, so nothing COMMAND runs (nor its background jobs)
  holds or can write them; after it the shell puts them back.
- The report goes to MARK with a nonce made for this command only, written after COMMAND's text: COMMAND
  cannot read it ahead (the shell reads its input a byte at a time and has not reached it), so no report
  can be forged from inside; the gate reads the state it judges the next command with only from there.
- `$?` and `$_` are put back by a function that removes itself, so `set`, `declare -f` and `$?` show what bash
  would; `&& :` keeps a non-zero status from tripping `set -e`. Under `set -x` the plumbing's trace goes to
  /dev/null (its own `2>`).

A refused command's text is never written: the restore with 126 instead, without `&& :`, so that `set -e`
and an ERR trap see it fail as bash would see a command fail.
"""
from __future__ import annotations

BASH, POSIX = "bash", "posix"
# The private fds in the real shell: bash takes two digits (rarely used by scripts); dash and zsh only one.
FDS = {BASH: (62, 63), POSIX: (8, 9)}
SEP = "\0"


def fds(family: str) -> tuple[int, int]:
    """(IN, MARK) for this shell family."""
    return FDS[BASH if family == BASH else POSIX]


def quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def restore(family: str, status: int, last: str | None, *, refused: bool = False) -> str:
    """The line that puts `$?` (and bash's `$_`) back before a command runs, or sets 126 for a refusal."""
    fn = "__wisp_rc() { \\unset -f __wisp_rc; return \"$1\"; }; "
    args = f"{status}" + (f" {quoted(last)}" if family == BASH and last is not None else "")
    tail = "" if refused or status == 0 else " && :"
    return "{ " + fn + "__wisp_rc " + args + tail + "; } 2>/dev/null\n"


def wrapped(family: str, command: str) -> str:
    """COMMAND in its group, ending in a newline (a last line without one gets it: a trailing `\\` ends there)."""
    fd_in, fd_mark = fds(family)
    if not command.endswith("\n"):
        command += "\n"
    if command.rstrip("\n").endswith("\\"):
        command += "\n"
    return "{ " + command + f"}} 0<&{fd_in} {fd_in}<&- {fd_mark}>&-; "


def report(family: str, nonce: str) -> str:
    """The report that follows a command (on the same line as its group's end)."""
    _, fd_mark = fds(family)
    if family == BASH:
        return ("{ __wisp_p=(\"$?\" \"$_\" \"${PIPESTATUS[@]}\"); "
                f"\\builtin printf '%s\\0' {nonce} \"$-\" \"${{BASHOPTS-}}\" \"${{#__wisp_p[@]}}\" \"${{__wisp_p[@]}}\" "
                f">&{fd_mark}; \\builtin unset __wisp_p; }} 2>/dev/null\n")
    return ("{ __wisp_s=$?; "
            f"printf '%s\\0' {nonce} \"$-\" '' 1 \"$__wisp_s\" >&{fd_mark}; unset __wisp_s; }} 2>/dev/null\n")


def query(family: str, nonce: str, variables, functions) -> str:
    """A line that reports the named variables' values and functions' definitions (names are checked
    identifiers): `v NAME VALUE`, `f NAME TEXT`, then `a NAME TEXT` for aliases (bash), ending in `.`."""
    _, fd_mark = fds(family)
    out = [f"printf '%s\\0' {nonce}"]
    for name in variables:
        out.append(f"[ -n \"${{{name}+x}}\" ] && printf 'v\\0{name}\\0%s\\0' \"${{{name}}}\"")
    if family == BASH:
        for name in functions:
            out.append(f"\\builtin declare -F {name} >/dev/null && {{ \\builtin printf 'f\\0{name}\\0'; "
                       f"\\builtin declare -f {name}; \\builtin printf '\\0'; }}")
            out.append(f"[[ -n \"${{BASH_ALIASES[{name}]+x}}\" ]] && \\builtin printf 'a\\0{name}\\0%s\\0' "
                       f"\"${{BASH_ALIASES[{name}]}}\"")
    out.append("printf '.\\0'")
    return "{ " + "; ".join(out) + f"; }} >&{fd_mark} 2>/dev/null\n"
