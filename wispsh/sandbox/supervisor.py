"""`wisp run [--] PROGRAM [ARGS...]`: PROGRAM in a namespace where every shell is the gate, with this process
outside as the supervisor that owns the wisp home, judges every request, asks, records grants and audits.

Lifecycle: check readiness (else refuse to start, with the reason and the fix); make the private run
directory (the launcher, the request socket, the real-shell mount point) and the placeholders; listen; start
bwrap with the layout; with the network wall, make the proxy's listeners inside the namespace's network
while bwrap waits (netns.py), then let the program start; serve requests (and connections: proxy.py) on
threads until the program ends; remove what was made; exit with the program's status. SIGINT is left to the program (the person's Ctrl-C is for the agent); SIGTERM and
SIGHUP are passed on to it. bwrap runs with --die-with-parent: if this process dies, the namespace dies.
"""
from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

from wispsh.sandbox import layout as layouts
from wispsh.support import procs

RECEIVE_SECONDS = 30.0      # a peer that connects and sends nothing is dropped after this
SEND_SECONDS = 10.0         # a peer that does not read its answer is dropped after this
MAX_CLIENTS = 128           # requests served at once (each waits for a person at most approval.waitSeconds)
SPARE_SERVERS = 2           # threads left waiting in accept() once the requests they took are served
SOCKET_ROOM = 100           # sun_path holds 108 bytes
PANE_SECONDS = 10.0         # --watch-pane: how long the program's start waits for the pane's watch to listen


class CannotStart(Exception):
    """wisp run cannot start here; the message says why and what to do."""


def _run_dir(env) -> str:
    from wispsh.decide.lock import ensure_private_dir
    from wispsh.decide.store import runtime_dir

    from pathlib import Path

    base = runtime_dir(env) / "run"
    try:
        ensure_private_dir(base.parent)
        ensure_private_dir(base)
        where = base / f"{os.getpid()}-{os.urandom(3).hex()}"
        os.mkdir(where, 0o700)
        if len(str(where / "sock" / "req.sock")) < SOCKET_ROOM:
            return str(where)
        os.rmdir(where)
    except OSError:
        pass
    import tempfile

    return tempfile.mkdtemp(prefix="wisp-run-", dir=Path("/tmp"))


def _inherited_fds() -> list[int]:
    """fds this process was started with, besides 0-2 (a make jobserver, say): the program gets them too."""
    out = []
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return out
    for name in names:
        fd = int(name)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    out.append(fd)
            except OSError:
                pass
    return out


