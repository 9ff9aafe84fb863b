"""AI agent CLIs: programs that run commands of their own choosing (high), and the flags that turn their own
approvals off (dangerous: they then run whatever their prompt says, unasked - how the Nx "s1ngularity" malware
drove installed AI CLIs to hunt secrets). Their management verbs are judged as what they do: an MCP server or a
plugin added runs at every start (persistence), a token minted is a credential, a version or a list prints.

One table a CLI (`Agent`: its gate-off flags, the option values that mean the same, the options whose tool list
can allow the whole shell), read from each CLI's own `--help` where the agent stage installs it (Claude Code,
Codex, Gemini CLI, Qwen Code, opencode, Aider, mini-swe-agent) and from the vendors' manuals for the others.
"""
from __future__ import annotations

from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, emits, programs, verb

INFO = ("version", "help", "h")     # flags that only print (per CLI: its own short version flag too)


class Agent:
    """What turns one CLI's approvals off. `flags`: options that do it (`--yolo`); `values`: option -> values that
    do it (`--approval-mode yolo`); `tools`: options whose tool list pre-approves tools, and `shells`: the tool
    names in such a list that pre-approve every shell command (`--allowedTools Bash`; `Bash(git *)` does not)."""

    __slots__ = ("name", "flags", "values", "tools", "shells")

    def __init__(self, name: str, flags=(), values=None, tools=(), shells=()):
        self.name = name
        self.flags = tuple(flags)
        self.values = {option: tuple(v.lower() for v in vs) for option, vs in (values or {}).items()}
        self.tools = tuple(tools)
        self.shells = tuple(s.lower() for s in shells)


def _manages(program, o: Options) -> bool:
    """The first operand is one of the program's management verbs (`claude mcp add`), not a prompt."""
    return bool(o.operands) and (o.operands[0] in program.verbs or o.operands[0] in program.read_only)


def _option_words(args, names) -> list[str]:
    """Every value given to one of `names` (`--opt V`, `--opt=V`, `-o V`, and the words after a variadic
    `--allowedTools A B` up to the next option), split on commas and blanks."""
    found = []
    i, n = 0, len(args)
    while i < n:
        word = args[i]
        i += 1
        if word == "--":
            break
        head, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        name = head.lstrip("-")
        if not word.startswith("-") or name not in names:
            continue
        if eq:
            found.append(value)
            continue
        while i < n and not args[i].startswith("-"):
            found.append(args[i])
            i += 1
            if len(name) == 1 or name not in ("allowedTools", "allowed-tools", "trust-tools", "allow-tool"):
                break       # one value, unless the option takes a list
    return [piece for value in found for piece in value.replace(",", " ").split() if piece]


def _has_flag(args, flag: str) -> bool:
    """Whether a flag is among the words (before `--`), wherever it stands: `--yolo`, `--yolo=…`, `-y`, `-py`."""
    for word in args:
        if word == "--":
            return False
        if len(flag) > 1 and (word == "--" + flag or word.startswith("--" + flag + "=")):
            return True
        if len(flag) == 1 and word[:1] == "-" and word[1:2] != "-" and flag in word[1:] and word[1:].isalpha():
            return True
    return False


def gate_off(cmd, o: Options, agent: Agent) -> str | None:
    """How the line turns the agent's approvals off (the option, as written), or None. Its options may stand
    anywhere (`codex exec --full-auto`, `claude -p x --allowedTools Bash`)."""
    args = o.args
    for flag in agent.flags:
        if _has_flag(args, flag):
            return ("-" if len(flag) == 1 else "--") + flag
    for option, values in agent.values.items():
        for given in _option_words(args, (option,)):
            lowered = given.lower().strip("'\"")
            if lowered in values or UNKNOWN in given:
                return f"{'-' if len(option) == 1 else '--'}{option} {given.replace(UNKNOWN, '…')}"
    for given in _option_words(args, agent.tools):
        tool = given.strip("'\"").lower().replace(" ", "")
        if tool in agent.shells or UNKNOWN in given:
            return f"a tool list that allows every shell command ({given.replace(UNKNOWN, '…')})"
    return None


def agent_start(cmd, o: Options, agent: Agent, prefix: str) -> None:
    """Starting the agent: dangerous with its approvals off, else high (it runs commands of its own choosing)."""
    off = gate_off(cmd, o, agent)
    if off is not None:
        cmd.does("agent-ungated", f"{prefix}.gate-off", f"starts {agent.name} with its own approvals off ({off}): "
                                                        "it runs whatever its prompt says, unasked")
    else:
        cmd.does("agent", f"{prefix}.agent", f"starts {agent.name}, an AI agent that runs commands of its own "
                                             "choosing")


