"""Where a line runs: the directories the path classes are measured against."""
from __future__ import annotations

import os
import posixpath

from wispsh.config import Config, home_dir
from wispsh.model import Level
from wispsh.policy import effects
from wispsh.support.record import Record

_set = object.__setattr__  # records set their fields once, in __init__


def find_project_root(cwd: str) -> str:
    """The git work tree root above cwd (a `.git` file or directory), else cwd. No subprocess."""
    here = posixpath.normpath(cwd)
    probe = here
    for _ in range(256):
        if os.path.exists(posixpath.join(probe, ".git")):
            return probe
        parent = posixpath.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return here


def runtime_dirs(env: dict) -> tuple[str, ...]:
    """Every place the gate's runtime dir (config.runtime_dir) can be, and where older versions kept it.

    $XDG_RUNTIME_DIR/wisp; else /run/user/<uid> or <tmp>/runtime-<uid>, under the wisp home's own name
    (config.runtime_name) or plain `wisp`; since telling which applies needs I/O, all count as wisp's own.
    """
    from wispsh.config import runtime_name

    uid = os.getuid()
    found = []
    xdg = env.get("XDG_RUNTIME_DIR")
    if xdg and xdg.startswith("/"):
        found.append(posixpath.join(posixpath.normpath(xdg), "wisp"))
    names = (runtime_name(env), "wisp")
    found += [f"/run/user/{uid}/{name}" for name in names]
    tmp = env.get("TMPDIR") or "/tmp"
    for base in dict.fromkeys((tmp, "/tmp")):
        if base.startswith("/"):
            found += [posixpath.join(posixpath.normpath(base), f"runtime-{uid}", name) for name in names]
    return tuple(dict.fromkeys(found))


class Context(Record):
    cwd: str
    home: str
    project_root: str
    wisp_home: str
    runtime_dir: str
    env: dict
    runtime_dirs: tuple[str, ...]
    temp_dirs: tuple[str, ...]
    # (word, cwd) -> Place: a long line names the same places again and again
    places: dict
    # directory -> its real path (os.path.realpath): the links a line's paths go through, each directory once
    real_dirs: dict
    # what a rule reads from disk once a line (the project's config files: programs/sources.project_names)
    read_once: dict
    # rule id -> level: the user's own rule tables may set the level of a finding (policy/user.py)
    overrides: dict
    # judge_code(text, ctx, cwd) -> Verdict: shell code a rule found inside a word (pipeline.judge_code, set by
    # whoever makes the context: the policy never imports the pipeline above it)
    judge_code: object
    # name -> Program: the programs the user's own tables teach the gate
    programs: dict
    # the line's standard input is a terminal: a shell it starts with no code is a session someone types into
    # (else it reads, unseen, whatever the caller's pipe or file holds)
    stdin_tty: bool

    __slots__ = FIELDS = ('cwd', 'home', 'project_root', 'wisp_home', 'runtime_dir', 'env', 'runtime_dirs',
                          'temp_dirs', 'places', 'real_dirs', 'overrides', 'judge_code', 'programs', 'read_once', 'stdin_tty')
    COMPARED = ('cwd', 'home', 'project_root', 'wisp_home', 'runtime_dir', 'runtime_dirs', 'temp_dirs', 'stdin_tty')
    SHOWN = ('cwd', 'home', 'project_root', 'wisp_home', 'runtime_dir', 'env', 'runtime_dirs', 'temp_dirs',
             'stdin_tty')

    def __init__(self, cwd, home, project_root, wisp_home, runtime_dir, env=None, runtime_dirs=(),
                 temp_dirs=("/tmp", "/var/tmp", "/dev/shm"), places=None, real_dirs=None, overrides=None,
                 judge_code=None, programs=None, read_once=None, stdin_tty=False) -> None:   # (FIELDS' order)
        _set(self, 'cwd', cwd)
        _set(self, 'home', home)
        _set(self, 'project_root', project_root)
        _set(self, 'wisp_home', wisp_home)
        _set(self, 'runtime_dir', runtime_dir)
        _set(self, 'env', {} if env is None else env)
        _set(self, 'runtime_dirs', runtime_dirs)
        _set(self, 'temp_dirs', temp_dirs)
        _set(self, 'places', {} if places is None else places)
        _set(self, 'real_dirs', {} if real_dirs is None else real_dirs)
        _set(self, 'read_once', {} if read_once is None else read_once)
        _set(self, 'overrides', {} if overrides is None else overrides)
        _set(self, 'judge_code', judge_code)
        _set(self, 'programs', {} if programs is None else programs)
        _set(self, 'stdin_tty', bool(stdin_tty))

    def level_of(self, kind: str, rule: str) -> Level:
        base = effects.level_of(kind)
        found = self.overrides.get(rule)
        if found is None or found < base and kind in effects.UNLOWERABLE:
            return base
        return found

    def path_level(self, action: str, cls: str, rule: str) -> Level:
        base = effects.path_level(action, cls)
        found = self.overrides.get(rule)
        if found is None or found < base and cls in effects.UNLOWERABLE_PLACES:
            return base
        return found

    @classmethod
    def for_process(cls, cwd: str, env: dict, config: Config | None = None, overrides: dict | None = None,
                    judge_code=None, programs: dict | None = None, stdin_tty: bool = False) -> "Context":
        env = dict(env)
        cwd = posixpath.normpath(cwd or "/")
        home = env.get("HOME") or os.path.expanduser("~")
        home = posixpath.normpath(home) if home.startswith("/") else "/"
        places = runtime_dirs(env)
        temps = ["/tmp", "/var/tmp", "/dev/shm"]
        tmpdir = env.get("TMPDIR")
        if tmpdir and tmpdir.startswith("/") and posixpath.normpath(tmpdir) not in ("/", home):
            temps.append(posixpath.normpath(tmpdir))
        return cls(
            cwd=cwd,
            home=home,
            project_root=find_project_root(cwd),
            # config.wisp_home falls back on the process's own ~; the line runs with env's HOME.
            wisp_home=posixpath.normpath(home_dir(env) if env.get("WISP_HOME")
                                         else posixpath.join(home, ".wisp")),
            runtime_dir=places[0],
            env=env,
            runtime_dirs=places,
            temp_dirs=tuple(dict.fromkeys(temps)),
            overrides=dict(overrides or {}),
            judge_code=judge_code,
            programs=dict(programs or {}),
            stdin_tty=stdin_tty,
        )
