"""Roots, namespaces and capabilities (nsenter, unshare, capsh, ldconfig, update-alternatives, start-stop-daemon,
run-parts) and the kernel's security controls (audit, SELinux, AppArmor): entering another root or turning a
control off is dangerous, reading their state is not.
"""
from __future__ import annotations

from wispsh.programs.delegate import hand_on, runs_operands
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, On, Program, Row, When, emits, programs, verb


# ---------------------------------------------------------------- roots and namespaces

@emits({"nsenter.init": ["nsenter -t 1 -m -u -i -n -p", "nsenter --target=1 --mount sh", "nsenter -t1 -a"],
        "nsenter.command": ["nsenter -t 1234 -n ip a"]})
def nsenter_target(cmd, o) -> None:
    """Entering init's namespaces (-t 1) is a root shell on the host; the operands are the command run there."""
    if o.value("t", "target") == "1":
        cmd.does("privilege", "nsenter.init", "nsenter into init's namespaces is a root shell on the host")
    hand_on(cmd, o.operands, "nsenter.command")


NSENTER = Program(
    "nsenter", doc="runs a command in other processes' namespaces",
    grammar=Grammar(values="tSGW", long_values=("target", "setuid", "setgid", "wdns"), stop=True,
                    optional=("mount", "uts", "ipc", "net", "pid", "cgroup", "user", "time", "root", "wd")),
    rows=(Row("nsenter.runs", "root", "{cmd} runs a program in another root or namespace",
              examples=("nsenter -t 9 -n",)),),
    hook=nsenter_target,
)
UNSHARE = Program(
    "unshare", doc="runs a command in new namespaces",
    # --user/--mount/--pid… take only an attached file (`--mount=/x`): never the next word
    grammar=Grammar(values="SGRwd", long_values=("setuid", "setgid", "root", "wd", "map-user", "map-group",
                                                 "propagation", "setgroups", "map-users", "map-groups"), stop=True),
    rows=(Row("unshare.runs", "root", "{cmd} runs a program in another root or namespace", examples=("unshare -r",)),),
    hook=runs_operands,
)
LDCONFIG = Program("ldconfig", doc="rebuilds the shared library cache", grammar=Grammar(longs=("print-cache",)), rows=(
    Row("ldconfig.prints", "nothing", "prints the library cache", When(flag=("p", "print-cache")), stop=True,
        examples=("ldconfig -p",)),
    Row("ldconfig.changes", "steer", "changes which libraries programs load", examples=("ldconfig /tmp/lib",))))
ALTERNATIVES = Program(
    "update-alternatives", doc="chooses which program a system command runs",
    rows=(Row("alternatives.shows", "nothing", "shows the alternatives",
              When(flag=("display", "query", "list", "get-selections")), stop=True,
              examples=("update-alternatives --display java",)),
          Row("alternatives.changes", "steer", "changes which program a system command runs",
              examples=("update-alternatives --set java /tmp/java",))),
)

# capsh(1): `--` runs /bin/bash (or --shell) with the words after it, `==` capsh again; on the way it sets
# user and group ids, capabilities and securebits (with CAP_SETUID or under sudo/suid: `capsh --uid=0 --` is a
# root shell). --print, --decode, --has-* and the like only report.
CAPSH_SETS = ("--uid", "--gid", "--user", "--groups", "--caps", "--inh", "--addamb", "--iab", "--secbits", "--keep",
              "--cap-uid", "--mode", "--chroot")
CAPSH_REPORTS = ("--print", "--current", "--decode", "--supports", "--has-", "--explain", "--license", "--suggest",
                 "--is-uid", "--is-gid", "--modes", "--help")


@emits({"capsh.sets": ["capsh --uid=0 --gid=0 --", "capsh --caps=cap_setuid+eip --", "capsh --user=root -- -c id"],
        "capsh.reports": ["capsh --print", "capsh --decode=0x3f", "capsh --has-p=cap_sys_admin"],
        "capsh.runs": ["capsh --drop=cap_net_raw -- -c 'make test'", "capsh -- -c id", "capsh --"],
        "capsh.runs-runtime": ['capsh -- -c "$X"']})
