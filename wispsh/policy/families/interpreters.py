"""Shells, interpreters, eval/source, editors with command options, and shell builtins that run text as code.

Code the gate can read (a literal `sh -c '…'`, `eval '…'`) is split into parts of its own, so the part that
holds it is only low; code it cannot read (inline interpreter code, run-time text, a pipe) is high.
"""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.policy.env import judge_variable
from wispsh.programs.grammar import UNKNOWN
from wispsh.support.lazyre import lazy_re

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ksh93", "pdksh", "fish", "csh", "tcsh", "ash",
                    "yash", "posh", "rbash", "oksh", "loksh", "elvish", "nu", "xonsh", "ion", "busybox-sh"})


def _stdin_fed(c: Cmd) -> bool:
    part = c.part
    if part is None:
        return False
    if part.stdin_code is not None:
        return True
    if part.pipeline is not None and part.stage > 0 or part.origin == ">()":
        return True
    return any(r.op in ("<", "<<", "<<-", "<<<", "<&", "<>") and r.fd in (None, "0") for r in part.redirects)


def _code_from_stdin(c: Cmd, who: str) -> None:
    c.facts.stdin_interp = True
    if _stdin_fed(c):
        c.at_least(H, f"{who} runs code from its input")
    else:
        c.at_least(M, f"starts an interactive {who}")


def _process_word(word: str) -> bool:
    return word.startswith(UNKNOWN) and word.strip(UNKNOWN) == ""


def shell(c: Cmd) -> None:
    c.facts.interp = True
    args = c.args
    code = None
    script = None
    i, n = 0, len(args)
    reads_stdin = False
    while i < n:
        arg = args[i]
        if arg in ("--rcfile", "--init-file"):
            if i + 1 < n:
                c.run_file(args[i + 1], "sources")
            i += 2
            continue
        if arg in ("-o", "+o", "-O", "+O"):
            i += 2
            continue
        if arg == "--" or arg == "-":
            i += 1
            break
        if arg.startswith("--"):
            i += 1
            continue
        if arg.startswith(("-", "+")) and len(arg) > 1 and UNKNOWN not in arg:
            letters = arg[1:]
            if "c" in letters:
                code = i
            if "s" in letters:
                reads_stdin = True
            if "o" in letters or "O" in letters:
                i += 1
            i += 1
            continue
        break
    operands = args[i:]
    if code is not None:
        text = operands[0] if operands else ""
        if c.via_xargs or not operands:
            c.at_least(H, f"{c.name} -c runs code from its input")
            c.facts.runtime_code = True
        elif UNKNOWN in text:
            c.at_least(H, f"{c.name} -c runs code known only at run time")
            c.facts.runtime_code = True
        elif c.delegated:
            c.code_text(text, f"{c.name} -c")     # reached through a rule: the splitter never saw it
        # else: a literal command line, split into parts of its own and judged there
        return
    if operands and not reads_stdin:
        script = operands[0]
        if UNKNOWN in script and (_process_word(script) or script.startswith(UNKNOWN)):
            c.at_least(H, f"{c.name} runs a script known only at run time")
            c.facts.runtime_code = True
        else:
            c.run_file(script, f"{c.name} runs")
        return
    _code_from_stdin(c, c.name)


PYTHON_SHORT_VALUES = "cmWXQ"


def python(c: Cmd) -> None:
    c.facts.interp = True
    args = c.args
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        if arg == "-" or not arg.startswith("-") or arg == "--":
            break
        if arg in ("--version", "-V", "--help", "-h", "-VV"):
            return
        letters = arg[1:] if not arg.startswith("--") else ""
        hit = next((ch for ch in letters if ch in PYTHON_SHORT_VALUES), None)
        if hit:
            rest = letters[letters.index(hit) + 1:]
            value = rest or (args[i + 1] if i + 1 < n else "")
            i += 1 if rest else 2
            if hit == "c":
                if UNKNOWN in value:
                    c.facts.runtime_code = True
                c.facts.stdin_interp = _stdin_fed(c)     # inline code may exec() what is piped in
                c.at_least(H, f"{c.name} -c runs inline code")
                return
            if hit == "m":
                _python_module(c, value, args[i:])
                return
            continue
        i += 1
    operands = args[i:]
    if operands and operands[0] != "-":
        script = operands[0]
        if UNKNOWN in script and script.startswith(UNKNOWN):
            c.facts.runtime_code = True
            c.at_least(H, f"{c.name} runs a script known only at run time")
        else:
            c.run_file(script, f"{c.name} runs")
        return
    _code_from_stdin(c, c.name)


