"""The gate's own commands: an agent that answers its own questions or edits its approvals has no gate.

`wispsh --yes` answers every question of the line it runs; `wisp approvals add/revoke/clear` change what runs
without asking; `wisp shims` changes which shell the agents run; `wisp watch` is where a person answers. What only reads or prints (explain, audit, doctor, approvals list, rules show) is quiet. A wisp verb the
table does not know is unknown (moderate), never quiet: the gate's own CLI grows, and fails closed.
"""
from __future__ import annotations

from wispsh.programs.grammar import Options
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb


@emits({"wispsh.yes": ["wispsh --yes -c 'git push'", "wispsh --explain --yes -c ls"]})
def wispsh_options(cmd, o: Options) -> None:
    """wispsh's own options come first, before the shell's: --yes anywhere among them answers for the person."""
    for word in o.args:
        if word == "--yes":
            cmd.does("gate", "wispsh.yes", "wispsh --yes answers the gate's questions itself")
        if not word.startswith("--"):
            break


# The command `wisp run` runs is judged as itself (inside, only the shells are gated).
@emits({"wisp.run": ["wisp run claude", "wisp run --protect ~/x rm -rf ~"]})
def wisp_run(cmd, o: Options) -> None:
    """wisp run [--watch-pane] [--protect PATH] PROGRAM…: PROGRAM runs in the gate's namespace."""
    words = list(o.operands)
    if words[:1] == ["--"]:
        words = words[1:]
    if words:
        cmd.fired.add("wisp.run")
        cmd.delegate_to = words


APPROVALS = verb(
    grammar=Grammar(long_values=("scope", "dir", "level")),
    read_only=("list",),
    verbs={name: verb(rows=(Row(f"wisp.approvals.{name}", "gate",
                                f"wisp approvals {name} changes what the gate lets run without asking",
                                examples=(f"wisp approvals {name} x",)),))
           for name in ("add", "revoke", "clear")},
    default=Row("wisp.approvals.verb", "gate", "{cmd} is not a wisp approvals command the gate knows",
                examples=("wisp approvals frobnicate",)),
)
SHIMS = verb(
    read_only=("list",),
    verbs={"install": verb(rows=(Row("wisp.shims.install", "steer", "wisp shims changes which shell agents run",
                                     examples=("wisp shims install",)),)),
           "remove": verb(rows=(Row("wisp.shims.remove", "steer", "wisp shims remove takes the gate away from the "
                                                                  "agents' shells",
                                    examples=("wisp shims remove",)),))},
    default=Row("wisp.shims.verb", "steer", "{cmd} changes which shell agents run", examples=("wisp shims x",)),
)

WISP = Program(
    "wisp", doc="the gate's CLI",
    verbs={"approvals": APPROVALS, "shims": SHIMS,
           "watch": verb(rows=(Row("wisp.watch", "run-code", "wisp watch answers approval questions: only a person "
                                                             "may run it", examples=("wisp watch",)),)),
           "run": verb(grammar=Grammar(long_values=("protect",), longs=("watch-pane",), stop=True), hook=wisp_run,
                       rows=(Row("wisp.run.session", "session", "wisp run starts a program in the gate's namespace",
                                 When(operands=True), examples=("wisp run claude",)),)),
           "rules": verb(read_only=("show", "check", "list"),
                         default=Row("wisp.rules.verb", "unknown", "{cmd} is not a wisp rules command the gate knows",
                                     examples=("wisp rules edit",)))},
    read_only=("explain", "audit", "doctor", "help", "version"),
    # the gate's own CLI fails closed as it grows: a verb it does not know may change what the gate allows
    default=Row("wisp.verb", "gate", "{cmd} is not a wisp command the gate knows (the gate's own CLI is not the "
                                    "agent's to try)", examples=("wisp frobnicate", "wisp allow 'git push --force'")),
    examples={"wisp approvals add 'rm *'": "dangerous", "wisp approvals list": "safe", "wisp approvals": "safe",
              "wisp explain 'rm -rf ~'": "safe", "wisp shims remove": "high", "wisp watch": "high"},
)
WISPSH = Program("wispsh", doc="the gate as a shell; its literal -c code is split like any shell's",
                 hook=wispsh_options,
                 examples={"wispsh --yes -c 'ls'": "dangerous", "wispsh -c 'ls'": "safe"})

PROGRAMS = programs(WISP, WISPSH)
