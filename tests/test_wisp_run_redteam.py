"""Red-team of `wisp run`: ways a program inside could try to change the gate's decisions, each with what stops
it. Real bwrap and real processes; the attacker is a Python program inside (it already runs code of its own:
the question is whether it can make the *gate* let a shell line run that it would refuse)."""
from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

from run_support import PY, REPO, WISP, audit, needs_bwrap, needs_userns, person, wisp_run

pytestmark = [needs_bwrap, needs_userns]


def inside(env, code, cwd, **kw):
    return wisp_run({**env, "PYTHONPATH": str(REPO)}, textwrap.dedent(code), cwd, **kw)


def test_no_fake_supervisor_the_socket_dir_is_read_only_and_the_watch_and_grants_dirs_are_hidden(tmp_path):
    env = person(tmp_path)
    done = inside(env, """
        import os, socket
        from wispsh.sandbox import client
        path = client.inside_run().decode()
        where = os.path.dirname(path)
        s = socket.socket(socket.AF_UNIX)
        for what, act in (("bind", lambda: s.bind(os.path.join(where, "fake.sock"))),
                          ("unlink", lambda: os.unlink(path)),
                          ("rename", lambda: os.rename(path, path + ".old")),
                          ("launcher", lambda: open("/bin/sh", "a").write("#")),
                          ("rundir", lambda: open(os.path.join(os.path.dirname(where), "x"), "w"))):
            try:
                act()
                print(what, "DONE")
            except OSError as exc:
                print(what, exc.strerror)
        runtime = os.path.join(os.environ["XDG_RUNTIME_DIR"], "wisp")
        print("runtime", sorted(os.listdir(runtime)))
        key = os.path.join(os.environ["WISP_HOME"], "grants.key")
        try:
            print("key", repr(open(key, "rb").read()))
        except OSError as exc:
            print("key", exc.strerror)
    """, tmp_path)
    out = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    for what in ("bind", "unlink", "rename", "launcher", "rundir"):
        assert out[what] in ("Read-only file system", "Device or resource busy"), (what, out, done.stderr)
    assert out["runtime"] in ("[]", "['run']")         # no watch/ and no grants/: at most this run's own dir
    assert out["key"] in ("b''", "Permission denied")   # the grant-signing key is not readable inside
    assert len((Path(env["WISP_HOME"]) / "grants.key").read_bytes()) >= 32


def test_a_signed_grant_in_a_runtime_dir_of_the_agents_choosing_is_not_read(tmp_path):
    """Outside, with the real key, a valid once-grant for `rm *` is written into a fake runtime dir; a line
    inside that points XDG_RUNTIME_DIR there is still judged against the supervisor's own store."""
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    fake = tmp_path / "fake-rt"
    fake.mkdir(mode=0o700)
    forged = subprocess.run([PY, "-c", textwrap.dedent("""
        import os, sys
        from pathlib import Path
        from wispsh.decide import session, store
        from wispsh.model import Level
        here = session.Here(session.Session(session.named_session_id("forged"), None, None, name="forged"), (), None)
        store.grant(Path(os.environ["WISP_HOME"]), pattern="rm *", scope="session", level=Level.HIGH,
                    source="forged", cwd=os.getcwd(), env=os.environ, here=here)
    """)], env={**env, "XDG_RUNTIME_DIR": str(fake), "PYTHONPATH": str(REPO)}, cwd=tmp_path, capture_output=True,
        text=True)
    assert forged.returncode == 0, forged.stderr
    assert list((fake / "wisp" / "grants").iterdir())
    done = inside(env, f"""
        import os, subprocess
        env = dict(os.environ, XDG_RUNTIME_DIR={str(fake)!r}, WISP_SESSION="forged")
        print(subprocess.run("rm -rf victim", shell=True, env=env).returncode)
    """, tmp_path)
    assert done.stdout.split()[-1] == "126", done.stderr
    assert (tmp_path / "victim").is_dir()


def test_environment_tricks_are_judged(tmp_path):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    (tmp_path / "evil.sh").write_text("rm -rf victim\n")
    done = inside(env, f"""
        import os, subprocess
        base = dict(os.environ)
        for name, argv, extra in (
                ("BASH_ENV", ["bash", "-c", "true"], {{"BASH_ENV": "evil.sh"}}),
                ("ENV -i", ["sh", "-i", "-c", "true"], {{"ENV": "evil.sh"}}),
                ("exported function", ["bash", "-c", "ls"], {{"BASH_FUNC_ls%%": "() {{ rm -rf victim; }}"}}),
                ("gated and --yes", [{str(Path(WISP).with_name("wispsh"))!r}, "--yes", "-c", "rm -rf victim"],
                 {{"WISP_GATED": "", "WISP_DEPTH": "0"}}),
                ("depth forged", ["sh", "-c", "rm -rf victim"], {{"WISP_DEPTH": "-5"}}),
                ("HOME moved", ["bash", "-lc", "true"], {{"HOME": os.getcwd()}})):
            if name == "HOME moved":
                open(".bash_profile", "w").write("rm -rf victim\\n")
            r = subprocess.run(argv, env={{**base, **extra}}, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            print(name, "|", r.returncode, "|", r.stderr.strip().splitlines()[0][:90] if r.stderr.strip() else "")
    """, tmp_path)
    rows = [line.split(" | ") for line in done.stdout.splitlines()]
    assert len(rows) == 6, done.stdout + done.stderr
    for name, status, said in rows:
        assert status == "126" and said.startswith("wispsh: not run"), (name, status, said)
    assert (tmp_path / "victim").is_dir()


