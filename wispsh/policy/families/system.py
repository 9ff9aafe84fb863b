"""System and privilege: users, services, schedules, processes, disks, firewalls, power."""
from __future__ import annotations

import re

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS


def privilege(c: Cmd) -> None:
    """sudo/su/doas left as the program: a root shell, or running as someone else."""
    c.at_least(D, f"{c.name} takes root privilege" + ("" if c.args else " (a root shell)"))


def su(c: Cmd) -> None:
    c.at_least(D, "su switches to another user (a root shell by default)")


def systemctl(c: Cmd) -> None:
    o = c.opts("tpHMn", ("type", "property", "host", "machine", "state", "lines", "output", "root"))
    verb = o.operands[0] if o.operands else "list-units"
    if verb.startswith(("list", "status", "show", "is-", "cat", "help", "get-default")):
        return
    if verb in ("enable", "link", "preset", "set-default", "edit", "add-wants", "add-requires", "revert",
                "set-environment", "import-environment", "daemon-reexec"):
        c.at_least(D, f"systemctl {verb} makes a service start on its own (persistence)")
        return
    units = " ".join(o.operands[1:]).lower()
    if verb in ("stop", "disable", "mask", "kill") and re.search(
            r"firewall|ufw|iptables|nftables|apparmor|selinux|audit|fail2ban|wazuh|falco|crowdstrike|osquery|"
            r"clamav|sshd|systemd-journald|rsyslog", units):
        c.at_least(D, f"systemctl {verb} turns off a security or logging service")
        return
    if verb in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "rescue", "emergency",
                "isolate", "soft-reboot"):
        c.at_least(D, f"systemctl {verb} stops the machine")
        return
    c.at_least(H, f"systemctl {verb} changes running services")


def launchctl(c: Cmd) -> None:
    verb = c.args[0] if c.args else ""
    if verb in ("list", "print", "print-disabled", "blame", "version", "help", "getenv", "dumpstate"):
        return
    if verb in ("load", "bootstrap", "submit", "enable", "setenv", "asuser"):
        c.at_least(D, f"launchctl {verb} installs a job that runs on its own (persistence)")
        return
    c.at_least(H, f"launchctl {verb} changes running services")


def service(c: Cmd) -> None:
    if len(c.args) >= 2 and c.args[1] in ("status",) or "--status-all" in c.args:
        return
    c.at_least(H, "changes running services")


def crontab(c: Cmd) -> None:
    o = c.opts("uTs")
    if o.has("l", "T"):
        c.at_least(L if o.has("l") else S, "reads the crontab")
        return
    if o.has("r"):
        c.at_least(H, "removes your crontab")
        return
    c.at_least(D, "installs a crontab: commands that run on their own (persistence)")


def at(c: Cmd) -> None:
    if any(a in ("-l", "-c") for a in c.args) or c.name == "atq":
        return
    if c.name == "atrm" or "-r" in c.args or "-d" in c.args:
        c.at_least(M, "removes scheduled jobs")
        return
    c.at_least(H, f"{c.name} schedules commands to run later")


def kill(c: Cmd) -> None:
    args = c.args
    if not args or args[0] in ("-l", "-L", "--list", "--table"):
        return
    signal = None
    targets = []
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
        if arg.startswith("-") and signal is None and not re.fullmatch(r"-\d+", arg) or (
                arg.startswith("-") and re.fullmatch(r"-[A-Z][A-Z0-9+-]*", arg)):
            signal = arg[1:]
        elif re.fullmatch(r"-\d+", arg) and signal is None and i + 1 < len(args):
            signal = arg[1:]
        else:
            targets.append(arg)
        i += 1
    if signal in ("0",):
        return
    c.at_least(H, "kills processes")
    for target in targets:
        if target in ("-1", "1") or target.startswith("-") and re.fullmatch(r"-\d+", target):
            c.at_least(D, "kills every process you can signal (or init)" if target in ("-1", "1")
                       else "kills a whole process group")
        elif UNKNOWN in target:
            c.at_least(H, "kills a process known only at run time")


