"""Which paths the project's ignore rules leave out of its restore points: one `git check-ignore --stdin` kept
running (a question costs a pipe round trip, not a process), patterns only (`--no-index`: a path already in a
restore point stays in it, as `git add -A` keeps a tracked file).

git reads a directory's .gitignore once and keeps it: when a .gitignore or info/exclude changes, `restart`.
"""
from __future__ import annotations

import os
import threading

BATCH_BYTES = 16 << 10          # a pipe holds 64 KiB: a batch of questions never waits for git to read


class Ignore:
    def __init__(self, shadow):
        self.shadow = shadow
        self.proc = None
        self.lock = threading.Lock()
        self.buffer = b""

    def restart(self) -> None:
        with self.lock:
            self._stop()

    def close(self) -> None:
        with self.lock:
            self._stop()

    def _stop(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
            self.proc = None
            self.buffer = b""

    def ignored(self, paths: list[bytes]) -> list[bool]:
        """For each path (relative to the work tree, bytes): whether the ignore rules leave it out. A
        directory is asked as itself (a `build/` pattern matches it). Fails closed to "not ignored"
        (covered) when git cannot answer."""
        if not paths:
            return []
        with self.lock:
            try:
                return self._ask(paths)
            except (OSError, ValueError):
                self._stop()
                return [False] * len(paths)

    def _ask(self, paths: list[bytes]) -> list[bool]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self.shadow.popen("check-ignore", "--stdin", "-z", "-v", "-n", "--no-index")
            self.buffer = b""
        # In batches whose questions fit in the pipe, each answered whole before the next is written: written all
        # at once, git blocked writing answers nobody read yet while we blocked writing questions it no longer
        # read (a run whose line made a few thousand new files hung for good).
        out: list[bool] = []
        batch: list[bytes] = []
        size = 0
        for path in paths:
            if batch and size + len(path) + 1 > BATCH_BYTES:
                out += self._answer(batch)
                batch, size = [], 0
            batch.append(path)
            size += len(path) + 1
        return out + self._answer(batch)

    def _answer(self, paths: list[bytes]) -> list[bool]:
        self.proc.stdin.write(b"".join(p + b"\0" for p in paths))
        self.proc.stdin.flush()
        out = []
        fd = self.proc.stdout.fileno()
        while len(out) < len(paths):
            fields = self.buffer.split(b"\0")
            while len(fields) > 4 and len(out) < len(paths):
                source, _line, pattern, _path = fields[:4]
                out.append(bool(source) and not pattern.startswith(b"!"))
                fields = fields[4:]
            self.buffer = b"\0".join(fields)
            if len(out) < len(paths):
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise OSError("git check-ignore ended")
                self.buffer += chunk
        return out
