"""Whose terminal is it: a pty is a person's only when a terminal program holds its master side (or a
process we cannot inspect, i.e. the system's). Also the raw-mode guard that always restores termios.

Platforms: the holder test reads /proc/*/fdinfo (Linux). Elsewhere a pty is never judged a person's (the most
cautious answer), so questions go to `wisp watch`; the Linux console and serial ttys are a person's."""
from __future__ import annotations

import os
import signal

from wispsh.config import Config


# Programs whose pty is a person's screen and keyboard (matched on the process name and the executable's
# basename). config approval.terminalPrograms adds more.
TERMINAL_PROGRAMS = frozenset({
    # terminal emulators
    "gnome-terminal-server", "gnome-terminal", "kgx", "ptyxis", "konsole", "xterm", "uxterm", "alacritty",
    "kitty", "wezterm", "wezterm-gui", "wezterm-mux-server", "foot", "footclient", "iterm2", "terminal",
    "tilix", "xfce4-terminal", "terminator", "urxvt", "urxvtd", "rxvt", "st", "lxterminal", "mate-terminal",
    "qterminal", "sakura", "terminology", "guake", "tilda", "yakuake", "cool-retro-term", "ghostty",
    "contour", "rio", "hyper", "deepin-terminal", "eterm", "aterm", "mlterm", "kmscon", "fbterm", "zutty",
    # remote logins, multiplexers, recorders, consoles
    "sshd", "sshd-session", "sshd-auth", "mosh-server", "dropbear", "telnetd", "in.telnetd",
    "tmux", "tmux: server", "screen", "zellij", "dtach", "abduco", "script",
    "login", "getty", "agetty", "mingetty", "systemd-logind",
})


# Holders that relay their own terminal into a new pty (sudo with use_pty, su --pty): judge their terminal.
RELAYS = frozenset({"sudo", "su", "doas", "run0", "runuser"})


PTS_MAJORS = range(136, 144)


CONSOLE_MAJORS = frozenset({4, 5, 188, 204})  # /dev/ttyN, /dev/ttyS*, /dev/console; ttyUSB; ttyAMA


