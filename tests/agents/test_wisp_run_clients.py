"""The real clients under `wisp run`: no recipe, no shim, no SHELL setting. Each starts its shells its own way
and every one of them is the gate: Codex its login shell by absolute path (`/bin/bash -lc`) and `/bin/sh -lc`
when the model names `/usr/bin/dash`; mini-swe-agent `subprocess.Popen(cmd, shell=True)` (`/bin/sh -c`);
Aider without a terminal `/bin/sh -c` for `/run`. No watcher: benign lines run, risky ones are refused.

Part of the real-agent stage (`pytest tests/agents`): the pinned clients of pins.json, installed by install.py.
"""
from __future__ import annotations

import json
import subprocess

import pytest

from clients import codex_exec_under_wisp_run, tool_output
from install import install
from run_support import WISP, needs_bwrap, needs_userns
from sandbox import Sandbox
from stub import StubModel

pytestmark = [needs_bwrap, needs_userns]
PROMPT = "Run the scripted commands."


def _box(tmp_path) -> Sandbox:
    box = Sandbox(tmp_path)
    box.write_config({"approval": {"waitSeconds": 5}})      # no shim and no logging wrapper: the shells as found
    (box.home / ".bashrc").write_text("# mine\n")
    (box.project / "victim").mkdir()
    (box.project / "victim" / "keep").write_text("x")
    return box


def _listed(box: Sandbox, stub: StubModel) -> str:
    """The stub as a listed model API (the network wall: reached by name through wisp run's proxy); its URL."""
    box.write_config({"approval": {"waitSeconds": 5}, "run": {"net": stub.net_config()}})
    return stub.listed_url


