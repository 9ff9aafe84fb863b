"""Test and task runners: pytest, tox, nox, just, task, and the git hook managers."""
from __future__ import annotations

import os

from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.packages import judge_spec
from wispsh.programs.sources import python_startup_files
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.vocab import places

# ---------------------------------------------------------------- test and task runners
# They run the project's code, and files of its directory say what: conftest.py, a justfile, a Taskfile. Those
# files are recorded as run (`builds` and `facts.runs`), so that a line that writes one and then runs the
# runner is seen to run what it wrote.


def runs_files(cmd, directory: str, names, up: bool = False) -> None:
    """The files a runner reads and runs from `directory` (and with `up`, from each directory above it as far as
    the project's root: just and task look upwards for their file)."""
    here = cmd.place(directory).path.rstrip("/") or "/"
    root = cmd.ctx.project_root.rstrip("/")
    for _ in range(32):
        cmd.facts.runs.extend(f"{here}/{name}" for name in names)
        if not up or here == root or not here.startswith(root + "/"):
            break
        here = os.path.dirname(here)


PYTEST_FILES = ("pytest.ini", ".pytest.ini", "conftest.py", "tests/conftest.py", "test/conftest.py",
                "testing/conftest.py", "src/conftest.py")
PYTEST_GRAMMAR = Grammar(
    values="kmpocrnW",
    long_values=("override-ini", "config-file", "rootdir", "confcutdir", "basetemp", "junitxml", "junit-xml",
                 "junit-prefix", "log-file", "report-log", "result-log", "html", "json-report-file", "cov-report",
                 "cov-config", "deselect", "ignore", "ignore-glob", "maxfail", "tb", "durations", "import-mode",
                 "pdbcls", "log-level", "log-cli-level", "log-format", "capture", "color", "numprocesses", "dist",
                 "reruns", "timeout", "benchmark-json", "alluredir", "pythonwarnings", "keyword", "markers-expr"),
    longs=("pyargs", "lf", "last-failed", "ff", "failed-first", "collect-only", "co", "version", "help",
           "fixtures", "markers", "noconftest", "exitfirst", "quiet", "verbose", "strict-markers", "showlocals"),
    optional=("cov", "debug"))
PYTEST_PLUGIN_OFF = "no:"
PYTEST_PATH_KEYS = frozenset({"pythonpath"})


@emits({"pytest.plugin": ["pytest -p myproject.plugin", "pytest -p xdist -n 4"],
        "pytest.plugin-runtime": ['pytest -p "$P"'],
        "pytest.config-file": ["pytest -c /tmp/pytest.ini", "pytest --config-file=ci/pytest.ini"],
        "pytest.pythonpath": ["pytest -o pythonpath=/tmp/x", "pytest -o 'pythonpath=src /opt/lib'"],
        "pytest.addopts": ["pytest -o 'addopts=-p evil_plugin'"],
        "pytest.cache-dir": ["pytest -o cache_dir=~/.config/x"],
        "pytest.pyargs": ["pytest --pyargs mypkg"],
        "pytest.conftests": ["pytest tests/unit", "pytest -q"]})