def test_the_supervisor_cannot_be_signalled_ptraced_or_frozen_from_inside(tmp_path):
    env = person(tmp_path)
    proc = subprocess.Popen([WISP, "run", "--", PY, "-c", textwrap.dedent("""
        import ctypes, os, signal, sys
        sup = int(sys.stdin.readline())
        got = {}
        for name, sig in (("TERM", signal.SIGTERM), ("KILL", signal.SIGKILL), ("STOP", signal.SIGSTOP)):
            try:
                os.kill(sup, sig)
                got[name] = "sent"
            except OSError as exc:
                got[name] = exc.strerror
        libc = ctypes.CDLL(None, use_errno=True)
        got["ptrace"] = libc.ptrace(16, sup, None, None), os.strerror(ctypes.get_errno())   # PTRACE_ATTACH
        got["-1"] = "kill -1 would reach only this namespace"
        frozen = []
        for root, dirs, files in os.walk("/sys/fs/cgroup"):
            for name in ("cgroup.freeze", "cgroup.kill", "freezer.state", "cgroup.procs", "tasks"):
                if name in files:
                    try:
                        open(os.path.join(root, name), "w").write("1")
                        frozen.append("WROTE " + os.path.join(root, name))
                    except OSError as exc:
                        frozen.append(exc.strerror)
            if len(frozen) > 20:
                break
        got["cgroup"] = sorted(set(frozen))
        print(got)
    """)], cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(f"{proc.pid}\n", timeout=60)
    got = eval(out.strip().splitlines()[-1])
    assert got["TERM"] == got["KILL"] == got["STOP"] == "No such process", (got, err)
    assert got["ptrace"][0] == -1
    assert not [c for c in got["cgroup"] if c.startswith("WROTE")], got["cgroup"]
    assert proc.returncode == 0


def test_a_line_naming_no_shell_path_reaches_a_real_shell_the_binaries_are_the_launcher(tmp_path):
    """Inside, every shell path is the launcher: reading, copying or hard-linking it gives the launcher."""
    env = person(tmp_path)
    done = inside(env, """
        import os, shutil, subprocess
        seen = set()
        for name in ("sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "rbash"):
            for d in ("/bin", "/usr/bin", "/usr/local/bin"):
                p = os.path.join(d, name)
                if os.path.exists(p):
                    seen.add(open(p, "rb").read(2))
        shutil.copy("/bin/bash", "copied-bash")
        os.chmod("copied-bash", 0o755)
        r = subprocess.run(["./copied-bash", "-c", "rm -rf victim"], capture_output=True, text=True)
        print(sorted(seen), r.returncode, r.stderr.strip()[:60])
        print(any("/shells/" in row or "wisp" in row.split()[4] and "bash" in row for row in open("/proc/self/mountinfo")
                  if len(row.split()) > 4 and row.split()[4].endswith(("bash", "dash"))
                  and not row.split()[4].startswith(("/usr/", "/bin/"))))
    """, tmp_path)
    first, second = done.stdout.splitlines()[-2:]
    assert first.startswith("[b'#!']"), done.stdout + done.stderr
    assert " 126 wispsh: not run" in first                # the copy is the launcher too, and asks the gate
    assert second == "False"                             # no mount names a real shell anywhere else


def test_a_flood_of_silent_connections_only_refuses(tmp_path):
    """A program that holds connections open and sends nothing: the clients after it refuse; nothing runs."""
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    done = inside(env, """
        import os, socket, subprocess
        from wispsh.sandbox import client
        path = client.inside_run()
        held = []
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
                held.append(s)
            except OSError:
                break
        r = subprocess.run("rm -rf victim", shell=True, capture_output=True, text=True, timeout=60)
        print(r.returncode)
    """, tmp_path)
    assert done.stdout.split()[-1] == "126", done.stderr
    assert (tmp_path / "victim").is_dir()
    assert not [e for e in audit(env) if e.get("decision") not in ("denied-unasked", None, "below-threshold")]
