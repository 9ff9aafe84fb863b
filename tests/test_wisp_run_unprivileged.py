"""`wisp run` as an unprivileged user (the suite itself often runs as root, CI too): the same namespace made by
bwrap --unshare-user, the same gate, the same read-only files, with the user's own uid inside."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path

import pytest

from run_support import REPO, needs_bwrap, needs_userns

pytestmark = [needs_bwrap, needs_userns]


def _user() -> str | None:
    for name in ("tester", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


def _as(user: str, argv: list[str], **kw) -> subprocess.CompletedProcess:
    entry = pwd.getpwnam(user)
    # through sh: setpriv itself execs with root's capabilities still in hand, so the program's path would be
    # looked up as root; sh execs it as the user
    return subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                           "/bin/sh", "-c", 'exec "$@"', "sh", *argv], **kw)


def _interpreter(user: str) -> str | None:
    """A Python this user can run that imports this checkout and its dependencies (the venv's site-packages)."""
    paths = f"{REPO}:{sysconfig.get_paths()['purelib']}:{sysconfig.get_paths()['platlib']}"
    for python in (os.path.realpath(sys.executable), shutil.which("python3") or "", "/usr/bin/python3"):
        if not python or not os.path.exists(python):
            continue
        probe = _as(user, [python, "-c", "import wispsh.sandbox.supervisor, tree_sitter_bash, psutil, click"],
                    env={"PATH": "/usr/bin:/bin", "PYTHONPATH": paths}, capture_output=True, text=True,
                    cwd="/", stdin=subprocess.DEVNULL)
        if probe.returncode == 0:
            return python
    return None


def test_wisp_run_as_an_unprivileged_user(tmp_path):
    if os.getuid() != 0:
        user, python = pwd.getpwuid(os.getuid()).pw_name, sys.executable
    else:
        user = _user()
        if user is None or not shutil.which("setpriv"):
            pytest.skip("machine lacks root (no unprivileged user or setpriv to become one)")
        python = _interpreter(user)
        if python is None:
            pytest.skip(f"machine lacks root (user {user} cannot run this checkout's Python: only root reads it)")
    entry = pwd.getpwnam(user)
    root = Path(tempfile.mkdtemp(prefix="wisp-unpriv-", dir="/tmp"))
    try:
        home, work = root / "home", root / "work"
        for d in (home, home / ".wisp", root / "rt", work, work / "victim"):
            d.mkdir(mode=0o700 if d != work else 0o755, parents=True)
        (home / ".bashrc").write_text("# mine\n")
        agent = root / "agent.py"
        agent.write_text(textwrap.dedent("""
            import json, os, subprocess
            out = {"uid": os.getuid()}
            out["rm"] = subprocess.run("rm -rf victim", shell=True, capture_output=True, text=True).returncode
            out["echo"] = subprocess.run(["/bin/bash", "-c", "echo ok"], capture_output=True, text=True).stdout
            try:
                open(os.path.expanduser("~/.bashrc"), "a").write("planted")
                out["bashrc"] = "WROTE"
            except OSError as exc:
                out["bashrc"] = exc.strerror
            out["sudo"] = open("/proc/self/status").read().split("NoNewPrivs:")[1].split()[0]
            print(json.dumps(out))
        """))
        for path in root.rglob("*"):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        paths = f"{REPO}:{sysconfig.get_paths()['purelib']}:{sysconfig.get_paths()['platlib']}"
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"),
               "XDG_RUNTIME_DIR": str(root / "rt"), "PYTHONPATH": paths, "LANG": "C.UTF-8"}
        argv = [python, "-c", "from wispsh.cli.wisp import cli; cli()", "run", "--", python, str(agent)]
        done = (_as(user, argv, env=env, cwd=work, capture_output=True, text=True, timeout=120,
                    stdin=subprocess.DEVNULL) if os.getuid() == 0 else
                subprocess.run(argv, env=env, cwd=work, capture_output=True, text=True, timeout=120,
                               stdin=subprocess.DEVNULL))
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout.strip().splitlines()[-1])
        assert got == {"uid": entry.pw_uid, "rm": 126, "echo": "ok\n", "bashrc": "Read-only file system",
                       "sudo": "1"}, (got, done.stderr)
        assert (work / "victim").is_dir() and (home / ".bashrc").read_text() == "# mine\n"
        events = [json.loads(line) for line in (home / ".wisp" / "audit.jsonl").read_text().splitlines()]
        assert any(e.get("command") == "rm -rf victim" and e.get("decision") == "denied-unasked" for e in events)
    finally:
        shutil.rmtree(root, ignore_errors=True)
