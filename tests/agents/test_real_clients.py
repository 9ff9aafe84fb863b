"""The real agent clients, pinned (pins.json), installed from their registries, each driven by a stub of its
model API that scripts benign and risky commands, through the README's recipe for its shell. Asserted per
client: which spawns reach wispsh and with what argv; that the agent's plumbing and capture/probe runs are
never asked about; that a payload is asked exactly as it would be alone; what the model receives on a refusal;
and that an answer in `wisp watch` lets a command run.

Run: `.venv/bin/python -m pytest tests/agents` (.ci/run's agent stage). AGENT_VERSIONS=latest (scripts/agents-latest)
runs the same against the newest versions.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import json

from clients import run_client, tool_output
from sandbox import Sandbox
from shapes import drift as drift_lines
from shapes import shape_of

VERSION = os.environ.get("AGENT_VERSIONS") or None        # None: the pins
BENIGN = ["git status", "ls -la", "grep -rn TODO ."]
# the person answers y in wisp watch: inline code (high) and a write into the project (moderate, levels.md)
NOTE = "cat <<'EOF' > notes.txt\nfirst line\nsecond line\nEOF"
APPROVED = ["python3 -c 'print(1)'", NOTE]
REFUSED = ["git push --force origin main", "echo x >> ~/.bashrc"]   # the person answers n
PLUMBING = ("shopt -u extglob", "pwd -P >|", "__CODEX_SNAPSHOT", "_bgpids_file", "__code=$?", "SNAPSHOT_FILE",
            "source ", "eval '", 'eval "', "shell_snapshots", "shell-snapshots")


# the template each client's command spawns match (None: plain `-c CMD`, nothing around the payload)
TEMPLATE = {"claude-code": "claude-code/chain", "codex": None, "gemini-cli": "gemini-cli/subshell",
            "opencode": None, "qwen-code": None, "mini-swe-agent": None}


def script_for(client: str) -> list:
    steps = BENIGN + APPROVED + REFUSED
    if client == "mini-swe-agent":
        steps.append("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    return steps


def _report(client: str, run, spawns: list, unknown: list, box_root=None) -> None:
    """For scripts/agents-latest: the version run, the shapes seen, the drifts (AGENT_REPORT=DIR)."""
    where = os.environ.get("AGENT_REPORT")
    if not where:
        return
    from collections import Counter

    from install import client_version, install

    shapes = Counter(shape_of(client, s["argv"]) for s in spawns if shape_of(client, s["argv"]))
    known = {}
    for s in spawns:
        name = shape_of(client, s["argv"])
        if name and name not in known:
            known[name] = s["argv"]
    samples = json.loads((Path(__file__).with_name("recorded-spawns.json")).read_text()).get(client, {})
    drift = [drift_lines(client, argv, samples or known, str(box_root)) for argv in unknown]
    record = {"version": client_version(client, install(client, VERSION)), "shapes": dict(shapes), "drift": drift,
              "outcome": "spawn shapes match" if not unknown else f"{len(unknown)} spawn(s) drifted"}
    Path(where, f"{client}.json").write_text(json.dumps(record))


def answer(screen: str) -> str:
    return "y" if "python3 -c" in screen or "cat <<'EOF'" in screen else "n"


def alone(box: Sandbox, line: str) -> set[str]:
    plan = box.explain(["-c", line])
    return {p["pattern"] for p in plan["parts"] if p["decision"] == "ask"}


@pytest.mark.parametrize("client", ["claude-code", "codex", "gemini-cli", "opencode", "qwen-code", "mini-swe-agent"])
def test_a_real_client_session_through_wispsh(client, tmp_path):
    if client == "codex" and os.getuid() != 0:
        pytest.skip("machine lacks root (Codex runs the password database's shell: the test binds a passwd copy)")
    box = Sandbox(tmp_path, wait_seconds=60)
    script = script_for(client)
    run = run_client(client, box, script, answer=answer, version=VERSION)
    spawns = box.spawns()
    assert spawns, f"no spawn reached the wrapper:\n{run.output[-3000:]}"

    # 1. which spawns reach wispsh, with what argv: every spawn has a shape recorded for this client, and each
    #    scripted command was judged as its own line (the payload alone when a template matched)
    unknown = [s["argv"] for s in spawns if shape_of(client, s["argv"]) is None]
    _report(client, run, spawns, unknown, box.root)
    assert not unknown, [json.dumps(a)[:300] for a in unknown]
    judged = {e["line"]: e.get("template") for e in box.audit() if e.get("event") == "classification"}
    for command in script:
        assert command in judged, (command, sorted(judged)[:20])
    if TEMPLATE[client]:      # the pinned version's template, or one taken from a newer version of the client
        assert all((judged[c] or "").startswith(TEMPLATE[client]) for c in script), {c: judged[c] for c in script}

    # 2. the agent's plumbing and its capture/probe runs are never asked: only the risky payloads are
    asked_lines = [screen for screen in run.asked]
    assert len(asked_lines) == len(APPROVED) + len(REFUSED), asked_lines
    for screen in asked_lines:
        assert not any(mark in screen for mark in PLUMBING if mark not in ("source ",)), screen
    events = [e for e in box.audit() if e.get("event") == "approval.decided"
              and not e["decision"].startswith(("below", "cached", "covered"))]
    assert {e["line"] for e in events} == {*APPROVED, *REFUSED}, [(e["line"][:80], e["decision"]) for e in events]

    # 3. a payload is asked exactly as alone
    for command in [*APPROVED, *REFUSED]:
        asked = {e["pattern"] for e in events if e["line"] == command}
        assert asked == alone(box, command), command

    # 4. what the model received: the approved command's output, and for each refusal one line naming the payload
    results = {command: tool_output(said) for command, said in run.results}
    assert "1" in results[APPROVED[0]], results.get(APPROVED[0])
    assert (box.project / "notes.txt").read_text() == "first line\nsecond line\n"
    for command in REFUSED:
        said = results[command]
        flat = " ".join(said.split())            # the refusal is wrapped to 80 columns
        assert f"wispsh: not run: {command}" in flat and "answered no (in wisp watch)" in flat, said
        assert not any(mark in said for mark in PLUMBING), said
    assert "x" not in (box.home / ".bashrc").read_text() if (box.home / ".bashrc").exists() else True