def pkill(c: Cmd) -> None:
    o = c.opts("ugGPsStFnwe", ("signal", "euid", "uid", "group", "parent", "session", "terminal", "pidfile",
                               "ns", "nslist", "older"))
    c.at_least(H, f"{c.name} kills processes by name")
    if o.all("u", "U", "euid", "uid") or o.has("U"):
        c.at_least(D, f"{c.name} kills every process of a user")
    if c.name == "killall" and (not o.operands or o.has("u")):
        c.at_least(D, "killall5/killall without a name kills everything")
    if c.name == "killall5":
        c.at_least(D, "killall5 kills every process")
    for pattern in o.operands:
        if pattern in (".", ".*", "", "sshd", "init", "systemd", "bash", "wispsh") or UNKNOWN in pattern or \
                "wisp" in pattern.lower():
            c.at_least(D, f"{c.name} {pattern or '…'} kills sessions or the system")


def disk(c: Cmd) -> None:
    if c.name in ("fdisk", "sfdisk", "parted", "gdisk", "sgdisk") and any(a in ("-l", "--list", "print")
                                                                         for a in c.args):
        c.at_least(L, "lists partitions")
        return
    c.at_least(D, f"{c.name} can destroy a disk's data")


def mount(c: Cmd) -> None:
    if not c.args or c.args in (["-l"], ["-a", "-n"]) or all(a.startswith("-") for a in c.args) and "-a" not in c.args:
        return
    c.at_least(H, f"{c.name} changes mounted filesystems")
    o = c.opts("otLUF", ("options", "types", "label", "uuid"))
    remount = any("remount" in v or "bind" in v for v in o.all("o", "options")) or o.has("bind", "rbind")
    if c.name == "mount" and (len(o.operands) >= 2 or remount and o.operands):
        where = c.place(o.operands[-1])
        if where.path.startswith(("/mnt", "/media", "/run/media")):
            return      # the places meant for mounting
        if where.cls in (places.ROOT, places.SYSTEM, places.HOME, places.ANCESTOR, places.DOTFILE, places.SECRET,
                         places.WISP):
            c.at_least(D, f"mounts over {where.path} ({where.cls})")


def users(c: Cmd) -> None:
    c.at_least(D, f"{c.name} changes users, groups or passwords")


def passwd(c: Cmd) -> None:
    if "-S" in c.args or "--status" in c.args:
        return
    c.at_least(D, "changes a password")


def firewall(c: Cmd) -> None:
    if c.name in ("iptables", "ip6tables") and all(a in ("-L", "-n", "-v", "-S", "--list", "-t", "nat",
                                                         "filter", "mangle", "--line-numbers", "-nvL", "-nL",
                                                         "-vnL", "-L -n") for a in c.args):
        c.at_least(L, "lists firewall rules")
        return
    if c.name == "ufw" and c.args[:1] in (["status"], ["app"]):
        return
    if c.name == "nft" and c.args[:2] == ["list", "ruleset"]:
        return
    c.at_least(H, f"{c.name} changes the firewall")
    if any(a in ("-F", "--flush", "flush", "disable", "-P") for a in c.args):
        c.at_least(D, f"{c.name} flushes or opens the firewall")


def power(c: Cmd) -> None:
    if c.name == "shutdown" and "-c" in c.args:
        c.at_least(M, "cancels a shutdown")
        return
    c.at_least(D, f"{c.name} stops the machine")


def kernel(c: Cmd) -> None:
    if c.name == "sysctl" and not any(a.startswith("-w") or "=" in a or a in ("-p", "--load", "--system")
                                      for a in c.args):
        return
    if c.name == "sysctl" and any(re.match(r"kernel\.(randomize_va_space|yama|kptr_restrict|dmesg_restrict|"
                                           r"modules_disabled|unprivileged|core_pattern|perf_event_paranoid)|"
                                           r"fs\.protected_|fs\.suid_dumpable|net\.ipv4\.ip_forward", a)
                                  for a in c.args):
        c.at_least(D, "sysctl turns off a kernel protection")
    if c.name in ("lsmod", "modinfo"):
        return
    c.at_least(D if c.name in ("insmod", "modprobe", "rmmod", "kexec") else H, f"{c.name} changes the kernel")


