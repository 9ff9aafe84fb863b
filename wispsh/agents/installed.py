"""Installed tools under the shims: a script run through its `#!` line that is not the agent's.

With the shims first on PATH, every `#!/usr/bin/env bash` (or sh, zsh) program becomes `bash SCRIPT ARGS`
for wispsh: pyenv's, rbenv's and nvm's shims, git hooks, installed CLIs. Read line by line as if the agent
had written them, they asked about (or refused) their own plumbing: `python3 --version` exited 126 through
pyenv's shim. Beneath a line the gate allowed they pass on the nested token (decide/nested.py); this module
is for the rest (a plain shell above, or no shell at all).

Such a script is judged by how it was started, not read line by line, when it is plainly not the agent's:
it starts with `#!`, it is outside the project (and the current directory), it is the user's or root's and no
one else can change it (support/owned.py; not in a directory others may write, /tmp itself included), and it
has not changed since the agent's session began (its ctime). Then the line judged is the program as started:
its name with its arguments when PATH finds this very file by that name (`python3 --version`, which the
rules know), else its path with its arguments. A git hook of the repository (`<git dir>/hooks/<hook name>`,
writing it is rated dangerous) passes as git's own step: git started it for the git command above, which
was judged where it was typed. Anything else — in the project, new in this session, writable by others, no
`#!` — is read line by line as before.
"""
from __future__ import annotations

import os

from wispsh.vocab.places import is_under

GIT_HOOKS = frozenset({
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
    "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update",
    "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
    "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
    "p4-post-changelist", "p4-pre-submit", "post-index-change",
})


class Started:
    """How an installed script was started: the line to judge in its place (None: a git hook, git's own
    step), and the note that says why it is not read line by line."""

    __slots__ = ("line", "note", "path")

    def __init__(self, line: str | None, note: str, path: str):
        self.line, self.note, self.path = line, note, path


def _git_hook(real: str) -> bool:
    hooks = os.path.dirname(real)
    git_dir = os.path.dirname(hooks)
    return (os.path.basename(real) in GIT_HOOKS and os.path.basename(hooks) == "hooks"
            and os.path.isfile(os.path.join(git_dir, "HEAD")) and os.path.isdir(os.path.join(git_dir, "objects")))


def _in_the_project(real: str, cwd: str, env) -> bool:
    """Under the project (or the current directory). An agent started in the home itself has the home for its
    project: its dot-directories (~/.pyenv, ~/.nvm, ~/.local) are still not the project's (writing there is
    rated as writing your config), so a tool installed there counts as outside."""
    from wispsh.config import user_home
    from wispsh.decide.session import project_root

    for root in {project_root(cwd), os.path.realpath(cwd)}:
        if not is_under(real, root):
            continue
        homes = {os.path.realpath(user_home()), os.path.realpath(env.get("HOME") or user_home())}
        below = real[len(root.rstrip("/")) + 1:]
        if root in homes and below.startswith(".") and not below.startswith(".git/"):
            continue
        return True
    return False


def _found_on_path(name: str, real: str, env) -> bool:
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(directory or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.realpath(candidate) == real
    return False


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


def as_started(script: str, args, data: bytes, env, cwd: str) -> Started | None:
    """How `script` (as the shell was given it) was started, when it is an installed script; else None (it
    is then read line by line)."""
    if not data.startswith(b"#!"):
        return None
    from wispsh.support.realpath import real as resolved

    where = os.path.join(cwd, script) if not os.path.isabs(script) else script
    real = resolved(where)
    from wispsh.decide.session import changed_in_session
    from wispsh.support.owned import not_ours

    hook = _git_hook(real)
    if not hook and _in_the_project(real, cwd, env):
        return None
    if not_ours(where, own_directory_shared=False) is not None or changed_in_session(real):
        return None
    if hook:
        name = os.path.basename(real)
        return Started(None, f"git's {name} hook ({real}), older than this session and only you can change it: "
                             f"run by git for the git command above, not read line by line", real)
    name = os.path.basename(script)
    command = name if _found_on_path(name, real, env) else where
    line = " ".join(_quote(w) for w in (command, *args))
    return Started(line, f"installed script {real} (outside the project, older than this session, only you can "
                         f"change it): judged as it was started, {line[:120]!r}, not read line by line", real)