SAFE_MODULES = frozenset({"json.tool", "this", "platform", "sysconfig", "site", "tabnanny", "calendar",
                          "pydoc", "timeit", "tokenize"})
PACKAGE_MODULES = {"pip": "pip", "pip3": "pip", "uv": "uv", "pipx": "pipx", "poetry": "poetry",
                   "ensurepip": None, "venv": None, "virtualenv": None, "build": None, "twine": "twine",
                   "conda": "conda"}


def _python_module(c: Cmd, module: str, rest: list[str]) -> None:
    if module in PACKAGE_MODULES and PACKAGE_MODULES[module]:
        c.delegate_to = [PACKAGE_MODULES[module], *rest]
        return
    if module in SAFE_MODULES:
        return
    if module == "http.server":
        c.at_least(M, "serves files over http")
        o = c.opts("db", ("directory", "bind", "protocol"), args=rest)
        where = c.place(o.value("d", "directory") or ".")
        if where.cls in places.SECRET_CLASSES or where.cls in (places.DOTFILE, places.WISP, places.WISP_KEY):
            c.at_least(D, f"serves {where.path} ({where.cls}) over http")
        elif where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.at_least(H, f"serves {where.path} ({where.cls}) over http")
        return
    c.at_least(M, f"runs python module {module}")


# A perl one-liner that is nothing but substitutions (`s/a/b/g`, `tr/a-z/A-Z/`) is sed: no `e` flag, no
# `@{[…]}`/`${\…}` interpolation, no regex code blocks, no backticks.
_PERL_SUBST = lazy_re(r"\s*(?:(?:s|tr|y)([/|#,!:%])(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gimsxrcdnu]*\s*;?\s*)+",
                      re.S)
_PERL_CODE_IN_SUBST = lazy_re(r"[@$]\{|\(\?\??\{|`|\$\(|\$\$")


def _plain_substitution(code: str) -> bool:
    m = _PERL_SUBST.fullmatch(code)
    return m is not None and not _PERL_CODE_IN_SUBST.search(code) and UNKNOWN not in code


def _inline(c: Cmd, code_options: tuple, file_options: tuple = (), short_values: str = "",
            long_values=(), load_options: tuple = (), in_place: str = "") -> None:
    """node/perl/ruby/php/…: inline code is high, a project script moderate, a pipe high.

    in_place: the option letter that makes the program edit its file operands (perl/ruby -i).
    """
    c.facts.interp = True
    if c.args and all(a in ("--version", "-v", "-V", "--help", "-h", "version") for a in c.args):
        return
    o = c.opts(short_values, long_values)
    edits = bool(in_place) and o.has(in_place)
    for option in code_options:
        codes = o.all(option)
        if not codes:
            continue
        files = o.operands
        for word in files:
            if edits:
                c.write(word, f"{c.name} -i edits")
            else:
                c.read(word)
        if c.name == "perl" and all(_plain_substitution(code) for code in codes) and not o.all("M", "m", "I") \
                and not o.has("d", "M", "m", "I"):
            return      # sed in perl's spelling: judged by the files it reads or edits
        for value in codes:
            if UNKNOWN in value:
                c.facts.runtime_code = True
        c.facts.stdin_interp = _stdin_fed(c)
        c.at_least(H, f"{c.name} runs inline code")
        return
    for option in load_options:
        for value in o.all(option):
            c.at_least(H, f"{c.name} loads code from {value.replace(UNKNOWN, '…')}")
    for option in file_options:
        for value in o.all(option):
            c.run_file(value, f"{c.name} runs")
            return
    operands = o.operands
    if operands and operands[0] != "-":
        script = operands[0]
        if script.startswith(UNKNOWN):
            c.facts.runtime_code = True
            c.at_least(H, f"{c.name} runs a script known only at run time")
        else:
            c.run_file(script, f"{c.name} runs")
        for word in operands[1:] if edits else ():
            c.write(word, f"{c.name} -i edits")
        return
    _code_from_stdin(c, c.name)


def node(c: Cmd) -> None:
    _inline(c, ("e", "eval", "p", "print"), (), "eprrC", ("eval", "print", "require", "import", "loader",
                                                           "experimental-loader", "conditions", "env-file"),
            ("r", "require", "import", "loader", "experimental-loader"))


def perl(c: Cmd) -> None:
    # -i, -l, -0, -x and -C take only an attached value (`-i.bak`, `-l0`): never the next word
    _inline(c, ("e", "E"), (), "eEIMm", (), ("M", "m"), in_place="i")


