"""A real client under `wisp run` with the walls on and the default thresholds (issue 28): Claude Code, its model a
stub, edits, tests, installs (pip from the registry into the project's ignored .venv) and deletes in the
project, and tries one high line. A `wisp watch` on a pty answers no to every question and records what it
was shown: it is asked about the high line only; every moderate line ran contained, with a restore point.
Then `wisp undo` (as the person, after the agent is gone) puts the project back line by line.

Part of the real-agent stage (`pytest tests/agents`).
"""
from __future__ import annotations

import json
import subprocess
import time

import pexpect

from clients import answer_key, spawn_watcher
from install import install
from run_support import WISP, needs_bwrap, needs_userns
from sandbox import Sandbox
from stub import StubModel

pytestmark = [needs_bwrap, needs_userns]
PROMPT = "Run the scripted commands."

SESSION = [
    "cat README.md",
    "sed -i 's/TODO: write it/It works./' README.md && grep -c works README.md",
    "printf 'import unittest\\n\\nclass T(unittest.TestCase):\\n    def test_ok(self):\\n        self.assertTrue(True)\\n'"
    " > test_ok.py && python3 -m unittest -q test_ok 2>&1 | tail -1",
    "python3 -m venv .venv && .venv/bin/pip install -q --disable-pip-version-check --no-cache-dir six==1.16.0 && "
    ".venv/bin/pip show six | grep Version",
    "rm notes.txt && ls",
    "rm -rf docs",                                      # high: a recursive delete in the project
]


def test_claude_code_is_asked_only_about_the_high_line_and_undo_restores(tmp_path):
    exe = install("claude-code")
    box = Sandbox(tmp_path)
    box.write_config({"approval": {"waitSeconds": 20}})
    (box.home / ".claude.json").write_text(json.dumps({"numStartups": 5}))
    (box.project / ".gitignore").write_text(".venv/\n__pycache__/\n")
    (box.project / "notes.txt").write_text("keep me\n")
    (box.project / "docs").mkdir()
    (box.project / "docs" / "guide.md").write_text("# guide\n")
    start = {p: (box.project / p).read_text() for p in ("README.md", "notes.txt", "docs/guide.md")}
    asked = []
    with StubModel("anthropic", SESSION) as stub:
        # the stub as a listed model API: behind the network wall the host's 127.0.0.1 is unreachable
        box.write_config({"approval": {"waitSeconds": 20}, "run": {"net": stub.net_config()}})
        env = box.env(ANTHROPIC_BASE_URL=stub.listed_url, ANTHROPIC_API_KEY="sk-ant-stub-0000000000000000000000")
        watcher = spawn_watcher(box.env())
        proc = subprocess.Popen([WISP, "run", "--", exe, "-p", PROMPT, "--permission-mode", "bypassPermissions",
                                 "--output-format", "json"], cwd=box.project, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 400
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if watcher.expect_exact(["] no", pexpect.TIMEOUT], timeout=1) == 0:
                    asked.append(watcher.before)
                    answer_key(watcher, "n")
        finally:
            watcher.close(force=True)
            if proc.poll() is None:
                proc.kill()
        said = proc.stdout.read()
        results = stub.results()
    assert len(results) == len(SESSION), said[-3000:]
    texts = [text for _, text in results]
    assert "1" in texts[1] and "OK" in texts[2] and "Version: 1.16.0" in texts[3], texts
    assert "wispsh: not run" in texts[5]
    assert len(asked) == 1 and "rm -rf docs" in asked[0], asked
    assert (box.project / "docs" / "guide.md").exists() and not (box.project / "notes.txt").exists()
    history = json.loads(subprocess.run([WISP, "history", "--json"], cwd=box.project, env=box.env(),
                                        capture_output=True, text=True, check=True).stdout)
    decided = {r["line"]: r["decision"] for r in history["lines"]}
    for line in SESSION[1:5]:
        assert decided[" ".join(line.split())[:300]] == "contained", decided
    assert decided["rm -rf docs"] == "refused"

    def undo(*args):
        done = subprocess.run([WISP, "undo", *args], cwd=box.project, env=box.env(), capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "notes.txt" in undo()                        # before `rm notes.txt`
    assert (box.project / "notes.txt").read_text() == "keep me\n"
    undo("2")                       # before the sed (the pip line changed only the ignored .venv: not counted)
    assert {p: (box.project / p).read_text() for p in start} == start
    assert not (box.project / "test_ok.py").exists()
    assert (box.project / ".venv").is_dir()             # ignored: in no restore point, left as it is
