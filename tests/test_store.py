"""store.py with real files and real concurrent processes: format, modes, locking, atomicity, trust."""
from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from wispsh.decide import store
from wispsh.model import Level

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def where(tmp_path):
    home, runtime = tmp_path / "home", tmp_path / "run"
    env = {**os.environ, "WISP_HOME": str(home), "XDG_RUNTIME_DIR": str(runtime), "WISP_SESSION": "store-test",
           "PYTHONPATH": str(REPO)}
    return home, runtime, env


def test_file_format_and_modes(where, tmp_path):
    home, runtime, env = where
    a = store.grant(home, pattern="git commit *", scope="always", level=Level.HIGH, source="tty", cwd=str(tmp_path),
                    env=env, persist_days=30)
    b = store.grant(home, pattern="make *", scope="project", level=Level.MODERATE, source="tty", cwd=str(tmp_path),
                    env=env, persist_days=2)
    s = store.grant(home, pattern="npm *", scope="session", level=Level.MODERATE, source="tty", cwd=str(tmp_path),
                    env=env)
    doc = json.loads((home / "approvals.json").read_text())
    assert doc["version"] == 1
    first, second = doc["approvals"]
    assert set(first) == {"id", "pattern", "scope", "directory", "level", "source", "created", "expires", "verbKeys"}
    assert (first["id"], first["pattern"], first["scope"], first["directory"], first["level"], first["source"]) == \
        (a.id, "git commit *", "always", None, "high", "tty")
    assert second["directory"] == str(tmp_path.resolve()) and second["level"] == "moderate"
    assert store.parse_time(second["expires"]) - store.parse_time(second["created"]) == pytest.approx(2 * 86400, abs=2)
    assert len({a.id, b.id, s.id}) == 3 and len(a.id) >= 12
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "approvals.json").stat().st_mode) == 0o600
    grants = list((runtime / "wisp" / "grants").iterdir())
    assert len(grants) == 1 and stat.S_IMODE(grants[0].stat().st_mode) == 0o600
    assert stat.S_IMODE((runtime / "wisp").stat().st_mode) == 0o700
    assert "npm *" not in (home / "approvals.json").read_text()       # session grants never persist


def test_dangerous_is_never_persisted(where, tmp_path):
    home, _, env = where
    with pytest.raises(ValueError):
        store.grant(home, pattern="rm *", scope="always", level=Level.DANGEROUS, source="t", cwd=str(tmp_path), env=env)


def test_revoke_and_clear(where, tmp_path):
    home, _, env = where
    made = [store.grant(home, pattern=f"p{i} *", scope=scope, level=Level.MODERATE, source="t", cwd=str(tmp_path),
                        env=env) for i, scope in enumerate(["always", "project", "session", "always"])]
    assert store.revoke(home, made[2].id, env) and not store.revoke(home, made[2].id, env)
    assert store.revoke(home, made[0].id, env)
    assert sorted(a.id for a in store.all_approvals(home, env).approvals) == sorted([made[1].id, made[3].id])
    store.grant(home, pattern="s *", scope="session", level=Level.MODERATE, source="t", cwd=str(tmp_path), env=env)
    assert store.clear(home, env, scope="session") == 1
    assert store.clear(home, env, scope="project") == 1
    assert [a.id for a in store.all_approvals(home, env).approvals] == [made[3].id]
    assert store.clear(home, env) == 1 and not store.all_approvals(home, env).approvals


WORKER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from wispsh.decide import store
    from wispsh.model import Level
    home, n = Path(os.environ["WISP_HOME"]), sys.argv[1]
    made = [store.grant(home, pattern=f"w{n}-{k} *", scope="always", level=Level.MODERATE, source="t", cwd="/")
            for k in range(3)]
    store.grant(home, pattern=f"s{n} *", scope="session", level=Level.MODERATE, source="t", cwd="/")
    assert store.revoke(home, made[1].id)
""")


def test_fifty_processes_granting_and_revoking_lose_nothing(where):
    home, _, env = where
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(n)], env=env, stderr=subprocess.PIPE)
             for n in range(50)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    doc = json.loads((home / "approvals.json").read_text())       # valid JSON
    patterns = sorted(e["pattern"] for e in doc["approvals"])
    assert patterns == sorted(f"w{n}-{k} *" for n in range(50) for k in (0, 2))
    assert len({e["id"] for e in doc["approvals"]}) == 100
    session = sorted(a.pattern for a in store.all_approvals(home, env).approvals if a.scope == "session")
    assert session == sorted(f"s{n} *" for n in range(50))
    assert not [p for p in os.listdir(home) if p.endswith(".tmp")]


WRITER = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    from wispsh.decide import store
    from wispsh.model import Level
    home = Path(os.environ["WISP_HOME"])
    print("ready", flush=True)
    while True:
        a = store.grant(home, pattern="loop *", scope="always", level=Level.MODERATE, source="t", cwd="/")
        store.revoke(home, a.id)
""")


