"""Python: its options and -c code, the modules -m runs (the safe, the checking, the tools that are programs of
their own, the ones that run a script or serve a directory), and the startup files it reads.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs.inline import INLINE_EXAMPLES, judge_inline
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.sources import python_startup_files
from wispsh.programs.table import Grammar, Program, emits, programs
from wispsh.support.lazyre import lazy_re
from wispsh.programs.interpreters import PROJECT, code_from_stdin, script_operand, stdin_fed


# ---------------------------------------------------------------- python

PYTHON_VALUES = "cmWXQ"
VERSION_WORDS = frozenset({"--version", "-V", "--help", "-h", "-VV", "-v", "version"})
# python -m MODULE: modules that only print; that check or lint files; that are other tools (judged as them)
SAFE_MODULES = frozenset({"json.tool", "this", "platform", "sysconfig", "site", "tabnanny", "calendar", "tokenize",
                          "pyclbr", "dis", "ast", "symtable", "sqlite3.dump", "uuid", "locale", "encodings"})
CHECK_MODULES = frozenset({"py_compile", "compileall", "pyflakes", "pycodestyle", "pydocstyle", "vulture", "pyre",
                           "unittest.mock"})
FORMAT_CHECK = {"black": ("check", "diff"), "isort": ("check-only", "check", "c", "diff"), "autopep8": ("diff", "d"),
                "yapf": ("diff", "d"), "ruff": ()}
TOOL_MODULES = {"pip": "pip", "pip3": "pip", "uv": "uv", "pipx": "pipx", "poetry": "poetry", "twine": "twine",
                "conda": "conda", "pdm": "pdm", "hatch": "hatch", "pytest": "pytest", "tox": "tox", "nox": "nox",
                # checkers whose tables know their write options (codespell -w, mypy --install-types, -o FILE)
                "codespell": "codespell", "mypy": "mypy", "flake8": "flake8", "pylint": "pylint",
                "pyright": "pyright", "bandit": "bandit"}
SCRIPT_MODULES = frozenset({"pdb", "cProfile", "profile", "trace", "runpy"})    # they run the script they are given
CODE_MODULES = frozenset({"timeit"})        # their operands are python statements
MODULE_NAME = lazy_re(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def read_python_words(args) -> tuple[str, str | None, list]:
    """python's own reading: -c CODE and -m MODULE end its options. (how, value, rest): how is "version",
    "code", "module" or "operands"."""
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg == "-" or not arg.startswith("-"):
            break
        if arg in VERSION_WORDS and all(a in VERSION_WORDS for a in args):
            return "version", None, []
        letters = arg[1:] if not arg.startswith("--") else ""
        hit = next((ch for ch in letters if ch in PYTHON_VALUES), None)
        if hit:
            rest = letters[letters.index(hit) + 1:]
            value = rest or (args[i + 1] if i + 1 < n else "")
            i += 1 if rest else 2
            if hit == "c":
                return "code", value, list(args[i:])
            if hit == "m":
                return "module", value, list(args[i:])
            continue
        i += 2 if arg == "--check-hash-based-pycs" else 1
    return "operands", None, list(args[i:])


@emits({**INLINE_EXAMPLES, "python.version": ["python3 -V"],
        "python.inline": ["python3 -c 'print(1)'", 'python -c "$X"'],
        "python.script": ["python3 x.py", "python3 /tmp/x.py"], "python.script-runtime": ['python3 "$S"'],
        "python.stdin": ["echo 'print(1)' | python3"], "python.interactive": ["python3"],
        "python.stdin-file": ["python3 < x.py"], "serve.secret": ["python3 -m http.server -d ~/.ssh"],
        "serve.project": ["python3 -m http.server 8000"],
        "python.module-tool": ["python3 -m pip install requests"], "python.module-safe": ["python3 -m json.tool f"],
        "python.module-check": ["python3 -m py_compile src/a.py", "python3 -m pyflakes src"],
        "python.module-format": ["python3 -m black src"],
        "python.module-format-check": ["python3 -m black --check src", "python3 -m ruff check ."],
        "python.module-code": ["python3 -m timeit 'x = 1'"],
        "python.module-script": ["python3 -m cProfile -o out.prof x.py"],
        "python.module-archive": ["python3 -m zipfile -e a.zip out"],
        "python.module-runtime": ['python3 -m "$M"'],
        "python.serves": ["python3 -m http.server 8000"],
        "python.module": ["python3 -m mypkg.cli", "python3 -m unittest discover"],
        "python.module-build": ["python3 -m build", "python3 -m build --wheel /tmp/x"],
        "python.pycache-prefix": ["python3 -X pycache_prefix=/tmp/c x.py"]})
def python_line(cmd, o: Options) -> None:
    """python: -c CODE (inline, unread), -m MODULE (judged by what the module is), a script file, or stdin."""
    cmd.facts.interp = True
    cmd.facts.runs.extend(python_startup_files(cmd))
    how, value, rest = read_python_words(o.args)
    if how == "version":
        cmd.fired.add("python.version")
    elif how == "code":
        if UNKNOWN in value:
            cmd.facts.runtime_code = True
        cmd.facts.stdin_interp = stdin_fed(cmd)     # inline code may exec() what is piped in
        cmd.does("run-code", "python.inline", f"{cmd.name} -c runs inline code")
        judge_inline(cmd, value, "python")          # what the code visibly does can make it worse
    elif how == "module":
        # -m puts the current directory first on the import path: a module of that name there is what runs
        # (`mkdir json; echo CODE > json/__init__.py; python3 -m json.tool`: the line's own file, run)
        top = value.split(".", 1)[0]
        if top and UNKNOWN not in top:
            cmd.facts.runs.extend(cmd.place(name).path for name in (f"{top}.py", f"{top}/__init__.py"))
        _python_module(cmd, value, rest)
    elif rest and rest[0] != "-":
        script_operand(cmd, rest[0], "python", f"{cmd.name} runs")
    else:
        code_from_stdin(cmd, "python")
    for option in _python_x_options(o.args):
        if option.startswith("pycache_prefix="):
            cmd.fired.add("python.pycache-prefix")
            cmd.write(option.split("=", 1)[1], "python writes compiled modules under")


def _python_x_options(args) -> list[str]:
    """The values of -X options before the script or -c/-m (`-X pycache_prefix=DIR`)."""
    found = []
    for k, word in enumerate(args):
        if word == "-X" and k + 1 < len(args):
            found.append(args[k + 1])
        elif word.startswith("-X") and len(word) > 2:
            found.append(word[2:])
        elif not word.startswith("-") or word in ("-c", "-m") or word.startswith(("-c", "-m")):
            break
    return found


def _python_module(cmd, module: str, rest: list[str]) -> None:
    if UNKNOWN in module:
        cmd.runs_runtime_code("python.module-runtime", f"{cmd.name} -m runs a module known only at run time")
        return
    operands = [w for w in rest if not w.startswith("-")]
    if module in TOOL_MODULES:
        cmd.fired.add("python.module-tool")
        cmd.delegate_to = [TOOL_MODULES[module], *rest]     # python -m pip … is pip …
    elif module in SAFE_MODULES:
        cmd.fired.add("python.module-safe")
        for word in operands:
            cmd.read(word)
    elif module in CHECK_MODULES:
        cmd.fired.add("python.module-check")
        for word in operands:
            cmd.read(word, "checks")
    elif module in FORMAT_CHECK:
        _formatter(cmd, module, rest, operands)
    elif module in CODE_MODULES:
        cmd.does("run-code", "python.module-code", f"python -m {module} runs the statements it is given")
    elif module in SCRIPT_MODULES:
        cmd.does("run-project", "python.module-script", f"runs a script under python -m {module}")
        words = list(rest)
        while words and words[0].startswith("-"):
            option = words.pop(0)
            if option in ("-o", "-s", "-m", "--outfile", "--file", "-c") and words:
                value = words.pop(0)
                if option in ("-o", "--outfile", "--file"):
                    cmd.write(value, f"python -m {module} writes")
        if words and words[0] != "-":
            cmd.run_file(words[0], f"python -m {module} runs")
    elif module in ("zipfile", "tarfile"):
        _archive_module(cmd, module, rest)
    elif module == "build":
        # `python -m build [SRCDIR]`: the source tree's build backend runs (setup.py, an in-tree backend)
        o = Grammar(values="oC", long_values=("outdir", "config-setting", "installer")).read(rest)
        cmd.does("run-project", "python.module-build", "python -m build runs the build backend of the source tree")
        cmd.build_in((o.operands or ["."])[0], "python -m build")
    elif module == "http.server":
        o = Grammar(values="db", long_values=("directory", "bind", "protocol")).read(rest)
        cmd.fired.add("python.serves")
        serve(cmd, o.value("d", "directory") or ".", "python -m http.server")
    else:
        cmd.does("run-project", "python.module", f"runs python module {module}")
        if MODULE_NAME.match(module):
            # a module of the project runs (and so does what a line wrote there before): for write-then-run
            base = cmd.place(module.replace(".", "/")).path
            cmd.facts.runs.extend((base + ".py", base + "/__main__.py", base + "/"))


def _formatter(cmd, module: str, rest: list[str], operands: list[str]) -> None:
    """black/isort/ruff …: a check or diff only reads; otherwise the files are rewritten."""
    o = Grammar(long_values=("config", "line-length", "target-version", "include", "exclude", "select", "ignore")
                ).read(rest)
    words = list(o.operands)
    if module == "ruff":
        verb_word = words.pop(0) if words else "check"
        checks = verb_word == "check" and not o.has("fix", "unsafe-fixes") or verb_word == "format" and o.has(
            "check", "diff") or verb_word not in ("check", "format")
    else:
        checks = o.has(*FORMAT_CHECK[module])
    if checks:
        cmd.fired.add("python.module-format-check")
        for word in words:
            cmd.read(word, "checks")
        return
    cmd.does("change", "python.module-format", f"python -m {module} rewrites files")
    for word in words or ["."]:
        cmd.write(word, f"python -m {module} rewrites")


def _archive_module(cmd, module: str, rest: list[str]) -> None:
    """python -m zipfile/tarfile -e ARCHIVE DIR extracts into DIR; -c ARCHIVE FILES… writes ARCHIVE."""
    cmd.does("change", "python.module-archive", f"python -m {module} reads or writes an archive")
    words = list(rest)
    if words[:1] in (["-e"], ["--extract"]) and len(words) >= 3:
        cmd.read(words[1])
        cmd.write(words[2], "extracts into")
    elif words[:1] in (["-c"], ["--create"]) and len(words) >= 2:
        cmd.write(words[1])
        for word in words[2:]:
            cmd.read(word, "archives")
    else:
        for word in words[1:]:
            cmd.read(word)


def serve(cmd, directory: str, who: str) -> None:
    """A file server: the project (or a temp dir) is a dev server; anything else is opened to the network, and a
    directory of secrets is leaked."""
    cmd.facts.interp = True
    where = cmd.place(directory)
    if where.cls in places.SECRET_CLASSES or where.cls in (places.DOTFILE, places.WISP, places.WISP_KEY):
        cmd.does("leak", "serve.secret", f"{who} serves {where.path} ({where.cls}) over http")
    elif where.cls not in PROJECT + (places.TEMP,):
        cmd.does("expose", "serve.outside", f"{who} serves {where.path} ({where.cls}) over http")
    else:
        cmd.does("serve", "serve.project", f"{who} serves the project's files over http")


PYTHON = Program("python", aliases=("python2", "python3", "pypy", "pypy3"),
                 doc="python: -c CODE, -m MODULE, a script, or code from its input", hook=python_line,
                 examples={"python3 -m pytest": "moderate", "python3 -c 'print(1)'": "high", "python3 x.py": "moderate",
                           "python3 -m http.server -d ~/.ssh": "dangerous", "python3 -m py_compile src/a.py": "safe"})


PROGRAMS = programs(PYTHON)
