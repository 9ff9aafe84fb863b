"""Where the `wisp run` supervisor's questions go: never to the request, only to a person.

1. The supervisor's own terminal, only while no program inside could be reading it or typing into it:
   it is a person's terminal (ask/terminal.py), programs inside cannot push input into it (the seccomp filter,
   or the kernel's dev.tty.legacy_tiocsti=0), the process that asks is on it in the foreground process group
   (the job that waits for the answer holds it), and the terminal is in cooked mode with echo (no TUI has it
   raw: a question is never drawn over an agent's screen). The dialog runs in the supervisor's main thread
   (termios and signals are the main thread's), taking the foreground for itself while it asks.
2. Otherwise `wisp watch`: any watcher of this user that is not beneath the supervisor (nothing inside can
   reach the watch sockets: their directory is hidden), checked as ask/broker.py checks watchers.
3. Otherwise no one: the line is refused, and the refusal says to start `wisp watch`.
"""
from __future__ import annotations

import os
import queue
import signal
import threading

from wispsh.support import procs


class TerminalDesk:
    """The supervisor's terminal, when it may be asked on: questions from worker threads, answered in main."""

    def __init__(self, fd: int, *, typing_blocked: bool):
        self.fd = fd
        self.typing_blocked = typing_blocked
        self.tty_nr = procs.stat(os.getpid()).tty_nr
        self.jobs: queue.Queue = queue.Queue()

    def why_not(self, req) -> str | None:
        """Why the question for `req` may not be asked here now; None when it may."""
        import termios

        if not self.typing_blocked:
            return "programs inside could type into this terminal (TIOCSTI)"
        found = procs.stat(req.pid)
        if found is None or found.tty_nr != self.tty_nr:
            return "the asking process is not on this terminal"
        try:
            if os.tcgetpgrp(self.fd) != found.pgrp:
                return "the asking process is not in the terminal's foreground"
            lflag = termios.tcgetattr(self.fd)[3]
        except (OSError, termios.error):
            return "the terminal cannot be read"
        if not (lflag & termios.ICANON and lflag & termios.ECHO):
            return "a program holds the terminal in raw mode"
        return None

    def ask(self, plan, *, config, env, cwd):
        """From a worker thread: queue the dialog for the main thread and wait for its answers."""
        from wispsh.ask.dialog import tty_dialog

        return self.call(lambda fd: tty_dialog(plan, fd, config=config, env=env, cwd=cwd), ())

    def call(self, dialog, nothing=None):
        """From a worker thread: run dialog(fd) in the main thread, with the terminal's foreground taken, and
        return what it returns (`nothing` when it fails or the run ends first)."""
        done = threading.Event()
        job = {"dialog": dialog, "done": done, "answers": nothing, "nothing": nothing}
        self.jobs.put(job)
        done.wait()
        return job["answers"]

    def serve(self, timeout: float) -> None:
        """In the main thread: run the dialogs that wait (up to `timeout` for the first)."""
        try:
            job = self.jobs.get(timeout=timeout)
        except queue.Empty:
            return
        if job is None:                      # the program ended (supervisor.py)
            return
        try:
            job["answers"] = self._dialog(job)
        except Exception:                    # a dialog that fails answers nothing: the line is refused
            job["answers"] = job["nothing"]
        finally:
            job["done"].set()

    def _dialog(self, job):
        old_ttou = signal.signal(signal.SIGTTOU, signal.SIG_IGN)    # taking the foreground from a background group
        front = os.tcgetpgrp(self.fd)
        try:
            if front != os.getpgrp():
                os.tcsetpgrp(self.fd, os.getpgrp())
            return job["dialog"](self.fd)
        finally:
            try:
                if front != os.getpgrp():
                    os.tcsetpgrp(self.fd, front)
            except OSError:
                pass
            signal.signal(signal.SIGTTOU, old_ttou)

    def cancel_all(self) -> None:
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                job["done"].set()


class Asker:
    def __init__(self, *, me: tuple[int, float], desk: TerminalDesk | None):
        self.me = me                   # (pid, psutil start) of the supervisor: no answer from beneath it
        self.desk = desk

    def answers(self, plan, *, config, env, cwd, req):
        """The person's answers; none that counts when the asker went away meanwhile: a grant is never stored
        for a process that is gone (its connection closed, or its pid is another process now)."""
        from wispsh.ask.broker import WITHDRAWN, ask_watchers

        if self.desk is not None and self.desk.why_not(req) is None:
            got = self.desk.ask(plan, config=config, env=env, cwd=cwd)
        else:
            got = ask_watchers(plan, config=config, env=env, cwd=cwd, asking=self.me, who=_who(req), gone=req.conn)
        if got and gone(req):
            from wispsh.model import Answer

            return tuple(Answer(a.question, "n", a.source, WITHDRAWN) for a in got)
        return got


    def reach(self, question: dict, *, config, env, req):
        """A network question (proxy.py): (choice, note, where) from the terminal or `wisp watch`, None when
        no one may be asked. As for lines: no answer counts for an asker that went away meanwhile."""
        from wispsh.ask.broker import WITHDRAWN, ask_watchers_request

        if self.desk is not None and self.desk.why_not(req) is None:
            from wispsh.ask.dialog import tty_reach

            got, where = self.desk.call(lambda fd: tty_reach(question, fd, config=config, env=env)), "tty"
        else:
            got, where = ask_watchers_request(question, config=config, asking=self.me,
                                              who={"agent": question.get("agent"), "session": None},
                                              gone=req.conn), "watch"
        if got is None:
            return None
        choice, note = got
        if choice != "n" and gone(req):
            return "n", WITHDRAWN, where
        return choice, note, where


def gone(req) -> bool:
    from wispsh.ask.broker import asker_left

    return (req.conn is not None and asker_left(req.conn)) or procs.start_of(req.pid) != req.start


def _who(req) -> dict:
    try:
        from wispsh.decide import session

        here = session.here_of(req.pid, req.env)
        return {"agent": here.session.agent, "session": here.session.id}
    except Exception:
        return {"agent": None, "session": None}