def _wisp_run(box: Sandbox, argv: list[str], env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([WISP, "run", "--", *argv], cwd=box.project, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def _kept(box: Sandbox) -> None:
    assert (box.project / "victim" / "keep").exists()
    assert (box.home / ".bashrc").read_text() == "# mine\n"


def _decided(box: Sandbox) -> dict:
    return {e["command"]: e["decision"] for e in box.audit() if e.get("event") == "approval.decided"}


def _no_plumbing_refused(box: Sandbox, script) -> list[str]:
    """Every line the client ran of its own (start-up probes, snapshots, boilerplate) was below the threshold:
    none asked, none refused. Returns them (for the report)."""
    commands = {step if isinstance(step, str) else step["cmd"] for step in script}
    decided = [e for e in box.audit() if e.get("event") == "approval.decided" and e["line"] not in commands]
    assert all(e["decision"].startswith(("below-threshold", "cached", "covered")) for e in decided), [
        (e["line"][:120], e["decision"], e["reasons"]) for e in decided]
    assert not [e for e in box.audit() if e.get("event") == "approval.asked"]
    return sorted({e["line"][:100] for e in decided})


def test_codex_login_shell_and_a_model_named_dash_are_gated(tmp_path):
    exe = install("codex")
    box = _box(tmp_path)
    script = ["git status", {"cmd": "echo via-dash", "shell": "/usr/bin/dash"},
              {"cmd": "echo planted > planted.txt", "shell": "/usr/bin/dash"}, "echo x >> ~/.bashrc",
              "find victim -delete"]
    with StubModel("responses", script) as stub:
        done = codex_exec_under_wisp_run(box, exe, _listed(box, stub), PROMPT)
        results = {cmd: tool_output(text) for cmd, text in stub.results()}
    said = done.stdout + done.stderr
    assert len(results) == len(script), said[-3000:]
    assert "/bin/sh -lc 'echo planted > planted.txt'" in said     # the model's dash became /bin/sh: the gate
    assert "via-dash" in results["echo via-dash"] and "code 0" in results["echo via-dash"]
    for command in ("echo x >> ~/.bashrc", "find victim -delete"):
        assert f"wispsh: not run: {command}" in results[command] and "code 126" in results[command], results[command]
    _kept(box)
    decided = _decided(box)
    assert decided["git status"] == "below-threshold" and decided["find victim -delete"] == "denied-unasked"
    # a project write inside the walls is contained (issue 28): judged by the gate, run, with a restore point
    assert decided["echo planted > planted.txt"] == "contained"
    assert (box.project / "planted.txt").read_text() == "planted\n"
    assert "lsb_release -a" in _no_plumbing_refused(box, script)     # its start-up probe, judged as started


def test_mini_swe_agent_is_gated(tmp_path):
    exe = install("mini-swe-agent")
    box = _box(tmp_path)
    script = ["git status", "rm -rf victim", "echo planted >> ~/.bashrc", "python3 -c 'print(1)'",
              "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"]
    with StubModel("chat", script) as stub:
        env = box.env(OPENAI_API_KEY="dummy", MSWEA_CONFIGURED="true",
                      MSWEA_GLOBAL_CONFIG_DIR=str(box.home / ".config" / "mini-swe-agent"))
        done = _wisp_run(box, [exe, "-y", "--exit-immediately", "-m", "openai/stub-model", "-t", PROMPT, "-o",
                               str(box.root / "traj.json"), "-c", "mini.yaml",
                               "-c", f"model.model_kwargs.api_base={_listed(box, stub)}/v1",
                               "-c", "model.model_kwargs.api_key=dummy", "-c", "model.cost_tracking=ignore_errors"],
                         env)
        results = {cmd: text for cmd, text in stub.results()}
    assert len(results) >= 4, (done.stdout + done.stderr)[-3000:]
    assert "On branch" in results["git status"] or "No commits yet" in results["git status"]
    for command in ("rm -rf victim", "echo planted >> ~/.bashrc", "python3 -c 'print(1)'"):
        got = json.loads(results[command])
        assert got["returncode"] == 126 and f"wispsh: not run: {command}" in got["output"], got
    _kept(box)
    assert _decided(box)["rm -rf victim"] == "denied-unasked"
    _no_plumbing_refused(box, script)


def test_aider_without_a_terminal_is_gated(tmp_path):
    exe = install("aider")
    box = _box(tmp_path)
    with StubModel("fence", ["true"]) as stub:
        done = _wisp_run(box, [exe, "--model", "openai/stub-model", "--openai-api-base", f"{_listed(box, stub)}/v1",
                               "--openai-api-key", "dummy", "--no-show-model-warnings", "--no-check-update",
                               "--analytics-disable", "--no-auto-commits", "--no-gitignore", "--no-pretty",
                               "--no-fancy-input", "--yes-always", "--map-tokens", "0", "--message",
                               "/run rm -rf victim"], box.env(OPENAI_API_KEY="dummy"))
    said = done.stdout + done.stderr
    assert "wispsh: not run: rm -rf victim" in said, said[-3000:]
    _kept(box)
    assert _decided(box)["rm -rf victim"] == "denied-unasked"
    _no_plumbing_refused(box, ["rm -rf victim"])


# ---------------------------------------------------------------- every client's plumbing under `wisp run`

PLUMBING_SCRIPT = ["git status", "ls -la", "echo x >> ~/.bashrc"]      # two that run, one refused


def _no_recipe(client: str, box: Sandbox, exe: str, url: str):
    """The client's argv and env as tests/agents/clients.py runs it, less the shim recipe: under `wisp run`
    every shell is the gate wherever the client finds it."""
    from clients import CLIENTS

    argv, env, _ = CLIENTS[client](box, exe, url)
    plain = box.env()
    env = dict(env, PATH=plain["PATH"], SHELL="/bin/bash")
    env.pop("CLAUDE_CODE_SHELL", None)
    if client == "opencode":
        conf = box.home / ".config" / "opencode" / "opencode.json"
        conf.write_text(json.dumps({k: v for k, v in json.loads(conf.read_text()).items() if k != "shell"}))
    return argv, env


@pytest.mark.parametrize("client", ["claude-code", "gemini-cli", "qwen-code", "opencode"])
def test_under_wisp_run_no_plumbing_line_is_asked_or_refused(client, tmp_path):
    """The clients' start-up probes (Gemini CLI's clinfo/xdpyinfo/xrandr, Claude Code's env probe and IDE
    search), snapshots and boilerplate, with no recipe and no watcher: each runs, below the threshold; only the
    scripted risky line is refused, and nothing is asked. (Codex, mini-swe-agent and Aider: the tests above.)"""
    exe = install(client)
    box = _box(tmp_path)
    script = PLUMBING_SCRIPT
    flavor = {"claude-code": "anthropic", "codex": "responses", "gemini-cli": "gemini"}.get(client, "chat")
    with StubModel(flavor, script) as stub:
        argv, env = _no_recipe(client, box, exe, _listed(box, stub))
        done = _wisp_run(box, argv, dict(env, PWD=str(box.project)))
        results = {cmd: tool_output(text) for cmd, text in stub.results()}
    said = done.stdout + done.stderr
    assert set(results) >= set(PLUMBING_SCRIPT), (sorted(results), said[-3000:])
    decided = _decided(box)
    assert [decided[c] for c in PLUMBING_SCRIPT] == ["below-threshold", "below-threshold", "denied-unasked"]
    plumbing = _no_plumbing_refused(box, script)
    print(f"{client}: {len(plumbing)} plumbing line(s) below the threshold: {plumbing}")
    assert "wispsh: not run: echo x >> ~/.bashrc" in results["echo x >> ~/.bashrc"]
    _kept(box)
