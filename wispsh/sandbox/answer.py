"""An Outcome sent to a client as one answer of the wire format (sandbox/client.py): `exit`, `exec` (with an fd
on the real shell's binary, then the held text's sealed fd) or `session`. One writer for both judges: the
`wisp run` supervisor and the plain mode's warm judge (warm/server.py), which also seals the answer: `seal`
takes the body and returns a last field (an HMAC the compiled client checks, native/client.c)."""
from __future__ import annotations

import os
import socket
import sys


def _b(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def send(conn: socket.socket, outcome, shell_fd_for, seal=None, later=None) -> None:
    """shell_fd_for(path): an fd already open on that shell's binary, or None (then it is opened here).
    later: a list when the caller holds a lock: what the socket does not take at once (past the first write,
    which carries the fds) is appended to it as a callable that sends it, for after the lock is let go."""
    from wispsh import invoke, realshell
    from wispsh.support.text import utf8

    if outcome.shell is None:
        _send(conn, [b"exit", b"%d" % outcome.status, utf8(outcome.stdout).replace(b"\0", b""),
                     _b(outcome.stderr).replace(b"\0", b"")], [], seal, later)
        return
    shell_fd = shell_fd_for(outcome.shell)
    opened = None
    if shell_fd is None:                     # a shell not bound over (config shell.*, a wispsh entry's find)
        shell_fd = opened = os.open(outcome.shell, os.O_RDONLY | os.O_CLOEXEC)
    argv = list(outcome.argv)
    env = [_b(k) + b"=" + _b(v) for k, v in outcome.env_add.items()] + [_b(k) for k in outcome.env_drop]
    fds = [shell_fd]
    reader = None
    try:
        if outcome.session is not None:
            # a gated shell (session/): the client becomes the session's driver inside, with an fd on the real
            # shell's binary; each command it reads comes back as a `command` request
            s = outcome.session
            fields = [b"session", _b(outcome.shell), b"%d" % len(argv), *map(_b, argv), b"%d" % len(env), *env,
                      _b(s["family"]), b"1" if s["interactive"] else b"0", b"1" if s["login"] else b"0",
                      b"%d" % s["options"], _b(outcome.stderr).replace(b"\0", b"")]
        else:
            held = b"-"
            if outcome.held is not None:
                at = argv.index(invoke.HELD_WORD)
                argv[at] = "."                   # the client puts ". /dev/fd/N" here (the word holds a NUL)
                held = b"%d" % at
                reader = realshell.sealed_reader(outcome.held)
                fds.append(reader)
            fields = [b"exec", _b(outcome.shell), b"%d" % len(argv), *map(_b, argv), b"%d" % len(env), *env, held,
                      _b(outcome.stderr).replace(b"\0", b"")]
        _send(conn, fields, fds, seal, later)
    finally:
        for fd in (reader, opened):
            if fd is not None:
                os.close(fd)


def defer(conn: socket.socket, seal) -> None:
    """The plain judge's `defer`: this line needs what only the in-process gate does (a person, stdin)."""
    _send(conn, [b"defer"], [], seal)


def _send(conn, fields, fds, seal, later=None) -> None:
    from wispsh.sandbox import client

    if seal is not None:
        fields = [*fields, seal(b"\0".join(fields))]
    message = client.pack(fields)
    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds))] \
        if fds else []
    sent = conn.sendmsg([message], ancillary)           # (the fds: with this write, while they are open)
    if sent < len(message):
        rest = message[sent:]
        if later is None:
            conn.sendall(rest)
        else:
            later.append(lambda: conn.sendall(rest))
