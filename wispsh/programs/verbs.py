"""Multiplexers without a table of their own (hg, svn, jj, rustup, vagrant, lxc, …), judged by their verb's
tier: reading verbs read, destroying verbs discard, publishing verbs publish, the rest are moderate. Programs
whose verbs mean something particular have their own table below: Maven and Gradle (the rest builds), glab,
pm2, ip (netns exec runs a command), journalctl, defaults. tmux and nix are the runners' (they run commands)."""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs.delegate import hand_on
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb

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
                          examples=("hg strip 1", "vagrant destroy", "svn delete x")),))
def _local(word: str) -> bool:
    return word.startswith(("/", "~", "./", "../")) and "\x00" not in word


@emits({"verbs.sends-secret": ["vagrant upload ~/.ssh/id_rsa /tmp/k", "svn commit ~/.aws/credentials -m x"]})
def sends_secrets(cmd, o) -> None:
    """A publishing verb's local operands leave the machine (`vagrant upload F`, `svn commit F`): a secret
    among them is sent (levels.md: sending secrets anywhere is dangerous)."""
    for word in o.operands:
        if _local(word) and cmd.place(word).cls in places.SECRET_CLASSES:
            cmd.fired.add("verbs.sends-secret")
            cmd.send(word, f"{cmd.name} sends")


@emits({"verbs.copies-in": ["lxc file push ~/.ssh/id_rsa c1/root/k", "multipass transfer ./a.txt vm:/tmp/a.txt",
                            "incus file push -r ./src c1/srv/"],
        "verbs.copies-out": ["lxc file pull c1/etc/hosts ./hosts", "multipass transfer vm:/var/log/syslog ./syslog"]})
def copies_machine(cmd, o) -> None:
    """`lxc|incus file push SRC… DEST`, `multipass transfer SRC… DEST`: host files copied into a container or
    a VM (a secret among them is sent: levels.md), or out of one (the destination written)."""
    words = list(o.operands)
    pull = "pull" in cmd.args[:2] or cmd.name == "multipass" and bool(words) and ":" not in words[-1].split("/", 1)[0]
    if not words:
        return
    if pull:
        cmd.fired.add("verbs.copies-out")
        cmd.write(words[-1])
        return
    cmd.fired.add("verbs.copies-in")
    for word in words[:-1]:
        if cmd.place(word).cls in places.SECRET_CLASSES:
            cmd.send(word, f"{cmd.name} copies into a machine")
        else:
            cmd.read(word)


PUBLISHES = verb(rows=(Row("verbs.publishes", "publish", "{cmd} publishes",
                           examples=("svn commit -m x", "vagrant share")),),
                 hook=sends_secrets)
COPIES = verb(grammar=Grammar(values="gumo", long_values=("gid", "uid", "mode", "type", "project")),
              rows=(Row("verbs.copies", "local-service", "{cmd} copies files to or from a container or VM",
                        examples=("multipass transfer ./a vm:/tmp/a",)),), hook=copies_machine)
FILES = verb(verbs={"push": COPIES, "pull": COPIES},
             default=Row("verbs.file", "unknown", "{cmd}", examples=("lxc file edit c1/etc/hosts",)))
PUSHES = verb(grammar=Grammar(longs=("force",)), rows=(
    Row("verbs.push", "publish", "{cmd} publishes", examples=("hg push",)),
    Row("verbs.push.force", "destroy", "{cmd} --force overwrites the remote", When(flag=("force", "f")),
        examples=("hg push --force", "hg push -f"))))
@emits({"verbs.cat.fetches": ["svn cat https://x.example/svn/trunk/i.sh", "hg cat -r tip https://x.example/r f"]})
def cat_url(cmd, o) -> None:
    """`svn cat URL`: what it prints came from the network (a local file's `hg cat f` only reads)."""
    if any("://" in word for word in o.operands):
        cmd.facts.net_fetch = True
        cmd.does("fetch", "verbs.cat.fetches", f"{cmd.name} cat reads the network")


TIERS = {**dict.fromkeys(DESTROY_VERBS, DESTROYS), **dict.fromkeys(PUBLISH_VERBS, PUBLISHES), "push": PUSHES}
# the generic multiplexers' own verbs besides the tiers: lxc/incus file push|pull, multipass transfer, vagrant
# copy-files, svn/hg cat (not Maven's or Gradle's: there a goal or task of that name runs the build)
GENERIC_VERBS = {**TIERS, "file": FILES, "transfer": COPIES, "copy-files": COPIES,
                 "cat": verb(grammar=Grammar(values="r", long_values=("revision", "username", "password")),
                             hook=cat_url)}

