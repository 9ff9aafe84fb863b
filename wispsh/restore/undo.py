"""`wisp undo` and `wisp history`: the project back to a restore point, and what the session did.

Undo is itself a restore point (kind "undo", the state it found), so an undo is undone with
`wisp undo --to <that point>`. Steps back (`wisp undo`, `wisp undo N`) count the lines that made points:
after an undo that went back to point P, the next `wisp undo` goes to the line point before P.

What a restore does: every covered file is made as the point holds it (content, executable bit, link,
exact permission bits); a covered file made after the point is deleted; ignored files are left as they are
(no point holds them), and so is the project's `.git`: its index and HEAD may then disagree with the files,
as after any change made beside git (the output says so).

While `wisp run` uses the project: refused while a line it let run is still running (the line would go on
writing over what was restored); otherwise done under the project's lock, which the supervisor takes for
each point, so no point is taken half-way through.
"""
from __future__ import annotations

import os
import stat
import time

from wispsh.restore.git import Shadow, global_excludes
from wispsh.restore.journal import Journal, project_dir
from wispsh.restore.tree import Tree, canonical_perm


class UndoError(Exception):
    pass


def project_git(project: str) -> tuple[str | None, str | None]:
    """(the directory holding info/exclude, the index) of the project's own repository, read as files."""
    dot = os.path.join(project, ".git")
    if os.path.isdir(dot):
        return dot, os.path.join(dot, "index")
    if os.path.isfile(dot):
        try:
            with open(dot) as fh:
                head = fh.read(4096)
        except OSError:
            return None, None
        if head.startswith("gitdir:"):
            gitdir = os.path.normpath(os.path.join(project, head[7:].strip()))
            common = gitdir
            try:
                with open(os.path.join(gitdir, "commondir")) as fh:
                    common = os.path.normpath(os.path.join(gitdir, fh.read().strip()))
            except OSError:
                pass
            return common, os.path.join(gitdir, "index")
    return None, None


def open_tree(journal: Journal, env, watcher=None) -> Tree:
    shadow = Shadow(journal.git_dir, journal.project)
    shadow.create(excludes=global_excludes(env))
    git_dir, index = project_git(journal.project)
    return Tree(shadow, project_git_dir=git_dir, project_index=index, watcher=watcher)


class History:
    """The points and lines of one project."""

    def __init__(self, home: str, project: str):
        self.journal = Journal(project_dir(home, project), project)
        if not self.journal.exists():
            raise UndoError(f"no restore points for {os.path.realpath(project)} (they are made under `wisp run` "
                            "started in the project)")
        self.records = self.journal.records()

    @property
    def points(self) -> list[dict]:
        return [r for r in self.records if r.get("type") == "point"]

    def point(self, number: int) -> dict:
        for p in self.points:
            if p.get("id") == number:
                return p
        raise UndoError(f"no restore point {number} (`wisp history` lists them)")

    def sessions(self) -> list[str]:
        return list(dict.fromkeys(r.get("session") for r in self.records if r.get("session")))

    def lines(self, session: str | None) -> list[dict]:
        return [r for r in self.records if r.get("type") == "line" and (session is None or r.get("session") == session)]

    def target(self, steps: int = 1, now: tuple | None = None) -> dict:
        """The point `steps` changing lines back from where the project is (`now`: its (tree, modes)). A line
        that changed nothing is not counted: its point holds what the project holds now, or what the point
        after it holds."""
        points = self.points
        if not points:
            raise UndoError("no restore point yet")
        newest = points[-1]
        ceiling = newest["id"] + 1
        if newest.get("kind") == "undo" and newest.get("restored"):
            ceiling = newest["restored"]
        found, last = [], now
        for p in reversed([p for p in points if p.get("kind") == "line" and p["id"] < ceiling]):
            state = (p["tree"], p.get("modes"))
            if state != last:
                found.append(p)
                last = state
        if len(found) < steps:
            raise UndoError(f"only {len(found)} line{'s' if len(found) != 1 else ''} to undo here"
                            + (f"; `wisp undo --to {points[0]['id']}` goes back to the start" if points else ""))
        return found[steps - 1]

    def running(self) -> list[dict]:
        """The lines of the `wisp run` using the project now that are still running."""
        from wispsh.support.procs import start_of

        live = self.journal.live()
        if live is None:
            return []
        return [r for r in self.lines(live.get("session")) if r.get("pid") and r.get("start") is not None
                and r.get("point") is not None and start_of(int(r["pid"])) == r["start"]]


class Change:
    __slots__ = ("path", "action", "detail")

    def __init__(self, path: str, action: str, detail: str = ""):
        self.path, self.action, self.detail = path, action, detail

    def to_json(self) -> dict:
        return {"path": self.path, "action": self.action, **({"detail": self.detail} if self.detail else {})}


