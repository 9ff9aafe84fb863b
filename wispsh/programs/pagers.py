"""Pagers, man, debuggers and openers: less/more's commands, man's pager, gdb/lldb's command options, pdb's
script, open/xdg-open, and the dynamic loaders that run a program.
"""
from __future__ import annotations

from wispsh.vocab import places
from wispsh.programs import config_code
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import FIRST, OPERANDS, Grammar, On, Program, Row, When, emits, programs
from wispsh.programs.interpreters import PROJECT


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


PROGRAMS = programs(LESS, MORE, MAN, *DEBUGGERS, PDB, OPENERS, LOADERS)