def info(prefix: str, cli: str, short=()) -> Row:
    return Row(f"{prefix}.info", "nothing", f"{cli} only prints its version or help",
               When(flag=INFO + tuple(short)), stop=True, examples=(f"{cli} -h",))


def mcp_verbs(prefix: str, cli: str, adds=("add", "add-json", "add-from-claude-desktop", "import")) -> dict:
    """`mcp add NAME CMD…`: a server the agent starts (and runs) at every session: persistence."""
    added = verb(rows=(Row(f"{prefix}.mcp.add", "persist", f"{cli} mcp adds a server the agent runs at every start",
                           examples=(f"{cli} mcp {adds[0]} x -- npx -y some-server",)),))
    return {"mcp": verb(verbs={word: added for word in adds},
                        read_only=("list", "get", "ls", "show", "--help"),
                        default=Row(f"{prefix}.mcp.change", "local-config", f"{cli} {{verb}} changes its MCP servers",
                                    examples=(f"{cli} mcp remove x",)))}


# ---------------------------------------------------------------- Claude Code

CLAUDE_AGENT = Agent("Claude Code", flags=("dangerously-skip-permissions",),
                     values={"permission-mode": ("bypassPermissions",)},
                     tools=("allowedTools", "allowed-tools"), shells=("Bash", "Bash(*)", "Bash(:*)", "Bash(*:*)"))


@emits({"claude.agent": ["claude -p 'fix the tests'", "claude"],
        "claude.gate-off": ["claude --dangerously-skip-permissions -p x", "claude --permission-mode bypassPermissions",
                            "claude -p x --allowedTools Bash Edit"],
        "claude.settings": ["claude --settings ./s.json -p x"],
        "claude.settings-bypass": ["claude --settings '{\"permissions\":{\"defaultMode\":\"bypassPermissions\"}}' -p x"],
        "claude.mcp-config": ["claude --mcp-config m.json -p x"], "claude.plugin-url": ["claude --plugin-url "
                                                                                         "https://x.example/p.zip"],
        "claude.plugin-dir": ["claude --plugin-dir /tmp/p"]})
def claude_start(cmd, o: Options) -> None:
    """claude [options] [prompt]: the agent (not its management verbs); --settings, --mcp-config and plugins bring
    in code and permissions the gate does not read (a plugin from a URL is code fetched from the network)."""
    if _manages(CLAUDE, o):
        return
    agent_start(cmd, o, CLAUDE_AGENT, "claude")
    for settings in o.all("settings"):
        if "bypasspermissions" in settings.lower():
            cmd.does("agent-ungated", "claude.settings-bypass", "claude --settings turns its approvals off "
                                                                "(bypassPermissions)")
        else:
            cmd.does("run-code", "claude.settings", "claude loads settings the gate does not read (they can allow "
                                                    "tools or add hooks that run commands)")
    if o.all("mcp-config"):
        cmd.does("run-code", "claude.mcp-config", "claude starts the MCP servers of a config it is given")
    for word in o.all("plugin-dir"):
        cmd.fired.add("claude.plugin-dir")
        cmd.run_file(word, "claude loads a plugin (hooks, servers) from")
    if o.all("plugin-url"):
        cmd.does("run-fetched", "claude.plugin-url", "claude fetches a plugin (hooks, servers: code) from a URL and "
                                                     "runs it")


CLAUDE_VALUES = ("add-dir", "agent", "agents", "allowedTools", "allowed-tools", "append-system-prompt", "betas",
                 "debug-file", "disallowedTools", "disallowed-tools", "effort", "fallback-model", "file",
                 "input-format", "json-schema", "max-budget-usd", "mcp-config", "model", "name", "output-format",
                 "permission-mode", "plugin-dir", "plugin-url", "session-id", "setting-sources", "settings",
                 "system-prompt", "tools", "max-turns", "resume")
PLUGIN_INSTALL = verb(rows=(Row("claude.plugin.install", "persist", "{cmd} installs code (hooks, servers) the agent "
                                "runs on its own", examples=("claude plugin install x@market",)),))
PLUGIN_VERBS = verb(
    verbs=dict.fromkeys(("install", "i", "add", "enable"), PLUGIN_INSTALL) | {
        "marketplace": verb(verbs={"add": verb(rows=(Row("claude.plugin.marketplace", "persist",
                                                         "{cmd} trusts a source of plugins (code the agent runs)",
                                                         examples=("claude plugin marketplace add x/y",)),))},
                            read_only=("list",),
                            default=Row("claude.plugin.marketplace-change", "local-config", "{cmd} changes plugin "
                                        "sources", examples=("claude plugin marketplace remove x",)))},
    read_only=("list", "ls", "validate"),
    default=Row("claude.plugin.change", "local-config", "{cmd} changes its plugins",
                examples=("claude plugin uninstall x",)))
