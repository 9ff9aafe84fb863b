"""Where a project's restore points live, and what happened: `$WISP_HOME/restore/<name>-<hash>/`.

    git/            the shadow repository (objects, its own index and config)
    journal.jsonl   one JSON object a line: {"type": "point", ...} and {"type": "line", ...}
    next            the next point's number
    lock            flock: taking a point, `wisp undo`
    live.json       the `wisp run` that is using it now (pid, start time, session)

A point: {"type": "point", "id": N, "session", "kind": "start" | "line" | "undo", "tree", "modes", "time",
"restored": M (an undo: the point it went back to)}. A line: {"type": "line", "session", "time", "line"
(redacted as the audit redacts), "level", "decision", "point" (the point made before it, or null), "pid",
"start" (the asking process outside, while it may still run)}.

Every record is one write(2) to a file opened O_APPEND: records from the supervisor and from `wisp undo`
never interleave.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time

ROOT = "restore"
NEXT_WIDTH = 20                 # digits of the next point's number, zero-padded: rewritten in place


def project_dir(home: str, project: str) -> str:
    real = os.path.realpath(project)
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in os.path.basename(real) or "root")[:40]
    return os.path.join(home, ROOT, f"{name}-{hashlib.sha256(os.fsencode(real)).hexdigest()[:16]}")


class Journal:
    def __init__(self, where: str, project: str):
        self.where = where
        self.project = os.path.realpath(project)
        self.path = os.path.join(where, "journal.jsonl")

    @property
    def git_dir(self) -> str:
        return os.path.join(self.where, "git")

    def exists(self) -> bool:
        return os.path.isfile(self.path)

    def create(self) -> None:
        os.makedirs(os.path.join(self.where), mode=0o700, exist_ok=True)
        about = os.path.join(self.where, "project")
        if not os.path.exists(about):
            with open(about, "w") as fh:
                fh.write(self.project + "\n")
        if not os.path.exists(self.path):
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600))

    # ------------------------------------------------------------ lock

    def lock(self):
        return _Lock(os.path.join(self.where, "lock"))

    # ------------------------------------------------------------ records

    def append(self, record: dict) -> None:
        data = (json.dumps(record, ensure_ascii=True, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def records(self) -> list[dict]:
        try:
            with open(self.path, encoding="utf-8") as fh:
                rows = fh.read().splitlines()
        except FileNotFoundError:
            return []
        out = []
        for row in rows:
            try:
                value = json.loads(row)
            except ValueError:
                continue                        # a torn last line (a crash mid-write): skipped
            if isinstance(value, dict):
                out.append(value)
        return out

    def next_id(self) -> int:
        """The next point's number (call with the lock held). Rewritten in place, one write of a fixed width:
        a rename over the old file (or a truncate) makes ext4 flush the file's data at once (auto_da_alloc),
        ~1 ms a point on the hot path; a write that never landed whole reads back as no number, and the
        journal's points give it."""
        path = os.path.join(self.where, "next")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            try:
                number = int(os.pread(fd, NEXT_WIDTH + 1, 0).decode("ascii").strip() or "x")
                if number < 1:
                    raise ValueError(number)
            except ValueError:
                number = 1 + max((r.get("id", 0) for r in self.records() if r.get("type") == "point"), default=0)
            os.pwrite(fd, f"{number + 1:0{NEXT_WIDTH}d}\n".encode("ascii"), 0)
        finally:
            os.close(fd)
        return number

    def add_point(self, *, session: str, kind: str, tree: str, modes: str | None, **extra) -> int:
        """A point recorded (the lock held by the caller): its number."""
        number = self.next_id()
        self.append({"type": "point", "id": number, "session": session, "kind": kind, "tree": tree,
                     "modes": modes, "time": round(time.time(), 3), **extra})
        return number

    # ------------------------------------------------------------ the run using it

    def set_live(self, session: str) -> None:
        from wispsh.support.procs import start_of

        with open(os.path.join(self.where, "live.json"), "w") as fh:
            json.dump({"pid": os.getpid(), "start": start_of(os.getpid()), "session": session}, fh)

    def clear_live(self) -> None:
        try:
            os.unlink(os.path.join(self.where, "live.json"))
        except OSError:
            pass

    def live(self) -> dict | None:
        """The `wisp run` using these points now, if it still runs."""
        from wispsh.support.procs import start_of

        try:
            with open(os.path.join(self.where, "live.json")) as fh:
                value = json.load(fh)
        except (OSError, ValueError):
            return None
        if not isinstance(value, dict) or start_of(int(value.get("pid", 0))) != value.get("start"):
            return None
        return value


class _Lock:
    def __init__(self, path: str):
        self.path = path
        self.fd = -1

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        os.close(self.fd)
        self.fd = -1
        return False
