"""A gated shell whose commands come from a pipe or a file (`bash -s`, `printf '…' | bash`, `bash < script`,
Codex's and SWE-ReX-style drivers writing to a shell's stdin): read one complete command, judge it with the
real shell's state, hand it to one long-lived real shell only when allowed, wait until it is done, go on.

    input ──► Reader (one command, no read-ahead) ──► judge (state: cwd, values, functions) ──► refusal line
                                                          │ allowed
    real shell ◄── command socket (its stdin: only text the gate wrote, shellcode.py) ◄───────┘
        │ fd IN: the gate's own stdin, given to each command (`read` gets its data line)
        └─► report socket (MARK): nonce, $?, $_, $-, options; the query's values ──► the next judgement

The real shell reads nothing but the command socket, so nothing reaches it unjudged; commands cannot reach
the sockets (closed inside each command's group), nor forge a report (each carries a nonce written after the
command). When the real shell ends (`exit`, `set -e`, a signal) the gated shell ends with its status; at the
end of input it closes the command socket and the real shell ends as `bash -s` would.
"""
from __future__ import annotations

import os
import signal
import socket
import sys

from wispsh.session import complete, shellcode, tamper
from wispsh.session.reader import Reader, TooBig
from wispsh.session.state import ALWAYS, ShellState, judged_text, names_in
from wispsh.support import inherited


class Spec:
    """What to start: the real shell (`exe`, an absolute path or /proc/self/fd/N), its family, argv0, the options
    and operands it was given (without -s), the environment, and whether it is interactive on a terminal."""

    __slots__ = ("exe", "name", "family", "argv0", "options", "args", "env", "interactive", "login", "posix")

    def __init__(self, *, exe, name, family, argv0, options=(), args=(), env=None, interactive=False, login=False,
                 posix=False):
        self.exe, self.name, self.family, self.argv0 = exe, name, family, argv0
        self.options, self.args, self.env = tuple(options), tuple(args), dict(env or {})
        self.interactive, self.login = interactive, login
        self.posix = posix          # an interactive sh run as bash in posix mode (its start-up file is $ENV)


def family_of(exe_name: str) -> str:
    return shellcode.BASH if exe_name.startswith("bash") else shellcode.POSIX


class Ended(Exception):
    """The real shell is gone (its report socket closed)."""


class Gate:
    """What both sessions share: judging a command with the shell's state, and running until the shell ends.
    A session gives start(), serve() (one request or command; raises Ended when there is no more) and
    finish()."""

    IGNORED: tuple = ()         # signals the gate ignores (on a terminal: they are the shell's)
    refused_end: int | None = None      # the gate ended the session itself: this is its status

    def _verdict(self, text: str, family: str) -> str | None:
        state = self.state
        try:
            state.cwd = os.readlink(f"/proc/{self.pid}/cwd")      # the shell's, as the kernel knows it
        except OSError:
            pass
        env = dict(self.spec.env)
        for name in ALWAYS:
            if name in state.variables:
                env[name] = state.variables[name]
        env["PWD"] = state.cwd
        return self.judge.verdict(judged_text(text, state, family=family), cwd=state.cwd, env=env)

    def finish(self) -> None:
        pass

    def run(self) -> int:
        """Run the session to its end: the real shell's exit status (negative: the signal that ended it)."""
        self.start()
        old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in self.IGNORED}
        old.update({sig: signal.signal(sig, self._pass_on) for sig in (signal.SIGTERM, signal.SIGHUP)})
        try:
            self.judge.warm(self.state.cwd, self.spec.env)
            try:
                while True:
                    self.serve()
            except Ended:
                pass
            self.finish()
            status = _wait(self.pid)
            return status if self.refused_end is None else self.refused_end
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)

    def _pass_on(self, signum, _frame) -> None:
        if self.pid:
            try:
                os.kill(self.pid, signum)
            except OSError:
                pass


