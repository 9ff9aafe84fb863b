"""Red team of the gate around approvals, asking and exec: each test is an attack with real processes and real
files that ran unasked (or hung) before its fix. The line is always one that must not run; the assertion
is that it did not (a victim file survives, a marker is not written), and that the way in stays closed.
"""
from __future__ import annotations

import fcntl
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wispsh.decide import audit, lock, session, store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wispsh.config import Config, ConfigError, load_config, wisp_home
from wispsh.model import Level

REPO = Path(__file__).resolve().parent.parent
WISPSH = str(Path(sys.executable).parent / "wispsh")
HANG = 30          # a run that takes this long has hung: the guard of subprocess.run, never an assertion


@pytest.fixture
def box(tmp_path):
    """A private wisp home, runtime dir, project and a victim directory the attacks try to delete."""
    home, run, project = tmp_path / "home", tmp_path / "run", tmp_path / "proj"
    for d in (home, run, project):
        d.mkdir(mode=0o700)
    victim = project / "victim"
    victim.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "WISP_HOME": str(home),
           "XDG_RUNTIME_DIR": str(run), "WISP_SESSION": "redteam", "LC_ALL": "C.UTF-8"}
    return tmp_path, home, run, project, victim, env


def wispsh(args, env, cwd, **kw):
    return subprocess.run([WISPSH, *args], env=env, cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=HANG, **kw)


def explain(line, env, cwd):
    done = wispsh(["--explain", "--json", "-c", line], env, cwd)
    return json.loads(done.stdout)