CLAUDE = Program(
    "claude", doc="Claude Code: an AI agent that runs commands of its own choosing",
    grammar=Grammar(values="nr", long_values=CLAUDE_VALUES, optional=("debug",)),
    rows=(info("claude", "claude", ("v",)),),
    verbs={
        **mcp_verbs("claude", "claude"), "plugin": PLUGIN_VERBS, "plugins": PLUGIN_VERBS,
        "setup-token": verb(rows=(Row("claude.setup-token", "credentials", "claude setup-token mints a long-lived "
                                      "token", examples=("claude setup-token",)),)),
        "doctor": verb(rows=(Row("claude.doctor", "run-project", "claude doctor starts the project's .mcp.json servers",
                                 examples=("claude doctor",)),)),
        "install": verb(rows=(Row("claude.install", "install", "{cmd} installs Claude Code",
                                  examples=("claude install",)),)),
        "ultrareview": verb(rows=(Row("claude.ultrareview", "send", "claude ultrareview sends the branch to a cloud "
                                      "review", examples=("claude ultrareview",)),)),
        "gateway": verb(rows=(Row("claude.gateway", "expose", "claude gateway serves on the network",
                                  examples=("claude gateway",)),)),
        "config": verb(verbs=dict.fromkeys(("set", "add", "remove"), verb(rows=(
            Row("claude.config.set", "steer", "{cmd} changes what the agent may do",
                examples=("claude config set -g theme dark",)),))), read_only=("get", "list", "ls")),
        **dict.fromkeys(("update", "upgrade"), verb(rows=(Row("claude.update", "install", "{cmd} installs a new "
                                                             "Claude Code", examples=("claude update",)),))),
        "agents": verb(rows=(Row("claude.agents", "agent", "{cmd} manages background agents that run commands of "
                                 "their own choosing", examples=("claude agents",)),)),
    },
    read_only=("auth", "auto-mode", "project", "help"),
    # a prompt is the first operand: anything that is not a verb starts the agent (the hook says so)
    default=Row("claude.prompt", "nothing", "{cmd}: the prompt", examples=("claude 'fix the bug'",)),
    no_verb=Row("claude.session", "nothing", "claude starts a session", examples=("claude",)),
    hook=claude_start,
    examples={"claude --version": "safe", "claude -p 'fix the tests'": "high",
              "claude --dangerously-skip-permissions -p x": "dangerous", "claude mcp list": "safe",
              "claude mcp add x -- npx -y srv": "dangerous"},
)

# ---------------------------------------------------------------- Codex

CODEX_AGENT = Agent("Codex", flags=("dangerously-bypass-approvals-and-sandbox", "yolo", "full-auto"),
                    values={"s": ("danger-full-access",), "sandbox": ("danger-full-access",),
                            "a": ("never",), "ask-for-approval": ("never",)})
CODEX_CONFIG_OFF = (("approval_policy", "never"), ("sandbox_mode", "danger-full-access"))


@emits({"codex.agent": ["codex 'fix the tests'", "codex exec 'fix it'"],
        "codex.gate-off": ["codex --dangerously-bypass-approvals-and-sandbox exec x", "codex exec --full-auto x",
                           "codex -s danger-full-access", "codex -a never exec x", "codex --yolo"],
        "codex.config-off": ["codex -c approval_policy=never exec x",
                             "codex -c 'sandbox_mode=\"danger-full-access\"'"]})
def codex_start(cmd, o: Options) -> None:
    """codex [options] [prompt] / codex exec …: the agent (not its management verbs); `-c approval_policy=never`
    and `-c sandbox_mode=danger-full-access` are its gate-off flags spelled as config."""
    if cmd.name == "codex" and _manages(CODEX, o) and o.operands[0] not in CODEX_AGENT_VERBS:
        return
    for entry in o.all("c", "config"):
        key, _, value = entry.partition("=")
        if (key.strip(), value.strip().strip("'\"").lower()) in CODEX_CONFIG_OFF or UNKNOWN in entry:
            cmd.does("agent-ungated", "codex.config-off", f"starts Codex with its own approvals off (-c "
                                                          f"{entry.replace(UNKNOWN, '…')}): it runs whatever its "
                                                          "prompt says, unasked")
            return
    agent_start(cmd, o, CODEX_AGENT, "codex")


CODEX_VALUES = ("config", "enable", "disable", "remote", "remote-auth-token-env", "image", "model", "local-provider",
                "profile", "sandbox", "cd", "add-dir", "ask-for-approval", "output-schema", "color",
                "output-last-message", "thread-source", "cyber-access-program")
