"""Programs that only print facts about the system or their own arguments (data is data), and the few
options of theirs that do more: `date -s` sets the clock, `tidy -m` rewrites its files, `dmesg -C` clears the
kernel's log, `xrandr --output` changes the display, `nvidia-smi -pm` the GPU. What agents' runtimes run at
start-up to learn the system (lsb_release, systeminformation's clinfo/xdpyinfo/xrandr/nvidia-smi/dmidecode)
is among them: a read is rated as a read. Shell builtins that only move around or report are here too;
wrappers (nice, nohup, timeout, …) are unwrapped before any table is read, so their entries here judge them
alone."""
from __future__ import annotations

from wispsh.programs.table import OPERANDS, Grammar, On, Program, Row, When, emits, programs

PRINTERS = (
    "apropos", "arch", "bg", "break", "btop", "builtin", "caffeinate", "cal", "command",
    "continue", "cowsay", "df", "dirs", "disown", "exec", "exit", "expr",
    "factor", "false", "fc-list", "fg", "figlet", "free", "getconf", "getopts", "gh-status",
    "groups", "help", "htop", "id", "info", "inotifywait", "inotifywatch", "ionice", "jobs", "locale", "logname",
            "lsblk",
    "lscpu", "lsof", "lspci", "lsusb", "mktemp", "netstat", "nice", "nohup", "notify-send", "nproc",
    "pbcopy", "pgrep", "popd", "ps", "pwd", "return", "say",
    "seq", "setopt", "shift", "shopt", "sleep", "stdbuf", "stty", "sw_vers", "sync",
    "system_profiler", "time", "timeout", "times", "tldr", "top", "tput", "tty", "type", "ulimit", "umask",
    "unalias", "uname", "unsetopt", "uptime", "users", "uuidgen", "vmstat", "w", "wait", "watch", "whatis",
    "whereis", "which", "who", "whoami", "wl-copy", "yes",
    # util-linux's and sysstat's reports (findmnt, lsmem, lsns, …) and filters of their input (col, colrm, ts)
    "findmnt", "lsmem", "lsipc", "lslocks", "lsns", "lsirq", "mountpoint", "iostat", "mpstat", "lastlog", "col",
    "colrm", "tsort", "ts", "units", "jot", "ncal",
    # what agents' runtimes ask of the system at start-up (Codex: lsb_release; Gemini CLI's systeminformation:
    # clinfo, xdpyinfo, glxinfo) and their kin: print-only, whatever their options
    "lsb_release", "clinfo", "xdpyinfo", "glxinfo", "eglinfo", "es2_info", "systemd-detect-virt", "lshw", "inxi",
    "hwinfo", "neofetch", "fastfetch", "screenfetch", "infocmp",
    # shell builtins that only print: zsh's lookups, bash's call stack
    "whence", "where", "caller",
)
# Options that change the X display (xrandr): anything else it is given only prints
XRANDR_CHANGES = ("output", "auto", "off", "mode", "preferred", "pos", "rate", "r", "refresh", "reflect", "rotate",
                  "left-of", "right-of", "above", "below", "same-as", "set", "scale", "scale-from", "transform",
                  "primary", "noprimary", "brightness", "gamma", "panning", "filter", "crtc", "size", "s",
                  "orientation", "o", "x", "y", "dpi", "fb", "fbmm", "newmode", "rmmode", "addmode", "delmode",
                  "setmonitor", "delmonitor", "setprovideroutputsource", "setprovideroffloadsink")
# nvidia-smi's options that change the GPU's settings or reset it (the rest query)
NVIDIA_SMI_CHANGES = ("-pm", "--persistence-mode", "-e", "--ecc-config", "-p", "--reset-ecc-errors", "-c",
                      "--compute-mode", "-r", "--gpu-reset", "-lgc", "--lock-gpu-clocks", "-rgc", "--reset-gpu-clocks",
                      "-lmc", "--lock-memory-clocks", "-rmc", "--reset-memory-clocks", "-pl", "--power-limit", "-ac",
                      "--applications-clocks", "-rac", "--reset-applications-clocks", "-acp",
                      "--applications-clocks-permission", "--gom", "-am", "--accounting-mode", "-caa",
                      "--clear-accounted-apps", "-mig", "--multi-instance-gpu", "-cc", "--auto-boost")
