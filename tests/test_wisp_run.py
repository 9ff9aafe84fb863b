"""`wisp run`: every shell inside is the gate, whatever starts it; nothing inside can change the gate's files or
decisions. Real bubblewrap, real processes, a real pty for `wisp watch`; the person's HOME is the test's own.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from run_support import (DISABLES_USERNS, PY, WISP, audit, needs_bwrap, needs_userns, person, spawn_watcher,
                         wisp_run, with_password_home, write_config)
from wispsh.sandbox import layout

pytestmark = [needs_bwrap, needs_userns]

RM = "rm -rf victim"

# One simulated agent per way of starting a shell. Each tries `rm -rf victim` in its directory and prints the
# status it saw; with no watcher and no terminal every one must be refused and the victim kept.
WAYS = {
    "python shell=True": f"""
        import subprocess
        print(subprocess.run({RM!r}, shell=True).returncode)
    """,
    "/bin/bash -c by absolute path": f"""
        import subprocess
        print(subprocess.run(["/bin/bash", "-c", {RM!r}]).returncode)
    """,
    "/usr/bin/dash": f"""
        import subprocess
        print(subprocess.run(["/usr/bin/dash", "-c", {RM!r}]).returncode)
    """,
    "os.execv /bin/sh": f"""
        import os
        pid = os.fork()
        if pid == 0:
            os.execv("/bin/sh", ["sh", "-c", {RM!r}])
        print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
    """,
    "#!/bin/sh script": f"""
        import os, subprocess
        with open("script.sh", "w") as fh:
            fh.write("#!/bin/sh\\n{RM}\\n")
        os.chmod("script.sh", 0o755)
        print(subprocess.run(["./script.sh"]).returncode)
    """,
    "git hook": f"""
        import os, subprocess
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(["git", "init", "-q", "repo"], check=True)
        with open("repo/.git/hooks/pre-commit", "w") as fh:
            fh.write("#!/bin/sh\\n{RM.replace('victim', '../victim')}\\n")
        os.chmod("repo/.git/hooks/pre-commit", 0o755)
        print(subprocess.run(git + ["-C", "repo", "commit", "-q", "--allow-empty", "-m", "x"]).returncode)
    """,
    "env bash": f"""
        import subprocess
        print(subprocess.run(["env", "bash", "-c", {RM!r}]).returncode)
    """,
}


@pytest.mark.parametrize("way", sorted(WAYS))
def test_every_way_of_starting_a_shell_meets_the_gate(tmp_path, way):
    env = person(tmp_path)
    work = tmp_path / "work"
    (work / "victim").mkdir(parents=True)
    (work / "victim" / "keep").write_text("x")
    done = wisp_run(env, WAYS[way], work)
    assert done.returncode == 0, done.stderr
    assert (work / "victim" / "keep").read_text() == "x", f"{way}: the victim was removed"
    status = done.stdout.split()[-1]
    assert status != "0", f"{way}: the shell ran the line ({done.stdout!r})"
    assert "wispsh: not run: rm -rf" in done.stderr
    decided = [e for e in audit(env) if e["event"] == "approval.decided" and "rm -rf" in (e["command"] or "")]
    assert decided and all(e["decision"] == "denied-unasked" and e["entry"] == "wisp run" for e in decided)


def test_a_script_written_inside_is_new_in_the_session_whatever_program_runs_it(tmp_path):
    """The session inside is the run: an installed-looking script (#!, outside the project, the user's) that the
    agent writes is read line by line, also when a program the agent started after writing it runs it (the
    walk up to "the nearest process that is not a shell" stopped at that program, and the script counted as
    older than the session: judged as started, `tidy`, its `rm -rf` unread)."""
    env = person(tmp_path, XDG_CACHE_HOME=str(tmp_path / "home" / ".cache"))
    work = tmp_path / "work"
    (work / "victim").mkdir(parents=True)
    (work / "victim" / "keep").write_text("x")
    done = wisp_run(env, f"""
        import os, subprocess, sys, time
        tools = os.path.join(os.environ["XDG_CACHE_HOME"], "tools")
        os.makedirs(tools, exist_ok=True)
        tidy = os.path.join(tools, "tidy")
        with open(tidy, "w") as fh:
            fh.write("#!/bin/sh\\n{RM}\\n")
        os.chmod(tidy, 0o755)
        time.sleep(0.1)
        runner = "import subprocess, sys; raise SystemExit(subprocess.run([sys.argv[1]]).returncode)"
        print(subprocess.run([sys.executable, "-c", runner, tidy]).returncode)
    """, work)
    assert done.returncode == 0, done.stderr
    assert (work / "victim" / "keep").read_text() == "x", done.stderr
    assert done.stdout.split()[-1] != "0", done.stdout
    assert "wispsh: not run: rm -rf" in done.stderr, done.stderr


def test_a_line_below_the_threshold_runs_and_exit_status_and_output_are_the_shells(tmp_path):
    env = person(tmp_path)
    done = wisp_run(env, """
        import subprocess
        r = subprocess.run("echo out; echo err >&2; exit 7", shell=True, capture_output=True, text=True)
        print(repr((r.returncode, r.stdout, r.stderr)))
        r = subprocess.run(["/bin/sh", "-c", 'echo "$0|$1"', "name", "one"], capture_output=True, text=True)
        print(r.stdout.strip())
        r = subprocess.run(["bash", "-s", "a"], input="echo stdin:$1", capture_output=True, text=True)
        print(r.stdout.strip())
        import time
        p = subprocess.Popen(["bash", "-c", "sleep 30"])
        time.sleep(0.5)
        p.terminate()
        print(p.wait())
    """, tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == repr((7, "out\n", "err\n")), done.stderr
    assert lines[1:] == ["name|one", "stdin:a", "-15"], done.stderr


SECRETS = """
import json, os, subprocess, sys
targets = json.loads(sys.argv[1])
result = {}
for path in targets:
    tried = []
    for how in ("write", "append", "replace", "unlink", "chmod", "create-beside"):
        try:
            if how == "write":
                open(path, "w").write("planted\\n")
            elif how == "append":
                open(path, "a").write("planted\\n")
            elif how == "replace":
                tmp = os.path.join(os.path.dirname(path), ".planted")
                open(tmp, "w").write("planted\\n")
                os.replace(tmp, path)
            elif how == "unlink":
                os.unlink(path)
            elif how == "chmod":
                os.chmod(path, 0o777)
            else:
                open(os.path.join(os.path.dirname(path), "planted-beside"), "w").write("x")
            tried.append(how + ":WROTE")
        except OSError as exc:
            tried.append(how + ":" + (exc.strerror or str(exc)))
    result[path] = tried
print(json.dumps(result))
"""


def _digest(path: Path) -> str:
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest() + f":{st.st_mode:o}"


def test_nothing_inside_can_write_the_gates_files_rc_files_keys_snapshots_or_shims(tmp_path):
    env = person(tmp_path)
    home = Path(env["HOME"])
    write_config(env, {"approval": {"threshold": "moderate"}})
    approvals = Path(env["WISP_HOME"]) / "approvals.json"
    approvals.write_text(json.dumps({"version": 1, "approvals": []}))
    approvals.chmod(0o600)
    (home / ".bashrc").write_text("# mine\n")
    (home / ".ssh").mkdir(mode=0o700)
    (home / ".ssh" / "authorized_keys").write_text("ssh-ed25519 AAAA mine\n")
    claude = home / ".claude" / "shell-snapshots"
    claude.mkdir(parents=True)
    (claude / "snapshot-bash-1.sh").write_text("alias ls='ls -F'\n")
    codex = home / ".codex" / "shell_snapshots"
    codex.mkdir(parents=True)
    (codex / "abc.sh").write_text("export X=1\n")
    shims = home / ".local" / "share" / "wispsh" / "shims"
    subprocess.run([WISP, "shims", "install", "--quiet", str(shims)], env=env, check=True)
    targets = [Path(env["WISP_HOME"]) / "config.json", approvals, home / ".bashrc", home / ".ssh" / "authorized_keys",
               claude / "snapshot-bash-1.sh", codex / "abc.sh", shims / "bash"]
    before = {str(p): _digest(p) for p in targets}
    done = wisp_run(env, "", tmp_path, program=[PY, "-c", SECRETS, json.dumps([str(p) for p in targets])])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    refused = ("Read-only file system", "Device or resource busy")     # EBUSY: renaming over a mount point
    for path, tried in result.items():
        if Path(path).parent == home:            # the home itself stays writable: only the file is not
            tried = [t for t in tried if not t.startswith("create-beside")]
        assert all(t.split(":", 1)[1] in refused for t in tried), (path, tried)
    assert {str(p): _digest(p) for p in targets} == before
    for directory in {p.parent for p in targets} - {home}:
        assert not (directory / "planted-beside").exists() and not (directory / ".planted").exists()


PLANT = """
import os
home = os.environ["HOME"]
for name in (".bashrc", ".bash_profile", ".zshenv", ".ssh/authorized_keys"):
    try:
        open(os.path.join(home, name), "w").write("planted")
        print(name, "WROTE")
    except OSError as exc:
        print(name, exc.strerror)
print(open(os.path.join(home, ".bash_profile")).read().splitlines()[-1])
"""


@pytest.mark.skipif(os.getuid() != 0, reason="machine lacks root (unshare -m gives the test a password database)")
def test_missing_start_up_files_are_placeholders_inside_and_gone_after(tmp_path):
    env = person(tmp_path)
    home = Path(env["HOME"])
    (home / ".profile").write_text("PATH=mine\n")
    # without the write wall (with it, the home is read-only and no placeholder is needed: see test_wisp_run_walls)
    argv = with_password_home(env, [WISP, "run", "--no-write-wall", "--", PY, "-c", PLANT], tmp_path)
    done = subprocess.run(argv, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    out = done.stdout.splitlines()
    assert out[:4] == [".bashrc Read-only file system", ".bash_profile Read-only file system",
                       ".zshenv Read-only file system", ".ssh/authorized_keys Read-only file system"], done.stderr
    assert '. "$HOME/.profile"' in out[4]            # a stand-in that reads on as bash would
    for name in (".bashrc", ".bash_profile", ".bash_login", ".zshenv", ".ssh", ".gnupg", ".config"):
        assert not (home / name).exists(), name     # the placeholders are gone after the run
    assert (home / ".profile").read_text() == "PATH=mine\n"
    # bash -l with the stand-in reads ~/.profile as it would without it
    (home / ".bash_profile").write_text(layout.PLACEHOLDER_HEAD + layout.READS_ON[".bash_profile"])
    login = subprocess.run(["bash", "-lc", "echo $PATH"], env={**env, "PATH": "/usr/bin:/bin"}, capture_output=True,
                           text=True)
    assert login.stdout.strip() == "mine"


def test_under_a_home_that_is_not_yours_a_start_up_file_that_appears_is_judged_as_code(tmp_path):
    """No placeholders for start-up files under a moved HOME (they would be judged on every -l): one the
    agent writes there is judged as code by the next login shell, and refused."""
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    done = wisp_run(env, """
        import os, subprocess
        print(subprocess.run(["bash", "-lc", "echo hi"], capture_output=True, text=True).stdout.strip())
        open(os.path.expanduser("~/.bash_profile"), "w").write("rm -rf victim\\n")
        print(subprocess.run(["bash", "-lc", "echo hi"]).returncode)
    """, tmp_path)
    assert done.stdout.split() == ["hi", "126"], done.stderr
    assert (tmp_path / "victim").is_dir()


def test_wisp_approvals_add_and_a_hand_written_request_leave_no_grant(tmp_path):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    code = f"""
        import os, socket, subprocess, sys
        from wispsh.sandbox import client
        add = subprocess.run([{WISP!r}, "approvals", "add", "rm *", "--scope", "always"], capture_output=True,
                             text=True)
        print("add", add.returncode, add.stderr.strip().splitlines()[-1][:80])
        path = client.inside_run()
        answers = []
        for argv, kind, extra in (
                (["sh", "-c", "rm -rf victim"], b"launcher", []),
                (["wispsh", "--yes", "-c", "rm -rf victim"], b"wispsh", []),
                (["sh", "-c", "rm -rf victim"], b"launcher", [b"answer=y", b"y"]),
                (["sh", "-c", "rm -rf victim"], b"grant", [])):
            env = {{k.encode(): v.encode() for k, v in os.environ.items()}}
            env[b"WISP_ANSWER"] = b"y"
            msg = client.request([a.encode() for a in argv], kind=kind, cwd=os.getcwdb(), env=env, tty=False)
            if extra:
                msg = client.pack(client.unpack(msg.split(b"\\n", 1)[1]) + extra)
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            s.sendall(msg)
            body, fds = client.receive(s)
            answers.append(client.unpack(body)[:2] if body else None)
        print("answers", answers)
        print("victim", os.path.isdir("victim"))
    """
    done = wisp_run({**env, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}, code, tmp_path)
    out = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert out["add"].startswith("1 "), done.stdout + done.stderr
    assert "victim True" in done.stdout
    answers = eval(out["answers"])
    assert answers[:3] == [[b"exit", b"126"]] * 3, answers
    assert answers[3] == [b"exit", b"126"] or answers[3] is None
    listed = subprocess.run([WISP, "approvals", "list", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(listed.stdout)["approvals"] == []
    grants = Path(env["XDG_RUNTIME_DIR"]) / "wisp" / "grants"
    assert not grants.exists() or not os.listdir(grants)
    assert (tmp_path / "victim").is_dir()


def test_the_supervisor_is_not_visible_inside_and_none_of_its_fds_leak(tmp_path):
    env = person(tmp_path)
    # the supervisor's pid: wisp run's own process, passed in after it starts
    proc = subprocess.Popen([WISP, "run", "--", PY, "-c", """
import os, sys
sup = int(sys.stdin.readline())
names = []
for p in os.listdir("/proc"):
    if p.isdigit():
        try:
            names.append((int(p), open(f"/proc/{p}/cmdline", "rb").read().split(b"\\0")[:3]))
        except OSError:
            pass
print(sorted(n for n, _ in names))
print(any(b"run" in c and any(b"wisp" in w for w in c) for _, c in names))
try:
    os.kill(sup, 0)
    print("visible", open(f"/proc/{sup}/cmdline", "rb").read()[:60])
except ProcessLookupError:
    print("invisible")
fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
print(fds)
"""], cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(f"{proc.pid}\n", timeout=60)
    lines = out.splitlines()
    pids = eval(lines[0])
    assert max(pids) < 50 and 1 in pids, lines[0]           # a pid namespace of its own
    assert lines[1] == "False"
    assert lines[2] == "invisible", lines[2]
    assert eval(lines[3]) == [0, 1, 2, 3], lines[3]         # 3: the listing itself; nothing of the supervisor's


def test_a_burst_of_shells_at_once_is_served_in_full_and_leaves_few_threads_waiting(tmp_path):
    """Requests are served by threads already waiting in accept() (supervisor._server): a burst of 60 shells
    at once gets 60 answers, and once it is over at most SPARE_SERVERS threads more than before wait on."""
    from wispsh.sandbox.supervisor import SPARE_SERVERS

    env = person(tmp_path)
    proc = subprocess.Popen([WISP, "run", "--", PY, "-c", """
import subprocess, sys
def threads():
    sys.stdout.write("count\\n"); sys.stdout.flush()
    return sys.stdin.readline()
subprocess.run(["/bin/sh", "-c", "true"], check=True)
threads()
got = subprocess.run(["/bin/bash", "-c", "for i in $(seq 60); do sh -c 'echo ok' & done; wait"],
                     capture_output=True, text=True)
print(got.stdout.count("ok"), got.returncode, repr(got.stderr[-300:]))
threads()
"""], cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    counts = []

    def tasks() -> int:
        return len(os.listdir(f"/proc/{proc.pid}/task"))

    said = []
    for line in proc.stdout:
        if line.strip() == "count":
            import time

            time.sleep(0.5)                     # the burst's threads see they are spare and end
            counts.append(tasks())
            proc.stdin.write("\n")
            proc.stdin.flush()
        else:
            said.append(line.strip())
    proc.wait(timeout=60)
    assert said and said[0].startswith("60 0"), (said, proc.stderr.read())
    assert len(counts) == 2 and counts[1] <= counts[0] + SPARE_SERVERS, counts


def test_a_peer_that_never_reads_its_answer_holds_no_other_shell_up(tmp_path):
    """The answer's first write is made under the judge's lock; a peer that asks about a line with a big argv
    and never reads cannot keep the lock (and every other shell) waiting: the rest is sent after it."""
    env = person(tmp_path)
    done = wisp_run(env, """
        import os, socket, subprocess, time
        from wispsh.sandbox import client
        where = client.inside_run()
        line = ": " + "x" * 3_000_000          # allowed, echoed back in the answer: more than a socket holds
        s = socket.socket(socket.AF_UNIX)
        s.connect(where.decode())
        s.sendmsg([client.request([b"/bin/sh", b"-c", line.encode()], kind=b"launcher", cwd=os.getcwd().encode(),
                                  env={b"PATH": b"/usr/bin:/bin"}, tty=False)],
                  [(socket.SOL_SOCKET, socket.SCM_RIGHTS, b"".join(fd.to_bytes(4, "little") for fd in (0, 1, 2)))])
        time.sleep(1.0)                         # the supervisor is writing an answer nobody reads
        start = time.monotonic()
        ran = subprocess.run(["/bin/sh", "-c", "echo other"], capture_output=True, text=True, timeout=60)
        print(ran.stdout.strip(), round(time.monotonic() - start, 1))
        s.close()
    """, tmp_path)
    said = done.stdout.split()
    assert said[:1] == ["other"], (done.stdout, done.stderr)
    assert float(said[1]) < 5.0, said               # not after SEND_SECONDS (10 s) or never


def test_make_j2_allowed_once_at_make_asks_nothing_more(tmp_path):
    env = person(tmp_path)
    work = tmp_path / "build"
    work.mkdir()
    targets = [f"t{i}" for i in range(100)]
    rules = "".join(f"{t}:\n\t@printf '%s\\n' $@ > out/$@.txt && test -s out/$@.txt\n" for t in targets)
    (work / "Makefile").write_text(f"all: {' '.join(targets)}\n{rules}")
    (work / "out").mkdir()
    watcher = spawn_watcher(env)
    try:
        # --no-restore: make is asked (contained work would run it unasked, which is not what this tests)
        agent = subprocess.Popen([WISP, "run", "--no-restore", "--", PY, "-c", "import subprocess, sys; "
                                  "sys.exit(subprocess.run('make -j2', shell=True, start_new_session=True).returncode)"],
                                 cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        watcher.expect_exact("] no")
        assert "make -j2" in watcher.before
        watcher.send("y\r")
        out, err = agent.communicate(timeout=120)
        assert agent.returncode == 0, err
        assert sorted(p.name for p in (work / "out").iterdir()) == sorted(f"{t}.txt" for t in targets)
        # no second question reached the watcher
        import pexpect

        with pytest.raises(pexpect.TIMEOUT):
            watcher.expect_exact("approve this", timeout=1)
    finally:
        watcher.close(force=True)
    events = audit(env)
    nested = [e for e in events if e["event"] == "nested"]
    assert len(nested) == 100 and all(e["decision"] == "beneath-allowed" for e in nested)
    assert all(len(json.dumps(e)) < 1200 for e in nested)
    make = [e for e in events if e["event"] == "approval.decided" and e["command"] == "make -j2"]
    assert [e["decision"] for e in make] == ["asked-once"]


def test_a_nested_shell_beneath_an_allowed_line_is_still_held_to_the_deny_patterns(tmp_path):
    env = person(tmp_path)
    write_config(env, {"deny": ["git push --force"]})
    approvals = Path(env["WISP_HOME"]) / "approvals.json"
    subprocess.run([WISP, "approvals", "add", "make *", "--scope", "always"], env=env, check=True,
                   capture_output=True)
    (tmp_path / "Makefile").write_text("all:\n\t@echo one > one.txt\n\tgit push --force origin main || true\n")
    done = wisp_run(env, "import subprocess, sys; sys.exit(subprocess.run('make', shell=True).returncode)",
                    tmp_path)
    assert (tmp_path / "one.txt").exists()
    assert "matches the deny pattern 'git push --force'" in done.stderr
    nested = [e["decision"] for e in audit(env) if e["event"] == "nested"]
    assert nested == ["beneath-allowed", "denied-pattern"]
    assert approvals.exists()


def test_an_interactive_shell_is_not_an_allowed_line(tmp_path):
    """A shell started without a line (an agent's long-lived shell) allows nothing beneath it."""
    import pexpect

    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    child = pexpect.spawn(WISP, ["run", "--", "bash", "--norc", "--noprofile", "-i"], cwd=str(tmp_path), env=env,
                          encoding="utf-8", timeout=60, dimensions=(30, 100))
    try:
        child.sendline("PS1='IN''> '")
        child.expect_exact("IN> ")
        child.sendline("sh -c 'rm -rf victim'")     # the typed command is judged whole (session/)
        child.expect_exact("IN> ")
        child.sendline("echo rc=$?")
        child.expect(r"rc=(\d+)")
        assert child.match.group(1) == "126"
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert (tmp_path / "victim").is_dir()
    assert not [e for e in audit(env) if e["event"] == "nested"]


def test_wisp_watch_answers_a_question_from_inside(tmp_path):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    (tmp_path / "kept").mkdir()
    watcher = spawn_watcher(env)
    try:
        agent = subprocess.Popen([WISP, "run", "--", PY, "-c", """
import subprocess
print(subprocess.run("rm -rf victim", shell=True).returncode)
print(subprocess.run("rm -rf kept", shell=True).returncode)
"""], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        watcher.expect_exact("] no")
        assert "rm -rf victim" in watcher.before and "asked by pid" in watcher.before
        watcher.send("y\r")
        watcher.expect_exact("] no")
        assert "rm -rf kept" in watcher.before
        watcher.send("n\r")
        out, err = agent.communicate(timeout=60)
    finally:
        watcher.close(force=True)
    assert out.split() == ["0", "126"], err
    assert not (tmp_path / "victim").exists() and (tmp_path / "kept").is_dir()
    assert "answered no (in wisp watch)" in err


def test_inside_with_the_supervisor_gone_every_line_is_refused(tmp_path):
    """The launcher and a wispsh entry point inside a namespace whose request socket has no supervisor."""
    from wispsh.sandbox import layout

    run_dir = tmp_path / "r"
    (run_dir / "sock").mkdir(parents=True)
    sock = run_dir / "sock" / "req.sock"
    import socket

    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(sock))                       # bound, never listening: as a supervisor that died
    dead.close()
    launcher = run_dir / "launcher"
    launcher.write_text(layout.launcher_text(sys.executable, str(sock)))
    launcher.chmod(0o755)
    (tmp_path / "victim").mkdir()
    wispsh = str(Path(WISP).with_name("wispsh"))
    for argv in (["/bin/sh", "-c", "rm -rf victim"], [wispsh, "-c", "rm -rf victim"], ["/bin/sh", "-c", "true"]):
        done = subprocess.run(["bwrap", "--unshare-user", "--unshare-pid", "--dev-bind", "/", "/", "--ro-bind",
                               str(launcher), os.path.realpath("/bin/sh"), "--chdir", str(tmp_path), "--", *argv],
                              capture_output=True, text=True, timeout=60, env=person(tmp_path))
        assert done.returncode == 126, (argv, done.stderr)
        assert done.stderr.count("\n") == 1
        assert done.stderr.startswith("wispsh: not run: the wisp run supervisor cannot be reached"), done.stderr
    assert (tmp_path / "victim").is_dir()


def test_outside_a_namespace_wispsh_gates_in_process(tmp_path):
    from wispsh.sandbox.client import inside_run

    assert inside_run() is None
    done = subprocess.run([str(Path(WISP).with_name("wispsh")), "-c", "echo in-process"], capture_output=True,
                          text=True, env=person(tmp_path))
    assert done.stdout == "in-process\n"


def test_root_inside_cannot_remount_or_write_what_is_read_only(tmp_path):
    env = person(tmp_path)
    (Path(env["HOME"]) / ".bashrc").write_text("# mine\n")
    done = wisp_run(env, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        home = os.environ["HOME"]
        MS_REMOUNT, MS_BIND, MS_RDONLY = 32, 4096, 1
        for target in (home + "/.bashrc", os.environ["WISP_HOME"], "/bin/sh"):
            r = libc.mount(None, target.encode(), None, MS_REMOUNT | MS_BIND, None)
            print("remount", target, r, os.strerror(ctypes.get_errno()))
            r = libc.umount2(target.encode(), 2)
            print("umount", target, r, os.strerror(ctypes.get_errno()))
        r = libc.unshare(0x10000000)            # CLONE_NEWUSER: a namespace of its own to remount in
        print("unshare", r, os.strerror(ctypes.get_errno()))
        print("caps", [l for l in open("/proc/self/status") if l.startswith(("CapEff", "CapPrm", "NoNewPrivs"))])
        try:
            open(home + "/.bashrc", "a").write("x")
            print("wrote")
        except OSError as exc:
            print("write", exc.strerror)
    """, tmp_path)
    out = done.stdout
    assert "wrote" not in out and "write Read-only file system" in out, out + done.stderr
    assert out.count(" -1 ") >= 6, out
    if DISABLES_USERNS:                    # else a nested user namespace is possible, its mounts locked read-only
        assert "unshare -1" in out, out
    assert "CapEff:\\t0000000000000000" in out
    assert (Path(env["HOME"]) / ".bashrc").read_text() == "# mine\n"


@pytest.mark.skipif(not DISABLES_USERNS, reason="machine lacks bwrap")   # one of 0.8+, to make such a machine
def test_wisp_run_refuses_to_start_without_user_namespaces(tmp_path):
    """A machine (here: a namespace that forbids new user namespaces, as a locked-down container does)."""
    env = person(tmp_path)
    done = subprocess.run(["bwrap", "--unshare-user", "--disable-userns", "--dev-bind", "/", "/", "--", WISP, "run",
                           "--", "true"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("wisp run: cannot start: ") and " -- " in done.stderr
    doctor = subprocess.run(["bwrap", "--unshare-user", "--disable-userns", "--dev-bind", "/", "/", "--", WISP,
                             "doctor"], capture_output=True, text=True, env=env, timeout=60)
    assert "warn wisp run: cannot work here: " in doctor.stdout
    ok = subprocess.run([WISP, "doctor"], capture_output=True, text=True, env=env, timeout=60)
    assert "ok   wisp run: " in ok.stdout and "setuid programs" in ok.stdout
