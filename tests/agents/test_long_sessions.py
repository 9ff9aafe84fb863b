"""Long sessions of typical agent work through the real clients (issue 15): Claude Code, 100 commands in one
run; Codex, 30 commands with its shell snapshot in place. A person answers every question in `wisp watch`
with "s" (this session): after that, a pattern is never asked again. Asserted: each distinct pattern is asked
at most once; no question and no refusal is about plumbing (the snapshot capture, the env probe, the
template around the payload); every command got a result back to the model.

One client run scripts all the tool calls (stub.py), so the session costs one client start-up.
"""
from __future__ import annotations

import json
import os
import subprocess
from collections import Counter

import pytest

from clients import run_client
from sandbox import Sandbox
from shapes import shape_of

VERSION = os.environ.get("AGENT_VERSIONS") or None
PLUMBING = ("shopt -u extglob", "pwd -P >|", "__CODEX_SNAPSHOT", "SNAPSHOT_FILE", "shell-snapshots", "shell_snapshots",
            "builtin unalias", "claude-", "codex-path")

# typical agent work: read, edit (sed -i, heredocs), test, build, packages, git; many repeats of a few shapes
WORK = [
    "ls -la", "git status", "cat README.md", "mkdir -p src tests",
    "cat <<'EOF' > src/calc.py\ndef add(a, b):\n    return a + b\nEOF",
    "cat <<'EOF' > tests/test_calc.py\nimport sys\nsys.path.insert(0, 'src')\nfrom calc import add\n\n\ndef test_add():\n"
    "    assert add(1, 2) == 3\nEOF",
    "python3 -m pytest -q tests", "sed -i 's/a + b/b + a/' src/calc.py", "cat src/calc.py", "git diff",
    "grep -rn 'def ' src", "python3 -m pytest -q tests/test_calc.py", "git add src tests", "git status --short",
    "git commit -q -m 'calc: add'", "git log --oneline -5",
    "cat <<'EOF' > package.json\n{\"name\": \"demo\", \"version\": \"1.0.0\", \"private\": true,\n"
    " \"scripts\": {\"test\": \"node test.js\", \"build\": \"node build.js\"}}\nEOF",
    "cat <<'EOF' > test.js\nconsole.log('ok');\nEOF", "cat <<'EOF' > build.js\nconsole.log('built');\nEOF",
    "npm test", "npm run build", "npm --version", "node --version", "pip --version", "pip list --format=freeze",
    "python3 --version", "git stash", "git stash list", "git stash pop", "git fetch origin", "git branch -a",
    "cat <<'EOF' > Makefile\nall:\n\t@echo make-ran\nEOF", "make", "make all", "cargo --version", "go version",
    "head -n 5 src/calc.py", "wc -l src/calc.py tests/test_calc.py", "find . -name '*.py' -not -path './.git/*'",
    "sed -i 's/b + a/a + b/' src/calc.py", "git diff --stat", "python3 -m pytest -q", "git add -A",
    "git commit -q -m 'calc: tidy'", "tail -n 3 README.md", "echo done > notes.txt", "cat notes.txt",
    "grep -c TODO README.md", "sort README.md", "diff README.md notes.txt", "ls src tests",
]


def _claude_script() -> list[str]:
    steps = list(WORK)
    i = 0
    while len(steps) < 100:     # the same shapes again, as a session goes on: edits, tests, diffs, status
        n = len(steps)
        steps.append([f"sed -i 's/^# demo$/# demo {n}/' README.md", "git status", "git diff", "python3 -m pytest -q",
                      "cat src/calc.py", "grep -rn add src", f"cat <<'EOF' > tests/data_{n}.txt\nrow {n}\nEOF",
                      "npm test", "make"][i % 9])
        i += 1
    return steps


CODEX_WORK = [c for c in WORK if not c.startswith(("git stash pop",))][:30]


def _bare_remote(box: Sandbox) -> None:
    remote = box.root / "remote.git"
    env = box.env(GIT_CONFIG_GLOBAL=str(box.home / ".gitconfig"))
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True, env=env)
    subprocess.run(["git", "-C", str(box.project), "remote", "add", "origin", str(remote)], check=True, env=env)


def _check(box: Sandbox, run, script: list[str], client: str) -> dict:
    audit = box.audit()
    asked = [e for e in audit if e.get("event") == "approval.decided" and str(e.get("decision")).startswith("asked")]
    refused = [e for e in audit if e.get("event") == "approval.decided" and str(e.get("decision")).startswith("denied")]
    per_pattern = Counter(e["pattern"] for e in asked)
    assert all(n == 1 for n in per_pattern.values()), per_pattern.most_common(5)
    for event in asked + refused:
        assert not any(mark in (event.get("line") or "") for mark in PLUMBING), event["line"][:300]
    for screen in run.asked:
        assert not any(mark in screen for mark in PLUMBING if mark != "claude-"), screen[-800:]
    assert refused == [], [(e["line"][:80], e["decision"]) for e in refused]
    got = [c for c, _ in run.results]
    assert got == script[:len(got)] and len(got) == len(script), (len(got), len(script), run.output[-2000:])
    shapes = Counter(shape_of(client, s["argv"]) for s in box.spawns())
    return {"questions": len(asked), "patterns": sorted(per_pattern), "commands": len(script), "shapes": dict(shapes)}


def test_claude_code_100_commands_ask_once_per_pattern_and_never_about_plumbing(tmp_path):
    box = Sandbox(tmp_path, wait_seconds=60)
    _bare_remote(box)
    script = _claude_script()
    assert len(script) == 100
    run = run_client("claude-code", box, script, answer=lambda screen: "s", timeout=600, version=VERSION)
    seen = _check(box, run, script, "claude-code")
    # the capture passed unasked: every command sourced the snapshot (no fallback to `-c -l`)
    commands = {k: v for k, v in seen["shapes"].items() if k and k.startswith("command")}
    assert set(commands) <= {"command, snapshot", "command, snapshot (2.1.332)"} and sum(commands.values()) == 100, \
        seen["shapes"]
    print(json.dumps(seen))


def test_codex_30_commands_with_a_snapshot_ask_once_per_pattern(tmp_path):
    if os.getuid() != 0:
        pytest.skip("machine lacks root (Codex runs the password database's shell: the test binds a passwd copy)")
    box = Sandbox(tmp_path, wait_seconds=8)
    _bare_remote(box)
    script = CODEX_WORK
    run = run_client("codex", box, script, answer=lambda screen: "s", timeout=600, version=VERSION)
    seen = _check(box, run, script, "codex")
    assert seen["shapes"].get("snapshot capture") == 1 and seen["shapes"].get("command, snapshot wrapper", 0) >= 25, \
        seen["shapes"]
    print(json.dumps(seen))