def capsh_words(cmd, o) -> None:
    """What capsh sets, and the shell (or capsh) it runs after `--` (`==`) with the rest of the words."""
    args = list(o.args)
    shell = "bash"
    for arg in args:
        if arg in ("--", "=="):
            break
        name, _, value = arg.partition("=")
        if name == "--shell" and value:
            shell = value
        if name in CAPSH_SETS:
            cmd.does("privilege", "capsh.sets", f"capsh {name} sets user ids or capabilities for what it runs")
        elif arg.startswith(CAPSH_REPORTS):
            cmd.fired.add("capsh.reports")
    for marker, program in (("--", shell), ("==", "capsh")):
        if marker in args:
            words = [program] + args[args.index(marker) + 1:]
            if any(UNKNOWN in w for w in words):
                cmd.runs_runtime_code("capsh.runs-runtime", "capsh runs code known only at run time")
            else:
                hand_on(cmd, words, "capsh.runs")
            return


CAPSH = Program("capsh", doc="runs a shell with the user ids and capabilities it sets", hook=capsh_words,
                examples={"capsh --print": "safe", "capsh --gid=0 --uid=0 --": "dangerous",
                          "capsh -- -c 'rm -rf ~'": "dangerous", "capsh --drop=cap_net_raw -- -c 'ls'": "safe"})

# start-stop-daemon(8): --start runs --startas (or --exec) PROGRAM, with the words after `--`, as a daemon
# outside this shell; --stop signals the processes it matches; --status and --test only look.
SSD_VALUES = ("p", "pidfile", "x", "exec", "n", "name", "u", "user", "ppid", "a", "startas", "c", "chuid", "r",
              "chroot", "d", "chdir", "N", "nicelevel", "P", "procsched", "I", "iosched", "k", "umask", "O", "output",
              "g", "group", "s", "signal", "R", "retry", "notify-timeout")


@emits({"start-stop-daemon.runs": ["start-stop-daemon -S -x /usr/sbin/nginx", "start-stop-daemon --start -b -a "
                                   "/bin/sh -- -c 'make serve'"],
        "start-stop-daemon.runs-runtime": ['start-stop-daemon -S -x "$D"']})
def ssd_program(cmd, o) -> None:
    """The program --start runs (--startas, else --exec), with the operands after `--`: judged as itself."""
    program = o.value("a", "startas") or o.value("x", "exec")
    if not o.has("S", "start") or program is None or o.has("t", "test"):
        return
    if UNKNOWN in program:
        cmd.runs_runtime_code("start-stop-daemon.runs-runtime", "start-stop-daemon starts a program known only at "
                                                                "run time")
        return
    hand_on(cmd, [program, *o.operands], "start-stop-daemon.runs")


START_STOP_DAEMON = Program(
    "start-stop-daemon", doc="starts and stops system daemons",
    grammar=Grammar(values="".join(v for v in SSD_VALUES if len(v) == 1),
                    long_values=tuple(v for v in SSD_VALUES if len(v) > 1),
                    longs=("start", "stop", "status", "test", "background", "make-pidfile", "remove-pidfile",
                           "oknodo", "quiet", "verbose", "no-close", "notify-await", "help", "version")),
    rows=(Row("start-stop-daemon.looks", "nothing", "{cmd} only shows what it would do",
              When(flag=("t", "test", "T", "status", "H", "help", "V", "version")), stop=True,
              examples=("start-stop-daemon -S -t -x /usr/sbin/nginx", "start-stop-daemon --status -p /run/x.pid")),
          Row("start-stop-daemon.stops", "kill", "{cmd} --stop signals the processes it matches",
              When(flag=("K", "stop")), examples=("start-stop-daemon -K -p /run/x.pid",)),
          Row("start-stop-daemon.starts", "local-service", "{cmd} starts a program as a daemon, outside this shell",
              When(flag=("S", "start")), examples=("start-stop-daemon -S -b -x /usr/bin/true",))),
    on=(On("write", ("option", "O", "output"), id="start-stop-daemon.output", says="the daemon's output goes to",
           examples=("start-stop-daemon -S -O ~/.bashrc -x /bin/true",)),),
    hook=ssd_program,
    examples={"start-stop-daemon -S -b -x /tmp/.x": "high", "start-stop-daemon -S -x /bin/sh": "high",
              "start-stop-daemon --status -p /run/x.pid": "safe"},
)

# run-parts(8): runs every executable in DIRECTORY whose name matches (--regex, or the LANANA/LSB names);
# --test and --list only print them. A regex over a directory of programs picks them by name: one that names a
# shell runs that shell (GTFOBins: `run-parts --regex '^sh$' /bin`).
SHELL_NAMES = ("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "tcsh", "csh", "yash",
               "python3", "python", "perl", "ruby", "node", "php", "lua")


