"""Hooks for programs that run a command given in their own words (`poetry run CMD…`, `op run -- CMD…`,
`nsenter -t PID CMD…`): the words are judged as that command, or as code known only at run time."""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import emits


def hand_on(cmd, words, rule: str) -> None:
    """Judge `words` as a command of their own; a program known only at run time is code the gate cannot read."""
    if words and UNKNOWN not in words[0]:
        cmd.fired.add(rule)
        cmd.delegate_to = list(words)
    elif words:
        cmd.does("run-code", "runs.runtime-program", f"{cmd.name} runs a program known only at run time")


@emits({"runs.command": ["poetry run pytest", "bundle exec rspec", "conda run -n x make"],
        "runs.runtime-program": ['poetry run "$T"']})
def runs_operands(cmd, o) -> None:
    """Every operand is the command: `poetry run CMD…`, `bundle exec CMD…`, `op run -- CMD…`."""
    hand_on(cmd, o.operands, "runs.command")
