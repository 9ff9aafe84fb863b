"""Unwrapping: from an argv to the program that actually runs.

`sudo -u root -E -- env A=1 timeout -s KILL 5 nice -n 3 /usr/bin/head -n 5 f` runs `head`. Each wrapper's option
grammar is a row of the WRAPPERS table below; one loop (no recursion) peels wrappers off in any order and nesting.
Used by keys.py (the approval key) and split.py (to find `sudo bash -c '…'`, `env -S '…'`).
"""
from __future__ import annotations

from _collections_abc import Sequence  # collections.abc's own (loaded with os; no collections)

from wispsh.model import Assignment
from wispsh.support.lazyre import lazy_re
from wispsh.support.record import Record

_set = object.__setattr__  # records set their fields once, in __init__

# ---------------------------------------------------------------- the grammar's vocabulary

FLAG = "flag"          # no value
VALUE = "value"        # a value, attached (-uroot, --user=root) or the next word (-u root, --user root)
OPTIONAL = "optional"  # a value only when attached (-i{}, --preserve-env=PATH)

NOTHING = "nothing"    # the wrapper does its own thing and runs no command (`command -v`, `sudo -v`)
SHELL = "shell"        # with no command given, runs a shell (`sudo -s`, `doas -s`)
CODE = "code"          # the value is shell code run by `sh -c` (`flock -c`, `su -c`)
SPLIT = "split"        # the value is split into more words (`env -S`)
SHELL_NAME = "shell-name"  # the value names the shell that runs (`su -s /bin/zsh`)
REPLACE = "replace"    # the value is a string replaced at run time in the command (`xargs -I{}`)
EDIT = "edit"          # `sudo -e FILE…` runs sudoedit on the files
DIRECT = "direct"      # the words after the options are a command, not code (`watch -x`)


class Opt(Record):
    names: tuple[str, ...]      # "-u", "--user"
    arity: str
    effect: str | None
    default: str | None         # OPTIONAL's value when none is attached (`xargs -i` means `-i{}`)

    __slots__ = FIELDS = ('names', 'arity', 'effect', 'default')

    def __init__(self, names, arity=FLAG, effect=None, default=None) -> None:
        _set(self, 'names', names)
        _set(self, 'arity', arity)
        _set(self, 'effect', effect)
        _set(self, 'default', default)


def opt(names: str, arity: str = FLAG, effect: str | None = None, default: str | None = None) -> Opt:
    return Opt(tuple(names.split()), arity, effect, default)


class Grammar(Record):
    options: tuple[Opt, ...]
    operands: int                       # words the wrapper itself takes before the command (timeout's DURATION)
    assignments: bool                   # NAME=value words before the command set its environment (env, sudo)
    default: tuple[str, ...] | None     # what runs when no command is given; None: nothing runs
    privileged: bool
    permute: bool                       # options may follow operands (GNU getopt without "+": su)
    options_after_operands: bool        # `flock FILE -c CMD`
    legacy_numeric: bool                # `nice -19`, `nice --5`
    user_operand: bool                  # `su [USER] [ARGS]`: the first operand is a user, the rest go to the shell
    joins_code: bool                    # `watch ls -l`: the words are joined and run by `sh -c`
    lead_operand: bool                  # `setarch [ARCH] [options] CMD`: a first word that is no option is its own

    __slots__ = FIELDS = ('options', 'operands', 'assignments', 'default', 'privileged', 'permute',
                          'options_after_operands', 'legacy_numeric', 'user_operand', 'joins_code', 'lead_operand')

    def __init__(self, options=(), operands=0, assignments=False, default=None, privileged=False, permute=False,
                 options_after_operands=False, legacy_numeric=False, user_operand=False, joins_code=False,
                 lead_operand=False) -> None:
        _set(self, 'options', options)
        _set(self, 'operands', operands)
        _set(self, 'assignments', assignments)
        _set(self, 'default', default)
        _set(self, 'privileged', privileged)
        _set(self, 'permute', permute)
        _set(self, 'options_after_operands', options_after_operands)
        _set(self, 'legacy_numeric', legacy_numeric)
        _set(self, 'user_operand', user_operand)
        _set(self, 'joins_code', joins_code)
        _set(self, 'lead_operand', lead_operand)


# ---------------------------------------------------------------- the table
# One row per wrapper: the options it knows (unknown options are read as flags), what ends its own arguments.

_SETARCH = (opt("-B --32bit -F --fdpic-funcptrs -I --short-inode -L --addr-compat-layout -R --addr-no-randomize "
                "-S --whole-seconds -T --sticky-timeouts -X --read-implies-exec -Z --mmap-page-zero -3 --3gb --4gb "
                "--uname-2.6 -v --verbose"), opt("--list -h --help -V --version", FLAG, NOTHING))