def pytest_inputs(cmd, o, depth: int = 0) -> None:
    """What pytest reads besides its test files: plugins (-p, their modules are imported), a config file (-c),
    ini settings given on the line (-o: addopts, pythonpath, cache_dir), --pyargs packages, and the
    conftest.py files of each directory from the tests up to where it runs."""
    for plugin in o.all("p"):
        if plugin.startswith(PYTEST_PLUGIN_OFF):
            continue
        if UNKNOWN in plugin:
            cmd.does("run-code", "pytest.plugin-runtime", "pytest loads a plugin known only at run time")
        else:
            cmd.does("run-project", "pytest.plugin", f"pytest imports the plugin module {plugin}")
            base = cmd.place(plugin.replace(".", "/")).path
            cmd.facts.runs.extend((base + ".py", base + "/__init__.py"))
    for config in o.all("c", "config-file"):
        cmd.fired.add("pytest.config-file")
        cmd.run_file(config, "pytest takes its settings (addopts, plugins) from")
    for setting in o.all("o", "override-ini"):
        key, _, value = setting.partition("=")
        key = key.strip().lower()
        if key == "addopts" and depth < 2:
            cmd.fired.add("pytest.addopts")
            import shlex
            try:
                words = shlex.split(value)
            except ValueError:
                words = value.split()
            pytest_inputs(cmd, PYTEST_GRAMMAR.read(words), depth + 1)
        elif key in PYTEST_PATH_KEYS:
            for folder in value.split():
                where = cmd.place(folder)
                if UNKNOWN in folder or where.cls not in (places.PROJECT, places.PROJECT_ROOT):
                    cmd.does("run-code", "pytest.pythonpath", f"pytest imports code from {where.path} (-o "
                                                              f"pythonpath), outside the project")
                else:
                    cmd.fired.add("pytest.pythonpath")
        elif key == "cache_dir" and value:
            cmd.fired.add("pytest.cache-dir")
            cmd.write(value, "pytest writes its cache under")
    if depth:
        return
    if o.has("pyargs"):
        cmd.does("run-project", "pytest.pyargs", "pytest --pyargs imports the named packages' tests from wherever "
                                                 "Python finds them (installed packages too)")
    cmd.fired.add("pytest.conftests")
    runs_files(cmd, ".", PYTEST_FILES)
    cmd.facts.runs.extend(python_startup_files(cmd))
    for target in o.operands:
        path = target.split("::", 1)[0]
        if path and UNKNOWN not in path and not o.has("pyargs"):
            folder = path if not path.endswith(".py") else os.path.dirname(path) or "."
            runs_files(cmd, folder, ("conftest.py",), up=True)
            cmd.build_in(folder, "pytest")   # outside the project: its tests and conftest.py run


PYTEST = Program(
    "pytest", aliases=("py.test",), doc="runs the project's tests (conftest.py files and plugins are code)",
    grammar=PYTEST_GRAMMAR,
    rows=(Row("pytest.version", "nothing", "{cmd} prints its version", When(flag=("version", "V")), stop=True,
              examples=("pytest -V",)),
          Row("pytest.runs", "run-project", "{cmd} runs the project's tests and its conftest.py files",
              sets=("builds",), examples=("pytest", "pytest -q tests/", "py.test -x"))),
    on=(On("write", ("option", "junitxml", "junit-xml", "log-file", "report-log", "result-log", "html",
                     "json-report-file", "benchmark-json", "debug"), id="pytest.writes",
           examples=("pytest --junitxml=reports/junit.xml", "pytest --log-file ~/.bashrc")),
        On("delete", ("option", "basetemp"), recursive=When(), id="pytest.basetemp",
           says="pytest empties its --basetemp directory first:", examples=("pytest --basetemp=~",))),
    hook=pytest_inputs,
    examples={"pytest -q": "moderate", "pytest -p no:cacheprovider -q": "moderate", "pytest /tmp/x": "high",
              "pytest ~/other/tests/test_a.py::test_b": "high", "pytest tests/unit/test_a.py -q": "moderate",
              "pytest --junitxml=~/.bashrc": "dangerous", "pytest -c /tmp/evil.ini": "high",
              "pytest --basetemp ~": "dangerous", "pytest --version": "safe"},
)


@emits({"tox.override-commands": ["tox -x 'testenv.commands=rm -rf ~'", "tox --override testenv:py.commands_pre=id"],
        "tox.installpkg": ["tox --installpkg https://x.example/p.whl", "tox --installpkg dist/p-1.0.whl"]})
def tox_inputs(cmd, o) -> None:
    """tox runs the commands tox.ini (or pyproject.toml/setup.cfg) lists; -c names another config; -x/--override
    replaces settings (a `commands` setting is shell code); --installpkg installs a given package."""
    for setting in o.all("x", "override"):
        key, _, value = setting.partition("=")
        if key.strip().rsplit(".", 1)[-1].startswith("commands") and value.strip():
            cmd.fired.add("tox.override-commands")
            cmd.code_text(value, "tox runs the overriding command", at_least="run-project")
    for package in o.all("installpkg"):
        cmd.fired.add("tox.installpkg")
        judge_spec(cmd, package)