# Printers of the files they are given (contents, differences, a rendering, a dump): their operands are reads.
# (GTFOBins' file-read: what a tool prints of a file reaches the agent as `cat` would.)
FILE_PRINTERS = ("bc", "colordiff", "csvlook", "delta", "diff3", "difft", "fx", "glow", "gron", "jless", "sdiff",
                 "yamllint", "objdump", "otool", "ldd")
# Tools that only print a digest or sizes of their files: a listing, not their contents.
FILE_DIGESTS = ("md5", "shasum", "size")
# GNU binutils read options from `@FILE` and print the lines they cannot parse: the file is read.
BINUTILS = ("nm", "readelf")


@emits({"printer.response-file": ["nm @opts.txt", "readelf -a @~/.ssh/id_rsa"]})
def response_files(cmd, o) -> None:
    """`@FILE` operands are files of options, read (and echoed in errors)."""
    for word in o.args:
        if word.startswith("@") and len(word) > 1:
            cmd.fired.add("printer.response-file")
            cmd.read(word[1:])
NOOP = Row("noop", "nothing", "does nothing", sets=("noop",), examples=(":", "true"))

SPECIAL = (
    Program(":", aliases=("true",), doc="does nothing (a run of them can pad a line)", rows=(NOOP,)),
    Program("echo", doc="prints its words", rows=(
        Row("echo.nothing", "nothing", "prints an empty line", When(operands=False), sets=("noop",),
            examples=("echo",), not_examples=("echo hi",)),)),
    Program("date", doc="prints the date; -s/--set sets the system clock; -f reads dates (and echoes bad ones)",
            grammar=Grammar(values="dfrs", long_values=("date", "file", "reference", "set")),
            rows=(Row("date.set", "system", "sets the system clock", When(value=("s", "set")),
                      examples=("date -s '2020-01-01'",)),),
            on=(On("read", ("option", "f", "file"), id="date.file", examples=("date -f ~/.ssh/id_rsa",)),)),
    Program("last", aliases=("lastb",), doc="prints logins; -f reads another log file",
            grammar=Grammar(values="fnst", long_values=("file", "limit", "since", "until", "time-format")),
            on=(On("read", ("option", "f", "file"), id="last.file", examples=("last -f ~/.ssh/id_rsa",)),)),
    Program("ss", doc="prints sockets; -F reads a filter from a file (and echoes it in errors)",
            grammar=Grammar(values="FfA", long_values=("filter", "family", "query")),
            on=(On("read", ("option", "F", "filter"), id="ss.filter-file", examples=("ss -a -F ~/.ssh/id_rsa",)),)),
    Program("ifconfig", doc="prints network interfaces; with settings, changes them",
            rows=(Row("ifconfig.shows", "nothing", "shows one interface", When(at_most=1), stop=True,
                      examples=("ifconfig eth0", "ifconfig -a")),
                  Row("ifconfig.changes", "system", "changes network configuration",
                      examples=("ifconfig eth0 down", "ifconfig eth0 10.0.0.2 netmask 255.0.0.0")))),
    Program("dmesg", doc="prints the kernel's log; -C/-c clears it, -D/-n changes it, -F prints a file instead",
            grammar=Grammar(values="nflF", long_values=("file",),
                            longs=("clear", "read-clear", "console-off", "console-level")),
            rows=(Row("dmesg.clears", "system", "clears or changes the kernel's log",
                      When(flag=("C", "c", "D", "n", "clear", "read-clear", "console-off", "console-level")),
                      examples=("dmesg -C",)),),
            on=(On("read", ("option", "F", "file"), id="dmesg.file", examples=("dmesg -rF ~/.ssh/id_rsa",)),)),
    Program("compgen", doc="prints completions (command, variable, file names, words); -F runs a shell function",
            grammar=Grammar(values="oAGWXPSFC"),
            rows=(Row("compgen.function", "run-code", "compgen -F runs a shell function to make its list",
                      When(value=("F",)), examples=("compgen -F _git_complete x",),
                      not_examples=("compgen -e", "compgen -A function")),)),
    Program("xrandr", doc="prints the X display's outputs and modes; its other options change them",
            grammar=Grammar(values="srod", long_values=("output", "mode", "rate", "refresh", "size", "orientation",
                                                      "pos", "reflect", "rotate", "left-of", "right-of", "above",
                                                      "below", "same-as", "set", "scale", "scale-from", "transform",
                                                      "brightness", "gamma", "panning", "filter", "crtc", "dpi", "fb",
                                                      "fbmm", "display", "screen", "prop")),
            rows=(Row("xrandr.changes", "local-config", "xrandr changes the display's outputs or modes",
                      When(flag=XRANDR_CHANGES), examples=("xrandr --output HDMI-1 --off", "xrandr -s 1024x768"),
                      not_examples=("xrandr --verbose", "xrandr -q", "xrandr --listmonitors")),)),
    Program("xset", doc="X user settings: `xset q` prints them; anything else changes them",
            rows=(Row("xset.query", "nothing", "prints the X settings", When(first=("q",)), stop=True,
                      examples=("xset q",)),
                  Row("xset.changes", "local-config", "xset changes X settings (screen saver, power, keyboard)",
                      When(operands=True), examples=("xset s off", "xset dpms force off")))),
    Program("xprop", doc="prints X window properties; -set and -remove change one",
            rows=(Row("xprop.changes", "local-config", "xprop changes a window's property",
                      When(arg=("-set", "-remove")), examples=("xprop -root -set FOO bar",),
                      not_examples=("xprop -root", "xprop -id 0x1 WM_NAME")),)),
    Program("nvidia-smi", doc="queries NVIDIA GPUs; its settings options change or reset them",
            rows=(Row("nvidia-smi.changes", "system", "nvidia-smi changes the GPU's settings or resets it",
                      When(arg=NVIDIA_SMI_CHANGES), examples=("nvidia-smi -pm 1", "nvidia-smi --gpu-reset -i 0"),
                      not_examples=("nvidia-smi --query-gpu=name --format=csv,noheader", "nvidia-smi -L")),)),
    Program("dmidecode", doc="prints the firmware's hardware tables; --dump-bin writes them to a file",
            grammar=Grammar(values="dstHu", long_values=("dev-mem", "string", "type", "handle", "dump-bin",
                                                         "from-dump", "oem-string")),
            on=(On("write", ("option", "dump-bin"), id="dmidecode.dump", examples=("dmidecode --dump-bin ~/.bashrc",)),
                On("read", ("option", "from-dump", "d", "dev-mem"), id="dmidecode.reads",
                   examples=("dmidecode --from-dump table.bin",)))),
    Program("fbset", doc="prints the framebuffer's video mode (-s, -i); given a mode or settings, sets it",
            rows=(Row("fbset.shows", "nothing", "prints the framebuffer's mode",
                      When(flag=("s", "show", "i", "info", "x", "xfree86")), stop=True, examples=("fbset -s",)),
                  Row("fbset.changes", "system", "fbset changes the framebuffer's video mode",
                      examples=("fbset 800x600-60", "fbset -g 800 600 800 600 16")))),
    Program("vcgencmd", doc="Raspberry Pi firmware queries (get_…, measure_…, version); other commands change it",
            rows=(Row("vcgencmd.reads", "nothing", "reads a firmware value",
                      When(arg=("get_", "measure_", "version", "commands", "codec_enabled", "bootloader_version",
                                "otp_dump", "pmic_read_adc", "read_ring_osc")), stop=True,
                      examples=("vcgencmd get_mem gpu", "vcgencmd measure_temp")),
                  Row("vcgencmd.changes", "system", "vcgencmd changes the firmware's settings",
                      examples=("vcgencmd display_power 0",)))),
    Program("tvservice", doc="Raspberry Pi display output: -s, -n, -m, -l, -a print; the rest switch it",
            grammar=Grammar(values="dmev", long_values=("dumpedid", "modes", "explicit", "device")),
            on=(On("write", ("option", "d", "dumpedid"), id="tvservice.dump", examples=("tvservice -d edid.dat",)),),
            rows=(Row("tvservice.changes", "system", "tvservice switches the display output",
                      When(flag=("o", "off", "p", "preferred", "e", "explicit", "c", "sdtvon")),
                      examples=("tvservice -o", "tvservice -p"), not_examples=("tvservice -s", "tvservice -n")),)),
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
            on=(On("write", ("option", "output"), id="xmllint.output", examples=("xmllint --output ~/.bashrc a.xml",)),
                )),
)
PLAIN = tuple(Program(name, doc=f"{name}: prints facts or its words") for name in PRINTERS)
FILE_PRINTING = tuple(Program(name, doc=f"{name}: prints the files it is given",
                              on=(On("read", OPERANDS, id=f"{name}.reads", examples=(f"{name} notes.txt",)),))
                      for name in FILE_PRINTERS)
