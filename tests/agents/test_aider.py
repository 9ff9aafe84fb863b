"""Aider (pinned in pins.json), for real, through the README's recipe `SHELL=<shims>/bash aider`.

With a terminal (a real pty from pexpect, as a person runs it) Aider runs each line of the model's ```bash
block as `$SHELL -i -c LINE` in a pty of its own: every spawn reaches wispsh, `-i` makes bash read the
user's ~/.bashrc (a stock one here, /etc/skel's), and that is the user's, not the agent's line: nothing is
asked about it. Only the risky payloads are asked, in `wisp watch` (Aider's pty is not the person's).

Without a terminal Aider runs `/bin/sh -c LINE` by absolute path (subprocess shell=True): nothing reaches
wispsh in plain mode (SHELL and PATH are not consulted); the test pins that hole down, and the README says so.
"""
from __future__ import annotations

import io
import json
import os
import re
import time
from pathlib import Path

import pexpect
import pytest

from clients import answer_key, spawn_watcher
from install import install
from sandbox import WISPSH, Sandbox
from shapes import shape_of
from stub import StubModel
from test_real_clients import _report

VERSION = os.environ.get("AGENT_VERSIONS") or None
STOCK_BASHRC = Path("/etc/skel/.bashrc")
BENIGN = ["git status", "ls -la", "grep -rn TODO ."]
APPROVED = "python3 -c 'print(1)'"
REFUSED = ["git push --force origin main", "echo x >> ~/.bashrc"]
SCRIPT = BENIGN + [APPROVED] + REFUSED


def _argv(exe: str, url: str, message: str) -> list[str]:
    return [exe, "--model", "openai/stub-model", "--openai-api-base", f"{url}/v1", "--openai-api-key", "dummy",
            "--edit-format", "diff", "--map-tokens", "0", "--no-show-model-warnings", "--no-check-update",
            "--analytics-disable", "--no-auto-commits", "--no-gitignore", "--no-pretty", "--no-fancy-input",
            "--no-stream", "--no-show-release-notes", "--message", message]


def _explain_as_agent(box: Sandbox, argv: list[str]) -> dict:
    """wispsh --explain --json from a process started now, as an agent is started after the user's dotfiles
    (a process named wispsh is not taken for the agent: the link has another name)."""
    import subprocess
    import sys

    link = box.root / "wispsh-explain"
    if not link.exists():
        link.symlink_to(WISPSH)
    agent = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)"
    done = subprocess.run([sys.executable, "-c", agent, str(link), "--explain", "--json", *argv], env=box.env(),
                          cwd=box.project, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    return json.loads(done.stdout)


def _rc() -> str:
    if STOCK_BASHRC.exists():
        return STOCK_BASHRC.read_text()
    return "case $- in *i*) ;; *) return;; esac\nHISTCONTROL=ignoreboth\nshopt -s histappend\nalias ll='ls -alF'\n"


def test_aider_in_a_terminal_asks_only_about_the_payloads(tmp_path):
    rc = _rc()
    box = Sandbox(tmp_path, wait_seconds=60, rc=rc)
    exe = install("aider", VERSION)
    env = box.env(SHELL=str(box.wrap / "bash"), OPENAI_API_KEY="dummy")
    asked = []
    with StubModel("fence", SCRIPT) as stub:
        watcher = spawn_watcher(box.env())
        child = pexpect.spawn(exe, _argv(exe, stub.url, "Run the scripted commands.")[1:], env=env,
                              cwd=str(box.project), encoding="utf-8", dimensions=(50, 200), timeout=5)
        tty_out = io.StringIO()
        child.logfile_read = tty_out
        deadline = time.monotonic() + 240
        try:
            while child.isalive() and time.monotonic() < deadline:
                got = child.expect([r"Run shell commands\?[^\n]*: ", r"Add command output to the chat\?[^\n]*: ",
                                    pexpect.TIMEOUT, pexpect.EOF], timeout=0.5)
                if got in (0, 1):
                    child.sendline("y")
                if watcher.expect_exact(["] no", pexpect.TIMEOUT], timeout=0.3) == 0:
                    asked.append(watcher.before)
                    answer_key(watcher, "y" if "python3 -c" in watcher.before else "n")
        finally:
            child.close(force=True)
            watcher.close(force=True)

    # every line of the block, one spawn each, exactly `-i -c LINE`, on a terminal (Aider's own pty)
    spawns = box.spawns()
    unknown = [s["argv"] for s in spawns if shape_of("aider", s["argv"]) is None]
    _report("aider", None, spawns, unknown, box.root)
    assert [s["argv"] for s in spawns] == [["-i", "-c", c] for c in SCRIPT], [s["argv"] for s in spawns]
    assert all(s["tty"] == [True, True, True] for s in spawns)

    # the stock ~/.bashrc is read and never asked about; only the three risky payloads are
    assert len(asked) == 1 + len(REFUSED), asked
    bashrc = str(box.home / ".bashrc")
    for screen in asked:
        assert f". '{bashrc}'" not in screen and "sources code" not in screen, screen
    audit = box.audit()
    decided = [e for e in audit if e.get("event") == "approval.decided"
               and not e["decision"].startswith(("below", "cached", "covered"))]
    assert {e["line"] for e in decided} == {APPROVED, *REFUSED}, [(e["line"], e["decision"]) for e in decided]
    assert not any(bashrc in (e.get("line") or "") for e in audit if e.get("event") == "classification")
    assert (box.home / ".bashrc").read_text() == rc                # `echo x >> ~/.bashrc` was refused

    # --explain says the shell reads the user's ~/.bashrc and trusts it
    plan = _explain_as_agent(box, ["-i", "-c", "git status"])
    assert any(bashrc in n and "trusted" in n for n in plan["notes"]), plan["notes"]

    # what goes into the chat (with --message Aider adds the output and exits before another request): the
    # approved command's output, each refusal one line naming the payload
    said = tty_out.getvalue().replace("\r", "")
    # (nothing from the gate while it waits; one line that a person approved it, then the command's output)
    assert re.search(r"Running python3 -c 'print\(1\)'\nwispsh: approved by a person in wisp watch after \d+s\n1\n",
                     said), said[-3000:]
    flat = " ".join(said.split())
    for command in REFUSED:
        assert f"wispsh: not run: {command} (dangerous:" in flat and "answered no (in wisp watch)" in flat, \
            said[-3000:]
    assert "of output to the chat" in said


def test_aider_without_a_terminal_runs_bin_sh_and_nothing_reaches_wispsh(tmp_path):
    """The hole the README states: no terminal, `/bin/sh -c LINE` by absolute path; SHELL is not used."""
    box = Sandbox(tmp_path, wait_seconds=5, rc=_rc())
    exe = install("aider", VERSION)
    env = box.env(SHELL=str(box.wrap / "bash"), PATH=f"{box.wrap}:{box.env()['PATH']}", OPENAI_API_KEY="dummy")
    import subprocess

    with StubModel("fence", ["echo ungated > ungated.txt"]) as stub:
        done = subprocess.run(_argv(exe, stub.url, "/run echo ungated > ungated.txt"), env=env, cwd=box.project,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    assert (box.project / "ungated.txt").read_text() == "ungated\n", done.stdout[-2000:] + done.stderr[-2000:]
    assert box.spawns() == [] and [e for e in box.audit() if e.get("event") == "classification"] == []
