"""Contained work under `wisp run`: which parts the walls keep inside the project (what decide/gate.py asks,
as config.contained), and the restore point the supervisor records before each allowed line that may change
the project (what sandbox/judge.py calls once a line is decided).

**Contained** (levels.md, "contained work"): with the write, secret and socket walls on and restore points
on, a part rated from the threshold up to below run.threshold (default high) runs without asking when every
effect that rated it is one the walls keep in the project and a restore point can undo:
- effects: `change` (the project's files or repository), `run-project` (its tests, builds, scripts),
  `install` (from the registry, into the project or the caches), `unknown` (a program the rules do not know:
  the walls hold it as they hold any program); path effects (write, create, delete, mode) on the project or
  a private temp directory. The network (`fetch`) only behind the asking proxy (run.net mode "ask" or "off":
  a host not listed is the proxy's question); with "all", a part whose effect is reading the network is asked. Everything else is asked as before:
  databases and APIs (`data`), local services, sessions on other machines or containers, servers on a port,
  local config, variables that make programs run other code, the files that steer tools (steering.py's list
  and the classes the rules give them), anything outside the project.
- and nothing it deletes or overwrites is a file no point holds: deleting (or writing over) an ignored file,
  or a directory that holds one, is asked: a restore point could not bring it back.
- and the line's directory is inside the project (a line run elsewhere has no restore point).

**A restore point** is made before a line that may change the project: any part with an effect other than
reading (or writing only to /dev/null and the like). A read-only line makes none. A gated shell (session/)
gets one as it starts, and each command typed or piped into it is a line of its own: judged with this
threshold, and a point before it when it may change the project. A line run beneath an allowed one is part
of it. The point is recorded in the project's journal (restore/journal.py) with the line after it, and
in the audit as a `restore.point` event. Between lines, once the project is quiet, the tree is brought up to
date (Tree.keep_up): a point then reads only what changed since, not all a build wrote.
"""
from __future__ import annotations

import os
import threading
import time

from wispsh.model import Level

CONTAINED_KINDS = frozenset({"change", "run-project", "install", "unknown"})
NETWORK_KINDS = frozenset({"fetch"})
CONTAINED_NETS = ("ask", "off")                 # run.net values that put the network behind the proxy
PATH_ACTIONS = frozenset({"write", "create", "delete", "delete-tree", "mode"})
INSIDE = frozenset({"project", "project-root", "project-secret", "temp"})     # places.CLASS_IDS
READ_ONLY = frozenset({"nothing", "inspect", "secret", "path:read", "path:list"})
PRIVATE_TMP = ("/tmp", "/var/tmp")
READY_SECONDS = 120.0                           # a first point waits this long for the start's scan
LINE_SHOWN = 300
CLOSE_SECONDS = 2.0                             # the end waits this long for a sync between lines


def walls_contain(settings) -> tuple[bool, str]:
    """Whether the walls are up enough for a contained threshold (walls.Settings), and why not."""
    off = [name for name, on in (("write", settings.writes), ("secret", settings.secrets),
                                 ("socket", settings.sockets)) if not on]
    if off:
        return False, f"the {', '.join(off)} wall{'s are' if len(off) > 1 else ' is'} off"
    return True, ""