DIGESTS = tuple(Program(name, doc=f"{name}: prints digests or sizes of its files",
                        on=(On("list", OPERANDS, id=f"{name}.files", examples=(f"{name} notes.txt",)),))
                for name in FILE_DIGESTS)
BINUTIL_PROGRAMS = tuple(Program(name, doc=f"{name}: prints what an object file holds; @FILE reads options",
                                 on=(On("read", OPERANDS, id=f"{name}.reads", examples=(f"{name} a.out",)),),
                                 hook=response_files) for name in BINUTILS)

# Clipboards: what is copied there is often a password or a token (a password manager's copy button), so
# reading it is a read of a sensitive place (low), like `ls ~/.ssh`, and what it prints is a secret where it
# goes on (sent to the network: a leak; MITRE ATT&CK T1115, Clipboard Data); copying into one changes nothing.
CLIPBOARD_READ = "{cmd} reads the clipboard (it may hold a password or a token)"
CLIPBOARDS = (
    Program("xclip", doc="copies to and reads from the X clipboard; -o prints it",
            grammar=Grammar(values="sdlt", long_values=("selection", "display", "loops", "target")),
            rows=(Row("clipboard.xclip-reads", "inspect", CLIPBOARD_READ, When(flag=("o", "out")), sets=("secret",),
                      examples=("xclip -sel clip -o", "xclip -o -selection clipboard")),),
            on=(On("read", OPERANDS, when=When(unless=("o", "out")), id="xclip.copies-file",
                   examples=("xclip -sel clip ~/.ssh/id_rsa.pub",)),)),
    Program("xsel", doc="copies to and reads from the X selections; -o (or no input) prints them",
            grammar=Grammar(values="dtl", long_values=("display", "selectionTimeout", "logfile")),
            rows=(Row("clipboard.xsel-reads", "inspect", CLIPBOARD_READ,
                      When(unless=("i", "input", "a", "append", "f", "follow", "c", "clear", "d", "delete")),
                      sets=("secret",),
                      examples=("xsel -o", "xsel -b", "xsel --clipboard --output")),)),
    Program("wl-paste", aliases=("pbpaste", "termux-clipboard-get"), doc="prints the clipboard",
            rows=(Row("clipboard.reads", "inspect", CLIPBOARD_READ, sets=("secret",),
                      examples=("wl-paste", "pbpaste", "termux-clipboard-get")),)),
)
PROGRAMS = programs(*SPECIAL, *PLAIN, *FILE_PRINTING, *DIGESTS, *BINUTIL_PROGRAMS, *CLIPBOARDS)
