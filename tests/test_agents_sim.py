"""Simulated agents: a Python parent that runs a short session of real commands through the shims, the way
each detaching agent does (its own session via setsid, stdin an open pipe or /dev/null, no terminal,
SHELL = the bash shim), with the person answering in `wisp watch` on a real pty.

Argv shapes from design/agents.md: Claude Code `[shell, "-c", "-l", S]` (stdin an open pipe), Codex
`[shell, "-lc", cmd]`, Goose `[sh, "-c", cmd]`, opencode `[shell, "-c", cmd]` and its `!` form
`[shell, "-l", "-c", 'cd -- "$1"\\neval "…"', "opencode", cwd]`. The payloads are plain here; recognising
each agent's boilerplate is tests/test_harness.py's job.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from test_ask_support import PY, REPO, person_env, write_config
from test_watch import spawn_watcher

WISP = str(REPO / ".venv" / "bin" / "wisp")

AGENT = r'''
import json, os, subprocess, sys
spec = json.load(open(sys.argv[1]))
results = []
for step in spec["steps"]:
    out, err = open(sys.argv[2] + ".o", "w+"), open(sys.argv[2] + ".e", "w+")
    proc = subprocess.Popen(step["argv"], cwd=spec["cwd"], stdout=out, stderr=err, start_new_session=True,
                            stdin=subprocess.PIPE if step["stdin"] == "pipe" else subprocess.DEVNULL)
    code = proc.wait()            # like Claude Code: the pipe stays open, never written, until the command ends
    if proc.stdin:
        proc.stdin.close()
    out.seek(0), err.seek(0)
    results.append([code, out.read(), err.read()])
json.dump(results, open(sys.argv[2] + ".tmp", "w"))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
'''

# (line, what the person is asked about and answers in wisp watch, or None; exit status; stdout)
SESSION = [
    # a file written in the project is moderate whatever the order of `<<'EOF'` and `>` (issue 11)
    ("cat <<'EOF' > notes.txt\nhello\nEOF", ("cat *", "y"), 0, ""),
    ("sed -i 's/hello/hi/' notes.txt", ("sed *", "y"), 0, ""),
    ("git status --short", None, 0, "?? notes.txt\n"),
    ("sed -i 's/hi/ho/' notes.txt", ("sed *", "s"), 0, ""),         # once covered only its own line
    ("git add notes.txt", ("git add *", "s"), 0, ""),
    ("git commit -qm 'add notes'", ("git commit *", "s"), 0, ""),
    ("sed -i 's/ho/hey/' notes.txt", None, 0, ""),                 # the session answer covers it
    ("mkdir -p build && touch build/x", None, 0, ""),
    ("rm -rf build", ("rm *", "n"), 126, ""),
    ("git log --oneline | wc -l && cat notes.txt", None, 0, "1\nhey\n"),
    ("ls no-such-file", None, 2, ""),
]

AGENTS = {
    # name: (argv for a line, stdin, the agent's marker in the environment)
    "claude-code": (lambda shims, line: [str(shims / "bash"), "-c", "-l", line], "pipe", {"CLAUDECODE": "1"}),
    "codex": (lambda shims, line: [str(shims / "bash"), "-lc", line], "devnull", {"CODEX_THREAD_ID": "t-1"}),
    "goose": (lambda shims, line: [str(shims / "sh"), "-c", line], "devnull", {"GOOSE_TERMINAL": "1"}),
    "opencode": (lambda shims, line: [str(shims / "bash"), "-c", line], "devnull", {"OPENCODE": "1"}),
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_a_detaching_agent_works_through_the_shims_with_wisp_watch(agent, tmp_path):
    env = person_env(tmp_path)
    write_config(env, waitSeconds=20)     # a stray question ends as "no" and fails the session, never hangs
    shims = tmp_path / "shims"
    laid = subprocess.run([WISP, "shims", "install", str(shims), "--program", "git", "--program", "rm"], env=env,
                          capture_output=True, text=True)
    assert laid.returncode == 0, laid.stderr
    project = tmp_path / "project"
    project.mkdir()
    git_env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "A",
               "GIT_AUTHOR_EMAIL": "a@example.com", "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.com"}
    subprocess.run(["git", "init", "-q", str(project)], env={**env, **git_env}, check=True)

    argv_for, stdin, marker = AGENTS[agent]
    steps = [{"argv": argv_for(shims, line), "stdin": stdin} for line, *_ in SESSION]
    if agent == "opencode":              # a user `!` command: login shell, $0 and $1 after the script
        steps.append({"argv": [str(shims / "bash"), "-l", "-c", 'cd -- "$1"\neval "git status --short"',
                               "opencode", str(project)], "stdin": stdin})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"cwd": str(project), "steps": steps}))
    out = tmp_path / "results.json"
    agent_env = {**env, **git_env, **marker, "SHELL": str(shims / "bash"), "PATH": f"{shims}:/usr/bin:/bin"}
    agent_env.pop("WISP_SESSION", None)

    watcher = spawn_watcher(env)
    try:
        proc = subprocess.Popen([PY, "-c", AGENT, str(spec), str(out)], env=agent_env, start_new_session=True,
                                stdin=subprocess.DEVNULL)
        for line, asked, *_ in SESSION:
            if asked is None:
                continue
            pattern, key = asked
            watcher.expect_exact("] no")
            assert pattern in watcher.before and line.split("\n")[0] in watcher.before, watcher.before
            watcher.send(key + "\r")
        assert proc.wait(timeout=60) == 0
    finally:
        watcher.close(force=True)

    results = json.loads(out.read_text())
    for (line, asked, code, stdout), (got_code, got_out, got_err) in zip(SESSION, results):
        assert got_code == code, (line, got_code, got_err)
        if code == 126:                          # nothing while it waited; then the refusal
            assert got_out == "" and got_err.startswith("wispsh: not run: rm -rf build")
            assert "answered no (in wisp watch)" in " ".join(got_err.split())
        else:
            assert got_out == stdout or code == 2, (line, got_out)
            if asked is not None:                # the gate's one line in an approved line's output
                assert re.fullmatch(r"wispsh: approved by a person in wisp watch after \d+s\n", got_err), got_err
            elif code == 0:
                assert got_err == "", (line, got_err)
    assert (project / "build" / "x").exists()                 # refused: nothing ran
    assert (project / "notes.txt").read_text() == "hey\n"
    if agent == "opencode":
        assert results[-1] == [0, " M notes.txt\n?? build/\n", ""]
    events = [json.loads(raw) for raw in (Path(env["WISP_HOME"]) / "audit.jsonl").read_text().splitlines()]
    decided = [(e["pattern"], e["decision"]) for e in events
               if e.get("event") == "approval.decided" and e["decision"] != "below-threshold"]
    # one question per asked line, none for the rest; the git/rm program shims beneath are covered, not asked
    asked = [d for d in decided if not d[1].startswith("cached-")]
    assert asked == [("cat *", "asked-once"), ("sed *", "asked-once"), ("sed *", "asked-session"), ("git add *", "asked-session"),
                     ("git commit *", "asked-session"), ("rm *", "denied-user")], decided
    assert ("sed *", "cached-session") in decided
    if agent in ("goose", "opencode"):   # no login shell: PATH keeps the shims, git went through its shim
        assert ("git add *", "cached-session") in decided and ("git commit *", "cached-session") in decided


def test_a_once_answer_covers_the_program_shim_the_shell_execs_in_place(tmp_path):
    env = person_env(tmp_path)
    write_config(env, waitSeconds=3)
    shims = tmp_path / "shims"
    assert subprocess.run([WISP, "shims", "install", str(shims), "--program", "git"], env=env).returncode == 0
    project = tmp_path / "project"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"cwd": str(project), "steps": [
        {"argv": [str(shims / "bash"), "-c", "git add nothing-here"], "stdin": "devnull"}]}))
    out = tmp_path / "results.json"
    agent_env = {**env, "SHELL": str(shims / "bash"), "PATH": f"{shims}:/usr/bin:/bin"}
    watcher = spawn_watcher(env)
    try:
        proc = subprocess.Popen([PY, "-c", AGENT, str(spec), str(out)], env=agent_env, start_new_session=True,
                                stdin=subprocess.DEVNULL)
        watcher.expect_exact("] no")
        watcher.send("y\r")
        assert proc.wait(timeout=30) == 0
    finally:
        watcher.close(force=True)
    code, _, err = json.loads(out.read_text())[0]
    assert code == 128 and "did not match any files" in err      # git's own answer: the once grant carried
