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


def without_wisp_run(argv: list[str]) -> list[str]:
    """argv on this machine as it would be without bubblewrap (a mount namespace of its own, bwrap hidden):
    where `wisp run` cannot work and the per-agent shim recipes are all there is."""
    if os.geteuid() != 0:
        pytest.skip("machine lacks root (hiding bwrap in a mount namespace needs it)")
    hide = " && ".join(f"mount --bind /dev/null {p}" for p in ("/usr/bin/bwrap", "/bin/bwrap")
                       if os.path.exists(p) and not os.path.islink(p)) or "true"
    return ["unshare", "-m", "/bin/sh", "-c", f'{hide} && exec "$@"', "sh", *argv]


def doctor(env, run: bool = True):
    """`wisp doctor --json`, each check as one "MARK what: detail -- fix" line; the text form checked too.
    `run`: as here, where `wisp run` works; False: as on a machine where it cannot."""
    around = (lambda argv: argv) if run else without_wisp_run
    done = subprocess.run(around([WISP, "doctor", "--json"]), env=env, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.stderr == b"", done.stderr
    data = json.loads(done.stdout.decode("utf-8"))
    statuses = {c["status"] for c in data["checks"]}
    assert data["version"] == 1 and data["ok"] == ("fail" not in statuses)
    # the exit status: 1 a check fails, 3 one warns (something needs your action), 0 nothing to do
    assert done.returncode == (1 if "fail" in statuses else 3 if "warn" in statuses else 0), done.returncode
    lines = [f"{MARKS[c['status']]} {c['what']}: {c['detail']}" + (f" -- {c['fix']}" if c["fix"] else "")
             for c in data["checks"]]
    text = subprocess.run(around([WISP, "doctor"]), env={**env, "COLUMNS": "80"}, capture_output=True, text=True,
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


def nothing_to_do(lines) -> int:
    """The exit status when nothing but the machine itself needs action: as root, `wisp run` cannot nest an
    agent's own sandbox (the walls' nesting warning, exit 3), and without a C compiler the compiled client cannot
    be built (its warning); else 0. Any other warning fails here."""
    from wispsh.native import build

    machine = [row for row in lines if row.startswith("warn wall: nesting: not possible here: as root")
               or (build.compiler() is None and row.startswith("warn client: the Python launcher is in front: no C"))]
    assert [row for row in lines if not row.startswith("ok ")] == machine, lines
    return 3 if machine else 0


def lay_shims(env) -> Path:
    done = subprocess.run([WISP, "shims", "install", "-q"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return Path(env["HOME"]) / ".local" / "share" / "wispsh" / "shims"


def test_a_fresh_home_passes_and_says_what_to_do_about_the_shims(env):
    status, lines = doctor(env)                     # `wisp run` works here: the shims are for the recipes only
    assert status == nothing_to_do(lines)
    assert line_about(lines, "config:").startswith("ok ")
    assert line_about(lines, "real shell bash:").startswith("ok ")
    assert line_about(lines, "Resources:").startswith("ok ")
    shims = line_about(lines, "shims:")
    assert shims.startswith("ok ") and "`wisp run` needs none" in shims and "wisp shims install" in shims
    assert line_about(lines, "wisp watch:").startswith("ok ")
    status, lines = doctor(env, run=False)          # without `wisp run`, the recipes are all there is
    assert status == 3                              # warnings: something needs your action
    assert line_about(lines, "shims:").startswith("warn") and "run `wisp shims install`" in line_about(lines, "shims:")
    shell = line_about(lines, "SHELL:")
    assert shell.startswith("warn") and "not wispsh" in shell and "--" in shell
    assert line_about(lines, "wisp run:").startswith("warn")


def test_shims_on_path_first_later_or_not_at_all(env):
    shims = lay_shims(env)
    _, lines = doctor(env, run=False)
    assert line_about(lines, f"shims in {shims}:").startswith("ok ")
    assert "is not on PATH" in line_about(lines, "shims on PATH:")
    status, lines = doctor({**env, "PATH": f"/usr/bin:/bin:{shims}"}, run=False)
    later = line_about(lines, "shims on PATH:")
    assert status == 3 and later.startswith("warn") and "after the real shells: bash -> /usr/bin/bash" in later
    assert f"export PATH={shims}:$PATH" in later
    status, lines = doctor({**env, "PATH": f"/usr/bin:/bin:{shims}"})          # with `wisp run`: reported only
    assert status == nothing_to_do(lines) and line_about(lines, "shims on PATH:").startswith("ok ")
    assert "only the per-agent shim recipes need this" in line_about(lines, "shims on PATH:")
    status, lines = doctor({**env, "PATH": f"{shims}:/usr/bin:/bin", "SHELL": str(shims / "bash")})
    assert status == nothing_to_do(lines) and line_about(lines, "shims on PATH:").startswith("ok ")
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
    assert status == 3                              # the gate works; these need your action
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
    status, lines = doctor(run_env, run=False)
    assert status == 3
    claude = line_about(lines, "Claude Code (")
    assert claude.startswith("ok ") and "is wispsh" in claude
    assert "neither bash nor zsh" in line_about(lines, "CLAUDE_CODE_SHELL:")      # .../shims/sh: Claude ignores it
    assert "CLAUDE_CODE_SHELL to the bash shim" in line_about(lines, "CLAUDE_CODE_SHELL_PREFIX:")
    assert line_about(lines, "AMAZON_Q_CHAT_SHELL:").startswith("ok ")
    opencode = line_about(lines, "opencode (")
    assert opencode.startswith("warn") and "/bin/bash" in opencode and "not wispsh" in opencode
    gemini = line_about(lines, "Gemini CLI (")
    assert gemini.startswith("warn") and "bash -> /usr/bin/bash" in gemini
    _, lines = doctor({**run_env, "PATH": f"{shims}:/usr/bin:/bin"}, run=False)
    assert line_about(lines, "Gemini CLI (").startswith("ok ")
    watch = line_about(lines, "wisp watch:")
    assert watch.startswith("ok ") and "Claude Code" in watch and "opencode" in watch   # said, not warned
    assert "run `wisp watch` in a terminal of yours while they work" in watch
    _, lines = doctor(run_env)                      # where `wisp run` works, a recipe that does not gate is said
    opencode = line_about(lines, "opencode (")
    assert opencode.startswith("ok ") and "not wispsh" in opencode and "under `wisp run` it is gated" in opencode


def test_a_running_watcher_is_seen(env):
    home = Path(env["HOME"])
    (home / ".codex").mkdir()
    watcher = spawn_watcher(env)
    try:
        status, lines = doctor(env)
        assert status == nothing_to_do(lines)
        watch = line_about(lines, "wisp watch:")
        assert watch.startswith("ok ") and "needed for Codex" in watch and f"pid {watcher.watch_pid}" in watch
        assert line_about(lines, "Codex:")
    finally:
        watcher.close(force=True)


def test_installed_clients_are_found_on_path_and_said_how_each_is_gated(env, tmp_path):
    """Was: nothing said of an installed client until its config directory existed."""
    bin_dir = tmp_path / "agents-bin"
    bin_dir.mkdir()
    for name in ("copilot", "gemini", "mini"):
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    path_env = {**env, "PATH": f"{bin_dir}:/usr/bin:/bin"}
    status, lines = doctor(path_env)
    copilot = line_about(lines, "Copilot CLI:")
    assert copilot.startswith("ok ") and str(bin_dir / "copilot") in copilot
    assert "the shims never reach it" in copilot and "`wisp run -- copilot` gates it" in copilot
    gemini = line_about(lines, "Gemini CLI:")
    assert gemini.startswith("ok ") and "looks bash up on PATH" in gemini and "wisp run -- gemini" in gemini
    assert "/bin/sh by absolute path" in line_about(lines, "mini-swe-agent:")
    status, lines = doctor(path_env, run=False)     # no `wisp run`: Copilot and mini cannot be gated here
    assert status == 3
    copilot = line_about(lines, "Copilot CLI:")
    assert copilot.startswith("warn") and "not on this machine" in copilot and "README" in copilot
    assert line_about(lines, "Gemini CLI:").startswith("ok ")      # the shim recipe can gate it


def test_a_read_only_wisp_home_gets_advice_that_can_work(env, tmp_path):
    """Was: `chmod u+w` for a home on a read-only filesystem (a read-only bind mount, `wisp run`'s inside)."""
    if os.geteuid() != 0:
        pytest.skip("machine lacks root (a read-only bind mount needs it)")
    home = Path(env["WISP_HOME"])
    (home / "audit.jsonl").write_text("")
    (home / "audit.jsonl").chmod(0o600)
    argv = ["unshare", "-m", "/bin/sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && '
            'exec "$@"', str(home), WISP, "doctor", "--json"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    checks = {c["what"]: c for c in json.loads(done.stdout)["checks"]}
    assert done.returncode == 1 and checks["audit"]["status"] == "fail", checks["audit"]
    assert "read-only filesystem" in checks["audit"]["detail"] and "chmod" not in (checks["audit"]["fix"] or "")
    assert "remount it read-write, or set WISP_HOME elsewhere" in checks["audit"]["fix"]


def test_inside_wisp_run_the_read_only_home_and_the_shells_are_as_they_should_be(env, tmp_path):
    """Inside `wisp run` the home is read-only and its key hidden by design, the real shells have no path: was
    FAIL "chmod u+w", FAIL "chmod u+r …/grants.key" and "no real shell found" warnings."""
    from run_support import LACKS

    if LACKS:
        pytest.skip(LACKS)
    done = subprocess.run([WISP, "run", "--", WISP, "doctor", "--json"], env=env, cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)
    checks = json.loads(done.stdout)["checks"]
    bad = [c for c in checks if c["status"] != "ok" and c["what"] not in ("shims",)]
    assert not [c for c in bad if "chmod" in (c["fix"] or "") or c["what"].startswith("real shell")], bad
    home = next(c for c in checks if c["what"] == "wisp home")
    assert home["status"] == "ok" and "read-only inside wisp run" in home["detail"]
    assert next(c for c in checks if c["what"] == "real shells")["status"] == "ok"
