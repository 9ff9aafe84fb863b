"""End to end: `wispsh -c` typed into an interactive shell on a person's terminal (script holds the pty).

y/s/p/a/n each do what contracts.md says; the second run asks again or not accordingly; n runs nothing
and exits 126; with no terminal at all the line is refused at once.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest


from test_ask_support import REPO, PersonShell, person_env

WISPSH = str(REPO / ".venv" / "bin" / "wispsh")
LINE = "wispsh -c 'rm -rf build'; echo rc=$?"


def ask_and_answer(sh: PersonShell, key: str) -> str:
    sh.child.sendline(LINE)
    sh.child.expect_exact("] no")
    screen = sh.child.before
    sh.child.send(key + "\r")
    sh.child.expect(r"rc=(\d+)")
    said = screen + "|" + sh.child.before + "|rc=" + sh.child.match.group(1)
    sh.child.expect_exact("WISP> ")
    return said


def runs_without_asking(sh: PersonShell) -> bool:
    out = sh.run(LINE)
    return "approve" not in out and "rc=0" in out


def test_each_answer_on_a_persons_terminal(tmp_path):
    project = tmp_path / "proj"
    (project / "build").mkdir(parents=True)
    env = person_env(tmp_path)
    sh = PersonShell(env, cwd=str(project))
    try:
        before = sh.stty()
        screen = ask_and_answer(sh, "n")
        assert "rm -rf build" in screen and "rm *" in screen and screen.endswith("rc=126")
        assert "wispsh: not run: rm -rf build" in screen and "answered no" in screen
        assert (project / "build").is_dir()

        assert ask_and_answer(sh, "y").endswith("rc=0") and not (project / "build").exists()
        sh.run("mkdir build")
        assert ask_and_answer(sh, "s").endswith("rc=0")      # once did not outlive its line: asked again
        sh.run("mkdir build")
        assert runs_without_asking(sh)                        # the session answer covers the next run

        sh.run("wisp approvals clear --scope session --yes; mkdir build")
        assert ask_and_answer(sh, "p").endswith("rc=0")
        sh.run("mkdir build")
        assert runs_without_asking(sh)
        stored = json.loads((Path(env["WISP_HOME"]) / "approvals.json").read_text())["approvals"]
        assert [(a["pattern"], a["scope"]) for a in stored] == [("rm *", "project")]

        sh.run("wisp approvals clear --yes; mkdir build")
        assert ask_and_answer(sh, "a").endswith("rc=0")
        sh.run("mkdir build")
        assert runs_without_asking(sh)
        stored = json.loads((Path(env["WISP_HOME"]) / "approvals.json").read_text())["approvals"]
        assert [(a["pattern"], a["scope"]) for a in stored] == [("rm *", "always")]
        assert sh.stty() == before
    finally:
        sh.close()


def test_nothing_ran_nothing_remembered_through_the_real_gate(tmp_path):
    """`a` on the first part, `n` on the second: the line is refused and the first answer is not kept."""
    project = tmp_path / "proj"
    (project / "build").mkdir(parents=True)
    (project / "a").write_text("a")
    env = person_env(tmp_path)
    sh = PersonShell(env, cwd=str(project))
    try:
        sh.child.sendline("wispsh -c 'rm -rf build; mv a b'; echo rc=$?")
        sh.child.expect_exact("2 questions before anything of this line runs")
        sh.child.expect_exact("] no")
        sh.child.send("a\r")
        sh.child.expect_exact("(kept only if the whole line runs)")
        sh.child.expect_exact("] no")
        sh.child.send("n\r")
        sh.child.expect(r"rc=(\d+)")
        assert sh.child.match.group(1) == "126" and "your earlier answers to this line are not kept" in sh.child.before
        sh.child.expect_exact("WISP> ")
        assert (project / "build").is_dir() and (project / "a").exists()            # nothing ran
        listed = json.loads(sh.run("wisp approvals --json").split("\n", 1)[1])
        assert listed["approvals"] == []                                              # nothing remembered
        decided = [json.loads(r) for r in (Path(env["WISP_HOME"]) / "audit.jsonl").read_text().splitlines()]
        rm = [e for e in decided if e["event"] == "approval.decided" and e["pattern"] == "rm *"][-1]
        assert (rm["decision"], rm["approval_id"], rm["remembered"]) == ("asked-always", None, False)
        # the same line again asks again, from the start
        sh.child.sendline("wispsh -c 'rm -rf build; mv a b'; echo rc=$?")
        sh.child.expect_exact("this command? (1 of 2)")
        sh.child.expect_exact("] no")
        sh.child.send("\r")                                                          # empty: no
        sh.child.expect(r"rc=(\d+)")
        assert sh.child.match.group(1) == "126"
    finally:
        sh.close()


def test_no_terminal_no_watcher_refuses_at_once(tmp_path):
    (tmp_path / "build").mkdir()
    done = subprocess.run(["setsid", "-w", WISPSH, "-c", "rm -rf build"], cwd=tmp_path, env=person_env(tmp_path),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert done.returncode == 126 and done.stdout == ""
    assert done.stderr.startswith("wispsh: not run: rm -rf build (high: recursive delete of build")
    assert all(len(row) <= 80 or row.strip().startswith("`") for row in done.stderr.splitlines()), done.stderr
    assert done.stderr.rstrip("\n").endswith("`") and "`wisp watch`" in done.stderr
    assert (tmp_path / "build").is_dir()


def test_wisp_watch_answers_wispsh_run_by_an_agent_with_no_terminal(tmp_path):
    import pexpect

    from test_ask_support import PY

    (tmp_path / "build").mkdir()
    env = person_env(tmp_path)
    watcher = pexpect.spawn("script", ["-qfc", f"{REPO / '.venv' / 'bin' / 'wisp'} watch", "/dev/null"], env=env,
                            encoding="utf-8", dimensions=(40, 80), timeout=15)
    try:
        watcher.expect(r"wisp watch \(pid (\d+)\): waiting for questions")
        watcher.pid_of_watch = int(watcher.match.group(1))
        # the agent: runs its commands detached from any terminal (wispsh found on PATH, as SHELL would be)
        agent_code = ("import subprocess, sys; sys.exit(subprocess.run(['wispsh', '-c', 'rm -rf build'], "
                      "start_new_session=True, stdin=subprocess.DEVNULL).returncode)")
        agent = subprocess.Popen([PY, "-c", agent_code], cwd=tmp_path, env=env,
                                 stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        watcher.expect_exact("] no")
        assert "rm -rf build" in watcher.before and "rm *" in watcher.before
        watcher.send("y\r")
        assert agent.wait(timeout=15) == 0
        said = agent.stderr.read()      # the gate's one line in an allowed line's output: a person approved it
        assert re.fullmatch(r"wispsh: approved by a person in wisp watch after \d+s\n", said), said
        assert not (tmp_path / "build").exists()
    finally:
        watcher.close(force=True)


# ------------------------------------------------------------------ signals while a question waits

AGENT_RUNS = """
import json, os, subprocess, sys
done = subprocess.run(json.loads(os.environ["AGENT_ARGV"]), start_new_session=True, stdin=subprocess.DEVNULL,
                      capture_output=True, text=True)