def test_kill_9_during_writes_leaves_the_old_or_the_new_file(where, tmp_path):
    home, _, env = where
    base = [store.Approval(id=f"base{i}", pattern=f"base{i} *", scope="always", level=Level.MODERATE, source="t",
                           created=time.time(), expires=time.time() + 86400) for i in range(3000)]
    home.mkdir(mode=0o700, exist_ok=True)
    store.write_atomic(home / "approvals.json", store._dump(base))     # a large file: writes take a while
    rng = random.Random(6)
    for _ in range(12):
        p = subprocess.Popen([sys.executable, "-c", WRITER], env=env, stdout=subprocess.PIPE)
        assert p.stdout.readline() == b"ready\n"
        until = time.monotonic() + rng.uniform(0.02, 0.2)
        while time.monotonic() < until:                     # readers never see a partial file either
            json.loads((home / "approvals.json").read_bytes())
        p.send_signal(signal.SIGKILL)
        p.wait()
        doc = json.loads((home / "approvals.json").read_text())
        ids = [e["id"] for e in doc["approvals"]]
        assert ids[:3000] == [f"base{i}" for i in range(3000)]
        assert all(e["pattern"] == "loop *" for e in doc["approvals"][3000:])   # killed between grant and revoke
    # the lock died with the writer, and the next write cleans any half-written temp file
    store.grant(home, pattern="after *", scope="always", level=Level.MODERATE, source="t", cwd="/", env=env)
    assert not [p for p in os.listdir(home) if p.endswith(".tmp")]
    assert "after *" in (home / "approvals.json").read_text()


def test_expired_and_bad_times(where):
    home, _, _ = where
    home.mkdir()
    now = time.time()
    raw = {"version": 1, "approvals": [
        {"id": "a", "pattern": "a *", "scope": "always", "level": "high", "source": "t", "created": now - 100,
         "expires": now - 1},
        {"id": "b", "pattern": "b *", "scope": "always", "level": "high", "source": "t", "created": now - 100,
         "expires": store.iso(now + 100)}]}
    (home / "approvals.json").write_text(json.dumps(raw))
    (home / "approvals.json").chmod(0o600)
    assert [a.id for a in store.read_persisted(home).approvals] == ["b"]
    raw["approvals"][1]["expires"] = "next tuesday"
    (home / "approvals.json").write_text(json.dumps(raw))
    assert store.read_persisted(home).corrupt


@pytest.mark.parametrize("text", ["", "{", "[]", '{"version": 2, "approvals": []}', '{"version": 1}',
                                  '{"version": 1, "approvals": [{"id": "x", "pattern": "a *", "scope": "forever"}]}',
                                  '{"version": 1, "approvals": [{"id": "x", "pattern": "a *", "scope": "project"}]}'])
def test_corrupt_shapes_are_detected_and_set_aside(where, text, tmp_path):
    home, _, env = where
    home.mkdir(mode=0o700)
    (home / "approvals.json").write_text(text)
    (home / "approvals.json").chmod(0o600)
    loaded = store.read_persisted(home)
    assert loaded.corrupt and not loaded.approvals and "corrupt" in loaded.problem
    store.grant(home, pattern="ok *", scope="always", level=Level.LOW, source="t", cwd="/", env=env)
    aside = list(home.glob("approvals.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == text
    assert [a.pattern for a in store.read_persisted(home).approvals] == ["ok *"]


def test_symlinked_store_is_not_trusted(where, tmp_path):
    home, _, _ = where
    home.mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text('{"version": 1, "approvals": []}')
    (home / "approvals.json").symlink_to(elsewhere)
    loaded = store.read_persisted(home)
    assert loaded.problem and "symbolic link" in loaded.problem and not loaded.corrupt
    with pytest.raises(store.StoreError):
        store.grant(home, pattern="a *", scope="always", level=Level.LOW, source="t", cwd="/")


@pytest.mark.skipif(os.geteuid() != 0, reason="machine lacks root (giving a file to another user needs it)")
def test_foreign_owned_runtime_grants_are_ignored(where, tmp_path):
    home, runtime, env = where
    store.grant(home, pattern="npm *", scope="session", level=Level.MODERATE, source="t", cwd="/", env=env)
    grants_file = next((runtime / "wisp" / "grants").iterdir())
    os.chown(grants_file, 65534, 65534)
    standing = store.standing(home, cwd=str(tmp_path), env=env)
    assert not standing.approvals and any("owned by uid 65534" in n for n in standing.notes)