CODEX_GRAMMAR = Grammar(values="cimpsCao", long_values=CODEX_VALUES)
CODEX_STARTS = verb(grammar=CODEX_GRAMMAR)     # exec, review, resume: its options are the agent's (the hook reads them)
CODEX_AGENT_VERBS = frozenset({"exec", "e", "review", "resume", "fork", "queue"})


@emits({"codex.sandbox": ["codex sandbox linux -- make test"]})
def codex_sandbox(cmd, o: Options) -> None:
    """`codex sandbox [macos|linux] [--full-auto] -- CMD…`: CMD runs (in Codex's sandbox): judged as CMD."""
    words = list(o.args)
    command = words[words.index("--") + 1:] if "--" in words else [w for w in o.operands if w not in
                                                                     ("macos", "linux", "seatbelt", "landlock")]
    if command and UNKNOWN not in command[0]:
        cmd.fired.add("codex.sandbox")
        cmd.delegate_to = command
    elif command:
        cmd.does("run-code", "codex.sandbox", "codex sandbox runs a program known only at run time")


CODEX = Program(
    "codex", doc="OpenAI Codex CLI: an AI agent that runs commands of its own choosing",
    grammar=CODEX_GRAMMAR,
    rows=(info("codex", "codex", ("V",)),),
    verbs={"exec": CODEX_STARTS, "e": CODEX_STARTS, "review": CODEX_STARTS, "resume": CODEX_STARTS,
           "fork": CODEX_STARTS, "queue": CODEX_STARTS, **mcp_verbs("codex", "codex"),
           "sandbox": verb(hook=codex_sandbox),
           "apply": verb(rows=(Row("codex.apply", "change", "codex apply patches the work tree with its last diff",
                                   examples=("codex apply",)),)),
           "a": verb(rows=(Row("codex.apply-short", "change", "codex a patches the work tree with its last diff",
                               examples=("codex a",)),)),
           "cloud": verb(rows=(Row("codex.cloud", "send", "codex cloud hands tasks to Codex Cloud",
                                   examples=("codex cloud exec x",)),)),
           **{word: verb(rows=(Row(f"codex.{word}", "expose", f"codex {word} serves agent sessions",
                                   examples=(f"codex {word}",)),))
              for word in ("app-server", "exec-server", "remote-control", "mcp-server")},
           "update": verb(rows=(Row("codex.update", "install", "codex update installs a new Codex",
                                    examples=("codex update",)),))},
    read_only=("completion", "features", "help", "doctor", "debug", "login", "logout", "archive", "unarchive",
               "delete", "agents", "plugin", "migrate-rollouts", "migrate-nfs-db"),
    default=Row("codex.prompt", "nothing", "{cmd}: the prompt", examples=("codex 'fix the bug'",)),
    no_verb=Row("codex.session", "nothing", "codex starts a session", examples=("codex",)),
    hook=codex_start,
    examples={"codex --version": "safe", "codex exec 'fix it'": "high", "codex exec --full-auto x": "dangerous",
              "codex --dangerously-bypass-approvals-and-sandbox exec x": "dangerous", "codex mcp list": "safe"},
)

# ---------------------------------------------------------------- Gemini CLI and Qwen Code (its fork)