class Contained:
    """The supervisor's restore points for one project, and the gate's word on what is contained."""

    def __init__(self, *, home: str, layout, config, env, session: str, contain: bool):
        from wispsh.restore.journal import Journal, project_dir

        self.project = os.path.realpath(layout.project)
        self.journal = Journal(project_dir(home, self.project), self.project)
        self.home = home
        self.env = dict(env)
        self.session = session
        self.contain = contain                      # the walls allow a contained threshold
        self.threshold = config.run_threshold
        self.base = config.threshold
        self.net = layout.net
        self.steering = frozenset(os.path.realpath(p) for p in [*layout.steering, *layout.watched])
        self.tree = None
        self.watcher = None
        self.ready = threading.Event()
        self.closing = threading.Event()
        self.failed = ""
        self.last = 0                               # the last point's number
        self._derived = (None, None)

    # ------------------------------------------------------------ start and end

    def prepare(self) -> None:
        """Before the namespace exists: the journal's directory (hidden inside: it holds old file contents)."""
        os.makedirs(os.path.dirname(self.journal.where), mode=0o700, exist_ok=True)
        self.journal.create()

    def start(self) -> None:
        """The first point, of the project as wisp run found it: watched, then scanned, in a thread, which then
        keeps the tree up to date between lines (Tree.keep_up)."""
        threading.Thread(target=self._start, name="wisp-run-restore", daemon=True).start()

    def _start(self) -> None:
        from wispsh.restore.undo import open_tree
        from wispsh.restore.watch import Watcher

        try:
            self.watcher = Watcher(self.project)
            self.tree = open_tree(self.journal, self.env, self.watcher)
            with self.journal.lock():
                self.journal.set_live(self.session)
                found = self.tree.point()
                self.last = self.journal.add_point(session=self.session, kind="start", tree=found.tree,
                                                   modes=found.modes)
        except Exception as exc:                    # no restore points: nothing is contained (said at the end)
            self.failed = f"restore points are off for this run: {type(exc).__name__}: {exc}"
            self.tree = None
        finally:
            self.ready.set()
        if self.tree is not None:                   # between lines: what changed is read then, not at the point
            self.tree.keep_up(self.journal.lock, self.closing)

    def _wait(self) -> bool:
        self.ready.wait(READY_SECONDS)
        return self.tree is not None

    def close(self) -> list[str]:
        """At the end. A start scan still running (a program that ended at once: `wisp run -- true`) is not
        waited for: it ends with this process, and no point was needed."""
        said = [self.failed] if self.failed else []
        self.closing.set()
        if not self.ready.is_set():
            self.journal.clear_live()
            return said
        self.journal.clear_live()
        if self.tree is not None:
            if not self.tree.lock.acquire(timeout=CLOSE_SECONDS):   # a sync between lines ends first
                return said + self._points_said()   # still going: left to end with this process, unclosed
            try:
                self.tree.close()
            finally:
                self.tree.lock.release()
        if self.watcher is not None:
            self.watcher.close()
        return said + self._points_said()

    def _points_said(self) -> list[str]:
        return [f"restore points: up to {self.last} (`wisp history` lists them, `wisp undo` goes back)"] \
            if self.last else []

    # ------------------------------------------------------------ what the gate asks

    def config_for(self, config):
        """The config with this object as its `contained`; kept while the config object is the same."""
        if not self.contain:
            return config
        base, derived = self._derived
        if base is not config:
            from wispsh.model import replace

            derived = replace(config, contained=self)
            self._derived = (config, derived)
            self.threshold, self.base = config.run_threshold, config.threshold
        return derived

    def note(self) -> str:
        after = f", restore point {self.last + 1}" if self.last else ""
        return (f"run: contained{after} (under wisp run its effects stay in the project, which gets a restore point "
                "before it runs: `wisp undo` goes back)")

    def why_not(self, judged, cwd: str | None = None) -> str | None:
        """None when the walls contain the part; else why not, in a few words (shown by --explain)."""
        if not self.contain:
            return "(the walls are off)"
        if not self._inside(cwd):
            return "(the line runs outside the project: no restore point covers it)"
        why = self.findings_outside(judged.verdict.findings)
        if why is not None:
            return why
        if not self._wait():                        # nothing is contained without restore points
            return f"(no restore points in this run: {self.failed or 'the first scan did not finish'})"
        if judged.facts is None:
            return None
        return self._unrestorable(judged.facts, cwd or self.project)

    def findings_outside(self, findings) -> str | None:
        """Why one of the findings that rate a part is an effect the walls do not keep in (None: none is)."""
        for f in findings:
            if f.level < self.base:
                continue
            kind = f.kind
            if kind.startswith("path:"):
                action = kind[5:]
                prefix = f"path.{action}."
                if action not in PATH_ACTIONS or not f.rule.startswith(prefix) or f.rule[len(prefix):] not in INSIDE:
                    return f"({f.reason}: outside what the walls contain)"
            elif kind in NETWORK_KINDS:
                if self.net not in CONTAINED_NETS:
                    return f"({f.reason}: the network is not behind the asking proxy)"
            elif kind not in CONTAINED_KINDS:
                return f"({f.reason})"
        return None

    def _inside(self, cwd: str | None) -> bool:
        if cwd is None:
            return True
        from wispsh.support.realpath import real as resolved

        real = resolved(cwd)
        return _under(real, self.project) or any(_under(real, tmp) for tmp in PRIVATE_TMP)

    def _unrestorable(self, facts, cwd: str) -> str | None:
        """Why something the part deletes or overwrites has no restore point (None: all of it has one)."""
        from wispsh.programs.grammar import UNKNOWN

        removes = tuple(getattr(facts, "removes", ()))
        writes = getattr(facts, "writes", ())
        if getattr(facts, "deletes", False) and not removes:
            # deletes what it finds (find -delete): anything under where it looks
            removes = tuple(os.path.join(cwd, os.path.dirname(f)) for f in getattr(facts, "found_under", ()))
            if not removes:
                return "(what it deletes is not known before it runs)"
        if not removes and not writes:
            return None
        for path in (*removes, *writes):
            if UNKNOWN in path:
                return "(what it deletes or writes is known only at run time)"
            if os.path.realpath(path) in self.steering:
                return f"(it writes {path}, a file that steers tools)"
        with self.journal.lock(), self.tree.lock:          # (a sync may be a full scan: not beside an undo)
            self.tree.sync()
            for path in removes:
                for found in _expanded(os.path.normpath(path)):
                    rel = self._relative(found)
                    if rel is None:
                        if not any(_under(found, tmp) for tmp in PRIVATE_TMP):
                            return f"(it deletes {found}, outside the project)"
                        continue
                    if os.path.isdir(found) and not os.path.islink(found):
                        if self.tree.ignored_under(rel):
                            return f"(it deletes under {found}, which holds ignored files: no restore point has them)"
                    elif self.tree.ignored_present(rel):
                        return f"(it deletes {found}, an ignored file: no restore point has it)"
            for path in writes:
                rel = self._relative(path)
                if rel is not None and os.path.isfile(path) and self.tree.ignored_present(rel):
                    return f"(it writes over {path}, an ignored file: no restore point has it)"
        return None

    def _relative(self, path: str) -> bytes | None:
        path = os.path.normpath(path)
        real = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
        if real == self.project:
            return b""
        if not _under(real, self.project):
            return None
        return os.fsencode(real[len(self.project) + 1:])

    # ------------------------------------------------------------ the point before a line (judge.py)

    def before_line(self, req, plans, config, *, runs: bool, starts_shell: bool = False) -> int | None:
        """Called once a line (or a gated shell's command) is decided, not beneath an allowed line: the point,
        if it runs and may change the project (a shell it starts: always); the line in the journal either way."""
        line = _line_of(req, plans)
        number = None
        if runs and (starts_shell or may_change(plans, self.project)) and self._wait():
            number = self._point(line)
            if number is not None:
                _audit_point(config, number, line, req.cwd, self.session)
        self._record(req, plans, line, runs, number)
        return number

    def _point(self, line: str) -> int | None:
        try:
            with self.journal.lock():
                found = self.tree.point()
                self.last = self.journal.add_point(session=self.session, kind="line", tree=found.tree,
                                                   modes=found.modes, line=line)
                return self.last
        except Exception as exc:                    # the line runs; the point is missing, and that is said
            self.failed = f"a restore point could not be made: {type(exc).__name__}: {exc}"
            return None

    def _record(self, req, plans, line: str, runs: bool, number: int | None) -> None:
        try:
            self.journal.append({"type": "line", "session": self.session, "time": round(time.time(), 3),
                                 "line": line, "level": _level(plans), "decision": _decision(plans, runs),
                                 "point": number, "pid": req.pid, "start": req.start, "cwd": req.cwd})
        except OSError:
            pass


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _expanded(path: str) -> list[str]:
    """A delete's path, its glob expanded as the shell will (nothing matched: the word itself)."""
    if any(c in path for c in "*?["):
        import glob

        return glob.glob(path) or [path]
    return [path]