def ruby(c: Cmd) -> None:
    _inline(c, ("e",), (), "erIECFK", ("encoding",), ("r",), in_place="i")


def php(c: Cmd) -> None:
    if "-S" in c.args:
        c.at_least(M, "serves files over http (php -S)")
        c.facts.interp = True
        o = c.opts("Stcd")
        where = c.place(o.value("t") or ".")
        if where.cls in places.SECRET_CLASSES or where.cls in (places.DOTFILE, places.WISP, places.WISP_KEY):
            c.at_least(D, f"serves {where.path} ({where.cls}) over http")
        elif where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.at_least(H, f"serves {where.path} ({where.cls}) over http")
        return
    _inline(c, ("r", "B", "R", "E", "F"), ("f",), "rBREFfcdzt", ())


def lua(c: Cmd) -> None:
    _inline(c, ("e",), (), "elW", ())


def generic_eval(c: Cmd) -> None:
    """Interpreters whose inline code option is -e (Rscript, julia, osascript, tclsh, expect -c)."""
    _inline(c, ("e", "c", "eval", "E", "Command", "command", "C"), ("f", "File", "file"), "ecfECF",
            ("eval", "Command", "command", "File", "file"))


def deno(c: Cmd) -> None:
    c.facts.interp = True
    sub = c.args[0] if c.args else ""
    if sub == "eval" or sub == "repl":
        c.at_least(H, "deno runs inline code")
    elif sub == "run" or sub.endswith((".ts", ".js")):
        target = next((a for a in c.args[1:] if not a.startswith("-")), "")
        if target.startswith(("http://", "https://", "npm:", "jsr:")):
            c.at_least(H, "deno runs code from the network")
        elif target:
            c.run_file(target, "deno runs")
    elif sub in ("install", "add", "cache"):
        c.at_least(M, "deno installs packages")
    else:
        c.at_least(M, f"deno {sub}")


def loader(c: Cmd) -> None:
    """ld.so PROGRAM: the dynamic loader runs any file as a program (no exec bit needed)."""
    o = c.opts("", ("library-path", "preload", "audit", "argv0", "inhibit-rpath"), stop_at_operand=True)
    if o.all("preload", "audit", "library-path"):
        c.at_least(H, f"{c.name} loads libraries it is given")
    if o.operands and UNKNOWN not in o.operands[0]:
        c.run_file(o.operands[0], f"{c.name} runs")
    elif o.operands:
        c.at_least(H, f"{c.name} runs a program known only at run time")


def opener(c: Cmd) -> None:
    """open/xdg-open: hands a file or URL to its default application, which may run it (a script, an app)."""
    o = c.opts("abW", ("args",))
    if o.value("a", "b") is not None or o.has("args"):
        c.at_least(M, f"{c.name} starts an application")
    for word in o.operands:
        if "://" in word or word.startswith("mailto:"):
            c.at_least(L, f"{c.name} opens a link")
            continue
        where = c.place(word)
        if word.endswith((".sh", ".command", ".app", ".tool", ".py", ".desktop", ".exe", ".bat", ".jar",
                          ".pkg", ".dmg", ".workflow", ".scpt", ".terminal")) or o.value("a", "b") is not None:
            c.run_file(word, f"{c.name} runs")
        elif where.cls not in (places.PROJECT, places.PROJECT_ROOT, places.TEMP):
            c.at_least(L, f"{c.name} opens {word}")


def eval_(c: Cmd) -> None:
    text = " ".join(c.args)
    if UNKNOWN in text or c.via_xargs:
        c.facts.runtime_code = True
        c.at_least(H, "eval runs text known only at run time")
    elif c.delegated:
        c.code_text(text, "eval")
    # else: literal text, split into parts of its own and judged there


def source(c: Cmd) -> None:
    if not c.args:
        return
    script = c.args[0]
    if script.startswith(UNKNOWN):
        c.facts.runtime_code = True
        c.at_least(H, "sources a script known only at run time")
        return
    where = c.run_file(script, "sources")
    if where.path == "/dev/stdin":
        c.facts.stdin_interp = True


# Editor options whose next word is a value, not a file to edit.
EDITOR_VALUES = frozenset({"-c", "--cmd", "-S", "-u", "-U", "-s", "-W", "-w", "-t", "-q", "-T", "-i", "-r",
                           "--eval", "-l", "--load", "-f", "--funcall", "-x", "--script", "--servername",
                           "--remote", "-g", "--goto", "--diff", "--user-data-dir", "--extensions-dir",
                           "--profile", "-a", "--add"})
