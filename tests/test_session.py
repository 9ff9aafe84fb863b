"""session.py with real process trees: the agent process above shells and wrappers, its name, and session
approvals that live exactly as long as that process (pid + start time)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
import pytest

from wispsh.decide import session, store
from wispsh.model import Level

REPO = Path(__file__).resolve().parent.parent

PROBE = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from wispsh.decide import gate
    from wispsh.decide import session
    from wispsh.decide import store
    from wispsh.config import Config
    from wispsh.model import Judged, Key, Level, Part, Split, Verdict
    here = session.here()
    home = Path(os.environ["WISP_HOME"])
    what = sys.argv[1] if len(sys.argv) > 1 else "who"
    if what == "who":
        print(json.dumps({"pid": here.session.pid, "started": here.session.started, "agent": here.session.agent,
                          "id": here.session.id}))
    elif what == "grant":
        print(store.grant(home, pattern="npm *", scope="session", level=Level.HIGH, source="t", cwd="/").id)
    else:
        part = Part(text="npm i", span=(0, 5), argv=("npm", "i"))
        j = Judged(part, Key("npm", None, "npm *", False), Verdict(Level.MODERATE))
        plan = gate.plan(Split("npm i", (part,)), (j,), Verdict(Level.SAFE), None, Config(path=home / "c.json"),
                         cwd="/", env=dict(os.environ))
        print(plan.decisions[0].kind)
""")

# A stand-in agent: runs each line it reads through `sh -c`, as coding agents do, and prints the output.
AGENT = textwrap.dedent("""
    import os, subprocess, sys
    print(os.getpid(), flush=True)
    for line in sys.stdin:
        out = subprocess.run(["sh", "-c", line.strip()], capture_output=True, text=True)
        sys.stdout.write((out.stdout.strip() or "ERR " + out.stderr.strip().replace(chr(10), " | ")) + "\\n")
        sys.stdout.flush()
""")


@pytest.fixture
def box(tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "agent.py").write_text(AGENT)
    env = {k: v for k, v in os.environ.items()
           if k not in ("WISP_SESSION", "WISP_TURN") and k not in {m[0] for m in session.AGENT_ENV_MARKERS}}
    env.update(WISP_HOME=str(tmp_path / "home"), XDG_RUNTIME_DIR=str(tmp_path / "run"), PYTHONPATH=str(REPO))
    return tmp_path, env


