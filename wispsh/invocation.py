"""argv and env -> Invocation: sh/bash option parsing, the name called as, the mode, the exec argv.

The option grammar mirrors bash's (shell.c: parse_long_options, then parse_shell_options), because what
matters is that wispsh and the real shell agree on which word is the line. Where bash would refuse the
argv, the words are passed on unchanged and the real shell gives its own error. The exec argv is rebuilt
as `[argv0, *options, "-c", LINE, *args]` (with `--` before a LINE that starts with - or +), so the shell
cannot take any other word for the line.

Kept light: this runs on every `wispsh -c`.
"""
from __future__ import annotations

import os

from wispsh.vocab.shells import STANDS_IN_FOR

OWN_NAME = "wispsh"

# wispsh's own options: only when called as wispsh, and only before the sh options. A shim named bash or sh
# takes none of them: `bash --help` and `bash --version` are the real shell's.
OWN_OPTIONS = ("--explain", "--json", "--yes", "--version", "--help")

# bash's long options (bash also takes them with one dash, and only before any short option);
# "emulate" is zsh's. Those in LONG_WITH_ARGUMENT take the next word.
LONG_OPTIONS = frozenset({
    "debug", "debugger", "dump-po-strings", "dump-strings", "emulate", "help", "init-file", "login",
    "noediting", "noprofile", "norc", "posix", "pretty-print", "rcfile", "restricted", "verbose",
    "version", "wordexp",
})
LONG_WITH_ARGUMENT = frozenset({"init-file", "rcfile", "emulate"})
# Each real shell reads its argv by its own grammar, and wispsh must agree with the one that will run, or
# a word it passes on as an option's argument becomes the shell's script (zsh -O evil -c true ran `evil`):
#   bash:  long options also with one dash (-rcfile F); -o NAME and -O NAME take the next word.
#   zsh:   only --NAME long options (flags; --emulate takes a word); -oNAME takes the rest of its cluster, else
#          the next word; -b ends the options (taken out of what is passed on: the rebuilt argv ends them).
#   posix: dash and anything else: no long options; -o NAME takes the next word. (Accepted: ksh93's own
#          letters, e.g. -R FILE, are read as dash reads them.)
BASH, ZSH, POSIX = "bash", "zsh", "posix"
ZSH_LONG_WITH_ARGUMENT = frozenset({"emulate"})
LONG_THAT_ONLY_PRINT = frozenset({"help", "version"})     # the shell prints and exits; runs nothing
SHORT_WITH_ARGUMENT = frozenset("oO")                     # -o NAME, +o NAME, -O SHOPT
END_OF_OPTIONS = ("-", "--")

# Modes
COMMAND = "command"          # -c LINE
SCRIPT = "script"            # SCRIPT [ARGS]
STDIN = "stdin"              # no line, stdin not a terminal: a gated shell reading commands from it (session/)
INTERACTIVE = "interactive"  # no line, stdin a terminal: a gated interactive shell (session/hook.py)
VERSION = "version"          # wispsh --version
HELP = "help"                # wispsh --help
PASSTHROUGH = "passthrough"  # the shell will only print or refuse (bash --version, `-c` without a line)


HELP_TEXT = """\
usage: wispsh [--yes] [sh options] -c LINE [NAME [ARG...]]
       wispsh [--yes] [sh options] SCRIPT [ARG...]
       wispsh [sh options] [-s] [ARG...]    (a gated shell: each command read
              from stdin or typed is judged before the real shell runs it)
       wispsh --explain [--json] -c LINE | SCRIPT     (or a script on stdin)

wispsh stands in for sh: it splits the line (or script) into every command it
runs, rates each from safe to dangerous, asks a person about those at or above
the threshold, then runs exactly that text with the real shell. A refused line
exits 126 with one line on stderr.

wispsh's own options (first, before any shell option):
  --explain   print the plan (parts, levels, what would be asked); never asks,
              writes or runs. Exit 0 would run, 1 would ask, 3 would refuse.
  --json      with --explain: the plan as JSON (the schema in the README)
  --yes       answer every question "once" (deny patterns still refuse; ignored
              beneath a line wispsh already checked)
  --version   print the version
  --help      this text

Every other option is the real shell's (bash where present, else sh; config
shell.default), passed on unchanged: see `bash --help`. Approvals, the audit
and `wisp watch`: see `wisp --help`.
"""


