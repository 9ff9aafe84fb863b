"""The walls of `wisp run`: which places a program inside may write, which it may not read, which host sockets
it may reach. Settings (config `run.*` and the `wisp run` flags) in, lists of places out; layout.py turns them
into bwrap's mounts. Nothing here mounts or makes anything except the cache and agent-state directories a
program being run needs (`prepare`).

- **writes**: `/` read-only; writable the project (the git work tree of the start directory, else the
  directory, and its git directories when a worktree keeps them elsewhere), `run.allowWrite`/`--allow-write`,
  a private /tmp and /var/tmp, the tool caches (CACHES), the agents' own state (AGENT_STATE) less the files
  in it that steer the agent (AGENT_STEERING, read-only).
- **secrets**: the secret stores of policy/places.py (HOME_SECRETS, SYSTEM_SECRETS for root) empty inside:
  an empty tmpfs over a directory, /dev/null over a file, whatever program opens them. In ~/.ssh the files
  that are no secret (config, known_hosts, public keys) stay readable; ~/.npmrc is shown without its token
  lines. The credentials of the agent being run (its login) stay readable: it cannot work without them.
- **sockets**: no host unix socket: a private $XDG_RUNTIME_DIR (D-Bus, Wayland, gpg/ssh agents, podman,
  pulse), the private /tmp (X11, tmux, screen, ssh-agent), /dev/null over every other socket the host has
  bound (/proc/net/unix) and the well-known ones (docker, containerd, podman, the system bus), and abstract
  sockets cut by Landlock's scope (landlock.py). Passed on request: the ssh agent, the gpg agent, the display.
- **nesting**: nested user namespaces allowed (an agent's own sandbox), for users other than root: see
  `nesting_possible`.
- **net**: the network wall (`run.net`, netrules.py): `ask` (a network namespace of its own, the proxy the
  only way out), `off` (no network), `all` (the host's, as before the wall).
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field

from wispsh.vocab.places import is_under

# Package managers' and build tools' caches (relative to home): writable, made when missing if the tool is
# installed (`prepare`). A poisoned cache is not stopped by the walls (docs/wisp-run.md).
CACHES = (
    (".cache", None),                       # XDG: pip, uv, pre-commit, yarn 1, go-build, ccache 4, node-gyp, deno…
    (".npm", "npm"), (".yarn", "yarn"), (".pnpm-store", "pnpm"), (".local/share/pnpm", "pnpm"),
    (".cargo/registry", "cargo"), (".cargo/git", "cargo"), ("go/pkg/mod", "go"), (".m2/repository", "mvn"),
    (".gradle/caches", "gradle"), (".gradle/wrapper", "gradle"), (".ccache", "ccache"), (".bun/install/cache", "bun"),
    (".nuget/packages", "dotnet"), (".ivy2/cache", "sbt"), (".conda/pkgs", "conda"),
)
# The agents' own state (relative to home): what each writes as it runs (sessions, history, logs, its login
# refreshed). Made when missing for the agent being run (`prepare`), by the program's name.
AGENT_STATE = {
    "claude": (".claude", ".claude.json"),
    "codex": (".codex",),
    "gemini": (".gemini",),
    "qwen": (".qwen",),
    "opencode": (".local/share/opencode", ".local/state/opencode", ".config/opencode"),   # (its plugin deps)
    "aider": (".aider",),
    "mini": (".config/mini-swe-agent",),                    # mini-swe-agent: made at its import
    "copilot": (".copilot",),
}
# Inside that state, the files that steer the agent (permissions, hooks, MCP servers, its sandbox and approval
# policy, extensions that are code): read-only, or watched for when missing (steering.py).
AGENT_STEERING = (".claude/settings.json", ".claude/settings.local.json", ".claude/hooks", ".codex/config.toml",
                  ".codex/rules", ".gemini/settings.json", ".gemini/extensions", ".qwen/settings.json",
                  ".copilot/config.json", ".copilot/mcp-config.json",
                  *(f".config/opencode/{n}" for n in ("opencode.json", "opencode.jsonc", "config.json", "plugin",
                                                      "plugins", "tool", "tools", "agent", "agents", "command",
                                                      "commands", "mode", "modes")))
# The agent's own login, by program name: readable when that agent is the program (it needs it).
AGENT_LOGINS = {
    "claude": (".claude/.credentials.json",), "codex": (".codex/auth.json",), "gemini": (".gemini/oauth_creds.json",),
    "qwen": (".qwen/oauth_creds.json",), "opencode": (".local/share/opencode/auth.json",),
    "copilot": (".config/github-copilot/hosts.json", ".config/github-copilot/apps.json"),
}
# In ~/.ssh, what is no secret and ssh needs to work (with --ssh-agent): shown read-only in the empty ~/.ssh.
SSH_SHOWN = ("config", "known_hosts", "known_hosts2", "authorized_keys")
# ~/.gnupg without its private keys, for --gpg-agent (git commit -S verifies and signs through the agent).
GNUPG_SHOWN = ("pubring.kbx", "pubring.gpg", "trustdb.gpg", "gpg.conf", "common.conf", "tofu.db")
# Lines of ~/.npmrc that hold a credential (dropped from the copy shown inside).
NPMRC_SECRET = ("_auth", "_authtoken", "_password", "password", "username", "email", "certfile", "keyfile", "token")
# Host sockets by name, covered even when nothing listens yet (a daemon started later binds the same path).
KNOWN_SOCKETS = ("/run/docker.sock", "/var/run/docker.sock", "/run/podman/podman.sock", "/run/containerd/containerd.sock",
                 "/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket", "/run/systemd/private",
                 "/run/systemd/io.systemd.ManagedOOM", "/run/snapd.socket", "/run/snapd-snap.socket",
                 "/run/user/{uid}/docker.sock", "{home}/.docker/run/docker.sock", "{home}/.colima/default/docker.sock",
                 "{home}/.rd/docker.sock", "/run/lxd/unix.socket", "/var/snap/lxd/common/lxd/unix.socket",
                 "/run/libvirt/libvirt-sock", "/run/cups/cups.sock", "/run/avahi-daemon/socket")


@dataclass
class Settings:
    """What the person asked for: config `run.*`, then the `wisp run` flags."""
    writes: bool = True
    secrets: bool = True
    sockets: bool = True
    nesting: bool = True
    allow_write: list = field(default_factory=list)
    allow_read: list = field(default_factory=list)
    allow_socket: list = field(default_factory=list)
    ssh_agent: bool = False
    gpg_agent: bool = False
    display: bool = False
    net: object = None          # netrules.Settings: the network wall


FLAG_KEYS = {"writes": "writes", "secrets": "secrets", "sockets": "sockets", "nesting": "nesting",
             "sshAgent": "ssh_agent", "gpgAgent": "gpg_agent", "display": "display"}
LIST_KEYS = {"allowWrite": "allow_write", "allowRead": "allow_read", "allowSocket": "allow_socket"}


def settings(config, **flags) -> Settings:
    """config `run.*` first, then the flags (None: not given). Lists add up; a flag turns a wall off or on."""
    section = config.raw.get("run", {}) if isinstance(getattr(config, "raw", None), dict) else {}
    found = Settings()
    for key, name in FLAG_KEYS.items():
        if isinstance(section.get(key), bool):
            setattr(found, name, section[key])
    for key, name in LIST_KEYS.items():
        getattr(found, name).extend(v for v in section.get(key, []) if isinstance(v, str) and v)
    from wispsh.support import netrules

    net_flags = {k: flags.pop(k) for k in ("net", "allow_host", "allow_port") if k in flags}
    found.net = netrules.settings(section.get("net"), mode=net_flags.get("net"), allow=net_flags.get("allow_host") or (),
                                  ports=net_flags.get("allow_port") or ())
    for name, value in flags.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            getattr(found, name).extend(value)
        else:
            setattr(found, name, value)
    return found


def program_name(program: list[str]) -> str:
    """The agent a program is, by its name (`claude`, `/usr/bin/codex`, `node …/bin/gemini`, `strace -f … claude`):
    the first word naming a known agent, else the first word's name."""
    known = set(AGENT_STATE) | set(AGENT_LOGINS)
    for word in program:
        if os.path.basename(word) in known:
            return os.path.basename(word)
    return os.path.basename(program[0]) if program else ""


