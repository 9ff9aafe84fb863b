"""Where a steering line runs: the namespace as every program inside sees it, less the read-only binds over
the steering files the line may write (steering.py says which lines, and which files).

The supervisor starts enter.py, outside, on the asking client's own stdin, stdout and stderr (passed over the
request socket). enter.py joins the namespace from outside (the user namespace that owns its mounts, then
its mount namespace), takes a private copy of the mounts, unmounts the read-only binds over those files
(only this copy changes: mounts made by bwrap are not locked in its own user namespace), joins the pid
namespace, and its child drops every capability, takes the same seccomp filter and Landlock scope as
everything else, and execs the real shell on the checked line. The client waits for its status (an "exit"
answer) as for any line; if the client goes away meanwhile, the line's process group is killed. Nested
shells beneath it are judged as beneath an allowed line; the sentry (steering.py) is quiet while it runs.
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading

from wispsh.sandbox import steering
from wispsh.support import procs

ENTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "enter.py")
WAIT_TICK = 0.2


class Views:
    def __init__(self, *, layout, sandbox: int, seccomp: bool, sentry, shell_fd=None):
        self.layout = layout
        self.bwrap = sandbox                   # bwrap's pid outside: its child is the namespace's first process
        self.seccomp = seccomp
        self.sentry = sentry
        self.shell_fd = shell_fd               # path outside -> an fd on the real shell (the supervisor's)
        self.lock = threading.Lock()
        self.running: dict[int, int] = {}      # helper pid -> start
        self.given_up: set[str] = set()        # binds that could not be made again (said once)
        self.said: list[str] = []

    def any(self) -> bool:
        """Whether any line could need a view (there are steering files to open)."""
        return bool(self.layout.steering or self.layout.watched)

    def roots(self) -> list[tuple[int, int]]:
        with self.lock:
            return list(self.running.items())

    def opened(self, kind: str) -> list[str]:
        """The read-only binds a view of this kind takes away."""
        if kind == steering.ALL:
            return list(self.layout.steering)
        return [p for p in self.layout.steering if os.path.basename(p) in ("config", "config.worktree")]

    def keep(self) -> None:
        """Bind again, read-only, every protected or steering path whose bind is gone: a file replaced by a
        rename (git's config.lock, an editor's save, here in a view or outside by a person) takes its mount
        with it in every namespace. Checked every second (the sentry's tick) and after each steering line."""
        target = self._target()
        if target is None:
            return
        points = mount_points(target)
        lost = [p for p in dict.fromkeys(os.path.realpath(q) for q in self.layout.protect + self.layout.steering)
                if p not in points and p not in self.given_up and os.path.exists(p)]
        if not lost:
            return
        told = _sealed(json.dumps({"target": target, "rebind": lost}).encode())
        try:
            done = subprocess.run([sys.executable, "-I", "-S", ENTER, str(told)], capture_output=True, text=True,
                                  env={}, stdin=subprocess.DEVNULL, pass_fds=(told,))
        finally:
            os.close(told)
        if done.returncode != 0:
            self.given_up.update(lost)
            self.said.append(f"could not make read-only again inside: {done.stderr.strip()[:300]}")

    def _target(self) -> int | None:
        kids = procs.children(self.bwrap)
        return kids[0] if kids else None

    def run(self, outcome, req, fds: list[int], conn, judge):
        """Run the allowed steering line in its view; the Outcome the client gets (its exit status)."""
        from wispsh import invoke, realshell
        from wispsh.ask.broker import asker_left

        target = self._target()
        if target is None:
            return invoke.refusal("wispsh: not run: the namespace's first process is gone")
        argv = list(outcome.argv)
        keep = []
        reader = None
        if outcome.held is not None:
            reader = realshell.sealed_reader(outcome.held)
            argv[argv.index(invoke.HELD_WORD)] = f". /dev/fd/{reader}"
            keep.append(reader)
        opened = None
        shell_fd = self.shell_fd(outcome.shell) if self.shell_fd else None
        if shell_fd is None:
            shell_fd = opened = os.open(outcome.shell, os.O_RDONLY | os.O_CLOEXEC)
        keep.append(shell_fd)
        env = dict(req.env)
        env.update(outcome.env_add)
        for name in outcome.env_drop:
            env.pop(name, None)
        spec = {"target": target, "umount": self.opened(req.view), "cwd": req.cwd, "argv": argv, "env": env,
                "shell_fd": shell_fd, "seccomp": self.seccomp, "landlock": self.layout.landlock}
        told = _sealed(json.dumps(spec).encode())     # not in argv: other users can read a command line
        keep.append(told)
        self.sentry.steering_begins()
        helper = None
        try:
            helper = subprocess.Popen([sys.executable, "-I", "-S", ENTER, str(told)], stdin=fds[0],
                                      stdout=fds[1], stderr=fds[2], pass_fds=tuple(keep), start_new_session=True,
                                      env={})
            start = procs.start_of(helper.pid)
            with self.lock:
                self.running[helper.pid] = start
            judge.allowed[helper.pid] = start          # what the line starts is beneath an allowed line
            while True:
                try:
                    status = helper.wait(timeout=WAIT_TICK)
                    break
                except subprocess.TimeoutExpired:
                    ready, _, _ = select.select([conn], [], [], 0)
                    if ready and asker_left(conn):      # the client is gone: so is its line
                        os.killpg(helper.pid, signal.SIGKILL)
        finally:
            if helper is not None:
                with self.lock:
                    self.running.pop(helper.pid, None)
            self.layout.steering.extend(self.sentry.steering_ends())    # what it made is read-only from now on
            self.keep()                                 # and what it replaced is read-only again
            for fd in (reader, opened, told):
                if fd is not None:
                    os.close(fd)
        return invoke.exits(128 - status if status < 0 else status)


def mount_points(pid: int) -> set[str]:
    """The mount points of the namespace `pid` is in, as its own root names them (/proc/PID/mountinfo)."""
    found = set()
    try:
        with open(f"/proc/{pid}/mountinfo", "rb") as fh:
            for row in fh:
                fields = row.split(b" ", 5)
                if len(fields) > 4:
                    found.add(_unescape(fields[4]))
    except OSError:
        pass
    return found


def _unescape(raw: bytes) -> str:
    """mountinfo writes space, tab, newline and backslash as \\ooo."""
    import re

    return re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), raw).decode("utf-8", "surrogateescape")


def _sealed(data: bytes) -> int:
    """A read-only memfd holding `data`, at its start (what enter.py is told)."""
    from wispsh import realshell

    return realshell.sealed_reader(data)
