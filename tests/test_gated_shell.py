"""Gated shells (wispsh/session/): a shell started without `-c` judges each complete command before one real
shell runs it. Real pipes, real ptys (pexpect), a real tmux server, the real bash and dash as oracles.

The plain-mode half; the `wisp run` half is tests/test_wisp_run_sessions.py.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from test_exec_parity import REAL, make_shim

SESSIONS = Path(__file__).resolve().parent / "data" / "gated-sessions.txt"


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    (home / ".wisp").mkdir(parents=True)
    (home / ".wisp").chmod(0o700)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "WISP_HOME": str(home / ".wisp"), "LC_ALL": "C",
            "TERM": "xterm", "XDG_RUNTIME_DIR": str(tmp_path)}


@pytest.fixture
def shims(tmp_path):
    return {name: str(make_shim(tmp_path / "shims", name)) for name in ("bash", "sh", "zsh")}


def sessions():
    found, name, lines = [], None, []
    for line in SESSIONS.read_text().splitlines(keepends=True):
        if line.startswith("### "):
            if name:
                found.append((name, "".join(lines)))
            name, lines = line[4:].strip(), []
        elif name:
            lines.append(line)
    found.append((name, "".join(lines)))
    return found


# ---------------------------------------------------------------- pipes


@pytest.mark.parametrize("name,text", sessions(), ids=[n for n, _ in sessions()])
def test_a_session_through_the_gate_is_what_bash_gives(name, text, env, shims, tmp_path):
    """The differential corpus: each session's stdout, stderr and status through the gated shell are the real
    shell's (the threshold at dangerous: all of it runs, `alias` and `trap` too)."""
    config = Path(env["WISP_HOME"]) / "config.json"
    config.write_text('{"approval": {"threshold": "dangerous"}}')
    config.chmod(0o600)
    work = tmp_path / "work"
    work.mkdir()
    others = ("sh", "zsh") if REAL.get("zsh") else ("sh",)      # zsh where the machine has it
    for shell in ("bash", *others) if name.endswith("[sh]") else ("bash",):
        got = subprocess.run([shims[shell], "-s"], input=text.encode(), capture_output=True, env=env, cwd=work,
                             timeout=60)
        want = subprocess.run([shims[shell], "-s"], executable=REAL[shell], input=text.encode(),
                              capture_output=True, env=env, cwd=work, timeout=60)
        assert (got.stdout.decode(), got.stderr.decode(), got.returncode) == \
            (want.stdout.decode(), want.stderr.decode(), want.returncode), shell


def test_a_syntax_check_on_stdin_runs_nothing_and_says_what_bash_says(env, shims, tmp_path):
    """SWE-ReX's pre-check, `bash -n << 'EOF' … EOF`: no gated shell (it would wait for reports a shell that runs
    nothing never writes); the real shell checks the syntax itself."""
    (tmp_path / "victim").mkdir()
    for text in (b"rm -rf victim\n", b"echo )\n", b"for x in 1\n"):
        got = subprocess.run([shims["bash"], "-n"], input=text, capture_output=True, env=env, cwd=tmp_path,
                             timeout=30)
        want = subprocess.run([shims["bash"], "-n"], executable=REAL["bash"], input=text, capture_output=True,
                              env=env, cwd=tmp_path)
        assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert (tmp_path / "victim").is_dir()


def test_a_restricted_shell_without_a_line_is_refused(env, shims):
    got = subprocess.run([shims["bash"], "-r"], input=b"echo ran\n", capture_output=True, env=env, timeout=30)
    assert got.returncode == 126 and got.stdout == b"" and b"a restricted shell" in got.stderr


def test_read_gets_its_data_line(env, shims):
    got = subprocess.run([shims["bash"]], input=b"read x; echo got=$x\nhello\n", capture_output=True, env=env)
    assert (got.stdout, got.stderr, got.returncode) == (b"got=hello\n", b"", 0)


