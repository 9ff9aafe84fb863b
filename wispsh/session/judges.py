"""Who judges a gated shell's commands: this process (plain mode, warm: the pipeline stays loaded, the config
is read again only when it changes), or the `wisp run` supervisor outside the namespace (one `command`
request per command, sandbox/client.py's wire). Both answer the same question: None (it may run) or the one
refusal line."""
from __future__ import annotations

import os
import sys


class InProcess:
    def __init__(self, home=None):
        from wispsh.config import wisp_home
        from wispsh.sandbox.judge import WarmConfig

        self.config = WarmConfig(str(home or wisp_home()))

    def warm(self, cwd: str, env) -> None:
        """Load the parser and the rule tables now (the first command should not wait for them)."""
        from wispsh import pipeline

        try:
            pipeline.judge("true", self.config(), cwd, dict(env), opinion=False, remember=False)
        except Exception:
            pass

    def verdict(self, text: str, *, cwd: str, env) -> str | None:
        from wispsh import flow
        from wispsh.config import ConfigError

        try:
            config = self.config()
        except ConfigError as exc:
            return f"wispsh: not run: config error: {exc}"
        warnings: list[str] = []
        # the command gets the gate's own input: a terminal (the hook), else the pipe or file it reads
        refused = flow.verdict(text, config=config, cwd=cwd, env=env, warnings=warnings, stdin_tty=os.isatty(0))
        if warnings:
            sys.stderr.write(flow.warning_lines(warnings))
            sys.stderr.flush()
        return refused


class Supervisor:
    """The `wisp run` supervisor, asked over its request socket (kind "command": the text, the shell's
    directory and environment)."""

    def __init__(self, socket_path: bytes):
        self.socket_path = socket_path

    def warm(self, cwd: str, env) -> None:
        pass

    def verdict(self, text: str, *, cwd: str, env) -> str | None:
        import socket

        from wispsh.sandbox import client

        def b(word: str) -> bytes:
            return word.encode("utf-8", "surrogateescape")

        message = client.request([b(text)], kind=b"command", cwd=b(cwd),
                                 env={b(k): b(v) for k, v in env.items()}, tty=False)
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.connect(self.socket_path)
                if client.peer(sock)[1] != os.getuid():
                    return "wispsh: not run: the wisp run socket is held by another user; nothing ran"
                sock.sendall(message)
                body, fds = client.receive(sock, fds_wanted=0)
        except OSError as exc:
            return f"wispsh: not run: the wisp run supervisor cannot be reached ({exc}); nothing ran"
        if body is None:
            return "wispsh: not run: the wisp run supervisor went away before it answered; nothing ran"
        fields = client.unpack(body)
        if fields[0] != b"exit" or len(fields) < 4:
            return "wispsh: not run: the wisp run supervisor's answer is not understood; nothing ran"
        said = b"\0".join(fields[3:]).decode("utf-8", "replace")
        if fields[1] == b"0":
            if said:
                sys.stderr.write(said)
                sys.stderr.flush()
            return None
        return said.rstrip("\n") or "wispsh: not run: refused by the wisp run supervisor; nothing ran"