@emits({"run-parts.runs": ["run-parts /etc/cron.daily", "run-parts --regex '^x$' /tmp/bin"],
        "run-parts.picks": ["run-parts --new-session --regex '^sh$' /bin"],
        "run-parts.lists": ["run-parts --test /etc/cron.daily", "run-parts --list /tmp/x"]})
def run_parts(cmd, o) -> None:
    """The directory's programs run; --test/--list print their names."""
    if o.has("test", "list", "help", "version"):
        cmd.fired.add("run-parts.lists")
        for word in o.operands:
            cmd.list_names(word)
        return
    import re
    pattern = o.value("regex")
    for word in o.operands:
        cmd.fired.add("run-parts.runs")
        cmd.run_file(word, "run-parts runs")
        if pattern is None or UNKNOWN in pattern:
            continue
        try:
            picked = [name for name in SHELL_NAMES if re.search(pattern, name)]
        except re.error:
            picked = []
        if picked:
            cmd.fired.add("run-parts.picks")
            hand_on(cmd, [word.rstrip("/") + "/" + picked[0]], "run-parts.picks")


RUN_PARTS = Program(
    "run-parts", doc="runs the programs of a directory",
    grammar=Grammar(values="ua", long_values=("regex", "umask", "arg"),
                    longs=("test", "list", "verbose", "debug", "report", "reverse", "lsbsysinit", "exit-on-error",
                           "new-session", "help", "version")),
    hook=run_parts,
    examples={"run-parts --test /etc/cron.daily": "low", "run-parts --regex '^x$' /tmp/bin": "high",
              "run-parts --new-session --regex '^sh$' /bin": "high"},
)

# ---------------------------------------------------------------- security controls: audit, SELinux, AppArmor

AUDIT_CHANGES = ("a", "A", "d", "D", "w", "W", "R", "b", "r", "f", "e", "backlog_wait_time", "reset-lost",
                 "loginuid-immutable")


@emits({"auditctl.lists": ["auditctl -l", "auditctl -s"],
        "auditctl.changes": ["auditctl -w /etc/passwd -p wa -k passwd", "auditctl -e 1", "auditctl -b 8192"],
        "auditctl.disables": ["auditctl -D", "auditctl -e 0", "auditctl -e0", "auditctl -d exit,always -S open",
                              "auditctl -W /etc/shadow -p r", "auditctl -f 0"]})
def auditctl_rules(cmd, o) -> None:
    """auditctl(8): -l/-s report; -D deletes every rule, -d/-W one, `-e 0` turns auditing off, `-f 0` makes
    failures silent: a protection (and its record of what happened) turned off. Other rules change what the
    kernel audits."""
    if not o.has(*AUDIT_CHANGES):
        cmd.does("inspect", "auditctl.lists", "auditctl shows the audit rules or status")
        return
    if o.has("D", "d", "W") or o.value("e") == "0" or o.value("f") == "0":
        cmd.does("weaken", "auditctl.disables", "auditctl deletes audit rules or turns auditing off")
        return
    cmd.does("system", "auditctl.changes", "auditctl changes what the kernel audits")


AUDITCTL = Program("auditctl", doc="the Linux audit system's rules",
                   grammar=Grammar(values="abdDeFfkpRrSWwACM", long_values=("backlog_wait_time",),
                                   longs=("loginuid-immutable", "reset-lost", "signal")),
                   hook=auditctl_rules, examples={"auditctl -l": "low", "auditctl -D": "dangerous"})
AUDIT_READS = Program("ausearch", aliases=("aureport", "aulast", "aulastlog"), doc="reads the audit log",
                      rows=(Row("audit.reads", "inspect", "{cmd} reads the audit log",
                                examples=("ausearch -m LOGIN",)),))
AUGENRULES = Program("augenrules", doc="loads the audit rules from /etc/audit/rules.d", rows=(
    Row("augenrules.loads", "system", "{cmd} reloads the audit rules", examples=("augenrules --load",)),))


@emits({"setenforce.permissive": ["setenforce 0", "setenforce Permissive"],
        "setenforce.enforcing": ["setenforce 1", "setenforce Enforcing"]})
