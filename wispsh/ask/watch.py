"""`wisp watch`: answer questions from agents that have no terminal of a person's.

Each watcher listens on its own socket (wire.py). An asking wispsh connects to every watcher it finds, checks
each (same user, not beneath the asking session, on a person's terminal: broker.watcher_refusal), sends each
question to all of them and takes the first answer; the others are told it was answered. No broker process:
a watcher that quits or dies closes its socket, which the asker sees at once.
"""
from __future__ import annotations

import os
import selectors
import signal
import shutil
import socket
import subprocess
from dataclasses import dataclass, field

from wispsh.ask import terminal
from wispsh.ask.prompt import (CTRL_C, CTRL_D, DETAILS, MAX_ANSWER, echo_for, limited, read_answer, render,
                               render_details, render_plan, use_colour, valid_request)
from wispsh.ask.wire import Conn, clean_stale, listen, runtime_dir, socket_dir


# ------------------------------------------------------------------ the watcher


@dataclass
class Pending:
    conn: Conn
    id: str
    request: dict


@dataclass
class Watcher:
    """The state of one `wisp watch`: its connections and the questions waiting, in arrival order."""

    term: object
    colour: bool
    width: int
    queue: list[Pending] = field(default_factory=list)
    shown: str | None = None
    notifier: list = field(default_factory=list)
    typed: str = ""                 # the answer being typed to the question on screen
    prompt: str = ""                # the prompt row of the question on screen (shown again on a re-ask)

    def show_head(self) -> None:

        if not self.queue or self.shown == self.queue[0].id:
            return
        head = self.queue[0]
        self.shown = head.id
        self.typed = ""
        more = len(self.queue) - 1
        asker = f"  (asked by pid {head.conn.pid}" + (f"; {more} more waiting)" if more else ")")
        if head.request.get("index") == 0 and isinstance(head.request.get("plan"), dict):
            self.term.write("\n" + render_plan(head.request, colour=self.colour, width=self.width) + "\n")
        body, prompt = render(head.request, colour=self.colour, width=self.width).rsplit("\n", 1)
        self.prompt = prompt
        self.term.write("\n" + body + "\n" + asker + "\n" + prompt)

    def drop(self, keep) -> None:
        """Remove waiting questions for which keep(p) is false; say so when the one on screen goes."""
        head = self.queue[0] if self.queue else None
        self.queue = [p for p in self.queue if keep(p)]
        if head is not None and head not in self.queue and self.shown == head.id:
            self.shown = None

    def on_message(self, conn: Conn, msg: dict) -> None:

        kind = msg.get("type")
        if kind == "ask" and valid_request(msg.get("request")) and isinstance(msg.get("id"), str):
            self.queue.append(Pending(conn, msg["id"], msg["request"]))
            self.notify(msg["request"])
        elif kind == "answered":
            on_screen = self.queue and self.queue[0].conn is conn and self.queue[0].id == msg.get("id")
            self.drop(lambda p: not (p.conn is conn and p.id == msg.get("id")))
            if on_screen:
                note = f" ({msg['note']})" if msg.get("note") else ""
                by = f" by watcher {msg['by']}" if msg.get("by") else ""
                if not msg.get("by") and str(msg.get("note", "")).startswith("timed out"):
                    self.term.write(f"\n  {msg['note']}: the asking wispsh gave up before the agent's own limit\n")
                else:
                    self.term.write(f"\n  answered elsewhere{by}: {msg.get('choice')}{note}\n")
        elif kind == "withdrawn":
            on_screen = self.queue and self.queue[0].conn is conn and self.queue[0].id == msg.get("id")
            self.drop(lambda p: not (p.conn is conn and p.id == msg.get("id")))
            if on_screen:
                self.term.write("\n  withdrawn: the asking process went away (it was killed or gave up); "
                                "nothing is stored\n")
        elif kind == "refused":
            self.term.write(f"\n  wisp watch: a question was not sent here: {msg.get('reason')}\n")

    def on_gone(self, conn: Conn) -> None:
        on_screen = self.queue and self.queue[0].conn is conn
        self.drop(lambda p: p.conn is not conn)
        if on_screen:
            self.term.write("\n  withdrawn: the asking wispsh went away (it was killed or gave up)\n")

    def on_key(self, ch: str) -> bool:
        """Handle one typed character; False to quit. An answer is a word confirmed with Enter."""

        if ch in (CTRL_C, CTRL_D) or (ch in "qQ" and not self.queue):
            return False
        if not self.queue:
            return True
        head = self.queue[0]
        if ch in ("\x7f", "\x08"):
            if self.typed:
                self.typed = self.typed[:-1]
                self.term.write("\b \b")
            return True
        if ch == "\x15":
            self.term.write("\b \b" * len(self.typed))
            self.typed = ""
            return True
        if ch not in "\r\n":
            if " " <= ch <= "~" and len(self.typed) < MAX_ANSWER:
                self.typed += ch
                self.term.write(ch)
            return True
        typed, self.typed = self.typed, ""
        choice, note = read_answer(typed, limited(head.request))
        if choice == DETAILS:
            self.term.write("\n" + render_details(head.request, colour=self.colour, width=self.width) + "\n"
                            + self.prompt)
            return True
        if choice is None:
            self.term.write(f"\n  {note}\n" + self.prompt)
            return True
        head.conn.send({"type": "answer", "id": head.id, "choice": choice})
        if isinstance(head.request.get("net"), dict):
            from wispsh.ask.prompt import echo_reach

            self.term.write(echo_reach(choice, note, str(head.request.get("pattern"))) + "\n")
        else:                                                                            # asked this far: all yes
            self.term.write(echo_for(choice, note, str(head.request.get("pattern")),
                                     count=int(head.request.get("count") or 1),
                                     earlier=int(head.request.get("index") or 0)) + "\n")
        self.queue.pop(0)
        self.shown = None
        return True

    def quit(self, why: str) -> None:
        """Quitting (q, Ctrl-C, a signal): every question waiting here is answered no, and the screen says so."""
        if not self.queue:
            return
        for pending in self.queue:
            pending.conn.send({"type": "answer", "id": pending.id, "choice": "n", "note": f"the watcher {why}"})
        count = len(self.queue)
        what = "the question waiting here was" if count == 1 else f"the {count} questions waiting here were"
        self.term.write(f"\n  wisp watch {why}: {what} answered no; nothing of "
                        + ("that line" if count == 1 else "those lines") + " ran\n")
        self.queue.clear()
        self.shown = None

    def notify(self, request: dict) -> None:
        tool = shutil.which("notify-send")
        if not tool:
            return
        self.notifier = [p for p in self.notifier if p.poll() is None]
        try:
            self.notifier.append(subprocess.Popen(
                [tool, "--app-name=wisp", "wispsh asks for approval",
                 f"{request.get('level')}: {str(request.get('pattern'))[:80]}"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True))
        except OSError:
            pass


def serve(config, env) -> int:
    """Run `wisp watch` on this process's terminal until the person quits. Exit status for the CLI."""
    import sys


    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        sys.stderr.write("wisp watch: needs a terminal (run it in your own terminal window)\n")
        return 2
    persons, why = terminal.terminal_is_persons(terminal._controlling_tty_nr("self"), config)
    if not persons:
        os.close(fd)
        sys.stderr.write(f"wisp watch: this terminal is not a person's ({why}); "
                         "run wisp watch in your own terminal window\n")
        return 2
    where = socket_dir(create=True)
    if where is None:
        os.close(fd)
        sys.stderr.write(f"wisp watch: {runtime_dir() / 'watch'} is not a private directory of yours\n")
        return 2
    clean_stale(where)
    listener, path = listen(where)
    try:
        with terminal.RawTerminal(fd) as term:
            try:
                _loop(term, listener, use_colour(env), terminal._terminal_width(fd))
            finally:
                try:
                    os.unlink(path)
                except OSError:
                    pass
                listener.close()
    except terminal._Cancel:
        pass                                       # SIGINT: quit like Ctrl-C
    finally:
        os.close(fd)
    return 0


def _loop(term, listener: socket.socket, colour: bool, width: int) -> None:
    watcher = Watcher(term, colour, width)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "listen")
    sel.register(term.fd, selectors.EVENT_READ, "tty")
    sel.register(term.wake_fd, selectors.EVENT_READ, "wake")      # a signal wakes the loop at once
    term.write(f"wisp watch (pid {os.getpid()}): waiting for questions from agents. q quits.\n")
    try:
        _serve_loop(term, listener, sel, watcher)
    except terminal._Cancel as cancel:      # SIGINT/TERM/HUP: the questions here are answered no first
        watcher.quit(f"was interrupted ({signal.Signals(cancel.signum).name})")
        raise


