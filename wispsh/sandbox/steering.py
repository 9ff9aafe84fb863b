"""Files that steer tools (levels.md): read-only to every program inside `wisp run`, changed only by a shell
line the gate let run knowing it writes one.

Which files: in the project, the names and paths of policy/places.py (CONTROL_NAMES at the project's root,
CONTROL_PATHS), its git config and hooks (`.git/config`, `config.worktree`, `.git/hooks` or core.hooksPath,
the same for submodules under `.git/modules`), and in the agents' writable state walls.AGENT_STEERING.

- One that exists is bound read-only over itself (a directory as a whole: nothing can be made in it).
- One that does not exist cannot be bound without making something at its path (an untracked file an agent
  might commit). It is watched instead (`Sentry`): checked before every request the supervisor serves and
  every SENTRY_SECONDS; one that appears with content, made by anything but a steering line, is moved out of
  the project into the wisp home's `held/` and said at the end (an empty one steers nothing and is left: a
  nested sandbox's mount point, as sandbox-runtime makes for the same files). A program can so make one for up to a second; nothing
  outside reads it in that time unless a person's tool is open on the project (docs/wisp-run.md).

A steering line (the judge decides, `kind_of`): a line allowed while it writes a steering file (rated
dangerous by the rules, so a person approved it, now or by a standing approval), or one made only of git
parts at least one of which writes the repository's own config (`git config`, `git remote add`,
`git branch -u`, `git push -u`, …). It runs in a view of the namespace where those paths are writable
(view.py); every other process keeps the read-only ones.
"""
from __future__ import annotations

import os
import shutil
import threading
import time

SENTRY_SECONDS = 1.0
RACY_SECONDS = 2.0      # a directory changed this recently may change again within its timestamp's tick
# What makes a line a steering line (the rules' finding ids, policy/places.py CLASS_IDS).
WRITES_STEERING = ("path.write.control-file", "path.write.git-internal")
# git verbs whose findings say they change the repository's config (programs/git.py rule ids).
GIT_CONFIG_RULES = ("git.config.", "git.remote.change", "git.branch.change", "git.submodule", "git.push",
                    "git.checkout", "git.switch", "git.init", "git.lfs", "git.worktree")
ALL, GIT_CONFIG = "all", "git-config"


def git_paths(gitdir: str, common: str) -> list[str]:
    """A repository's steering files: its config (and the worktree's), its hooks or core.hooksPath."""
    found = [os.path.join(common, "config"), os.path.join(gitdir, "config.worktree"), os.path.join(common, "hooks")]
    hooks = _hooks_path(os.path.join(common, "config"))
    if hooks:
        found.append(hooks if os.path.isabs(hooks) else os.path.join(os.path.dirname(common), hooks))
    modules = os.path.join(common, "modules")
    if os.path.isdir(modules):
        for root, dirs, files in os.walk(modules):
            if "config" in files and "HEAD" in files:
                found += [os.path.join(root, "config"), os.path.join(root, "hooks")]
                dirs[:] = [d for d in dirs if d == "modules"]
    return found


def _hooks_path(config: str) -> str | None:
    """core.hooksPath of a git config file, read as git reads the simple form (`hooksPath = DIR` in [core])."""
    from wispsh.support.gitconfig import core_setting

    found = core_setting(config, "hooksPath")
    return os.path.expanduser(found) if found is not None else None


def project_paths(project: str, gitdirs: list[str]) -> list[str]:
    """Every steering path of the project (existing or not)."""
    from wispsh.vocab.places import CONTROL_NAMES, CONTROL_PATHS

    found = [os.path.join(project, n) for n in sorted(CONTROL_NAMES)]
    found += [os.path.join(project, p.rstrip("/")) for p in CONTROL_PATHS]
    dot = os.path.join(project, ".git")
    if os.path.isdir(dot):
        found += git_paths(dot, dot)
    elif gitdirs:
        found += git_paths(gitdirs[0], gitdirs[-1])
    return list(dict.fromkeys(os.path.normpath(p) for p in found))


def home_paths(homes: list[str]) -> list[str]:
    from wispsh.sandbox.walls import AGENT_STEERING

    return [os.path.join(h, rel) for h in homes for rel in AGENT_STEERING]


def split(paths: list[str], writable: list[str]) -> tuple[list[str], list[str]]:
    """(existing: bind read-only, missing: watch) among the paths that lie in a writable place; a path whose
    parent does not exist is watched too (a program could make both)."""
    from wispsh.sandbox.walls import under_any

    existing, missing = [], []
    for path in paths:
        if not under_any(path, writable):
            continue                              # read-only with everything else
        if os.path.lexists(path):
            if not os.path.islink(path):
                existing.append(path)
            else:                                 # a link: its target read-only, the link watched
                target = os.path.realpath(path)
                if os.path.exists(target) and under_any(target, writable):
                    existing.append(target)
        else:
            missing.append(path)
    return existing, missing


