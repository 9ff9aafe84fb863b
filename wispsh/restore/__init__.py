"""Restore points of a project under `wisp run`, and `wisp undo` / `wisp history`.

A shadow git repository in the wisp home (`$WISP_HOME/restore/<project>/`) holds the project's files (every
file git does not ignore, tracked and untracked) as trees, with the exact permission bits beside them; the
project's own `.git` is never read as a repository, never written.

git.py      running git safely over a tree an agent wrote (a clean environment, our own config, no hooks,
            filters, fsmonitor or attributes of the project's), and writing git objects ourselves
ignore.py   which new paths the project's ignore rules leave out (one `git check-ignore` kept running)
watch.py    inotify from outside the namespace: which paths changed since the last restore point
tree.py     the project as a tree in memory: a restore point from only what changed, or a full scan
journal.py  the points and the lines of each session (one JSON line each), the project's lock
undo.py     restoring a point (`wisp undo`), the diff it would make, the history
"""
