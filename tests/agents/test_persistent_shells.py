"""Agents that keep one shell and type into it, under `wisp run` (wispsh/session/): SWE-ReX's pexpect bash,
Copilot CLI's persistent bash, Codex's unified exec (`exec_command` with a tty, then `write_stdin`). No recipe:
each starts its shell its own way and every command typed into it is judged; no watcher, so benign commands
run and risky ones are refused (126, the `wispsh: not run: …` line the agent reads), and the audit has each.

Part of the real-agent stage (`pytest tests/agents`): the pinned clients of pins.json, installed by install.py.
"""
from __future__ import annotations

import json
import subprocess

from clients import codex_exec_under_wisp_run, tool_output
from install import install
from run_support import WISP, needs_bwrap, needs_userns
from sandbox import Sandbox
from stub import StubModel
from test_wisp_run_clients import _box as _run_box, _listed, _no_plumbing_refused, _wisp_run

pytestmark = [needs_bwrap, needs_userns]
PROMPT = "Run the scripted commands."

SWEREX = r"""
import asyncio, json, os
from swerex.runtime.local import LocalRuntime
from swerex.runtime.abstract import BashAction, CloseBashSessionRequest, CreateBashSessionRequest

async def main():
    runtime = LocalRuntime()
    await runtime.create_session(CreateBashSessionRequest(startup_timeout=30))
    out = []
    for command in json.loads(os.environ["CMDS"]):
        try:
            seen = await runtime.run_in_session(BashAction(command=command, timeout=60, check="silent"))
            out.append({"cmd": command, "output": seen.output, "exit_code": seen.exit_code})
        except Exception as exc:
            out.append({"cmd": command, "error": f"{type(exc).__name__}: {exc}"[:800]})
    await runtime.close_session(CloseBashSessionRequest())
    print("RESULT" + json.dumps(out))

asyncio.run(main())
"""


def _box(tmp_path) -> Sandbox:
    box = _run_box(tmp_path)
    (box.home / ".ssh").mkdir(exist_ok=True)
    (box.home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    return box


def _audited(box: Sandbox) -> str:
    return "\n".join(e.get("line") or e.get("command") or "" for e in box.audit())


def test_swe_rex_session_is_gated_command_by_command(tmp_path):
    python = install("swe-rex")
    box = _box(tmp_path)
    commands = ["echo READY", "cd victim && ls", "pwd", "rm -rf ../victim", "cat ~/.ssh/id_rsa",
                "x=7; f() { echo f-$x; }", "f", "cat <<'EOF'\nheredoc line\nEOF", "cd .. && ls victim"]
    done = _wisp_run(box, [python, "-c", SWEREX], box.env(CMDS=json.dumps(commands)))
    said = done.stdout + done.stderr
    assert "RESULT" in done.stdout, said[-3000:]
    got = {r["cmd"]: r for r in json.loads(done.stdout.split("RESULT", 1)[1].strip().splitlines()[0])}
    assert not [r for r in got.values() if "error" in r], [r for r in got.values() if "error" in r]  # pre-check ok
    assert "READY" in got["echo READY"]["output"] and got["echo READY"]["exit_code"] == 0
    assert "keep" in got["cd victim && ls"]["output"]
    assert got["pwd"]["output"].strip().endswith("/victim")                      # cd held across commands
    for risky in ("rm -rf ../victim", "cat ~/.ssh/id_rsa"):
        assert got[risky]["exit_code"] == 126 and f"wispsh: not run: {risky}" in got[risky]["output"], got[risky]
    assert "PRIVATE KEY" not in got["cat ~/.ssh/id_rsa"]["output"]
    assert "f-7" in got["f"]["output"] and "heredoc line" in got["cat <<'EOF'\nheredoc line\nEOF"]["output"]
    assert "keep" in got["cd .. && ls victim"]["output"]
    assert (box.project / "victim" / "keep").exists()
    audited = _audited(box)
    for command in commands:
        assert command.split("\n")[0] in audited, command                       # each command is in the audit


def test_copilot_persistent_bash_is_gated(tmp_path):
    exe = install("copilot")
    box = _box(tmp_path)
    script = ["echo READY-$((6*7))", "cd victim && ls", "x=7; echo x=$x", "rm -rf victim", "cat ~/.ssh/id_rsa"]
    with StubModel("chat", script) as stub:
        env = box.env(COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=f"{_listed(box, stub)}/v1",
                      COPILOT_PROVIDER_API_KEY="dummy", OPENAI_API_KEY="dummy",
                      COPILOT_MODEL="stub-model")
        done = _wisp_run(box, [exe, "-p", PROMPT, "--allow-all-tools", "--model", "stub-model"], env)
        results = {cmd: tool_output(text) for cmd, text in stub.results()}
    said = done.stdout + done.stderr
    assert len(results) == len(script), said[-3000:]
    assert "READY-42" in results["echo READY-$((6*7))"]
    assert "keep" in results["cd victim && ls"] and "x=7" in results["x=7; echo x=$x"]
    for risky in ("rm -rf victim", "cat ~/.ssh/id_rsa"):
        assert f"wispsh: not run: {risky}" in results[risky], results[risky]
    assert "PRIVATE KEY" not in results["cat ~/.ssh/id_rsa"]
    assert (box.project / "victim" / "keep").exists()
    audited = _audited(box)
    for command in script:
        assert command in audited, command
    plumbing = _no_plumbing_refused(box, script)      # its login-env snapshot (compgen -e) among them
    print(f"copilot: {len(plumbing)} plumbing line(s) below the threshold: {plumbing}")


def test_codex_unified_exec_shell_is_gated_and_bash_approvals_do_not_cover_it(tmp_path):
    """`exec_command` with a tty starts `bash --norc` (as `/bin/bash -lc 'bash --norc'`), then `write_stdin`
    types into it. The outer line is approved (`bash *`, as a person would to let Codex start its shell); what is
    typed into the shell is judged on its own."""
    exe = install("codex")
    box = _box(tmp_path)
    subprocess.run([WISP, "approvals", "add", "bash *", "--scope", "always"], env=box.env(), check=True,
                   capture_output=True)
    typed = ["echo READY-$((6*7))\n", "cd victim && ls\n", "rm -rf ../victim\n", "echo st=$?\n",
             "cat ~/.ssh/id_rsa\n", "exit\n"]
    script = [{"cmd": "bash --norc", "tty": True, "yield_time_ms": 3000}] + [
        {"tool": "write_stdin", "cmd": chars, "yield_time_ms": 3000} for chars in typed]
    with StubModel("responses", script) as stub:
        done = codex_exec_under_wisp_run(box, exe, _listed(box, stub), PROMPT)
        results = [tool_output(text) for _, text in stub.results()]
    said = done.stdout + done.stderr
    assert len(results) == len(script), said[-3000:]
    everything = "\n".join(results)
    assert "READY-42" in everything and "keep" in everything, everything[-3000:]

    assert "wispsh: not run: rm -rf ../victim" in everything and "st=126" in everything
    assert "wispsh: not run: cat ~/.ssh/id_rsa" in everything and "PRIVATE KEY" not in everything
    assert (box.project / "victim" / "keep").exists()
