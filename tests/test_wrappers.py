"""wispsh.programs.wrappers.unwrap: every wrapper with each of its option forms, nested in any order."""
from __future__ import annotations

import shlex

import pytest

from wispsh.model import Assignment
from wispsh.programs.wrappers import WRAPPERS, program_name, split_env_string, unwrap

RUNTIME = "$X"  # in these tables, a word known only at run time


def words(text: str) -> list[str | None]:
    return [None if w == RUNTIME else w for w in shlex.split(text)]


def cmd(text: str) -> tuple[str | None, ...]:
    return tuple(words(text))


# (argv, command that runs, wrappers outermost first)
RUNS = [
    # sshpass types a password into what it runs: keyed and judged as that command
    ("sshpass -p pw ssh host uptime", "ssh host uptime", ("sshpass",)),
    ("sshpass -f pw.txt scp f host:", "scp f host:", ("sshpass",)),
    ("sshpass -e -v rsync -a d host:d", "rsync -a d host:d", ("sshpass",)),
    # sudo
    ("sudo rm x", "rm x", ("sudo",)),
    ("sudo -u root rm x", "rm x", ("sudo",)),
    ("sudo -uroot rm x", "rm x", ("sudo",)),
    ("sudo --user=root rm x", "rm x", ("sudo",)),
    ("sudo --user root rm x", "rm x", ("sudo",)),
    ("sudo --us root rm x", "rm x", ("sudo",)),           # getopt_long abbreviation
    ("sudo -g wheel -C 3 -h host -p pw -r role -t type -U u -D /tmp rm x", "rm x", ("sudo",)),
    ("sudo -Eu root rm x", "rm x", ("sudo",)),            # a flag and a valued option in one cluster
    ("sudo -E -- rm x", "rm x", ("sudo",)),
    ("sudo --preserve-env=PATH,HOME rm x", "rm x", ("sudo",)),
    ("sudo --preserve-env rm x", "rm x", ("sudo",)),      # optional value: only attached
    ("sudo -n -H -b -S -k rm x", "rm x", ("sudo",)),
    ("sudo -i rm x", "rm x", ("sudo",)),                  # with a command, -i/-s run it through the shell
    ("sudo -s", "sh", ("sudo",)),                         # alone, they run a shell
    ("sudo -i", "sh", ("sudo",)),
    ("sudo --login", "sh", ("sudo",)),
    ("sudo -e /etc/hosts", "sudoedit /etc/hosts", ("sudo",)),
    ("/usr/bin/sudo rm x", "rm x", ("sudo",)),
    ("\\sudo rm x", "rm x", ("sudo",)),
    # doas
    ("doas rm x", "rm x", ("doas",)),
    ("doas -u root -n rm x", "rm x", ("doas",)),
    ("doas -s", "sh", ("doas",)),
    # su, and `sudo su`: a shell
    ("su", "sh", ("su",)),
    ("sudo su", "sh", ("sudo", "su")),
    ("sudo su - postgres", "sh", ("sudo", "su")),
    ("su -c 'rm -rf /' root", "sh -c 'rm -rf /'", ("su",)),
    ("su - root -c 'rm -rf /'", "sh -c 'rm -rf /'", ("su",)),
    ("su --command='rm x'", "sh -c 'rm x'", ("su",)),
    ("su -s /bin/zsh postgres", "/bin/zsh", ("su",)),
    # pkexec, run0
    ("pkexec rm x", "rm x", ("pkexec",)),
    ("pkexec --user root --keep-cwd rm x", "rm x", ("pkexec",)),
    ("pkexec", "sh", ("pkexec",)),
    ("run0 -u root --nice=5 rm x", "rm x", ("run0",)),
    # env
    ("env rm x", "rm x", ("env",)),
    ("env -i rm x", "rm x", ("env",)),
    ("env - rm x", "rm x", ("env",)),
    ("env -u HOME rm x", "rm x", ("env",)),
    ("env -uHOME --unset=PATH rm x", "rm x", ("env",)),
    ("env -C /tmp rm x", "rm x", ("env",)),
    ("env --chdir=/tmp -0 -v rm x", "rm x", ("env",)),
    ("env --ignore-signal=INT --default-signal rm x", "rm x", ("env",)),
    ("env -- rm x", "rm x", ("env",)),
    ("env -S 'rm -rf x'", "rm -rf x", ("env",)),
    ("env -S'rm -rf' x", "rm -rf x", ("env",)),
    ("env --split-string='-i rm -rf x'", "rm -rf x", ("env",)),
    # time (the keyword and /usr/bin/time)
    ("time make", "make", ("time",)),
    ("time -p make", "make", ("time",)),
    ("time -f %e -o out -a make", "make", ("time",)),
    ("time --format=%e --output out make", "make", ("time",)),
    # timeout: options, then DURATION
    ("timeout 5 rm x", "rm x", ("timeout",)),
    ("timeout -s KILL 5 rm x", "rm x", ("timeout",)),
    ("timeout -sKILL -k 2 5 rm x", "rm x", ("timeout",)),
    ("timeout --signal=KILL --kill-after=2 --foreground --preserve-status -v 5s rm x", "rm x", ("timeout",)),
    ("timeout -- $X rm x", "rm x", ("timeout",)),         # after --, a runtime word is the DURATION
    # nice
    ("nice rm x", "rm x", ("nice",)),
    ("nice -n 5 rm x", "rm x", ("nice",)),
    ("nice -n5 rm x", "rm x", ("nice",)),
    ("nice --adjustment=5 rm x", "rm x", ("nice",)),
    ("nice -19 rm x", "rm x", ("nice",)),                 # legacy -N
    ("nice --5 rm x", "rm x", ("nice",)),                 # legacy --N (negative)
    # nohup, setsid, unbuffer
    ("nohup rm x", "rm x", ("nohup",)),
    ("setsid -f -w -c rm x", "rm x", ("setsid",)),
    ("unbuffer -p rm x", "rm x", ("unbuffer",)),
    # stdbuf
    ("stdbuf -o0 rm x", "rm x", ("stdbuf",)),
    ("stdbuf -o 0 -e L -i0 rm x", "rm x", ("stdbuf",)),
    ("stdbuf --output=L rm x", "rm x", ("stdbuf",)),
    # ionice
    ("ionice -c 3 rm x", "rm x", ("ionice",)),
    ("ionice -c3 -n 7 -t rm x", "rm x", ("ionice",)),
    ("ionice --class=idle rm x", "rm x", ("ionice",)),
    # chrt: options, PRIORITY, command
    ("chrt -f 99 rm x", "rm x", ("chrt",)),
    ("chrt --rr 10 rm x", "rm x", ("chrt",)),
    ("chrt -d -T 100 -P 200 -D 150 0 rm x", "rm x", ("chrt",)),
    ("chrt 0 rm x", "rm x", ("chrt",)),
    # taskset: options, MASK or LIST, command
    ("taskset 0x3 rm x", "rm x", ("taskset",)),
    ("taskset -c 0-3 rm x", "rm x", ("taskset",)),
    ("taskset --cpu-list 0,2 rm x", "rm x", ("taskset",)),
    # flock: options, FILE, then a command or -c CODE
    ("flock /tmp/l rm x", "rm x", ("flock",)),
    ("flock -n -w 5 /tmp/l rm x", "rm x", ("flock",)),
    ("flock --timeout=5 -x /tmp/l rm x", "rm x", ("flock",)),
    ("flock /tmp/l -c 'rm x'", "sh -c 'rm x'", ("flock",)),
    ("flock -s /tmp/l --command 'rm x'", "sh -c 'rm x'", ("flock",)),
    ("flock -c 'rm x' /tmp/l", "sh -c 'rm x'", ("flock",)),
    # command, builtin, exec
    ("command rm x", "rm x", ("command",)),
    ("command -p rm x", "rm x", ("command",)),
    ("builtin cd x", "cd x", ("builtin",)),
    ("exec rm x", "rm x", ("exec",)),
    ("exec -a ls rm -rf x", "rm -rf x", ("exec",)),    # -a spoofs argv[0]; the program is still rm
    ("exec -c -l rm x", "rm x", ("exec",)),
    ("exec -cl -a name rm x", "rm x", ("exec",)),
    ("builtin exec rm -rf x", "rm -rf x", ("builtin", "exec")),
    # xargs: options; the replace string is filled in at run time
    ("xargs rm", "rm", ("xargs",)),
    ("xargs", "echo", ("xargs",)),
    ("xargs -0 rm -rf", "rm -rf", ("xargs",)),
    ("xargs -0 -I{} rm {}", "rm $X", ("xargs",)),
    ("xargs -I {} rm {}", "rm $X", ("xargs",)),
    ("xargs -i rm {} x", "rm $X x", ("xargs",)),
    ("xargs --replace=@ rm @", "rm $X", ("xargs",)),
    ("xargs -I% sh -c %", "sh -c $X", ("xargs",)),
    ("xargs -a list -d '\\n' -n 1 -P 4 -L 2 -s 100 -E END rm", "rm", ("xargs",)),
    ("xargs --arg-file=list --null --max-args=1 --max-procs 4 -r -t -p -x rm", "rm", ("xargs",)),
    ("xargs -e -l -0 rm", "rm", ("xargs",)),
    ("xargs -eEND -l2 rm", "rm", ("xargs",)),
    # strace, ltrace
    ("strace rm x", "rm x", ("strace",)),
    ("strace -f -o out -e trace=open rm x", "rm x", ("strace",)),
    ("strace -ff -s 200 -p 1 -u nobody -E A=1 rm x", "rm x", ("strace",)),
    ("strace --output=out --trace=open rm x", "rm x", ("strace",)),
    ("ltrace -o out -e malloc -n 2 rm x", "rm x", ("ltrace",)),
    ("ltrace -c -f -S rm x", "rm x", ("ltrace",)),
    # busybox APPLET
    ("busybox rm -rf x", "rm -rf x", ("busybox",)),
    ("busybox sh -c 'rm x'", "sh -c 'rm x'", ("busybox",)),
    # watch runs its words through sh -c; -x runs them directly
    ("watch -n 1 'ls | wc'", "sh -c 'ls | wc'", ("watch",)),
    ("watch -n1 -d ls -l", "sh -c 'ls -l'", ("watch",)),
    ("watch -x ls -l", "ls -l", ("watch",)),
    # chroot, caffeinate
    ("chroot /srv rm x", "rm x", ("chroot",)),
    ("chroot --userspec=a:b /srv", "sh", ("chroot",)),
    ("caffeinate -i -t 100 rm x", "rm x", ("caffeinate",)),
    # programs that set something up for the one command they run (GTFOBins' shell escapes, their manuals)
    ("setarch x86_64 rm -rf x", "rm -rf x", ("setarch",)),           # setarch(8): [ARCH] [options] [CMD]
    ("setarch -3 /bin/sh", "/bin/sh", ("setarch",)),                  # no ARCH when the first word is an option
    ("setarch i686 -R --uname-2.6 make", "make", ("setarch",)),
    ("setarch x86_64", "sh", ("setarch",)),                           # no command: a shell
    ("linux32 rm x", "rm x", ("linux32",)), ("linux64 -R make", "make", ("linux64",)),
    ("i386 sh -c 'rm x'", "sh -c 'rm x'", ("i386",)), ("x86_64 --3gb rm x", "rm x", ("x86_64",)),
    ("uname26 make", "make", ("uname26",)),
    ("logsave /dev/null /bin/sh -i", "/bin/sh -i", ("logsave",)),      # logsave(8): [-asv] LOGFILE CMD
    ("logsave -a -v build.log make", "make", ("logsave",)),
    ("choom -n 0 /bin/sh", "/bin/sh", ("choom",)), ("choom --adjust=-100 -- rm x", "rm x", ("choom",)),
    ("prlimit --nofile=1024 make", "make", ("prlimit",)), ("prlimit -n1024 -c rm x", "rm x", ("prlimit",)),
    ("systemd-inhibit --what=idle --why=build make", "make", ("systemd-inhibit",)),
    ("fakeroot", "sh", ("fakeroot",)), ("fakeroot -s state -- dpkg-deb -b pkg", "dpkg-deb -b pkg", ("fakeroot",)),
    ("faketime '2020-01-01 00:00:00' date", "date", ("faketime",)), ("faketime -f +1d rm x", "rm x", ("faketime",)),
    ("eatmydata apt-get install -y x", "apt-get install -y x", ("eatmydata",)),
    ("nocache -n 2 cp a b", "cp a b", ("nocache",)), ("catchsegv ./a.out", "./a.out", ("catchsegv",)),
    ("numactl --interleave=all make", "make", ("numactl",)), ("numactl -C 0-3 -l rm x", "rm x", ("numactl",)),
    ("cpulimit -l 50 -- make", "make", ("cpulimit",)), ("cpulimit -l 100 -f /bin/sh", "/bin/sh", ("cpulimit",)),
    ("rlwrap -H hist nc host 1", "nc host 1", ("rlwrap",)), ("rlwrap -a -c sqlite3 db", "sqlite3 db", ("rlwrap",)),
    ("grc --colour=on make", "make", ("grc",)), ("grc -es ping x", "ping x", ("grc",)),
    ("aa-exec -p unconfined -- /bin/sh", "/bin/sh", ("aa-exec",)), ("aoss /bin/sh", "/bin/sh", ("aoss",)),
    ("padsp -n app ./a.out", "./a.out", ("padsp",)), ("pasuspender -- make", "make", ("pasuspender",)),
    ("proot -r / -0 id", "id", ("proot",)), ("proot -b /dev", "sh", ("proot",)),
    ("multitime -n 5 make", "make", ("multitime",)),
    ("chpst -u nobody -/ /srv rm x", "rm x", ("chpst",)), ("softlimit -m 100000 make", "make", ("softlimit",)),
    ("setlock -n /tmp/l make", "make", ("setlock",)), ("setuidgid www rm x", "rm x", ("setuidgid",)),
    ("envuidgid www make", "make", ("envuidgid",)), ("envdir ./env make", "make", ("envdir",)),
    ("pgrphack rm x", "rm x", ("pgrphack",)),
    ("ksu -q -e /bin/sh", "/bin/sh", ("ksu",)), ("ksu root -e rm x", "rm x", ("ksu",)), ("ksu", "sh", ("ksu",)),
    # nesting in any order
    ("sudo -u root -E -- env A=1 timeout -s KILL 5 nice -n 3 /usr/bin/head -n 5 f", "/usr/bin/head -n 5 f",
     ("sudo", "env", "timeout", "nice")),
    ("nice -n 3 timeout 5 env A=1 sudo rm x", "rm x", ("nice", "timeout", "env", "sudo")),
    ("sudo env PATH=/x timeout 60 nice -n 5 nohup xargs -0 rm -rf", "rm -rf",
     ("sudo", "env", "timeout", "nice", "nohup", "xargs")),
    ("time nohup stdbuf -oL ionice -c3 chrt -f 1 taskset -c 0 setsid unbuffer flock /l strace ltrace rm x",
     "rm x", ("time", "nohup", "stdbuf", "ionice", "chrt", "taskset", "setsid", "unbuffer", "flock", "strace",
              "ltrace")),
    ("command exec builtin command busybox rm x", "rm x", ("command", "exec", "builtin", "command", "busybox")),
    # no wrapper at all
    ("rm -rf x", "rm -rf x", ()),
    ("./sudo rm x", "./sudo rm x", ()),                   # a local script named sudo is not sudo
    ("/tmp/env rm x", "/tmp/env rm x", ()),
]


