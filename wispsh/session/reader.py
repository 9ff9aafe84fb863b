"""Reading one complete command from the gated shell's input, and not a byte more.

Bash reads a script from a pipe one byte at a time, so that a command's own `read` or `cat` gets the lines
after it; from a regular file it reads a block and seeks back. This does the same: a pipe or a socket byte by
byte up to each newline, a terminal a line at a time (the kernel gives no more), a regular file in blocks with
the rest given back by lseek. The input's file offset is the real shell's too (the same open file), so what a
command reads starts exactly after the command's own last line.
"""
from __future__ import annotations

import os
import stat

from wispsh.session import complete

BLOCK = 65536
LIMIT = 4 * 1024 * 1024         # flow.MAX_TEXT: the most the gate judges


class TooBig(Exception):
    """A command longer than the gate judges: it is refused, and the session ends (the rest of its text
    would otherwise be read as commands of their own)."""


class Reader:
    def __init__(self, fd: int, *, family: str, oracle, ahead: bool = False):
        """oracle(options) -> an oracle for complete.status. ahead: read a block at a time, as dash does from a
        pipe (its commands' `read` then finds what dash had not taken)."""
        self.fd, self.family, self.oracle, self.ahead = fd, family, oracle, ahead
        self.pending = b""
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            mode = 0
        self.seekable = stat.S_ISREG(mode)
        self.tty = os.isatty(fd)
        self.ended = False

    def _line(self) -> bytes:
        """One line with its newline; at the end of input what is left (perhaps b"")."""
        if self.ahead and not self.seekable:
            while b"\n" not in self.pending:
                block = os.read(self.fd, 8192)
                if not block:
                    line, self.pending = self.pending, b""
                    self.ended = True
                    return line
                self.pending += block
            cut = self.pending.index(b"\n") + 1
            line, self.pending = self.pending[:cut], self.pending[cut:]
            return line
        if self.seekable:
            start = os.lseek(self.fd, 0, os.SEEK_CUR)
            got = []
            while True:
                block = os.read(self.fd, BLOCK)
                if not block:
                    self.ended = True
                    return b"".join(got)
                cut = block.find(b"\n")
                if cut >= 0:
                    got.append(block[:cut + 1])
                    line = b"".join(got)
                    os.lseek(self.fd, start + len(line), os.SEEK_SET)
                    return line
                got.append(block)
                if sum(map(len, got)) > LIMIT:
                    return b"".join(got)
        if self.tty:
            line = os.read(self.fd, BLOCK)
            if not line:
                self.ended = True
            return line
        got = bytearray()
        read = os.read
        fd = self.fd
        while len(got) <= LIMIT:
            byte = read(fd, 1)
            if not byte:
                self.ended = True
                return bytes(got)
            got += byte
            if byte == b"\n":
                return bytes(got)
        return bytes(got)

    def next_command(self, options=()) -> tuple[str, str] | None:
        """`options`: the shell's options that change how it parses, for the oracle (complete.spawn_oracle)."""
        oracle = self.oracle(options)
        return self._next(oracle)

    def _next(self, oracle) -> tuple[str, str] | None:
        """(the text of the next complete command, its status: complete.COMPLETE or BROKEN), or None at the end
        of input. The text is every line it took; at the end of input whatever was left, as the shell would run
        it (an open heredoc ends there)."""
        text = ""
        while not self.ended:
            line = self._line()
            if not line:
                break
            text += line.decode("utf-8", "surrogateescape")
            if len(text) > LIMIT:
                raise TooBig()
            if not text.endswith("\n") and not self.ended:
                continue
            found = complete.status(text, family=self.family, oracle=oracle)
            if found != complete.MORE:
                return text, found
        if not text:
            return None
        return text, complete.COMPLETE
