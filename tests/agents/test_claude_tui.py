"""Claude Code's TUI in tmux (issue 15): wispsh never draws on Claude's screen and never reads its keys.

The real Claude Code (pinned) runs interactively in a tmux pane of a private tmux server, against the stub,
with the README's recipe (CLAUDE_CODE_SHELL = the bash shim). Its env probe and snapshot capture share
Claude's terminal; its commands run detached. The stub scripts a benign call and a risky one (`rm -rf build`).
While the risky one waits for an answer in `wisp watch`, "y" and Enter are typed into Claude's pane; then the
watcher answers "n". The pane is captured before and after: no wispsh dialog on it at any time, the typed
"y" stayed Claude's (build/ still exists, the refusal says it was answered in wisp watch), and the capture
and probe were not asked about.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time

import pexpect
import pytest

from clients import answer_key, spawn_watcher
from install import install
from sandbox import Sandbox
from stub import StubModel

VERSION = os.environ.get("AGENT_VERSIONS") or None
KEY = "sk-ant-stub-0000000000000000000000"
DIALOG_MARKS = ("approve this command", "[y] once", "[s] session", "wispsh: approve", "remember ")


def _tmux(sock: str, *args: str, env=None) -> str:
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, env=env, timeout=30).stdout


def _pane(sock: str) -> str:
    return _tmux(sock, "capture-pane", "-p", "-J", "-S", "-200")


def test_wispsh_never_draws_on_claude_codes_tui_nor_reads_its_keys(tmp_path):
    if not shutil.which("tmux"):
        pytest.skip("machine lacks tmux")
    box = Sandbox(tmp_path, wait_seconds=60)
    (box.project / "build").mkdir()
    (box.project / "build" / "keep").write_text("still here\n")
    exe = install("claude-code", VERSION)
    # a returning user: onboarding done, this folder trusted, the key approved, bypass mode accepted
    (box.home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "theme": "dark", "bypassPermissionsModeAccepted": True,
        "customApiKeyResponses": {"approved": [KEY[-20:]], "rejected": []},
        "projects": {str(box.project): {"hasTrustDialogAccepted": True, "allowedTools": []}}}))
    sock = f"wisp-tui-{os.getpid()}"
    panes = {}
    with StubModel("anthropic", ["git status", "rm -rf build"]) as stub:
        env = box.env(ANTHROPIC_BASE_URL=stub.url, ANTHROPIC_API_KEY=KEY, CLAUDE_CODE_SHELL=str(box.wrap / "bash"),
                      SHELL=str(box.wrap / "bash"))
        watcher = spawn_watcher(box.env())
        pass_env = [w for k, v in env.items() for w in ("-e", f"{k}={v}")]
        try:
            _tmux(sock, "-f", "/dev/null", "new-session", "-d", "-x", "160", "-y", "50", "-c", str(box.project),
                  *pass_env, exe, "--permission-mode", "bypassPermissions", "Run the scripted commands.", env=env)
            # the question reaches wisp watch, not Claude's pane
            watcher.expect_exact("] no", timeout=120)
            question = watcher.before
            panes["before"] = _pane(sock)
            _tmux(sock, "send-keys", "y")
            _tmux(sock, "send-keys", "Enter")
            time.sleep(2)
            panes["typed"] = _pane(sock)
            answer_key(watcher, "n")
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and "All scripted commands have run" not in _pane(sock):
                time.sleep(1)
            panes["after"] = _pane(sock)
        finally:
            _tmux(sock, "kill-server")
            watcher.close(force=True)
        results = dict(stub.results())

    assert "rm -rf build" in question and "recursive delete" in question, question[-800:]
    for name, text in panes.items():
        assert not any(mark in text for mark in DIALOG_MARKS), (name, text)
    # Claude's own rendering of the tool result: the refusal line (2.1.197), or a folded summary (2.1.332)
    assert "wispsh: not run: rm -rf build" in panes["after"] or re.search(
        r"Ran \d+ shell commands · 1 failed", panes["after"]), panes["after"]
    # the keys typed into Claude's prompt were Claude's: build/ was not deleted, the answer came from the watcher
    assert (box.project / "build" / "keep").read_text() == "still here\n"
    assert "answered no (in wisp watch)" in " ".join(results["rm -rf build"].split()), results
    decided = [e for e in box.audit() if e.get("event") == "approval.decided"
               and not e["decision"].startswith(("below", "cached", "covered"))]
    assert [(e["line"], e["decision"]) for e in decided] == [("rm -rf build", "denied-user")], decided
    # the env probe and the snapshot capture ran on Claude's own terminal (its session, its tty) and were not
    # asked about: only the risky payload was
    shared = [s for s in box.spawns() if not s["sid"]]
    assert all(s["argv"][:2] in (["-c", "env"], ["-c", "-l"]) and s["tty_nr"] != 0 for s in shared), shared
    if VERSION is None:     # the pinned 2.1.197 runs both on its own terminal (2.1.332 detaches them too)
        # (both, in either order: Claude starts them at once, and which exec reaches the gate first varies)
        spawned = [s["argv"][:2] for s in shared]
        assert sorted(spawned) == [["-c", "-l"], ["-c", "env"]], spawned
    for name, text in panes.items():        # for the report: what the pane showed (rules and blanks left out)
        print(f"--- pane {name}\n" + "\n".join(l.rstrip() for l in text.splitlines() if l.strip() and "\u2500" * 8 not in l))