def private(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(text)
    path.chmod(0o600)
    return path


FORGED_RM = {"version": 1, "approvals": [{"id": "forged", "pattern": "rm *", "scope": "always", "level": "high",
                                          "verbKeys": True}]}


# ---------------------------------------------------------------- trust roots an agent can move


def test_home_set_by_a_line_does_not_move_the_wisp_home(box):
    """`HOME=/tmp/e bash s.sh` (covered by a `bash *` approval) made the nested wispsh read /tmp/e/.wisp."""
    tmp, _, _, project, _, env = box
    forged = tmp / "agent-home"
    private(forged / ".wisp" / "approvals.json", json.dumps(FORGED_RM))
    env = {k: v for k, v in env.items() if k != "WISP_HOME"}
    env["HOME"] = str(forged)
    assert wisp_home(env) == Path(pwd.getpwuid(os.getuid()).pw_dir) / ".wisp"
    plan = explain("rm -rf victim", env, project)          # --explain reads, never writes
    assert plan["parts"][0]["decision"] == "ask" and plan["parts"][0]["approval_id"] != "forged"


def test_grants_in_a_runtime_dir_the_agent_chose_are_ignored(box):
    """A session grant file written by hand under XDG_RUNTIME_DIR=/tmp/e covered `rm -rf` in a nested wispsh."""
    tmp, home, _, project, victim, env = box
    forged_run = tmp / "agent-run"
    sid = session.named_session_id("redteam")
    grant = {"id": "forged", "pattern": "rm *", "scope": "session", "level": "high", "source": "x",
             "created": "2026-01-01T00:00:00Z"}
    doc = {"version": 1, "session": {"id": sid, "pid": None, "started": None, "name": "redteam", "agent": None},
           "grants": [grant]}
    private(forged_run / "wisp" / "grants" / f"{sid}.json", json.dumps(doc))
    env = dict(env, XDG_RUNTIME_DIR=str(forged_run))
    assert explain("rm -rf victim", env, project)["parts"][0]["decision"] == "ask"
    done = wispsh(["-c", "rm -rf victim"], env, project)
    assert done.returncode == 126 and victim.exists()


def test_a_grant_file_written_by_hand_or_copied_from_another_session_is_ignored(box):
    _, home, run, project, _, env = box
    store.grant(home, pattern="rm *", scope="session", level=Level.HIGH, source="t", cwd=str(project),
                env=dict(env, WISP_SESSION="someone-else"))
    assert explain("rm -rf victim", dict(env, WISP_SESSION="someone-else"), project)["parts"][0]["decision"] \
        == "cached-session"                            # a real, signed grant covers its own session
    gdir = run / "wisp" / "grants"
    theirs = gdir / f"{session.named_session_id('someone-else')}.json"
    ours = gdir / f"{session.named_session_id('redteam')}.json"
    shutil.copy(theirs, ours)                          # signed, but for another session
    ours.chmod(0o600)
    assert explain("rm -rf victim", env, project)["parts"][0]["decision"] == "ask"
    doc = json.loads(theirs.read_text())
    doc["grants"][0]["level"] = "dangerous"            # tampered: the signature no longer holds
    theirs.write_text(json.dumps(doc))
    got = store.standing(home, cwd=str(project), env=dict(env, WISP_SESSION="someone-else"))
    assert not got.approvals and any("not signed" in n for n in got.notes)


def test_a_new_turn_ends_the_once_grants_of_earlier_turns(box):
    """A once grant of turn T1 stayed for the session's life: a forged WISP_TURN=T1 later reused it."""
    _, home, _, project, _, env = box
    store.grant(home, pattern="rm *", scope="once", level=Level.HIGH, source="t", cwd=str(project),
                env=dict(env, WISP_TURN="t1"))
    assert any(a.pattern == "rm *" for a in store.standing(home, cwd=str(project), env=dict(env, WISP_TURN="t1"))
               .approvals)
    store.grant(home, pattern="ls *", scope="once", level=Level.HIGH, source="t", cwd=str(project),
                env=dict(env, WISP_TURN="t2"))
    later = store.standing(home, cwd=str(project), env=dict(env, WISP_TURN="t1")).approvals
    assert not any(a.pattern == "rm *" for a in later)


# ---------------------------------------------------------------- files that are not what they seem


@pytest.mark.parametrize("name", ["config.json", "approvals.json", "audit.jsonl"])
def test_a_fifo_in_place_of_a_store_file_neither_hangs_nor_runs_unasked(box, name):
    _, home, _, project, victim, env = box
    os.mkfifo(home / name, 0o600)
    done = wispsh(["-c", "rm -rf victim"], env, project)   # hung forever on open() before
    assert done.returncode == 126 and victim.exists()
    quiet = wispsh(["-c", "echo ran"], env, project)
    assert quiet.returncode == (126 if name == "config.json" else 0)


def test_a_huge_approvals_file_is_not_read(box, monkeypatch):
    _, home, _, project, _, env = box
    monkeypatch.setattr(store, "MAX_STORE_BYTES", 1000)
    private(home / "approvals.json", json.dumps(FORGED_RM) + " " * 2000)
    loaded = store.read_persisted(home)
    assert not loaded.approvals and "over the limit" in loaded.problem


@pytest.mark.parametrize("bad", [{"approval": {"persistDays": 1e400}}, {"audit": {"maxBytes": True}},
                                 {"approval": {"waitSeconds": -1}}])
def test_config_values_of_the_wrong_kind_deep_inside_refuse(box, bad):
    _, home, _, project, _, env = box
    private(home / "config.json", json.dumps(bad))
    with pytest.raises(ConfigError):
        load_config(home)
    assert wispsh(["-c", "echo ran"], env, project).returncode == 126


def test_a_lock_held_forever_is_an_error_not_a_hang(box, monkeypatch):
    _, home, _, _, _, _ = box
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl,os,sys,time; fd=os.open(sys.argv[1], "
                               "os.O_RDWR|os.O_CREAT); fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); "
                               "time.sleep(60)", str(home / lock.AUDIT_LOCK_NAME)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        monkeypatch.setattr(lock, "HOLDER_SECONDS", 0.2)
        with pytest.raises(OSError):
            audit.append(home, [audit.event("test")])
    finally:
        holder.kill()
        holder.wait()


# ---------------------------------------------------------------- what the real shell runs besides the line


def test_bash_env_file_is_judged_not_run_unchecked(box):
    tmp, _, _, project, victim, env = box
    hook = tmp / "be.sh"
    hook.write_text(f"rm -rf {victim}\n")
    for value in (str(hook), f"$(rm -rf {victim})"):      # bash expands BASH_ENV: a substitution runs too
        done = wispsh(["-c", "true"], dict(env, BASH_ENV=value), project)
        assert done.returncode == 126 and victim.exists(), done.stderr


def test_an_rcfile_given_with_minus_i_is_judged(box):
    tmp, _, _, project, victim, env = box
    rc = tmp / "rc"
    rc.write_text(f"rm -rf {victim}\n")
    for argv in (["--rcfile", str(rc), "-i", "-c", "true"], ["--init-file", str(rc), "-ic", "true"]):
        done = wispsh(argv, env, project)
        assert done.returncode == 126 and victim.exists(), done.stderr
    assert wispsh(["--norc", "-c", "true"], env, project).returncode == 0


def test_env_for_an_interactive_sh_is_judged(box):
    tmp, _, _, project, victim, env = box
    hook = tmp / "env.sh"
    hook.write_text(f"rm -rf {victim}\n")
    done = wispsh(["-i", "-c", "true"], dict(env, ENV=str(hook)), project)
    assert done.returncode == 126 and victim.exists(), done.stderr


def test_an_exported_function_named_in_the_line_is_judged_by_its_body(box):
    """BASH_FUNC_ls%% made the checked `ls` (safe) run whatever the function said."""
    _, _, _, project, victim, env = box
    env = dict(env, **{"BASH_FUNC_ls%%": f"() {{ rm -rf {victim}; }}"})
    done = wispsh(["-c", "ls"], env, project)
    assert done.returncode == 126 and victim.exists(), done.stderr
    assert wispsh(["-c", "echo fine"], env, project).stdout == "fine\n"   # not named: not judged, runs


def test_after_yes_the_implicit_code_still_runs_as_bash_would(box):
    """The fix judges the hook; it does not drop it (a person who says yes gets bash's behaviour)."""
    tmp, _, _, project, _, env = box
    hook = tmp / "be.sh"
    hook.write_text("echo from-bash-env\n")
    done = wispsh(["--yes", "-c", "echo line"], dict(env, BASH_ENV=str(hook)), project)
    assert (done.returncode, done.stdout) == (0, "from-bash-env\nline\n")


def test_an_unreadable_script_is_never_handed_to_the_real_shell(box):
    """wispsh could not read the script and let the real shell open it: a file swapped in between ran."""
    tmp, home, _, project, _, env = box
    log = tmp / "shell-was-started"
    fake = tmp / "bin" / "bash"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\necho started >> {log}\nexec /bin/bash \"$@\"\n")
    fake.chmod(0o755)
    private(home / "config.json", json.dumps({"shell": {"bash": str(fake)}}))
    done = wispsh(["no-such-script.sh"], dict(env, PATH="/usr/bin:/bin"), project)
    assert done.returncode == 127 and "no-such-script.sh: No such file or directory" in done.stderr
    assert not log.exists()


# ---------------------------------------------------------------- an agent answering its own question


NESTED = """
import os, sys
env = {k: v for k, v in os.environ.items() if k != "WISP_GATED"}    # the agent hides where it came from
os.execve(sys.argv[1], [sys.argv[1], "--yes", "-c", "rm -rf victim"], env)
"""


def test_yes_said_beneath_a_checked_line_answers_nothing(box):
    tmp, home, _, project, victim, env = box
    private(home / "config.json", json.dumps({"approval": {"threshold": "high"}}))   # python3 FILE runs unasked
    (project / "nested.py").write_text(NESTED)
    done = wispsh(["-c", f"{sys.executable} nested.py {WISPSH}"], env, project)
    assert done.returncode == 126 and victim.exists(), done.stderr
    top = wispsh(["--yes", "-c", "rm -rf victim"], env, project)     # said by whoever started us: honoured
    assert top.returncode == 0 and not victim.exists()


def test_a_watcher_started_by_a_checked_line_may_not_answer(box):
    """A 'watcher' an agent's line left running on a pty that `script` holds (a terminal program) and that has
    left the agent's process tree looked like a person's `wisp watch`."""
    from wispsh.ask import broker

    tmp, _, _, _, _, env = box
    if not shutil.which("script") or not shutil.which("setsid"):
        pytest.skip("machine lacks script or setsid")
    pidfile = tmp / "watcher.pid"
    line = (f"setsid script -qfc 'env -u WISP_GATED sh -c \"echo \\$\\$ > {pidfile}; exec sleep 60\"' /dev/null "
            "</dev/null >/dev/null 2>&1 &")
    done = subprocess.run(["bash", "-c", line], env=dict(env, WISP_GATED="1"), timeout=HANG)
    assert done.returncode == 0
    for _ in range(200):
        if pidfile.exists() and pidfile.read_text().strip():
            break
        time.sleep(0.05)
    pid = int(pidfile.read_text())
    try:
        assert not session.started_with(pid, "WISP_GATED")            # it dropped the variable itself
        reason = broker.watcher_refusal(pid, os.getuid(), (2 ** 22 + 7, 0.0), Config(path=tmp / "c.json"))
        assert reason and "WISP_GATED" in reason
    finally:
        os.kill(pid, signal.SIGKILL)


def test_planted_sockets_that_never_accept_do_not_stall_the_asker(box):
    """Each planted listener with a full backlog held connect() for its timeout: 20 of them, 40 s of wait."""
    import socket

    tmp, _, run, _, _, env = box
    where = run / "wisp" / "watch"
    where.mkdir(parents=True, mode=0o700)
    (run / "wisp").chmod(0o700)
    held = []
    for n in range(20):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(where / f"watch-{n}.sock"))
        server.listen(0)
        held.append(server)
        while True:                                      # fill its backlog: the next connect would block
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setblocking(False)
            held.append(client)
            try:
                client.connect(str(where / f"watch-{n}.sock"))
            except BlockingIOError:
                break
    try:
        code = "from wispsh.ask import wire; print(len(wire.connect_watchers()))"
        done = subprocess.run([sys.executable, "-c", code], env=dict(env, PYTHONPATH=str(REPO)), cwd=tmp,
                              capture_output=True, text=True, timeout=HANG)
        assert done.returncode == 0 and done.stdout.strip() == "0", done.stderr
    finally:
        for s in held:
            s.close()


