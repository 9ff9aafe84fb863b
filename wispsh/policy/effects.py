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
    "install": (M, "installs from the registry"),
    "session": (M, "starts a shell or session"),
    "unknown": (M, "a program or verb the gate does not know"),
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
    "destroy": (D, "destroys what cannot be recovered (remote history, databases, disks, infrastructure)"),
    "privilege": (D, "takes or grants privilege"),
    "persist": (D, "plants something that runs on its own later"),
    "leak": (D, "sends secrets off this machine"),
    "run-fetched": (D, "runs code fetched from the network"),
    "install-foreign": (D, "installs from a foreign index, URL or repository: its build scripts run unreviewed"),
    "weaken": (D, "turns off a protection (firewall, security service, kernel hardening, isolation)"),
    "credentials": (D, "changes passwords or mints credentials"),
    "halt": (D, "stops the machine or every process"),
    "gate": (D, "tampers with the gate itself"),
}

# A user's table may raise any finding and lower most; never these: the gate's own integrity.
UNLOWERABLE = frozenset({"gate"})
UNLOWERABLE_PLACES = frozenset({P.WISP, P.WISP_KEY})

# What each action on each class of place is worth.
WRITE = {
    P.HARMLESS: S, P.NETDEV: H, P.WISP: D, P.WISP_KEY: D, P.GIT_INTERNAL: D, P.ROOT: H, P.HOME: H, P.ANCESTOR: H,
    P.PROJECT_ROOT: M, P.PROJECT_CONFIG: H, P.PROJECT: M, P.PROJECT_SECRET: M, P.SECRET: D, P.DOTFILE: D,
    P.HOME_OTHER: H, P.TEMP: L, P.DEVICE: D, P.SYSTEM: D, P.OUTSIDE: H, P.UNKNOWN_PLACE: H,
}
CREATE = {   # mkdir, touch: creating without overwriting
    P.HARMLESS: S, P.NETDEV: H, P.WISP: D, P.WISP_KEY: D, P.GIT_INTERNAL: D, P.ROOT: L, P.HOME: L, P.ANCESTOR: L,
    P.PROJECT_ROOT: L, P.PROJECT_CONFIG: M, P.PROJECT: L, P.PROJECT_SECRET: L, P.SECRET: H, P.DOTFILE: H,
    P.HOME_OTHER: L, P.TEMP: L, P.DEVICE: H, P.SYSTEM: H, P.OUTSIDE: M, P.UNKNOWN_PLACE: M,
}
DELETE = {
    P.HARMLESS: L, P.NETDEV: H, P.WISP: D, P.WISP_KEY: D, P.GIT_INTERNAL: D, P.ROOT: D, P.HOME: D, P.ANCESTOR: D,
    P.PROJECT_ROOT: H, P.PROJECT_CONFIG: M, P.PROJECT: M, P.PROJECT_SECRET: M, P.SECRET: D, P.DOTFILE: D,
    P.HOME_OTHER: H, P.TEMP: L, P.DEVICE: D, P.SYSTEM: D, P.OUTSIDE: H, P.UNKNOWN_PLACE: H,
}
DELETE_TREE = {
    P.HARMLESS: L, P.NETDEV: H, P.WISP: D, P.WISP_KEY: D, P.GIT_INTERNAL: D, P.ROOT: D, P.HOME: D, P.ANCESTOR: D,
    P.PROJECT_ROOT: H, P.PROJECT_CONFIG: H, P.PROJECT: H, P.PROJECT_SECRET: H, P.SECRET: D, P.DOTFILE: D,
    P.HOME_OTHER: H, P.TEMP: H, P.DEVICE: D, P.SYSTEM: D, P.OUTSIDE: H, P.UNKNOWN_PLACE: H,
}
READ = {
    P.HARMLESS: S, P.NETDEV: H, P.WISP: L, P.WISP_KEY: D, P.GIT_INTERNAL: S, P.ROOT: L, P.HOME: L, P.ANCESTOR: L,
    P.PROJECT_ROOT: S, P.PROJECT_CONFIG: S, P.PROJECT: S, P.PROJECT_SECRET: L, P.SECRET: L, P.DOTFILE: L,
    P.HOME_OTHER: L, P.TEMP: S, P.DEVICE: H, P.SYSTEM: L, P.OUTSIDE: L, P.UNKNOWN_PLACE: S,
}
MODE = {   # chmod, chown, chattr, setfacl
    P.HARMLESS: L, P.NETDEV: H, P.WISP: D, P.WISP_KEY: D, P.GIT_INTERNAL: D, P.ROOT: D, P.HOME: D, P.ANCESTOR: D,
    P.PROJECT_ROOT: M, P.PROJECT_CONFIG: M, P.PROJECT: M, P.PROJECT_SECRET: M, P.SECRET: H, P.DOTFILE: H,
    P.HOME_OTHER: H, P.TEMP: L, P.DEVICE: D, P.SYSTEM: D, P.OUTSIDE: H, P.UNKNOWN_PLACE: H,
}
PATH_ACTIONS = {"read": READ, "write": WRITE, "create": CREATE, "delete": DELETE, "delete-tree": DELETE_TREE,
                "mode": MODE}


def level_of(kind: str) -> Level:
    """The level of an effect kind; an unknown kind is a bug in a table (caught by the table tests)."""
    return EFFECTS[kind][0]


def path_level(action: str, cls: str) -> Level:
    return PATH_ACTIONS[action][cls]