def may_change(plans, project: str) -> bool:
    """Whether a line may change the project's files: any effect but reading, or a write or delete of a path in
    the project (the rules rate some of those safe: `> /dev/null` is not one)."""
    for plan in plans:
        for finding in plan.line_verdict.findings:
            if finding.kind not in READ_ONLY:
                return True
        for judged in plan.judged:
            for finding in judged.verdict.findings:
                if finding.kind not in READ_ONLY:
                    return True
            facts = judged.facts
            if facts is not None:
                for path in (*getattr(facts, "writes", ()), *getattr(facts, "removes", ())):
                    if _under(path, project) or "\x00" in path:
                        return True
    return False


def _line_of(req, plans) -> str:
    from wispsh.decide.audit import cut, redact

    text = plans[0].line if plans else " ".join(req.argv)
    return cut(redact(" ".join(text.split()) if len(text) < 4 * LINE_SHOWN else text[:4 * LINE_SHOWN]), LINE_SHOWN)


def _level(plans) -> str | None:
    levels = [j.verdict.level for p in plans for j in p.judged] + [p.line_verdict.level for p in plans]
    return str(max(levels)) if levels else None


def _decision(plans, runs: bool) -> str:
    kinds = {d.kind for p in plans for d in p.decisions}
    if not runs:
        return "denied-pattern" if "denied" in kinds else "refused"
    if any(p.questions for p in plans):
        return "approved"
    if "contained" in kinds:
        return "contained"
    if any(k.startswith("cached-") or k == "covered-line" for k in kinds):
        return "approved-standing"
    return "below-threshold"


def _audit_point(config, number: int, line: str, cwd: str, session: str) -> None:
    from wispsh.decide import audit

    try:
        fields, _ = audit.line_fields(line)
        audit.append(config.home, [audit.event("restore.point", point=number, cwd=cwd, run_session=session,
                                               reasons=[f"restore point {number} before the line"], **fields)],
                     config.audit_max_bytes)
    except OSError:
        pass


__all__ = ["Contained", "walls_contain", "may_change", "Level"]