@pytest.mark.parametrize("argv, command, wrappers", RUNS, ids=[r[0] for r in RUNS])
def test_unwrap_finds_the_program_that_runs(argv, command, wrappers):
    got = unwrap(words(argv))
    assert got.command == cmd(command)
    assert got.wrappers == wrappers
    assert not got.runs_nothing


NOTHING_RUNS = [
    "command -v rm", "command -V rm", "command -pv rm", "sudo -v", "sudo -l rm", "sudo -K", "sudo -V",
    "sudo --help", "sudo -k", "sudo", "doas -L", "doas -C /etc/doas.conf rm", "env", "env -i", "env A=1",
    "env --version", "timeout 5", "timeout", "nice", "nice -n 5", "ionice", "ionice -p 123", "ionice -c3 -p 1",
    "chrt -p 5 123", "chrt -m", "taskset -p 123", "taskset -pc 0 123", "flock 9", "flock -u 9", "exec",
    "exec -a x", "builtin", "command", "time", "time -p", "busybox", "busybox --list", "strace -p 123",
    "xargs --help", "setsid --version", "nohup --help", "su --help", "pkexec --version",
    "setarch --list", "choom -p 1", "prlimit", "prlimit --pid 1 --nofile=10", "systemd-inhibit --list",
    "numactl --hardware", "numactl --shm /x -i all", "cpulimit -p 123 -l 10", "logsave /dev/null", "faketime 0",
]


