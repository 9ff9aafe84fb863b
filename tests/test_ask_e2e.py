"""End to end: `wispsh -c` typed into an interactive shell on a person's terminal (script holds the pty).

y/s/p/a/n each do what contracts.md says; the second run asks again or not accordingly; n runs nothing
and exits 126; with no terminal at all the line is refused at once.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path


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
