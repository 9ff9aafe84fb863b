"""The one policy: how bad each effect is. Program tables say what a program does (`does="publish"`); only
this file turns that into a level. Paths are judged by the class of the place (places.py) and the action.

Rules of thumb (levels.md): the worst part decides; code the gate cannot read is high; what cannot be undone,
takes privilege, leaks secrets, plants persistence or tampers with the gate is dangerous.
"""
from __future__ import annotations

from wispsh.model import Level
from wispsh.policy import places as P

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

# effect kind -> (level, what it means). A row's `does` must be one of these keys.
EFFECTS: dict[str, tuple[Level, str]] = {
    "nothing": (S, "prints or reads inside the project"),
    "inspect": (L, "reads facts outside the project (system, cluster, cloud, remote), changes nothing"),
    "create": (L, "creates something new without overwriting (a branch, a tag, an archive, a link)"),
    "local-config": (M, "changes a local setting that steers no program (a remote, a key in the agent)"),
    "change": (M, "changes the project's files or repository"),
    "run-project": (M, "runs the project's own code (tests, builds, scripts)"),
    "fetch": (M, "reads the network"),
    "data": (M, "changes data a service holds: rows or schema in a database, a resource behind an API (POST, PUT)"),
    "install": (M, "installs from the registry"),
    "session": (M, "starts a shell or session"),
    "serve": (M, "serves the project's files on a port (a development server)"),
    "local-service": (M, "starts, stops or changes local containers, machines or background services"),
    "unknown": (M, "a program or verb the gate does not know"),
    "hunt": (M, "searches files for secrets and prints what it finds (over the project; over the home or / it "
                "reads the secrets there)"),
    "discard": (H, "throws away work that cannot be recovered, within the project"),
    "publish": (H, "publishes work where others see it (push, release, publish)"),
    "send": (H, "sends data off this machine"),
    "remote": (H, "runs commands on another machine"),
    "expose": (H, "opens this machine to the network (listens, tunnels, raw sockets)"),
    "run-code": (H, "runs code or a program the gate cannot read"),
    "run-unpinned": (H, "runs a registry package that is not pinned"),
    "install-outside": (H, "installs code from outside the registry or the project"),
    "steer": (H, "changes what a tool runs or where it installs from"),
    "system": (H, "changes the running system (services, network, mounts, packages, kernel settings)"),
    "infra": (H, "changes things outside the project (cluster, cloud, infrastructure)"),
    "remove": (H, "deletes bounded things outside the project (cluster resources, cloud objects, releases)"),
    "kill": (H, "signals processes"),
    "root": (H, "runs as root"),
    "secret": (H, "reads or prints a secret"),
    "debug": (H, "attaches to other programs or captures their traffic"),
    "shell-state": (H, "changes what later commands of this shell run (aliases, functions, builtins)"),
    "agent": (H, "starts an AI agent: it runs commands of its own choosing"),
    "destroy": (D, "destroys what cannot be recovered (remote history, databases, disks, infrastructure)"),
    "privilege": (D, "takes or grants privilege"),
    "persist": (D, "plants something that runs on its own later"),
    "leak": (D, "sends secrets off this machine"),
    "backdoor": (D, "gives someone on the network a shell on this machine (reverse or bind shells)"),
    "run-fetched": (D, "runs code fetched from the network"),
    "install-foreign": (D, "installs from a foreign index, URL or repository: its build scripts run unreviewed"),
    "weaken": (D, "turns off a protection (firewall, security service, kernel hardening, isolation)"),
    "credentials": (D, "changes passwords or mints credentials"),
    "halt": (D, "stops the machine or every process"),
    "gate": (D, "tampers with the gate itself"),
    "agent-ungated": (D, "starts an AI agent with its own approvals off: it runs whatever its prompt says, unasked"),
}

# A user's table may raise any finding and lower most; never these: the gate's own integrity.
UNLOWERABLE = frozenset({"gate"})
UNLOWERABLE_PLACES = frozenset({P.WISP, P.WISP_KEY})