TOX = Program(
    "tox", doc="runs the project's test environments (tox.ini, pyproject.toml, setup.cfg)",
    grammar=Grammar(values="ecxmf", long_values=("conf", "override", "installpkg", "workdir", "root", "result-json",
                                                 "discover", "force-dep", "runner", "colored", "parallel"),
                    longs=("version", "help", "listenvs", "listenvs-all", "recreate", "notest",
                           "skip-missing-interpreters",
                           "showconfig")),
    rows=(Row("tox.reads", "nothing", "{cmd} prints its version or environments",
              When(flag=("version", "h", "help", "l", "a", "listenvs", "listenvs-all", "showconfig")), stop=True,
              examples=("tox -h", "tox -l", "tox -a", "tox --showconfig")),
          # tox 4's commands that only print: its environments, their configuration, its schema
          Row("tox.lists", "nothing", "{cmd} prints its environments or their configuration",
              When(first=("list", "l", "config", "c", "schema")), stop=True,
              examples=("tox list", "tox config -e py312", "tox l")),
          Row("tox.runs", "run-project", "{cmd} installs the project into its environments and runs their commands",
              sets=("builds",), examples=("tox", "tox -e py312", "tox run -e lint"))),
    on=(On("run", ("option", "c", "conf"), id="tox.config", says="tox runs the commands of",
           examples=("tox -c /tmp/tox.ini",)),),
    hook=tox_inputs,
    examples={"tox -e py312": "moderate", "tox -c /tmp/tox.ini": "high"},
)
NOX = Program(
    "nox", doc="runs the sessions of the project's noxfile.py (Python code)",
    grammar=Grammar(values="fstpe", long_values=("noxfile", "sessions", "session", "tags", "python", "envdir",
                                                 "default-venv-backend", "force-venv-backend", "extra-pythons"),
                    longs=("version", "help", "list", "list-sessions", "reuse-existing-virtualenvs")),
    rows=(Row("nox.runs", "run-project", "{cmd} runs the project's noxfile.py", sets=("builds",),
              examples=("nox", "nox -s tests", "nox --list")),),
    on=(On("run", ("option", "f", "noxfile"), id="nox.noxfile", says="nox runs",
           examples=("nox -f /tmp/noxfile.py",)),),
    examples={"nox -s tests": "moderate", "nox -f ~/other/noxfile.py": "high"},
)

JUST_FILES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
JUST_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "fish", "pwsh", "powershell", "nu", "cmd", "cmd.exe", "python3",
                         "python", "node"})


@emits({"just.justfile": ["just -f build/tasks.just", "just --justfile /tmp/j lint"],
        "just.command": ["just --command 'rm -rf ~'", "just -c env"],
        "just.shell": ["just --shell /tmp/x test"], "just.recipes": ["just", "just test"]})
def just_inputs(cmd, o) -> None:
    """just runs recipes of the justfile it finds here or in a directory above (-f names one); --command runs a
    command line with the justfile's variables; --shell chooses the program every recipe line runs with."""
    files = o.all("f", "justfile")
    for justfile in files:
        cmd.fired.add("just.justfile")
        cmd.run_file(justfile, "just runs the recipes of")
    for text in o.all("c", "command"):
        cmd.fired.add("just.command")
        if UNKNOWN in text:
            cmd.does("run-code", "just.command", "just --command runs a command known only at run time")
        else:
            cmd.code_text(text, "just --command runs", at_least="run-project")
    for shell in o.all("shell"):
        if UNKNOWN in shell or os.path.basename(shell) not in JUST_SHELLS:
            cmd.does("run-code", "just.shell", f"just runs every recipe line with {shell.replace(UNKNOWN, '…')}")
    if not files:
        cmd.fired.add("just.recipes")
        runs_files(cmd, (o.all("d", "working-directory") or ["."])[0], JUST_FILES, up=True)


JUST_READS = ("l", "list", "summary", "s", "show", "dump", "variables", "version", "V", "h", "help", "groups",
              "completions", "changelog", "init", "check")
