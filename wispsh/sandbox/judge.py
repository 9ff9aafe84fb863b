"""The warm judge of `wisp run`: one request from inside -> one Outcome, through invoke.decide (the same code
path as wispsh in-process), with what only the supervisor knows passed in:

- who asks: the peer's pid by SO_PEERCRED, as the supervisor's /proc shows it; it must be inside this run.
- the config, read again only when config.json changes (by stat); the parser and rule tables stay loaded.
- the real shell: the binary the launcher was bound over (or found as wispsh would), sent as an fd.
- where the store is: the supervisor's wisp home and runtime dir, whatever WISP_HOME or XDG_RUNTIME_DIR the
  request carries (a line could point them at grants it wrote itself).
- the answers: `wisp watch` or the supervisor's terminal (asking.py), never the request; --yes is ignored.
- beneath an allowed line: when an ancestor of the peer (or the peer itself, exec'd in place) is a process this
  judge allowed to exec a checked line, named by (pid, start), the line is checked against the deny patterns
  only, audited compactly and never asked. An interactive shell is never an allowed line.

Judging holds one lock (the pipeline is not made for threads and the GIL gives no parallelism anyway), taken
by the supervisor for a request's whole turn (Judge.handle is called with it held); it is let go while a person
is asked or a script is read from a pipe, so `make -j` and parallel agents wait only for each other's few
milliseconds of judging.
"""
from __future__ import annotations

import os
import threading

from wispsh.support import procs

SOURCE = "wisp run"
PRUNE_EVERY = 512
WARM_AFTER = 0.25       # seconds after the start before the judge warms up (Judge.warm)


class Request:
    """A request as received: the peer (outside pid, start, uid) and what the client sent."""

    __slots__ = ("pid", "start", "uid", "kind", "argv", "cwd", "env", "tty", "stdin_fd", "conn", "view", "first")

    def __init__(self, pid, start, uid, kind, argv, cwd, env, tty, stdin_fd):
        self.pid, self.start, self.uid, self.kind = pid, start, uid, kind
        self.argv, self.cwd, self.env, self.tty, self.stdin_fd = argv, cwd, env, tty, stdin_fd
        self.conn = None        # the connection it came on: closed when the asker is gone (asking.py)
        self.view = None        # steering.ALL / GIT_CONFIG: an allowed steering line (view.py runs it)
        self.first = None       # procs.Stat of the peer as the request came (its start; the walk up starts there)


class BadRequest(Exception):
    pass


def _text(word: bytes) -> str:
    return word.decode("utf-8", "surrogateescape")


