"""`wisp run` and the person's terminal: questions on it only while nothing inside holds it; no program inside can
type into it (TIOCSTI); `--watch-pane` opens `wisp watch` in a tmux split that nothing inside can reach.

Terminals are real: `script` holds the pty (a terminal program, so the terminal is a person's), or tmux does.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from run_support import PY, WISP, needs_bwrap, needs_userns, person

pytestmark = [needs_bwrap, needs_userns]

AGENT = """
import os, subprocess, sys, termios, tty
mode = sys.argv[1]
if mode == "raw":                       # a TUI: the terminal in raw mode while its shell runs
    saved = termios.tcgetattr(0)
    tty.setraw(0)
try:
    rc = subprocess.run("rm -rf victim", shell=True, start_new_session=(mode == "detached")).returncode
finally:
    if mode == "raw":
        termios.tcsetattr(0, termios.TCSANOW, saved)
print(f"\\nRC={rc}")
"""


def on_a_persons_terminal(env, cwd, mode):
    command = f"{WISP} run -- {PY} -c '{AGENT}' {mode}"
    return pexpect.spawn("script", ["-qfc", command, "/dev/null"], env=env, cwd=str(cwd), encoding="utf-8",
                         dimensions=(40, 120), timeout=60)


def test_the_supervisor_asks_on_its_terminal_when_the_asking_job_holds_it(tmp_path):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    child = on_a_persons_terminal(env, tmp_path, "foreground")
    try:
        child.expect_exact("] no")
        assert "rm -rf victim" in child.before and "approve this command" in child.before
        child.send("y\r")
        child.expect(r"RC=(\d+)")
        assert child.match.group(1) == "0"
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert not (tmp_path / "victim").exists()


@pytest.mark.parametrize("mode", ["raw", "detached"])
def test_never_on_a_terminal_a_tui_holds_or_from_a_detached_command(tmp_path, mode):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    child = on_a_persons_terminal(env, tmp_path, mode)
    try:
        child.expect(r"RC=(\d+)")
        assert child.match.group(1) == "126"
        assert "approve this command" not in child.before
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert (tmp_path / "victim").is_dir()


TYPE = """
import errno, fcntl, sys, termios
got = []
for request in (termios.TIOCSTI, termios.TIOCSTI | (1 << 32), 0x541C):
    try:
        fcntl.ioctl(0, request, b"y")
        got.append("typed")
    except OSError as exc:
        got.append(errno.errorcode[exc.errno])
print("TYPED=" + ",".join(got))
"""


def test_nothing_inside_can_type_into_the_terminal(tmp_path):
    env = person(tmp_path)
    child = pexpect.spawn("script", ["-qfc", f"{WISP} run -- {PY} -c '{TYPE}'", "/dev/null"], env=env,
                          cwd=str(tmp_path), encoding="utf-8", timeout=60)
    try:
        child.expect(r"TYPED=(\S+)")
        assert child.match.group(1).split(",") == ["EPERM"] * 3
    finally:
        child.close(force=True)
    # the same program outside: this kernel lets it type (dev.tty.legacy_tiocsti=1), which is why the filter is there
    if Path("/proc/sys/dev/tty/legacy_tiocsti").exists() and \
            Path("/proc/sys/dev/tty/legacy_tiocsti").read_text().strip() == "1":
        outside = pexpect.spawn("script", ["-qfc", f"{PY} -c '{TYPE}'", "/dev/null"], env=env, encoding="utf-8",
                                timeout=60)
        try:
            outside.expect(r"TYPED=(\S+)")
            assert outside.match.group(1).split(",")[0] == "typed"
        finally:
            outside.close(force=True)


@pytest.mark.skipif(not shutil.which("tmux"), reason="machine lacks tmux")
def test_watch_pane_answers_and_nothing_inside_can_reach_tmux(tmp_path):
    env = person(tmp_path)
    (tmp_path / "victim").mkdir()
    out = tmp_path / "agent.out"
    agent = (f"import subprocess; "
             f"t = subprocess.run(['tmux', '-L', 'wisp-run-test', 'send-keys', '-t', 'w', 'y'], capture_output=True); "
             f"r = subprocess.run('rm -rf victim', shell=True, start_new_session=True); "
             f"open({str(out)!r}, 'w').write(f'{{t.returncode}} {{r.returncode}}')")
    tmux = ["tmux", "-L", "wisp-run-test", "-f", "/dev/null"]
    subprocess.run(tmux + ["kill-server"], capture_output=True, env=env)
    subprocess.run(tmux + ["new-session", "-d", "-s", "w", "-x", "200", "-y", "50",
                           f"{WISP} run --watch-pane -- {PY} -c \"{agent}\"; sleep 60"], env=env, check=True,
                   cwd=tmp_path)
    try:
        def panes():
            done = subprocess.run(tmux + ["list-panes", "-t", "w", "-F", "#{pane_id}"], capture_output=True, text=True,
                                  env=env)
            return done.stdout.split()

        def screen(pane):
            return subprocess.run(tmux + ["capture-pane", "-p", "-t", pane], capture_output=True, text=True,
                                  env=env).stdout

        deadline = time.monotonic() + 60
        watch = None
        while time.monotonic() < deadline:
            found = panes()
            if len(found) == 2 and "] no" in screen(found[1]):
                watch = found[1]
                break
            time.sleep(0.1)
        assert watch, [screen(p) for p in panes()]
        assert "rm -rf victim" in screen(watch)
        subprocess.run(tmux + ["send-keys", "-t", watch, "y", "Enter"], env=env, check=True)
        while time.monotonic() < deadline and not (out.exists() and out.read_text().strip()):
            time.sleep(0.1)                # (made by open() before its write: read empty once, a flake)
        sent, removed = out.read_text().split()
        assert sent != "0"                 # tmux's socket is not reachable inside: no keys typed from there
        assert removed == "0" and not (tmp_path / "victim").exists()
        while time.monotonic() < deadline and len(panes()) != 1:
            time.sleep(0.1)
        assert len(panes()) == 1           # the watch pane went with the run
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True, env=env)
