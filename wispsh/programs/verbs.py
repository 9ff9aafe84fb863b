"""Multiplexers without a table of their own (hg, svn, jj, glab, mvn, gradle, dotnet, rustup, vagrant, pm2, …),
judged by their verb's tier: reading verbs read, destroying verbs discard, publishing verbs publish, the
rest are moderate. Programs whose verbs mean something particular have their own table below: ip (netns exec
runs a command), journalctl, defaults. tmux and nix are the runners' (they run commands)."""
from __future__ import annotations

from wispsh.programs.delegate import hand_on
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb

READ_VERBS = frozenset({
    "list", "ls", "show", "status", "info", "version", "help", "view", "get", "describe", "search", "log", "diff",
    "which", "current", "outdated", "env", "read", "print", "cat", "config-get", "whoami", "doctor", "check",
    "list-installed", "versions", "where", "query", "inspect", "tree", "annotate", "blame", "summary", "st", "stat",
    "heads", "branches", "tags", "incoming", "outgoing", "identify", "id", "logs", "top", "monit",
})
DESTROY_VERBS = ("delete", "remove", "rm", "destroy", "uninstall", "prune", "purge", "drop", "kill", "kill-server",
                 "reset", "clean", "strip", "obliterate", "revert", "abandon", "flush", "vacuum", "del", "erase",
                 "unset")
PUBLISH_VERBS = ("publish", "deploy", "release", "upload", "commit", "ci", "send", "share")

DESTROYS = verb(rows=(Row("verbs.destroys", "discard", "{cmd} deletes or resets something",
                          examples=("hg strip 1", "vagrant destroy", "mvn clean")),))
PUBLISHES = verb(rows=(Row("verbs.publishes", "publish", "{cmd} publishes", examples=("svn commit -m x", "glab release create v1")),))
PUSHES = verb(grammar=Grammar(longs=("force",)), rows=(
    Row("verbs.push", "publish", "{cmd} publishes", examples=("hg push",)),
    Row("verbs.push.force", "destroy", "{cmd} --force overwrites the remote", When(flag=("force", "f")),
        examples=("hg push --force", "hg push -f"))))
TIERS = {**dict.fromkeys(DESTROY_VERBS, DESTROYS), **dict.fromkeys(PUBLISH_VERBS, PUBLISHES), "push": PUSHES}

GENERIC = Program(
    "glab", aliases=("hg", "svn", "jj", "tea", "git-lfs", "rustup", "corepack", "dotnet", "mvn", "gradle", "gradlew",
                     "swift", "flutter", "dart", "mix", "cabal", "stack", "opam", "pyenv", "rbenv", "asdf", "mise",
                     "kind", "k3d", "packer", "vagrant", "ansible-galaxy", "ansible-vault", "supabase", "nmcli", "just"),
    doc="multiplexers judged by their verb's tier",
    verbs=TIERS, read_only=READ_VERBS,
    default=Row("verbs.verb", "unknown", "{cmd}", examples=("mvn package", "jj git push")),
    examples={"hg status": "safe", "mvn -q -DskipTests package": "moderate", "hg push --force": "dangerous"},
)


PM2 = Program(
    "pm2", doc="a process manager; startup installs it as a boot service",
    verbs={**TIERS, **dict.fromkeys(("startup", "unstartup"), verb(rows=(
        Row("pm2.startup", "persist", "pm2 startup makes saved processes start at boot (persistence)",
            examples=("pm2 startup", "pm2 startup systemd")),)))},
    read_only=READ_VERBS,
    default=Row("pm2.verb", "local-service", "{cmd}", examples=("pm2 start app.js", "pm2 save")),
)


IP_CHANGES = ("add", "del", "delete", "change", "replace", "set", "flush", "append")


@emits({"ip.netns-exec": ["ip netns exec x rm -rf ~", "ip -n x netns exec y ls"]})
def netns_exec(cmd, o) -> None:
    """`ip netns exec NAME CMD…` runs CMD inside the network namespace NAME."""
    words = o.operands
    for i in range(len(words) - 1):
        if words[i] == "netns" and words[i + 1] == "exec":
            cmd.does("root", "ip.netns-exec", "ip netns exec runs a command in another network namespace")
            hand_on(cmd, words[i + 3:], "ip.netns-exec")
            return


IP = Program(
    "ip", doc="network interfaces, addresses and routes",
    grammar=Grammar(values="n", long_values=("netns", "family", "batch")),
    rows=(Row("ip.changes", "system", "changes network configuration", When(operand=IP_CHANGES),
              examples=("ip route add default via 1.2.3.4", "ip addr flush dev eth0")),),
    hook=netns_exec,
    examples={"ip a": "safe", "ip -br a": "safe", "ip route": "safe"},
)

JOURNALCTL = Program(
    "journalctl", doc="reads the system journal; --vacuum-* deletes from it",
    grammar=Grammar(values="unpSUtoDMIF", long_values=("unit", "user-unit", "lines", "priority", "since", "until",
                                                        "identifier", "output", "directory", "file", "machine",
                                                        "vacuum-size", "vacuum-time", "vacuum-files", "grep",
                                                        "cursor", "after-cursor", "boot")),
    rows=(Row("journalctl.vacuum", "remove", "deletes system logs",
              When(value=("vacuum-size", "vacuum-time", "vacuum-files")), examples=("journalctl --vacuum-time=1d",)),
          Row("journalctl.rotate", "local-service", "rotates system logs", When(flag=("rotate",)),
              examples=("journalctl --rotate",))),
    examples={"journalctl -u nginx": "safe", "journalctl --user -u myapp -n 50": "safe"},
)

LOGIN_HOOKS = frozenset({"LoginHook", "LogoutHook"})


@emits({"defaults.login-hook": ["defaults write com.apple.loginwindow LoginHook /tmp/x.sh",
                                "sudo defaults write com.apple.loginwindow LogoutHook /Users/x/.h"]})
def login_hook(cmd, o) -> None:
    """com.apple.loginwindow LoginHook/LogoutHook: a script run as root at every login or logout."""
    if LOGIN_HOOKS & set(o.operands):
        cmd.does("persist", "defaults.login-hook", "defaults write sets a script that runs as root at every login "
                                                   "(persistence)")


DEFAULTS = Program(
    "defaults", doc="macOS preferences",
    verbs={"write": verb(hook=login_hook, rows=(Row("defaults.write", "local-config", "changes a macOS preference",
                                                    examples=("defaults write com.apple.x y -bool true",)),)),
           "delete": verb(rows=(Row("defaults.delete", "local-config", "deletes a macOS preference",
                                    examples=("defaults delete com.apple.x",)),))},
    read_only=("read", "read-type", "domains", "find", "help"),
    default=Row("defaults.verb", "unknown", "{cmd}", examples=("defaults import x p.plist",)),
)

PROGRAMS = programs(GENERIC, PM2, IP, JOURNALCTL, DEFAULTS)