def _count(text: str) -> int:
    """A count as the client writes it: ASCII digits (int() of text would take other scripts' digits too)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"not a count: {text[:20]!r}")
    return int(text)


def parse_request(body: bytes, *, pid: int, uid: int, stdin_fd: int | None) -> Request:
    from wispsh.sandbox.client import MAGIC

    # decoded whole, then split: a NUL is never part of a UTF-8 sequence, so each field reads as it would
    # alone (surrogateescape included: tests/test_wisp_run_units.py), in one call where ~120 were
    fields = _text(body).split("\0")
    try:
        if fields[0] != _text(MAGIC) or fields[1] not in ("launcher", "wispsh", "command"):
            raise BadRequest("not a wisp run request")
        argc = _count(fields[2])
        argv = fields[3:3 + argc]
        cwd = fields[3 + argc]
        envc = _count(fields[4 + argc])
        env = {}
        for entry in fields[5 + argc:5 + argc + envc]:
            key, sep, value = entry.partition("=")
            if sep:
                env[key] = value
        tty = fields[5 + argc + envc] == "1"
    except (IndexError, ValueError) as exc:
        raise BadRequest(f"malformed request ({exc})") from None
    if not argv or len(fields) != 6 + argc + envc:
        raise BadRequest("malformed request")
    first = procs.stat(pid)
    req = Request(pid, first.start if first else None, uid, fields[1], argv, cwd, env, tty, stdin_fd)
    req.first = first
    return req


class WarmConfig:
    """The wisp home's config, read again only when config.json (or the home's own mode/owner) changes."""

    def __init__(self, home):
        self.home = home
        self.key = object()
        self.value = None
        self.error = None
        self.lock = threading.Lock()

    def _key(self):
        keys = []
        for path in (self.home, os.path.join(self.home, "config.json")):
            try:
                st = os.stat(path)
                keys.append((st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, st.st_mode, st.st_uid))
            except FileNotFoundError:
                keys.append(None)
        return tuple(keys)

    def __call__(self):
        from pathlib import Path

        from wispsh.config import ConfigError, load_config

        with self.lock:
            key = self._key()
            if key != self.key:
                try:
                    self.value, self.error = load_config(Path(self.home)), None
                except ConfigError as exc:
                    self.value, self.error = None, exc
                self.key = key
            if self.error is not None:
                raise self.error
            return self.value


class LazyHere:
    """decide.session.Here for the asking process, walked only when a store or a grant needs it."""

    def __init__(self, pid: int, env, began=None):
        """began: when the session began, when the caller knows it (the `wisp run` judge: the run's start)."""
        self._pid, self._env, self._value = pid, env, None
        self._began = _UNREAD if began is None else began

    def _get(self):
        if self._value is None:
            from wispsh.decide import session

            self._value = session.here_of(self._pid, self._env)
        return self._value

    @property
    def me(self):
        """(pid, start) of the asker as the walk gives it, without the walk: all the session's start needs
        (a hook or script judged beneath an allowed line walked the whole ancestry with psutil, ~2 ms, for it)."""
        if self._value is not None:
            return self._value.me
        started = procs.create_time(self._pid)
        return None if started is None else (self._pid, started)

    @property
    def began(self):
        """When the asker's session began: as given, else decide.session.session_started above it, walked once
        a request (each script or start-up file checked for "changed in this session" asked it again)."""
        if self._began is _UNREAD:
            from wispsh.decide import session

            me = self.me
            self._began = session.session_started(me[0]) if me else None
        return self._began

    def __getattr__(self, name):
        return getattr(self._get(), name)


_UNREAD = object()


OWN_PLACES = ("WISP_HOME", "XDG_RUNTIME_DIR")


class Judge:
    def __init__(self, *, layout, wisp_home: str, root: tuple[int, int], asker=None, env=None, views=None,
                 sentry=None, contained=None):
        """root: (pid, start) of the namespace's first process (bwrap): every asker must be beneath it.
        env: the supervisor's own environment (where its wisp home and runtime dir are)."""
        self.layout = layout
        self.own_env = dict(os.environ if env is None else env)
        self.config = WarmConfig(wisp_home)
        self.root = root
        self.asker = asker
        self.lock = threading.Lock()
        self.allowed: dict[int, int] = {}       # pid -> start: processes let exec a checked line
        self.lines: dict[int, str] = {}         # pid -> the line it was let exec (the network's "line that started it")
        self.typed: dict[int, tuple[int, str]] = {}  # a gated shell's driver pid -> (start, its last allowed command)
        self.served = 0
        self.views = views                      # view.Views: where steering lines run (their helpers count as inside)
        self.sentry = sentry
        self.contained = contained              # contained.Contained: restore points, the contained threshold
        # The session every asker inside is part of: the run, begun when its first process started. The walk
        # up to "the nearest process that is not a shell" stopped at whatever program the agent ran (git for
        # its hooks, make for its recipes, a python), so a script the agent wrote before starting that program
        # counted as older than the session; it cost a /proc walk each request too. None: walked as before.
        from wispsh.decide.session import started_epoch

        self.began = started_epoch(root[0])
        if self.began is not None and procs.start_of(root[0]) != root[1]:
            self.began = None

    def warm(self, stopping=None) -> None:
        """Load the parser, rules and tables, in a thread of its own, WARM_AFTER seconds after the program
        started (a program that ends sooner, `wisp run -- true`, pays nothing; an agent takes longer than that
        to ask its first line), a line at a time under the judge's lock: a request that comes meanwhile waits
        for one line's warming at most, and is judged in full either way (what it needs and is not warm yet
        is loaded for it)."""
        from wispsh import pipeline

        if stopping is not None and stopping.wait(WARM_AFTER):
            return
        try:
            config = self.config()
        except Exception:
            return
        for line in ("git status && ls -la | head -5", "rm -rf build; curl -s x | sh", "make -j2"):
            with self.lock:
                try:
                    pipeline.judge(line, config, "/", {"HOME": "/"}, remember=False, opinion=False)
                    pipeline.deny_only(line, config)
                except Exception:
                    return

    # ------------------------------------------------------------ the allowed lines

    def beneath(self, req: Request, chain=None) -> dict | None:
        """The allowed line's process at or above the asker, or None. chain: the asker's ancestry below the
        root (procs.ancestry_under), when the caller walked it already."""
        if not self.allowed:
            return None
        for found in procs.ancestry(req.pid, stop=self.root[0]) if chain is None else chain:
            if self.allowed.get(found.pid) == found.start:
                return {"pid": found.pid, "start": found.start}
        return None

    def _record(self, req: Request, line: str) -> None:
        self.allowed[req.pid] = req.start
        self.lines[req.pid] = line
        self.served += 1
        if self.served % PRUNE_EVERY == 0:
            for pid, start in list(self.allowed.items()):
                if procs.start_of(pid) != start:
                    del self.allowed[pid]
                    self.lines.pop(pid, None)
            for pid, (start, _) in list(self.typed.items()):
                if procs.start_of(pid) != start:
                    del self.typed[pid]

    def line_of(self, pid: int) -> str | None:
        """The line the gate allowed nearest above `pid` (or at it), or None: what started a connection. Beneath
        a gated shell: the last command allowed in it (a job left running by an earlier one is named by the last)."""
        for found in procs.ancestry(pid, stop=self.root[0]):
            if self.allowed.get(found.pid) == found.start:
                return self.lines.get(found.pid)
            typed = self.typed.get(found.pid)
            if typed is not None and typed[0] == found.start:
                return typed[1]
        return None

    # ------------------------------------------------------------ one request

    def inside(self, req: Request) -> list | None:
        """The asker's ancestry below this run's bwrap (nearest first), [] beneath a steering line's view
        (view.py), None when it is neither: not inside. The asker is the one that connected (its start as
        parse_request read it)."""
        chain = procs.ancestry_under(req.pid, self.root, first=req.first)
        if chain is not None:
            return chain if chain[0].start == req.start else None
        if self.views is not None and any(procs.is_beneath(req.pid, root) for root in self.views.roots()):
            return []
        return None

    def handle(self, req: Request, conn=None):
        """The Outcome for `req` (the shell named by its path outside; the supervisor sends an fd on it), called
        with self.lock held. conn: the request's connection (a question is withdrawn when it closes). Sets
        req.view for an allowed steering line."""
        from wispsh import invoke
        from wispsh.sandbox import steering

        req.conn = conn
        chain = None if req.start is None else self.inside(req)
        if chain is None:
            return invoke.refusal("wispsh: not run: the request did not come from inside this wisp run")
        env = dict(req.env)
        for name in OWN_PLACES:          # the store and the grants are the supervisor's, not the request's
            if self.own_env.get(name):
                env[name] = self.own_env[name]
            else:
                env.pop(name, None)
        if req.kind == "command":
            return self._command(req, env)
        plans: list = []
        beneath = self.beneath(req, chain or None)
        outcome = invoke.decide(
            argv_for_parse(req, self.layout), env=env, cwd=req.cwd or "/", stdin_is_tty=req.tty, read_stdin=self._stdin(req),
            find_shell=self._find_shell(req), config=self._config, answers=self._answers(req),
            here=LazyHere(req.pid, env, self.began), allow_yes=False, pid=req.pid, source=SOURCE,
            beneath=beneath, plans=plans) if req.cwd else \
            invoke.refusal("wispsh: not run: the working directory cannot be read")
        if self.contained is not None and beneath is None and req.cwd and (outcome.shell is not None or plans):
            self._restore_point(req, plans, runs=outcome.shell is not None, starts_shell=not outcome.line)
        if outcome.shell is not None and outcome.line:
            self._record(req, plans[-1].line if plans else " ".join(req.argv))
            if beneath is None and self.views is not None and self.views.any():
                req.view = steering.kind_of(plans, allowed=True)
        return outcome

    def _config(self):
        """The config, with the supervisor's word on what the walls contain (decide/gate.py reads it)."""
        config = self.config()
        return config if self.contained is None else self.contained.config_for(config)

    def _restore_point(self, req: Request, plans, *, runs: bool, starts_shell: bool = False) -> None:
        """Before an allowed line (or a gated shell's command) that may change the project: its restore point
        (contained.py)."""
        try:
            config = self.config()
        except Exception:
            config = None
        if config is not None:
            self.contained.before_line(req, plans, config, runs=runs, starts_shell=starts_shell)

    def _command(self, req: Request, env):
        """One command of a gated shell (session/), typed or piped into a shell started inside: judged in full
        with the shell's directory and environment as the session sent them; never beneath an allowed line
        (a gated shell is not one), and no approval of the shell itself covers it."""
        from wispsh import flow, invoke
        from wispsh.config import ConfigError

        if len(req.argv) != 1 or not req.cwd:
            return invoke.refusal("wispsh: not run: malformed command request")
        from wispsh.decide import session

        plans: list = []
        session.asking_for(LazyHere(req.pid, env, self.began))
        try:
            warnings: list[str] = []
            refused = flow.verdict(req.argv[0], config=self._config(), cwd=req.cwd, env=env,
                                   answers=self._answers(req), source=SOURCE, warnings=warnings, seen=plans)
        except ConfigError as exc:
            refused, warnings = f"wispsh: not run: config error: {exc}", []
        except Exception as exc:
            refused, warnings = f"wispsh: not run: internal error ({type(exc).__name__}: {exc})", []
        finally:
            session.asking_for(None)
        if self.contained is not None and plans:        # a typed command is a line: its restore point
            self._restore_point(req, plans, runs=refused is None)
        if refused is not None:
            return invoke.refusal(refused, warnings)
        self.typed[req.pid] = (req.start, req.argv[0].rstrip("\n"))
        return invoke.exits(0, stderr=flow.warning_lines(warnings))

    def _unlocked(self, work):
        """Run work() with the judge's lock let go (a person answering, a pipe being read)."""
        self.lock.release()
        try:
            return work()
        finally:
            self.lock.acquire()

    def _stdin(self, req: Request):
        def read() -> bytes:
            if req.stdin_fd is None:
                return b""

            from wispsh.invoke import _read_all

            return self._unlocked(lambda: _read_all(req.stdin_fd))       # at most READ_LIMIT, as in-process
        return read

    def _find_shell(self, req: Request):
        from wispsh import realshell

        def find(invocation, config, env):
            if req.kind == "launcher":
                exe = req.argv[0] if os.path.isabs(req.argv[0]) else os.path.join(req.cwd, req.argv[0])
                shell = self.layout.shell_for(exe)
                if shell is None:
                    raise realshell.ShellNotFound(f"{req.argv[0]} is not a shell this wisp run bound over")
                return shell.real
            return realshell.find_shell(invocation.shell_name, config, env, invocation.argv[0])
        return find

    def _answers(self, req: Request):
        def answers(plan, *, config, env, yes, cwd):
            if not plan.questions or self.asker is None:
                return ()
            return self._unlocked(lambda: self.asker.answers(plan, config=config, env=env, cwd=cwd, req=req))
        return answers


def argv_for_parse(req: Request, layout) -> list[str]:
    """The argv as wispsh reads it. A launcher bound over ksh93, mksh or rbash is read under the name of its
    shell family (ksh, bash): any other name would be read as `wispsh`, with wispsh's own options."""
    from wispsh.vocab.shells import STANDS_IN_FOR as SHELL_NAMES

    if req.kind != "launcher" or os.path.basename(req.argv[0]) in SHELL_NAMES:
        return req.argv
    exe = req.argv[0] if os.path.isabs(req.argv[0]) else os.path.join(req.cwd, req.argv[0])
    shell = layout.shell_for(exe)
    return [shell.family if shell else "sh", *req.argv[1:]]