class UsageError(Exception):
    """wispsh's own usage error (exit 2)."""


class Invocation:
    """argv read as the real shell reads it. A plain class, not a dataclass: the nested-shell check reads
    argv before any heavy import (dataclasses alone costs more than the whole check)."""

    __slots__ = ("argv", "argv0", "called_as", "shell_name", "mode", "shell_words", "options", "line", "script",
                 "args", "login", "interactive", "explain", "json", "yes", "grammar")

    def __init__(self, *, argv, argv0, called_as, shell_name, mode, shell_words, options=(), line=None,
                 script=None, args=(), login=False, interactive=False, explain=False, json=False, yes=False,
                 grammar=BASH):
        self.argv: tuple[str, ...] = argv               # as given, argv[0] first
        self.argv0: str = argv0                         # what the real shell gets as argv[0] (a login dash kept)
        self.called_as: str = called_as                 # the name wispsh was called as: "bash", "sh", ..., "wispsh"
        self.shell_name: str | None = shell_name        # the real shell that name picks; None: the configured default
        self.mode: str = mode
        self.shell_words: tuple[str, ...] = shell_words  # the sh part of argv (after wispsh's own options)
        # option words passed on: `c` (and for STDIN `s`) taken out, the terminating `-`/`--` dropped
        self.options: tuple[str, ...] = options
        self.line: str | None = line                    # COMMAND: the line to gate and run
        self.script: str | None = script                # SCRIPT: the file as named
        self.args: tuple[str, ...] = args               # COMMAND: $0 $1 ...; SCRIPT and STDIN: $1 ...
        self.login: bool = login                        # -l, --login, or argv[0] starting with "-"
        self.interactive: bool = interactive            # -i
        self.explain: bool = explain
        self.json: bool = json
        self.yes: bool = yes
        self.grammar: str = grammar                     # whose option grammar the argv was read by

    def __repr__(self) -> str:
        return "Invocation(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"

    def __eq__(self, other) -> bool:
        return isinstance(other, Invocation) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def command_argv(self) -> tuple[str, ...]:
        """The exec argv that runs exactly `self.line`. `--` only before a line the shell could take for an
        option (one starting with - or +): otherwise the argv is the caller's own `NAME -c LINE ARGS` form
        (what /proc/PID/cmdline and ps show)."""
        end = ("--",) if self.line.startswith(("-", "+")) else ()
        return (self.argv0, *self.options, "-c", *end, self.line, *self.args)

    def source_argv(self, path: str) -> tuple[str, ...]:
        """The exec argv that runs the text held in `path` (a /dev/fd/N of what was read and checked).

        `$0` stays the script's name (or the shell's, for stdin) and `$1`... its arguments.
        """
        name = self.script if self.mode == SCRIPT else self.argv0
        return (self.argv0, *self.options, "-c", f". {path}", name, *self.args)

    def passthrough_argv(self) -> tuple[str, ...]:
        """The real shell exactly as asked for (interactive, or a run that only prints or refuses)."""
        return (self.argv0, *self.shell_words)

    def run_by(self, real_shell: str) -> "Invocation":
        """This invocation as `real_shell` receives it. Called by a shell's name, argv[0] stays the caller's
        (`bash`, `/bin/sh`, `-bash`); called as wispsh, the real shell gets its own name, as a caller configured
        with that shell would have called it (`bash`, `-bash` for a login dash): bash's `$0`, `$BASH` and its
        messages are then those of `bash -c`."""
        if self.shell_name is not None:
            return self
        dash = "-" if os.path.basename(self.argv0).startswith("-") else ""
        other = Invocation.__new__(Invocation)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.argv0 = dash + os.path.basename(real_shell)
        return other


def name_called_as(argv0: str) -> tuple[str, str | None, bool]:
    """(name, the real shell it picks or None for the default, login dash)."""
    base = os.path.basename(argv0)
    login_dash = base.startswith("-")
    name = base.lstrip("-")
    return name, (name if name in STANDS_IN_FOR else None), login_dash


def _own_options(words: list[str]) -> tuple[dict[str, bool], int]:
    seen = {option: False for option in OWN_OPTIONS}
    i = 0
    while i < len(words) and words[i] in OWN_OPTIONS:
        seen[words[i]] = True
        i += 1
    return seen, i


