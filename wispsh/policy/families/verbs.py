"""Multiplexer programs without a family rule of their own, judged by their verb from one table."""
from __future__ import annotations

from wispsh.model import Level
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

READ_VERBS = frozenset({
    "list", "ls", "show", "status", "info", "version", "--version", "help", "--help", "view", "get", "describe",
    "search", "log", "diff", "which", "current", "outdated", "env", "read", "print", "cat", "config-get",
    "whoami", "doctor", "check", "list-installed", "versions", "where", "query", "inspect", "tree", "annotate",
    "blame", "summary", "st", "stat", "heads", "branches", "tags", "incoming", "outgoing", "identify", "id",
    "logs", "top", "monit", "addr", "address", "route", "link", "neigh", "a", "r", "l", "-s", "-j", "-br",
})
DESTROY_VERBS = frozenset({
    "delete", "remove", "rm", "destroy", "uninstall", "prune", "purge", "drop", "kill", "kill-server", "reset",
    "clean", "strip", "obliterate", "revert", "abandon", "flush", "vacuum", "del", "erase", "unset",
})
PUBLISH_VERBS = frozenset({"publish", "push", "deploy", "release", "upload", "commit", "ci", "send", "share"})
# (program, verb) pairs worth more than their verb's tier
SPECIAL = {
    ("vagrant", "destroy"): (H, "destroys the virtual machine"),
    ("hg", "strip"): (H, "hg strip removes history"),
    ("svn", "commit"): (H, "svn commit publishes to the server"),
    ("jj", "git"): (M, "jj git exchanges with a git remote"),
    ("ip", "flush"): (H, "flushes network configuration"),
    ("defaults", "write"): (M, "changes a macOS preference"),
    ("defaults", "delete"): (M, "deletes a macOS preference"),
    ("nix", "run"): (M, "nix run fetches and runs a package"),
    ("pm2", "start"): (M, "starts a background process"),
    ("tmux", "send-keys"): (H, "tmux send-keys types commands into another shell"),
    ("tmux", "new-session"): (M, "starts a detached shell"),
    ("tmux", "new"): (M, "starts a detached shell"),
    ("journalctl", "--vacuum-time"): (H, "deletes system logs"),
    ("journalctl", "--vacuum-size"): (H, "deletes system logs"),
    ("journalctl", "--rotate"): (M, "rotates system logs"),
}


def multiplexer(c: Cmd) -> None:
    words = [a for a in c.args if a and not (a.startswith("-") and c.name not in ("ip", "journalctl"))]
    verb = words[0] if words else (c.args[0] if c.args else "")
    if c.name == "journalctl":
        for arg in c.args:
            name = arg.split("=", 1)[0]
            if (c.name, name) in SPECIAL:
                c.at_least(*SPECIAL[(c.name, name)])
        return
    if UNKNOWN in verb:
        c.at_least(H, f"{c.name} verb known only at run time")
        return
    special = SPECIAL.get((c.name, verb))
    if special:
        c.at_least(*special)
        return
    if c.name == "ip":
        if any(a in ("add", "del", "delete", "change", "replace", "set", "flush", "append") for a in c.args):
            c.at_least(H, "changes network configuration")
        return
    if not verb or verb in READ_VERBS:
        return
    if verb in DESTROY_VERBS:
        c.at_least(H, f"{c.name} {verb} deletes or resets something")
        if any(a in ("--force", "-f", "--all", "-a") for a in c.args) and c.name in ("vagrant", "pm2", "tmux"):
            c.at_least(H, f"{c.name} {verb} --force")
        return
    if verb in PUBLISH_VERBS:
        c.at_least(H, f"{c.name} {verb} publishes")
        if any(a in ("--force", "-f") for a in c.args) and verb == "push":
            c.at_least(D, f"{c.name} push --force overwrites the remote")
        return
    c.at_least(M, f"{c.name} {verb}")


PROGRAMS = ("glab", "hg", "svn", "jj", "tea", "git-lfs", "rustup", "corepack", "dotnet", "mvn", "gradle", "gradlew",
            "swift", "flutter", "dart", "mix", "cabal", "stack", "opam", "pyenv", "rbenv", "asdf", "mise", "kind",
            "k3d", "packer", "vagrant", "ansible-galaxy", "ansible-vault", "supabase", "journalctl", "nmcli",
            "defaults", "just", "nix", "ip", "tmux", "pm2")
RULES = {name: multiplexer for name in PROGRAMS}
