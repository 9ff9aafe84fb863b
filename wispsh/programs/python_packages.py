"""Python's installers: pip, uv, uvx, pipx, poetry (registry vs foreign sources, indexes, editable installs)."""
from __future__ import annotations

import os

from wispsh.programs.delegate import hand_on, runs_operands
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.packages import ARCHIVES, index_options, install_specs, judge_index, judge_spec, removes_the_gate
from wispsh.programs.sources import host_of, index_is_known
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re
from wispsh.vocab import places

# ---------------------------------------------------------------- pip

PIP_GRAMMAR = Grammar(
    values="rceiftCbd",
    long_values=("requirement", "constraint", "editable", "index-url", "extra-index-url", "find-links", "target",
                 "prefix", "root", "src", "trusted-host", "platform", "python-version", "implementation", "abi",
                 "no-binary", "only-binary", "progress-bar", "upgrade-strategy", "config-settings", "global-option",
                 "install-option", "report", "cache-dir", "log", "proxy", "cert", "client-cert", "timeout",
                 "retries", "exists-action", "python", "group", "dest", "d", "build", "uploaded-prior-to",
                 "keyring-provider", "index"))

MAX_REQUIREMENTS = 256 * 1024
REQUIREMENT_FILE_OPTIONS = ("r", "requirement", "c", "constraint")


def _requirement_lines(text: str):
    """A requirements file's logical lines: `\\` continues a line, ` #` starts a comment."""
    joined = text.replace("\\\r\n", " ").replace("\\\n", " ")
    for raw in joined.splitlines()[:4096]:
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            yield line


def _requirements_text(cmd, text: str, where: str, base: str, depth: int) -> None:
    """What a requirements file says besides registry names: index options (--index-url, --extra-index-url,
    --find-links, --trusted-host), -e and URL or VCS lines, and the files it includes (-r, -c): each judged as
    the same words on pip's command line would be."""
    import shlex
    for line in _requirement_lines(text):
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        if not words:
            continue
        if words[0].startswith("-"):
            o = PIP_GRAMMAR.read(words)
            if o.values:
                cmd.fired.add("pip.requirements.content")
            judge_index(cmd, o)
            for spec in o.all("e", "editable"):
                judge_spec(cmd, spec)
            for name in o.all(*REQUIREMENT_FILE_OPTIONS):
                nested = name if "://" in name or name.startswith(("/", "~")) else os.path.join(base, name)
                _requirements_file(cmd, nested, depth + 1)
        elif "://" in line or line.startswith(("git+", "hg+", "svn+", "bzr+", ".", "/", "~")) or line.endswith(ARCHIVES):
            cmd.fired.add("pip.requirements.content")
            judge_spec(cmd, line.split(";", 1)[0].strip())


