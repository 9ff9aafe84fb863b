"""Programs that run another command they are given as words or as a string: fd -x, parallel, screen, tmux,
systemd-run. Words are handed on (`delegate_to`) and judged as that command; a string is split and judged
as shell code (`Cmd.code_text`). Either way the part is at least as bad as what it runs.
"""
from __future__ import annotations

import shlex

from wispsh.model import Level
from wispsh.policy import places
from wispsh.policy.cmd import Cmd
from wispsh.programs.grammar import UNKNOWN

S, L, M, H, D = Level.SAFE, Level.LOW, Level.MODERATE, Level.HIGH, Level.DANGEROUS

FD_VALUES = frozenset({"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth",
                       "--exact-depth", "-S", "--size", "--changed-within", "--changed-before", "-o", "--owner",
                       "--base-directory", "--search-path", "-c", "--color", "-j", "--threads", "--max-results",
                       "--max-buffer-time", "--path-separator", "--ignore-file", "--format", "--batch-size",
                       "--and", "--newer", "--older", "--hyperlink"})
FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})
FD_PLACEHOLDERS = ("{}", "{/}", "{//}", "{.}", "{/.}")


def fd(c: Cmd) -> None:
    """fd [pattern] [path…] [-x/-X command…]: reads directory trees; -x runs a command on every match."""
    args = c.args
    positional, command, extensions, bases = [], None, [], []
    i, n = 0, len(args)
    while i < n:
        arg = args[i]
        i += 1
        head, eq, value = arg.partition("=")
        if arg in FD_EXEC:
            command = []
            while i < n and args[i] not in (";", "\\;"):
                command.append(args[i])
                i += 1
            i += 1
        elif head in FD_VALUES:
            value = value if eq else (args[i] if i < n else "")
            i += 0 if eq else 1
            if head in ("-e", "--extension"):
                extensions.append(value)
            elif head in ("--search-path", "--base-directory"):
                bases.append(value)
        elif arg == "--":
            positional.extend(args[i:])
            break
        elif not arg.startswith("-"):
            positional.append(arg)
    roots = positional[1:] + bases or ["."]
    for root in roots:
        c.read(root, "searches")
    if command is None:
        return
    if not command or UNKNOWN in command[0]:
        c.at_least(H, "fd runs a command known only at run time")
        return
    suffix = "." + extensions[0].lstrip(".") if len(extensions) == 1 else ""
    worst = max(roots, key=lambda r: _sensitivity(c.place(r).cls))
    found = worst.rstrip("/") + "/*" + suffix if worst != "/" else "/*" + suffix
    words = [_fill(word, found, worst) for word in command]
    if not any(p in word for word in command for p in FD_PLACEHOLDERS):
        words.append(found)
    c.delegate_to = words


def _fill(word: str, found: str, root: str) -> str:
    return word.replace("{//}", root).replace("{/.}", found).replace("{/}", found).replace(
        "{.}", found).replace("{}", found)


SENSITIVITY = (places.PROJECT, places.PROJECT_ROOT, places.TEMP, places.OUTSIDE, places.HOME_OTHER, places.SYSTEM,
               places.DOTFILE, places.PROJECT_SECRET, places.SECRET, places.ANCESTOR, places.HOME, places.ROOT)


def _sensitivity(cls: str) -> int:
    return SENSITIVITY.index(cls) if cls in SENSITIVITY else len(SENSITIVITY)


PARALLEL_VALUES = frozenset({"-j", "--jobs", "-P", "--max-procs", "-S", "--sshlogin", "--sshloginfile", "--slf",
                             "-a", "--arg-file", "-d", "--delimiter", "-I", "--colsep", "-C", "-n", "--max-args",
                             "-N", "-L", "--max-lines", "--joblog", "--results", "--res", "--tmpdir",
                             "--workdir", "--wd", "--env", "--halt", "--delay", "--timeout", "--retries", "-E",
                             "--tag-string", "--memfree", "--load", "--nice", "--block", "--basefile", "--bf",
                             "--return", "--transfer-file", "--tf", "--termseq", "--rpl", "--sqlmaster",
                             "--sqlworker", "--sqlandworker", "--shebang-wrap", "--ssh", "--controlmaster"})