def test_a_dialog_stopped_and_resumed_with_fg_still_takes_single_keys(tmp_path):
    """After kill -TSTP and `fg` the shell had left its own (line) mode: keys did nothing until the timeout."""
    from test_ask_support import PROMPT, RM, PersonShell, person_env, result, start_driver

    shell = PersonShell(person_env(tmp_path), cwd=str(tmp_path))
    try:
        before = shell.stty()
        out = start_driver(shell, RM, tmp_path, "a")
        shell.child.expect_exact("[n] no")
        pid = int(Path(str(out) + ".pid").read_text())
        os.kill(pid, signal.SIGTSTP)
        shell.child.expect_exact(PROMPT)                  # the job is stopped; the shell is back
        assert shell.stty() == before                     # and its terminal is sane
        shell.child.sendline("fg")
        shell.child.expect_exact("[n] no")                # the dialog is in the foreground again (redrawn)
        shell.child.send("y\r")
        shell.child.expect_exact("once: allowed")
        shell.child.send("n\r")
        assert [a[1] for a in result(out)["answers"]] == ["y", "n"]
        shell.child.expect_exact(PROMPT)
        assert shell.stty() == before
    finally:
        shell.close()


def test_an_exported_dot_function_cannot_replace_a_checked_script(box):
    """Script mode runs `. /dev/fd/N`; bash prefers a function named `.` to the builtin."""
    tmp, _, _, project, victim, env = box
    script = project / "s.sh"
    script.write_text("true\n")                       # no dot anywhere in the checked text
    env = dict(env, **{"BASH_FUNC_.%%": f"() {{ rm -rf {victim}; }}"})
    done = wispsh(["s.sh"], env, project)
    assert done.returncode == 126 and victim.exists(), done.stderr