ACTIONS = {"A": "create", "D": "delete", "M": "restore", "T": "restore"}


def _perms(shadow: Shadow, tree: str, modes: str | None) -> dict[str, int]:
    """path -> permission bits of every regular file of a point."""
    listing = shadow.run("ls-tree", "-r", "-z", "--full-tree", tree)
    exact = {}
    if modes:
        raw = shadow.run("cat-file", "blob", modes)
        for row in raw.split(b"\0"):
            if row:
                perm, _, path = row.partition(b" ")
                exact[os.fsdecode(path)] = int(perm, 8)
    out = {}
    for row in listing.split(b"\0"):
        if not row:
            continue
        meta, _, path = row.partition(b"\t")
        mode = int(meta.split(b" ")[0], 8)
        if mode in (0o100644, 0o100755):
            name = os.fsdecode(path)
            out[name] = exact.get(name, canonical_perm(mode))
    return out


def changes_between(shadow: Shadow, now: tuple[str, str | None], then: tuple[str, str | None]) -> list[Change]:
    """What restoring `then` over `now` does, file by file."""
    raw = shadow.run("diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", now[0], then[0])
    fields = raw.split(b"\0")
    out, seen = [], set()
    for at in range(0, len(fields) - 1, 2):
        meta, path = fields[at], fields[at + 1]
        if not meta.startswith(b":"):
            continue
        old_mode, new_mode, _, _, status = meta[1:].split(b" ")
        name = os.fsdecode(path)
        seen.add(name)
        detail = "" if status[:1] != b"M" or old_mode == new_mode else f"mode {old_mode.decode()} -> {new_mode.decode()}"
        out.append(Change(name, ACTIONS.get(status[:1].decode(), "restore"), detail))
    before, after = _perms(shadow, now[0], now[1]), _perms(shadow, then[0], then[1])
    for name, perm in after.items():
        if name not in seen and name in before and before[name] != perm:
            out.append(Change(name, "mode", f"{before[name]:o} -> {perm:o}"))
    return sorted(out, key=lambda c: c.path)


class Result:
    def __init__(self, target: dict, changes: list[Change], point: int | None, dry_run: bool, patch: str = ""):
        self.target, self.changes, self.point, self.dry_run, self.patch = target, changes, point, dry_run, patch

    def to_json(self) -> dict:
        return {"target": self.target.get("id"), "target_kind": self.target.get("kind"),
                "target_line": self.target.get("line"), "dry_run": self.dry_run, "point": self.point,
                "undo_with": None if self.point is None else f"wisp undo --to {self.point}",
                "changes": [c.to_json() for c in self.changes],
                "git": "untouched: the project's .git (index, HEAD, branches, stash) was not changed; `git status` "
                       "shows how the files now differ from them",
                "not_covered": "ignored files (build outputs, node_modules) are not in restore points and were "
                               "left as they are"}


def restore(home: str, project: str, *, steps: int = 1, to: int | None = None, dry_run: bool = False,
            env=None, patch: bool = False) -> Result:
    env = os.environ if env is None else env
    history = History(home, project)
    target = history.point(to) if to is not None else None
    running = history.running()
    if running and not dry_run:
        first = running[0]
        raise UndoError(f"a line `wisp run` let run is still running (pid {first['pid']}: {first.get('line', '')[:60]!r}):"
                        " wait for it to end, or stop it, then undo")
    journal = history.journal
    with journal.lock():
        tree = open_tree(journal, env)
        try:
            now = tree.point()
            if target is None:
                target = history.target(steps, (now.tree, now.modes))
            shadow = tree.shadow
            found = changes_between(shadow, (now.tree, now.modes), (target["tree"], target.get("modes")))
            text = ""
            if patch:
                text = shadow.run("diff-tree", "-r", "-p", "--stat", "--no-color", "--no-ext-diff", "--no-textconv",
                                  now.tree, target["tree"]).decode("utf-8", "replace")
            if dry_run:
                return Result(target, found, None, True, text)
            live = journal.live()
            session = (live or {}).get("session") or (history.sessions() or ["undo"])[-1]
            number = journal.add_point(session=session, kind="undo", tree=now.tree, modes=now.modes,
                                       restored=target["id"])
            shadow.run("read-tree", "-u", "--reset", target["tree"])
            _set_perms(shadow, target)
            journal.append({"type": "line", "session": session, "time": round(time.time(), 3),
                            "line": f"wisp undo --to {target['id']}", "level": None, "decision": "undo",
                            "point": number, "restored": target["id"]})
            return Result(target, found, number, False, text)
        finally:
            tree.close()


def _set_perms(shadow: Shadow, point: dict) -> None:
    root = shadow.work_tree
    for name, perm in _perms(shadow, point["tree"], point.get("modes")).items():
        path = os.path.join(root, name)
        try:
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) != perm:
                os.chmod(path, perm)
        except OSError:
            continue