PARALLEL_SEPARATORS = frozenset({":::", "::::", ":::+", "::::+"})
PARALLEL_PLACEHOLDERS = ("{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}")
MAX_PARALLEL_VALUES = 8
RUN_TIME_INPUT = '"$PARALLEL_INPUT"'        # a name the gate cannot know: judged as the worst it could be


def parallel(c: Cmd) -> None:
    """GNU parallel: the command words are joined and run by a shell, once for each input."""
    args = c.args
    i, n = 0, len(args)
    remote = False
    while i < n and args[i].startswith("-") and args[i] not in PARALLEL_SEPARATORS:
        head = args[i].partition("=")[0]
        if head in ("-S", "--sshlogin", "--sshloginfile", "--slf"):
            remote = True
        i += 2 if head in PARALLEL_VALUES and "=" not in args[i] and len(args[i]) <= len(head) else 1
    command = []
    while i < n and args[i] not in PARALLEL_SEPARATORS:
        command.append(args[i])
        i += 1
    values, from_files = [], False
    while i < n:
        separator = args[i]
        i += 1
        while i < n and args[i] not in PARALLEL_SEPARATORS:
            if separator.startswith("::::"):
                from_files = True
                c.read(args[i])
            elif not values or len(values) < MAX_PARALLEL_VALUES:
                values.append(args[i])
            i += 1
    if remote:
        c.facts.net_send = True
        c.at_least(H, "parallel runs commands on other machines (--sshlogin)")
    if any(UNKNOWN in word for word in command):
        c.at_least(H, "parallel runs a command known only at run time")
        return
    if not command:
        if values and not from_files:
            for value in values:
                c.code_text(value, "parallel runs", at_least=M)
        else:
            c.at_least(H, "parallel runs command lines from its input")
        return
    c.at_least(M, f"parallel runs {command[0]}")
    inputs = [_quoted(c, v) for v in values] if values and not from_files else [RUN_TIME_INPUT]
    text = " ".join(command)
    for value in inputs:
        if any(p in text for p in PARALLEL_PLACEHOLDERS):
            line = text
            for placeholder in PARALLEL_PLACEHOLDERS:
                line = line.replace(placeholder, value)
        else:
            line = f"{text} {value}"
        c.code_text(line, "parallel runs", at_least=M)


def _quoted(c: Cmd, value: str) -> str:
    if UNKNOWN in value:
        return RUN_TIME_INPUT
    if value.startswith("~"):
        value = places.expand_tilde(value, c.ctx, c.cwd)     # the shell expanded it before parallel saw it
    return shlex.quote(value)


SCREEN_VALUES = frozenset({"-S", "-c", "-e", "-h", "-p", "-T", "-t", "-s", "-Logfile", "-logfile"})


def screen(c: Cmd) -> None:
    """screen [options] [command…]: a detached session runs the command outside this shell."""
    args = c.args
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        arg = args[i]
        i += 1
        if arg == "-X":
            c.at_least(H, "screen -X sends commands to a running session")
            return
        if arg in ("-ls", "-list", "-v", "--version", "-help", "--help", "-wipe", "-Q"):
            return
        if arg == "-c" and i < n:
            c.run_file(args[i], "screen reads its startup commands from")
        if arg in SCREEN_VALUES or arg[1:2] not in ("", "L") and arg[-1] in "Scehpt" and len(arg) > 2 \
                and not arg.startswith("-L"):
            i += 1
        if arg in ("-r", "-x", "-R", "-D", "-RR") or arg.startswith(("-r", "-x")):
            c.at_least(M, "screen attaches to a session")
            return
    command = args[i:]
    if not command:
        c.at_least(M, "screen starts a shell")
        return
    if UNKNOWN in command[0]:
        c.at_least(H, "screen runs a program known only at run time")
        return
    c.at_least(M, f"screen runs {command[0]} in a session")
    c.delegate_to = list(command)


TMUX_RUNS = frozenset({"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
                       "respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup",
                       "pipe-pane", "pipep", "if-shell", "if"})
TMUX_VALUES = frozenset({"-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-l", "-L", "-f", "-S", "-T", "-d",
                         "-w", "-h", "-b", "-E", "-A"})
TMUX_FLAGS_ONLY = frozenset({"-d", "-h", "-b", "-E", "-A", "-P", "-D", "-X", "-v", "-k", "-Z", "-I", "-o", "-O",
                             "-B", "-C"})