@pytest.mark.parametrize("shell_name,args,variable,rc", [
    ("zsh", ["-c", "true"], "ZDOTDIR", ".zshenv"),
    ("zsh", ["-c", "true"], "HOME", ".zshenv"),
    ("bash", ["-ic", "true"], "HOME", ".bashrc"),
    ("bash", ["-lc", "true"], "HOME", ".profile"),
    ("sh", ["-lc", "true"], "HOME", ".profile"),
])
def test_startup_files_under_a_home_the_line_moved_are_judged(box, shell_name, args, variable, rc):
    """`HOME=/tmp/e zsh -c ...` ran /tmp/e/.zshenv, which no gate had seen."""
    tmp, _, _, project, victim, env = box
    if not shutil.which(shell_name):
        pytest.skip(f"machine lacks {shell_name}")
    moved = tmp / "moved"
    moved.mkdir()
    (moved / rc).write_text(f"rm -rf {victim}\n")
    shim = tmp / "shims" / shell_name
    shim.parent.mkdir(exist_ok=True)
    shim.symlink_to(WISPSH)
    done = subprocess.run([str(shim), *args], env=dict(env, **{variable: str(moved)}), cwd=project,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=HANG)
    assert done.returncode == 126 and victim.exists(), done.stderr


@pytest.mark.parametrize("argv", [
    ["-help", "-c", "rm -rf {victim}"],              # zsh: -h -e -l -p, then -c: not bash's --help
    ["-rcfile", "rm -rf {victim}", "-c", "true"],    # zsh: -r -c -f -i -l -e: the first operand is the line
    ["-O", "evil", "-c", "true"],                    # zsh: -O takes no word: `evil` is the script
    ["-b", "-c", "true"],                            # zsh: -b ends the options: a file named -c is the script
    ["-ocshnullglob", "evil", "-c", "true"],         # zsh: -oNAME; `evil` is the script
])
def test_zsh_argv_is_read_as_zsh_reads_it(box, argv):
    """wispsh read zsh's argv by bash's grammar: what it passed on as an option's argument ran unchecked."""
    tmp, _, _, project, victim, env = box
    if not shutil.which("zsh"):
        pytest.skip("machine lacks zsh")
    for name in ("evil", "-c"):
        (project / name).write_text(f"rm -rf {victim}\n")
    shim = tmp / "shims" / "zsh"
    shim.parent.mkdir(exist_ok=True)
    shim.symlink_to(WISPSH)
    words = [w.replace("{victim}", str(victim)) for w in argv]
    done = subprocess.run([str(shim), *words], env=env, cwd=project, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=HANG)
    assert victim.exists(), (done.returncode, done.stdout, done.stderr)


DIFF_TOKENS = [["-e"], ["-x"], ["-o", "errexit"], ["-oerrexit"], ["-b"], ["-O"], ["-O", "A"], ["-s"], ["--"], ["-"],
               ["+o", "B"], ["--login"], ["--emulate", "sh"], ["-help"], ["-version"], ["-v"], ["-ec"], ["-ce"],
               ["-rcfile", "C"], ["--rcfile", "C"], ["-c"], ["-n"], ["-oc"], ["-co"], ["-bc"], ["-cb"], ["-R"]]