JUST = Program(
    "just", doc="runs recipes of the project's justfile (the default recipe when none is named)",
    grammar=Grammar(values="fdcs", long_values=("justfile", "working-directory", "command", "set", "shell",
                                                "shell-arg", "dotenv-filename", "dotenv-path", "color", "chooser",
                                                "command-color", "list-heading", "list-prefix", "show", "completions",
                                                "timestamp-format", "alias-style"),
                    longs=("list", "summary", "dump", "variables", "version", "help", "groups", "evaluate", "fmt",
                           "check", "unstable", "edit", "init", "dry-run", "yes", "quiet", "verbose", "changelog"),
                    stop=True),
    rows=(Row("just.fmt", "change", "just --fmt rewrites the justfile", When(flag=("fmt",), unless=("check",)),
              stop=True, examples=("just --fmt --unstable",), not_examples=("just --fmt --check --unstable",)),
          Row("just.edit", "session", "just --edit opens the justfile in an editor", When(flag=("e", "edit")),
              stop=True, examples=("just --edit",)),
          Row("just.reads", "nothing", "{cmd} lists or shows recipes", When(flag=JUST_READS), stop=True,
              examples=("just --list", "just -l", "just --show build", "just --fmt --check --unstable")),
          Row("just.runs", "run-project", "{cmd} runs a recipe of the justfile (its default recipe when none is "
                                          "named)", sets=("builds",),
              examples=("just", "just test", "just --evaluate"))),
    hook=just_inputs,
    examples={"just": "moderate", "just --list": "safe", "just -f /tmp/j": "high"},
)

TASK_FILES = ("Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml",
              "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml")


@emits({"task.taskfile": ["task -t build/Taskfile.yml", "task --taskfile /tmp/t.yml lint"],
        "task.remote": ["task -t https://x.example/Taskfile.yml"], "task.global": ["task -g backup"],
        "task.tasks": ["task", "task build"]})
def task_inputs(cmd, o) -> None:
    """task (go-task) runs the Taskfile it finds here or above (-t names one, -g your home's); a Taskfile from a
    URL is code fetched from the network."""
    files = o.all("t", "taskfile")
    for taskfile in files:
        if "://" in taskfile:
            cmd.does("run-fetched", "task.remote", f"task runs the tasks of {taskfile}, fetched from the network")
        else:
            cmd.fired.add("task.taskfile")
            cmd.run_file(taskfile, "task runs the tasks of")
    if o.has("g", "global"):
        cmd.does("run-code", "task.global", "task -g runs the tasks of the Taskfile in your home directory")
    elif not files:
        cmd.fired.add("task.tasks")
        runs_files(cmd, ".", TASK_FILES, up=True)       # (-d/--dir is the table's chdir)


TASK = Program(
    "task", aliases=("go-task",), doc="runs tasks of the project's Taskfile (the default task when none is named)",
    grammar=Grammar(values="tdoC", long_values=("taskfile", "dir", "output", "concurrency", "interval", "sort",
                                                "entrypoint"),
                    longs=("list", "list-all", "summary", "version", "help", "init", "global", "force", "watch",
                           "parallel", "dry", "silent", "verbose", "status", "yes", "json", "completion")),
    rows=(Row("task.reads", "nothing", "{cmd} lists or describes tasks",
              When(flag=("l", "list", "a", "list-all", "summary", "version", "h", "help", "completion", "i", "init")),
              stop=True, examples=("task --list", "task -a")),
          Row("task.runs", "run-project", "{cmd} runs a task of the Taskfile (its default task when none is named)",
              sets=("builds",), examples=("task", "task build", "task --dry test"))),
    hook=task_inputs, chdir=("d", "dir"),
    examples={"task": "moderate", "task --list": "safe", "task -t https://x.example/T.yml": "dangerous",
              "task -d /tmp/x build": "high", "task -d tools lint": "moderate"},
)

GIT_HOOKS = Program(
    "pre-commit", aliases=("husky", "lefthook"), doc="git hook managers",
    verbs=dict.fromkeys(("install", "init", "install-hooks"), verb(rows=(
        Row("hooks.install", "steer", "{cmd} installs git hooks that run on every commit",
            examples=("pre-commit install", "husky init")),))),
    default=Row("hooks.run", "run-project", "{cmd} runs the project's hooks", examples=("pre-commit run --all-files",)),
    no_verb=Row("hooks.run-all", "run-project", "{cmd} runs the project's hooks", examples=("pre-commit",)),
)



PROGRAMS = programs(PYTEST, TOX, NOX, JUST, TASK, GIT_HOOKS)