GENERIC = Program(
    "hg", aliases=("svn", "jj", "tea", "git-lfs", "rustup", "corepack", "swift", "flutter", "dart", "cabal",
                     "stack", "opam", "pyenv", "rbenv", "asdf", "kind", "k3d", "packer", "vagrant", "ansible-galaxy",
                     "ansible-vault", "nmcli", "lxc", "incus", "multipass"),
    doc="multiplexers judged by their verb's tier (hg's --config that runs code too)",
    grammar=Grammar(values="R", long_values=("config", "repository", "cwd", "encoding")),
    verbs=GENERIC_VERBS, read_only=READ_VERBS,
    default=Row("verbs.verb", "unknown", "{cmd}", examples=("svn frobnicate", "jj git push")),
    examples={"hg status": "safe", "hg push --force": "dangerous"},
)

# Mercurial's settings given with --config: an alias starting with `!` is shell code, a hook is a command run on
# an event, an extension a Python module loaded (from a path: code the gate cannot read), ui.ssh the connecting
# command; the rest tunes it.
HG_CODE_KEYS = ("hooks.", "ui.ssh", "ui.editor", "ui.merge", "pager.pager", "merge-tools.", "diff-tools.")


@emits({"hg.config-code": ["hg --config alias.x='!/bin/sh' x", "hg --config hooks.pre-commit='id' commit",
                           "hg --config extensions.x=/tmp/x.py status"]})
def hg_config(cmd, o) -> None:
    """`hg --config KEY=VALUE` that runs code (GTFOBins: `hg --config alias.x='!/bin/sh' x`)."""
    for setting in o.all("config"):
        key, _, value = setting.partition("=")
        if key.startswith("alias.") and value.lstrip().startswith("!") or key.startswith(HG_CODE_KEYS) or \
                key.startswith("extensions.") and "/" in value or UNKNOWN in setting:
            cmd.does("run-code", "hg.config-code", f"hg --config {key} makes hg run code")


GENERIC.hook = hg_config


# Maven and Gradle: their goals and tasks by the same tiers, the rest runs the build (plugins and build scripts
# are code). -f/--file (Maven's POM) and -p/--project-dir (Gradle's) name the project that builds; a Gradle
# init script (-I) runs before any build.
BUILD_RUNS = "{cmd} runs the build (its plugins and build scripts run)"
MAVEN = Program(
    "mvn", aliases=("mvnw",), doc="Maven: goals judged by their tier, the rest runs the build",
    grammar=Grammar(values="fsltTbP", long_values=("file", "settings", "global-settings", "log-file", "toolchains",
                                                   "threads", "builder", "activate-profiles", "projects",
                                                   "resume-from")),
    manifest=("f", "file"), verbs=TIERS, read_only=READ_VERBS,
    default=Row("mvn.build", "run-project", BUILD_RUNS, sets=("builds",), examples=("mvn package", "mvn -q install")),
    examples={"mvn -q -DskipTests package": "moderate", "mvn -f /tmp/x/pom.xml package": "high",
              "mvn -f services/api/pom.xml verify": "moderate"},
)
GRADLE = Program(
    "gradle", aliases=("gradlew",), doc="Gradle: tasks judged by their tier, the rest runs the build",
    grammar=Grammar(values="pbcIDPx", long_values=("project-dir", "build-file", "settings-file", "init-script",
                                                   "exclude-task", "gradle-user-home", "project-cache-dir",
                                                   "console", "warning-mode", "max-workers", "include-build")),
    chdir=("p", "project-dir"), manifest=("b", "build-file"), verbs=TIERS, read_only=READ_VERBS,
    default=Row("gradle.build", "run-project", BUILD_RUNS, sets=("builds",), examples=("gradle build", "gradlew test")),
    on=(On("run", ("option", "I", "init-script"), id="gradle.init-script", says="gradle runs the init script",
           examples=("gradle -I /tmp/x.gradle build",)),),
    examples={"gradle -p /tmp/x build": "high", "./gradlew -p app build": "moderate", "gradle build": "moderate"},
)


GLAB_READS = verb(rows=(Row("glab.reads", "inspect", "{cmd} reads GitLab", examples=("glab mr list", "glab ci view")),))
GLAB_PUBLISH_EXAMPLES = {"repo": "glab repo fork x/y", "release": "glab release create v1",
                         "mr": "glab mr create --fill",
                         "issue": "glab issue note 1 -m x", "ci": "glab ci run", "variable": "glab variable set X y"}