DIFF_TAILS = [["-c", "echo LINE"], ["echo LINE"], ["-c", "echo LINE", "x"], ["D"]]


@pytest.mark.parametrize("real", ["bash", "zsh", "dash"])
def test_what_the_real_shell_runs_is_what_wispsh_reads_as_the_line_or_script(real, tmp_path):
    """Differential: each argv shape run by the real shell runs only the line wispsh gates (or the script it
    reads); files named like the words (A, B, C, D, -c) give away any other word taken for code."""
    from wispsh import invocation as sh

    path = shutil.which(real)
    if not path:
        pytest.skip(f"machine lacks {real}")
    for name in ("A", "B", "C", "D", "-c", "x", "sh", "errexit"):
        (tmp_path / name).write_text(f"echo FILE-{name}\n")
    grammar = sh.grammar_of(path)
    shapes = [[w for t in combo for w in t] + tail for combo in [[t] for t in DIFF_TOKENS]
              + [[["--emulate", "sh"], ["-cb"]], [["-b"], ["-c"]], [["-O"], ["-c"]]] for tail in DIFF_TAILS]
    wrong = []
    for words in shapes:
        try:
            inv = sh.parse([real, *words], stdin_is_tty=False, grammar=grammar)
        except sh.UsageError:
            continue                                       # wispsh refuses the argv: nothing runs
        done = subprocess.run([path, *words], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=HANG)
        ran = {w for w in done.stdout.split() if w.startswith(("LINE", "FILE-"))}
        allowed = {"COMMAND": {"LINE"} if inv.line == "echo LINE" else set(),
                   "SCRIPT": {f"FILE-{inv.script}"}}.get(inv.mode.upper(), set())
        if not ran <= allowed:
            wrong.append((words, inv.mode, inv.line, inv.script, ran))
    assert not wrong


def test_a_forged_depth_only_refuses_and_never_skips_the_gate(box):
    _, _, _, project, victim, env = box
    for depth in ("9" * 5000, "31", "-4", "x"):
        done = wispsh(["-c", "rm -rf victim"], dict(env, WISP_DEPTH=depth), project)
        assert done.returncode == 126 and victim.exists() and "Traceback" not in done.stderr, done.stderr


def test_a_symlinked_config_refuses(box, tmp_path):
    _, home, _, project, _, env = box
    elsewhere = private(tmp_path / "agent" / "config.json", json.dumps({"approval": {"threshold": "dangerous"}}))
    (home / "config.json").symlink_to(elsewhere)
    done = wispsh(["-c", "echo ran"], env, project)
    assert done.returncode == 126 and "config" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("line, variable, value", [
    ('env "${X:-ls}" rm -rf victim', "X", "A=1"),           # judged as `env ls rm -rf victim`: ls lists
    ('timeout "${T:-ls}" rm -rf victim', "T", "5"),         # judged as timeout's DURATION `ls`
    ('"${P:-ls}" -rf victim', "P", "rm"),                   # the program itself
    ("nice -n 1 ${P-ls} -rf victim", "P", "rm"),            # `-`: unset only
    ("x=ls; ${x/#ls/rm} -rf victim", "", ""),               # the anchors were read as text: ls stayed
    ("x=ls; ${x/%ls/rm} -rf victim", "", ""),
    ("x=sha256sum; ${x%\\a256sum} -c 'rm -rf victim'", "", ""),   # bash removes the escape: sh -c
    ("x=sha256sum; ${x%'a'256sum} -c 'rm -rf victim'", "", ""),
    ("set -o posix; x=ls; x=rm :; $x -rf victim", "", ""),   # posix mode keeps an assignment before `:`
    ("x=ls; x=rm :; $x -rf victim", "POSIXLY_CORRECT", "1"),
    ("x=ls; x[0]=rm; $x -rf victim", "", ""),                # element 0 is what $x reads
    ("x=ls; printf -v 'x[0]' rm; $x -rf victim", "", ""),
    ("x=ls; read x[0] <<< rm; $x -rf victim", "", ""),
    ("declare -n x=y; x=ls; y=rm; $x -rf victim", "", ""),   # x is another name for y
    ("x=ls; declare -n x; $x -rf victim", "ls", "rm"),       # x names the variable ls
    ("shopt -s nullglob; command -[v] rm -rf victim", "", ""),   # the glob word is gone: `command rm`
])
def test_the_value_the_gate_reads_is_the_value_bash_runs(box, line, variable, value):
    """Each was judged as running ls (or sha256sum), safe, and ran rm (or sh -c): `${X:-ls}` with an X the
    environment set, pattern operators read as text, assignments posix mode keeps, array element 0, namerefs,
    a glob option that nullglob removes."""
    _, _, _, project, victim, env = box
    done = wispsh(["-c", line], dict(env, **({variable: value} if variable else {})), project)
    assert done.returncode == 126 and victim.exists(), (done.returncode, done.stderr)