def under_any(path: str, roots) -> bool:
    return any(is_under(path, r) for r in roots)


# ---------------------------------------------------------------- writes


def git_dirs(project: str) -> list[str]:
    """The project's git directory and common directory when they lie outside it (`git worktree`: .git is a
    file naming them), read from the files as git does, without running git."""
    dot = os.path.join(project, ".git")
    if not os.path.isfile(dot):
        return []
    try:
        with open(dot) as fh:
            head = fh.read(4096)
    except OSError:
        return []
    if not head.startswith("gitdir:"):
        return []
    gitdir = os.path.normpath(os.path.join(project, head[7:].strip()))
    found = [gitdir]
    try:
        with open(os.path.join(gitdir, "commondir")) as fh:
            found.append(os.path.normpath(os.path.join(gitdir, fh.read().strip())))
    except OSError:
        pass
    return [d for d in found if os.path.isdir(d)]


_ON_PATH: dict = {}


def _which(name: str, env) -> bool:
    """Whether `name` is a program on PATH (each PATH directory listed once, not a stat per name and dir)."""
    path = env.get("PATH", "")
    names = _ON_PATH.get(path)
    if names is None:
        names = set()
        for folder in path.split(":"):
            try:
                names.update(os.listdir(folder or "."))
            except OSError:
                continue
        _ON_PATH.clear()
        _ON_PATH[path] = names
    return name in names