@pytest.mark.parametrize("argv", NOTHING_RUNS)
def test_forms_that_run_nothing(argv):
    got = unwrap(words(argv))
    assert got.runs_nothing
    assert got.command == ()
    assert got.wrappers and got.wrappers[0] == program_name(words(argv)[0])


def test_privileged_wrappers():
    for argv in ("sudo rm", "doas rm", "su", "pkexec rm", "run0 rm", "env A=1 sudo -u x rm", "sudo -v", "ksu -e rm"):
        assert unwrap(words(argv)).privileged, argv
    for argv in ("env rm", "timeout 5 rm", "nice rm", "xargs rm", "rm", "./sudo rm"):
        assert not unwrap(words(argv)).privileged, argv


def test_env_and_sudo_assignments_are_the_commands_environment():
    got = unwrap(words("sudo LD_PRELOAD=/x.so env -u HOME A=1 B= timeout 5 rm"))
    assert got.command == ("rm",)
    assert got.env == (Assignment("LD_PRELOAD", "/x.so", "LD_PRELOAD=/x.so"), Assignment("A", "1", "A=1"),
                       Assignment("B", "", "B="))


def test_a_runtime_assignment_is_read_as_one_when_written_as_one():
    argv = ["sudo", "env", None, "timeout", "60", "rm", "-rf"]
    written = ["sudo", "env", 'PATH="$PATH"', "timeout", "60", "rm", "-rf"]
    got = unwrap(argv, written)
    assert got.command == ("rm", "-rf")
    assert got.env == (Assignment("PATH", None, 'PATH="$PATH"'),)
    # without the written words, the unknown word may be the program: the command starts with None
    assert unwrap(argv).command[0] is None
    # and a runtime assignment-looking word where a program must be is still known only at run time
    assert unwrap(["nice", None, "x"], ["nice", 'A="$x"', "x"]).command == (None, "x")