@pytest.mark.parametrize("line, extra", [
    ('cd /tmp && cd "$D" && echo x > rc', {"D": "{ssh}"}),        # a cd known only at run time
    ("cd /tmp/no-such-dir; echo x > rc", {}),                     # a failed cd: the line goes on where it was
    ("cd {ssh}; cd /tmp; cd -; echo x > rc", {}),                 # back where only the run knows
    ("pushd {ssh}; pushd /tmp; popd; echo x > rc", {}),
    ("cd /tmp && cd autostart && echo x > rc", {"CDPATH": "{home}/.config"}),    # found in $CDPATH first
    ("cd /tmp && CDPATH={home}/.config cd autostart && echo x > rc", {}),       # CDPATH set for the cd alone
])
def test_a_cd_the_gate_cannot_follow_leaves_the_line_where_only_the_run_knows(box, line, extra):
    """Each wrote ~/.ssh/rc (sshd runs it at every login) or into ~/.config/autostart, judged as a write in
    /tmp (low): it ran."""
    tmp, _, _, project, _, env = box
    ssh, autostart = tmp / ".ssh", tmp / ".config" / "autostart"
    ssh.mkdir(mode=0o700)
    autostart.mkdir(parents=True)
    env = dict(env, **{k: v.format(home=tmp, ssh=ssh) for k, v in extra.items()})
    done = wispsh(["-c", line.format(ssh=ssh, home=tmp)], env, ssh if "no-such-dir" in line else project)
    assert done.returncode == 126, (done.returncode, done.stdout, done.stderr)
    assert not (ssh / "rc").exists() and not (autostart / "rc").exists()


def test_a_write_through_a_new_link_and_then_up_lands_where_the_kernel_goes(box):
    """`ln -s ~/.ssh/sub L; echo x > L/../rc` was judged as writing beside L (low): the kernel follows the
    link before `..`, and wrote ~/.ssh/rc."""
    tmp, _, _, project, _, env = box
    ssh = tmp / ".ssh"
    (ssh / "sub").mkdir(parents=True)
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="wisp-link-"))        # a temporary place, outside the home
    try:
        link = scratch / "l"
        done = wispsh(["-c", f"ln -s {ssh / 'sub'} {link}; echo x > {link}/../rc"], env, project)
        assert done.returncode == 126 and not (ssh / "rc").exists(), (done.returncode, done.stderr)
    finally:
        shutil.rmtree(scratch)


@pytest.fixture
def outside():
    """A scratch directory in /tmp outside the box's home (a temporary place, low to write)."""
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="wisp-rt-"))
    yield scratch
    shutil.rmtree(scratch, ignore_errors=True)


@pytest.mark.parametrize("line", [
    "x=ls; for x in rm; do :; done; $x -rf victim",                 # after its loop x keeps the last word
    "cd() {{ :; }}; cd /tmp && echo x > victim/f",                  # the line's own cd: it stays here
    "ln -s {ssh} {out}/L; cd {out}/L && echo x >> ../.bashrc",      # into a new link, then up
    "ln -s {ssh}/sub {out}/L; X={out}/L/..; echo x > $X/rc",        # through it, in a variable
    "ln -s {ssh}/sub {out}/L; echo x > {out}/[L]/../rc",            # through it, in a glob
    "echo x >> {home_glob}/.bashrc",                                # a glob that matches the home
    "cd {home_glob} && echo x >> .bashrc",
    "cd /tmp && env -C{home} tee -a .bashrc <<< x",                 # env -C as getopt reads it
    "cd /tmp && env -iC{home} tee -a .bashrc <<< x",
    "cd /tmp && env --ch={home} tee -a .bashrc <<< x",
    # round three: bash's command hash and alias tables set as variables (`hash -p` and `alias` are asked)
    "BASH_CMDS[ls]=/bin/rm; ls -rf victim",
    "printf -v 'BASH_CMDS[ls]' /bin/rm; ls -rf victim",
    ": ${{BASH_CMDS[ls]:=/bin/rm}}; ls -rf victim",
    "shopt -s expand_aliases; BASH_ALIASES[ls]='rm -rf'\nls victim",
    ": ${{P:=ls}}; $P -rf victim",                                   # `:=` keeps a P the environment set
    "find {ssh} -maxdepth 0 -execdir touch .ssh/rc \\;",           # -execdir runs above a start's own match
    "find {home} -maxdepth 1 -name .ssh -execdir sh -c 'echo x > .ssh/rc' \\;",
    # python -m puts the current directory first: the line's own json/ is what runs
    "mkdir -p {out}/json; echo 'import shutil; shutil.rmtree(\"{victim}\")' > {out}/json/__init__.py; "
    "cd {out} && python3 -m json.tool /dev/null",
])
def test_round_two_of_values_the_gate_reads_and_bash_does_not(box, outside, line):
    """A second red team, against this round's fixes: each was judged safe or low and ran (rm, or a write
    into the home's .bashrc or ~/.ssh) before its fix."""
    tmp, _, _, project, victim, env = box
    ssh = tmp / ".ssh"
    (ssh / "sub").mkdir(parents=True)
    bashrc = tmp / ".bashrc"
    bashrc.write_text("# mine\n")
    home_glob = str(tmp)[:-1] + "?"
    env = dict(env, P="rm")
    done = wispsh(["-c", line.format(ssh=ssh, out=outside, home=tmp, home_glob=home_glob, victim=victim)], env,
                  project)
    assert done.returncode == 126, (done.returncode, done.stdout, done.stderr)
    assert victim.exists() and bashrc.read_text() == "# mine\n" and not (ssh / "rc").exists()
    assert not (victim / "f").exists()


