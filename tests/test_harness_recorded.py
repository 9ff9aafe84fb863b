"""Templates taken from newer client versions match those versions' recorded spawns exactly (issue 15):
tests/agents/observed/ holds the argv scripts/agents-latest recorded from the real client; here each command
spawn is replayed with its sandbox paths laid out again, and must give back exactly the scripted payload.
A byte changed anywhere in the plumbing is judged as written."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from wispsh.agents import harness
from wispsh.config import Config

OBSERVED = Path(__file__).resolve().parent / "agents" / "observed"
PAYLOADS = ["git status", "ls -la", "cat <<'EOF' > notes.txt\nfirst line\nsecond line\nEOF", "python3 -c 'print(1)'",
            "echo hi | wc -c"]


def _commands(name: str, kind: str) -> list[list[str]]:
    data = json.loads((OBSERVED / name).read_text())
    return [argv for argv in data[kind] if "eval " in argv[-1]]


@pytest.mark.parametrize("kind", ["passthrough", "through-wispsh"])
def test_claude_code_2_1_332_commands_match_their_template(tmp_path, kind):
    box = tmp_path / "box"
    (box / "tmp").mkdir(parents=True)
    snapshots = box / "home" / ".claude" / "shell-snapshots"
    snapshots.mkdir(parents=True, mode=0o700)
    env = {"HOME": str(box / "home"), "TMPDIR": str(box / "tmp"), "CLAUDECODE": "1"}
    config = Config(path=tmp_path / "no-config.json")
    commands = _commands("claude-code-2.1.332.json", kind)
    assert len(commands) == len(PAYLOADS)
    for argv, payload in zip(commands, PAYLOADS):
        line = argv[-1].replace("$BOX", str(box))
        for word in line.split():
            if "/shell-snapshots/" in word:
                Path(word).write_text("# Snapshot file\n")
                Path(word).chmod(0o600)
        hit = harness.match(line, env=env, config=config)
        assert hit is not None and hit.template == "claude-code/chain-2.1.332", line
        assert hit.payload_decoded.removesuffix(" < /dev/null") == payload
        for changed in (line.replace("'which'", "'whic'"), line.replace("\\builtin shopt", "shopt", 1),
                        line + " ; id"):
            other = harness.match(changed, env=env, config=config)
            assert other is None or other.template != "claude-code/chain-2.1.332", changed
