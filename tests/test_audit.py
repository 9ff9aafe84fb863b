"""audit.py: one event per decision with the contract's fields, secrets redacted, rotation, concurrency."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wispsh.decide import audit, gate
from wispsh.config import Config
from wispsh.model import Answer, Judged, Key, Level, Part, Split, Verdict

REPO = Path(__file__).resolve().parent.parent

SECRETS = ["hunter2xyz", "ghp_abc123SECRETtoken", "s3cr3t-value", "Zm9vYmFyYmF6", "p4ssw0rd!", "tok-998877",
           "sk-live-4242", "dbpass55", "bearer-zzz-111"]

SECRET_LINES = [
    ("GITHUB_TOKEN=ghp_abc123SECRETtoken gh pr list", "GITHUB_TOKEN=***"),
    ("export AWS_SECRET_ACCESS_KEY='s3cr3t-value'", "AWS_SECRET_ACCESS_KEY=***"),
    ('curl -H "Authorization: Bearer bearer-zzz-111" https://api.example', "Authorization: ***"),
    ("mysql -u root -phunter2xyz db", "-p***"),
    ("psql --password=p4ssw0rd! -h db", "--password=***"),
    ("git clone https://alice:Zm9vYmFyYmF6@git.example/r.git", "https://alice:***@git.example"),
    ("DB_PASSWORD=dbpass55 ./migrate", "DB_PASSWORD=***"),
    ("api --token tok-998877", "--token ***"),
    ("OPENAI_API_KEY=sk-live-4242 python x.py", "OPENAI_API_KEY=***"),
]


@pytest.mark.parametrize("line, shown", SECRET_LINES)
def test_redaction(line, shown):
    out = audit.redact(line)
    assert shown in out
    assert not any(s in out for s in SECRETS), out


@pytest.mark.parametrize("line", ["mkdir -p build/out", "ls -la", "grep -r KEYWORD src", "echo name=value",
                                  "make V=1", "git log -p", "ssh -p 2222 host"])
def test_ordinary_lines_are_left_alone(line):
    assert audit.redact(line) == line


def _judged(text, pattern, level):
    part = Part(text=text, span=(0, len(text)), argv=tuple(text.split()))
    return Judged(part, Key(text.split()[0], None, pattern, False), Verdict.of(level, "test.rule", "because"))


@pytest.fixture
def home(tmp_path):
    return tmp_path / "home"


def _env(tmp_path, home):
    return {"WISP_HOME": str(home), "XDG_RUNTIME_DIR": str(tmp_path / "run"), "WISP_SESSION": "audit-test",
            "CLAUDECODE": "1"}


def test_one_event_per_decision_with_the_fields_and_no_secret(tmp_path, home):
    config = Config(path=home / "config.json")
    env = _env(tmp_path, home)
    total_parts = 0
    for n, (text, _) in enumerate(SECRET_LINES):
        parts = (_judged("ls", "ls *", Level.SAFE), _judged(text, f"p{n} *", Level.MODERATE))
        line = "ls; " + text
        plan = gate.plan(Split(line, tuple(j.part for j in parts)), parts, Verdict(Level.SAFE), None, config,
                         cwd=str(tmp_path), env=env)
        gate.settle(plan, [Answer(0, "ys"[n % 2], "tty")], config=config, cwd=str(tmp_path), env=env,
                    source="wispsh")
        total_parts += 2
    raw = (home / "audit.jsonl").read_text()
    assert not any(s in raw for s in SECRETS)
    events = [json.loads(line) for line in raw.splitlines()]
    assert len(events) == 2 * total_parts                   # a classification and a decision per part
    for ev in events:
        assert set(audit.FIELDS) <= set(ev)
        assert ev["session"] == gate_session_id("audit-test") and ev["source"] == "claude"
        assert ev["cwd"] == str(tmp_path) and ev["ts"].endswith("Z") and ev["line"].startswith("ls; ")
    decided = [e for e in events if e["event"] == "approval.decided"]
    assert [e["decision"] for e in decided[:4]] == ["below-threshold", "asked-once", "below-threshold",
                                                    "asked-session"]
    assert decided[1]["approval_id"] and decided[1]["scope"] == "once" and decided[1]["level"] == "moderate"
    classified = [e for e in events if e["event"] == "classification"]
    assert classified[1]["command"] == "GITHUB_TOKEN=*** gh pr list" and classified[1]["reasons"] == ["because"]
    assert stat.S_IMODE((home / "audit.jsonl").stat().st_mode) == 0o600


def gate_session_id(name):
    from wispsh.decide import session
    return session.named_session_id(name)


def test_rotation(home):
    home.mkdir(mode=0o700)
    for i in range(30):
        audit.append(home, [audit.event("classification", command=f"cmd {i}", line="x" * 100)], max_bytes=1000)
    assert (home / "audit.jsonl").stat().st_size <= 1000
    assert (home / "audit.jsonl.1").exists()
    last = audit.read(home)
    assert last[-1]["command"] == "cmd 29"
    assert [e["command"] for e in audit.read(home, 2)] == ["cmd 28", "cmd 29"]


WRITER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from wispsh.decide import audit
    home = Path(os.environ["WISP_HOME"])
    for i in range(40):
        audit.append(home, [audit.event("classification", command=f"{sys.argv[1]}-{i}", line="y" * 3000)])
""")


def test_concurrent_appends_keep_whole_lines(tmp_path, home):
    env = {**os.environ, "WISP_HOME": str(home), "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, f"w{n}"], env=env) for n in range(8)]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    events = audit.read(home)
    assert len(events) == 320 and not [e for e in events if "unreadable" in e]
    assert sorted(e["command"] for e in events) == sorted(f"w{n}-{i}" for n in range(8) for i in range(40))


def test_unreadable_lines_are_reported_not_fatal(home):
    home.mkdir(mode=0o700)
    (home / "audit.jsonl").write_text('{"event": "classification"}\nnot json\n')
    assert audit.read(home) == [{"event": "classification"}, {"unreadable": "not json"}]