def capabilities(c: Cmd) -> None:
    c.at_least(D, f"{c.name} grants programs privileges")


def namespace(c: Cmd) -> None:
    c.at_least(H, f"{c.name} runs a program in another root or namespace")
    if c.name == "unshare":
        # --user/--mount/--pid… take only an attached file (`--mount=/x`): never the next word
        o = c.opts("SGRwd", ("setuid", "setgid", "root", "wd", "map-user", "map-group", "propagation",
                             "setgroups", "map-users", "map-groups"), stop_at_operand=True)
    else:
        o = c.opts("tSGpwU" if c.name == "nsenter" else "", ("target", "setuid", "setgid", "root", "wd", "user",
                                                             "userspec", "groups"), stop_at_operand=True)
    inner = o.operands[1:] if c.name == "chroot" else o.operands
    if inner and UNKNOWN not in inner[0]:
        c.delegate_to = list(inner)
    if c.name == "nsenter" and any(a in ("-t", "--target") or a.startswith(("-t1", "--target=1")) for a in c.args):
        if "1" in c.args or any(a in ("-t1", "--target=1") for a in c.args):
            c.at_least(D, "nsenter into init's namespaces is a root shell on the host")


def ldconfig(c: Cmd) -> None:
    if "-p" in c.args or "--print-cache" in c.args:
        return
    c.at_least(H, "changes which libraries programs load")


def update_alternatives(c: Cmd) -> None:
    if any(a in ("--display", "--query", "--list", "--get-selections") for a in c.args):
        return
    c.at_least(H, "changes which program a system command runs")


def security(c: Cmd) -> None:
    if any(a in ("find-generic-password", "find-internet-password", "dump-keychain", "export") for a in c.args):
        c.facts.secret_source = "reads the keychain"
        c.at_least(H, "reads passwords from the keychain")
    else:
        c.at_least(M, "uses the macOS security tool")


def gpg(c: Cmd) -> None:
    if any(a in ("--export-secret-keys", "--export-secret-subkeys", "--export-ssh-key") for a in c.args):
        c.facts.secret_source = "exports private keys"
        c.at_least(H, "exports private keys")
    elif any(a in ("--import", "--recv-keys", "--delete-secret-keys", "--delete-keys", "--gen-key",
                   "--full-generate-key", "--edit-key", "--sign-key", "--lsign-key") for a in c.args):
        c.at_least(M, "changes your keyring")
    elif any(a in ("-d", "--decrypt") for a in c.args):
        c.at_least(L, "decrypts data")
    o = c.opts("ourRfk", ("output", "recipient", "local-user", "homedir", "keyring", "default-key"))
    for out in o.all("o", "output"):
        if out != "-":
            c.write(out)
    if o.value("homedir") is not None:
        c.at_least(M, "gpg uses another keyring home")


def keyring(c: Cmd) -> None:
    c.facts.secret_source = f"{c.name} prints stored secrets"
    c.at_least(H, f"{c.name} reads stored secrets")


def history(c: Cmd) -> None:
    if any(a in ("-c", "-d", "-w", "-a", "-r", "-s") for a in c.args):
        c.at_least(L, "changes the shell history")


def login_env(c: Cmd) -> None:
    verb = c.args[0] if c.args else ""
    if verb in ("", "list-sessions", "list-users", "show-session", "show-user", "session-status", "user-status"):
        return
    if verb in ("terminate-user", "kill-user", "terminate-session", "kill-session", "poweroff", "reboot"):
        c.at_least(D, f"{c.name} {verb} ends sessions")
        return
    c.at_least(M, f"{c.name} changes your login settings")


def settings(c: Cmd) -> None:
    verb = c.args[0] if c.args else ""
    if verb in ("", "status", "show", "list-timezones", "timesync-status", "show-timesync") or verb.startswith("-"):
        return
    c.at_least(H, f"{c.name} {verb} changes system settings")