def _gemini_like(name: str, cli: str, aliases=()) -> Program:
    agent = Agent(cli, flags=("yolo", "y"), values={"approval-mode": ("yolo",)}, tools=("allowed-tools",),
                  shells=("run_shell_command", "ShellTool", "run_shell_command(*)", "shell"))
    extension = verb(rows=(Row(f"{name}.extensions.install", "install-foreign", "{cmd} installs an extension (MCP "
                                                                                "servers, commands) from a repository "
                                                                                "or path",
                               examples=(f"{name} extensions install https://github.com/x/y",)),))
    extensions = verb(verbs={"install": extension, "link": extension, "update": extension},
                      read_only=("list", "ls"),
                      default=Row(f"{name}.extensions.change", "local-config", "{cmd} changes its extensions",
                                  examples=(f"{name} extensions disable x",)))
    hooks = verb(verbs={"add": verb(rows=(Row(f"{name}.hooks.add", "persist", "{cmd} adds a hook the agent runs on "
                                                                               "its own",
                                              examples=(f"{name} hooks add x",)),))},
                 read_only=("list", "ls"),
                 default=Row(f"{name}.hooks.change", "steer", "{cmd} changes the hooks the agent runs",
                             examples=(f"{name} hooks migrate",)))

    @emits({f"{name}.agent": [f"{name} -p 'fix the tests'"],
            f"{name}.gate-off": [f"{name} --yolo -p x", f"{name} -y", f"{name} --approval-mode yolo -p x",
                                 f"{name} --allowed-tools run_shell_command -p x"]})
    def start(cmd, o: Options) -> None:
        if not _manages(program, o):
            agent_start(cmd, o, agent, name)

    program = Program(
        name, aliases=aliases, doc=f"{cli}: an AI agent that runs commands of its own choosing",
        grammar=Grammar(values="mpiwrseo", long_values=(
            "model", "prompt", "prompt-interactive", "worktree", "approval-mode", "policy", "admin-policy",
            "allowed-mcp-server-names", "allowed-tools", "extensions", "resume", "session-file", "session-id",
            "delete-session", "include-directories", "output-format", "sandbox-image", "auth-type", "core-tools",
            "exclude-tools", "json-schema")),
        rows=(info(name, name, ("v", "list-extensions", "l", "list-sessions")),
              Row(f"{name}.policy", "steer", f"{name} loads policy files that decide what it may run unasked",
                  When(value=("policy", "admin-policy")), examples=(f"{name} --policy /tmp/p.toml -p x",))),
        verbs={**mcp_verbs(name, name), "extensions": extensions, "extension": extensions, "hooks": hooks,
               "hook": hooks},
        read_only=("skills", "skill", "gemma", "help"),
        default=Row(f"{name}.prompt", "nothing", "{cmd}: the prompt", examples=(f"{name} 'fix the bug'",)),
        no_verb=Row(f"{name}.session", "nothing", f"{name} starts a session", examples=(name,)),
        hook=start)
    return program


GEMINI = _gemini_like("gemini", "Gemini CLI")
QWEN = _gemini_like("qwen", "Qwen Code")

# ---------------------------------------------------------------- GitHub Copilot CLI, Cursor's agent, Amp, Crush


def _flagged(name: str, cli: str, agent: Agent, values="", long_values=(), verbs=None, read_only=(), aliases=(),
             examples=(), starts=()) -> Program:
    """A CLI whose every start is the agent, with its gate-off flags (its verbs, if any, as given; `starts`: the
    verbs that start the agent too, `crush run`)."""
    verbs = dict(verbs or {})

    @emits({f"{name}.agent": [f"{name} -p 'fix the tests'"], f"{name}.gate-off": list(examples)})
    def start(cmd, o: Options) -> None:
        if not (o.operands and (o.operands[0] in verbs or o.operands[0] in read_only)) or o.operands[0] in starts:
            agent_start(cmd, o, agent, name)

    return Program(name, aliases=aliases, doc=f"{cli}: an AI agent that runs commands of its own choosing",
                   grammar=Grammar(values=values, long_values=long_values),
                   rows=(info(name, name),), verbs=verbs, read_only=read_only,
                   default=Row(f"{name}.prompt", "nothing", "{cmd}: the prompt", examples=(f"{name} 'fix it'",)),
                   no_verb=Row(f"{name}.session", "nothing", f"{name} starts a session", examples=(name,)),
                   hook=start)


COPILOT = _flagged(
    "copilot", "GitHub Copilot CLI",
    Agent("GitHub Copilot CLI", flags=("allow-all-tools", "allow-all", "yolo"), tools=("allow-tool",),
          shells=("shell", "shell(*)", "shell(:*)")),
    values="ps", long_values=("allow-tool", "deny-tool", "available-tools", "excluded-tools", "add-dir", "agent",
                              "model", "allow-url", "deny-url", "secret-env-vars", "share", "resume",
                              "additional-mcp-config", "log-dir", "log-level", "output-format"),
    verbs=mcp_verbs("copilot", "copilot"), read_only=("help", "login", "logout", "version"),
    examples=("copilot --allow-all-tools -p x", "copilot --yolo", "copilot --allow-tool shell -p x"))
CURSOR_AGENT = _flagged(
    "cursor-agent", "Cursor's agent CLI", Agent("Cursor's agent", flags=("force", "f", "yolo")),
    values="pm", long_values=("model", "output-format", "api-key", "header", "mode", "sandbox", "workspace"),
    verbs=mcp_verbs("cursor-agent", "cursor-agent"),
    read_only=("status", "whoami", "ls", "about", "help", "login", "logout", "update", "upgrade"),
    examples=("cursor-agent -p --force x", "cursor-agent --yolo x", "cursor-agent -f -p x"))