def caches(home: str, env) -> list[tuple[str, bool]]:
    """(cache dir, whether to make it when missing): every listed cache that exists, and those of the tools
    installed here (a missing one in a read-only home would fail the tool's first install)."""
    out = []
    xdg = env.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        out.append((os.path.normpath(xdg), True))
    for rel, tool in CACHES:
        path = os.path.join(home, rel)
        out.append((path, tool is None or _which(tool, env)))
    for variable in ("GOMODCACHE", "GOCACHE", "PIP_CACHE_DIR", "UV_CACHE_DIR", "npm_config_cache", "CARGO_HOME",
                     "CCACHE_DIR", "PRE_COMMIT_HOME", "GRADLE_USER_HOME", "YARN_CACHE_FOLDER"):
        value = env.get(variable)
        if value and os.path.isabs(value):
            out.append((os.path.normpath(value), False))
    return out


def agent_state(home: str, program: str) -> list[tuple[str, bool]]:
    """(agent state path, whether to make it when missing: only for the agent being run)."""
    out = []
    for agent, places in AGENT_STATE.items():
        for rel in places:
            out.append((os.path.join(home, rel), agent == program and not rel.endswith(".json")))
    return out


def prepare(places: list[tuple[str, bool]]) -> list[str]:
    """Make the missing directories that are to be made (0700, parents too); the ones that exist after."""
    ready = []
    for path, make in places:
        if not os.path.lexists(path) and make:
            try:
                os.makedirs(path, mode=0o700, exist_ok=True)
            except OSError:
                continue
        if os.path.exists(path):
            ready.append(os.path.realpath(path))
    return ready


# ---------------------------------------------------------------- secrets


@dataclass
class Secrets:
    dirs: list = field(default_factory=list)        # an empty read-only tmpfs over each
    files: list = field(default_factory=list)       # /dev/null over each
    shown: list = field(default_factory=list)       # (real file, path inside): read-only, inside a hidden dir
    copies: list = field(default_factory=list)      # (path, text): a copy without the secret lines over it