def sniffer(c: Cmd) -> None:
    c.at_least(H, f"{c.name} captures or probes network traffic")


def tunnel(c: Cmd) -> None:
    if c.args[:1] in (["version"], ["--version"], ["help"]):
        return
    c.facts.net_send = True
    c.at_least(H, f"{c.name} exposes this machine to the internet")


def ssh_add(c: Cmd) -> None:
    if any(a in ("-l", "-L", "-T") for a in c.args):
        return
    c.at_least(M, "adds or removes keys in your ssh agent")


def ssh_keygen(c: Cmd) -> None:
    if any(a in ("-l", "-y", "-F", "-Q", "-L") for a in c.args):
        return
    c.at_least(M, "creates or changes ssh keys")
    o = c.opts("fbtCNZanIOPsVzZDw")
    for library in o.all("D", "w"):
        c.at_least(H, f"ssh-keygen loads a library ({library.replace(UNKNOWN, '…')}): code runs")
    for out in o.all("f"):
        c.write(out)


RULES = {
    "sudo": privilege, "doas": privilege, "pkexec": privilege, "run0": privilege, "sudoedit": privilege,
    "su": su, "runuser": su, "machinectl": su,
    "systemctl": systemctl, "service": service, "launchctl": launchctl, "rc-service": service,
    "crontab": crontab, "at": at, "batch": at, "atrm": at, "atq": at,
    "kill": kill, "pkill": pkill, "killall": pkill, "killall5": pkill, "skill": pkill, "slay": pkill,
    "mkfs": disk, "mke2fs": disk, "mkswap": disk, "fdisk": disk, "sfdisk": disk, "cfdisk": disk,
    "parted": disk, "gdisk": disk, "sgdisk": disk, "wipefs": disk, "blkdiscard": disk, "cryptsetup": disk,
    "lvremove": disk, "vgremove": disk, "pvremove": disk, "mdadm": disk, "zpool": disk, "badblocks": disk,
    "hdparm": disk, "sdparm": disk, "nvme": disk, "diskutil": disk, "newfs": disk, "format": disk,
    "mount": mount, "umount": mount, "swapon": mount, "swapoff": mount, "losetup": mount,
    "useradd": users, "userdel": users, "usermod": users, "groupadd": users, "groupdel": users,
    "groupmod": users, "adduser": users, "deluser": users, "addgroup": users, "delgroup": users,
    "chpasswd": users, "visudo": users, "vipw": users, "gpasswd": users, "chsh": users, "passwd": passwd,
    "iptables": firewall, "ip6tables": firewall, "nft": firewall, "ufw": firewall, "firewall-cmd": firewall,
    "pfctl": firewall, "iptables-restore": firewall,
    "shutdown": power, "reboot": power, "halt": power, "poweroff": power, "init": power, "telinit": power,
    "sysctl": kernel, "modprobe": kernel, "insmod": kernel, "rmmod": kernel, "kexec": kernel,
    "lsmod": kernel, "modinfo": kernel,
    "setcap": capabilities, "setuid": capabilities, "chroot": namespace, "nsenter": namespace,
    "unshare": namespace, "ldconfig": ldconfig, "update-alternatives": update_alternatives,
    "security": security, "gpg": gpg, "gpg2": gpg, "secret-tool": keyring, "pass": keyring,
    "op": keyring, "bw": keyring, "keyctl": keyring, "vault": keyring, "history": history,
    "chfn": login_env, "loginctl": login_env, "timedatectl": settings, "hostnamectl": settings,
    "localectl": settings, "hostname": settings, "tcpdump": sniffer, "tshark": sniffer, "nmap": sniffer,
    "masscan": sniffer, "hydra": sniffer, "arpspoof": sniffer, "ettercap": sniffer, "ngrok": tunnel,
    "cloudflared": tunnel, "lt": tunnel, "localtunnel": tunnel, "bore": tunnel, "frpc": tunnel, "chisel": tunnel,
    "tailscale": tunnel, "ssh-add": ssh_add, "ssh-keygen": ssh_keygen,
}
