"""Remembered answers to the network's questions ("the agent wants to reach HOST:PORT"), by scope:

- once: this one connection; nothing is remembered (the program's next connection is asked again).
- session: HOST:PORT until this `wisp run` ends (in the supervisor's memory only).
- project: HOST:PORT in this project (the run's git work tree), in `$WISP_HOME/net-approvals.json`.
- always: HOST:PORT everywhere, in the same file.

Persisted approvals expire after `approval.persistDays`, as commands' do. The file is written as the command
store writes approvals.json (decide/store.py: under the wisp home's lock, atomically) and is read only when it
is the user's own and not writable by others; one that is not is ignored, and said. Revoke by removing its
entry (or the file).
"""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

NAME = "net-approvals.json"
VERSION = 1
PERSISTED = ("project", "always")


class Grants:
    def __init__(self, home: str, project: str, persist_days: float = 30.0):
        self.home = Path(home)
        self.project = project
        self.persist_days = persist_days
        self.session: dict[tuple[str, int], str] = {}      # (host, port) -> id
        self.lock = threading.Lock()
        self.problem: str | None = None                    # why the file is ignored, once said

    def _read(self) -> list[dict]:
        from wispsh.config import untrusted_reason

        path = self.home / NAME
        reason = untrusted_reason(self.home) or (untrusted_reason(path) if path.exists() else None)
        if reason:
            self.problem = reason
            return []
        try:
            with open(path, "rb") as fh:
                doc = json.loads(fh.read(1 << 22).decode("utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            self.problem = f"{path} cannot be read ({exc}); its approvals are ignored"
            return []
        if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("approvals"), list):
            self.problem = f'{path} is not {{"version": 1, "approvals": [...]}}; its approvals are ignored'
            return []
        return [a for a in doc["approvals"] if isinstance(a, dict)]

    def covering(self, host: str, port: int) -> tuple[str, str] | None:
        """(scope, id) of the narrowest approval for host:port here, or None."""
        with self.lock:
            if (host, port) in self.session:
                return "session", self.session[(host, port)]
        now = time.time()
        found = []
        for a in self._read():
            if a.get("host") != host or a.get("port") != port or a.get("scope") not in PERSISTED:
                continue
            if isinstance(a.get("expires"), (int, float)) and a["expires"] <= now:
                continue
            if a["scope"] == "project" and a.get("directory") != self.project:
                continue
            found.append((PERSISTED.index(a["scope"]), a["scope"], str(a.get("id"))))
        return min(found)[1:] if found else None

    def remember(self, host: str, port: int, scope: str) -> tuple[str | None, str | None]:
        """(id, problem): remember an answer of `scope` (once: nothing); a persisted one the file refuses
        falls back to the session, and the problem says so."""
        from wispsh.decide.store import new_id

        if scope == "once":
            return None, None
        ident = new_id()
        if scope == "session":
            with self.lock:
                self.session[(host, port)] = ident
            return ident, None
        entry = {"id": ident, "host": host, "port": port, "scope": scope,
                 "directory": self.project if scope == "project" else None, "created": int(time.time()),
                 "expires": int(time.time() + self.persist_days * 86400)}
        try:
            self._write(lambda entries: entries + [entry])
            return ident, None
        except OSError as exc:
            with self.lock:
                self.session[(host, port)] = ident
            return ident, f"not stored in {self.home / NAME} ({exc.strerror or exc}): kept for this run only"

    def _write(self, change) -> None:
        from wispsh.decide.lock import locked
        from wispsh.decide.store import write_atomic

        with locked(self.home):
            kept = [a for a in self._read() if not (isinstance(a.get("expires"), (int, float))
                                                    and a["expires"] <= time.time())]
            doc = {"version": VERSION, "approvals": change(kept)}
            write_atomic(self.home / NAME, (json.dumps(doc, indent=2) + "\n").encode())

    def persisted(self) -> list[dict]:
        """Every persisted approval (for `wisp doctor`)."""
        return [a for a in self._read() if a.get("scope") in PERSISTED]


def count(home: str) -> int:
    path = os.path.join(home, NAME)
    if not os.path.exists(path):
        return 0
    return len(Grants(home, "").persisted())