AMP = _flagged(
    "amp", "Sourcegraph Amp", Agent("Amp", flags=("dangerously-allow-all",)),
    values="xm", long_values=("execute", "mode", "settings-file", "log-level", "log-file", "visibility"),
    verbs={**mcp_verbs("amp", "amp"), "permissions": verb(
        verbs={"add": verb(rows=(Row("amp.permissions.add", "steer", "{cmd} lets the agent run tools unasked",
                                     examples=("amp permissions add allow Bash",)),))},
        read_only=("list", "test"),
        default=Row("amp.permissions.change", "steer", "{cmd} changes what the agent may run unasked",
                    examples=("amp permissions edit",)))},
    read_only=("login", "logout", "threads", "tools", "update", "doctor", "version", "help"),
    examples=("amp --dangerously-allow-all -x 'fix it'",))
CRUSH = _flagged(
    "crush", "Charm's Crush", Agent("Crush", flags=("yolo", "y")),
    values="c", long_values=("cwd", "data-dir"), verbs={"run": verb()}, starts=("run",),
    read_only=("logs", "update-providers", "schema", "help", "login", "projects"),
    examples=("crush --yolo", "crush -y run x"))

# ---------------------------------------------------------------- Amazon Q Developer and Kiro CLI


def _q_like(name: str, cli: str) -> Program:
    agent = Agent(cli, flags=("trust-all-tools",), tools=("trust-tools",),
                  shells=("execute_bash", "execute_cmd", "shell", "use_shell"))

    @emits({f"{name}.agent": [f"{name} chat 'fix the tests'", f"{name} translate 'list big files'"],
            f"{name}.gate-off": [f"{name} chat --trust-all-tools", f"{name} chat --trust-tools=execute_bash x",
                                 f"{name} chat --no-interactive --trust-all-tools x"]})
    def start(cmd, o: Options) -> None:
        agent_start(cmd, o, agent, name)

    starts = verb(grammar=Grammar(long_values=("trust-tools", "agent", "model")), hook=start)
    return Program(name, doc=f"{cli}: `chat` is an AI agent that runs commands of its own choosing",
                   rows=(info(name, name, ("V",)),),
                   verbs={"chat": starts, "translate": starts, **mcp_verbs(name, name)},
                   read_only=("doctor", "whoami", "login", "logout", "help", "version", "settings", "diagnostic",
                              "issue", "debug", "integrations"),
                   default=Row(f"{name}.verb", "unknown", "{cmd} is not a command the gate knows",
                               examples=(f"{name} frobnicate",)),
                   no_verb=Row(f"{name}.session", "agent", f"{name} starts a chat: an AI agent that runs commands "
                                                           "of its own choosing", examples=(name,)))


Q = _q_like("q", "Amazon Q Developer CLI")
KIRO = _q_like("kiro-cli", "Kiro CLI")

# ---------------------------------------------------------------- Aider


@emits({"aider.agent": ["aider --message 'fix it' app.py", "aider"],
        "aider.gate-off": ["aider --yes-always -m x", "aider --yes"],
        "aider.commands": ["aider --test-cmd 'rm -rf ~' --auto-test", "aider --lint-cmd 'python: flake8' x.py"],
        "aider.load": ["aider --load /tmp/cmds"]})
def aider_start(cmd, o: Options) -> None:
    """aider: edits files and runs the shell commands it suggests after asking (--yes-always answers yes to
    every question); the test and lint commands it is given run after each edit; --load runs /commands (`/run`
    among them) from a file; the files it is given go to the model (a secret among them leaves the machine)."""
    agent_start(cmd, o, AIDER_AGENT, "aider")
    for text in o.all("test-cmd", "lint-cmd"):
        if UNKNOWN in text:
            cmd.does("run-code", "aider.commands", "aider runs a command known only at run time after each edit")
            continue
        cmd.fired.add("aider.commands")
        code = text.split(":", 1)[1] if ":" in text.split()[0] else text      # `python: flake8 …`
        cmd.code_text(code, "aider runs after each edit")
    for script in o.all("load"):
        cmd.fired.add("aider.load")
        cmd.run_file(script, "aider runs the /commands of")


AIDER_AGENT = Agent("Aider", flags=("yes-always", "yes"))
AIDER = Program(
    "aider", doc="Aider: an AI pair programmer that edits files and runs the commands it suggests",
    grammar=Grammar(values="mfc", long_values=(
        "model", "message", "msg", "message-file", "file", "read", "load", "test-cmd", "lint-cmd", "apply", "config",
        "env-file", "openai-api-key", "anthropic-api-key", "edit-format", "weak-model", "editor-model", "encoding",
        "chat-history-file", "input-history-file", "llm-history-file", "analytics-log", "commit-prompt",
        "voice-format", "voice-language", "map-tokens", "api-key", "set-env", "alias", "reasoning-effort")),
    rows=(Row("aider.info", "nothing", "aider only prints", When(flag=INFO + ("list-models", "models", "show-prompts",
                                                                           "show-repo-map", "just-check-update")),
              stop=True, examples=("aider -h",)),),
    on=(On("send", ("option", "file", "read", "f", "message-file"), id="aider.files", says="gives the model",
           examples=("aider --read ~/.ssh/id_rsa -m x",)),
        On("send", OPERANDS, id="aider.edits", says="gives the model", examples=("aider app.py",))),
    hook=aider_start,
    examples={"aider --version": "safe", "aider --yes-always -m 'fix it'": "dangerous"},
)