def setenforce_mode(cmd, o) -> None:
    """setenforce(8): 0/Permissive stops SELinux from enforcing its policy; 1/Enforcing turns it back on."""
    mode = (o.operands[0] if o.operands else "").lower()
    if mode in ("0", "permissive") or UNKNOWN in mode:
        cmd.does("weaken", "setenforce.permissive", "setenforce stops SELinux from enforcing its policy")
    elif mode:
        cmd.does("system", "setenforce.enforcing", "setenforce turns SELinux enforcement on")


SETENFORCE = Program("setenforce", doc="switches SELinux between enforcing and permissive", hook=setenforce_mode)
SELINUX_READS = Program("getenforce", aliases=("sestatus", "getsebool", "seinfo", "sesearch", "matchpathcon"),
                        doc="reports SELinux's state and policy")


@emits({"setsebool.sets": ["setsebool httpd_can_network_connect on"],
        "setsebool.persists": ["setsebool -P httpd_execmem 1"]})
def setsebool_values(cmd, o) -> None:
    """setsebool(8): changes SELinux booleans (policy switches); -P saves them across reboots."""
    if o.has("P"):
        cmd.does("weaken", "setsebool.persists", "setsebool -P relaxes the SELinux policy for good")
    else:
        cmd.does("system", "setsebool.sets", "setsebool changes the SELinux policy's switches")


SETSEBOOL = Program("setsebool", doc="sets SELinux booleans", hook=setsebool_values)
SEMANAGE = Program(
    "semanage", doc="manages the SELinux policy",
    verbs={"permissive": verb(grammar=Grammar(longs=("add", "delete", "list")), rows=(
        Row("semanage.permissive.list", "inspect", "lists permissive domains", When(flag=("l", "list")), stop=True,
            examples=("semanage permissive -l",)),
        Row("semanage.permissive", "weaken", "{cmd} makes a domain permissive (SELinux stops enforcing for it)",
            examples=("semanage permissive -a httpd_t",)))),
           "export": verb(rows=(Row("semanage.export", "inspect", "prints the local policy changes",
                                    examples=("semanage export",)),))},
    default=Row("semanage.changes", "system", "{cmd} changes the SELinux policy",
                examples=("semanage port -a -t http_port_t -p tcp 8081",)),
)
APPARMOR_OFF = Program("aa-disable", aliases=("aa-complain", "aa-audit"), doc="turns AppArmor profiles off or to "
                       "complain mode", rows=(
    Row("apparmor.disables", "weaken", "{cmd} stops AppArmor from confining a program",
        examples=("aa-disable /etc/apparmor.d/usr.sbin.cupsd", "aa-complain /usr/bin/x")),))
APPARMOR_ON = Program("aa-enforce", doc="puts AppArmor profiles in enforce mode", rows=(
    Row("apparmor.enforces", "system", "{cmd} changes AppArmor's profiles", examples=("aa-enforce /usr/bin/x",)),))
APPARMOR_READS = Program("aa-status", aliases=("apparmor_status", "aa-unconfined"), doc="reports AppArmor's state")
APPARMOR_PARSER = Program(
    "apparmor_parser", doc="loads AppArmor profiles into the kernel",
    grammar=Grammar(longs=("remove", "replace", "add", "preprocess", "skip-kernel-load")),
    rows=(Row("apparmor_parser.removes", "weaken", "{cmd} -R unloads a profile: the program runs unconfined",
              When(flag=("R", "remove")), stop=True, examples=("apparmor_parser -R /etc/apparmor.d/x",)),
          Row("apparmor_parser.checks", "nothing", "{cmd} only parses the profile",
              When(flag=("Q", "skip-kernel-load", "p", "preprocess", "N")), stop=True,
              examples=("apparmor_parser -Q /etc/apparmor.d/x",)),
          Row("apparmor_parser.loads", "system", "{cmd} loads a profile into the kernel",
              examples=("apparmor_parser -r /etc/apparmor.d/x",))),
)
SECURITY_CONTROLS = (AUDITCTL, AUDIT_READS, AUGENRULES, SETENFORCE, SELINUX_READS, SETSEBOOL, SEMANAGE, APPARMOR_OFF,
                     APPARMOR_ON, APPARMOR_READS, APPARMOR_PARSER)


PROGRAMS = programs(NSENTER, UNSHARE, LDCONFIG, ALTERNATIVES, CAPSH, START_STOP_DAEMON, RUN_PARTS, *SECURITY_CONTROLS)