def _serve_loop(term, listener: socket.socket, sel, watcher: Watcher) -> None:
    while True:
        watcher.show_head()
        for key, _ in sel.select():
            if key.data == "wake":
                term.drain_wakeups()
            elif key.data == "listen":
                try:
                    sock, _ = listener.accept()
                except OSError:
                    continue
                conn = Conn.wrap(sock)
                if conn.uid != os.getuid():
                    conn.close()
                    continue
                sel.register(sock, selectors.EVENT_READ, conn)
            elif key.data == "tty":
                try:
                    data = os.read(term.fd, 64)
                except OSError:
                    data = b""
                if not data:
                    watcher.quit("lost its terminal")
                    return
                text = data.decode("latin-1")
                if "\x1b" in text:              # arrow keys and other sequences answer nothing
                    text = text[:text.index("\x1b")]
                before = len(watcher.queue)
                for ch in text:
                    if not watcher.on_key(ch):
                        watcher.quit({"\x03": "quit (Ctrl-C)", "\x04": "quit (Ctrl-D)"}.get(ch, "quit"))
                        return
                    if len(watcher.queue) != before:
                        break                      # one key answers one question; the rest answer nothing
            else:
                conn = key.data
                messages = conn.receive()
                if messages is None:
                    sel.unregister(conn.sock)
                    watcher.on_gone(conn)
                    conn.close()
                    continue
                for msg in messages:
                    watcher.on_message(conn, msg)
                if conn.closed or any(m.get("type") == "refused" for m in messages):
                    sel.unregister(conn.sock)
                    watcher.on_gone(conn)
                    conn.close()
