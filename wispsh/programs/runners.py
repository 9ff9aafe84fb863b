"""Runners: programs that run another command they are given - as words (`op run -- CMD`, `systemd-run CMD`) or
as a string (`script -c 'CMD'`); the helpers every runner family shares. Terminal sessions and emulators are
programs/terminals.py, the runners of a command for each input or event (fd -x, parallel, fzf, entr, …)
programs/per_input_runners.py, mise and nix programs/mise_nix.py.

Words are handed on (`cmd.delegate_to`) and judged as that command; a string the splitter did not split is
judged as shell code here (`cmd.code_text`). Either way the part is at least as bad as what it runs. What the
runner does itself - a session outside this shell, a service, a timer, secrets put into the command's
environment, a log file it writes - is a row of its own. (`timeout`, `nice`, `watch`, `xargs`, … are unwrapped
before the rules see them: programs/wrappers.py.)
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.system import ROOT_GROUPS
from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, emits, programs, verb

SESSION_FLOOR = "session"       # the kind whose level a runner's own part has at least (a command it runs)


def env_assignment(cmd, value: str, rule: str) -> None:
    """VAR=value given to the command it runs (`tmux new -e`, `systemd-run -E`): judged as any assignment."""
    name, _, text = value.partition("=")
    if cmd.sets_variable(name, text if UNKNOWN not in text else None, value):
        cmd.fired.add(rule)


def delegate_words(cmd, words: list[str], rule: str, who: str) -> None:
    """Run `words` as a command: judged as that command, unless its program is known only at run time."""
    if not words:
        return
    if UNKNOWN in words[0]:
        cmd.runs_runtime_code(f"{rule}-runtime", f"{who} runs a program known only at run time")
        return
    cmd.fired.add(rule)
    cmd.delegate_to = list(words)


# ---------------------------------------------------------------- systemd-run

SYSTEMD_RUN_VALUES = frozenset({"-u", "--unit", "-p", "--property", "--description", "--slice", "-M", "--machine",
                                "-H", "--host", "-E", "--setenv", "--uid", "--gid", "--nice", "--working-directory",
                                "--service-type", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
                                "--on-unit-inactive", "--on-calendar", "--on-timezone-change", "--timer-property",
                                "--path-property", "--socket-property", "--expand-environment", "--background",
                                "--capsule", "-C"})
SYSTEMD_TIMERS = frozenset({"--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive",
                            "--on-calendar", "--on-clock-change", "--on-timezone-change", "--path-property",
                            "--socket-property"})


# A timer that fires once, a while from now (like `at`): the command runs later, outside this shell; the others
# recur (a calendar, each activation) or wait for events: something that runs on its own, persistence.
ONE_SHOT_TIMERS = frozenset({"--on-active"})


@emits({"systemd-run.timer": ["systemd-run --user --on-calendar=daily ls", "systemd-run --on-unit-active=1h ls"],
        "systemd-run.later": ["systemd-run --user --on-active=30m make test"],
        "systemd-run.property": ["systemd-run -p ExecStartPre=/tmp/x ls"],
        "systemd-run.env": ["systemd-run -E LD_PRELOAD=/tmp/x ls"], "systemd-run.runs": ["systemd-run ls"],
        "systemd-run.runs-runtime": ['systemd-run "$X"']})
def systemd_run(cmd, o: Options) -> None:
    """systemd-run: the command runs as a transient service, outside this shell; timers make it recur."""
    args = list(o.args)
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        head, eq, value = args[i].partition("=")
        i += 1
        if head == "--":
            break
        if head in ONE_SHOT_TIMERS:
            cmd.does("run-code", "systemd-run.later", f"{cmd.name} {head} runs the command later, outside this shell "
                                                      f"and the gate")
        elif head in SYSTEMD_TIMERS:
            cmd.does("persist", "systemd-run.timer", f"{cmd.name} {head} schedules a command to run on its own")
        if head in ("-E", "--setenv"):
            env_assignment(cmd, value if eq else (args[i] if i < n else ""), "systemd-run.env")
        if head in ("-p", "--property"):
            prop = value if eq else (args[i] if i < n else "")
            if prop.startswith("Exec") or prop.startswith(("Environment=", "EnvironmentFile=")):
                cmd.does("run-code", "systemd-run.property", f"{cmd.name} -p {prop.split('=', 1)[0]}= runs or sets up "
                                                             f"more commands")
        if head in SYSTEMD_RUN_VALUES and not eq:
            i += 1
    delegate_words(cmd, args[i:], "systemd-run.runs", cmd.name)


SYSTEMD_RUN = Program(
    "systemd-run", doc="runs a command as a transient service or on a timer",
    rows=(Row("systemd-run.service", "system", "{cmd} runs a command as a service (outside this shell)",
              examples=("systemd-run ls",)),),
    hook=systemd_run,
    examples={"systemd-run --user --on-active=1h rm -rf ~": "dangerous", "systemd-run --on-active=5m make": "high",
              "systemd-run --user --on-calendar=hourly ./beacon.sh": "dangerous"},
)

# ---------------------------------------------------------------- runners that set up and run a command


class Runs:
    """How a runner's words become the command it runs: operands before the command (direnv's DIR, aws-vault's
    PROFILE), options whose value is a command line, and whether one operand is a whole command line (sg)."""

    __slots__ = ("skip", "code", "one_string", "secrets")

    def __init__(self, skip: int = 0, code=(), one_string: bool = False, secrets: bool = False):
        self.skip, self.code, self.one_string, self.secrets = skip, tuple(code), one_string, secrets


# Programs whose commands print the environment: run under a secret-injecting runner, they print its secrets.
PRINTS_ENVIRONMENT = frozenset({"env", "printenv", "set", "declare", "export"})
RUNS: dict[str, Runs] = {
    "pipenv": Runs(), "direnv": Runs(skip=1), "aws-vault": Runs(skip=1, secrets=True),
    "doppler": Runs(code=("--command",), secrets=True), "op": Runs(secrets=True),
    "infisical": Runs(code=("--command",), secrets=True), "dotenv": Runs(secrets=True),
    "envchain": Runs(skip=1, secrets=True), "chronic": Runs(), "firejail": Runs(), "proxychains": Runs(),
    "proxychains4": Runs(), "torsocks": Runs(), "torify": Runs(), "xvfb-run": Runs(), "dbus-run-session": Runs(),
    "ssh-agent": Runs(),
    "setpriv": Runs(), "sg": Runs(skip=1, code=("-c",), one_string=True),
}


@emits({"runner.code": ["doppler run --command 'npm start'", "sg docker -c 'docker ps'", "sg docker 'docker ps'"],
        "runner.code-runtime": ['doppler run --command "$X"'],
        "runner.runs": ["op run -- npm start", "direnv exec . ls", "chronic make", "aws-vault exec prof -- aws s3 ls"],
        "runner.runs-runtime": ['firejail "$X"'],
        "runner.prints-secrets": ["op run -- printenv", "doppler run -- env"]})
def runs_command(cmd, o: Options) -> None:
    """The words after the runner's options (and its own operands) are a command, judged as that command; a
    command-line option's value is shell code, judged here."""
    runs = RUNS[cmd.name]
    who = cmd.name
    for option in runs.code:
        text = next((a.partition("=")[2] for a in o.args if a.startswith(option + "=")), None)
        if text is None and option in o.args:
            at = o.args.index(option)
            text = o.args[at + 1] if at + 1 < len(o.args) else ""
        if text is not None:
            command_string(cmd, text, f"{who} {option}")
            return
    words = list(o.operands[runs.skip:])
    if words[:1] == ["--"]:
        words = words[1:]
    if runs.one_string and len(words) == 1:
        command_string(cmd, words[0], who)    # `sg GROUP 'command line'`
        return
    if words and UNKNOWN not in words[0]:
        cmd.does("run-project", "runner.runs", f"{who} runs a command (judged as itself) in the environment it "
                                               f"sets up")
        if runs.secrets and words[0].rsplit("/", 1)[-1] in PRINTS_ENVIRONMENT:
            cmd.facts.secret_source = f"prints the secrets {who} puts into the environment"
            cmd.does("secret", "runner.prints-secrets", f"prints the secrets {who} puts into the environment")
    delegate_words(cmd, words, "runner.runs", who)


