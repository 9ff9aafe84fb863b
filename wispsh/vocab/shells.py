"""Shells by name: one list of every shell the gate knows, and the named parts of it each reader needs."""
from __future__ import annotations

# The shells whose literal -c code the splitter splits into parts of its own (the others' code a rule judges).
SPLIT_AS_SH = ("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "rbash", "fish", "oksh", "wispsh")
# Shells whose -c code is another language than sh's: read as sh it may say less than it does.
OTHER_LANGUAGE = frozenset({"nu", "xonsh", "elvish", "ion", "rc"})
# Every program that is a shell: it runs its -c words, its script operand or its input as code.
SHELLS = frozenset({*SPLIT_AS_SH, *OTHER_LANGUAGE, "ksh93", "pdksh", "csh", "tcsh", "loksh", "busybox-sh",
                    "sash"}) - {"wispsh"}
# Shells whose approval key is read from their own options (`-c`, `-s`): sh-like ones, and pwsh/powershell's `-c`.
KEYED = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "tcsh", "csh", "pwsh",
                   "powershell"})
# Processes that stand between an agent and the gate (a shell it started, busybox's, the gate itself).
BETWEEN = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ksh93", "ash", "busybox", "fish", "tcsh", "csh",
                     "yash", "wispsh"})
# The names wispsh answers to (argv[0], shims): the shells it stands in for.
STANDS_IN_FOR = ("bash", "sh", "zsh", "dash", "ksh")
# The shells `wisp run` binds the gate over inside its namespace (every one a tool may find on a system path).
BOUND_IN_SANDBOX = ("sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "rbash")
# The names Codex takes a password-file shell under (its shell tool is bash, zsh or sh).
CODEX_NAMES = ("bash", "zsh", "sh")
