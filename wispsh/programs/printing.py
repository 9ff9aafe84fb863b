"""Programs that only print facts about the system or their own arguments (data is data), and the few
options of theirs that do more: `date -s` sets the clock, `tidy -m` rewrites its files, `dmesg -C` clears the
kernel's log. Shell builtins that only move around or report are here too; wrappers (nice, nohup, timeout, …)
are unwrapped before any table is read, so their entries here judge them alone."""
from __future__ import annotations

from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, programs

PRINTERS = (
    "apropos", "arch", "bc", "bg", "break", "btop", "builtin", "caffeinate", "cal", "colordiff", "command",
    "continue", "cowsay", "csvlook", "delta", "df", "diff3", "difft", "dirs", "disown", "exec", "exit", "expr",
    "factor", "false", "fc-list", "fg", "figlet", "free", "fx", "getconf", "getopts", "gh-status", "glow", "gron",
    "groups", "help", "htop", "id", "info", "ionice", "jless", "jobs", "last", "ldd", "locale", "logname", "lsblk",
    "lscpu", "lsof", "lspci", "lsusb", "md5", "mktemp", "netstat", "nice", "nm", "nohup", "notify-send", "nproc",
    "objdump", "otool", "pbcopy", "pbpaste", "pgrep", "popd", "ps", "pwd", "readelf", "return", "say", "sdiff",
    "seq", "setopt", "shasum", "shift", "shopt", "size", "sleep", "ss", "stdbuf", "stty", "sw_vers", "sync",
    "system_profiler", "time", "timeout", "times", "tldr", "top", "tput", "tty", "type", "ulimit", "umask",
    "unalias", "uname", "unsetopt", "uptime", "users", "uuidgen", "vmstat", "w", "wait", "watch", "whatis",
    "whereis", "which", "who", "whoami", "wl-copy", "wl-paste", "xclip", "xsel", "yamllint", "yes",
)
NOOP = Row("noop", "nothing", "does nothing", sets=("noop",), examples=(":", "true"))

SPECIAL = (
    Program(":", aliases=("true",), doc="does nothing (a run of them can pad a line)", rows=(NOOP,)),
    Program("echo", doc="prints its words", rows=(
        Row("echo.nothing", "nothing", "prints an empty line", When(operands=False), sets=("noop",),
            examples=("echo",), not_examples=("echo hi",)),)),
    Program("date", doc="prints the date; -s/--set sets the system clock",
            grammar=Grammar(values="dfrs", long_values=("date", "file", "reference", "set")),
            rows=(Row("date.set", "system", "sets the system clock", When(value=("s", "set")),
                      examples=("date -s '2020-01-01'",)),)),
    Program("ifconfig", doc="prints network interfaces; with settings, changes them",
            rows=(Row("ifconfig.shows", "nothing", "shows one interface", When(at_most=1), stop=True,
                      examples=("ifconfig eth0", "ifconfig -a")),
                  Row("ifconfig.changes", "system", "changes network configuration",
                      examples=("ifconfig eth0 down", "ifconfig eth0 10.0.0.2 netmask 255.0.0.0")))),
    Program("dmesg", doc="prints the kernel's log; -C/-c clears it, -D/-n changes it",
            grammar=Grammar(values="nfl", longs=("clear", "read-clear", "console-off", "console-level")),
            rows=(Row("dmesg.clears", "system", "clears or changes the kernel's log",
                      When(flag=("C", "c", "D", "n", "clear", "read-clear", "console-off", "console-level")),
                      examples=("dmesg -C",)),)),
    Program("renice", doc="changes the priority of running processes",
            rows=(Row("renice.processes", "kill", "changes the priority of other processes",
                      examples=("renice -n 10 -p 123",)),)),
    Program("tidy", doc="checks HTML; -m rewrites the files in place",
            grammar=Grammar(values="fo", long_values=("output", "file", "config")),
            on=(On("write", OPERANDS, when=When(flag=("m", "modify")), says="rewrites", id="tidy.modifies",
                   examples=("tidy -m index.html",)),
                On("write", ("option", "o", "output"), id="tidy.output", examples=("tidy -o out.html in.html",)))),
    Program("mlr", doc="Miller: processes CSV/JSON; -I rewrites the files in place",
            on=(On("write", OPERANDS, when=When(flag=("I",)), says="rewrites", id="mlr.in-place",
                   examples=("mlr -I --csv sort -f a data.csv",)),)),
    Program("jsonlint", doc="checks JSON; -i rewrites the file in place",
            on=(On("write", OPERANDS, when=When(flag=("i", "in-place")), says="rewrites", id="jsonlint.in-place",
                   examples=("jsonlint -i data.json",)),)),
    Program("xmllint", doc="checks XML; --output writes a file",
            grammar=Grammar(long_values=("output", "schema", "dtdvalid", "relaxng", "xpath", "encode")),
            on=(On("write", ("option", "output"), id="xmllint.output", examples=("xmllint --output ~/.bashrc a.xml",)),)),
)
PLAIN = tuple(Program(name, doc=f"{name}: prints facts or its words") for name in PRINTERS)

PROGRAMS = programs(*SPECIAL, *PLAIN)
