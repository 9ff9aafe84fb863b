"""`wisp doctor` in a temporary HOME: each check one line (ok / warn / FAIL + what to do), exit 1 only on FAIL.

Real files, real modes, a real `wisp watch` in a pty; the agents' config files are written where the
agents keep them.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from test_ask_support import REPO, person_env
from test_watch import spawn_watcher

WISP = str(REPO / ".venv" / "bin" / "wisp")


MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}


def doctor(env):
    """`wisp doctor --json`, each check as one "MARK what: detail -- fix" line; the text form checked too."""
    done = subprocess.run([WISP, "doctor", "--json"], env=env, capture_output=True, stdin=subprocess.DEVNULL,
                          timeout=60)
    assert done.stderr == b"", done.stderr
    data = json.loads(done.stdout.decode("utf-8"))
    assert data["version"] == 1 and data["ok"] == (done.returncode == 0)
    lines = [f"{MARKS[c['status']]} {c['what']}: {c['detail']}" + (f" -- {c['fix']}" if c["fix"] else "")
             for c in data["checks"]]
    text = subprocess.run([WISP, "doctor"], env={**env, "COLUMNS": "80"}, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert text.returncode == done.returncode and text.stderr == ""
    for row in text.stdout.splitlines():       # 80 columns, unless one word (a path) is longer by itself
        assert len(row) <= 80 or " " not in row.strip(), row
        assert row[:5] in ("ok   ", "warn ", "FAIL ") or row.startswith("     "), row
    return done.returncode, lines


def line_about(lines, what: str) -> str:
    found = [line for line in lines if line[5:].startswith(what)]
    assert len(found) == 1, (what, lines)
    return found[0]


@pytest.fixture
def env(tmp_path):
    env = person_env(tmp_path, PATH="/usr/bin:/bin", SHELL="/bin/bash")
    for name in ("CLAUDE_CODE_SHELL", "CLAUDE_CODE_SHELL_PREFIX", "AMAZON_Q_CHAT_SHELL", "XDG_DATA_HOME",
                 "XDG_CONFIG_HOME", "CLAUDECODE", "GEMINI_CLI", "CODEX_SANDBOX", "CODEX_THREAD_ID",
                 "GOOSE_TERMINAL", "OPENCODE", "WISP_SESSION"):
        env.pop(name, None)
    return env


def lay_shims(env) -> Path:
    done = subprocess.run([WISP, "shims", "install", "-q"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Path(env["HOME"]) / ".local" / "share" / "wispsh" / "shims"


def test_a_fresh_home_passes_and_says_what_to_do_about_the_shims(env):
    status, lines = doctor(env)
    assert status == 0
    assert line_about(lines, "config:").startswith("ok ")
    assert line_about(lines, "real shell bash:").startswith("ok ")
    assert line_about(lines, "Resources:").startswith("ok ")
    assert line_about(lines, "shims:").startswith("warn") and "run `wisp shims install`" in line_about(lines, "shims:")
    shell = line_about(lines, "SHELL:")
    assert shell.startswith("warn") and "not wispsh" in shell and "--" in shell
    assert line_about(lines, "wisp watch:").startswith("ok ")


def test_shims_on_path_first_later_or_not_at_all(env):
    shims = lay_shims(env)
    _, lines = doctor(env)
    assert line_about(lines, f"shims in {shims}:").startswith("ok ")
    assert "is not on PATH" in line_about(lines, "shims on PATH:")
    _, lines = doctor({**env, "PATH": f"/usr/bin:/bin:{shims}"})
    later = line_about(lines, "shims on PATH:")
    assert later.startswith("warn") and "after the real shells: bash -> /usr/bin/bash" in later
    assert f"export PATH={shims}:$PATH" in later
    status, lines = doctor({**env, "PATH": f"{shims}:/usr/bin:/bin", "SHELL": str(shims / "bash")})
    assert status == 0 and line_about(lines, "shims on PATH:").startswith("ok ")
    assert line_about(lines, "SHELL:").startswith("ok ") and "is wispsh" in line_about(lines, "SHELL:")
    # a shim whose venv is gone fails, and says how to mend it
    text = (shims / "sh").read_text().split("\n", 1)
    (shims / "sh").write_text(f"#!{env['HOME']}/gone/python -IS\n{text[1]}")
    status, lines = doctor(env)
    assert status == 1 and "sh: interpreter" in line_about(lines, f"shims in {shims}:")
    assert "wisp shims install" in line_about(lines, f"shims in {shims}:")


def test_modes_and_trust_of_the_gates_own_files(env):
    home = Path(env["WISP_HOME"])
    (home / "approvals.json").write_text(json.dumps({"version": 1, "approvals": []}))
    (home / "approvals.json").chmod(0o644)
    (home / "config.json").write_text("{}")
    (home / "config.json").chmod(0o600)
    home.chmod(0o750)
    status, lines = doctor(env)
    assert status == 0
    assert "chmod 600" in line_about(lines, "mode of approvals.json:")
    assert line_about(lines, "wisp home:").startswith("warn") and "chmod 700" in line_about(lines, "wisp home:")
    (home / "config.json").chmod(0o666)
    status, lines = doctor(env)
    assert status == 1
    assert line_about(lines, "config:").startswith("FAIL") and "not trusted" in line_about(lines, "config:")
    assert any(line.startswith("FAIL not trusted:") and "config.json is writable by group or others" in line
               for line in lines)


def test_agents_it_can_see_and_whether_they_reach_wispsh(env):
    shims = lay_shims(env)
    home = Path(env["HOME"])
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"env": {"CLAUDE_CODE_SHELL": str(shims / "bash")}}))
    (home / ".config" / "opencode").mkdir(parents=True)
    (home / ".config" / "opencode" / "opencode.json").write_text(json.dumps({"shell": "/bin/bash"}))
    (home / ".gemini").mkdir()
    run_env = {**env, "CLAUDE_CODE_SHELL": str(shims / "sh"), "AMAZON_Q_CHAT_SHELL": str(shims / "bash"),
               "CLAUDE_CODE_SHELL_PREFIX": "/usr/local/bin/audit-wrap"}
    status, lines = doctor(run_env)
    assert status == 0
    claude = line_about(lines, "Claude Code (")
    assert claude.startswith("ok ") and "is wispsh" in claude
    assert "neither bash nor zsh" in line_about(lines, "CLAUDE_CODE_SHELL:")      # .../shims/sh: Claude ignores it
    assert "CLAUDE_CODE_SHELL to the bash shim" in line_about(lines, "CLAUDE_CODE_SHELL_PREFIX:")
    assert line_about(lines, "AMAZON_Q_CHAT_SHELL:").startswith("ok ")
    opencode = line_about(lines, "opencode (")
    assert opencode.startswith("warn") and "/bin/bash" in opencode and "not wispsh" in opencode
    gemini = line_about(lines, "Gemini CLI (")
    assert gemini.startswith("warn") and "bash -> /usr/bin/bash" in gemini
    _, lines = doctor({**run_env, "PATH": f"{shims}:/usr/bin:/bin"})
    assert line_about(lines, "Gemini CLI (").startswith("ok ")
    watch = line_about(lines, "wisp watch:")
    assert watch.startswith("warn") and "Claude Code" in watch and "opencode" in watch
    assert "run `wisp watch` in a terminal of yours" in watch


def test_a_running_watcher_is_seen(env):
    home = Path(env["HOME"])
    (home / ".codex").mkdir()
    watcher = spawn_watcher(env)
    try:
        status, lines = doctor(env)
        assert status == 0
        watch = line_about(lines, "wisp watch:")
        assert watch.startswith("ok ") and "needed for Codex" in watch and f"pid {watcher.watch_pid}" in watch
        assert line_about(lines, "Codex:")
    finally:
        watcher.close(force=True)
