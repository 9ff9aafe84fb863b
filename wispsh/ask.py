"""Asking a person: --yes, the /dev/tty dialog on a person's terminal, the `wisp watch` client, the refusal line.

Who may answer matters as much as the question: a pty that an agent holds is read by the model, which can
type "y". So the dialog appears only on a terminal whose master side is held by a terminal program (or by a
process we cannot inspect, i.e. the system's); otherwise the question goes to `wisp watch` watchers that are
not beneath the asking session; otherwise no one is asked and the caller refuses. Nothing here reads stdin.

Platforms: the holder test reads /proc/*/fdinfo (Linux). Elsewhere a pty is never judged a person's (the most
cautious answer), so questions go to `wisp watch`; the Linux console and serial ttys are a person's.
"""
from __future__ import annotations

import os
import select
import shlex
import signal
import time
import unicodedata
from collections.abc import Mapping

from .config import Config
from .model import Answer, Level, Plan

CHOICES = "yspan"
SCOPE_WORDS = {"y": "once", "s": "session", "p": "project", "a": "always", "n": "no"}
ALL_CHOICES_TEXT = "[y] once  [s] session  [p] project  [a] always  [n] no"
DANGEROUS_CHOICES_TEXT = "[y] once  [n] no"
CTRL_C, CTRL_D, ESC = "\x03", "\x04", "\x1b"

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


# ------------------------------------------------------------------ entry points


def collect(plan: Plan, *, config: Config, env: Mapping[str, str], yes: bool, cwd: str) -> tuple[Answer, ...]:
    """Answers to plan.questions, in order, stopping at the first "n"; () when no one can be asked."""
    if not plan.questions:
        return ()
    if yes:
        return tuple(Answer(i, "y", "--yes") for i in range(len(plan.questions)))
    fd = open_persons_terminal(config)
    if fd is not None:
        try:
            return tty_dialog(plan, fd, config=config, env=env, cwd=cwd)
        finally:
            os.close(fd)
    return ask_watchers(plan, config=config, env=env, cwd=cwd)


def refusal_line(plan: Plan, answers: tuple[Answer, ...]) -> str:
    """The one stderr line when the line will not run: what needs approval, at what level, what next."""
    last = answers[-1] if answers else None
    if last is not None and last.choice == "n":
        q = plan.questions[last.question]
        where = {"tty": "on the terminal", "watch": "in wisp watch"}.get(last.source, last.source)
        why = f"{last.note or 'answered no'} ({where})"
        return (f"wispsh: not run: {_question_label(plan, q)} [{q.level}] was not approved: {why}; "
                "nothing ran")
    asked = {a.question for a in answers}
    pending = [q for i, q in enumerate(plan.questions) if i not in asked]
    if not pending:
        return "wispsh: not run: the line was not approved; nothing ran"
    items = " and ".join(f"{_question_label(plan, q)} ({q.level}: {_first(q.reasons)})" for q in pending)
    lasting = [q for q in pending if q.level < Level.DANGEROUS and sanitize(q.pattern) == q.pattern
               and not this_line_only(plan, q)]
    add = ""
    if lasting:
        add = ", or " + " and ".join(f"`wisp approvals add {shlex.quote(q.pattern)} --scope project`"
                                    for q in lasting[:2])
    need = "needs" if len(pending) == 1 else "need"
    return (f"wispsh: not run: {items} {need} a person's approval and no one could be asked "
            f"(no terminal of yours, no `wisp watch` that may answer); nothing ran. "
            f"To approve: run `wisp watch` in your own terminal and retry{add}.")


def _first(reasons) -> str:
    return reasons[0] if reasons else "at or above the threshold"


def _question_label(plan: Plan, q) -> str:
    if q.whole_line:
        return "the whole line " + _short(plan.line)
    texts = [plan.judged[i].part.text for i in q.parts if i < len(plan.judged)]
    return _short(" / ".join(texts) or q.pattern)


def _short(text: str, limit: int = 60) -> str:
    shown = sanitize(" ".join(text.split()))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


# ------------------------------------------------------------------ what a question says