# ---------------------------------------------------------------- opencode, goose, droid, Open Interpreter, mini


OPENCODE_AGENT = Agent("opencode", flags=("auto",))


@emits({"opencode.agent": ["opencode run 'fix the tests'", "opencode"],
        "opencode.gate-off": ["opencode run --auto x", "opencode --auto"]})
def opencode_start(cmd, o: Options) -> None:
    """opencode [project] / opencode run MESSAGE…: the agent (as its config's permissions allow); --auto approves
    everything not explicitly denied; -f FILE gives the model a file."""
    if not _manages(OPENCODE, o) or o.operands[0] in ("run", "pr"):
        agent_start(cmd, o, OPENCODE_AGENT, "opencode")


OPENCODE_RUN = verb(grammar=Grammar(values="csmfpu", long_values=("command", "session", "model", "agent", "format",
                                                                   "file", "title", "attach", "password", "username",
                                                                   "dir", "port", "variant")),
                    on=(On("send", ("option", "f", "file"), id="opencode.files", says="gives the model",
                           examples=("opencode run -f ~/.ssh/id_rsa x",)),))
OPENCODE = Program(
    "opencode", doc="opencode: an AI agent that runs commands of its own choosing",
    grammar=Grammar(values="mcs", long_values=("log-level", "port", "hostname", "mdns-domain", "cors", "model",
                                               "session", "prompt", "agent", "replay-limit")),
    rows=(info("opencode", "opencode", ("v",)),),
    verbs={"run": OPENCODE_RUN, "pr": OPENCODE_RUN, **mcp_verbs("opencode", "opencode"),
           **dict.fromkeys(("plugin", "plug"), verb(rows=(Row("opencode.plugin", "persist", "{cmd} installs a plugin "
                                                              "(code the agent runs at every start)",
                                                              examples=("opencode plugin x",)),))),
           **{word: verb(rows=(Row(f"opencode.{word}", "expose", f"opencode {word} serves agent sessions",
                                   examples=(f"opencode {word}",)),)) for word in ("serve", "web", "acp")},
           "github": verb(verbs={"install": verb(rows=(Row("opencode.github.install", "persist", "{cmd} adds a "
                                                           "workflow that runs the agent on GitHub",
                                                           examples=("opencode github install",)),))},
                          default=Row("opencode.github", "agent", "{cmd} runs the agent for GitHub",
                                      examples=("opencode github run",))),
           **{word: verb(rows=(Row(f"opencode.{word}", "install", f"opencode {word} changes the installed opencode",
                                   examples=(f"opencode {word}",)),)) for word in ("upgrade", "uninstall")}},
    read_only=("completion", "models", "stats", "export", "session", "debug", "providers", "auth", "agent", "db",
               "attach", "import"),
    default=Row("opencode.project", "nothing", "{cmd}: the project it starts in", examples=("opencode ./app",)),
    no_verb=Row("opencode.session", "nothing", "opencode starts a session", examples=("opencode",)),
    hook=opencode_start,
    examples={"opencode run 'fix it'": "high", "opencode run --auto x": "dangerous", "opencode models": "safe"},
)


# goose approves every tool by default (GOOSE_MODE=auto) unless its config or GOOSE_MODE says otherwise.
GOOSE_ASKS = frozenset({"approve", "smart_approve", "chat"})


@emits({"goose.agent": ["GOOSE_MODE=approve goose run -t x"],
        "goose.gate-off": ["goose run -t 'fix it'", "goose session", "GOOSE_MODE=auto goose run -t x"],
        "goose.extension": ["goose session --with-extension 'npx -y some-server'"]})
def goose_start(cmd, o: Options) -> None:
    """goose run / goose session: the agent; its default mode (auto) runs every tool unasked, so a start is
    judged as with its approvals off unless the line sets GOOSE_MODE to one that asks. --with-extension CMD
    starts CMD (an MCP server)."""
    mode = next((a.value for a in (cmd.part.assignments if cmd.part is not None else ())
                 if a.name == "GOOSE_MODE"), None)
    if mode in GOOSE_ASKS:
        cmd.does("agent", "goose.agent", f"starts goose (GOOSE_MODE={mode}), an AI agent that runs commands of its "
                                         "own choosing")
    else:
        cmd.does("agent-ungated", "goose.gate-off", "starts goose, whose default mode runs every tool unasked "
                                                   "(GOOSE_MODE=auto): it runs whatever its prompt says")
    for text in o.all("with-extension"):
        if UNKNOWN not in text:
            cmd.fired.add("goose.extension")
            cmd.code_text(text, "goose starts the extension")
        else:
            cmd.does("run-code", "goose.extension", "goose starts an extension known only at run time")


