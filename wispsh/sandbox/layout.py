"""What the `wisp run` namespace looks like, and the bwrap argv that makes it.

With the walls (walls.py says which places; steering.py which files steer tools): `/` read-only, the project,
caches and agents' state writable, a private /tmp, /var/tmp, /dev and $XDG_RUNTIME_DIR, the secret stores
empty, the host's unix sockets covered, /proc/sys read-only for root, and a network namespace of its own
(`--unshare-net`, unless run.net.mode is "all"; the proxy's listener is made inside it: netns.py). Without the write wall, everything is
as outside (`--dev-bind / /`: the same files, devices, network, terminal, environment) except what follows;
with it, what follows holds too:

- **Shells.** Every sh, bash, dash, zsh, ksh (and ksh93, mksh, rbash) found in the system directories, on
  PATH, or named in config `shell.*` is resolved (/bin is often a link to /usr/bin, /bin/sh a link to dash) and
  the launcher (client.py) is bound read-only over the resolved file. The real binaries have no path inside:
  the supervisor opens them before the namespace exists and hands the client an fd with each answer, which
  the client execs (fexecve). Nothing in mountinfo or the environment names them.
- **Read-only** (`--ro-bind P P`): the gate's own files (wisp home, wispsh's package, virtual environment,
  shims and launchers, the interpreter and standard library the gate runs on, bwrap), the shell start-up files,
  ~/.ssh, ~/.gnupg, ~/.gitconfig, ~/.config/git, ~/.config/autostart, ~/.config/systemd/user, the agents'
  shell-snapshot directories, plus config `run.protect`. For root also the system's directories (/etc, /usr,
  /boot, /var/spool/cron): uid 0 inside owns them, and a file written there runs later outside.
- **Hidden** (an empty tmpfs, or /dev/null over a socket): wisp's runtime directories (grants, `wisp watch`
  sockets: no answer can come from inside), tmux and screen sockets (send-keys would type into a `wisp watch`
  pane), the systemd user manager's private socket and the session bus (systemd-run --user runs commands
  outside), for root the system bus and systemd's private socket; plus config `run.hide`.

A protected path that does not exist yet gets a placeholder, made before the namespace starts and removed
when `wisp run` ends if it is still as made, only where its existence changes nothing for the programs
that read it: an empty file for ~/.bashrc, ~/.bash_logout, ~/.profile, the zsh files, ~/.gitconfig; an empty
directory (0700) for ~/.ssh, ~/.gnupg, ~/.config/git, ~/.config/autostart, ~/.config/systemd/user and the
snapshot directories of agents whose home exists; for ~/.bash_profile and ~/.bash_login (an empty one would
hide ~/.profile from bash) a file that reads on exactly as bash would without it. Start-up files under a $HOME
that is not the password database's get none: wispsh judges any start-up file there as code. Anything else
that is missing (a `run.protect` entry) is not protected, and wisp run says so.
"""
from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass, field

from wispsh.vocab.shells import BOUND_IN_SANDBOX

SYSTEM_DIRS = ("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin")

