"""`wisp undo` and `wisp history`: what restore/undo.py does, said for a person (text) or as JSON (a dict);
cli/wisp.py prints it. Errors are restore.undo.UndoError (or GitError): one line."""
from __future__ import annotations

import os
import time

GIT_NOTE = ("the project's own git was not changed (index, HEAD, branches, stash): `git status` shows how the "
            "files now differ from them")
IGNORED_NOTE = "ignored files (build outputs, node_modules) are in no restore point and were left as they are"


def _project(path: str) -> str:
    from wispsh.policy.context import find_project_root

    return os.path.realpath(find_project_root(os.path.realpath(path)))


def undo(home, project: str, *, steps: int, to: int | None, dry_run: bool, as_json: bool):
    """(the JSON, or the text) of an undo."""
    from wispsh.restore.undo import restore

    root = _project(project)
    result = restore(str(home), root, steps=steps, to=to, dry_run=dry_run, patch=dry_run and not as_json)
    if as_json:
        return {"project": root, **result.to_json()}
    out: list[str] = []
    say = out.append
    target = result.target
    what = f"restore point {target['id']}"
    if target.get("kind") == "line" and target.get("line"):
        what += f" (before `{target['line'][:80]}`)"
    elif target.get("kind") == "start":
        what += " (as wisp run found the project)"
    elif target.get("kind") == "undo":
        what += f" (before the undo to {target.get('restored')})"
    counts = {}
    for change in result.changes:
        counts[change.action] = counts.get(change.action, 0) + 1
    summary = ", ".join(f"{n} {WORDS[a]}" for a, n in sorted(counts.items())) or "nothing to change"
    if dry_run:
        say(f"wisp undo --dry-run: back to {what} would change: {summary}")
        for change in result.changes:
            say(f"  {change.action:8} {change.path}" + (f" ({change.detail})" if change.detail else ""))
        if result.patch.strip():
            say("")
            say(result.patch.rstrip("\n"))
        return "\n".join(out)
    say(f"wisp undo: back to {what}: {summary}")
    for change in result.changes[:40]:
        say(f"  {change.action:8} {change.path}" + (f" ({change.detail})" if change.detail else ""))
    if len(result.changes) > 40:
        say(f"  … and {len(result.changes) - 40} more (`wisp undo --to {result.point} --dry-run` shows them all)")
    say(f"undo this undo: wisp undo --to {result.point}")
    say(f"note: {GIT_NOTE}")
    say(f"note: {IGNORED_NOTE}")
    return "\n".join(out)


WORDS = {"restore": "restored", "delete": "deleted (made after the point)", "create": "made again",
         "mode": "mode restored"}


def history(home, project: str, *, every: bool, session: str | None, as_json: bool):
    """(the JSON, or the text) of a project's history."""
    from wispsh.restore.undo import History, UndoError

    root = _project(project)
    found = History(str(home), root)
    sessions = found.sessions()
    chosen = None if every else (session or (sessions[-1] if sessions else None))
    if session and session not in sessions:
        raise UndoError(f"no session {session} in {root} (sessions: {', '.join(sessions[-5:]) or 'none'})")
    lines = found.lines(chosen)
    points = [p for p in found.points if chosen is None or p.get("session") == chosen]
    if as_json:
        return {"project": root, "session": chosen, "sessions": sessions,
                "lines": [{k: v for k, v in r.items() if k != "type"} for r in lines],
                "points": [{k: v for k, v in p.items() if k != "type"} for p in points]}
    out: list[str] = []
    say = out.append
    say(f"project {root}: " + (f"session {chosen}" if chosen else f"{len(sessions)} sessions")
        + f", {len(lines)} line{'s' if len(lines) != 1 else ''}, {len(points)} restore point"
        + ("s" if len(points) != 1 else ""))
    start = next((p for p in points if p.get("kind") == "start"), None)
    if start is not None:
        say(f"  point {start['id']:>4}  {_when(start.get('time'))}  (as wisp run found the project)")
    say(f"  {'point':>10}  {'time':8}  {'level':9} {'decision':17} line")
    for row in lines:
        point = row.get("point")
        say(f"  {('#' + str(point)) if point else '-':>10}  {_when(row.get('time'))}  {row.get('level') or '-':9} "
            f"{row.get('decision') or '-':17} {row.get('line', '')}")
    if lines:
        say("`wisp undo` goes back before the last line with a point; `wisp undo --to ID` to any point")
    return "\n".join(out)


def _when(stamp) -> str:
    if not isinstance(stamp, (int, float)):
        return "--:--:--"
    return time.strftime("%H:%M:%S", time.localtime(stamp))