def open_persons_terminal(config: Config) -> int | None:
    """An fd on /dev/tty when it is a person's terminal, free for us to ask on; else None."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:                      # ENXIO: no controlling terminal (most agents)
        return None
    try:
        persons, _why = terminal_is_persons(_controlling_tty_nr("self"), config)
        if persons and in_use_by_another(fd) is None:
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def in_use_by_another(fd: int) -> str | None:
    """Why the terminal on `fd` is someone else's to read and draw on right now, or None when it is ours.

    Ours: its foreground process group is ours and is led by us or by a shell/wrapper above us (a job a shell
    started), and it is in canonical mode. Not ours: a background job (reading would stop us), a group led by
    another program (Claude Code's TUI runs its env probe and snapshot capture in its own group), or a
    terminal another program holds in non-canonical (raw) mode — its keys are meant for that program, and a
    dialog drawn there would land on its screen."""
    import termios

    if os.tcgetpgrp(fd) != os.getpgrp():
        return "its foreground process group is not ours"
    leader = os.getpgrp()
    if leader != os.getpid():
        from wispsh.decide.session import WRAPPERS
        from wispsh.vocab.shells import BETWEEN as SHELLS

        names = process_names(leader)
        if names is not None and not names & (SHELLS | WRAPPERS) and not any(n.startswith("python") for n in names):
            return f"its foreground process group is led by {sorted(names)[0]} (pid {leader}), not a shell"
    if not termios.tcgetattr(fd)[3] & termios.ICANON:
        return "another program holds it in raw (non-canonical) mode"
    return None


def _stat_fields(pid: int | str) -> list[str]:
    with open(f"/proc/{pid}/stat", "rb") as fh:
        raw = fh.read().decode("utf-8", "replace")
    return raw[raw.rindex(")") + 2:].split()


def _controlling_tty_nr(pid: int | str) -> int:
    try:
        return int(_stat_fields(pid)[4])
    except (OSError, ValueError, IndexError):
        return 0


def terminal_is_persons(tty_nr: int, config: Config, *, hops: int = 4) -> tuple[bool, str]:
    """(is a person's, why) for the terminal with device number tty_nr (/proc/PID/stat encoding)."""
    extra = {name.lower() for name in config.terminal_programs}
    for _ in range(hops):
        if tty_nr == 0:
            return False, "no terminal"
        major, minor = os.major(tty_nr), os.minor(tty_nr)
        if major in CONSOLE_MAJORS:
            return True, "a console or serial terminal"
        if major not in PTS_MAJORS or not os.path.isdir("/proc/self/fdinfo"):
            return False, "a terminal of unknown kind"
        holders, blind = pty_master_holders((major - PTS_MAJORS.start) * 256 + minor)
        if not holders:
            if blind:
                return True, "held by a process you cannot inspect"
            return False, "no visible process holds its master side"
        relay = None
        for pid in holders:
            names = process_names(pid)
            if names is None:
                continue                # another user's or a system process: a person's
            if names & (TERMINAL_PROGRAMS | extra):
                continue
            if names & RELAYS and relay is None:
                relay = pid
                continue
            return False, f"held by {sorted(names)[0]} (pid {pid}), not a terminal program"
        if relay is None:
            return True, "held by a terminal program"
        tty_nr = _controlling_tty_nr(relay)   # sudo/su relaying its own terminal: judge that one
    return False, "too many relays"


def pty_master_holders(index: int) -> tuple[list[int], bool]:
    """Pids holding /dev/ptmx open for pts `index`; and whether some processes could not be inspected."""
    holders, blind = [], False
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fds = os.listdir(f"/proc/{name}/fd")
        except PermissionError:
            blind = True
            continue
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{name}/fd/{fd}") not in ("/dev/ptmx", "/dev/pts/ptmx"):
                    continue
                with open(f"/proc/{name}/fdinfo/{fd}") as fh:
                    info = fh.read()
            except OSError:
                continue
            for row in info.splitlines():
                if row.startswith("tty-index:") and int(row.split()[1]) == index:
                    holders.append(int(name))
                    break
            else:
                continue
            break
    return holders, blind


def process_names(pid: int) -> set[str] | None:
    """The names a process goes by (comm and executable basename), lowercased; None when not inspectable."""
    try:
        if os.stat(f"/proc/{pid}").st_uid != os.getuid() and os.getuid() != 0:
            return None
        with open(f"/proc/{pid}/comm") as fh:
            names = {fh.read().strip().lower()}
    except OSError:
        return None
    try:
        names.add(os.path.basename(os.readlink(f"/proc/{pid}/exe")).lower())
    except OSError:
        return None
    return names


class _Cancel(Exception):
    def __init__(self, signum: int):
        self.signum = signum


INTERRUPTS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(Exception):
    """A signal (INT, TERM, HUP: an agent's timeout, a closed terminal) ended the wait for a person's answer.
    `answers`: those given before it; `question`: the one that was waiting. The caller settles the line as
    refused (audited: `denied-interrupted`) and says so in one plain line; never an internal error."""

    def __init__(self, signum: int, answers=(), question: int = 0):
        super().__init__(signum)
        self.signum, self.answers, self.question = signum, tuple(answers), question

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


class interruptible:
    """`with interruptible():` INT, TERM and HUP raise Interrupted while a person is waited for (only in the
    main thread: the `wisp run` supervisor asks from its worker threads, where signals are not ours)."""

    __slots__ = ("old",)

    def __init__(self) -> None:
        self.old = {}

    def __enter__(self) -> "interruptible":
        import threading

        if threading.current_thread() is threading.main_thread():
            for sig in INTERRUPTS:
                self.old[sig] = signal.signal(sig, _interrupt)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self.old.items():
            signal.signal(sig, handler)


def _interrupt(signum, _frame):
    raise Interrupted(signum)


class RawTerminal:
    """Single-key input on a tty: termios saved and restored on every way out.

    SIGINT/SIGTERM/SIGHUP restore it through the `finally`; a SIGKILL (an agent killing the process group)
    cannot be caught, so a guardian child in its own session waits on a pipe and restores the saved mode
    when the pipe closes without a "done".
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

    def __init__(self, fd: int, *, die_of_signal: bool = True):
        self.fd = fd
        self.redraw = ""        # shown again after a stop and `fg` (the shell may have drawn over it)
        # on TERM/HUP/QUIT: die of the signal once the terminal is sane (`wisp watch`), or let _Cancel reach
        # the caller (the asking dialog: it settles and audits the line first)
        self.die_of_signal = die_of_signal

    def __enter__(self) -> "RawTerminal":
        import termios

        self.saved = termios.tcgetattr(self.fd)
        # a signal that lands just before select() must still wake it: select on the wakeup pipe too
        self.wake_fd, self.wake_write = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self.wake_write, False)
        self.old_wakeup = signal.set_wakeup_fd(self.wake_write)
        self.old_handlers = {}
        for sig in self.SIGNALS:
            self.old_handlers[sig] = signal.signal(sig, self._on_signal)
        self._start_guardian()
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
        mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
        self.raw = mode
        # stopped (kill -TSTP, the job put aside): the shell gets its terminal back sane; on `fg` single keys
        # answer again (the shell set its own mode meanwhile)
        self.old_handlers[signal.SIGTSTP] = signal.signal(signal.SIGTSTP, self._on_stop)
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        return self

    def _on_stop(self, _signum, _frame):
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
        except termios.error:
            pass
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)             # stops here until SIGCONT
        signal.signal(signal.SIGTSTP, self._on_stop)
        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, self.raw)   # in the background: SIGTTOU waits for fg
            if self.redraw:
                self.write("\n" + self.redraw)
        except (termios.error, OSError):
            pass

    def _on_signal(self, signum, _frame):
        raise _Cancel(signum)

    def _start_guardian(self) -> None:
        import termios

        read_end, self.guard_pipe = os.pipe()
        self.guard_pid = os.fork()
        if self.guard_pid == 0:                      # the guardian
            try:
                for sig in self.SIGNALS:
                    signal.signal(sig, signal.SIG_IGN)
                os.setsid()                          # out of the process group an agent kills
                os.close(self.guard_pipe)
                said = b""
                while chunk := os.read(read_end, 64):
                    said += chunk
                if b"done" not in said:
                    termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
            finally:
                os._exit(0)
        os.close(read_end)

    def __exit__(self, exc_type, exc, tb) -> bool:
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, self.saved)
        except termios.error:
            pass
        try:
            os.write(self.guard_pipe, b"done")
        except OSError:
            pass
        os.close(self.guard_pipe)
        try:
            os.waitpid(self.guard_pid, 0)
        except ChildProcessError:
            pass
        for sig, handler in self.old_handlers.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(self.old_wakeup)
        os.close(self.wake_fd)
        os.close(self.wake_write)
        if isinstance(exc, _Cancel) and exc.signum != signal.SIGINT and self.die_of_signal:
            # terminated while asking: the terminal is sane again; now die of that signal as asked
            signal.signal(exc.signum, signal.SIG_DFL)
            os.kill(os.getpid(), exc.signum)
        return False

    def drain_wakeups(self) -> None:
        """Empty the wakeup pipe; the signal's handler has run by now (and raised, if it was ours)."""
        try:
            while os.read(self.wake_fd, 512):
                pass
        except BlockingIOError:
            pass

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "replace")          # output processing (OPOST) stays on: \n is \r\n
        while data:
            data = data[os.write(self.fd, data):]


def _terminal_width(fd: int) -> int:
    try:
        return os.get_terminal_size(fd).columns or 80
    except OSError:
        return 80