def command_string(cmd, text: str, who: str) -> None:
    if UNKNOWN in text:
        cmd.runs_runtime_code("runner.code-runtime", f"{who} runs a command known only at run time")
        return
    cmd.fired.add("runner.code")
    cmd.code_text(text, f"{who} runs", at_least="run-project")


def runner(name: str, values=(), doc: str = "", aliases=(), hook=runs_command, **more) -> Program:
    """A program whose operands, after its options, are the command it runs."""
    return Program(name, aliases=aliases, doc=doc or f"{name}: runs the command it is given",
                   grammar=Grammar(long_values=tuple(v for v in values if v.startswith("--")),
                                   values="".join(v[1] for v in values if len(v) == 2), stop=True),
                   hook=hook, **more)


@emits({"sg.root-group": ["sg docker -c 'docker ps'", "sg - docker -c id", "sg lxd 'lxc list'"],
        "sg.group": ["sg developers -c make"]})
def sg_group(cmd, o: Options) -> None:
    """`sg [-] GROUP [-c] COMMAND`: the command runs with GROUP's privileges, like `newgrp GROUP`; some groups
    (docker, lxd, disk, wheel…) are root in all but name."""
    words = [w for w in o.operands if w != "-"]
    group = words[0] if words else ""
    if group in ROOT_GROUPS or UNKNOWN in group:
        cmd.does("privilege", "sg.root-group", f"sg {group.replace(UNKNOWN, '…')} runs a command with a group that "
                                               f"is root in all but name")
    elif group:
        cmd.fired.add("sg.group")
    runs_command(cmd, o)