READ_ONLY_EDITORS = frozenset({"view"})


def editor(c: Cmd) -> None:
    runs = [a for a in c.args if a.startswith("+") or a in ("-c", "--cmd", "-S", "-u", "-s", "-es", "-e", "-E",
                                                             "-Es", "-W", "--eval", "-l", "--load", "-f",
                                                             "--funcall", "--batch", "-batch", "-x", "--script",
                                                             "-ex", "-x")]
    if runs:
        c.at_least(H, f"{c.name} runs editor commands ({runs[0]}), which can run shell commands")
    else:
        c.at_least(M, f"opens {c.name} to edit files")
    read_only = c.name in READ_ONLY_EDITORS or "-R" in c.args or "-M" in c.args
    skip = False
    for arg in c.args:
        if skip:
            skip = False
        elif arg in EDITOR_VALUES or arg.startswith("-") and arg.lstrip("-") in ("sc", "esc", "Esc", "nc"):
            skip = True
        elif arg.startswith(("-", "+")) or arg in (".",) or "://" in arg:
            continue
        elif read_only:
            c.read(arg)
        else:
            c.write(arg, f"{c.name} edits")     # whatever it opens, it can save


def ed(c: Cmd) -> None:
    c.at_least(M, "edits files with ed")
    if c.part is not None and c.part.stdin_code and "!" in c.part.stdin_code:
        c.at_least(H, "ed script runs shell commands (!)")
    o = c.opts("p")
    for word in o.operands:
        if not word.startswith("!"):
            c.write(word, "ed edits")


def debugger(c: Cmd) -> None:
    if any(a in ("-ex", "-x", "--batch", "-batch", "--command", "--eval-command", "-o", "--one-line",
                 "-s", "--source") or a.startswith(("--eval-command=", "--command=")) for a in c.args):
        c.at_least(H, f"{c.name} runs debugger commands")
    else:
        c.at_least(H, f"{c.name} attaches to or runs a program under a debugger")


def script(c: Cmd) -> None:
    o = c.opts("cTtIOBEom", ("command", "timing", "log-in", "log-out", "log-io", "echo", "output-limit"))
    command = o.value("c", "command")
    if command is not None and UNKNOWN in command:
        c.facts.runtime_code = True
        c.at_least(H, "script -c runs a command line known only at run time")
    elif command is not None:
        c.code_text(command, "script -c runs", at_least=M)     # the splitter leaves it whole: judge it here
    else:
        c.at_least(M, "script starts a recorded shell")
    for out in o.operands:
        c.write(out)


def pager(c: Cmd) -> None:
    """less/more: `+cmd` runs less commands at start, and `!` in them runs a shell."""
    for arg in c.args:
        if arg.startswith("+") and ("!" in arg or "|" in arg):
            c.at_least(H, f"{c.name} {arg} runs a shell command")
    for arg in c.args:
        if not arg.startswith(("-", "+")):
            c.read(arg)


def powershell_eval(c: Cmd) -> None:
    c.facts.interp = True
    _code_from_stdin(c, c.name)


def powershell_fetch(c: Cmd) -> None:
    c.facts.net_fetch = True
    c.at_least(M, "reads the network")


def tracer(c: Cmd) -> None:
    """strace/ltrace/valgrind/…: runs the rest as a command; judge that command."""
    c.at_least(M, f"runs a program under {c.name}")
    o = c.opts("eopsuEPSaIbX", ("log-file", "xml-file", "output", "log-socket", "suppressions"),
               stop_at_operand=True)
    for out in o.all("o", "output", "log-file", "xml-file"):
        c.write(out.replace("%p", "1"), f"{c.name} writes")
    if o.operands:
        c.delegate_to = list(o.operands)


SUBSCRIPT_CODE = lazy_re(r"\[[^\]]*(\$\(|`)")


def builtin_words(c: Cmd) -> None:
    """declare/export/local/read/test/let/printf -v …: assignments and subscripts the shell evaluates."""
    words = c.args
    if c.name == "printf":
        # printf's operands are data; only the -v variable name is evaluated
        words = [c.args[i + 1] for i, a in enumerate(c.args[:-1]) if a == "-v"]
    for arg in words:
        if SUBSCRIPT_CODE.search(arg) or (c.name in ("let", "((") and ("$(" in arg or "`" in arg)):
            c.at_least(H, f"{c.name} evaluates a subscript that runs a command")
        if "=" in arg and c.name in ("export", "declare", "typeset", "local", "readonly"):
            name, _, value = arg.partition("=")
            found = judge_variable(name.rstrip("+"), None if UNKNOWN in value else value, arg)
            if found:
                c.at_least(*found)
    if c.name in ("export", "declare", "typeset", "set") and not [a for a in c.args if not a.startswith("-")]:
        if c.name != "set" or not c.args:
            c.facts.secret_source = "prints the environment"
    if c.name == "export" and "-f" in c.args:
        c.at_least(H, "exports a function to every child bash")
    if c.name == "unset" or c.name == "export" and "-n" in c.args:
        for name in c.args:
            if name.startswith("WISP_"):
                c.at_least(D, f"removes {name}, which changes the gate itself")