def kind_of(plans, allowed: bool) -> str | None:
    """Whether a line the gate allowed is a steering line, and which view it gets: ALL (it writes a steering
    file, so it was approved as dangerous), GIT_CONFIG (only git parts, one writing the repo's config)."""
    if not allowed or not plans:
        return None
    programs, rules = [], []
    for plan in plans:
        for judged in plan.judged:
            programs.append(judged.key.program if judged.key is not None else None)
            rules += [f.rule for f in judged.verdict.findings]
        rules += [f.rule for f in plan.line_verdict.findings]
    if any(r in WRITES_STEERING for r in rules):
        return ALL
    if programs and all(p == "git" for p in programs) and any(r.startswith(GIT_CONFIG_RULES) for r in rules):
        return GIT_CONFIG
    return None


def _empty(path: str) -> bool:
    """An empty file or directory steers nothing (it reads as absent would): left alone, and still watched.
    Nested sandboxes make such mount points for the same files (sandbox-runtime's mandatory denies)."""
    try:
        if os.path.islink(path):
            return False
        if os.path.isdir(path):
            return not os.listdir(path)
        return os.path.getsize(path) == 0
    except OSError:
        return False


class Sentry:
    """Watches the steering paths that did not exist at start; moves one a program made out of reach."""

    def __init__(self, missing: list[str], held: str, out, tick=None):
        self.missing = list(missing)
        self._group()
        self.held = held
        self.say = out
        self.lock = threading.Lock()
        self.quiet = 0                       # steering lines running: what appears meanwhile is theirs
        self.moved: list[tuple[str, str]] = []
        self.stop = threading.Event()
        self.tick = tick                     # also run every SENTRY_SECONDS (view.Views.keep)

    def start(self) -> None:
        threading.Thread(target=self._loop, name="wisp-run-sentry", daemon=True).start()

    def _group(self) -> None:
        self.by_parent: dict[str, list[str]] = {}
        for path in self.missing:
            self.by_parent.setdefault(os.path.dirname(path), []).append(path)
        self.seen: dict[str, tuple] = {}        # parent -> (device, inode, mtime, ctime) at the last look in it
        self.empty: set[str] = set()            # watched paths there and empty: their content comes unseen above

    def _loop(self) -> None:
        while not self.stop.wait(SENTRY_SECONDS):
            self.check(full=True)
            if self.tick is not None:
                try:
                    self.tick()
                except Exception:            # the next tick tries again
                    pass

    def check(self, full: bool = False) -> None:
        """Hold what appeared. Before each request (not `full`): a directory whose mtime and ctime (and inode)
        are what they were when its watched names were last looked at, and not within RACY_SECONDS of now,
        made none of them (a name made or moved in changes its directory's times): 12 stats for 49 paths in a
        plain project (0.16 ms of each request's turn under make -j2, 0.04 now). A watched path there but empty is looked at
        each time (content written into it changes no directory). Every SENTRY_SECONDS: all of them, whatever
        the directories say (a file system whose times lie is caught by it)."""
        with self.lock:
            if self.quiet:
                return
            now = time.time()
            for parent, paths in self.by_parent.items():
                if not full:
                    try:
                        st = os.stat(parent)    # (followed: a name made in a linked directory changes its target)
                    except OSError:
                        self.seen.pop(parent, None)
                        continue                # no directory: nothing in it
                    # ctime too: a program inside owns the project's directories and may set an mtime back
                    # (os.utime), but no one can set a ctime, and setting the mtime moves it
                    key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
                    if self.seen.get(parent) == key and max(st.st_mtime, st.st_ctime) < now - RACY_SECONDS:
                        for path in paths:
                            if path in self.empty:
                                self._look(path)
                        continue
                    self.seen[parent] = key     # read before its names are: a name made after changes it
                for path in paths:
                    self._look(path)

    def _look(self, path: str) -> None:
        if not os.path.lexists(path):
            self.empty.discard(path)
        elif _empty(path):
            self.empty.add(path)
        else:
            self.empty.discard(path)
            self._hold(path)

    def _hold(self, path: str) -> None:
        where = os.path.join(self.held, time.strftime("%Y%m%d-%H%M%S"), path.lstrip("/"))
        try:
            os.makedirs(os.path.dirname(where), mode=0o700, exist_ok=True)
            shutil.move(path, where)
            self.moved.append((path, where))
        except OSError as exc:
            self.moved.append((path, f"NOT MOVED ({exc.strerror or exc})"))

    def steering_begins(self) -> None:
        with self.lock:
            self.quiet += 1

    def steering_ends(self) -> list[str]:
        """After a steering line: what it made is the person's now, no longer watched; returned, to be bound
        read-only like the steering files that existed at start."""
        with self.lock:
            self.quiet -= 1
            if self.quiet:
                return []
            made = [p for p in self.missing if os.path.lexists(p) and not os.path.islink(p)]
            self.missing = [p for p in self.missing if p not in made]
            self._group()
            return made

    def report(self) -> list[str]:
        self.stop.set()
        self.check(full=True)
        return [f"{path} was made by a program inside (not by an approved line): moved to {where}"
                for path, where in self.moved]
