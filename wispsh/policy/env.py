"""Variables that make programs run code, load libraries or change where they fetch from."""
from __future__ import annotations


from wispsh.model import Level
from wispsh.policy import places as P
from wispsh.programs.config_code import COMMAND_VARIABLES, PLAIN, variable as command_variable
from wispsh.programs.sources import index_is_known
from wispsh.support.lazyre import lazy_re

H, D, M = Level.HIGH, Level.DANGEROUS, Level.MODERATE

CODE_VARIABLES = {
    "LD_PRELOAD": "preloads a library into every program",
    "LD_LIBRARY_PATH": "changes which libraries programs load",
    "LD_AUDIT": "loads an audit library into every program",
    "BASH_ENV": "makes every bash script run a file first",
    "ENV": "makes every sh run a file first",
    "ZDOTDIR": "makes zsh run its startup files from elsewhere",
    "XDG_RUNTIME_DIR": "moves where wisp and other tools keep their runtime files",
    "PROMPT_COMMAND": "runs a command before every prompt",
    "PS4": "runs substitutions while tracing",
    "SHELLOPTS": "changes shell options of child shells",
    "BASHOPTS": "changes shell options of child shells",
    "IFS": "changes how the shell splits words",
    "NODE_OPTIONS": "makes node load code (--require)",
    "PERL5OPT": "makes perl load code",
    "PERL5LIB": "makes perl load modules from elsewhere",
    "PERLLIB": "makes perl load modules from elsewhere",
    "PERL5DB": "makes perl run a debugger command",
    "RUBYOPT": "makes ruby load code",
    "RUBYLIB": "makes ruby load libraries from elsewhere",
    "PYTHONSTARTUP": "makes python run a file",
    "PYTHONPATH": "makes python import code from elsewhere",
    "PYTHONHOME": "makes python load its library from elsewhere",
    "PYTHONWARNINGS": "can make python import a module",
    "JAVA_TOOL_OPTIONS": "makes java load agents",
    "_JAVA_OPTIONS": "makes java load agents",
    "JDK_JAVA_OPTIONS": "makes java load agents",
    "DOTNET_STARTUP_HOOKS": "makes .NET run a startup hook",
    "GCONV_PATH": "makes glibc load a module",
    "GIT_SSH_COMMAND": "makes git run a command to connect",
    "GIT_SSH": "makes git run a program to connect",
    "GIT_PROXY_COMMAND": "makes git run a proxy command",
    "GIT_EXTERNAL_DIFF": "makes git run a diff program",
    "GIT_ASKPASS": "makes git run a password program",
    "SSH_ASKPASS": "makes ssh run a password program",
    "GIT_EXEC_PATH": "makes git run its helpers from elsewhere",
    "GIT_TEMPLATE_DIR": "plants hooks in new repositories",
    "GIT_DIR": "points git at another repository",
    "GIT_WORK_TREE": "points git at another work tree",
    "GIT_CONFIG": "makes git read another config",
    "GIT_CONFIG_GLOBAL": "makes git read another config",
    "GIT_CONFIG_SYSTEM": "makes git read another config",
    "GIT_CONFIG_PARAMETERS": "sets git config that can run programs",
    "GIT_CONFIG_COUNT": "sets git config that can run programs",
    "GIT_PAGER": "makes git run a pager command",
    "GIT_EDITOR": "makes git run an editor command",
    "GIT_SEQUENCE_EDITOR": "makes git run an editor command",
    "PAGER": "makes programs run a pager command",
    "MANPAGER": "makes man run a pager command",
    "EDITOR": "makes programs run an editor command",
    "VISUAL": "makes programs run an editor command",
    "LESSOPEN": "makes less run an input filter",
    "LESSCLOSE": "makes less run a command",
    "RUSTC_WRAPPER": "makes cargo run a wrapper program",
    "RUSTC": "makes cargo run another compiler",
    "RUSTC_WORKSPACE_WRAPPER": "makes cargo run a wrapper program",
    "CARGO_BUILD_RUSTC_WRAPPER": "makes cargo run a wrapper program",
    "PIP_INDEX_URL": "changes where pip installs from",
    "PIP_EXTRA_INDEX_URL": "changes where pip installs from",
    "UV_INDEX_URL": "changes where uv installs from",
    "UV_EXTRA_INDEX_URL": "changes where uv installs from",
    "NPM_CONFIG_REGISTRY": "changes where npm installs from",
    "YARN_REGISTRY": "changes where yarn installs from",
    "GOPROXY": "changes where go fetches modules from",
    "GOFLAGS": "changes go's build flags (-toolexec)",
    "CC": "makes builds run another compiler",
    "CXX": "makes builds run another compiler",
    "MAKEFLAGS": "changes make's flags",
    "TERMINFO": "makes programs read terminal descriptions from elsewhere",
    "HISTFILE": "changes where shell history is written",
    "PATH": "changes which programs run",
    "BASH_CMDS": "sets which file a command name runs (bash's command hash: `BASH_CMDS[ls]=/bin/rm`)",
    "BASH_ALIASES": "defines aliases (with expand_aliases on, a command name runs the alias's text)",
}
# Values that name a plain pager or editor: setting them is how agents keep output unpaged.
HARMLESS_VALUES = frozenset({"", "cat", "less", "less -R", "less -FRX", "less -FRSX", "more", "head", "true",
                             ":", "tail", "most", "0", "1"})