WRAPPERS: dict[str, Grammar] = {
    "sudo": Grammar(
        privileged=True, assignments=True,
        options=(
            opt("-u --user", VALUE), opt("-g --group", VALUE), opt("-C --close-from", VALUE),
            opt("-h --host", VALUE), opt("-p --prompt", VALUE), opt("-r --role", VALUE), opt("-t --type", VALUE),
            opt("-U --other-user", VALUE), opt("-D --chdir", VALUE), opt("-R --chroot", VALUE),
            opt("-T --command-timeout", VALUE), opt("--preserve-env", OPTIONAL),
            opt("-A --askpass"), opt("-b --background"), opt("-B --bell"), opt("-E"), opt("-H --set-home"),
            opt("-n --non-interactive"), opt("-P --preserve-groups"), opt("-S --stdin"), opt("-k --reset-timestamp"),
            opt("-N --no-update"),
            opt("-s --shell", FLAG, SHELL), opt("-i --login", FLAG, SHELL), opt("-e --edit", FLAG, EDIT),
            opt("-v --validate", FLAG, NOTHING), opt("-l --list", FLAG, NOTHING),
            opt("-K --remove-timestamp", FLAG, NOTHING), opt("-V --version", FLAG, NOTHING),
            opt("--help", FLAG, NOTHING),
        ),
    ),
    "doas": Grammar(
        privileged=True,
        options=(
            opt("-u", VALUE), opt("-a", VALUE), opt("-n"), opt("-s", FLAG, SHELL),
            opt("-C", VALUE, NOTHING), opt("-L", FLAG, NOTHING),
        ),
    ),
    "su": Grammar(
        privileged=True, permute=True, user_operand=True, default=("sh",),
        options=(
            opt("-c --command --session-command", VALUE, CODE), opt("-s --shell", VALUE, SHELL_NAME),
            opt("- -l --login"), opt("-m -p --preserve-environment"), opt("-g --group", VALUE),
            opt("-G --supp-group", VALUE), opt("-w --whitelist-environment", VALUE), opt("-P --pty"),
            opt("-f --fast"), opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "pkexec": Grammar(
        privileged=True, default=("sh",),
        options=(
            opt("--user", VALUE), opt("--disable-internal-agent"), opt("--keep-cwd"),
            opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "run0": Grammar(
        privileged=True, default=("sh",),
        options=(
            opt("-u --user", VALUE), opt("-g --group", VALUE), opt("-D --chdir", VALUE), opt("--unit", VALUE),
            opt("--property", VALUE), opt("--description", VALUE), opt("--slice", VALUE), opt("--nice", VALUE),
            opt("--setenv", VALUE), opt("--background", VALUE), opt("--machine", VALUE),
            opt("--shell-prompt-prefix", VALUE), opt("--no-ask-password"), opt("--slice-inherit"), opt("--pty"),
            opt("--pipe"), opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "env": Grammar(
        assignments=True,
        options=(
            opt("-i - --ignore-environment"), opt("-0 --null"), opt("-v --debug"), opt("-u --unset", VALUE),
            opt("-C --chdir", VALUE), opt("-S --split-string", VALUE, SPLIT),
            opt("--block-signal --default-signal --ignore-signal", OPTIONAL), opt("--list-signal-handling"),
            opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "time": Grammar(
        options=(
            opt("-p --portability"), opt("-a --append"), opt("-v --verbose"), opt("-q --quiet"),
            opt("-f --format", VALUE), opt("-o --output", VALUE), opt("--help -V --version", FLAG, NOTHING),
        ),
    ),
    "timeout": Grammar(
        operands=1,  # DURATION
        options=(
            opt("-s --signal", VALUE), opt("-k --kill-after", VALUE), opt("-f --foreground"),
            opt("-p --preserve-status"), opt("-v --verbose"), opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "nice": Grammar(
        legacy_numeric=True,
        options=(opt("-n --adjustment", VALUE), opt("--help --version", FLAG, NOTHING)),
    ),
    "nohup": Grammar(options=(opt("--help --version", FLAG, NOTHING),)),
    "stdbuf": Grammar(
        options=(
            opt("-i --input", VALUE), opt("-o --output", VALUE), opt("-e --error", VALUE),
            opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "ionice": Grammar(
        options=(
            opt("-c --class", VALUE), opt("-n --classdata", VALUE), opt("-t --ignore"),
            opt("-p --pid", VALUE, NOTHING), opt("-P --pgid", VALUE, NOTHING), opt("-u --uid", VALUE, NOTHING),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "chrt": Grammar(
        operands=1,  # PRIORITY
        options=(
            opt("-a --all-tasks"), opt("-b --batch"), opt("-d --deadline"), opt("-e --ext"), opt("-f --fifo"),
            opt("-i --idle"), opt("-o --other"), opt("-r --rr"), opt("-R --reset-on-fork"), opt("-v --verbose"),
            opt("-T --sched-runtime", VALUE), opt("-P --sched-period", VALUE), opt("-D --sched-deadline", VALUE),
            opt("-p --pid", FLAG, NOTHING), opt("-m --max", FLAG, NOTHING),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "taskset": Grammar(
        operands=1,  # MASK, or a CPU list with -c
        options=(
            opt("-a --all-tasks"), opt("-c --cpu-list"), opt("-p --pid", FLAG, NOTHING),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "setsid": Grammar(
        options=(opt("-c --ctty"), opt("-f --fork"), opt("-w --wait"), opt("-h --help -V --version", FLAG, NOTHING)),
    ),
    "unbuffer": Grammar(options=(opt("-p"),)),
    # sshpass types a password into the command it runs (ssh, scp, rsync): that command is what runs, keyed
    # and judged as itself (its -f password file is a read: engine's wrapper file options)
    "sshpass": Grammar(
        options=(
            opt("-p", VALUE), opt("-f", VALUE), opt("-d", VALUE), opt("-P", VALUE), opt("-e"), opt("-v"),
            opt("-h -V", FLAG, NOTHING),
        ),
    ),
    "flock": Grammar(
        operands=1, options_after_operands=True,  # the lock FILE (or a descriptor number: then nothing runs)
        options=(
            opt("-s --shared"), opt("-x -e --exclusive"), opt("-u --unlock"), opt("-n --nb --nonblock"),
            opt("-o --close"), opt("-F --no-fork"), opt("--verbose"), opt("-w --wait --timeout", VALUE),
            opt("-E --conflict-exit-code", VALUE), opt("-c --command", VALUE, CODE),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "command": Grammar(options=(opt("-p"), opt("-v", FLAG, NOTHING), opt("-V", FLAG, NOTHING))),
    "builtin": Grammar(),
    "exec": Grammar(options=(opt("-a", VALUE), opt("-c"), opt("-l"))),
    "xargs": Grammar(
        default=("echo",),
        options=(
            opt("-0 --null"), opt("-a --arg-file", VALUE), opt("-d --delimiter", VALUE), opt("-E", VALUE),
            opt("-e --eof", OPTIONAL), opt("-I", VALUE, REPLACE), opt("-i --replace", OPTIONAL, REPLACE, "{}"),
            opt("-L --max-lines", VALUE), opt("-l", OPTIONAL), opt("-n --max-args", VALUE),
            opt("-P --max-procs", VALUE), opt("-s --max-chars", VALUE), opt("--process-slot-var", VALUE),
            opt("-p --interactive"), opt("-r --no-run-if-empty"), opt("-t --verbose"), opt("-x --exit"),
            opt("-o --open-tty"), opt("--show-limits"), opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "strace": Grammar(
        options=(
            opt("-a --columns", VALUE), opt("-b --detach-on", VALUE), opt("-e", VALUE), opt("-E --env", VALUE),
            opt("-I", VALUE), opt("-o --output", VALUE), opt("-O --summary-syscall-overhead", VALUE),
            opt("-p --attach", VALUE), opt("-P --trace-path", VALUE), opt("-s --string-limit", VALUE),
            opt("-S --summary-sort-by", VALUE), opt("-u --user", VALUE), opt("-U --summary-columns", VALUE),
            opt("-X --const-print-style", VALUE),
            opt("--trace --signal --status --quiet --silence --decode-fds --kvm --inject --fault", VALUE),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "ltrace": Grammar(
        options=(
            opt("-a --align", VALUE), opt("-A", VALUE), opt("-b", VALUE), opt("-D --debug", VALUE),
            opt("-e", VALUE), opt("-F --config", VALUE), opt("-l --library", VALUE), opt("-n --indent", VALUE),
            opt("-o --output", VALUE), opt("-p", VALUE), opt("-s", VALUE), opt("-u", VALUE), opt("-w --where", VALUE),
            opt("-x", VALUE), opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "busybox": Grammar(options=(opt("--list --list-full --install --help", FLAG, NOTHING),)),
    "watch": Grammar(
        joins_code=True,
        options=(
            opt("-n --interval", VALUE), opt("-q --equexit", VALUE), opt("-d --differences", OPTIONAL),
            opt("-g --chgexit"), opt("-t --no-title"), opt("-b --beep"), opt("-e --errexit"), opt("-c --color"),
            opt("-C --no-color"), opt("-p --precise"), opt("-w --no-wrap"), opt("-x --exec", FLAG, DIRECT),
            opt("-h --help -v --version", FLAG, NOTHING),
        ),
    ),
    "chroot": Grammar(
        operands=1, default=("sh",),  # NEWROOT; with no command, the root's shell
        options=(
            opt("--userspec", VALUE), opt("--groups", VALUE), opt("--skip-chdir"),
            opt("--help --version", FLAG, NOTHING),
        ),
    ),
    "caffeinate": Grammar(
        options=(opt("-d"), opt("-i"), opt("-m"), opt("-s"), opt("-u"), opt("-t", VALUE), opt("-w", VALUE)),
    ),
    # Programs that set something up for the one command they run, in this shell, as this user (GTFOBins'
    # "shell" escapes: `setarch -3 /bin/sh`, `logsave /dev/null /bin/sh -i`, `choom -n 0 /bin/sh`): the
    # command is what runs, keyed and judged as itself. setarch(8): `setarch [ARCH] [options] [CMD]`, no
    # command runs a shell; its links (linux32, linux64, i386, x86_64) take no ARCH.
    "setarch": Grammar(lead_operand=True, default=("sh",), options=_SETARCH),
    **dict.fromkeys(("linux32", "linux64", "i386", "x86_64", "uname26"), Grammar(default=("sh",), options=_SETARCH)),
    "logsave": Grammar(operands=1, options=(opt("-a"), opt("-s"), opt("-v"))),     # logsave(8): LOGFILE CMD
    "choom": Grammar(options=(opt("-n --adjust", VALUE), opt("-p --pid", VALUE, NOTHING),
                              opt("-h --help -V --version", FLAG, NOTHING))),
    "prlimit": Grammar(options=(
        opt("-c --core -d --data -e --nice -f --fsize -i --sigpending -l --memlock -m --rss -n --nofile "
            "-q --msgqueue -r --rtprio -s --stack -t --cpu -u --nproc -v --as -x --locks -y --rttime", OPTIONAL),
        opt("-o --output", VALUE), opt("--noheadings --raw --verbose"), opt("-p --pid", VALUE, NOTHING),
        opt("-h --help -V --version", FLAG, NOTHING))),
    "systemd-inhibit": Grammar(options=(opt("--what --who --why --mode", VALUE), opt("--no-pager --no-legend"),
                                        opt("--list -h --help --version", FLAG, NOTHING))),
    # fakeroot(1): fakes root for file ownership only (no privilege); with no command, a shell
    "fakeroot": Grammar(default=("sh",), options=(
        opt("-l --lib --faked -i -s -b --fd-base", VALUE), opt("-u --unknown-is-real"),
        opt("-h --help -v --version", FLAG, NOTHING))),
    "faketime": Grammar(operands=1, options=(opt("-m -f --exclude-monotonic --disable-shm"),   # TIMESTAMP CMD
                                             opt("-p --date-prog", VALUE), opt("-h --help -v --version", FLAG, NOTHING))),
    "eatmydata": Grammar(options=(opt("-h --help -v --version", FLAG, NOTHING),)),
    "nocache": Grammar(options=(opt("-n -D", VALUE),)),
    "catchsegv": Grammar(),
    "numactl": Grammar(options=(
        opt("-i --interleave -w --weighted-interleave -p --preferred -P --preferred-many -m --membind "
            "-c --cpunodebind -N -C --physcpubind --length --offset --shmmode --shmid --mode", VALUE),
        opt("-a --all -b --balancing -l --localalloc -t --touch -V --verify --huge --strict"),
        opt("--shm --file", VALUE, NOTHING), opt("-s --show -H --hardware -h --help --version", FLAG, NOTHING))),
    "cpulimit": Grammar(options=(
        opt("-l --limit -s --signal -c --cpu", VALUE), opt("-z --lazy -i --include-children -m --monitor-forks "
                                                           "-f --foreground -q --quiet -k --kill -r --restore "
                                                           "-b --background -v --verbose"),
        opt("-p --pid -e --exe -P --path", VALUE, NOTHING), opt("-h --help", FLAG, NOTHING))),
    "rlwrap": Grammar(options=(
        opt("-b --break-chars -C --command-name -D --debug -e --extra-char-after-completion -f --file "
            "-F --history-format -g --forget-matching -H --history-filename -l --logfile -M --multi-line-ext "
            "-O --only-cook -P --pre-given -q --quote-characters -s --histsize -S --substitute-prompt "
            "-t --set-term-name -w --polling -z --filter", VALUE),
        opt("-a --always-readline -p --prompt-colour -m --multi-line", OPTIONAL),
        opt("-A --ansi-colour-aware -c --complete-filenames -i --case-insensitive -n --no-warnings -N --no-children "
            "-o --one-shot -r --remember -R --renice -U --mirror-arguments -W --wait-before-prompt"),
        opt("-h --help -v --version", FLAG, NOTHING))),
    "grc": Grammar(options=(opt("-c --config --colour", VALUE), opt("-e --stderr -s --stdout --pty"))),
    "aa-exec": Grammar(options=(opt("-p --profile -n --namespace", VALUE), opt("-i --immediate -v --verbose -d --debug"),
                                opt("-h --help", FLAG, NOTHING))),
    "aoss": Grammar(),
    "padsp": Grammar(options=(opt("-s -n -m", VALUE), opt("-M -D -d"), opt("-h", FLAG, NOTHING))),
    "pasuspender": Grammar(options=(opt("-s --server", VALUE), opt("-h --help --version", FLAG, NOTHING))),
    "proot": Grammar(default=("sh",), options=(
        opt("-r --rootfs -b --bind -m --mount -q --qemu -w --pwd --cwd -v --verbose -k --kernel-release -i -R -S",
            VALUE), opt("-0 --root-id --link2symlink --kill-on-exit"), opt("-h --help -V --version", FLAG, NOTHING))),
    "multitime": Grammar(options=(opt("-f -i -n -o -r -s", VALUE), opt("-l -q -v"))),
    # daemontools and runit: chpst(8), softlimit, setlock FILE, setuidgid ACCOUNT, envdir DIR, pgrphack
    "chpst": Grammar(options=(opt("-u -U -b -e -/ -n -l -L -m -d -o -p -f -c -r -t", VALUE), opt("-v -P -0 -1 -2"))),
    "softlimit": Grammar(options=(opt("-a -c -d -f -l -m -o -p -r -s -t", VALUE),)),
    "setlock": Grammar(operands=1, options=(opt("-n -N -x -X"),)),
    "setuidgid": Grammar(operands=1), "envuidgid": Grammar(operands=1), "envdir": Grammar(operands=1),
    "pgrphack": Grammar(),
    # ksu(1): Kerberos' su; `ksu [USER] … -e CMD ARGS` runs CMD as USER (root by default), else USER's shell
    "ksu": Grammar(privileged=True, lead_operand=True, default=("sh",), options=(
        opt("-n -c -C -r -l", VALUE), opt("-k -p -P -f -F -z -Z -q -e"), opt("-a", FLAG, SHELL))),
}

# Programs that run a command given after their options but are not unwrapped for the key: the rules judge
# them as themselves (`nsenter -t 1` is a root shell on the host). The splitter shows their command as a part
# of its own, so an approval of `unshare -r ls` never covers `unshare -r rm -rf ~`.
COMMAND_RUNNERS: dict[str, Grammar] = {
    "unshare": Grammar(
        default=("sh",),  # with no command, ${SHELL:-/bin/sh}
        options=(
            opt("-m --mount -u --uts -i --ipc -n --net -p --pid -U --user -C --cgroup -T --time", OPTIONAL),
            opt("--kill-child --mount-proc --mount-binfmt", OPTIONAL),
            opt("--map-user --map-group --map-users --map-groups --propagation --setgroups --monotonic --boottime",
                VALUE),
            opt("-R --root -w --wd -S --setuid -G --setgid -l --load-interp", VALUE),
            opt("-f --fork -r --map-root-user -c --map-current-user --map-auto --keep-caps"),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "nsenter": Grammar(
        default=("sh",),
        options=(
            opt("-t --target -S --setuid -G --setgid -W --wdns --env-file", VALUE),
            opt("-m --mount -u --uts -i --ipc -n --net -p --pid -U --user -C --cgroup -T --time -r --root "
                "-w --wd", OPTIONAL),
            opt("-a --all --preserve-credentials -e --env -F --no-fork -Z --follow-context -c --join-cgroup"),
            opt("-h --help -V --version", FLAG, NOTHING),
        ),
    ),
    "systemd-run": Grammar(
        privileged=True,  # starts a unit of the system manager (root, or a polkit prompt) unless --user
        options=(
            opt("-u --unit -p --property --description --slice -E --setenv --uid --gid --nice --working-directory "
                "-M --machine -H --host --on-active --on-boot --on-startup --on-unit-active --on-unit-inactive "
                "--on-calendar --timer-property --path-property --socket-property --service-type "
                "--property-file --json", VALUE),
            opt("--user --system --scope -t --pty -P --pipe -q --quiet -d --same-dir -r --remain-after-exit "
                "--wait -G --collect --no-block --no-ask-password --send-sighup --on-clock-change "
                "--on-timezone-change -v --verbose --expand-environment --ignore-failure --background"),
            opt("-S --shell", FLAG, SHELL),
            opt("-h --help --version", FLAG, NOTHING),
        ),
    ),
}


def command_run_by(argv: Sequence[str | None]) -> tuple[str | None, ...] | None:
    """The command a COMMAND_RUNNERS program runs (`unshare -r rm x` -> `rm x`), or None."""
    if not argv or program_name(argv[0]) not in COMMAND_RUNNERS:
        return None
    grammar = COMMAND_RUNNERS[program_name(argv[0])]  # type: ignore[index]
    read = _read_wrapper(grammar, list(argv[1:]))
    effects = dict(read.effects)
    if NOTHING in effects:
        return None
    if read.rest:
        return tuple(read.rest)
    return (_DEFAULT_SHELL,) if SHELL in effects or grammar.default else None


def own_operands(words: Sequence[str | None]) -> list[str | None]:
    """The operands the wrapper `words[0]` takes for itself (timeout's DURATION, logsave's LOGFILE, envdir's
    DIR), read by its grammar."""
    grammar = WRAPPERS.get(program_name(words[0]) if words else None)   # type: ignore[arg-type]
    return [] if grammar is None else _read_wrapper(grammar, list(words[1:])).operands


# A wrapper is only unwrapped when it is the system's: `./sudo ls` runs a local script, not `ls`.
SYSTEM_DIRS = frozenset({
    "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin",
    "/run/current-system/sw/bin", "/usr/libexec",
})

_DEFAULT_SHELL = "sh"
_LEGACY_NICE = lazy_re(r"^-(?:[-+]?)\d+$")
_ASSIGNMENT = lazy_re(r"^[^=\-][^=]*=")
_WRITTEN_ASSIGNMENT = lazy_re(r"^([A-Za-z_][A-Za-z0-9_]*)=")


class _RuntimeAssignment(str):
    """`PATH="$PATH"` in an argument: the word is known only at run time, but as written it is plainly an
    assignment (env and sudo read it as one). Its str value is `NAME=`; it is None again wherever it is run."""

    written: str


class Unwrapped(Record):
    command: tuple[str | None, ...]   # argv from the essential program on; () when nothing runs
    wrappers: tuple[str, ...]         # outermost first: ("sudo", "env", "timeout")
    env: tuple[Assignment, ...]       # from prefix-free `env A=1` forms
    privileged: bool                  # sudo/doas/su/pkexec/run0
    runs_nothing: bool                # `command -v rm`, `sudo -v`, `env` alone (prints env), ...
    code: str | None                  # `env -S STRING`: the string is code to split
    code_origin: str | None           # "env -S"
    replace: str | None               # `xargs -I R` / `-i`: the string xargs replaces with each input item

    __slots__ = FIELDS = ('command', 'wrappers', 'env', 'privileged', 'runs_nothing', 'code', 'code_origin',
                          'replace')

    def __init__(self, command, wrappers, env, privileged, runs_nothing, code=None, code_origin=None,
                 replace=None) -> None:
        _set(self, 'command', command)
        _set(self, 'wrappers', wrappers)
        _set(self, 'env', env)
        _set(self, 'privileged', privileged)
        _set(self, 'runs_nothing', runs_nothing)
        _set(self, 'code', code)
        _set(self, 'code_origin', code_origin)
        _set(self, 'replace', replace)


def program_name(word: str | None) -> str | None:
    """`/usr/bin/head` -> `head`, `\\rm` -> `rm`, `"rm"` -> `rm`; None stays None (known at run time)."""
    if word is None:
        return None
    if not ("/" in word or "\\" in word or "'" in word or '"' in word):    # nothing to clean: no regex needed
        return word
    name = word.lstrip("\\")
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        name = name[1:-1]
    if "/" in name.rstrip("/"):
        name = name.rstrip("/").rsplit("/", 1)[-1]
    return name.lstrip("\\")


def wrapper_grammar(word: str | None) -> Grammar | None:
    """The grammar of `word` when it names a system wrapper, else None."""
    name = program_name(word)
    if name not in WRAPPERS:
        return None
    assert word is not None
    bare = word.lstrip("\\").strip("'\"")
    if "/" in bare and bare.rsplit("/", 1)[0] not in SYSTEM_DIRS:
        return None
    return WRAPPERS[name]


# ---------------------------------------------------------------- reading one wrapper's arguments


class _Read:
    """What one wrapper's arguments said (mutable scratch; never leaves this module)."""

    rest: list[str | None]
    effects: list[tuple[str, str | None]]
    operands: list[str | None]
    assignments: list[Assignment]
    stopped_at_runtime_word: bool

    __slots__ = ('rest', 'effects', 'operands', 'assignments', 'stopped_at_runtime_word')

    def __init__(self, rest, effects, operands, assignments, stopped_at_runtime_word=False) -> None:
        self.rest = rest
        self.effects = effects
        self.operands = operands
        self.assignments = assignments
        self.stopped_at_runtime_word = stopped_at_runtime_word


def _lookup(grammar: Grammar, name: str) -> Opt | None:
    for option in grammar.options:
        if name in option.names:
            return option
    if name.startswith("--") and len(name) > 2:  # GNU getopt_long accepts an unambiguous abbreviation
        hits = {o for o in grammar.options for n in o.names if n.startswith(name) and n.startswith("--")}
        if len(hits) == 1:
            return hits.pop()
    return None


def _read_options(grammar: Grammar, words: list[str | None], read: _Read) -> list[str | None]:
    """Consume options from `words`; returns the words left (operands and command). Stops at the first operand
    unless the grammar permutes."""
    i = 0
    left: list[str | None] = []
    while i < len(words):
        word = words[i]
        if word is None or word[:1] == "-" and any(c in word for c in "*?["):
            # an option or the command: unknowable; the command starts here. A glob is one too: `-[v]` is
            # `-v` where a file of that name is, and with nullglob it is gone (`command -[v] rm -rf d` runs rm)
            read.stopped_at_runtime_word = True
            return left + words[i:]
        if word == "--":
            return left + words[i + 1:]
        if grammar.legacy_numeric and _LEGACY_NICE.match(word):
            i += 1
            continue
        if word == "-" and _lookup(grammar, "-") is not None:
            i += 1
            continue
        if not word.startswith("-") or word == "-":
            if grammar.permute:
                left.append(word)
                i += 1
                continue
            return left + words[i:]
        if word.startswith("--"):
            name, eq, attached = word.partition("=")
            option = _lookup(grammar, name)
            if option is None or option.arity == FLAG:
                value = None
            elif eq:
                value = attached
            elif option.arity == VALUE:
                value = _static(words[i + 1]) if i + 1 < len(words) else None
                i += 1
            else:
                value = option.default
            if option is not None and option.effect:
                read.effects.append((option.effect, value))
            i += 1
            continue
        # a cluster of short options: -Eu root, -uroot, -I{}, -o0
        j = 1
        while j < len(word):
            option = _lookup(grammar, "-" + word[j])
            if option is None or option.arity == FLAG:
                if option is not None and option.effect:
                    read.effects.append((option.effect, None))
                j += 1
                continue
            attached = word[j + 1:]
            if attached:
                value: str | None = attached
            elif option.arity == VALUE:
                value = _static(words[i + 1]) if i + 1 < len(words) else None
                i += 1
            else:
                value = option.default
            if option.effect:
                read.effects.append((option.effect, value))
            break
        i += 1
    return left


def _read_wrapper(grammar: Grammar, args: list[str | None]) -> _Read:
    read = _Read(rest=[], effects=[], operands=[], assignments=[])
    if grammar.lead_operand and args and args[0] is not None and not args[0].startswith("-"):
        read.operands.append(args[0])
        args = args[1:]
    left = _read_options(grammar, args, read)
    if read.stopped_at_runtime_word:
        read.rest = left
        return read
    taken = grammar.operands if not grammar.user_operand else (1 if left else 0)
    read.operands += left[:taken]
    left = left[taken:]
    if grammar.options_after_operands and left and left[0] is not None and left[0].startswith("-"):
        left = _read_options(grammar, left, read)
    if grammar.assignments:
        while left and left[0] is not None and _ASSIGNMENT.match(left[0]):
            name, _, value = left[0].partition("=")
            if isinstance(left[0], _RuntimeAssignment):
                read.assignments.append(Assignment(name=name, value=None, text=left[0].written))
            else:
                read.assignments.append(Assignment(name=name, value=value, text=left[0]))
            left = left[1:]
    read.rest = left
    return read


# ---------------------------------------------------------------- env -S


def split_env_string(text: str) -> list[str | None]:
    """Split `env -S`'s string the way env does: blanks separate; quotes; backslash escapes; `${VAR}` is known
    only at run time (None); `#` at a word's start begins a comment."""
    words: list[str | None] = []
    current: list[str] = []
    in_word = dynamic = False
    quote = ""
    i = 0
    escapes = {"t": "\t", "n": "\n", "r": "\r", "v": "\v", "f": "\f", "_": " ", "\\": "\\", "'": "'", '"': '"',
               "#": "#", "$": "$"}

    def finish() -> None:
        nonlocal in_word, dynamic
        if in_word:
            words.append(None if dynamic else "".join(current))
        current.clear()
        in_word = dynamic = False

    while i < len(text):
        ch = text[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            else:
                current.append(ch)
        elif ch == "\\" and i + 1 < len(text) and quote != "'":
            nxt = text[i + 1]
            if nxt == "c" and not quote:
                break
            if nxt == "_" and not quote:
                finish()
            else:
                current.append(escapes.get(nxt, nxt))
                in_word = True
            i += 1
        elif ch == '"':
            quote = "" if quote else '"'
            in_word = True
        elif ch == "'" and not quote:
            quote = "'"
            in_word = True
        elif ch == "$" and text.startswith("${", i):
            end = text.find("}", i)
            dynamic = in_word = True
            i = end if end != -1 else len(text)
        elif ch in " \t\n\r\v\f" and not quote:
            finish()
        elif ch == "#" and not in_word and not quote:
            break
        else:
            current.append(ch)
            in_word = True
        i += 1
    finish()
    return words


# ---------------------------------------------------------------- the loop


def _static(word: str | None) -> str | None:
    """The word's text when it is known before run time."""
    return None if isinstance(word, _RuntimeAssignment) else word


def _with_runtime_assignments(argv: Sequence[str | None], written: Sequence[str] | None) -> list[str | None]:
    words: list[str | None] = list(argv)
    if written is None or len(written) != len(argv):
        return words
    for i, (word, text) in enumerate(zip(argv, written)):
        match = _WRITTEN_ASSIGNMENT.match(text) if word is None else None
        if match:
            marked = _RuntimeAssignment(match.group(0))
            marked.written = text
            words[i] = marked
    return words


def unwrap(argv: Sequence[str | None], written: Sequence[str] | None = None) -> Unwrapped:
    """Peel wrappers off `argv` (outermost first) until the program that runs is reached.
    `written`, the same words as written (Part.words), lets `env PATH="$PATH" cmd` be read as an assignment."""
    if argv and wrapper_grammar(argv[0]) is None:     # most commands: no wrapper to peel
        return Unwrapped(command=tuple(argv), wrappers=(), env=(), privileged=False, runs_nothing=False)
    words = _with_runtime_assignments(argv, written)
    wrappers: list[str] = []
    env: list[Assignment] = []
    privileged = False
    code: str | None = None
    code_origin: str | None = None
    replace: str | None = None

    def done(command: Sequence[str | None] | None) -> Unwrapped:
        runs = [_static(word) for word in command or ()]
        return Unwrapped(
            command=tuple(runs), wrappers=tuple(wrappers), env=tuple(env), privileged=privileged,
            runs_nothing=command is None, code=code, code_origin=code_origin, replace=replace,
        )

    while words:
        grammar = wrapper_grammar(words[0])
        if grammar is None:
            return done(words)
        name = program_name(words[0])
        assert name is not None
        wrappers.append(name)
        privileged = privileged or grammar.privileged
        read = _read_wrapper(grammar, words[1:])
        env.extend(read.assignments)
        effects = dict(read.effects)
        rest = read.rest

        if NOTHING in effects:      # before a word known only at run time too: `command -v "$x"`, `chrt -p "$$"`
            return done(None)
        if read.stopped_at_runtime_word:
            return done(rest)
        if SPLIT in effects:  # env -S: the string's words come first, and may hold more options and assignments
            split_value = effects[SPLIT]
            if split_value is None:
                return done((None,))
            code, code_origin = split_value, f"{name} -S"
            again = _read_wrapper(grammar, split_env_string(split_value) + rest)
            env.extend(again.assignments)
            if again.stopped_at_runtime_word:
                return done(again.rest)
            rest = again.rest
        if REPLACE in effects and effects[REPLACE]:
            # xargs -I{}: words holding the replace string are filled in at run time
            token = replace = effects[REPLACE]
            rest = [None if w is not None and token in w else w for w in rest]
        shell = effects.get(SHELL_NAME) or _DEFAULT_SHELL
        if CODE in effects:
            return done((shell, "-c", effects[CODE]))
        if EDIT in effects:
            return done(("sudoedit", *rest))
        if grammar.user_operand:
            return done((shell, *rest))  # su [USER] [ARGS]: the args go to the user's shell
        if grammar.joins_code and DIRECT not in effects and rest:
            static = [_static(w) for w in rest]
            joined = None if any(w is None for w in static) else " ".join(static)  # type: ignore[arg-type]
            return done((_DEFAULT_SHELL, "-c", joined))
        if len(read.operands) < grammar.operands:
            return done(None)  # `timeout 5` alone: an error, nothing runs
        if not rest:
            if SHELL in effects:
                return done((_DEFAULT_SHELL,))
            return done(grammar.default)
        words = rest
    return done(None)