def _glab_group(group: str, reads=(), **verbs) -> object:
    """A glab group: reading verbs read, delete deletes (a repository or a release for good), the rest publish."""
    children = dict.fromkeys(reads, GLAB_READS)
    children["delete"] = verb(rows=(Row(f"glab.{group}.delete", "destroy" if group in ("repo", "release") else "remove",
                                        "{cmd} deletes it for good", examples=(f"glab {group} delete x",)),))
    children.update(verbs)
    return verb(verbs=children, default=Row(f"glab.{group}.publishes", "publish", "{cmd} publishes to GitLab",
                                            sets=("net_send",), examples=(GLAB_PUBLISH_EXAMPLES[group],)))


@emits({"glab.api.delete": ["glab api -X DELETE projects/1"],
        "glab.api.changes": ["glab api -X POST projects/1/issues"],
        "glab.api.reads": ["glab api projects/1"]})
def glab_api(cmd, o) -> None:
    """`glab api PATH [-X METHOD]`: the method says what the request does."""
    method = (o.value("X", "method") or ("POST" if o.all("f", "F", "field", "raw-field") else "GET")).upper()
    if method == "DELETE":
        cmd.does("destroy", "glab.api.delete", "glab api deletes GitLab data (it cannot be undone)")
    elif method != "GET":
        cmd.facts.net_send = True
        cmd.does("publish", "glab.api.changes", f"glab api {method} changes GitLab data")
    else:
        cmd.does("inspect", "glab.api.reads", "glab api reads GitLab")


GLAB = Program(
    "glab", doc="GitLab from the command line",
    verbs={
        "repo": _glab_group("repo", reads=("list", "view", "search"),
                            clone=verb(rows=(Row("glab.repo.clone", "fetch", "clones a repository",
                                                 examples=("glab repo clone x/y",)),)),
                            archive=verb(rows=(Row("glab.repo.archive", "fetch", "downloads a repository archive",
                                                   examples=("glab repo archive x/y",)),))),
        "release": _glab_group("release", reads=("list", "view", "download")),
        "mr": _glab_group("mr", reads=("list", "view", "diff", "issues"),
                          checkout=verb(rows=(Row("glab.mr.checkout", "change", "checks out a merge request here",
                                                  examples=("glab mr checkout 1",)),))),
        "issue": _glab_group("issue", reads=("list", "view")),
        "ci": _glab_group("ci", reads=("list", "view", "status", "trace", "get", "lint")),
        "variable": _glab_group("variable", reads=("list", "get", "export")),
        "api": verb(grammar=Grammar(values="XfFHp", long_values=("method", "field", "raw-field", "header")),
                    hook=glab_api),
        "auth": verb(verbs={"status": verb(rows=(Row("glab.auth.token", "secret", "prints your GitLab token",
                                                     When(flag=("t", "show-token")), sets=("secret",),
                                                     examples=("glab auth status -t",)),))},
                     default=Row("glab.auth", "local-config", "{cmd} changes how glab signs in",
                                 examples=("glab auth login",))),
    },
    read_only=("version", "help", "completion", "config"),
    default=Row("glab.verb", "unknown", "{cmd}", examples=("glab frobnicate",)),
    examples={"glab repo delete acme/app": "dangerous", "glab mr list": "low", "glab mr checkout 3": "moderate"},
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


IP_BATCH = frozenset({"-b", "-ba", "-bat", "-batc", "-batch", "--batch"})    # ip takes abbreviated -options


@emits({"ip.netns-exec": ["ip netns exec x rm -rf ~", "ip -n x netns exec y ls"],
        "ip.batch": ["ip -batch cmds.txt", "ip -force -batch ~/.ssh/id_rsa"]})
def netns_exec(cmd, o) -> None:
    """`ip netns exec NAME CMD…` runs CMD inside the network namespace NAME; `-batch FILE` runs the ip commands
    of FILE (they can change the network; the lines it cannot read are echoed)."""
    args = list(o.args)
    for flag, value in zip(args, args[1:]):
        if flag in IP_BATCH:
            cmd.does("system", "ip.batch", "ip -batch runs the ip commands of a file (they can change the network)")
            if value not in ("-", "/dev/stdin"):
                cmd.read(value, "ip -batch reads (and echoes bad lines of)")
    words = o.operands
    for i in range(len(words) - 1):
        if words[i] == "netns" and words[i + 1] == "exec":
            cmd.does("root", "ip.netns-exec", "ip netns exec runs a command in another network namespace")
            hand_on(cmd, words[i + 3:], "ip.netns-exec")
            return


IP = Program(
    "ip", doc="network interfaces, addresses and routes; -batch FILE runs the ip commands of FILE",
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

PROGRAMS = programs(GENERIC, MAVEN, GRADLE, GLAB, PM2, IP, JOURNALCTL, DEFAULTS)
