"""The other languages' interpreters: node, perl, ruby, php, lua, the -e/-c family (Rscript, julia, osascript,
tclsh, …), clisp, PowerShell (and its own iex/iwr), deno. Inline code is code the gate cannot read; a script
file is judged by where it is.
"""
from __future__ import annotations

from wispsh.programs.inline import judge_inline
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re, re
from wispsh.programs.python import VERSION_WORDS, serve
from wispsh.programs.interpreters import code_from_stdin, script_operand, stdin_fed


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
            script_operand(cmd, operands[0], name, f"{program} runs")
            for word in operands[1:] if edits else ():
                cmd.fired.add(f"{name}.edits")
                cmd.write(word, f"{program} -{spec.in_place} edits")
            return
        code_from_stdin(cmd, name)

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
            script_operand(cmd, word, "pwsh", f"{cmd.name} runs")     # pwsh's first operand is -File's
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
            script_operand(cmd, value, "pwsh", f"{cmd.name} runs")
            return
    code_from_stdin(cmd, "pwsh")


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

# PowerShell's own words, when a shell line names them (an agent's pwsh habits)


@emits({"iex.stdin": ["echo x | iex"], "iex.interactive": ["iex"]})
def iex_input(cmd, o: Options) -> None:
    """With no text, Invoke-Expression runs what it is fed."""
    cmd.facts.interp = True
    if not o.operands:
        code_from_stdin(cmd, "iex")


IEX = Program("iex", aliases=("Invoke-Expression",), doc="PowerShell's eval",
              rows=(Row("iex.code", "run-code", "{cmd} runs the text it is given as code", When(operands=True),
                        sets=("runtime_code",), examples=("iex 'x'",)),),
              hook=iex_input)
IWR = Program("iwr", aliases=("irm", "Invoke-WebRequest", "Invoke-RestMethod"), doc="PowerShell's web requests",
              rows=(Row("iwr.fetch", "fetch", "reads the network", sets=("net_fetch",),
                        examples=("iwr https://x.example",)),))


PROGRAMS = programs(NODE, PERL, RUBY, PHP, LUA, *GENERIC, CLISP, PWSH, DENO, IEX, IWR)