PIPENV = Program(
    "pipenv", doc="python environments from a Pipfile; `pipenv run CMD` runs CMD in one",
    verbs={"run": verb(grammar=Grammar(stop=True), hook=runs_command),
           "shell": verb(rows=(Row("pipenv.shell", "session", "starts a shell in the environment",
                                   examples=("pipenv shell",)),))},
    read_only=("graph", "requirements", "scripts", "verify", "--venv", "--where", "--py", "--envs"),
    default=Row("pipenv.verb", "install", "{cmd} installs or changes the environment's packages",
                examples=("pipenv install", "pipenv sync")),
    examples={"pipenv run rm -rf ~": "dangerous", "pipenv run pytest": "moderate"},
)
DIRENV = Program(
    "direnv", doc="loads .envrc when a shell enters a directory; `direnv allow` lets it run on its own",
    verbs={"exec": verb(grammar=Grammar(stop=True), hook=runs_command,
                        rows=(Row("direnv.exec", "run-project", "direnv exec runs the directory's .envrc first",
                                  examples=("direnv exec . ls",)),)),
           "allow": verb(rows=(Row("direnv.allow", "persist", "{cmd} lets .envrc run on its own whenever a shell "
                                                              "enters the directory",
                                   examples=("direnv allow", "direnv allow ."),),)),
           "fetchurl": verb(rows=(Row("direnv.fetchurl", "fetch", "direnv fetchurl downloads a file",
                                      sets=("net_fetch",), examples=("direnv fetchurl https://x.example/f",)),))},
    read_only=("status", "dump", "export", "hook", "version", "stdlib", "help", "show_dump", "current"),
    default=Row("direnv.verb", "change", "{cmd} changes which .envrc files may run",
                examples=("direnv deny", "direnv reload")),
    examples={"direnv allow": "dangerous", "direnv exec . rm -rf ~": "dangerous"},
)
DIRENV.verbs["permit"] = DIRENV.verbs["grant"] = DIRENV.verbs["edit"] = DIRENV.verbs["allow"]

AWS_VAULT = Program(
    "aws-vault", doc="keeps AWS credentials; `aws-vault exec PROFILE -- CMD` runs CMD with them",
    verbs={"exec": verb(grammar=Grammar(values="dt", long_values=("duration", "region", "mfa-token", "prompt",
                                                                   "server"), stop=True), hook=runs_command),
           "add": verb(rows=(Row("aws-vault.stores", "credentials", "{cmd} stores or rotates AWS credentials",
                                 examples=("aws-vault add prof", "aws-vault rotate prof")),)),
           "login": verb(rows=(Row("aws-vault.login", "secret", "aws-vault login prints a console sign-in link",
                                   sets=("secret",), examples=("aws-vault login prof",)),))},
    read_only=("list", "ls", "--version"),
    default=Row("aws-vault.verb", "change", "{cmd} changes stored AWS credentials", examples=("aws-vault remove p",)),
)
AWS_VAULT.verbs["rotate"] = AWS_VAULT.verbs["add"]