def _requirements_file(cmd, name: str, depth: int = 0) -> None:
    """One -r/-c file: a URL is fetched and obeyed unread; a project file that can be read is judged line by line
    (it may name another index or a repository); its path is recorded as what pip runs, so a line that
    downloads or writes it first is seen to install what it wrote."""
    if UNKNOWN in name or depth > 3:
        return
    if "://" in name:
        cmd.does("install-foreign", "pip.requirements.url", f"{cmd.name} installs what {name} lists, fetched "
                                                            f"unread: it may name any index or repository")
        return
    if name in STDIN:
        text = cmd.part.stdin_code if cmd.part is not None else None
        if text is None:
            cmd.does("run-code", "pip.requirements.stdin", f"{cmd.name} installs what its input lists (unseen)")
        else:
            _requirements_text(cmd, text, "its input", cmd.cwd, depth)
        return
    where = cmd.place(name)
    cmd.facts.runs.append(where.path)
    if where.cls not in (places.PROJECT, places.PROJECT_ROOT) or where.glob:
        return
    try:
        with open(where.path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(MAX_REQUIREMENTS)
    except OSError:
        return
    _requirements_text(cmd, text, name, os.path.dirname(where.path), depth)


STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


@emits({
        "pip.requirements.url": ["pip install -r https://raw.example.net/x/requirements.txt"],
        "pip.requirements.stdin": ["cat r.txt | pip install -r /dev/stdin"],
        "pip.requirements.content": ["pip install -r /dev/stdin <<'EOF'\n--extra-index-url "
                                     "https://pkgs.example.net/simple\n"
                                     "requests\nEOF",
                                     "pip install -r /dev/stdin <<'EOF'\n-e git+https://x.example/y.git#egg=y\nEOF"]})
def pip_install(cmd, o) -> None:
    """pip install/download/wheel: the packages it names (install_specs), and the requirement and constraint
    files it reads. `pip download|wheel -d DIR` fetches archives into DIR: what a later part runs from there
    was downloaded (without -d they land in the current directory under names the line does not show)."""
    install_specs(cmd, o)
    for name in o.all(*REQUIREMENT_FILE_OPTIONS):
        _requirements_file(cmd, name)
    if "download" in cmd.args[:2] or "wheel" in cmd.args[:2]:
        for target in o.all("d", "dest", "w", "wheel-dir"):
            if UNKNOWN not in target:
                cmd.facts.fetch_writes.append(cmd.place(target).path.rstrip("/") + "/")


PIP_INSTALL = verb(
    grammar=PIP_GRAMMAR,
    rows=(
        Row("pip.install.requirements", "install", "{cmd} installs what a requirements file lists",
            When(value=("r", "requirement", "c", "constraint")), examples=("pip install -r requirements.txt",)),
        Row("pip.install.outside", "system", "{cmd} installs into your user's or the system's Python, outside the "
            "project: its programs go on PATH for every later shell",
            When(flag=("user", "break-system-packages", "system"), unless=("dry-run",)),
            examples=("pip install --user black", "pip install --break-system-packages httpx",
                      "pip3 install --user -r requirements.txt"),
            not_examples=("pip install black", "pip install -r requirements.txt")),
        Row("pip.install.unnamed", "install", "{cmd} fetches from the registry",
            When(operands=False, no_value=("r", "requirement", "e", "editable")),
            examples=("pip download --no-deps",), not_examples=("pip install x", "pip install -e .")),
    ),
    on=(On("read", ("option", "r", "requirement", "c", "constraint"), id="pip.install.reads",
           examples=("pip install -r ~/other/req.txt",)),
        On("write", ("option", "t", "target", "prefix", "root"), says="installs into", id="pip.install.into",
           examples=("pip install --target ~/.local/lib x",))),
    hook=pip_install,
)
PIP_REMOVE = verb(grammar=PIP_GRAMMAR, hook=removes_the_gate,
                  rows=(Row("pip.uninstall.outside", "system", "{cmd} uninstalls packages of your user's or the "
                            "system's Python, outside the project", When(flag=("break-system-packages", "system")),
                            examples=("pip uninstall --break-system-packages -y x",)),
                        Row("pip.uninstall", "change", "{cmd} uninstalls packages", examples=("pip uninstall -y x",))))
INDEX_KEYS = ("index-url", "extra-index-url", "find-links", "trusted-host", "index", "registry", "source")


def _configures_index(cmd, key: str, value: str | None, rule: str) -> bool:
    """`KEY VALUE` naming where packages come from: a foreign index is as dangerous as installing from it."""
    if not key.lower().rsplit(".", 1)[-1].endswith(INDEX_KEYS) or value is None:
        return False
    if UNKNOWN in value:
        cmd.does("steer", rule + "-runtime", f"{cmd.name} config sets {key} to something known only at run time")
    elif index_is_known(value):
        cmd.does("steer", rule + "-known", f"{cmd.name} config sets {key} ({host_of(value) or value})")
    else:
        cmd.does("install-foreign", rule, f"{cmd.name} config makes every install use {value}: what it serves "
                                          f"runs unreviewed")
    return True


@emits({"pip.config.index": ["pip config set global.index-url https://evil.example/simple",
                             "pip config --user set global.extra-index-url https://evil.example/simple"],
        "pip.config.index-known": ["pip config set global.index-url https://pypi.org/simple"],
        "pip.config.index-runtime": ['pip config set global.index-url "$URL"'],
        "pip.config.set": ["pip config set global.timeout 60"]})
def pip_config_set(cmd, o) -> None:
    """`pip config set KEY VALUE`: the index keys say where every later install comes from."""
    key = o.operands[0] if o.operands else ""
    value = o.operands[1] if len(o.operands) > 1 else None
    if not _configures_index(cmd, key, value, "pip.config.index"):
        cmd.does("steer", "pip.config.set", f"{cmd.name} config changes {key or 'a setting'}")


PIP_CONFIG = verb(
    verbs={"set": verb(hook=pip_config_set)},
    read_only=("get", "list", "debug"),
    default=Row("pip.config.change", "steer", "{cmd} changes pip's configuration (where it installs from)",
                examples=("pip config unset global.index-url", "pip config edit")),
)
PIP = Program(
    "pip", aliases=("pip3", "pip2"), doc="the Python package installer",
    grammar=PIP_GRAMMAR,
    hook=index_options,
    verbs={**dict.fromkeys(("install", "download", "wheel", "add", "sync", "compile"), PIP_INSTALL),
           "uninstall": PIP_REMOVE, "remove": PIP_REMOVE, "config": PIP_CONFIG},
    read_only=("list", "show", "freeze", "check", "search", "help", "inspect", "hash", "debug", "completion",
               "index", "cache"),
    default=Row("pip.verb", "unknown", "{cmd}", examples=("pip frobnicate",)),
    examples={"pip install requests": "moderate", "pip list": "safe",
              "pip install git+https://x.example/y": "dangerous",
              "pip install -e .": "moderate", "pip config set global.index-url https://x.example": "dangerous"},
)

# ---------------------------------------------------------------- uv, uvx, pipx, poetry

UV_ENV_GRAMMAR = Grammar(values=PIP_GRAMMAR.values,
                         long_values=PIP_GRAMMAR.long_values + ("with", "extra", "default-index"))
UV_CHANGES = verb(grammar=UV_ENV_GRAMMAR, hook=index_options,
                  rows=(Row("uv.env", "install", "{cmd} changes the environment", examples=("uv lock", "uv venv")),))
UV_BUILDS = verb(grammar=UV_ENV_GRAMMAR, hook=index_options,
                 rows=(Row("uv.sync", "install", "{cmd} installs the project (its build backend runs)",
                           sets=("builds",),
                           examples=("uv sync", "uv build")),))
UV_READS = verb(grammar=UV_ENV_GRAMMAR, hook=index_options)


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


PINNED_VERSION = lazy_re(r"v?\d+(\.\d+)+([-+.][0-9A-Za-z.-]+)?")


def _pinned_python(spec: str) -> bool:
    """`ruff==0.5.0`, `ruff@0.5.0`: one exact version (a range or @latest is not pinned)."""
    for sep in ("===", "==", "@"):
        name, found, version = spec.partition(sep)
        if found and name and PINNED_VERSION.fullmatch(version.strip()):
            return True
    return False


@emits({"uvx.from": ["uvx --from git+https://github.com/x/y tool", "uvx --with requests tool"],
        "uvx.unpinned": ["uvx ruff check", "uvx pycowsay@latest hi", "uv tool run black ."],
        "uvx.pinned": ["uvx ruff@0.5.0 check", "uvx --from 'black==24.1.0' black ."]})
def uvx_packages(cmd, o) -> None:
    """uvx (`uv tool run`) fetches the tool (or --from) from the registry and runs it; --with adds packages.
    Unless one exact version is named, what runs is whatever the registry serves today."""
    judge_index(cmd, o)
    for spec in o.all("from", "with"):
        cmd.fired.add("uvx.from")
        judge_spec(cmd, spec)
    source = (o.all("from") or o.operands[:1] or [""])[0]
    if not source or UNKNOWN in source or "://" in source or source.startswith(("git+", ".", "/", "~")):
        return      # judged by judge_spec (a URL, a repository, a path) or nothing to run
    if _pinned_python(source):
        cmd.does("install", "uvx.pinned", f"{cmd.name} runs {source} from the registry")
    else:
        cmd.does("run-unpinned", "uvx.unpinned", f"{cmd.name} runs {source} as the registry serves it today (not "
                                                 f"pinned)")


UVX_GRAMMAR = Grammar(long_values=("from", "with", "python", "index", "default-index", "index-url"), stop=True)
UVX = Program(
    "uvx", doc="runs a Python tool from the registry (uv tool run)",
    grammar=UVX_GRAMMAR,
    rows=(Row("uvx.runs", "install", "runs a tool from the registry", examples=("uvx ruff check",)),),
    hook=uvx_packages,
    examples={"uvx --from git+https://x.example/y tool": "dangerous", "uvx ruff check": "high",
              "uvx ruff@0.5.0 check": "moderate"},
)

UV_TOOL_INSTALL = verb(grammar=UV_ENV_GRAMMAR, hook=install_specs, rows=(
    Row("uv.tool.install", "system", "{cmd} puts a tool's programs on PATH for every later shell, outside the project",
        examples=("uv tool install ruff", "uv tool upgrade ruff")),))
UV = Program(
    "uv", doc="the Python package and project manager",
    grammar=Grammar(values="p", long_values=("python", "directory", "project", "config-file", "cache-dir", "color")),
    chdir=("directory", "project"), anywhere=True,     # the project it syncs, builds and runs
    verbs={
        "pip": verb(hook=uv_pip),
        "add": verb(grammar=UV_ENV_GRAMMAR, hook=install_specs),
        "remove": verb(grammar=UV_ENV_GRAMMAR, hook=removes_the_gate,
                       rows=(Row("uv.remove", "install", "{cmd} changes the environment", examples=("uv remove x",)),)),
        **dict.fromkeys(("lock", "venv", "init", "python", "self", "format"), UV_CHANGES),
        **dict.fromkeys(("sync", "build"), UV_BUILDS),
        **dict.fromkeys(("export", "tree", "version", "cache"), UV_READS),
        "run": verb(grammar=Grammar(values="p", long_values=("with", "python", "directory", "project", "extra",
                                                             "group", "env-file", "index", "with-requirements"),
                                    stop=True),
                    rows=(Row("uv.run", "run-project", "uv runs project code (it installs the project first)",
                              sets=("builds",), examples=("uv run pytest",)),),
                    hook=uv_run, chdir=("directory", "project")),
        "tool": verb(
            verbs={"install": UV_TOOL_INSTALL, "upgrade": UV_TOOL_INSTALL,
                   "uninstall": verb(hook=removes_the_gate,
                                     rows=(Row("uv.tool.uninstall", "install", "{cmd} removes a tool",
                                               examples=("uv tool uninstall ruff",)),)),
                   "run": verb(grammar=UVX_GRAMMAR, hook=uvx_packages, rows=(
                       Row("uv.tool.run", "install", "runs a tool from the registry",
                           examples=("uv tool run ruff check",)),))},
            read_only=("list", "dir"),
            default=Row("uv.tool.verb", "install", "{cmd}", examples=("uv tool update-shell",))),
        "publish": verb(rows=(Row("uv.publish", "publish", "publishes a package", examples=("uv publish",)),)),
    },
    default=Row("uv.verb", "unknown", "{cmd}", examples=("uv frobnicate",)),
    examples={"uv sync": "moderate", "uv tree": "safe", "uv add git+https://x.example/y": "dangerous",
              "uv run --project /tmp/x pytest": "high", "uv sync --directory ~/x": "high",
              "uv run --directory sub python -m app": "moderate",
              "uv pip install -r requirements.txt": "moderate"},
)

PIPX_GRAMMAR = Grammar(long_values=("spec", "index-url", "pip-args", "python", "suffix"))
PIPX_INSTALLS = verb(
    grammar=PIPX_GRAMMAR,
    rows=(Row("pipx.install", "system", "{cmd} puts an application's programs on PATH for every later shell, outside "
                                        "the project", examples=("pipx install black", "pipx inject black x")),),
    hook=install_specs,
)


@emits({"pipx.run.unpinned": ["pipx run black .", "pipx run --spec black black ."],
        "pipx.run.pinned": ["pipx run --spec black==24.1.0 black ."]})
def pipx_run(cmd, o) -> None:
    """`pipx run APP ARGS…`: the app (or --spec) is fetched and run; the rest are the app's arguments. Unless
    one exact version is named, it is whatever the registry serves today."""
    judge_index(cmd, o)
    for spec in o.all("spec") + o.operands[:1]:
        judge_spec(cmd, spec)
    source = (o.all("spec") or o.operands[:1] or [""])[0]
    if not source or UNKNOWN in source or "://" in source or source.startswith(("git+", ".", "/", "~")):
        return
    if _pinned_python(source):
        cmd.does("install", "pipx.run.pinned", f"pipx runs {source} from the registry")
    else:
        cmd.does("run-unpinned", "pipx.run.unpinned", f"pipx runs {source} as the registry serves it today (not "
                                                      f"pinned)")


PIPX = Program(
    "pipx", doc="installs and runs Python applications in their own environments",
    verbs={**dict.fromkeys(("install", "inject", "upgrade"), PIPX_INSTALLS),
           "run": verb(grammar=Grammar(long_values=PIPX_GRAMMAR.long_values, stop=True),
                       rows=(Row("pipx.run", "install", "{cmd} runs an application from the registry",
                                 examples=("pipx run black .",)),),
                       hook=pipx_run),
           **dict.fromkeys(("uninstall", "reinstall"),
                           verb(hook=removes_the_gate, rows=(Row("pipx.uninstall", "install", "{cmd}",
                                                                 examples=("pipx uninstall black",)),)))},
    read_only=("list", "environment"),
    default=Row("pipx.verb", "install", "{cmd}", examples=("pipx ensurepath",)),
)

@emits({"poetry.source.foreign": ["poetry source add evil https://evil.example/simple"],
        "poetry.source.known": ["poetry source add torch https://download.pytorch.org/whl/cpu"]})
def poetry_source(cmd, o) -> None:
    """`poetry source add NAME URL`: the project's installs may come from URL."""
    url = o.operands[1] if len(o.operands) > 1 else ""
    if url and not index_is_known(url):
        cmd.does("install-foreign", "poetry.source.foreign", f"adds the package source {url}: what it serves runs "
                                                             f"unreviewed")
    else:
        cmd.does("steer", "poetry.source.known", f"adds the package source {url or '(the default)'}")


@emits({"poetry.config.repositories": ["poetry config repositories.evil https://x.example"],
        "poetry.config.repositories-known": ["poetry config repositories.pypi https://pypi.org/simple"],
        "poetry.config.repositories-runtime": ['poetry config repositories.x "$URL"'],
        "poetry.config": ["poetry config virtualenvs.in-project true"]})
def poetry_config(cmd, o) -> None:
    """`poetry config repositories.NAME URL` says where packages come from; other keys are settings."""
    key = o.operands[0] if o.operands else ""
    value = o.operands[1] if len(o.operands) > 1 else None
    if key.startswith("repositories.") and value is not None:
        _configures_index(cmd, key.replace("repositories.", "index.", 1) + "-index", value,
                          "poetry.config.repositories")
    else:
        cmd.does("change", "poetry.config", "changes poetry's config")


POETRY = Program(
    "poetry", aliases=("pdm", "hatch", "rye"), doc="Python project managers",
    # poetry's -C/--directory (and -P/--project) name the project it works on, before or after the verb
    grammar=Grammar(values="CP", long_values=("directory", "project")), chdir=("C", "directory", "P", "project"),
    anywhere=True,
    verbs={
        "run": verb(grammar=Grammar(stop=True), hook=runs_operands,
                    rows=(Row("poetry.run", "run-project", "{cmd} runs project code", examples=("poetry run pytest",)),
                          )),
        "add": verb(grammar=Grammar(values="GE", long_values=("group", "source", "extras", "python", "platform",
                                                              "markers")),
                    hook=install_specs),
        "publish": verb(rows=(Row("poetry.publish", "publish", "publishes a package", examples=("poetry publish",)),)),
        **dict.fromkeys(("install", "build", "sync"), verb(rows=(
            Row("poetry.install", "install", "{cmd} installs the project (its build backend runs)", sets=("builds",),
                examples=("poetry install", "hatch build")),))),
        "source": verb(verbs={"add": verb(grammar=Grammar(long_values=("priority",)), hook=poetry_source)},
                       default=Row("poetry.source", "change", "{cmd} changes poetry's sources",
                                   examples=("poetry source remove x",))),
        "config": verb(hook=poetry_config),
    },
    read_only=("show", "check", "version", "env", "about", "list", "search"),
    default=Row("poetry.verb", "install", "{cmd}", examples=("poetry lock", "pdm update")),
    examples={"poetry install": "moderate", "poetry -C /tmp/x install": "high",
              "poetry install --directory ~/x": "high", "poetry -C backend run pytest": "moderate"},
)



PROGRAMS = programs(PIP, UV, UVX, PIPX, POETRY)