def secrets(homes: list[str], settings: Settings, program: str, uid: int) -> Secrets:
    from wispsh.vocab.places import HOME_SECRETS, SYSTEM_SECRETS

    found = Secrets()
    logins = set(AGENT_LOGINS.get(program, ()))
    allowed = [os.path.realpath(os.path.expanduser(p)) for p in settings.allow_read]
    candidates = []
    for home in homes:
        for rel in dict.fromkeys(HOME_SECRETS):
            if rel in logins or rel.startswith("Library/"):
                continue
            candidates.append((os.path.join(home, rel), rel))
    if uid == 0:
        for path in SYSTEM_SECRETS:
            if path.endswith("_"):                     # /etc/ssh/ssh_host_: the private host keys
                folder = os.path.dirname(path)
                try:
                    names = os.listdir(folder)
                except OSError:
                    names = []
                candidates += [(os.path.join(folder, n), n) for n in sorted(names)
                               if n.startswith(os.path.basename(path)) and not n.endswith(".pub")]
            elif path not in ("/etc/sudoers",):        # sudoers: no secret, and sudo reads it
                candidates.append((path, path))
    for path, rel in candidates:
        if not os.path.lexists(path):
            continue
        real = os.path.realpath(path)
        if any(is_under(real, a) for a in allowed):
            continue
        if rel == ".npmrc" and os.path.isfile(real):
            found.copies.append((real, _npmrc_without_secrets(real)))
        elif os.path.isdir(real):
            found.dirs.append(real)
            if rel == ".ssh":
                found.shown += [(os.path.join(real, n), os.path.join(real, n)) for n in _ssh_shown(real)]
            if rel == ".gnupg" and settings.gpg_agent:
                found.shown += [(os.path.join(real, n), os.path.join(real, n)) for n in GNUPG_SHOWN
                                if os.path.isfile(os.path.join(real, n))]
        elif os.path.exists(real):
            found.files.append(real)
    found.dirs = list(dict.fromkeys(found.dirs))
    found.files = [f for f in dict.fromkeys(found.files) if not under_any(f, found.dirs)]
    return found


def _ssh_shown(folder: str) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [n for n in names if (n in SSH_SHOWN or n.endswith(".pub")) and os.path.isfile(os.path.join(folder, n))]