# What each action on each class of place is worth. `list` names entries (ls, tree, stat); `read` reads
# contents: what an agent reads goes into its context and on to a model provider, so secrets are high to read
# and low to list. `send` sends a file's contents off this machine (curl -T F, -d @F, scp F host:, mail -a F,
# gh gist create F): any file is high, a secret, shell config, the gate's files or a whole tree dangerous.
ACTIONS = ("list", "read", "write", "create", "delete", "delete-tree", "mode", "send")
PATHS = {
    #                          list read write create delete tree mode send
    P.HARMLESS:               (S,   S,   S,    S,     L,     L,   L,   S),
    P.NETDEV:                 (H,   H,   H,    H,     H,     H,   H,   H),
    P.WISP:                   (L,   L,   D,    D,     D,     D,   D,   D),
    P.WISP_KEY:               (L,   D,   D,    D,     D,     D,   D,   D),
    P.GIT_INTERNAL:           (S,   S,   D,    D,     D,     D,   D,   H),
    P.ROOT:                   (L,   L,   H,    L,     D,     D,   D,   D),
    P.HOME:                   (L,   L,   H,    L,     D,     D,   D,   D),
    P.ANCESTOR:               (L,   L,   H,    L,     D,     D,   D,   D),
    P.PROJECT_ROOT:           (S,   S,   M,    L,     H,     H,   M,   H),
    P.AGENT_CONTROL:          (S,   S,   D,    M,     H,     H,   H,   H),
    P.AGENT_INSTRUCTIONS:     (S,   S,   H,    M,     M,     H,   M,   H),
    P.PROJECT_CONFIG:         (S,   S,   H,    M,     M,     H,   M,   H),
    P.PROJECT:                (S,   S,   M,    L,     M,     H,   M,   H),
    P.PROJECT_SECRET:         (L,   H,   M,    L,     M,     H,   M,   D),
    P.SECRET:                 (L,   H,   D,    H,     D,     D,   H,   D),
    P.DOTFILE:                (L,   L,   D,    H,     D,     D,   H,   D),
    P.HOME_OTHER:             (L,   L,   H,    L,     H,     H,   H,   H),
    P.TEMP:                   (S,   S,   L,    L,     L,     H,   L,   H),
    P.DEVICE:                 (L,   H,   D,    H,     D,     D,   D,   D),
    P.SYSTEM:                 (L,   L,   D,    H,     D,     D,   D,   H),
    P.OUTSIDE:                (L,   L,   H,    M,     H,     H,   H,   H),
    P.UNKNOWN_PLACE:          (S,   S,   H,    M,     H,     H,   H,   H),
}
_COLUMN = {action: i for i, action in enumerate(ACTIONS)}


def level_of(kind: str) -> Level:
    """The level of an effect kind; an unknown kind is a bug in a table (caught by the table tests)."""
    return EFFECTS[kind][0]


def path_level(action: str, cls: str) -> Level:
    return PATHS[cls][_COLUMN[action]]


# ---------------------------------------------------------------- what a standing approval covers

# A standing approval covers a later part only when the part does nothing of another kind than the part it was
# granted for (decide/gate.py: its effects at the threshold or above are among the grant's). An approval stored
# without a record of its effects (granted before they were recorded, or added by hand with `wisp approvals
# add`) covers the effects of ordinary work only: everything but these kinds, which read or move secrets, run
# code the gate cannot read, steer tools, start agents or plant things; and of the path effects, only those on
# the project, temporary directories and harmless devices (`rm -rf build`, `> out.txt`), and running the
# project's or the system's own code. Anything else asks again.
NOT_ORDINARY = frozenset({"secret", "send", "leak", "run-code", "run-fetched", "run-unpinned", "install-foreign",
                          "steer", "debug", "expose", "remote", "backdoor", "credentials", "privilege", "persist",
                          "gate", "weaken", "agent", "agent-ungated", "hunt", "shell-state"})
ORDINARY_PLACES = frozenset({"project", "project-root", "temp", "harmless-device"})
ORDINARY_RULES = frozenset({"path.run.system", "path.build.system"})


def ordinary(effect: str) -> bool:
    """Whether an effect (model.Finding.effect) is one an approval without a record of its effects covers."""
    if effect in EFFECTS:
        return effect not in NOT_ORDINARY
    if effect in ORDINARY_RULES:
        return True
    if effect.startswith("path."):
        pieces = effect.split(".")
        return len(pieces) == 3 and pieces[1] not in ("send", "embed") and pieces[2] in ORDINARY_PLACES
    return False


PATH_ACTION_WORDS = {"list": "lists", "read": "reads", "write": "writes", "create": "creates", "delete": "deletes in",
                     "delete-tree": "deletes whole trees of", "mode": "changes modes in", "send": "sends",
                     "embed": "puts into its output", "run": "runs code from", "build": "builds", "read-tree":
                     "reads every file of", "unpack": "extracts into"}


def effect_words(effect: str) -> str:
    """An effect as the dialog says it ("reads the network", "writes the project"); an id it has no words for
    as it is."""
    if effect in EFFECTS:
        return EFFECTS[effect][1]
    pieces = effect.split(".")
    if len(pieces) == 3 and pieces[0] == "path" and pieces[1] in PATH_ACTION_WORDS:
        place = next((cls for cls, short in P.CLASS_IDS.items() if short == pieces[2]), pieces[2])
        return f"{PATH_ACTION_WORDS[pieces[1]]} {place}"
    return effect