sys.stdout.write(json.dumps({"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr}))
"""


def _audit(env) -> list[dict]:
    path = Path(env["WISP_HOME"]) / "audit.jsonl"
    return [json.loads(r) for r in path.read_text().splitlines()] if path.exists() else []


def _ours(pattern: str, env) -> list[int]:
    """The pids whose command line matches `pattern` and whose wisp home is this test's (the machine is shared:
    another test's wispsh may run the same line)."""
    mine = f"WISP_HOME={env['WISP_HOME']}".encode()
    found = []
    for pid in subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split():
        try:
            if mine in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                found.append(int(pid))
        except OSError:
            pass
    return found


def _watcher(env):
    import pexpect

    child = pexpect.spawn("script", ["-qfc", f"{REPO / '.venv' / 'bin' / 'wisp'} watch", "/dev/null"], env=env,
                          encoding="utf-8", dimensions=(40, 80), timeout=15)
    child.expect(r"wisp watch \(pid (\d+)\): waiting for questions")
    child.watch_pid = int(child.match.group(1))
    return child


def _asking(tmp_path, env, line: str):
    """A fake agent (no terminal) running `wispsh -c LINE`; the agent and the wispsh pid."""
    import time

    from test_ask_support import PY

    script = tmp_path / "agent.py"
    script.write_text(AGENT_RUNS)
    agent = subprocess.Popen([PY, str(script)], cwd=tmp_path, env=dict(env, AGENT_ARGV=json.dumps([WISPSH, "-c", line])),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    for _ in range(200):
        found = _ours(f"{WISPSH} -c {line}", env)
        if found:
            return agent, found[0]
        time.sleep(0.05)
    raise AssertionError("the asking wispsh did not start")


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_to_the_asking_wispsh_while_a_person_is_asked_is_a_plain_refusal_on_record(tmp_path, sig):
    """An agent's timeout (TERM), a closed terminal (HUP), Ctrl-C in the agent's terminal (INT): was
    "internal error (KeyboardInterrupt: )" or a silent death, with no audit of the question."""
    import signal

    (tmp_path / "build").mkdir()
    env = person_env(tmp_path)
    watcher = _watcher(env)
    try:
        agent, pid = _asking(tmp_path, env, "rm -rf build")
        watcher.expect_exact("] no")
        os.kill(pid, getattr(signal, sig))
        said = json.loads(agent.communicate(timeout=30)[0])
        assert said["rc"] == 126 and said["stdout"] == "", said
        assert said["stderr"] == ("wispsh: not run: rm -rf build (high: recursive delete of build (your home\n"
                                  f"  directory (outside the project)))\ninterrupted ({sig}) while a person was "
                                  "asked: nothing ran\n"), said["stderr"]
        assert (tmp_path / "build").is_dir()
        watcher.expect_exact("withdrawn: the asking wispsh went away")
        events = [e for e in _audit(env) if e["line"] == "rm -rf build"]
        assert [e["event"] for e in events] == ["approval.asked", "classification", "approval.decided"], events
        assert events[0]["decision"] == "asked-watch" and events[0]["watchers"] == [watcher.watch_pid]
        assert (events[-1]["decision"], events[-1]["answered_by"], events[-1]["answer_note"]) == (
            "denied-interrupted", "signal", f"interrupted by {sig}")
    finally:
        watcher.close(force=True)


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "Ctrl-C"])
def test_wisp_watch_stopped_while_a_question_waits_answers_it_no_and_says_so(tmp_path, how):
    import signal

    (tmp_path / "build").mkdir()
    env = person_env(tmp_path)
    watcher = _watcher(env)
    try:
        agent, _ = _asking(tmp_path, env, "rm -rf build")
        watcher.expect_exact("] no")
        if how == "Ctrl-C":
            watcher.send("\x03")
        else:
            os.kill(watcher.watch_pid, getattr(signal, how))
        why = "quit (Ctrl-C)" if how == "Ctrl-C" else f"was interrupted ({how})"
        watcher.expect_exact(f"wisp watch {why}: the question waiting here was answered no; nothing of that "
                             "line ran")
        said = json.loads(agent.communicate(timeout=30)[0])
        assert said["rc"] == 126 and "internal error" not in said["stderr"] and "Traceback" not in said["stderr"]
        assert f"not approved: the watcher {why} (in wisp watch)" in " ".join(said["stderr"].split())
        decided = [e for e in _audit(env) if e["event"] == "approval.decided"][-1]
        assert (decided["decision"], decided["answer_note"]) == ("denied-user", f"the watcher {why}")
        assert (tmp_path / "build").is_dir()
    finally:
        watcher.close(force=True)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_to_wispsh_during_the_terminal_dialog_is_a_plain_refusal_and_the_terminal_sane(tmp_path, sig):
    project = tmp_path / "proj"
    (project / "build").mkdir(parents=True)
    env = person_env(tmp_path)
    sh = PersonShell(env, cwd=str(project))
    try:
        before = sh.stty()
        sh.child.sendline("wispsh -c 'rm -rf build' 2>err.txt; echo rc=$?")
        sh.child.expect_exact("] no")
        os.kill(_ours("wispsh -c rm -rf build", env)[0], getattr(__import__("signal"), sig))
        sh.child.expect(r"rc=(\d+)")
        assert sh.child.match.group(1) == "126"
        sh.child.expect_exact("WISP> ")
        err = (project / "err.txt").read_text()
        assert err.startswith("wispsh: not run: rm -rf build (high:") and err.endswith(
            f"interrupted ({sig}) while a person was asked: nothing ran\n"), err
        assert sh.stty() == before and (project / "build").is_dir()
        decided = [e for e in _audit(env) if e["event"] == "approval.decided"][-1]
        assert decided["decision"] == "denied-interrupted"
        assert [e["event"] for e in _audit(env)].count("approval.asked") == 1
    finally:
        sh.close()