HARMLESS_FOR = frozenset({"GIT_PAGER", "PAGER", "MANPAGER", "GIT_EDITOR", "EDITOR", "VISUAL",
                          "GIT_SEQUENCE_EDITOR", "GIT_CONFIG_COUNT"})
# Variables that say where packages come from: a foreign index is as dangerous as installing from it.
INDEX_VARIABLES = frozenset({"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_TRUSTED_HOST",
                             "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_INDEX", "UV_DEFAULT_INDEX", "UV_FIND_LINKS",
                             "NPM_CONFIG_REGISTRY", "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "BUN_CONFIG_REGISTRY",
                             "GOPROXY", "CONDA_CHANNELS", "BUNDLE_MIRROR__RUBYGEMS__ORG"})
# Variables that point a tool at a config file (or a directory holding one): the file
# decides where packages come from, what runs scripts, which credential helper runs. One outside the project
# and your own config directories is steering.
CONFIG_FILE_VARIABLES = {
    "PIP_CONFIG_FILE": "makes pip read its settings (indexes, trusted hosts) from",
    "UV_CONFIG_FILE": "makes uv read its settings (indexes) from",
    "NPM_CONFIG_USERCONFIG": "makes npm read its settings (registry, script-shell) from",
    "NPM_CONFIG_GLOBALCONFIG": "makes npm read its settings (registry, script-shell) from",
    "YARN_RC_FILENAME": "makes yarn read its settings (registry, plugins) from",
    "CONDARC": "makes conda read its settings (channels) from", "GEMRC": "makes gem read its settings (sources) from",
    "BUNDLE_GEMFILE": "makes bundler install what another Gemfile lists:",
    "POETRY_CONFIG_DIR": "makes poetry read its settings (repositories) from",
    "CARGO_HOME": "makes cargo read its config (registries, wrappers) from",
}
OWN_CONFIG_CLASSES = frozenset({P.DOTFILE, P.SECRET})
PROJECT_CLASSES = frozenset({P.PROJECT, P.PROJECT_ROOT, P.PROJECT_CONFIG, P.PROJECT_SECRET})

# Variables that turn off go's checks on every module it downloads (a private path pattern is normal)
CHECKS_OFF = {"GOSUMDB": ("off",), "GONOSUMDB": ("*", "*/*"), "GONOSUMCHECK": ("1", "*"), "GOINSECURE": ("*", "*/*"),
              "GOFLAGS": ("-insecure",)}
GO_PROXIES_KNOWN = frozenset({"direct", "off"})


def _judge_index_variable(base: str, value: str | None) -> tuple[Level, str] | None:
    if value is None:
        return H, f"{base} changes where packages come from (to something known only at run time)"
    sources = [v for v in value.replace("|", ",").replace(" ", ",").split(",") if v]
    if all(v in GO_PROXIES_KNOWN or index_is_known(v) for v in sources):
        return None
    return D, f"{base} makes installs use {value}: what it serves runs unreviewed"


_SYSTEM_PATH = lazy_re(r"^(/usr/local/s?bin|/usr/s?bin|/s?bin|/opt/homebrew/s?bin|/snap/bin)$")


# Variables an agent reads to choose the shell it runs commands with: pointing one elsewhere walks around the gate.
AGENT_SHELL_VARIABLES = frozenset({"CLAUDE_CODE_SHELL", "CLAUDE_CODE_SHELL_PREFIX", "AMAZON_Q_CHAT_SHELL",
                                   "CODEX_SHELL", "GEMINI_CLI_SHELL", "OPENCODE_SHELL", "AIDER_SHELL"})


def _drops_a_path(text: str) -> bool:
    """`PATH=$(echo "$PATH" | tr : '\\n' | grep -v wispsh | paste -sd:)`: a filter that takes entries out."""
    return "grep -v" in text or "sed" in text or "${PATH//" in text or "${PATH/" in text or "awk" in text


def _judge_config_variable(base: str, value: str | None, place) -> tuple[Level, str] | None:
    why = CONFIG_FILE_VARIABLES[base]
    if value is None:
        return H, f"{base} {why} a place known only at run time"
    if not value.strip():
        return None
    cls = place(value).cls if place is not None else (
        P.PROJECT if not value.startswith(("/", "~", "..")) else P.OUTSIDE)
    if cls in PROJECT_CLASSES:
        return M, f"{base} {why} {value}, in the project"
    if cls in OWN_CONFIG_CLASSES:
        return M, f"{base} {why} {value}, among your own config"
    return H, f"{base} {why} {value}, outside the project: it decides what the tool installs or runs"