@pytest.mark.parametrize("argv, command", [
    ("$X rm x", "$X rm x"),
    ("sudo $X rm", "$X rm"),              # an option or the program: unknowable
    ("env $X rm", "$X rm"),
    ("timeout 5 $X", "$X"),
    ("timeout $X rm x", "$X rm x"),       # $X may be `-s`: then rm is the signal; fail closed
    ("xargs -0 $X", "$X"),
    ("sudo -u $X rm", "rm"),              # a runtime option value is only a value
    ("env -S $X", "$X"),
    ("env -S 'rm -rf ${HOME}'", "rm -rf $X"),
])
def test_runtime_words(argv, command):
    assert unwrap(words(argv)).command == cmd(command)


def test_env_split_string_is_code_to_split():
    got = unwrap(words("env -S 'A=1 rm -rf ${HOME}' more"))
    assert got.code == "A=1 rm -rf ${HOME}"
    assert got.code_origin == "env -S"
    assert got.command == ("rm", "-rf", None, "more")
    assert got.env == (Assignment("A", "1", "A=1"),)
    assert unwrap(words("env rm")).code is None


def test_env_split_string_syntax():
    assert split_env_string("a 'b c' \"d\\te\" f\\_g ${X}y #comment") == ["a", "b c", "d\te", "f", "g", None]
    assert split_env_string("  ") == []
    assert split_env_string("a\\cb c") == ["a"]


def test_program_name():
    assert program_name("/usr/bin/head") == "head"
    assert program_name("\\rm") == "rm"
    assert program_name('"rm"') == "rm"
    assert program_name("'rm'") == "rm"
    assert program_name("/usr/bin/../../bin/rm") == "rm"
    assert program_name("rm") == "rm"
    assert program_name(None) is None


def test_every_wrapper_in_the_table_is_exercised():
    seen = {w for _, _, ws in RUNS for w in ws} | {program_name(words(a)[0]) for a in NOTHING_RUNS}
    assert set(WRAPPERS) <= seen, set(WRAPPERS) - seen