class Agent:
    def __init__(self, box, program: list[str] | None = None):
        tmp, env = box
        self.tmp = tmp
        self.proc = subprocess.Popen(program or [sys.executable, str(tmp / "agent.py")], env=env, cwd=tmp,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.pid = int(self.proc.stdout.readline())
        self.started = psutil.Process(self.pid).create_time()

    def run(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def probe(self, what: str, wrap: str = "") -> str:
        """Run the probe through `sh -c`, behind `wrap` (which gets the probe as one quoted word)."""
        command = f"{sys.executable} {self.tmp / 'probe.py'} {what} </dev/null"
        return self.run(f"{wrap}'{command}'" if wrap else command)

    def end(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def test_session_is_the_nearest_ancestor_above_shells_and_wrappers(box):
    agent = Agent(box)
    try:
        for wrap in ("", "env A=1 timeout 30 nohup sh -c ", "sh -c ", "setsid bash -c ", "sudo -E sh -c "):
            if wrap.startswith("sudo") and not shutil.which("sudo"):
                continue
            who = json.loads(agent.probe("who", wrap))
            assert who["pid"] == agent.pid and who["started"] == pytest.approx(agent.started, abs=0.05), wrap
            assert who["id"] == session.process_session_id(agent.pid, agent.started)
    finally:
        agent.end()


def test_agent_name_from_the_process(box):
    tmp, env = box
    claude = tmp / "bin" / "claude"
    claude.parent.mkdir()
    claude.write_text(f"#!{sys.executable}\n" + AGENT)
    claude.chmod(0o755)
    agent = Agent(box, [str(claude)])
    try:
        who = json.loads(agent.probe("who"))
        assert who["agent"] == "claude" and who["pid"] == agent.pid
    finally:
        agent.end()


@pytest.mark.parametrize("env, agent", [
    ({"CLAUDECODE": "1"}, "claude"), ({"GEMINI_CLI": "1"}, "gemini"), ({"CODEX_SANDBOX": "seatbelt"}, "codex"),
    ({"CODEX_THREAD_ID": "t-1"}, "codex"), ({"GOOSE_TERMINAL": "1"}, "goose"), ({"OPENCODE": "1"}, "opencode"),
    ({"CLAUDECODE": "0"}, None), ({}, None)])
def test_agent_name_from_env_markers(env, agent):
    assert session.agent_from_env(env) == agent


@pytest.mark.parametrize("name, cmdline, agent", [
    ("node", ["node", "/usr/local/lib/node_modules/@anthropic-ai/claude-code/cli.js"], "claude"),
    ("claude", ["claude"], "claude"),
    ("node", ["node", "/usr/lib/node_modules/@openai/codex/bin/codex.js"], "codex"),
    ("codex", ["codex", "exec", "fix"], "codex"),
    ("node", ["node", "/opt/bin/gemini"], "gemini"),
    ("opencode", ["opencode"], "opencode"),
    ("python3", ["/usr/bin/python3", "/home/u/.local/bin/aider", "--model", "x"], "aider"),
    ("goose", ["goose", "session"], "goose"),
    ("qchat", ["qchat", "chat"], "amazon-q"),
    ("cursor-agent", ["cursor-agent"], "cursor"),
    ("python3", ["python3", "train.py"], None),
    ("vim", ["vim", "notes.md"], None)])
def test_agent_name_from_process_names(name, cmdline, agent):
    assert session.agent_from_process(name, cmdline) == agent


@pytest.mark.parametrize("name, cmdline, through", [
    ("bash", ["bash", "-c", "x"], True), ("-zsh", ["-zsh"], True), ("timeout", ["timeout", "5", "x"], True),
    ("sudo", ["sudo", "x"], True), ("python3", ["python3", "-m", "wispsh.cli.sh", "-c", "x"], True),
    ("python3", ["/usr/bin/python3", "/home/u/.local/bin/wispsh", "-c", "x"], True), ("wispsh", ["wispsh"], True),
    ("node", ["node", "cli.js"], False), ("python3", ["python3", "agent.py"], False), ("make", ["make"], False)])
def test_what_passes_through(name, cmdline, through):
    assert session.passes_through(name, cmdline) is through


def test_named_session(box):
    a = session.current({"WISP_SESSION": "ci-run-7"})
    assert a.name == "ci-run-7" and a.pid is None and a.id == session.named_session_id("ci-run-7")
    assert a.id != session.current({"WISP_SESSION": "ci-run-8"}).id and "/" not in a.id


def test_project_root(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "a" / "b").mkdir(parents=True)
    (tmp_path / "plain" / "x").mkdir(parents=True)
    assert session.project_root(str(tmp_path / "repo" / "a" / "b")) == str((tmp_path / "repo").resolve())
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text("gitdir: /elsewhere\n")        # a linked work tree: .git is a file
    assert session.project_root(str(worktree)) == str(worktree.resolve())
    assert session.project_root(str(tmp_path / "plain" / "x")) in (str((tmp_path / "plain" / "x").resolve()),
                                                                    # unless tmp itself sits in a git tree
                                                                    session.project_root(str(tmp_path)))


def test_session_approval_lives_exactly_as_long_as_its_agent(box):
    tmp, env = box
    first = Agent(box)
    try:
        assert first.probe("check") == "ask"
        grant_id = first.probe("grant")
        assert first.probe("check") == "cached-session"
        assert first.probe("check", "env X=1 bash -c ") == "cached-session"
    finally:
        first.end()
    second = Agent(box)                                  # a new agent: nothing inherited
    try:
        assert second.probe("check") == "ask"
        second.probe("grant")                            # any write sweeps the dead session's grants
        gone = [f.name for f in (tmp / "run" / "wisp" / "grants").iterdir()]
        assert gone == [session.process_session_id(second.pid, second.started) + ".json"]
        assert grant_id not in {a.id for a in store.all_approvals(tmp / "home", env).approvals}
    finally:
        second.end()


def test_a_reused_pid_inherits_nothing(box):
    tmp, env = box
    agent = Agent(box)
    try:
        # A grant recorded for an earlier process that had this agent's pid (another start time).
        earlier = store.Approval(id="earlier1", pattern="npm *", scope="session", level=Level.HIGH, source="t",
                                 created=0.0, session=session.process_session_id(agent.pid, agent.started - 500))
        old = session.Session(earlier.session, agent.pid, agent.started - 500)
        gdir = store._prepare_runtime(env)
        with store.locked(tmp / "home"):
            store._write_session_file(gdir / f"{old.id}.json", store._session_json(old), (earlier,), tmp / "home")
        assert agent.probe("check") == "ask"
        assert store.sweep(tmp / "home", env) == 1
        assert not (gdir / f"{old.id}.json").exists()
    finally:
        agent.end()