DOPPLER = Program(
    "doppler", doc="secrets service; `doppler run -- CMD` runs CMD with the project's secrets",
    verbs={"run": verb(grammar=Grammar(values="pc", long_values=("project", "config", "token", "scope", "fallback",
                                                                  "command"), stop=True), hook=runs_command),
           "secrets": verb(rows=(Row("doppler.secrets", "secret", "{cmd} prints stored secrets", sets=("secret",),
                                     examples=("doppler secrets", "doppler secrets download")),))},
    default=Row("doppler.verb", "unknown", "{cmd}", examples=("doppler setup",)),
    examples={"doppler run -- npm start": "moderate"},
)
INFISICAL = Program(
    "infisical", doc="secrets service; `infisical run -- CMD` runs CMD with the project's secrets",
    verbs={"run": verb(grammar=Grammar(long_values=("env", "path", "token", "projectId", "command"), stop=True),
                       hook=runs_command),
           "secrets": verb(rows=(Row("infisical.secrets", "secret", "{cmd} prints stored secrets", sets=("secret",),
                                     examples=("infisical secrets", "infisical export")),))},
    default=Row("infisical.verb", "unknown", "{cmd}", examples=("infisical init",)),
)
INFISICAL.verbs["export"] = INFISICAL.verbs["secrets"]

OP = Program(
    "op", doc="1Password; `op run -- CMD` runs CMD with secrets; read/inject/item get print them",
    verbs={"run": verb(grammar=Grammar(long_values=("env-file", "account"), stop=True), hook=runs_command),
           "item": verb(read_only=("list", "ls", "template"),
                        default=Row("op.item", "secret", "{cmd} reads or changes stored secrets", sets=("secret",),
                                    examples=("op item get x",))),
           "vault": verb(read_only=("list", "ls", "get"),
                         default=Row("op.vault", "change", "{cmd} changes vaults", examples=("op vault create x",))),
           "whoami": verb(), "account": verb(read_only=("list", "ls", "get"),
                                             default=Row("op.account", "credentials", "{cmd} adds or forgets an "
                                                                                      "account",
                                                         examples=("op account add",)))},
    default=Row("op.secret", "secret", "{cmd} reads stored secrets", sets=("secret",),
                examples=("op signin", "op user get me")),
    examples={"op run -- rm -rf ~": "dangerous", "op item list": "safe", "op read op://v/i/f": "high",
              "op service-account create ci --vault Dev:read_items": "dangerous"},
)
OP_MINTS = verb(rows=(Row("op.mints", "credentials", "{cmd} mints a token for 1Password (it prints it)",
                          sets=("secret",),
                          examples=("op service-account create ci", "op connect token create t --server s",
                                    "op events-api create siem")),))
OP.verbs.update({"service-account": verb(verbs={"create": OP_MINTS}), "events-api": verb(verbs={"create": OP_MINTS}),
                 "connect": verb(verbs={"token": verb(verbs={"create": OP_MINTS}),
                                        "server": verb(verbs={"create": OP_MINTS})})})
for _word in ("inject", "read", "document"):
    OP.verbs[_word] = verb(grammar=Grammar(values="io", long_values=("in-file", "out-file", "output")),
                           rows=(Row(f"op.{_word}", "secret", f"op {_word} prints stored secrets", sets=("secret",),
                                     examples=(f"op {_word} op://vault/item/field",)),),
                           on=(On("write", ("option", "o", "out-file", "output"), id=f"op.{_word}.out-file",
                                  says="op writes secrets to", examples=(f"op {_word} -o ~/.config/x.env x",)),))

# ---------------------------------------------------------------- script, tracers


@emits({"script.command": ["script -c 'ls' log.txt", "nix develop -c script -c ls"],
        "script.command-runtime": ['script -c "$X"']})