GOOSE_STARTS = verb(grammar=Grammar(values="tinr", long_values=(
    "text", "instructions", "name", "id", "path", "with-extension", "with-remote-extension",
    "with-streamable-http-extension", "with-builtin", "recipe", "params", "provider", "model", "max-turns")),
    hook=goose_start)
GOOSE = Program(
    "goose", doc="Block's goose: an AI agent that runs every tool unasked in its default mode",
    rows=(info("goose", "goose", ("V",)),),
    verbs={"run": GOOSE_STARTS, "session": GOOSE_STARTS, "s": GOOSE_STARTS,
           "schedule": verb(verbs={"add": verb(rows=(Row("goose.schedule", "persist", "goose schedule runs a recipe "
                                                         "on its own, later and again", examples=(
                                                             "goose schedule add --id x --cron '0 * * * *' "
                                                             "--recipe-source r.yaml",)),))},
                            read_only=("list", "sessions"),
                            default=Row("goose.schedule.change", "local-config", "{cmd} changes scheduled recipes",
                                        examples=("goose schedule remove --id x",))),
           "web": verb(rows=(Row("goose.web", "expose", "goose web serves agent sessions", examples=("goose web",)),)),
           "update": verb(rows=(Row("goose.update", "install", "goose update installs a new goose",
                                    examples=("goose update",)),)),
           "mcp": verb(rows=(Row("goose.mcp", "session", "goose mcp runs one of its built-in servers",
                                 examples=("goose mcp developer",)),))},
    read_only=("info", "version", "help", "configure", "recipe", "project", "projects", "bench"),
    default=Row("goose.verb", "unknown", "{cmd} is not a command the gate knows", examples=("goose frobnicate",)),
    no_verb=Row("goose.no-verb", "agent-ungated", "goose starts a session whose default mode runs every tool unasked",
                examples=("goose",)),
)

DROID_AGENT = Agent("Factory's droid", flags=("skip-permissions-unsafe",), values={"auto": ("high",)})


@emits({"droid.agent": ["droid exec 'fix it'", "droid exec --auto low x"],
        "droid.gate-off": ["droid exec --skip-permissions-unsafe x", "droid exec --auto high x"]})
def droid_start(cmd, o: Options) -> None:
    """droid exec: read-only unless --auto low|medium|high lets it run more unasked (high: anything its risk
    rating does not block); --skip-permissions-unsafe: everything."""
    agent_start(cmd, o, DROID_AGENT, "droid")


DROID = Program(
    "droid", doc="Factory's droid: an AI agent that runs commands of its own choosing",
    rows=(info("droid", "droid", ("v",)),),
    verbs={"exec": verb(grammar=Grammar(values="ofsm", long_values=("output-format", "input-format", "file", "auto",
                                                                      "session-id", "model", "cwd")),
                        hook=droid_start), **mcp_verbs("droid", "droid")},
    default=Row("droid.prompt", "agent", "{cmd} starts droid, an AI agent that runs commands of its own choosing",
                examples=("droid 'fix it'",)),
    no_verb=Row("droid.session", "agent", "droid starts a session of an AI agent that runs commands of its own "
                                          "choosing", examples=("droid",)),
)

INTERPRETER = _flagged(
    "interpreter", "Open Interpreter", Agent("Open Interpreter", flags=("y", "auto_run", "auto-run")),
    values="m", long_values=("model", "profile", "api_base", "api_key", "context_window", "max_tokens"),
    examples=("interpreter -y", "interpreter --auto_run"))
MINI_SWE_AGENT = _flagged(
    "mini", "mini-swe-agent", Agent("mini-swe-agent", flags=("yolo", "y"), values={"c": ("agent.mode=yolo",),
                                                                                   "config": ("agent.mode=yolo",)}),
    values="mtlco", long_values=("model", "task", "cost-limit", "config", "output", "model-class", "agent-class",
                                 "environment-class"),
    examples=("mini -y -t 'fix it'", "mini --yolo -t x"))


PROGRAMS = programs(CLAUDE, CODEX, GEMINI, QWEN, COPILOT, CURSOR_AGENT, AMP, CRUSH, Q, KIRO, AIDER, OPENCODE, GOOSE,
                    DROID, INTERPRETER, MINI_SWE_AGENT)
