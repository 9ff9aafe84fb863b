"""The gate's own commands: an agent that answers its own questions or edits its approvals has no gate."""
from __future__ import annotations

from wispsh.model import Level
from wispsh.policy.cmd import Cmd

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

# wisp verb -> (level, reason); verbs not listed only read or print
WISP_VERBS = {
    "approvals": None,      # decided by its sub-verb below
    "shims": (H, "wisp shims changes which shell agents run"),
    "watch": (H, "wisp watch answers approval questions: only a person may run it"),
}
APPROVALS_CHANGES = {"add", "revoke", "clear"}


def wispsh(c: Cmd) -> None:
    # its own options come before the sh options; --yes answers every question of the line it runs
    for word in c.args:
        if word in ("--yes",):
            c.at_least(D, "wispsh --yes answers the gate's questions itself")
        if not word.startswith("--"):
            break


def wisp(c: Cmd) -> None:
    verbs = [a for a in c.args if a and not a.startswith("-")]
    if not verbs:
        return
    if verbs[0] == "approvals":
        if len(verbs) > 1 and verbs[1] in APPROVALS_CHANGES:
            c.at_least(D, f"wisp approvals {verbs[1]} changes what the gate lets run without asking")
        return
    found = WISP_VERBS.get(verbs[0])
    if found:
        c.at_least(*found)


RULES = {"wispsh": wispsh, "wisp": wisp}
