"""`wisp run` as an unprivileged user (the suite itself often runs as root, CI too): the same namespace made by
bwrap --unshare-user, the same gate, the same read-only files, with the user's own uid inside."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path


from run_support import checkout_path, needs_bwrap, needs_userns, run_as, unprivileged_or_skip

pytestmark = [needs_bwrap, needs_userns]


def test_wisp_run_as_an_unprivileged_user(tmp_path):
    user, python = unprivileged_or_skip()
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
        paths = checkout_path()
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"),
               "XDG_RUNTIME_DIR": str(root / "rt"), "PYTHONPATH": paths, "LANG": "C.UTF-8"}
        argv = [python, "-c", "from wispsh.cli.wisp import cli; cli()", "run", "--", python, str(agent)]
        done = run_as(user, argv, env=env, cwd=work, capture_output=True, text=True, timeout=120,
                      stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout.strip().splitlines()[-1])
        assert got == {"uid": entry.pw_uid, "rm": 126, "echo": "ok\n", "bashrc": "Read-only file system",
                       "sudo": "1"}, (got, done.stderr)
        assert (work / "victim").is_dir() and (home / ".bashrc").read_text() == "# mine\n"
        events = [json.loads(line) for line in (home / ".wisp" / "audit.jsonl").read_text().splitlines()]
        assert any(e.get("command") == "rm -rf victim" and e.get("decision") == "denied-unasked" for e in events)
    finally:
        shutil.rmtree(root, ignore_errors=True)
