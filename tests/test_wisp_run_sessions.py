"""Gated shells under `wisp run` (wispsh/session/, the supervisor's `session` answer and `command` requests):
every shell started inside without `-c` — by any path, any name, `bash --norc`, `bash -i`, `sh -s` — judges
each typed or piped command with the supervisor; an approval of `bash *` covers nothing typed into it.

Real bwrap, real pipes and a real pty; no watcher, so every question is a refusal.
"""
from __future__ import annotations

import subprocess
import time

import pexpect

from run_support import PIPED_DRIVER as DRIVER
from run_support import PY, WISP, audit, needs_bwrap, needs_userns, person

pytestmark = [needs_bwrap, needs_userns]

def _driven(tmp_path, env, shell, commands):
    import json

    done = subprocess.run([WISP, "run", "--", PY, "-c", DRIVER, *shell], cwd=tmp_path, capture_output=True,
                          text=True, env={**env, "CMDS": json.dumps(commands)}, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _victims(tmp_path, env):
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "keep").write_text("x")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(exist_ok=True)
    (ssh / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")


def test_piped_commands_into_any_shell_inside_are_each_gated(tmp_path):
    env = person(tmp_path)
    _victims(tmp_path, env)
    subprocess.run([WISP, "approvals", "add", "bash *", "--scope", "always", "--level", "high"], env=env,
                   check=True, capture_output=True)
    # (dash reads its input a block ahead: a `read` there would wait for input the driver never sends, as it
    # does under the real dash)
    for shell in (["/bin/bash", "--norc"], ["sh", "-s"], ["/usr/bin/env", "bash"]):
        first = "read x; echo got=$x\nhello" if shell[-1] != "-s" else "x=hello; echo got=$x"
        commands = [first, "cd victim && pwd", "rm -rf victim", "cat ~/.ssh/id_rsa", "cd .. && ls victim",
                    "f() { echo f-$1; }; f one"]
        got = _driven(tmp_path, env, shell, commands)
        out = got["out"]
        assert "got=hello" in out[0] and out[0].rstrip().endswith("__END0__0"), (shell, out)
        assert str(tmp_path / "victim") in out[1]
        assert "wispsh: not run: rm -rf victim" in out[2] and "__END2__126" in out[2]
        assert "wispsh: not run: cat ~/.ssh/id_rsa" in out[3] and "PRIVATE KEY" not in out[3]
        assert "keep" in out[4] and "f-one" in out[5]
        assert got["rc"] == 0
    assert (tmp_path / "victim" / "keep").exists()
    decided = [(e.get("command"), e.get("decision")) for e in audit(env) if e.get("event") == "approval.decided"]
    assert ("rm -rf victim", "denied-unasked") in decided and ("cat ~/.ssh/id_rsa", "denied-unasked") in decided
    lines = [e.get("line") or "" for e in audit(env)]
    assert any("cd victim && pwd" in line for line in lines)      # the audit has each command, not just risky ones


def test_a_typed_command_on_a_pty_inside_is_gated(tmp_path):
    env = person(tmp_path)
    _victims(tmp_path, env)
    child = pexpect.spawn(WISP, ["run", "--", "bash", "--norc", "--noprofile", "-i"], cwd=str(tmp_path),
                          env={**env, "PS1": "IN\\#> "}, encoding="utf-8", timeout=60, dimensions=(30, 160))
    seen = [0]

    def typed(command):
        if command is not None:
            child.sendline(command)
        said = ""
        while True:
            child.expect(r"IN(\d+)> ")
            said += child.before
            if int(child.match.group(1)) > seen[0]:
                seen[0] = int(child.match.group(1))
                return said
    try:
        child.expect(r"IN(\d+)> ")
        seen[0] = int(child.match.group(1))
        assert "READY" in typed("echo READY")
        assert "wispsh: not run: rm -rf victim" in typed("rm -rf victim")
        assert "st=126" in typed("echo st=$?")
        said = typed("cat ~/.ssh/id_rsa")
        assert "wispsh: not run" in said and "PRIVATE KEY" not in said
        start = time.monotonic()
        typed("echo READY")
        assert time.monotonic() - start < 5
        child.sendline("sleep 100")
        time.sleep(0.5)
        child.sendcontrol("c")                          # the terminal's Ctrl-C reaches bash's job inside
        typed(None)
        assert "st=130" in typed("echo st=$?")
        child.sendline("exit 6")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 6
    assert (tmp_path / "victim" / "keep").exists()


# OpenHands-style: a tmux server inside the run, a pane running /bin/bash, commands typed with send-keys and the
# screen read back with capture-pane (tmux inside gets a private socket directory).
TMUX_AGENT = r"""
import json, os, subprocess, sys, time
sock = os.path.join(os.getcwd(), "agent-tmux.sock")
tmux = ["tmux", "-S", sock]
subprocess.run([*tmux, "new-session", "-d", "-x", "160", "-y", "40", "-s", "a", "-e", "PS1=PANE$ ", "/bin/bash --norc"],
               check=True)
def screen():
    return subprocess.run([*tmux, "capture-pane", "-p", "-J", "-S", "-200", "-t", "a"], capture_output=True,
                          text=True).stdout
seen = {}
for command, wait_for in json.loads(os.environ["STEPS"]):
    subprocess.run([*tmux, "send-keys", "-t", "a", command, "Enter"], check=True)
    deadline = time.monotonic() + 20
    while wait_for not in screen() and time.monotonic() < deadline:
        time.sleep(0.05)
    seen[command] = wait_for in screen()
subprocess.run([*tmux, "kill-server"], capture_output=True)
print(json.dumps(seen))
"""


def test_an_openhands_style_tmux_pane_inside_is_gated(tmp_path):
    import json
    import shutil

    if not shutil.which("tmux"):
        import pytest

        pytest.skip("machine lacks tmux")
    env = person(tmp_path)
    _victims(tmp_path, env)
    # tmux starts the pane's command through `sh -c '/bin/bash --norc'`: that line asks (an interactive bash);
    # approved here as a person would, it covers the start only
    subprocess.run([WISP, "approvals", "add", "bash *", "--scope", "always"], env=env, check=True,
                   capture_output=True)
    steps = [["echo started-$((6*7))", "started-42"], ["rm -rf victim", "wispsh: not run: rm -rf victim"],
             ["echo after-$?", "after-126"], ["cat ~/.ssh/id_rsa", "wispsh: not run: cat ~/.ssh/id_rsa"],
             ["cd victim && ls", "keep"]]
    done = subprocess.run([WISP, "run", "--", PY, "-c", TMUX_AGENT], cwd=tmp_path, capture_output=True, text=True,
                          env={**env, "STEPS": json.dumps(steps)}, stdin=subprocess.DEVNULL, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(seen.values()), seen
    assert (tmp_path / "victim" / "keep").exists()