# ---------------------------------------------------------------- round four: a repository is code

def _bare(where: Path, config: str = "") -> Path:
    """A bare-style repository as git recognises one (HEAD, objects/, refs/), made by hand: no `git init`."""
    for name in ("objects", "refs"):
        (where / name).mkdir(parents=True, exist_ok=True)
    (where / "HEAD").write_text("ref: refs/heads/main\n")
    (where / "config").write_text("[core]\n\trepositoryformatversion = 0\n" + config)
    return where


def _worktree(where: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(where)], check=True, capture_output=True)
    (where / "f").write_text("a\n")
    subprocess.run(["git", "-C", str(where), "add", "f"], check=True)
    subprocess.run(["git", "-C", str(where), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
                   check=True)
    return where


def _plant(kind: str, out: Path, marker: Path) -> None:
    touch = f"touch {marker}"
    if kind == "gitfile":
        (out / "w").mkdir()
        _bare(out / "r", f"\tfsmonitor = {touch}\n")
        (out / "w" / ".git").write_text(f"gitdir: {out / 'r'}\n")
    elif kind == "worktree-fsmonitor":
        _worktree(out / "n")
        with open(out / "n" / ".git" / "config", "a") as fh:
            fh.write(f"[core]\n\tfsmonitor = \"{touch}\"\n")
    elif kind == "hook":
        _worktree(out / "n")
        hook = out / "n" / ".git" / "hooks" / "post-index-change"
        hook.write_text(f"#!/bin/sh\n{touch}\n")
        hook.chmod(0o755)
        os.utime(out / "n" / "f", (time.time() + 5, time.time() + 5))    # status refreshes the index: the hook
    elif kind in ("link-up", "deep", "linked-later"):
        tree = out / "evil"
        _bare(tree, f"\tbare = false\n\tworktree = {out / 'w' if kind == 'linked-later' else tree}\n"
                    f"\tfsmonitor = {touch}\n")
        if kind == "link-up":
            (tree / "sub").mkdir()
            (out / "a").mkdir()
            (out / "a" / "link").symlink_to(tree / "sub")       # git walks up from where the link really goes
        elif kind == "deep":
            (tree / "/".join(["d"] * 70)).mkdir(parents=True)
    elif kind == "many-samples":
        _worktree(out / "n")
        hooks = out / "n" / ".git" / "hooks"
        for k in range(300):
            (hooks / f"a{k:04}.sample").write_text("")
        hook = hooks / "post-index-change"
        hook.write_text(f"#!/bin/sh\n{touch}\n")
        hook.chmod(0o755)
        os.utime(out / "n" / "f", (time.time() + 5, time.time() + 5))
    elif kind == "sshcommand":
        _bare(out / "s", f"\tsshCommand = {touch}; false\n[remote \"origin\"]\n\turl = ssh://x.example/r\n")


REPOSITORY_ATTACKS = [
    ("gitfile", "git -C {out}/w status --short"),                 # a `.git` file points at a bare-style dir
    ("gitfile", "cd {out}/w && git ls-files"),
    ("worktree-fsmonitor", "git -C {out}/n status --short"),
    ("worktree-fsmonitor", "cd {out}/n && git diff"),
    ("hook", "git -C {out}/n status --short"),                     # post-index-change
    ("sshcommand", "git -C {out}/s ls-remote origin"),
    # planted by the line itself (nothing on disk before it)
    ("", "mkdir -p {out}/r/objects {out}/r/refs {out}/w && echo 'ref: refs/heads/m' > {out}/r/HEAD && "
         "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' > {out}/r/config && "
         "echo 'gitdir: {out}/r' > {out}/w/.git && git -C {out}/w status"),
    ("bare-clean", "printf '[core]\\n\\tsshCommand = touch {marker}; false\\n[remote \"o\"]\\n\\turl = ssh://x.example/r\\n' "
                   ">> {out}/c/config && git -C {out}/c ls-remote o"),
    # a second red team, against the first fix
    ("gitfile", "find {out} -maxdepth 1 -name w -execdir git -C w status \\;"),   # run where the match is
    ("link-up", "cd {out}/a/link && git status"),
    ("link-up", "git -C {out}/a/link/.. status"),
    ("deep", "cd {out}/evil/" + "/".join(["d"] * 70) + " && git status"),
    ("gitfile", 'git -C "$(printf {out}/w)" status'),
    ("linked-later", "ln -s {out}/evil {out}/w && git -C {out}/w status"),
    ("many-samples", "git -C {out}/n status"),
    ("bare-clean", "mkdir -p {out}/w && echo 'gitdir: {out}/c' > {out}/w/.git && "
                   "printf '[core]\\n\\tfsmonitor = touch {marker}\\n' >> {out}/c/config; cd {out}/w && git status"),
]


@pytest.mark.parametrize("kind, line", REPOSITORY_ATTACKS)
def test_a_repository_a_line_could_have_made_is_judged_by_what_it_runs(box, outside, kind, line):
    """A fourth red team: a repository planted in /tmp (or by the line) whose config (core.fsmonitor,
    core.sshCommand) or hooks run a program, then a git command that only reads (ls-files, status, diff,
    ls-remote): judged safe, and the program ran. The same line in plain bash runs it (the attack is real)."""
    _, _, _, project, _, env = box
    marker = outside / "pwned"
    if kind == "bare-clean":
        _bare(outside / "c", "")
    elif kind:
        _plant(kind, outside, marker)
    text = line.format(out=outside, marker=marker)
    backup = outside.parent / (outside.name + "-plant")
    shutil.copytree(outside, backup, symlinks=True)
    try:
        plain = subprocess.run(["bash", "-c", text], env=env, cwd=project, capture_output=True, timeout=HANG)
        assert marker.exists(), ("the attack does not work in plain bash", plain.stderr)
        shutil.rmtree(outside)
        shutil.copytree(backup, outside, symlinks=True)     # the plant again, as it was before bash ran
    finally:
        shutil.rmtree(backup)
    if kind in ("hook", "many-samples"):
        os.utime(outside / "n" / "f", (time.time() + 5, time.time() + 5))
    done = wispsh(["-c", text], env, project)
    assert done.returncode == 126 and not marker.exists(), (done.returncode, done.stdout, done.stderr)


def test_a_clean_clone_in_a_temporary_directory_is_read_unasked(box, outside):
    """What git clone makes holds no code (no hooks, no code keys): reading it stays below the threshold."""
    _, _, _, project, _, env = box
    _worktree(outside / "src")
    subprocess.run(["git", "clone", "-q", str(outside / "src"), str(outside / "c")], check=True)
    for line in (f"git -C {outside}/c log --oneline", f"cd {outside}/c && git status --short && git diff"):
        done = wispsh(["-c", line], env, project)
        assert done.returncode == 0, (line, done.stderr)


def test_a_git_dir_named_inside_the_project_is_read_too(box):
    """`--git-dir` inside the project was only checked outside it: a bare-style directory there ran its
    config's core.fsmonitor."""
    _, _, _, project, _, env = box
    marker = project / "pwned"
    _bare(project / "evil", f"\tbare = false\n\tfsmonitor = touch {marker}\n")
    done = wispsh(["-c", "git --git-dir=evil --work-tree=. status"], env, project)
    assert done.returncode == 126 and not marker.exists(), (done.returncode, done.stderr)


def test_hooks_a_read_cannot_run_ask_nothing(box, outside):
    """A clone with git-lfs's hooks (pre-push, post-checkout) and a husky hooksPath: log and status run none
    of them. The post-index-change hook git status does run is asked about (above)."""
    _, _, _, project, _, env = box
    _worktree(outside / "src")
    subprocess.run(["git", "clone", "-q", str(outside / "src"), str(outside / "c")], check=True)
    for name in ("pre-push", "post-checkout", "post-commit", "post-merge"):
        hook = outside / "c" / ".git" / "hooks" / name
        hook.write_text("#!/bin/sh\ngit lfs " + name + ' "$@"\n')
        hook.chmod(0o755)
    (outside / "c" / ".husky").mkdir()
    (outside / "c" / ".husky" / "pre-commit").write_text("#!/bin/sh\nnpm test\n")
    subprocess.run(["git", "-C", str(outside / "c"), "config", "core.hooksPath", ".husky"], check=True)
    with open(outside / "c" / ".git" / "config", "rb+") as fh:         # git reads a leading BOM: so does this
        data = fh.read()
        fh.seek(0)
        fh.write(b"\xef\xbb\xbf" + data)
    for line in (f"git -C {outside}/c log --oneline", f"cd {outside}/c && git status --short && git diff"):
        done = wispsh(["-c", line], env, project)
        assert done.returncode == 0, (line, done.stderr)