def grammar_of(real_shell: str) -> str:
    """The option grammar of the shell at this path (by what it resolves to: /bin/sh may be dash or bash)."""
    from wispsh.support.realpath import real

    base = os.path.basename(real(real_shell))
    if base.startswith("bash"):
        return BASH
    if base.startswith("zsh"):
        return ZSH
    return POSIX


def _default_grammar(shell_name: str | None) -> str:
    return {None: BASH, "bash": BASH, "zsh": ZSH}.get(shell_name, POSIX)


def parse(argv: list[str] | tuple[str, ...], *, stdin_is_tty: bool, grammar: str | None = None,
          argv0: str | None = None) -> Invocation:
    """Read argv as sh would (by `grammar`, default: the one the name picks). `argv[0]` is the file that was
    executed (its name picks the real shell); `argv0` what the caller used as argv[0], when that differs (the
    kernel replaces it by the path for a `#!` launcher: support/inherited.caller_argv0). Raises UsageError for
    wispsh's own misuse only."""
    if not argv:
        raise UsageError("empty argv")
    called_as, shell_name, _ = name_called_as(argv[0])
    argv0 = argv[0] if argv0 is None else argv0
    login_dash = os.path.basename(argv0).startswith("-")
    grammar = grammar or _default_grammar(shell_name)
    words = list(argv[1:])

    own = {option: False for option in OWN_OPTIONS}
    if shell_name is None:  # a shim named bash/sh/... must behave as that shell: `bash --version` is bash's
        own, used = _own_options(words)
        words = words[used:]
    common = dict(argv=tuple(argv), argv0=argv0, called_as=called_as, shell_name=shell_name,
                  shell_words=tuple(words), explain=own["--explain"], json=own["--json"], yes=own["--yes"],
                  grammar=grammar)
    if own["--help"]:
        return Invocation(mode=HELP, **common)
    if own["--version"]:
        return Invocation(mode=VERSION, **common)
    if own["--json"] and not own["--explain"]:
        raise UsageError("--json goes with --explain")

    options: list[str] = []
    clusters: list[int] = []  # indices into options of short option clusters (not their arguments)
    command = from_stdin = interactive = only_prints = False
    login = login_dash
    i = 0

    # Long options: bash reads them first, and only before any short option (`--x` or `-x`); zsh only `--x`.
    while grammar != POSIX and i < len(words):
        word = words[i]
        if not word.startswith("-") or word in END_OF_OPTIONS:
            break
        name = word[2:] if word.startswith("--") else word[1:]
        if not word.startswith("--") and (grammar != BASH or name not in LONG_OPTIONS):
            break  # a short option cluster
        options.append(word)
        i += 1
        login = login or name == "login"
        only_prints = only_prints or name in LONG_THAT_ONLY_PRINT
        with_argument = LONG_WITH_ARGUMENT if grammar == BASH else ZSH_LONG_WITH_ARGUMENT
        if name in with_argument and i < len(words):
            options.append(words[i])
            i += 1

    # Short option clusters: -lc, -c -l, -ec, -o NAME, +o NAME, -O SHOPT; `-` or `--` ends them.
    while i < len(words):
        word = words[i]
        if word in END_OF_OPTIONS:
            i += 1
            break
        if word[:1] not in ("-", "+"):
            break
        i += 1
        if word.startswith("--"):  # a long option after short ones: the real shell's to accept or refuse
            options.append(word)
            continue
        kept = []
        takes = 0
        ends = False
        for at, letter in enumerate(word[1:], start=1):
            if letter == "c":
                command = True
                continue
            if grammar == ZSH and letter == "b":
                if any(w in ("--emulate", "-emulate") for w in options):
                    # zsh's emulations read -b in ways that differ by position: not guessed, refused
                    raise UsageError("zsh --emulate with -b in the options is not supported")
                ends = True            # zsh: the options end after this cluster
                continue
            kept.append(letter)
            from_stdin = from_stdin or letter == "s"
            interactive = interactive or letter == "i"
            login = login or letter == "l"
            if grammar == ZSH and letter == "o" and word[at + 1:]:
                kept.append(word[at + 1:])   # -oNAME: the rest of the cluster is the option's name
                break
            takes += letter in (SHORT_WITH_ARGUMENT if grammar == BASH else "o")
        if kept or len(word) == 1:
            options.append(word[0] + "".join(kept))
            clusters.append(len(options) - 1)
        for _ in range(takes):
            if i < len(words):
                options.append(words[i])
                i += 1
        if ends:
            break
    operands = words[i:]

    common.update(options=tuple(options), login=login, interactive=interactive)
    if only_prints or (command and not operands):
        return Invocation(mode=PASSTHROUGH, **common)
    if command:
        return Invocation(mode=COMMAND, line=operands[0], args=tuple(operands[1:]), **common)
    if operands and not from_stdin:
        return Invocation(mode=SCRIPT, script=operands[0], args=tuple(operands[1:]), **common)
    if stdin_is_tty:
        if own["--explain"]:
            raise UsageError("--explain needs a line (-c LINE), a script file, or a script on stdin")
        return Invocation(mode=INTERACTIVE, args=tuple(operands), **common)
    # The text is read here and handed to the shell another way: -s goes (kept with -c: bash shows it in $-).
    for index in clusters:
        options[index] = options[index].replace("s", "")
    common["options"] = tuple(word for index, word in enumerate(options) if word not in ("-", "+")
                              or index not in clusters)
    return Invocation(mode=STDIN, args=tuple(operands), **common)