class PipedSession(Gate):
    def __init__(self, spec: Spec, judge, *, stdin: int = 0, stderr: int = 2):
        self.spec, self.judge, self.stdin, self.stderr = spec, judge, stdin, stderr
        self.family = spec.family if spec.family in (shellcode.BASH, shellcode.ZSH) else shellcode.POSIX
        self.fd_in, self.fd_mark = shellcode.fds(self.family)
        self.pid = None
        self.buffer = b""
        self.ran = self.waiting = False         # a command ran; the shell waits on MARK after its report
        self.state = ShellState(os.getcwd())
        self.oracle = lambda options=(): complete.spawn_oracle(spec.exe, spec.name, options)

    # ------------------------------------------------------------ the real shell

    def start(self) -> None:
        self.cmd, shell_cmd = socket.socketpair()
        self.mark, shell_mark = socket.socketpair()
        shell_cmd.shutdown(socket.SHUT_WR)          # the shell's end only reads commands
        moves = [(self.stdin, self.fd_in), (shell_cmd.fileno(), 0), (shell_mark.fileno(), self.fd_mark)]
        argv = [self.spec.argv0, *self.spec.options, "-s", *self.spec.args]
        try:
            self.pid = inherited.spawn(self.spec.exe, argv, self.spec.env, moves)  # the caller's signals and mask
        finally:
            shell_cmd.close()
            shell_mark.close()
        self.reader = Reader(self.stdin, family=self.family, oracle=self.oracle, ahead=self.spec.name == "dash")

    def _send(self, text: str) -> None:
        try:
            self.cmd.sendall(text.encode("utf-8", "surrogateescape"))
        except OSError:
            raise Ended() from None

    def _fields(self, nonce: str, complete_when) -> list[str]:
        """The record after `nonce` on the report socket, once complete_when(fields) says it is whole."""
        want = nonce.encode() + b"\0"
        while True:
            at = self.buffer.find(want)
            if at >= 0:
                fields = self.buffer[at + len(want):].split(b"\0")
                # the last element is what follows the last NUL (incomplete): not a field yet
                done = complete_when([f.decode("utf-8", "surrogateescape") for f in fields[:-1]])
                if done is not None:
                    used = sum(len(f) + 1 for f in fields[:done])
                    self.buffer = self.buffer[at + len(want) + used:]
                    return [f.decode("utf-8", "surrogateescape") for f in fields[:done]]
            chunk = self.mark.recv(65536)
            if not chunk:
                raise Ended()
            self.buffer += chunk

    def _report(self, nonce: str) -> None:
        def whole(fields):
            if len(fields) >= 3 and fields[2].isdigit() and len(fields) >= 3 + int(fields[2]):
                return 3 + int(fields[2])
            return None
        self.state.take_report(self._fields(nonce, whole))

    def _query(self, text: str) -> None:
        """The values and functions `text` names, as the shell holds them now (it waits on MARK for this)."""
        variables, words = names_in(text)
        variables = list(dict.fromkeys([*variables, *ALWAYS]))
        if not self.waiting:            # the first command: nothing ran yet, the environment is the state
            self.state.take_query([f for name in variables if name in self.spec.env
                                   for f in ("v", name, self.spec.env[name])])
            return
        nonce = _nonce()
        self._ask(shellcode.query(self.family, nonce, variables, words))
        fields = self._fields(nonce, _dot_at)
        self.state.take_query(fields[:-1])

    def _ask(self, line: str) -> None:
        try:
            self.mark.sendall(line.encode("utf-8", "surrogateescape"))
        except OSError:
            raise Ended() from None

    def _go_on(self) -> None:
        """End the shell's wait after the last report: it reads its next line from the command socket."""
        if self.waiting:
            self._ask("\n")
            self.waiting = False

    # ------------------------------------------------------------ one command

    def _restore(self, *, refused: bool = False, status: int | None = None) -> str:
        if not self.ran and not refused:
            return ""
        return shellcode.restore(self.family, self.state.status if status is None else status, self.state.last,
                                 refused=refused)

    def step(self, text: str, found: str) -> None:
        state = self.state
        nonce = _nonce()
        refused = tamper.check(text, fds=(self.fd_in, self.fd_mark), interactive=False)
        if refused is None:
            self._query(text)
            refused = self._verdict(text, self.family)
        self._go_on()
        if refused is not None:
            os.write(self.stderr, (refused.rstrip("\n") + "\n").encode("utf-8", "surrogateescape"))
            lines = text.count("\n") + (0 if text.endswith("\n") else 1)
            self._send("\n" * max(0, lines - 1) + self._restore(refused=True, status=126)
                       + shellcode.report(self.family, nonce))
        elif found == complete.BROKEN:
            # a syntax error for -n: written as it is (no group to break), the shell says its own error
            self._send(text + ("" if text.endswith("\n") else "\n") + self._restore() + shellcode.report(self.family,
                                                                                                         nonce))
        else:
            self._send(self._restore() + shellcode.wrapped(self.family, text) + shellcode.report(self.family, nonce))
        self._after(nonce)

    def _after(self, nonce: str) -> None:
        self._report(nonce)
        self.ran = self.waiting = True

    def serve(self) -> None:
        try:
            got = self.reader.next_command(self.state.parse_options())
        except TooBig:
            os.write(self.stderr, b"wispsh: not run: a command over 4,194,304 bytes, the most wispsh checks; "
                                  b"nothing of it ran, and the shell ends here\n")
            self.refused_end = 126
            raise Ended() from None
        if got is None:
            raise Ended()
        self.step(*got)

    def finish(self) -> None:
        try:
            if self.waiting:                        # end of input: the last status back, then EOF
                self._go_on()
                self._send(self._restore()[:-2] + "\n")
            self.cmd.shutdown(socket.SHUT_WR)       # and the shell ends as bash -s does
        except (OSError, Ended):
            pass


def _dot_at(fields: list[str]) -> int | None:
    i = 0
    while i < len(fields):
        if fields[i] == ".":
            return i + 1
        if fields[i] not in ("v", "f", "a"):
            return None
        i += 3
    return None


def _nonce() -> str:
    return "wisp" + os.urandom(8).hex()


def _wait(pid: int) -> int:
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def exit_like(status: int) -> None:
    """Leave as the real shell did: its exit status, or death by the signal that ended it."""
    sys.stdout.flush()
    sys.stderr.flush()
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status & 0xFF)
