"""Shared by the `wisp run` tests: a private person (HOME, wisp home, runtime dir under tmp), real bwrap, real
processes; a watcher on a real pty. Holds no tests itself."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"
WISP = str(BIN / "wisp")
PY = sys.executable                      # a real interpreter binary (not a #! script): agents run with it


def _machine_lacks():
    """What the machine lacks for `wisp run`, found without the product: bwrap itself, around `true`."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return "machine lacks bwrap"
    true = shutil.which("true") or "/bin/true"
    probe = subprocess.run([bwrap, "--unshare-user", "--unshare-pid", "--dev-bind", "/", "/", "--", true],
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=30)
    return None if probe.returncode == 0 else "machine lacks user namespaces"


LACKS = _machine_lacks()
# bwrap 0.8+: --disable-userns (wisp run uses it when there; older bwrap leaves nested user namespaces possible)
DISABLES_USERNS = LACKS is None and "--disable-userns" in subprocess.run(
    [shutil.which("bwrap"), "--help"], capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout
needs_bwrap = pytest.mark.skipif(LACKS == "machine lacks bwrap", reason="machine lacks bwrap")
needs_userns = pytest.mark.skipif(LACKS == "machine lacks user namespaces", reason="machine lacks user namespaces")


def person(tmp_path: Path, **extra) -> dict:
    """An environment of a person of the test's own: HOME, WISP_HOME, XDG_RUNTIME_DIR under tmp_path."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700, exist_ok=True)
    wisp_home = home / ".wisp"
    wisp_home.mkdir(mode=0o700, exist_ok=True)
    runtime = tmp_path / "rt"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WISP_", "PYTEST_", "TMUX"))}
    env.update(HOME=str(home), WISP_HOME=str(wisp_home), XDG_RUNTIME_DIR=str(runtime), TERM="xterm",
               PATH=f"{BIN}:/usr/local/bin:/usr/bin:/bin", SHELL="/bin/bash")
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_DATA_HOME", None)
    env.update(extra)
    return env


def write_config(env: dict, data: dict) -> None:
    path = Path(env["WISP_HOME"]) / "config.json"
    path.write_text(json.dumps(data))
    path.chmod(0o600)


def wisp_run(env: dict, code: str, cwd: Path, *args: str, timeout: float = 120, program=None,
             options=()) -> subprocess.CompletedProcess:
    """`wisp run -- PY -c CODE ARGS` with no terminal (stdin /dev/null), as CI and detached agents have."""
    program = program or [PY, "-c", textwrap.dedent(code), *args]
    return subprocess.run([WISP, "run", *options, "--", *program], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def audit(env: dict) -> list[dict]:
    path = Path(env["WISP_HOME"]) / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def spawn_watcher(env: dict):
    import pexpect

    child = pexpect.spawn("script", ["-qfc", f"{WISP} watch", "/dev/null"], env=env, encoding="utf-8",
                          dimensions=(40, 100), timeout=30)
    child.expect(r"wisp watch \(pid (\d+)\): waiting for questions")
    return child


def with_password_home(env: dict, argv: list[str], where: Path) -> list[str]:
    """argv run where the password database gives this user `env["HOME"]` as home (a copy of /etc/passwd bound
    over it in a mount namespace of its own, `unshare -m`: root only), as on a machine where HOME is yours."""
    lines = []
    for line in Path("/etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if len(fields) == 7 and fields[2] == str(os.getuid()):
            fields[5] = env["HOME"]
        lines.append(":".join(fields))
    copy = where / "passwd"
    copy.write_text("\n".join(lines) + "\n")
    return ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/passwd && exec "$@"', str(copy), *argv]


# ---------------------------------------------------------------- as an unprivileged user (the suite often runs as root)


def other_user() -> str | None:
    import pwd

    for name in ("tester", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


def run_as(user: str, argv: list[str], **kw) -> subprocess.CompletedProcess:
    """argv as `user` (root only: setpriv); as that user already, simply argv."""
    import pwd

    entry = pwd.getpwnam(user)
    if os.getuid() == entry.pw_uid:
        return subprocess.run(argv, **kw)
    # through sh: setpriv itself execs with root's capabilities still in hand, so the program's path would be
    # looked up as root; sh execs it as the user
    return subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                           "/bin/sh", "-c", 'exec "$@"', "sh", *argv], **kw)


def checkout_path() -> str:
    """PYTHONPATH for a Python that should import this checkout and its dependencies (the venv's site-packages)."""
    import sysconfig

    return f"{REPO}:{sysconfig.get_paths()['purelib']}:{sysconfig.get_paths()['platlib']}"


def interpreter_for(user: str) -> str | None:
    """A Python this user can run that imports this checkout and its dependencies."""
    for python in (os.path.realpath(sys.executable), shutil.which("python3") or "", "/usr/bin/python3"):
        if not python or not os.path.exists(python):
            continue
        probe = run_as(user, [python, "-c", "import wispsh.sandbox.supervisor, tree_sitter_bash, psutil, click"],
                       env={"PATH": "/usr/bin:/bin", "PYTHONPATH": checkout_path()}, capture_output=True, text=True,
                       cwd="/", stdin=subprocess.DEVNULL)
        if probe.returncode == 0:
            return python
    return None


def unprivileged_or_skip() -> tuple[str, str]:
    """(a user other than root, a Python it can run this checkout with); this user when not root."""
    import pwd

    if os.getuid() != 0:
        return pwd.getpwuid(os.getuid()).pw_name, sys.executable
    user = other_user()
    if user is None or not shutil.which("setpriv"):
        pytest.skip("machine lacks root (no unprivileged user or setpriv to become one)")
    python = interpreter_for(user)
    if python is None:
        pytest.skip(f"machine lacks root (user {user} cannot run this checkout's Python: only root reads it)")
    return user, python


# An agent that keeps one shell and writes commands to its stdin (Codex's unified exec without a tty,
# SWE-ReX-style drivers): each command gets its answer before the next one is written.
PIPED_DRIVER = r"""
import json, os, subprocess, sys
shell = sys.argv[1:]
p = subprocess.Popen(shell, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out = []
for n, cmd in enumerate(json.loads(os.environ["CMDS"])):
    p.stdin.write((cmd + f"\necho __END{n}__$?\n").encode()); p.stdin.flush()
    got = b""
    while f"__END{n}__".encode() not in got or not got.endswith(b"\n"):
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        got += chunk
    out.append(got.decode())
p.stdin.close(); p.wait()
print(json.dumps({"out": out, "rc": p.returncode}))
"""