TMUX_READ = frozenset({"ls", "list-sessions", "list-windows", "lsw", "list-panes", "lsp", "capture-pane",
                       "capturep", "display-message", "display", "has-session", "has", "show-options", "show",
                       "list-keys", "lsk", "list-clients", "lsc", "info", "-V"})


def tmux(c: Cmd) -> None:
    args = c.args
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):           # tmux's own options before the verb
        if args[i] in ("-L", "-S", "-f", "-c", "-T"):
            if args[i] == "-c" and i + 1 < n:
                c.code_text(args[i + 1], "tmux -c runs", at_least=M)
                return
            if args[i] == "-f" and i + 1 < n:
                c.run_file(args[i + 1], "tmux reads its config commands from")
            i += 1
        i += 1
    verb = args[i] if i < n else "new-session"
    rest = args[i + 1:]
    if verb in TMUX_READ:
        return
    if verb in ("send-keys", "send", "send-prefix"):
        c.at_least(H, "tmux send-keys types commands into another shell")
        return
    if verb in ("source-file", "source"):
        for word in rest:
            if not word.startswith("-"):
                c.run_file(word, "tmux runs the commands of")
        return
    if verb not in TMUX_RUNS:
        c.at_least(M, f"tmux {verb} changes a session")
        return
    c.at_least(M, f"tmux {verb} starts a shell outside this one")
    j, operands = 0, []
    while j < len(rest):
        word = rest[j]
        if word.startswith("-") and len(word) > 1 and not operands:
            letters = word[1:]
            takes = next((k for k, ch in enumerate(letters) if "-" + ch in TMUX_VALUES
                          and "-" + ch not in TMUX_FLAGS_ONLY), None)
            if takes is not None and takes == len(letters) - 1:
                if verb in ("if-shell", "if") or letters[takes] != "e":
                    j += 1
                else:
                    value = rest[j + 1] if j + 1 < len(rest) else ""
                    _tmux_env(c, value)
                    j += 1
            j += 1
            continue
        operands.append(word)
        j += 1
    if not operands:
        return
    text = operands[0] if verb in ("if-shell", "if", "run-shell", "run", "pipe-pane", "pipep") else \
        " ".join(operands)
    if UNKNOWN in text:
        c.at_least(H, f"tmux {verb} runs a command known only at run time")
        return
    c.code_text(text, f"tmux {verb} runs", at_least=M)


def _tmux_env(c: Cmd, value: str) -> None:
    from wispsh.policy.env import judge_variable
    name, _, text = value.partition("=")
    found = judge_variable(name, text if UNKNOWN not in text else None, value)
    if found:
        c.at_least(*found)


SYSTEMD_RUN_VALUES = frozenset({"-u", "--unit", "-p", "--property", "--description", "--slice", "-M", "--machine",
                                "-H", "--host", "-E", "--setenv", "--uid", "--gid", "--nice", "--working-directory",
                                "--service-type", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
                                "--on-unit-inactive", "--on-calendar", "--on-timezone-change", "--timer-property",
                                "--path-property", "--socket-property", "--expand-environment", "--background",
                                "--capsule", "-C"})
SYSTEMD_TIMERS = frozenset({"--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive",
                            "--on-calendar", "--on-clock-change", "--on-timezone-change", "--path-property",
                            "--socket-property"})


def systemd_run(c: Cmd) -> None:
    """systemd-run: the command runs as a transient service, outside this shell; timers make it recur."""
    c.at_least(H, f"{c.name} runs a command as a service (outside this shell)")
    args = c.args
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        head, eq, value = args[i].partition("=")
        i += 1
        if head in SYSTEMD_TIMERS:
            c.at_least(D, f"{c.name} {head} schedules a command to run on its own (persistence)")
        if head in ("-E", "--setenv"):
            value = value if eq else (args[i] if i < n else "")
            from wispsh.policy.env import judge_variable
            name, _, text = value.partition("=")
            found = judge_variable(name, text if UNKNOWN not in text else None, value)
            if found:
                c.at_least(*found)
        if head in SYSTEMD_RUN_VALUES and not eq:
            i += 1
        if head == "--":
            break
    command = args[i:]
    if command and UNKNOWN not in command[0]:
        c.delegate_to = list(command)