def valid_request(req: object) -> bool:
    """A request as question_request builds it (the watcher renders only these)."""
    if not isinstance(req, dict):
        return False
    if not all(isinstance(req.get(k), str) for k in ("line", "level", "pattern")):
        return False
    if not isinstance(req.get("reasons"), list) or not all(isinstance(r, str) for r in req["reasons"]):
        return False
    if not isinstance(req.get("index"), int) or not isinstance(req.get("count"), int):
        return False
    parts = req.get("parts")
    if not isinstance(parts, list):
        return False
    for part in parts:
        if not (isinstance(part, dict) and isinstance(part.get("text"), str) and isinstance(part.get("level"), str)
                and isinstance(part.get("span"), list) and len(part["span"]) == 2
                and all(isinstance(n, int) for n in part["span"])):
            return False
    return all(isinstance(req.get(k), (str, type(None))) for k in ("cwd", "agent", "session"))


def question_request(plan: Plan, index: int, *, cwd: str, env: Mapping[str, str],
                     agent: str | None = None, session: str | None = None) -> dict:
    """Everything the dialog shows about one question, as plain data (also the watch wire format)."""
    q = plan.questions[index]
    shown = range(len(plan.judged)) if q.whole_line else q.parts
    parts = []
    for i in shown:
        if i >= len(plan.judged):
            continue
        j = plan.judged[i]
        parts.append({
            "text": j.part.text, "span": list(j.part.span), "level": str(j.verdict.level),
            "reasons": list(j.verdict.reasons), "pattern": j.key.pattern, "context": j.part.context,
            "asked": i in q.parts,
        })
    return {
        "line": plan.line, "index": index, "count": len(plan.questions), "pattern": q.pattern,
        "exact": q.exact, "level": str(q.level), "reasons": list(q.reasons), "whole_line": q.whole_line,
        "parts": parts, "cwd": cwd, "agent": agent, "session": session,
        "this_line_only": this_line_only(plan, q),
    }


def this_line_only(plan: Plan, q) -> bool:
    """The gate remembers no answer beyond this line for a part whose program or code is known only at
    run time (the same text can run anything): the dialog offers once or no."""
    return any(plan.judged[i].part.runtime_program or plan.judged[i].part.opaque
               for i in q.parts if i < len(plan.judged))


def sanitize(text: str) -> str:
    """Text made safe to print: control, format (bidi) and separator characters shown as escapes."""
    return "".join(_show_char(ch) for ch in text)


def _show_char(ch: str) -> str:
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch


def _cells(text: str) -> int:
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def _marked_line(line: str, span: tuple[int, int] | None, room: int) -> tuple[str, str]:
    """The line (sanitized, cut to `room` cells around the span) and a caret line under the span."""
    pieces = [_show_char(c) for c in line]
    start, end = span if span else (0, 0)
    start, end = max(0, min(start, len(pieces))), max(0, min(end, len(pieces)))
    total = _cells("".join(pieces))
    first = 0
    if total > room:
        want = _cells("".join(pieces[:start]))
        budget = max(0, want - room // 4)
        while first < start and _cells("".join(pieces[:first])) < budget:
            first += 1
    text, marks, used = [], [], 0
    if first > 0:
        text.append("…"), marks.append(" ")
        used = 1
    last = first
    for i in range(first, len(pieces)):
        w = _cells(pieces[i])
        if used + w > room - 1 and i < len(pieces) - 1:
            break
        text.append(pieces[i])
        marks.append(("^" if start <= i < end else " ") * w)
        used += w
        last = i + 1
    if last < len(pieces):
        text.append("…")
        marks.append("^" if start < len(pieces) and end > last else " ")
    return "".join(text), "".join(marks).rstrip()


def use_colour(env: Mapping[str, str]) -> bool:
    term = env.get("TERM", "")
    return bool(term) and term != "dumb" and not env.get("NO_COLOR")


LEVEL_STYLE = {"dangerous": "1;31", "high": "31", "moderate": "33", "low": "32", "safe": "32"}


def render(req: dict, *, colour: bool, width: int = 80) -> str:
    """The dialog for one question: at most `width` columns, readable without colour."""
    width = max(40, min(width, 160))
    label_w = 10
    room = width - 2 - label_w

    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if colour else text

    def field(label: str, value: str) -> str:
        return "  " + style(label.ljust(label_w), "1") + value

    def wrap(label: str, value: str) -> list[str]:
        value = sanitize(value)
        out, rest = [], value
        while True:
            cut = rest[:room]
            if len(rest) > room and " " in cut[room // 2:]:
                cut = cut[:cut.rindex(" ")]
            out.append(field(label if not out else "", cut))
            rest = rest[len(cut):].lstrip()
            if not rest or len(out) >= 4:
                if rest:
                    out[-1] = out[-1][:-1] + "…"
                return out

    level = req["level"]
    dangerous = level == "dangerous"
    line_only = bool(req.get("this_line_only"))
    count = f" ({req['index'] + 1} of {req['count']})" if req.get("count", 1) > 1 else ""
    what = "the whole line" if req.get("whole_line") else "this command"
    lines = [style(f"wispsh: approve {what}?{count}", "1")]
    asked = [p for p in req["parts"] if p.get("asked")]
    span = tuple(asked[0]["span"]) if asked and not req.get("whole_line") else None
    text, carets = _marked_line(req["line"], span, room)
    lines.append(field("line", text))
    if span:
        lines.append(field("", style(carets, "1;35")))
    if req.get("whole_line"):
        for n, part in enumerate(req["parts"]):
            extra = f"  ({part['context']})" if part.get("context") else ""
            item = _short(part["text"] + extra, room - 12)
            lines.append(field("parts" if n == 0 else "", f"{item}  [{part['level']}]"))
    else:
        for part in asked:
            extra = f"  # {part['context']}" if part.get("context") else ""
            lines += wrap("runs", part["text"] + extra)
    level_rows = wrap("level", f"{level}: " + ("; ".join(req["reasons"]) or "at or above the threshold"))
    level_rows[0] = level_rows[0].replace(f"{level}:", style(f"{level}:", LEVEL_STYLE.get(level, "1")), 1)
    lines += level_rows
    remember = req["pattern"]
    if req.get("exact"):
        remember = f"this exact text: {req['pattern']}"
    if line_only:
        remember = "this line only (what it runs is known only at run time)"
    elif dangerous:
        remember += "  (for this session at most: dangerous is never stored)"
    lines += wrap("remember", remember)
    where = " ".join(filter(None, [req.get("cwd"), f"(agent {req['agent']})" if req.get("agent") else ""]))
    if where:
        lines += wrap("where", where)
    if line_only:
        lines.append(field("", "answer once or no (s, p, a count as this line only)"))
    elif dangerous:
        lines.append(field("", "dangerous: answer once or no (s, p, a count as this session only)"))
    limited = dangerous or line_only
    lines.append("  " + style(DANGEROUS_CHOICES_TEXT if limited else ALL_CHOICES_TEXT, "1") + "  > ")
    return "\n".join(lines)


def choice_for_key(ch: str, dangerous: bool, line_only: bool = False) -> tuple[str, str] | None:
    """The answer a key gives (choice, note), or None for a key that answers nothing."""
    if ch in (CTRL_C,):
        return "n", "interrupted"
    if ch == CTRL_D:
        return "n", "end of input"
    c = ch.lower()
    if c not in CHOICES:
        return None
    if line_only and c in "spa":         # as typed; the gate makes it once (its program is chosen at run time)
        return c, f"{SCOPE_WORDS[c]} counts as this line only: what it runs is known only at run time"
    if dangerous and c in "pa":          # the answer stays what was typed; the gate downgrades and audits it
        return c, f"{SCOPE_WORDS[c]} downgraded to session: dangerous is never remembered"
    return c, ""


def echo_for(choice: str, note: str, pattern: str) -> str:
    """What the screen says after a key, on its own line."""
    pattern = _short(pattern, 40)
    said = {
        "y": "once: allowed this one time",
        "s": f"session: allowed while this agent session lives ({pattern})",
        "p": f"project: allowed in this project ({pattern})",
        "a": f"always: allowed everywhere ({pattern})",
        "n": "no: nothing runs",
    }[choice]
    if "this line only" in note:
        said = "once: allowed this one time"
    elif "downgraded" in note:
        said = f"session: allowed while this agent session lives ({pattern})"
    return "\n  " + said + (f"\n  ({note})" if note else "")


# ------------------------------------------------------------------ whose terminal


def open_persons_terminal(config: Config) -> int | None:
    """An fd on /dev/tty when it is a person's terminal and we are in its foreground; else None."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:                      # ENXIO: no controlling terminal (most agents)
        return None
    try:
        persons, _why = terminal_is_persons(_controlling_tty_nr("self"), config)
        if persons and os.tcgetpgrp(fd) == os.getpgrp():  # background: reading would stop us (SIGTTIN)
            return fd
    except OSError:
        pass
    os.close(fd)
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


# ------------------------------------------------------------------ the dialog on a terminal


class _Cancel(Exception):
    def __init__(self, signum: int):
        self.signum = signum


class RawTerminal:
    """Single-key input on a tty: termios saved and restored on every way out.

    SIGINT/SIGTERM/SIGHUP restore it through the `finally`; a SIGKILL (an agent killing the process group)
    cannot be caught, so a guardian child in its own session waits on a pipe and restores the saved mode
    when the pipe closes without a "done".
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

    def __init__(self, fd: int):
        self.fd = fd
        self.redraw = ""        # shown again after a stop and `fg` (the shell may have drawn over it)

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
        if isinstance(exc, _Cancel) and exc.signum != signal.SIGINT:
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


def read_choice(term: RawTerminal, dangerous: bool, seconds: float, line_only: bool = False) -> tuple[str, str]:
    """Wait for an answering key on the terminal; timeout, Ctrl-C, Ctrl-D and hangup mean no."""
    import termios

    termios.tcflush(term.fd, termios.TCIFLUSH)       # keys typed before the question answer nothing
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "n", f"no answer within {seconds:g}s"
        ready, _, _ = select.select([term.fd, term.wake_fd], [], [], left)
        if term.wake_fd in ready:
            term.drain_wakeups()
        if term.fd not in ready:
            continue
        try:
            data = os.read(term.fd, 64)
        except OSError:
            return "n", "terminal hung up"
        if not data:
            return "n", "terminal hung up"
        text = data.decode("latin-1")
        if text.startswith(ESC):                     # arrow keys and other sequences answer nothing
            continue
        for ch in text:
            got = choice_for_key(ch, dangerous, line_only)
            if got:
                return got


def tty_dialog(plan: Plan, fd: int, *, config: Config, env: Mapping[str, str], cwd: str) -> tuple[Answer, ...]:
    colour = use_colour(env)
    who = _session_fields(env)
    answers: list[Answer] = []
    with RawTerminal(fd) as term:
        for i, q in enumerate(plan.questions):
            req = question_request(plan, i, cwd=cwd, env=env, **who)
            term.redraw = render(req, colour=colour, width=_terminal_width(fd))
            term.write("\n" + term.redraw)
            try:
                choice, note = read_choice(term, q.level >= Level.DANGEROUS, config.prompt_seconds,
                                           req["this_line_only"])
            except _Cancel as cancel:
                if cancel.signum != signal.SIGINT:
                    raise
                choice, note = "n", "interrupted"
            term.write(echo_for(choice, note, q.pattern) + "\n")
            answers.append(Answer(i, choice, "tty", note))
            if choice == "n":
                break
    return tuple(answers)


def _session_fields(env: Mapping[str, str]) -> dict:
    try:
        from . import session

        here = session.current(dict(env))
        return {"agent": here.agent, "session": here.id}
    except Exception:                                # who is asking is shown, never required
        return {"agent": None, "session": None}


# ------------------------------------------------------------------ the `wisp watch` client


def asking_session(env: Mapping[str, str]) -> tuple[int, float] | None:
    """(pid, start) of the agent process above us: the nearest ancestor that is not a shell, wispsh or a
    wrapper (session.passes_through). The answer must come from outside that process's tree.

    Walked here rather than taken from session.here(): a named session (WISP_SESSION) has no pid, and the
    tree to exclude is the process tree whatever the session is called.
    """
    import psutil

    from .session import passes_through

    try:
        proc = psutil.Process().parent()
        below = outermost = None
        while proc is not None:
            below, outermost = outermost, proc
            if not passes_through(proc.name(), proc.cmdline()) or proc.pid <= 1:
                break
            proc = proc.parent()
        if outermost is None:
            return None
        if below is not None and (process_names(outermost.pid) or set()) & TERMINAL_PROGRAMS:
            # only shells between us and a terminal program: no agent above us; the session is the
            # outermost shell (a watcher in another tab of the same terminal program is not beneath it)
            outermost = below
        return outermost.pid, outermost.create_time()
    except psutil.Error:
        return None


def watcher_refusal(pid: int, uid: int, asking: tuple[int, float] | None, config: Config) -> str | None:
    """Why the watcher `pid` may not answer us, or None when it may."""
    import psutil

    if uid != os.getuid():
        return f"watcher pid {pid} belongs to uid {uid}"
    try:
        proc = psutil.Process(pid)
        line = [proc] + proc.parents()
        chain = [(p.pid, p.create_time()) for p in line]
    except psutil.Error:
        return f"watcher pid {pid} cannot be inspected"
    if asking is None or any(p == asking[0] and abs(t - asking[1]) < 0.05 for p, t in chain):
        return "the watcher runs beneath the asking session (an agent cannot answer itself)"
    if os.getpid() in {p for p, _ in chain}:
        return "the watcher runs beneath the asking process"
    # Accepted: a watcher started in a person's running tmux/screen (tmux new-window, judged by the rules)
    # is a child of that terminal program and carries nothing of the agent; it passes these checks.
    from .session import gated_ancestor

    started_by = gated_ancestor(pid)
    if started_by is not None:
        return (f"the watcher was started by a line run through the gate (pid {started_by} carries WISP_GATED): "
                "an agent's command, not a person")
    persons, why = terminal_is_persons(_controlling_tty_nr(pid), config)
    if not persons:
        return f"the watcher's terminal is not a person's ({why})"
    return None


def ask_watchers(plan: Plan, *, config: Config, env: Mapping[str, str], cwd: str) -> tuple[Answer, ...]:
    """Ask every watcher; the first answer wins; () when there is no watcher that may answer."""
    from . import watch

    conns = watch.connect_watchers()
    if not conns:
        return ()
    asking = asking_session(env)
    who = _session_fields(env)
    good: list[watch.Conn] = []
    for conn in conns:
        reason = watcher_refusal(conn.pid, conn.uid, asking, config)
        if reason:
            conn.send({"type": "refused", "reason": reason})
            conn.close()
        else:
            good.append(conn)
    if not good:
        return ()
    answers: list[Answer] = []
    try:
        for i, q in enumerate(plan.questions):
            req = question_request(plan, i, cwd=cwd, env=env, **who)
            choice, note = _ask_one(good, req, q.level >= Level.DANGEROUS, config.wait_seconds)
            answers.append(Answer(i, choice, "watch", note))
            if choice == "n":
                break
    finally:
        for conn in good:
            conn.close()
    return tuple(answers)


def _ask_one(conns, req: dict, dangerous: bool, seconds: float) -> tuple[str, str]:
    qid = f"{os.getpid()}-{req['index']}-{os.urandom(4).hex()}"
    for conn in list(conns):
        if not conn.send({"type": "ask", "id": qid, "request": req}):
            conns.remove(conn)
    deadline = time.monotonic() + seconds
    result: tuple[str, str] | None = None
    winner = None
    while result is None:
        if not conns:
            result = ("n", "the watcher went away")
            break
        left = deadline - time.monotonic()
        if left <= 0:
            result = ("n", f"no answer within {seconds:g}s")
            break
        ready, _, _ = select.select([c.sock for c in conns], [], [], left)
        for conn in [c for c in conns if c.sock in ready]:
            messages = conn.receive()
            if messages is None:                     # the watcher quit or died
                conns.remove(conn)
                conn.close()
                continue
            for msg in messages:
                if msg.get("type") == "answer" and msg.get("id") == qid and result is None:
                    got = choice_for_key(str(msg.get("choice", "n"))[:1] or "n", dangerous,
                                         bool(req.get("this_line_only")))
                    result = got if got else ("n", "unreadable answer")
                    winner = conn
    for conn in list(conns):
        if conn is not winner:
            conn.send({"type": "answered", "id": qid, "choice": result[0],
                       "by": winner.pid if winner else None, "note": result[1]})
    return result
