"""Editors whose options run commands or write files: vim and its kin, emacs, nano, helix, kakoune, VS Code and
its forks, sublime, and ed's commands read from its input.
"""
from __future__ import annotations

from wispsh.programs import config_code
from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import Grammar, Program, emits, programs
from wispsh.support.lazyre import lazy_re
from wispsh.programs.interpreters import stdin_fed, stdin_file


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
        cmd.does("run-code", "editor.commands",
                 f"{cmd.name} runs editor commands ({commands[0].replace(UNKNOWN, '…')}), which can run shell commands")
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
        source = stdin_file(cmd)
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


PROGRAMS = programs(*EDITOR_PROGRAMS, ED)