# Programs that set something up and then run the command in their words: program -> (the verb that leads to
# the command, or None; options that take a value; operands before the command).
DELEGATORS = {
    "pipenv": ("run", (), 0),
    "direnv": ("exec", (), 1),
    "aws-vault": ("exec", ("-d", "--duration", "--region", "-t", "--mfa-token", "--prompt"), 1),
    "doppler": ("run", ("-p", "--project", "-c", "--config", "--token", "--scope", "--fallback"), 0),
    "op": ("run", ("--env-file", "--account"), 0),
    "infisical": ("run", ("--env", "--path", "--token", "--projectId"), 0),
    "dotenv": (None, ("-f", "-e", "-v", "-c"), 0),
    "envchain": (None, (), 1),
    "chronic": (None, (), 0),
    "firejail": (None, (), 0),
    "proxychains": (None, ("-f",), 0),
    "proxychains4": (None, ("-f",), 0),
    "torsocks": (None, ("-u", "-p", "-a", "-P"), 0),
    "xvfb-run": (None, ("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file",
                        "-p", "--xauth-protocol"), 0),
    "dbus-run-session": (None, ("--config-file",), 0),
    "ssh-agent": (None, ("-a", "-E", "-t", "-P", "-O"), 0),
    "setpriv": (None, ("--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set",
                       "--securebits", "--selinux-label", "--apparmor-profile", "--ruid", "--rgid", "--euid",
                       "--egid"), 0),
    "sg": (None, (), 1),
}
# `--command 'text'` forms: the text is shell code.
CODE_OPTIONS = {"doppler": ("--command",), "nix-shell": ("--run", "--command"), "sg": ()}


def delegator(c: Cmd) -> None:
    verb, values, skip = DELEGATORS[c.name]
    args = c.args
    i, n = 0, len(args)
    if verb is not None:
        if not args or args[0] != verb:
            if c.name == "op":
                from wispsh.policy.families.system import keyring
                keyring(c)
            else:
                c.at_least(M, f"{c.name} {args[0] if args else ''}".strip())
            return
        i = 1
    while i < n and args[i].startswith("-"):
        head, eq, value = args[i].partition("=")
        if args[i] == "--":
            i += 1
            break
        if head in CODE_OPTIONS.get(c.name, ()):
            text = value if eq else (args[i + 1] if i + 1 < n else "")
            if UNKNOWN in text:
                c.at_least(H, f"{c.name} {head} runs a command known only at run time")
            else:
                c.code_text(text, f"{c.name} {head} runs", at_least=M)
            return
        i += 1 if eq or head not in values else 2
    i += skip
    if i < n and args[i] == "--":
        i += 1
    command = args[i:]
    if c.name == "sg" and len(command) == 1:
        c.code_text(command[0], "sg runs", at_least=M)     # `sg GROUP 'command line'`
        return
    c.at_least(M, f"{c.name} runs a command")
    if command and UNKNOWN not in command[0]:
        c.delegate_to = list(command)
    elif command:
        c.at_least(H, f"{c.name} runs a program known only at run time")


def nix_shell(c: Cmd) -> None:
    for i, arg in enumerate(c.args):
        head, eq, value = arg.partition("=")
        if head in ("--run", "--command"):
            text = value if eq else (c.args[i + 1] if i + 1 < len(c.args) else "")
            if UNKNOWN in text:
                c.at_least(H, "nix-shell runs a command known only at run time")
            else:
                c.code_text(text, f"nix-shell {head} runs", at_least=M)
            return
    c.at_least(M, "nix-shell starts a shell with packages")


def nix(c: Cmd) -> None:
    """`nix develop -c CMD…` / `nix shell PKGS -c CMD…` run CMD; anything else is judged by its verb."""
    for i, arg in enumerate(c.args):
        if arg in ("-c", "--command"):
            command = c.args[i + 1:]
            c.at_least(M, "nix runs a command in a shell with packages")
            if command and UNKNOWN not in command[0]:
                c.delegate_to = list(command)
            elif command:
                c.at_least(H, "nix runs a program known only at run time")
            return
    from wispsh.policy.families.verbs import multiplexer
    multiplexer(c)


RULES = {name: delegator for name in DELEGATORS}
RULES.update({
    "nix-shell": nix_shell, "nix": nix,
    "fd": fd, "fdfind": fd, "parallel": parallel, "screen": screen, "tmux": tmux, "systemd-run": systemd_run,
})