def _npmrc_without_secrets(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return ""
    kept = []
    for line in lines:
        key = line.split("=", 1)[0].strip().lower()
        if any(key.endswith(word) or key.endswith(":" + word) for word in NPMRC_SECRET) or "authtoken" in key:
            kept.append("; (a credential: not shown inside wisp run)")
        else:
            kept.append(line)
    return "\n".join(kept) + "\n"


# ---------------------------------------------------------------- sockets


def host_sockets(uid: int, home: str) -> list[str]:
    """Every unix socket the host has bound to a path (this network namespace's /proc/net/unix), and the
    well-known ones, as they resolve here: what a program inside could connect to."""
    paths = []
    try:
        with open("/proc/net/unix", "rb") as fh:
            next(fh)
            for row in fh:
                fields = row.split(None, 7)
                if len(fields) == 8 and fields[7].startswith(b"/"):
                    paths.append(fields[7].rstrip(b"\n").decode("utf-8", "surrogateescape"))
    except (OSError, StopIteration):
        pass
    paths += [p.format(uid=uid, home=home) for p in KNOWN_SOCKETS]
    found = []
    for path in dict.fromkeys(paths):
        try:
            if stat.S_ISSOCK(os.stat(path).st_mode):
                found.append(os.path.realpath(path))
        except OSError:
            continue
    return list(dict.fromkeys(found))


def passed_sockets(env, settings: Settings) -> tuple[list[str], list[str]]:
    """(sockets passed in at their paths, notes for what was asked and is not there)."""
    passed, notes = [], []

    def give(path: str | None, what: str) -> None:
        if path and os.path.exists(path):
            passed.append(os.path.realpath(path))
        else:
            notes.append(f"{what}: no socket found{f' at {path}' if path else ''}; not passed")

    if settings.ssh_agent:
        give(env.get("SSH_AUTH_SOCK"), "--ssh-agent ($SSH_AUTH_SOCK)")
    if settings.gpg_agent:
        give(_gpg_agent_socket(env), "--gpg-agent")
    if settings.display:
        x11 = "/tmp/.X11-unix"
        if os.path.isdir(x11):
            passed.append(x11)
        wayland = env.get("WAYLAND_DISPLAY")
        runtime = env.get("XDG_RUNTIME_DIR")
        if wayland and runtime:
            give(os.path.join(runtime, wayland) if not os.path.isabs(wayland) else wayland, "--display (Wayland)")
        if env.get("XAUTHORITY") and os.path.exists(env["XAUTHORITY"]):
            passed.append(env["XAUTHORITY"])
    for extra in settings.allow_socket:
        give(os.path.expanduser(extra), f"--allow-socket {extra}")
    return list(dict.fromkeys(passed)), notes


def _gpg_agent_socket(env) -> str | None:
    import shutil
    import subprocess

    tool = shutil.which("gpgconf", path=env.get("PATH"))
    if not tool:
        return None
    try:
        done = subprocess.run([tool, "--list-dirs", "agent-socket"], capture_output=True, text=True, timeout=5,
                              env=env, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


# ---------------------------------------------------------------- nesting


def nesting_possible(uid: int) -> tuple[bool, str]:
    """Whether an agent's own sandbox can start inside, and why not. As root it cannot, on purpose: kuid 0
    may write the kernel's sysctls in any fresh /proc (kernel.core_pattern runs a program as the host's root),
    so /proc/sys is covered read-only inside, and the kernel then refuses a nested namespace its own /proc."""
    if uid == 0:
        return False, ("as root: root may write the kernel's settings through any new /proc (kernel.core_pattern "
                       "runs a program as the host's root), so /proc/sys is read-only inside and no nested "
                       "namespace may mount a /proc of its own; run wisp run as a user to nest sandboxes")
    return True, "nested user namespaces allowed; the walls are mounts they cannot undo (locked)"


# ---------------------------------------------------------------- Claude Code's ~/.claude.json


class ClaudeState:
    """Claude Code keeps its global state in ~/.claude.json and saves it by a lock directory and a temporary
    file beside it, renamed over it: in the home, which is read-only inside. So, for `wisp run -- claude` with
    no CLAUDE_CONFIG_DIR of the person's, Claude is given CLAUDE_CONFIG_DIR=~/.claude (settings.json stays
    where it is: that is already its directory) and a copy of ~/.claude.json there, in its writable state;
    what it saved there is written back to ~/.claude.json at the end (by rename, as Claude would) and the copy
    removed."""

    def __init__(self, home: str):
        self.real = os.path.join(home, ".claude.json")
        self.copy = os.path.join(home, ".claude", ".claude.json")
        self.made = None

    @classmethod
    def wanted(cls, program: str, env) -> bool:
        return program == "claude" and not env.get("CLAUDE_CONFIG_DIR")

    def hand_over(self) -> dict:
        """Make the copy; the variables the program is started with. Nothing when a copy is there already
        (a run that did not end, or the person's own file): then it is used as it is and left."""
        if os.path.lexists(self.copy) or not os.path.isdir(os.path.dirname(self.copy)):
            return {}
        import shutil

        if os.path.isfile(self.real):
            shutil.copy2(self.real, self.copy)
        st = os.lstat(self.copy) if os.path.exists(self.copy) else None
        self.made = (st.st_ino, st.st_mtime_ns, st.st_size) if st else ()
        return {"CLAUDE_CONFIG_DIR": os.path.dirname(self.copy)}

    def hand_back(self) -> str | None:
        """Write what Claude saved back to ~/.claude.json; what was said, if anything went wrong."""
        if self.made is None:
            return None
        try:
            st = os.lstat(self.copy)
        except FileNotFoundError:
            return None
        try:
            if not stat.S_ISREG(st.st_mode):
                return f"{self.copy} is not a file any more: left as it is, {self.real} unchanged"
            if (st.st_ino, st.st_mtime_ns, st.st_size) != self.made:
                tmp = f"{self.real}.wisp-run.{os.getpid()}"
                with open(self.copy, "rb") as src, open(tmp, "wb") as dst:
                    dst.write(src.read())
                os.chmod(tmp, stat.S_IMODE(os.stat(self.real).st_mode) if os.path.exists(self.real) else 0o600)
                os.replace(tmp, self.real)
            os.unlink(self.copy)
        except OSError as exc:
            return f"could not write Claude Code's state back to {self.real}: {exc.strerror or exc} (it is in {self.copy})"
        return None