RC_FILES = (".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout",
            ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout")
HOME_DIRS = (".ssh", ".gnupg", ".config/git", ".config/autostart", ".config/systemd/user")
HOME_FILES = (".gitconfig",)
# (the agent's home, its variable, the snapshot directory in it)
SNAPSHOT_DIRS = ((".claude", "CLAUDE_CONFIG_DIR", "shell-snapshots"), (".codex", "CODEX_HOME", "shell_snapshots"))
ROOT_SYSTEM = ("/etc", "/usr", "/boot", "/var/spool/cron", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/opt")
CGROUPS = "/sys/fs/cgroup"

EMPTY_OK = frozenset({".bashrc", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
                      ".zlogout", ".gitconfig"})
# bash -l reads the first of these three that exists: a stand-in for a missing one reads on as bash would
READS_ON = {
    ".bash_profile": ('if [ -r "$HOME/.bash_login" ]; then . "$HOME/.bash_login"; '
                      'elif [ -r "$HOME/.profile" ]; then . "$HOME/.profile"; fi\n'),
    ".bash_login": '[ -r "$HOME/.profile" ] && . "$HOME/.profile"\n',
}
EMPTY = "empty"                  # in the run dir: the empty file bound over a secret file
PLACEHOLDER_HEAD = ("# wisp run: a read-only stand-in while wisp run runs (it did not exist); removed when wisp run "
                    "ends.\n")


@dataclass(frozen=True)
class Shell:
    real: str                    # the resolved binary (outside; inside, this path is the launcher)
    family: str                  # bash, dash, zsh, ksh, sh: how its argv is read
    paths: tuple[str, ...]       # the names it was found under


@dataclass
class Placeholder:
    path: str
    kind: str                    # "file" or "dir"
    content: bytes = b""
    made: list = field(default_factory=list)    # what was created (the path and any parent), for removal
    inode: tuple = ()


@dataclass
class Layout:
    run_dir: str                 # the supervisor's private directory (outside: 0700)
    socket: str                  # the request socket
    launcher: str                # the launcher file bound over each shell
    shells: list[Shell]
    protect: list[str]           # read-only
    hide_dirs: list[tuple[str, bool]]    # (dir, writable tmpfs)
    hide_files: list[str]        # sockets and files: /dev/null over them
    placeholders: list[Placeholder]
    notes: list[str]             # what could not be protected, said at start
    writes_wall: bool = False    # / read-only (else --dev-bind / / as round 1)
    private: list = field(default_factory=list)     # (dir, mode): an empty writable tmpfs (/tmp, the runtime dir)
    reveal: list = field(default_factory=list)      # paths under a private dir shown again (read-only)
    writable: list = field(default_factory=list)    # bound read-write (the project, caches, agent state)
    make_dirs: list = field(default_factory=list)   # made inside a private dir ($TMPDIR under /tmp)
    steering: list = field(default_factory=list)    # steering files: read-only binds (steering.py)
    watched: list = field(default_factory=list)     # steering files that did not exist: watched (steering.py)
    secrets: object = None                          # walls.Secrets: hidden
    sockets: list = field(default_factory=list)     # host sockets: /dev/null over them
    passed: list = field(default_factory=list)      # sockets (and the display's files) bound in as they are
    proc_sys: bool = False       # /proc/sys read-only (root: kuid 0 may write sysctls)
    nesting: bool = False        # nested user namespaces allowed (no --disable-userns)
    landlock: bool = False       # abstract sockets and signals scoped (landlock.py)
    project: str = ""
    copies: list = field(default_factory=list)      # (copy in the run dir, path): shown instead of the file
    net: str = "ask"             # the network wall (netrules.MODES): "ask"/"off" a network namespace, "all" the host's

    def shell_for(self, path: str) -> Shell | None:
        """The shell whose launcher answers an exec of `path` (as the process inside named it)."""
        from wispsh.support.realpath import real as resolved

        real = resolved(path)
        for shell in self.shells:
            if shell.real == real:
                return shell
        return None


def family_of(real: str) -> str:
    base = os.path.basename(real)
    for prefix, family in (("bash", "bash"), ("rbash", "bash"), ("dash", "dash"), ("zsh", "zsh"),
                           ("ksh", "ksh"), ("mksh", "ksh")):
        if base.startswith(prefix):
            return family
    return "sh"


def find_shells(env, config) -> list[Shell]:
    from wispsh.realshell import is_wispsh

    places = list(SYSTEM_DIRS) + [d for d in env.get("PATH", "").split(":") if d.startswith("/")]
    seen: dict[str, list[str]] = {}
    candidates = [os.path.join(d, n) for d in dict.fromkeys(places) for n in BOUND_IN_SANDBOX]
    candidates += [p for p in (*config.shells.values(), *config.known_shells) if p]
    for path in candidates:
        try:
            real = os.path.realpath(path)
            st = os.stat(real)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or not st.st_mode & 0o111 or is_wispsh(real):
            continue
        seen.setdefault(real, []).append(path)
    return [Shell(real, family_of(real), tuple(paths)) for real, paths in seen.items()]


def gate_files(env) -> list[str]:
    """The gate's own files: its package, interpreter and environment, shims and launchers, bwrap."""
    import sysconfig

    import wispsh
    from wispsh.agents.shims import default_dir

    paths = [os.path.dirname(os.path.abspath(wispsh.__file__)), sys.prefix, sys.base_prefix,
             os.path.realpath(sys.executable), str(default_dir(env)), str(default_dir(env).parent)]
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        where = sysconfig.get_paths().get(key)
        if where:
            paths.append(where)
    for name in ("bwrap",):
        import shutil

        found = shutil.which(name)
        if found:
            paths.append(os.path.realpath(found))
    return paths


def _homes(env) -> list[str]:
    from wispsh.config import user_home

    homes = [user_home()]
    if env.get("HOME") and os.path.isabs(env["HOME"]):
        homes.append(env["HOME"])
    return list(dict.fromkeys(os.path.normpath(h) for h in homes))


def _config_homes(env, home: str) -> list[str]:
    """~/.config and $XDG_CONFIG_HOME, once each (XDG_CONFIG_HOME=$HOME/.config names the same place)."""
    places = [os.path.join(home, ".config")]
    xdg = env.get("XDG_CONFIG_HOME")
    if xdg and os.path.isabs(xdg):
        places.append(os.path.normpath(xdg))
    return list(dict.fromkeys(places))


def plan(*, env, config, run_dir: str, wisp_home: str, uid: int | None = None, walls=None, program=(),
         cwd: str | None = None) -> Layout:
    """The namespace for this run. Nothing is made here but the missing cache and agent-state directories of
    the tools and agent at hand (walls.prepare); placeholders are made by make_placeholders.
    walls: walls.Settings (None: every wall on); program: what `wisp run` starts (its agent's state and login)."""
    from wispsh.policy.context import runtime_dirs
    from wispsh.sandbox import steering
    from wispsh.sandbox import walls as wall

    uid = os.getuid() if uid is None else uid
    walls = wall.Settings() if walls is None else walls
    cwd = os.path.realpath(cwd or os.getcwd())
    agent = wall.program_name(list(program))
    socket_path = os.path.join(run_dir, "sock", "req.sock")
    protect: list[str] = []
    placeholders: list[Placeholder] = []
    notes: list[str] = []
    homes = _homes(env)
    project = os.path.realpath(_project_root(cwd))

    # ---- what is writable (the writes wall): everything else is read-only
    private: list[tuple[str, str]] = []
    writable: list[str] = []
    make_dirs: list[str] = []
    if walls.writes:
        private += [("/tmp", "1777"), ("/var/tmp", "1777")]
        if project in ("/", *homes):
            notes.append(f"the start directory's project is {project}: all of it is writable inside "
                         "(start wisp run in the project's directory)")
        writable += [project, *wall.git_dirs(project)]
        for extra in walls.allow_write:
            path = os.path.realpath(os.path.join(project, os.path.expanduser(extra)))
            if os.path.isdir(path) or os.path.isfile(path):
                writable.append(path)
            else:
                notes.append(f"--allow-write/run.allowWrite {extra}: no such file or directory, not writable")
        here = env.get("HOME") if env.get("HOME") and os.path.isabs(env["HOME"]) else homes[0]
        writable += wall.prepare(wall.caches(here, env) + wall.agent_state(here, agent))   # where tools write
    if walls.sockets:
        runtime = env.get("XDG_RUNTIME_DIR")
        if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
            private.append((os.path.realpath(runtime), "0700"))
    private_dirs = [d for d, _ in private]
    tmpdir = env.get("TMPDIR")
    if tmpdir and os.path.isabs(tmpdir) and walls.writes:
        tmpdir = os.path.realpath(tmpdir) if os.path.exists(tmpdir) else os.path.normpath(tmpdir)
        if wall.under_any(tmpdir, private_dirs) and tmpdir not in private_dirs:
            make_dirs.append(tmpdir)
        elif not wall.under_any(tmpdir, writable + private_dirs):
            private.append((tmpdir, "0700"))
    writable = list(dict.fromkeys(writable))

    def in_writable(path: str) -> bool:
        return not walls.writes or wall.under_any(path, writable)

    def keep(path: str, *, kind: str | None = None, content: bytes = b"") -> None:
        if path in protect:             # named twice ($XDG_CONFIG_HOME is ~/.config): one placeholder
            return
        if os.path.lexists(path):
            if os.path.islink(path) and in_writable(path):
                notes.append(f"{path} is a symbolic link: its target is read-only inside, the link itself is not "
                             "(protect its directory with run.protect)")
            if os.path.exists(path):
                protect.append(path)
            return
        # missing: read-only anyway where nothing is writable; elsewhere a placeholder (once per path)
        if kind is not None and in_writable(path) and all(ph.path != path for ph in placeholders):
            placeholders.append(Placeholder(path, kind, content))
            protect.append(path)

    protect.append(wisp_home)
    for path in gate_files(env):
        if os.path.exists(path):
            protect.append(path)
    from wispsh.config import user_home

    own_home = env.get("HOME") if env.get("HOME") and os.path.isabs(env["HOME"]) else None
    real_home = os.path.normpath(user_home())
    unguarded: list[str] = []
    hidden_home = (".ssh", ".gnupg") if walls.secrets else ()
    for home in homes:
        # Placeholders only in $HOME, where the shells inside read their start-up files. A password-database
        # home that differs keeps what exists read-only, and what is missing there is said. A $HOME that is
        # not the password database's gets no start-up file placeholders: wispsh judges every start-up file
        # under such a HOME as code (invocation.py implicit_code), so a missing one that appears is asked about.
        here_too = own_home is None or os.path.normpath(own_home) == home
        moved = home != real_home

        def keep_home(path: str, *, kind: str | None = None, content: bytes = b"") -> None:
            if here_too or os.path.lexists(path):
                keep(path, kind=kind, content=content)
            elif kind is not None and in_writable(path):
                unguarded.append(path)

        for name in RC_FILES:
            if name in EMPTY_OK:
                keep_home(os.path.join(home, name), kind=None if moved else "file")
            elif name in READS_ON:
                keep_home(os.path.join(home, name), kind=None if moved else "file",
                          content=(PLACEHOLDER_HEAD + READS_ON[name]).encode())
        for name in HOME_FILES:
            keep_home(os.path.join(home, name), kind="file")
        for name in (".ssh", ".gnupg"):          # an existing one is hidden by the secret wall instead
            if name not in hidden_home or not os.path.isdir(os.path.join(home, name)):
                keep_home(os.path.join(home, name), kind="dir")
        for base in dict.fromkeys(_config_homes(env, home)):
            for name in ("git", "autostart", "systemd/user"):
                keep_home(os.path.join(base, name), kind="dir")
        for agent_home, variable, snapshots in SNAPSHOT_DIRS:
            where = env.get(variable) if env.get(variable) and os.path.isabs(env[variable]) else \
                os.path.join(home, agent_home)
            keep_home(os.path.join(where, snapshots), kind="dir" if os.path.isdir(where) else None)
    if unguarded:
        notes.append(f"not protected (missing, and not under $HOME, where placeholders go): {', '.join(unguarded)}")
    for extra in _run_list(config, "protect"):
        path = os.path.join(project, os.path.expanduser(extra))   # relative: to the project (git work tree)
        if os.path.exists(path):
            protect.append(path)
        else:
            notes.append(f"run.protect {extra}: does not exist, not protected")
    if uid == 0 and not walls.writes:
        for path in ROOT_SYSTEM:
            if os.path.isdir(path) and not os.path.islink(path):
                protect.append(path)
    if os.path.isdir(CGROUPS):     # cgroup.kill or cgroup.freeze there would stop the supervisor too
        protect.append(CGROUPS)

    # ---- files that steer tools (steering.py): read-only where they exist, watched where they do not
    steer_paths = steering.project_paths(project, wall.git_dirs(project)) + steering.home_paths(homes)
    steer, watched = steering.split(steer_paths, writable if walls.writes else ["/"])

    # ---- secrets: empty inside
    secret = wall.secrets(homes, walls, agent, uid) if walls.secrets else wall.Secrets()
    protect = [p for p in dict.fromkeys(protect) if not wall.under_any(os.path.realpath(p), secret.dirs)
               and os.path.realpath(p) not in secret.files]

    # ---- sockets
    hide_dirs: list[tuple[str, bool]] = []
    hide_files: list[str] = []
    for place in runtime_dirs(env):
        if os.path.isdir(place):
            hide_dirs.append((place, False))
    runtime = env.get("XDG_RUNTIME_DIR") or f"/run/user/{uid}"
    tmp = env.get("TMUX_TMPDIR") or "/tmp"
    for place, writable_tmpfs in ((os.path.join(tmp, f"tmux-{uid}"), True), (f"/tmp/tmux-{uid}", True),
                                  (os.path.join(runtime, "systemd"), False), (os.path.join(runtime, "wezterm"), False),
                                  (env.get("SCREENDIR") or "", True), (f"/run/screen/S-{_user_name(uid)}", True),
                                  (f"/var/run/screen/S-{_user_name(uid)}", True)):
        if place and os.path.isdir(place) and not any(place == d for d, _ in hide_dirs):
            hide_dirs.append((os.path.realpath(place), writable_tmpfs))
    files = [os.path.join(runtime, "bus"), os.path.join(wisp_home, "grants.key")]   # the key signs grants
    if uid == 0:
        files += ["/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket", "/run/systemd/private"]
    for extra in _run_list(config, "hide"):
        path = os.path.expanduser(extra)
        if os.path.isdir(path):
            hide_dirs.append((path, False))
        elif os.path.lexists(path):
            files.append(path)
    for path in files:
        if os.path.lexists(path) and not os.path.isdir(path):
            hide_files.append(os.path.realpath(path))
    passed, said = wall.passed_sockets(env, walls) if (walls.sockets or walls.ssh_agent) else ([], [])
    notes += said
    # what lies under a private dir and must still be seen there: homes, the gate, the wisp home
    named = [w for w in program if os.path.isabs(w) and os.path.exists(w)]     # `wisp run -- python /tmp/x.py`
    reveal = [os.path.realpath(p) for p in dict.fromkeys([*homes, wisp_home, *gate_files(env), *named])
              if os.path.exists(p) and wall.under_any(os.path.realpath(p), private_dirs)
              and not wall.under_any(os.path.realpath(p), writable)]
    seen = reveal + writable + passed

    def unseen(path: str) -> bool:          # under a private dir and not shown again there: gone inside
        return wall.under_any(path, private_dirs) and not wall.under_any(path, seen)

    sockets: list[str] = []
    if walls.sockets:
        home = homes[0] if homes else "/"
        covered = secret.dirs + [d for d, _ in hide_dirs] + [run_dir]
        sockets = [s for s in wall.host_sockets(uid, home) if not unseen(s) and not wall.under_any(s, covered)
                   and not wall.under_any(s, passed) and s not in hide_files]
    hide_dirs = [(d, w) for d, w in hide_dirs if not unseen(d)]
    hide_files = [f for f in dict.fromkeys(hide_files) if not unseen(f)]

    from wispsh.sandbox import landlock

    nesting = walls.nesting and wall.nesting_possible(uid)[0]
    return Layout(run_dir=run_dir, socket=socket_path, launcher=os.path.join(run_dir, "launcher"),
                  shells=find_shells(env, config),
                  protect=list(dict.fromkeys(protect)), hide_dirs=hide_dirs, hide_files=hide_files,
                  placeholders=placeholders, notes=notes, writes_wall=walls.writes, private=private,
                  reveal=reveal, writable=writable, make_dirs=make_dirs,
                  steering=steer, watched=watched, secrets=secret, sockets=sockets, passed=passed,
                  proc_sys=uid == 0, nesting=nesting, landlock=walls.sockets and landlock.can_scope(),
                  project=project, net=walls.net.mode if walls.net is not None else "ask")


def _project_root(cwd: str) -> str:
    from wispsh.policy.context import find_project_root

    return find_project_root(cwd)


def _user_name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _run_list(config, key: str) -> list[str]:
    section = config.raw.get("run", {}) if isinstance(config.raw, dict) else {}
    value = section.get(key, []) if isinstance(section, dict) else []
    return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []


# ---------------------------------------------------------------- placeholders


def make_placeholders(layout: Layout) -> None:
    """Create the missing protected paths as planned (before the namespace starts)."""
    for ph in layout.placeholders:
        missing = []
        parent = os.path.dirname(ph.path)
        while not os.path.exists(parent):
            missing.append(parent)
            parent = os.path.dirname(parent)
        for directory in reversed(missing):
            os.mkdir(directory, 0o700)
            ph.made.append(directory)
        if ph.kind == "dir":
            os.mkdir(ph.path, 0o700)
        else:
            fd = os.open(ph.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            try:
                os.write(fd, ph.content)
            finally:
                os.close(fd)
        st = os.lstat(ph.path)
        ph.inode = (st.st_dev, st.st_ino)
        ph.made.append(ph.path)


def remove_placeholders(layout: Layout) -> list[str]:
    """Remove the placeholders that are still as made, then the directories made for them (deepest first);
    returns the placeholders left in place because something changed them."""
    left = []
    for ph in reversed(layout.placeholders):
        if not ph.inode:
            continue
        try:
            st = os.lstat(ph.path)
        except FileNotFoundError:
            continue
        if (st.st_dev, st.st_ino) != ph.inode:
            left.append(ph.path)
            continue
        try:
            if ph.kind == "dir":
                os.rmdir(ph.path)
            else:
                with open(ph.path, "rb") as fh:
                    if fh.read(len(ph.content) + 1) != ph.content:
                        left.append(ph.path)
                        continue
                os.unlink(ph.path)
        except OSError:
            left.append(ph.path)
    parents = {d for ph in layout.placeholders for d in ph.made[:-1]}
    for directory in sorted(parents, key=lambda d: d.count("/"), reverse=True):
        try:
            os.rmdir(directory)
        except OSError:
            pass
    return left


# ---------------------------------------------------------------- launcher and bwrap


def launcher_text(python: str, socket_path: str, client: str | None = None) -> str:
    """The launcher bound over every shell. `client`: the compiled client (native/client.c), named on the
    `#!` line with the socket when both fit there; the file is then never read by Python, but keeps the
    Python launcher's lines (client.inside_run reads the socket from them)."""
    import wispsh

    if any(c in python for c in " \t\n") or len(python) + 6 > 255:
        raise ValueError(f"{python} cannot be named on a #! line")
    if any(c in socket_path for c in "'\\\n\0") or not socket_path.isprintable():
        raise ValueError(f"the socket path {socket_path!r} has characters the launcher cannot hold")
    package = os.path.dirname(os.path.abspath(wispsh.__file__))
    here = os.path.join(package, "sandbox")
    support = os.path.join(package, "support")      # inherited.py, the one module client.py imports
    # client.py imported from its own directory as a top-level module: neither package's __init__ runs, and
    # it imports nothing of wispsh but support/inherited.py, as a top-level module too (the same files the
    # supervisor imports as wispsh.sandbox.client and wispsh.support.inherited)
    first = f"#!{python} -IS\n"
    if client and not any(c in client for c in " \t\n") and len(client) + len(socket_path) + 10 <= 255:
        first = f"#!{client} --run={socket_path}\n"
    return (first +
            "# wispsh-run-launcher: bound over every shell in a `wisp run` namespace; the supervisor outside\n"
            "# judges each line and this only runs what it says (wispsh/sandbox/client.py).\n"
            "import sys\n"
            f"sys.path[:0] = [{here!r}, {support!r}]\n"
            "from client import main\n"
            f"main(b'{socket_path}', sys.argv)\n")


def bwrap_argv(layout: Layout, *, bwrap: str, disable_userns: bool, seccomp_fd: int | None, cwd: str,
               program: list[str], info_fd: int | None = None, block_fd: int | None = None) -> list[str]:
    """The mounts in the order they must be made: what comes later may sit inside what came before (a
    protected file inside the writable project, a shown file inside a hidden directory). info_fd, block_fd:
    bwrap says its child's pid on the first, and waits on the second before it starts the program (the
    supervisor makes the proxy's listeners inside meanwhile: netns.py)."""
    argv = [bwrap, "--unshare-user"]
    if disable_userns and not layout.nesting:
        argv.append("--disable-userns")     # no nested user namespace: nothing inside can remount what we bound
    argv += ["--unshare-pid", "--die-with-parent", "--cap-drop", "ALL"]
    if layout.net != "all":                 # the network wall: a network namespace of its own (loopback only)
        argv.append("--unshare-net")
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    if block_fd is not None:
        argv += ["--block-fd", str(block_fd)]
    if layout.writes_wall:
        argv += ["--ro-bind", "/", "/", "--dev", "/dev"]
    else:
        argv += ["--dev-bind", "/", "/"]
    argv += ["--proc", "/proc"]
    if layout.proc_sys:                     # kuid 0 may write every sysctl (kernel.core_pattern) through a new proc
        argv += ["--ro-bind", "/proc/sys", "/proc/sys"]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    else:
        argv.append("--new-session")        # no filter for this machine: no shared terminal to type into
    for directory, mode in layout.private:
        argv += ["--perms", mode, "--tmpfs", directory]
    for directory in layout.make_dirs:
        argv += ["--perms", "0700", "--dir", directory]
    for path in layout.reveal:
        argv += ["--ro-bind", path, path]
    for path in layout.writable:
        argv += ["--bind", path, path]
    for path in layout.protect + layout.steering:        # after the writable places: they may sit inside
        argv += ["--ro-bind", path, path]
    secrets = layout.secrets
    if secrets is not None:
        for directory in secrets.dirs:
            argv += ["--perms", "0700", "--tmpfs", directory]
        for real, inside in secrets.shown:
            argv += ["--ro-bind", real, inside]
        for path in secrets.files:            # an empty file (the run dir's): reads as empty, as /dev/null would
            argv += ["--ro-bind", os.path.join(layout.run_dir, EMPTY), path]
    for copy, path in layout.copies:
        argv += ["--ro-bind", copy, path]
    for directory, _writable in layout.hide_dirs:
        argv += ["--perms", "0700", "--tmpfs", directory]
    for path in layout.hide_files + layout.sockets:
        argv += ["--ro-bind", "/dev/null", path]
    for path in layout.passed:
        argv += ["--bind", path, path]
    argv += ["--ro-bind", layout.run_dir, layout.run_dir]
    for directory, writable in layout.hide_dirs:        # read-only once the run dir is bound back inside
        if not writable:
            argv += ["--remount-ro", directory]
    for directory in (secrets.dirs if secrets is not None else ()):
        argv += ["--remount-ro", directory]
    for shell in layout.shells:
        argv += ["--ro-bind", layout.launcher, shell.real]
    argv += ["--chdir", cwd, "--", *program]
    return argv