# Variables judged by a prefix, whatever the rest of the name: one rule id a family (env.BASH_FUNC for every
# exported function), so the id stays stable and a user's table or a test can name it.
FAMILY_PREFIXES = ("WISP_", "BASH_FUNC_", "DYLD_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "npm_config_")


def variable_rule(base: str) -> str:
    """The rule id of setting the variable `base` (its name without a subscript or `+`)."""
    upper = base.upper()
    if upper in INDEX_VARIABLES or upper in CONFIG_FILE_VARIABLES:
        return f"env.{upper}"
    for prefix in FAMILY_PREFIXES:
        if base.startswith(prefix) or prefix == "npm_config_" and base.lower().startswith(prefix):
            return f"env.{prefix.rstrip('_')}"
    return f"env.{base}"


def judge_variable(name: str, value: str | None, text: str, place=None) -> tuple[Level, str] | None:
    """The level of setting one variable, or None when it is harmless. `place(word)` says where a path points
    (for the variables that name a config file)."""
    base = name.split("[", 1)[0]
    if base == "PATH" and "wisp" in (value or text).lower() and _drops_a_path(text):
        return D, "PATH is rebuilt without the gate's shims (an agent walking around the gate)"
    if base in AGENT_SHELL_VARIABLES:
        return H, f"{base} changes which shell an agent runs its commands with (around the gate)"
    if base.upper() in CONFIG_FILE_VARIABLES:
        return _judge_config_variable(base.upper(), value, place)
    if base.startswith("WISP_"):
        return D, f"sets {base}, which changes the gate itself"
    if base.startswith("BASH_FUNC_"):
        return H, f"{base} defines a function every bash child runs"
    if base.startswith(("DYLD_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")):
        return H, f"{base} makes programs load or run something else"
    if base.upper() in INDEX_VARIABLES or base.lower().startswith("npm_config_") and base.lower().endswith("registry"):
        return _judge_index_variable(base, value)
    if base in CHECKS_OFF and value is not None and value.strip() in CHECKS_OFF[base]:
        return D, f"{base}={value} turns off the checks on what go downloads"
    if base.startswith("npm_config_") and base.lower().endswith(("script_shell", "node_options")):
        return H, f"{base} changes what npm fetches or runs"
    why = CODE_VARIABLES.get(base)
    if why is None:
        return None
    if base in HARMLESS_FOR and value is not None and value.strip() in HARMLESS_VALUES:
        return None
    if value is not None and base in COMMAND_VARIABLES and command_variable(base, value)[0] == PLAIN:
        return None     # `EDITOR=vim`, `PAGER='less -R'`, `GIT_EDITOR='code --wait'`: a plain tool
    if base == "NODE_OPTIONS" and value is not None and not node_options_load_code(value):
        return None     # `--max-old-space-size=4096`: tuning, no code
    if base == "PATH":
        return _judge_path_value(value, text)
    if base == "HISTFILE" or base == "TERMINFO":
        return M, f"{base} {why}"
    return H, f"{base} {why}"


# NODE_OPTIONS words that make node load or run code, open a debugger, read settings that do, or write files
# (node(1); --eval/--print are refused in NODE_OPTIONS, listed all the same).
_NODE_CODE_OPTIONS = ("--require", "-r", "--import", "--loader", "--experimental-loader", "--experimental-policy",
                      "--policy-integrity", "--eval", "-e", "--print", "-p", "--inspect", "--debug", "--env-file",
                      "--openssl-config", "--snapshot-blob", "--build-snapshot", "--experimental-config-file",
                      "--redirect-warnings", "--report-", "--diagnostic-dir", "--cpu-prof", "--heap-prof",
                      "--icu-data-dir", "--tls-keylog", "--experimental-sea-config", "--watch")
_NODE_FLAG = lazy_re(r"^--[a-z][a-z0-9-]*(?:=[\w.:,+-]*)?$")


def node_options_load_code(value: str) -> bool:
    """Whether NODE_OPTIONS holds an option that loads or runs code (`--require x`, `--import x`,
    `--inspect`); tuning (`--max-old-space-size=4096`, `--no-warnings`) does not."""
    for word in value.split():
        if not _NODE_FLAG.match(word) or word.startswith(_NODE_CODE_OPTIONS):
            return True
    return False


def _judge_path_value(value: str | None, text: str) -> tuple[Level, str] | None:
    written = text.split("=", 1)[-1].strip("\"'")
    if value is None:
        # PATH="$PATH" or PATH=$PATH:/usr/local/bin keep the old order
        if written.startswith(("$PATH", "${PATH}")):
            return None
        if "$" in written.split(":", 1)[0]:
            return M, "PATH changed to something known only at run time"
        value = written
    first = value.split(":", 1)[0]
    if _SYSTEM_PATH.match(first.rstrip("/")):
        return None
    if first in ("", ".", "/tmp", "/var/tmp", "/dev/shm") or first.startswith(("/tmp/", "/var/tmp/", "/dev/shm/")) and first.count("/") <= 4:
        return H, f"PATH now searches {first or 'the current directory'} first"
    return M, f"PATH now searches {first} first"