def mapfile(c: Cmd) -> None:
    o = c.opts("dnOsuCc")
    if o.value("C") is not None:
        c.at_least(H, "mapfile -C runs a callback string as code")
    builtin_words(c)


def hash_(c: Cmd) -> None:
    if "-p" in c.args or any(a.startswith("-") and "p" in a for a in c.args):
        c.at_least(H, "hash -p binds a command name to another program")


def enable(c: Cmd) -> None:
    if any(a.startswith("-") and ("f" in a or "n" in a) for a in c.args):
        c.at_least(H, "enable loads or disables shell builtins")


def trap(c: Cmd) -> None:
    if c.args and c.args[0].startswith("-"):
        return
    if c.args and UNKNOWN in c.args[0]:
        c.facts.runtime_code = True
        c.at_least(H, "trap runs text known only at run time")
    # else: a literal trap command, judged as a part of its own


def alias(c: Cmd) -> None:
    if any("=" in a for a in c.args):
        c.at_least(H, "defines an alias: later commands of that name run something else")


def interp_help(c: Cmd) -> None:
    pass


def env_dump(c: Cmd) -> None:
    if c.name == "printenv" and c.args:
        c.facts.secret_source = "prints environment variables"
        return
    if not c.args or all(a.startswith("-") for a in c.args):
        c.facts.secret_source = "prints the environment (API keys, tokens)"
        c.at_least(L, "prints the environment")


RULES = {name: shell for name in SHELLS}
RULES.update({
    "python": python, "python2": python, "python3": python, "pypy": python, "pypy3": python,
    "node": node, "nodejs": node, "perl": perl, "ruby": ruby, "php": php, "lua": lua, "luajit": lua,
    "Rscript": generic_eval, "julia": generic_eval, "osascript": generic_eval, "tclsh": generic_eval,
    "wish": generic_eval, "expect": generic_eval, "pwsh": generic_eval, "powershell": generic_eval,
    "groovy": generic_eval, "scala": generic_eval, "kotlin": generic_eval, "jshell": generic_eval,
    "irb": generic_eval, "guile": generic_eval, "racket": generic_eval, "sbcl": generic_eval,
    "clisp": generic_eval, "gawk-eval": generic_eval, "bc": interp_help, "dc": generic_eval,
    "deno": deno, "eval": eval_, "source": source, ".": source,
    "vim": editor, "vi": editor, "nvim": editor, "ex": editor, "view": editor, "emacs": editor,
    "emacsclient": editor, "nano": editor, "micro": editor, "helix": editor, "hx": editor, "kak": editor,
    "code": editor, "subl": editor, "ed": ed, "gdb": debugger, "lldb": debugger, "pdb": debugger,
    "script": script, "less": pager, "more": pager, "most": pager, "iex": powershell_eval,
    "Invoke-Expression": powershell_eval, "iwr": powershell_fetch, "irm": powershell_fetch,
    "Invoke-WebRequest": powershell_fetch, "Invoke-RestMethod": powershell_fetch, "strace": tracer, "ltrace": tracer, "valgrind": tracer, "perf": tracer, "unbuffer": tracer,
    "declare": builtin_words, "typeset": builtin_words, "local": builtin_words, "export": builtin_words,
    "readonly": builtin_words, "read": builtin_words, "test": builtin_words, "[": builtin_words,
    "[[": builtin_words, "let": builtin_words, "unset": builtin_words, "printf": builtin_words,
    "set": builtin_words, "mapfile": mapfile, "readarray": mapfile, "hash": hash_, "enable": enable,
    "trap": trap, "alias": alias, "env": env_dump, "printenv": env_dump,
    "ld.so": loader, "ld-linux.so.2": loader, "ld-linux-x86-64.so.2": loader, "ld-linux-aarch64.so.1": loader,
    "ld-musl-x86_64.so.1": loader, "ld-musl-aarch64.so.1": loader, "open": opener, "xdg-open": opener,
    "gio-open": opener,
})