# ---------------------------------------------------------------- what the real shell runs besides the line

RC_OPTIONS = frozenset({"--rcfile", "-rcfile", "--init-file", "-init-file"})
NORC_OPTIONS = frozenset({"--norc", "-norc"})
# Shell functions hooked to events rather than called by name: exported, they run whatever the line says.
HOOK_FUNCTIONS = ("command_not_found_handle",)


def implicit_code(inv: Invocation, env: dict[str, str], real_shell: str, texts: tuple[str, ...]) -> tuple[str, ...]:
    """Code the real shell will run besides the checked text, written as lines to gate the same way.

    An agent can set these for the shells it starts (`BASH_ENV=f bash s.sh`, an exported function `ls`), and
    a nested wispsh sees only their result, so each is judged as what it does: sourcing a file (its value is
    expanded as the shell expands it), or the function's body when the text names it. The start-up files the
    shell reads by its own options are the user's (startup.py): only one that is not (not the user's,
    writable by others, or new in this session under a moved HOME) is judged, as `. 'FILE'`. Not judged
    (accepted): SHELLOPTS/BASHOPTS (options only), the debugger profile of --debugger/extdebug, and a
    start-up file that does not exist yet when we look (one written between our look and the shell's read
    runs unchecked).
    """
    from wispsh import startup
    from wispsh.support.realpath import real

    base = os.path.basename(real(real_shell))
    bash = base.startswith("bash")
    found: list[str] = []
    options = list(inv.options)
    norc = any(word in NORC_OPTIONS for word in options)
    for i, word in enumerate(options[:-1]):
        if word in RC_OPTIONS and inv.interactive and not norc:
            found.append(". " + _quoted(options[i + 1]))
    if bash and _xtrace(inv, env) and env.get("PS4"):
        found.append(": " + env["PS4"])            # expanded before every traced command
    for read in startup.read_by(inv, env, real_shell):
        if read.trusted:
            continue
        # $ENV / $BASH_ENV as the shell expands them (parameter, command and arithmetic expansion)
        found.append(". " + (read.path if read.why.startswith("$") else _quoted(read.path)))
    if bash:
        for name, value in env.items():
            if not (name.startswith("BASH_FUNC_") and name.endswith("%%")):
                continue
            function = name[len("BASH_FUNC_"):-2]
            if function in HOOK_FUNCTIONS or any(function in text for text in texts):
                found.append(f"{function} {value}")
    return tuple(found)


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _xtrace(inv: Invocation, env: dict[str, str]) -> bool:
    options = list(inv.options)
    for i, word in enumerate(options):
        if word[:1] == "-" and not word.startswith("--") and "x" in word[1:] and word[1:] not in LONG_OPTIONS:
            return True
        if word == "-o" and i + 1 < len(options) and options[i + 1] == "xtrace":
            return True
    return "xtrace" in env.get("SHELLOPTS", "").split(":")