def script_command(cmd, o: Options) -> None:
    """script -c CMD: literal code is split by the splitter (a part of its own); here only what it did not see."""
    command = o.value("c", "command")
    if command is None:
        return
    if UNKNOWN in command:
        cmd.runs_runtime_code("script.command-runtime", "script -c runs a command line known only at run time")
    else:
        cmd.fired.add("script.command")
        if cmd.delegated:
            cmd.code_text(command, "script -c runs", at_least=SESSION_FLOOR)


SCRIPT = Program(
    "script", doc="records a terminal session (to its operand, or the log files it is given)",
    grammar=Grammar(values="cTIOBEom", long_values=("command", "log-timing", "log-in", "log-out", "log-io", "echo",
                                                    "output-limit", "logging-format", "timing"),
                    optional=("timing",)),
    rows=(Row("script.session", "session", "script records a shell session",
              examples=("script", "script -q /dev/null")),),
    on=(On("write", OPERANDS, id="script.typescript", says="script records the session to",
           examples=("script ~/.bashrc",)),
        On("write", ("option", "T", "log-timing", "I", "log-in", "O", "log-out", "B", "log-io", "timing"),
           id="script.logs", says="script logs to", examples=("script -O ~/.profile -c ls",))),
    hook=script_command,
    examples={"script -c 'rm -rf ~' /dev/null": "moderate", "script ~/.bashrc": "dangerous"},
)

TRACE_OUTPUT = ("o", "output", "log-file", "xml-file")


@emits({"trace.runs": ["valgrind ./a.out", "perf stat ls"], "trace.runs-runtime": ['valgrind "$X"']})
def traced_command(cmd, o: Options) -> None:
    """The program a tracer runs under it (`valgrind ./a.out`, `perf record -- make`)."""
    words = list(o.operands)
    if words[:1] == ["--"]:
        words = words[1:]
    delegate_words(cmd, words, "trace.runs", cmd.name)


TRACE_GRAMMAR = Grammar(values="eopsuEPSaIbX", long_values=TRACE_OUTPUT + ("log-socket", "suppressions"), stop=True)


def tracer(name: str, doc: str) -> Program:
    return Program(name, doc=doc, grammar=TRACE_GRAMMAR,
                   rows=(Row(f"{name}.traces", "run-project", f"runs a program under {name}",
                             examples=(f"{name} ./a.out",)),),
                   on=(On("write", ("option",) + TRACE_OUTPUT, id=f"{name}.output", says=f"{name} writes",
                          examples=(f"{name} --log-file=out.txt ./a",)),),
                   hook=traced_command)


PERF_RUNS = verb(grammar=Grammar(values="oepc", long_values=("output", "event", "pid", "cpu", "call-graph"), stop=True),
                 on=(On("write", ("option", "o", "output"), id="perf.output", says="perf writes",
                        examples=("perf record -o ~/.bashrc ls",)),),
                 rows=(Row("perf.traces", "run-project", "runs a program under perf", examples=("perf stat ls",)),),
                 hook=traced_command)
PERF = Program(
    "perf", doc="Linux profiling: record/stat/trace run a command under it; probe changes the kernel",
    verbs={"record": PERF_RUNS, "stat": PERF_RUNS, "trace": PERF_RUNS, "mem": PERF_RUNS, "c2c": PERF_RUNS,
           "script": verb(grammar=Grammar(values="si", long_values=("script", "input")),
                          on=(On("run", ("option", "s", "script"), id="perf.script", says="perf script runs",
                                 examples=("perf script -s x.py",)),)),
           "probe": verb(rows=(Row("perf.probe", "system", "perf probe adds kernel probes",
                                   examples=("perf probe -a do_sys_open",)),))},
    read_only=("report", "annotate", "diff", "list", "version", "help", "evlist", "archive"),
    default=Row("perf.verb", "debug", "{cmd} watches programs running on this machine", examples=("perf top",)),
)

# strace, ltrace and unbuffer are wrappers (programs/wrappers.py): the command they run is judged as itself, and
# their output options by the engine.
TRACERS = (tracer("valgrind", "runs a program under valgrind's tools"),)


PROGRAMS = programs(SYSTEMD_RUN, PIPENV, DIRENV, AWS_VAULT, DOPPLER, INFISICAL, OP, SCRIPT, PERF, *TRACERS)