def _reply(proc, want: bytes, timeout: float = 20) -> bytes:
    out = b""
    deadline = time.monotonic() + timeout
    while want not in out:
        left = deadline - time.monotonic()
        assert left > 0, out
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, out
            out += chunk
    return out


def test_a_hundred_piped_commands_are_each_answered_before_the_next_is_sent(env, shims, tmp_path):
    proc = subprocess.Popen([shims["bash"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, cwd=tmp_path)
    try:
        for n in range(100):
            command = [f"echo READY{n}", f"n{n}={n}; echo \"READY$n{n}\"", f"cd /tmp && echo READY{n}",
                       f"printf 'READY%s\\n' {n}"][n % 4]
            proc.stdin.write(command.encode() + b"\n")
            proc.stdin.flush()
            assert f"READY{n}\n".encode() in _reply(proc, f"READY{n}\n".encode())
        proc.stdin.write(b"rm -rf victim\necho st=$?\n")
        proc.stdin.flush()
        assert b"wispsh: not run: rm -rf victim" in _reply(proc, b"st=126\n")
    finally:
        proc.stdin.close()
        proc.wait(timeout=20)
    assert proc.returncode == 0


def test_a_refused_command_is_a_failed_command(env, shims, tmp_path):
    (tmp_path / "victim").mkdir()
    text = b"trap 'echo err-trap' ERR\nrm -rf victim\necho \"st=$?\"\nset -e\nrm -rf victim\necho never\n"
    got = subprocess.run([shims["bash"]], input=text, capture_output=True, env=env, cwd=tmp_path)
    assert got.stdout == b"err-trap\nst=126\nerr-trap\n"
    assert got.stderr.count(b"wispsh: not run: rm -rf victim") == 2 and got.returncode == 126
    assert (tmp_path / "victim").is_dir()


def test_a_command_is_judged_with_the_shells_state(env, shims, tmp_path):
    """`cd`, a variable and a function set by earlier commands decide what a later one does."""
    (tmp_path / "victim").mkdir()
    text = (b"d=victim\nrm -rf \"$d\"\necho st=$?\nwipe() { rm -rf \"$1\"; }\necho defined=$?\nwipe x\necho st=$?\n"
            b"cd ~\nls -d .ssh\ncat .ssh/id_rsa\necho st=$?\n")
    got = subprocess.run([shims["bash"]], input=text, capture_output=True, env=env, cwd=tmp_path)
    assert got.stdout == b"st=126\ndefined=126\nst=126\n.ssh\nst=126\n", got.stderr
    said = got.stderr.decode()
    assert "recursive delete of victim" in said or "recursive delete of" in said
    assert "cat .ssh/id_rsa (high: reads .ssh/id_rsa" in said           # judged in the shell's directory: ~
    assert (tmp_path / "victim").is_dir()


@pytest.mark.parametrize("command", [
    "exec 62<&-", "exec 63>/tmp/x", "echo x >&63", "__wisp_rc() { :; }", "printf() { :; }",
    "function builtin { :; }", "enable -n printf", "read -u 62 line"])
def test_tampering_with_the_plumbing_is_refused(command, env, shims):
    got = subprocess.run([shims["bash"]], input=f"{command}\necho st=$?\n".encode(), capture_output=True, env=env)
    assert got.stdout == b"st=126\n" and b"tampers with the gated shell" in got.stderr, got.stderr


def test_a_shell_without_a_line_beneath_an_allowed_line_is_still_gated(env, shims, tmp_path):
    """`bash -c 'bash'` with `bash *` approved: the inner shell's commands come from its input (Codex's
    `bash -lc 'bash --norc'`, then writes to it), not from the line that was allowed."""
    (tmp_path / "victim").mkdir()
    path_env = {**env, "PATH": f"{Path(shims['bash']).parent}:/usr/bin:/bin"}
    subprocess.run([shims["bash"], "-c", "true"], env=path_env, check=True)
    subprocess.run([str(Path(__file__).resolve().parent.parent / ".venv" / "bin" / "wisp"), "approvals", "add",
                    "bash *", "--scope", "always", "--level", "high"], env=path_env, check=True, capture_output=True)
    got = subprocess.run([shims["bash"], "-c", "bash -s"], input=b"echo inner\nrm -rf victim\necho st=$?\n",
                         capture_output=True, env=path_env, cwd=tmp_path)
    assert got.stdout == b"inner\nst=126\n" and b"wispsh: not run: rm -rf victim" in got.stderr, got.stderr
    assert (tmp_path / "victim").is_dir()


# ---------------------------------------------------------------- terminals


PROMPT = r"GATED(\d+)\$ "


def _pty(shim, env, cwd, *args, norc=True):
    # the prompt counts commands (\\#): the Enter key's hook redraws the line it judged, prompt included
    child = pexpect.spawn(shim, ["--norc", *args] if norc else list(args), env={**env, "PS1": "GATED\\#$ "}, cwd=str(cwd),
                          encoding="utf-8", timeout=30, dimensions=(40, 200))
    child.expect(PROMPT)
    child.number = int(child.match.group(1))
    return child


def _next_prompt(child) -> str:
    said = ""
    while True:
        child.expect(PROMPT)
        said += child.before
        if int(child.match.group(1)) > child.number:
            child.number = int(child.match.group(1))
            return said


def _typed(child, command: str) -> str:
    child.sendline(command)
    return _next_prompt(child)


def test_typed_commands_on_a_pty_are_gated_and_the_shell_stays_bash(env, shims, tmp_path):
    (tmp_path / "X").mkdir()
    child = _pty(shims["bash"], env, tmp_path)
    try:
        assert "hello-typed" in _typed(child, "echo hello-typed")
        said = _typed(child, "rm -rf X")
        assert "wispsh: not run: rm -rf X" in said
        assert "st=126" in _typed(child, "echo st=$?")
        assert "wispsh: not run: cat ~/.ssh/id_rsa" in _typed(child, "cat ~/.ssh/id_rsa")
        assert "PRIVATE KEY" not in child.before
        for line in ("for i in 1 2", "do echo loop-$i", "done"):
            child.sendline(line)
        said = _next_prompt(child)
        assert "loop-1" in said and "loop-2" in said
        assert "rm -rf X" in _typed(child, "history | tail -n 12")         # a refused command is in the history
        assert "tampers with the gated shell" in _typed(child, "bind '\"\\C-m\": accept-line'")
        assert "tampers with the gated shell" in _typed(child, "set +o emacs")
        child.sendline("exit 4")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 4
    assert (tmp_path / "X").is_dir()


def test_state_across_typed_commands_is_bashs(env, shims, tmp_path):
    """cd, variables, functions, aliases and traps set by one typed command hold for the next (the threshold at
    dangerous: `alias` and `trap` are asked about otherwise)."""
    config = Path(env["WISP_HOME"]) / "config.json"
    config.write_text('{"approval": {"threshold": "dangerous"}}')
    config.chmod(0o600)
    child = _pty(shims["bash"], env, tmp_path)
    try:
        _typed(child, "cd /tmp; v=42; f() { echo f-$v; }")
        _typed(child, "alias ll='echo aliased'")
        _typed(child, "trap 'echo bye-trap' EXIT")
        assert "/tmp f-42" in _typed(child, "echo $(pwd) $(f)")
        assert "aliased here" in _typed(child, "ll here")
        assert "f-42" in _typed(child, "export v; bash -c 'echo f-$v'")
        child.sendline("exit")
        child.expect_exact("bye-trap")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_ctrl_c_and_job_control_on_a_pty_are_bashs(env, shims, tmp_path):
    child = _pty(shims["bash"], env, tmp_path)
    try:
        child.sendline("sleep 100")
        time.sleep(0.5)
        child.sendcontrol("c")
        _next_prompt(child)
        assert "st=130" in _typed(child, "echo st=$?")
        _typed(child, "sleep 100 &")
        assert "sleep 100 &" in _typed(child, "jobs")
        child.sendline("fg")
        time.sleep(0.5)
        child.sendcontrol("z")
        assert "Stopped" in _next_prompt(child)
        assert "Stopped" in _typed(child, "jobs")
        child.sendline("exit")
        if child.expect(["There are stopped jobs", pexpect.EOF]) == 0:     # bash's warning; the second exit goes
            _next_prompt(child)
            child.sendline("exit")
            child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


@pytest.mark.parametrize("name", ["sh", "zsh"])
def test_an_interactive_sh_or_zsh_is_bash_with_the_hook(name, env, tmp_path):
    """Only bash's line editor can hand the gate each typed line: an interactive sh is bash in posix mode, an
    interactive zsh is bash (the piped driver would lose job control and Ctrl-C)."""
    if not shutil.which(name):
        pytest.skip(f"machine lacks {name}")
    shim = str(make_shim(tmp_path / "shims", name))
    (tmp_path / "X").mkdir()
    child = _pty(shim, env, tmp_path, norc=False)
    try:
        assert "hi-2" in _typed(child, "echo hi-$((1+1))")
        assert "wispsh: not run: rm -rf X" in _typed(child, "rm -rf X")
        import re

        assert bool(re.search(r"posix\s+on", _typed(child, "set -o | grep posix"))) == (name == "sh")
        child.sendline("exit 2")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 2 and (tmp_path / "X").is_dir()


def test_a_bash_that_skipped_the_hook_never_reads_a_line(env, tmp_path):
    """The tripwire: until the start-up text has run, PROMPT_COMMAND ends the shell before its first prompt
    (a bash in posix mode, or called as sh, skips --rcfile: the hook would be missing)."""
    from wispsh.session.hook import TRIPWIRE

    (tmp_path / "X").mkdir()
    child = pexpect.spawn("/bin/bash", ["--posix", "--norc", "-i"], env={**env, "PROMPT_COMMAND": TRIPWIRE},
                          cwd=str(tmp_path), encoding="utf-8", timeout=20)
    child.sendline("rm -rf X")
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == 9 and (tmp_path / "X").is_dir()


needs_tmux = pytest.mark.skipif(not shutil.which("tmux"), reason="machine lacks tmux")


@needs_tmux
def test_an_openhands_style_tmux_session_is_gated(env, shims, tmp_path):
    """A tmux pane running the shell, commands typed with send-keys, the screen read with capture-pane."""
    (tmp_path / "victim").mkdir()
    sock = str(tmp_path / "tmux.sock")
    tmux = ["tmux", "-S", sock]
    run_env = dict(env)
    subprocess.run([*tmux, "new-session", "-d", "-x", "200", "-y", "50", "-s", "agent", "-e", "PS1=PANE$ ",
                    f"{shims['bash']} --norc"], env=run_env, cwd=tmp_path, check=True)

    def screen():
        return subprocess.run([*tmux, "capture-pane", "-p", "-J", "-S", "-200", "-t", "agent"], env=run_env,
                              capture_output=True, text=True).stdout

    def typed(command, wait_for):
        subprocess.run([*tmux, "send-keys", "-t", "agent", command, "Enter"], env=run_env, check=True)
        deadline = time.monotonic() + 20
        while wait_for not in screen():
            assert time.monotonic() < deadline, screen()
            time.sleep(0.05)

    try:
        typed("echo started-$((6*7))", "started-42")
        typed("rm -rf victim", "wispsh: not run: rm -rf victim")
        typed("echo after-$?", "after-126")
        typed("cd victim && pwd", str(tmp_path / "victim"))
    finally:
        subprocess.run([*tmux, "kill-server"], env=run_env, capture_output=True)
    assert (tmp_path / "victim").is_dir()