class Supervisor:
    def __init__(self, program: list[str], *, env=None, watch_pane: bool = False, protect=(),
                 out=sys.stderr, walls=None, restore=None):
        self.program = list(program)
        self.walls = dict(walls or {})          # walls.settings() flags: None = as config says
        self.env = dict(os.environ if env is None else env)
        self.watch_pane = watch_pane
        self.extra_protect = list(protect)
        self.out = out
        self.child = None
        self.pane = None
        self.listener = None
        self.layout = None
        self.stopping = threading.Event()
        self.servers = threading.Lock()         # guards the two counts below (_server)
        self.waiting = 0                        # threads in accept()
        self.serving = 0                        # threads serving a request
        self.shell_fds: dict[str, int] = {}     # the real shells' binaries, opened before the namespace exists
        self.entry_points = None
        self.sentry = None
        self.views = None
        self.claude = None                      # walls.ClaudeState: ~/.claude.json handed over and back
        self.restore = restore                  # restore points: None = as config run.restore says (on)
        self.contained = None                   # contained.Contained: restore points, contained threshold
        self.proxy = None                       # proxy.Proxy: the network wall's only way out

    def say(self, text: str) -> None:
        from wispsh.support.text import wrap

        self.out.write(wrap(f"wisp run: {text}") + "\n")     # 80 columns, never cut inside a path
        self.out.flush()

    # ------------------------------------------------------------ start

    def run(self) -> int:
        from wispsh.config import ConfigError, load_config, wisp_home
        from wispsh.sandbox import readiness, seccomp

        inherited = _inherited_fds()
        self.entry_points = self._entry_points()
        from wispsh.decide.store import runtime_dir

        ready = readiness.check_cached(str(runtime_dir(self.env) / "run" / "ready.json"))
        if not ready.ok:
            raise CannotStart(f"{ready.detail} -- {ready.fix}")
        home = wisp_home(self.env)
        try:
            config = load_config(home)
        except ConfigError as exc:
            raise CannotStart(f"config error: {exc} -- fix the file; wisp run does not start without it")
        from wispsh.decide.lock import ensure_private_dir

        ensure_private_dir(home)
        from wispsh.decide import store

        store.ensure_grant_key(home)            # made now, so that it can be hidden inside from the start
        run_dir = _run_dir(self.env)
        try:
            return self._run(ready, config, str(home), run_dir, inherited, seccomp)
        finally:
            self._teardown(run_dir)

    def _run(self, ready, config, home: str, run_dir: str, inherited, seccomp) -> int:
        from wispsh.sandbox import walls as wall
        from wispsh.sandbox.asking import Asker
        from wispsh.sandbox.judge import Judge

        from wispsh.support.netrules import NetError

        try:
            settings = wall.settings(config, **self.walls)
        except NetError as exc:
            raise CannotStart(f"{exc} -- see `wisp run --help` and docs/wisp-run.md (the network)") from None
        layout = layouts.plan(env=self.env, config=config, run_dir=run_dir, wisp_home=home, walls=settings,
                              program=self.program, cwd=os.getcwd())
        for extra in self.extra_protect:
            path = os.path.abspath(os.path.expanduser(extra))
            if not os.path.exists(path):
                raise CannotStart(f"--protect {extra}: no such file or directory")
            layout.protect.append(path)
        if layout.shell_for("/bin/sh") is None:
            raise CannotStart("no /bin/sh found to bind the gate over -- wisp run needs a POSIX shell at /bin/sh")
        self.layout = layout
        self._restore_points(config, settings, layout, home)
        os.mkdir(os.path.join(run_dir, "sock"), 0o700)
        self._write_copies(layout, run_dir)
        self._write_launcher(layout)
        for shell in layout.shells:              # opened outside: inside, these paths are the launcher
            self.shell_fds[shell.real] = os.open(shell.real, os.O_RDONLY | os.O_CLOEXEC)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(layout.socket)
        os.chmod(layout.socket, 0o600)
        self.listener.listen(MAX_CLIENTS)
        layouts.make_placeholders(layout)
        for note in layout.notes:
            self.say(note)
        from wispsh.sandbox.steering import Sentry

        self.sentry = Sentry(layout.watched, os.path.join(home, "held"), self.say)

        if layout.landlock and os.stat(ready.bwrap).st_mode & 0o4000:
            layout.landlock = False           # no_new_privs (Landlock's price) would take a setuid bwrap's setuid
            self.say("bwrap is setuid here: abstract unix sockets are not scoped (Landlock needs no_new_privs)")
        filter_fd = seccomp.filter_fd()
        if layout.landlock:
            from wispsh.sandbox import landlock  # noqa: F401  (imported before the fork its preexec runs in)
        typing_blocked = filter_fd is not None or seccomp.tiocsti_disabled_by_kernel()
        desk = self._desk(config, typing_blocked)
        me = (os.getpid(), procs.create_time(os.getpid()))
        program_env = dict(self.env)
        if layout.writes_wall and wall.ClaudeState.wanted(wall.program_name(self.program), self.env):
            self.claude = wall.ClaudeState(self.env.get("HOME") or os.path.expanduser("~"))
            program_env.update(self.claude.hand_over())
        bridge = None
        if layout.net == "ask":                  # the proxy's listeners, made inside while bwrap waits (netns.py)
            from wispsh.sandbox import netns
            from wispsh.support import netrules

            bridge = netns.Bridge()
            program_env.update(netrules.proxy_env())
        argv = layouts.bwrap_argv(layout, bwrap=ready.bwrap, disable_userns=ready.disable_userns,
                                  seccomp_fd=filter_fd, cwd=os.getcwd(), program=self.program,
                                  **(bridge.fds() if bridge is not None else {}))
        if self.watch_pane:
            self._open_pane()
        try:
            self.child = subprocess.Popen(argv, env=program_env, pass_fds=tuple(inherited) + (
                (filter_fd,) if filter_fd is not None else ()) + (bridge.passed() if bridge is not None else ()),
                preexec_fn=_scope if layout.landlock else None)
        except (OSError, subprocess.SubprocessError) as exc:
            raise CannotStart(f"cannot start {ready.bwrap}: {getattr(exc, 'strerror', None) or exc}") from None
        finally:
            if filter_fd is not None:
                os.close(filter_fd)
            if bridge is not None:
                bridge.started()
        if bridge is not None:
            try:
                listeners = bridge.listen(settings.net.ports)       # before the program starts: bwrap waits
            except OSError as exc:
                self.child.kill()
                self.child.wait()
                raise CannotStart(f"the network wall could not be made here ({exc}) -- `wisp run --net=all` runs "
                                  "with the host's network (no wall), `--net=off` with none") from None
        root = (self.child.pid, procs.start_of(self.child.pid))
        from wispsh.sandbox.view import Views

        self.views = Views(layout=layout, sandbox=root[0], seccomp=filter_fd is not None, sentry=self.sentry,
                           shell_fd=self._shell_fd)
        self.sentry.tick = self.views.keep
        asker = Asker(me=me, desk=desk)
        judge = Judge(layout=layout, wisp_home=home, root=root, asker=asker, env=self.env,
                      views=self.views, sentry=self.sentry, contained=self.contained)
        if self.contained is not None:
            self.contained.start()
        if bridge is not None:
            from wispsh.sandbox.netgrants import Grants
            from wispsh.sandbox.proxy import Proxy

            self.proxy = Proxy(rules=settings.net, grants=Grants(home, layout.project, config.persist_days),
                               asker=asker, home=home, config=judge.config, root=root[0], inside=bridge.inside,
                               agent=wall.program_name(self.program), project=layout.project, line_of=judge.line_of,
                               say=self.say)
            self.proxy.start(listeners)
        acceptor = threading.Thread(target=self._accept, args=(judge,), name="wisp-run-accept", daemon=True)
        acceptor.start()
        self.sentry.start()
        threading.Thread(target=judge.warm, args=(self.stopping,), name="wisp-run-warm", daemon=True).start()
        if desk is None and not self._watchers_running():
            self.say("no `wisp watch` is running: lines that need a person's approval will be refused until "
                     "one runs (start `wisp watch` in another terminal of yours)")
        old = {sig: signal.signal(sig, self._pass_on) for sig in (signal.SIGTERM, signal.SIGHUP)}
        old[signal.SIGINT] = signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the program's
        try:
            if desk is None:
                self.child.wait()              # (Popen.wait with a timeout polls: up to 50 ms late at the end)
            else:
                def ended() -> None:           # wakes the desk at once when the program ends
                    self.child.wait()
                    desk.jobs.put(None)

                threading.Thread(target=ended, name="wisp-run-wait", daemon=True).start()
                while self.child.poll() is None:
                    desk.serve(timeout=1.0)
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
            if desk is not None:
                desk.cancel_all()
        status = self.child.returncode
        return 128 - status if status < 0 else status

    def _restore_points(self, config, settings, layout, home: str) -> None:
        """Restore points of the project (contained.py), unless off (run.restore, --no-restore) or the project
        is the home or / (a scan of everything). Their directory is hidden inside: it holds old contents."""
        from wispsh.sandbox.contained import Contained, walls_contain

        wanted = self.restore if self.restore is not None else config.raw.get("run", {}).get("restore", True)
        if not wanted:
            return
        if layout.project in ("/", os.path.realpath(self.env.get("HOME") or "/")):
            self.say(f"no restore points: the project is {layout.project} (start wisp run in the project's "
                     "directory)")
            return
        contain, why = walls_contain(settings)
        if not contain:
            self.say(f"{why}: nothing is contained, every line from the threshold up is asked")
        import time

        session = f"run-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        self.contained = Contained(home=home, layout=layout, config=config, env=self.env, session=session,
                                   contain=contain)
        self.contained.prepare()
        layout.hide_dirs.append((os.path.dirname(self.contained.journal.where), False))

    def _write_copies(self, layout, run_dir: str) -> None:
        """The empty file shown for a secret one, and the files shown without their secret lines (~/.npmrc):
        written here, bound over the real ones."""
        fd = os.open(os.path.join(run_dir, layouts.EMPTY), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o444)
        os.close(fd)
        if layout.secrets is None or not layout.secrets.copies:
            return
        os.mkdir(os.path.join(run_dir, "shown"), 0o700)
        for n, (path, text) in enumerate(layout.secrets.copies):
            copy = os.path.join(run_dir, "shown", str(n))
            with open(copy, "w") as fh:
                fh.write(text)
            layout.copies.append((copy, path))

    def _write_launcher(self, layout) -> None:
        from wispsh.native.build import current_run

        client = current_run()          # the compiled client in front when it is built for this install
        text = layouts.launcher_text(sys.executable, layout.socket, client=str(client) if client else None)
        fd = os.open(layout.launcher, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o755)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
        os.chmod(layout.launcher, 0o755)
        import py_compile
        from importlib.util import cache_from_source

        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        # the .pycs the launcher's python reads, written now: inside, the package is read-only (the client's,
        # and a gated shell's driver's, which the client starts by its name: compiled, not imported, here)
        for source in ("sandbox/client.py", "session/inside.py"):
            path = os.path.join(package, source)
            try:
                py_compile.compile(path, cfile=cache_from_source(path), doraise=True)
            except (OSError, py_compile.PyCompileError):
                pass

    def _desk(self, config, typing_blocked: bool):
        from wispsh.ask import terminal

        try:
            fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError:
            return None
        from wispsh.sandbox.asking import TerminalDesk

        persons, _why = terminal.terminal_is_persons(terminal._controlling_tty_nr("self"), config)
        if not persons:
            os.close(fd)
            return None
        return TerminalDesk(fd, typing_blocked=typing_blocked)

    def _watchers_running(self) -> bool:
        from wispsh.ask import wire

        where = wire.socket_dir(create=False)
        try:
            return bool(where) and any(n.startswith("watch-") for n in os.listdir(where))
        except OSError:
            return False

    def _pass_on(self, signum, _frame) -> None:
        if self.child is not None and self.child.poll() is None:
            for pid in procs.children(self.child.pid) or [self.child.pid]:
                for inner in procs.children(pid) or [pid]:
                    try:
                        os.kill(inner, signum)
                    except OSError:
                        pass

    # ------------------------------------------------------------ serving

    def _accept(self, judge) -> None:
        """The first thread waiting for requests. Each request is served by the thread that accepted it, a
        thread already waiting in accept(): one started for each request cost ~0.3 ms of its answer (a small
        VM; a build's shells pay it each). The thread that takes the last waiting place starts another; one
        that has served ends when SPARE_SERVERS others are already waiting. A request over MAX_CLIENTS at
        once is closed unserved (the client refuses: went away)."""
        with self.servers:
            self.waiting += 1
        self._server(judge)

    def _server(self, judge) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ECONNABORTED, errno.ENOBUFS, errno.ENOMEM):
                    time.sleep(0.05)            # out of fds for now (or a peer gone): wait on, never give up
                    continue
                with self.servers:
                    self.waiting -= 1
                return
            with self.servers:
                self.waiting -= 1
                over = self.serving >= MAX_CLIENTS
                if not over:
                    self.serving += 1
                another = self.waiting == 0
                if another:
                    self.waiting += 1
            if another:
                try:
                    threading.Thread(target=self._server, args=(judge,), name="wisp-run-serve", daemon=True).start()
                except RuntimeError:            # no thread to be had: this one goes back to waiting after
                    with self.servers:
                        self.waiting -= 1
            if over:
                conn.close()
            else:
                try:
                    self._serve(judge, conn)
                finally:
                    with self.servers:
                        self.serving -= 1
            with self.servers:
                if self.waiting >= SPARE_SERVERS:
                    return
                self.waiting += 1
        with self.servers:
            self.waiting -= 1

    def _serve(self, judge, conn: socket.socket) -> None:
        from wispsh.sandbox import client
        from wispsh.sandbox.judge import BadRequest, parse_request

        fds: list[int] = []
        try:
            conn.settimeout(RECEIVE_SECONDS)
            pid, uid = client.peer(conn)
            body, fds = client.receive(conn, fds_wanted=3)
            if body is None or uid != os.getuid() or pid <= 0:
                return
            conn.settimeout(None)
            # One turn of the judge's lock from the body to the answer (let go while a person is asked or a pipe
            # read): each syscall of a request outside it (a /proc read, a sentry's lstat, the send) let another
            # request's thread take the GIL, and waited for it back (make -j2: the send 0.53 ms, the sentry 0.27).
            # The answer's first write goes under it, bounded by SEND_SECONDS (a peer that does not read cannot
            # hold every shell up), what the socket did not take at once after it.
            later: list = []
            steering = False
            with judge.lock:
                try:
                    req = parse_request(body, pid=pid, uid=uid, stdin_fd=fds[0] if fds else None)
                    if self.sentry is not None:
                        self.sentry.check()
                except BadRequest as exc:
                    from wispsh import invoke

                    outcome = invoke.refusal(f"wispsh: not run: {exc}")
                else:
                    outcome = judge.handle(req, conn=conn)
                    steering = bool(req.view) and len(fds) == 3 and outcome.shell is not None
                if not steering:
                    conn.settimeout(SEND_SECONDS)
                    self._send(conn, outcome, later)
            for rest in later:
                rest()
            if steering:
                outcome = self.views.run(outcome, req, fds, conn, judge)        # a steering line: runs unlocked
                conn.settimeout(SEND_SECONDS)
                self._send(conn, outcome)
        except Exception:                       # the client refuses when its answer never comes
            pass
        finally:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass
            conn.close()

    def _send(self, conn: socket.socket, outcome, later=None) -> None:
        from wispsh.sandbox import answer

        answer.send(conn, outcome, self._shell_fd, later=later)

    def _shell_fd(self, path: str) -> int | None:
        """The fd opened at start on the shell binary at `path` (the judge names the real path it was opened
        by, so the lookup needs no realpath, ~25 us a request; any other path is resolved first)."""
        found = self.shell_fds.get(path)
        return found if found is not None else self.shell_fds.get(os.path.realpath(path))

    # ------------------------------------------------------------ the watch pane and the end

    def _open_pane(self) -> None:
        tmux = shutil.which("tmux")
        if not self.env.get("TMUX") or not tmux:
            raise CannotStart("--watch-pane needs tmux: run wisp run inside tmux, or start `wisp watch` in "
                              "another terminal")
        wisp = shutil.which("wisp", path=os.path.dirname(sys.executable)) or shutil.which("wisp")
        command = [wisp, "watch"] if wisp else [sys.executable, "-c", "from wispsh.cli.wisp import cli; cli()",
                                                "watch"]
        keep = [f"{k}={self.env[k]}" for k in ("WISP_HOME", "XDG_RUNTIME_DIR", "PATH") if self.env.get(k)]
        argv = [tmux, "split-window", "-d", "-h", "-l", "45%", "-P", "-F", "#{pane_id}"]
        for entry in keep:
            argv += ["-e", entry]
        import shlex

        done = subprocess.run(argv + [shlex.join(command)], capture_output=True, text=True, env=self.env,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise CannotStart(f"tmux split-window failed: {done.stderr.strip()}")
        self.pane = done.stdout.strip()
        import time

        from wispsh.ask import wire

        deadline = time.monotonic() + PANE_SECONDS        # questions asked before it listens would find no one
        while time.monotonic() < deadline:
            where = wire.socket_dir(create=False)
            try:
                if where and any(n.startswith("watch-") and n.endswith(".sock") for n in os.listdir(where)):
                    return
            except OSError:
                pass
            time.sleep(0.05)
        self.say(f"the watch pane {self.pane} is not listening yet; questions before it does are refused")

    def _entry_points(self) -> dict[str, tuple]:
        """What `wisp` and `wispsh` on the person's PATH are now: links into the install (~/.local/bin) sit in a
        directory the agent may write, so a link there cannot be made read-only; a change is said at the end."""
        found = {}
        for name in ("wisp", "wispsh"):
            path = shutil.which(name, path=self.env.get("PATH"))
            if path:
                try:
                    st = os.lstat(path)
                    found[path] = (os.path.realpath(path), st.st_ino, st.st_mtime_ns)
                except OSError:
                    pass
        return found

    def _check_entry_points(self) -> None:
        now = self._entry_points()
        for path, before in self.entry_points.items():
            if now.get(path) != before:
                self.say(f"{path} changed while the program ran (now {now.get(path, ('gone',))[0]}): check it before "
                         "you run it again")
        for path in set(now) - set(self.entry_points):
            self.say(f"{path} appeared on your PATH while the program ran: check it before you run it")

    def _teardown(self, run_dir: str) -> None:
        self.stopping.set()
        if self.proxy is not None:
            self.proxy.stop()
        if self.entry_points is not None:
            self._check_entry_points()
        for fd in self.shell_fds.values():
            os.close(fd)
        self.shell_fds.clear()
        if self.listener is not None:
            try:
                self.listener.close()
            except OSError:
                pass
        if self.pane:
            subprocess.run([shutil.which("tmux") or "tmux", "kill-pane", "-t", self.pane], capture_output=True,
                           env=self.env, stdin=subprocess.DEVNULL)
        if self.contained is not None:
            for said in self.contained.close():
                self.say(said)
        if self.claude is not None:
            said = self.claude.hand_back()
            if said:
                self.say(said)
        if self.sentry is not None:
            for said in self.sentry.report() + (self.views.said if self.views is not None else []):
                self.say(said)
        if self.layout is not None:
            for left in layouts.remove_placeholders(self.layout):
                self.say(f"{left} was a placeholder made for this run and has changed; left as it is")
        shutil.rmtree(run_dir, ignore_errors=True)


def _scope() -> None:
    """preexec for bwrap: the Landlock domain of everything inside (landlock.py)."""
    from wispsh.sandbox import landlock

    landlock.restrict()


def main(program: list[str], *, watch_pane: bool = False, protect=(), walls=None, restore=None) -> int:
    try:
        return Supervisor(program, watch_pane=watch_pane, protect=protect, walls=walls, restore=restore).run()
    except CannotStart as exc:
        sys.stderr.write(f"wisp run: cannot start: {exc}\n")
        return 1
