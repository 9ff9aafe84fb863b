"""The real clients under `wisp run` with every wall on (issue 23): a normal session each (read, edit, test, a pip
and an npm install from the registry, a commit) with nobody to ask, so a question a person would not expect
would show as a refusal; and the agents' own sandboxes (Codex's `codex sandbox`, sandbox-runtime's `srt`)
started inside, working, and undoing no wall. The stub model (stub.py) stands in for each provider.

Nesting needs `wisp run` started as a user (walls.nesting_possible: as root no nested /proc can be allowed),
so the sandbox tests run as an unprivileged user when the suite runs as root.
"""
from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from install import install
from run_support import WISP, checkout_path, needs_bwrap, needs_userns, run_as, unprivileged_or_skip
from sandbox import Sandbox
from stub import StubModel

pytestmark = [needs_bwrap, needs_userns]
PROMPT = "Run the scripted commands."

SESSION = [
    "cat README.md",
    "sed -i 's/TODO: write it/It works./' README.md && grep -c works README.md",
    "printf 'import unittest\\n\\nclass T(unittest.TestCase):\\n    def test_ok(self):\\n        self.assertTrue(True)\\n'"
    " > test_ok.py && python3 -m unittest -q test_ok 2>&1 | tail -1",
    # six 1.16.0: a version the machine's local index (/opt/pypi) does not hold, so it comes from PyPI itself
    "python3 -m venv .venv && .venv/bin/pip install -q --disable-pip-version-check --no-cache-dir six==1.16.0 && "
    ".venv/bin/pip show six | grep Version",
    "npm install --no-audit --no-fund --no-save is-number@7.0.0 && ls node_modules/is-number/package.json",
    "git add README.md test_ok.py && git commit -qm 'edit README' && git log --oneline | wc -l",
]
EXPECT = ["# demo", "1", "OK", "Version: 1.16.0", "node_modules/is-number/package.json", "1"]


def _box(root: Path) -> Sandbox:
    box = Sandbox(root)
    box.write_config(CONFIG)
    return box


CONFIG = {"approval": {"threshold": "high", "waitSeconds": 5}}


def _listed(box: Sandbox, stub: StubModel) -> str:
    """The stub as a listed model API (the network wall: reached by name through wisp run's proxy); its URL."""
    box.write_config(dict(CONFIG, run={"net": stub.net_config()}))
    return stub.listed_url


def _check_session(box: Sandbox, results: list, said: str, expect=EXPECT) -> None:
    assert len(results) == len(expect), said[-3000:]
    for (command, text), want in zip(results, expect):
        assert want in text and "wispsh: not run" not in text and "Read-only file system" not in text, \
            (command, text[-1500:])
    refused = [e for e in box.audit() if e.get("event") == "approval.decided" and e.get("decision") == "denied-unasked"]
    assert not refused, [e.get("command") for e in refused]          # nothing a person would have been asked
    assert (box.project / "node_modules" / "is-number").is_dir() and (box.project / ".venv").is_dir()
    # the network: the model API and the registries through the proxy, and no question about any host
    net = [e for e in box.audit() if e.get("event") == "net.connect"]
    asked = [e["pattern"] for e in net if e["decision"].startswith(("asked", "denied", "refused"))]
    assert not asked, asked          # ("failed": a listed host this machine's network does not reach)
    reached = {e["host"] for e in net}
    assert {StubModel.NAME, "registry.npmjs.org"} <= reached and reached & {"pypi.org", "files.pythonhosted.org"}, \
        reached


def _wisp_run(box: Sandbox, argv: list[str], env: dict, timeout: float = 400) -> subprocess.CompletedProcess:
    return subprocess.run([WISP, "run", "--", *argv], cwd=box.project, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def test_claude_code_session_inside_the_walls(tmp_path):
    exe = install("claude-code")
    box = _box(tmp_path)
    (box.home / ".claude.json").write_text(json.dumps({"numStartups": 5}))
    with StubModel("anthropic", SESSION) as stub:
        env = box.env(ANTHROPIC_BASE_URL=_listed(box, stub), ANTHROPIC_API_KEY="sk-ant-stub-0000000000000000000000")
        done = _wisp_run(box, [exe, "-p", PROMPT, "--permission-mode", "bypassPermissions", "--output-format",
                               "json"], env)
        results = stub.results()
    _check_session(box, results, done.stdout + done.stderr)
    # its state, saved inside by a temporary file renamed over ~/.claude.json, is back in the home
    saved = json.loads((box.home / ".claude.json").read_text())
    assert saved != {"numStartups": 5} and not (box.home / ".claude" / ".claude.json").exists(), saved


def test_gemini_cli_session_inside_the_walls(tmp_path):
    exe = install("gemini-cli")
    box = _box(tmp_path)
    settings = box.home / ".gemini"
    settings.mkdir()
    (settings / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True}, "ide": {"enabled": False}}))
    with StubModel("gemini", SESSION) as stub:
        env = box.env(GOOGLE_GEMINI_BASE_URL=_listed(box, stub), GEMINI_API_KEY="dummy")
        done = _wisp_run(box, [exe, "-p", PROMPT, "--yolo", "-m", "stub-model"], env)
        results = stub.results()
    _check_session(box, results, done.stdout + done.stderr)


def test_opencode_session_inside_the_walls(tmp_path):
    exe = install("opencode")
    box = _box(tmp_path)
    with StubModel("chat", SESSION) as stub:
        conf = box.home / ".config" / "opencode"
        conf.mkdir(parents=True)
        (conf / "opencode.json").write_text(json.dumps({
            "$schema": "https://opencode.ai/config.json",
            "provider": {"stub": {"npm": "@ai-sdk/openai-compatible", "name": "stub",
                                  "options": {"baseURL": f"{_listed(box, stub)}/v1", "apiKey": "dummy"},
                                  "models": {"stub-model": {"name": "stub-model", "tool_call": True}}}},
            "model": "stub/stub-model", "small_model": "stub/stub-model",
            "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow", "external_directory": "allow"},
            "autoupdate": False, "share": "disabled", "lsp": False, "formatter": False}))
        env = box.env(PWD=str(box.project))
        done = _wisp_run(box, [exe, "run", PROMPT, "-m", "stub/stub-model"], env)
        results = stub.results()
    _check_session(box, results, done.stdout + done.stderr)


# ---------------------------------------------------------------- as a user: Codex's own sandbox, srt


class UserBox:
    """A Sandbox owned by `user`, under a directory it can reach (pytest's tmp is root's alone)."""

    def __init__(self, user: str, python: str):
        self.user, self.python = user, python
        self.top = Path(tempfile.mkdtemp(prefix="wisp-walls-agents-", dir="/tmp"))
        os.chmod(self.top, 0o755)
        self.box = _box(self.top / "box")
        (self.box.wisp_home / "config.json").chmod(0o600)

    def chown(self) -> None:
        entry = pwd.getpwnam(self.user)
        for path in [self.top, *self.top.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)

    def run(self, argv: list[str], env: dict, timeout: float = 400) -> subprocess.CompletedProcess:
        env = dict(env, PYTHONPATH=checkout_path(), PATH="/usr/local/bin:/usr/bin:/bin")
        wisp = [self.python, "-c", "from wispsh.cli.wisp import cli; cli()", "run", "--"]
        return run_as(self.user, wisp + argv, env=env, cwd=self.box.project, capture_output=True, text=True,
                        timeout=timeout, stdin=subprocess.DEVNULL)

    def close(self) -> None:
        shutil.rmtree(self.top, ignore_errors=True)


PROBE = """
import os, subprocess
said = ["inside", subprocess.run(["sh", "-c", "echo through-the-gate"], capture_output=True, text=True).stdout.strip()]
for name, act in (("project", lambda: open("in-project", "w").write("x")),
                  ("outside", lambda: open(os.path.expanduser("~/outside"), "w").write("x")),
                  ("git-config", lambda: open(".git/config", "a").write("x")),
                  ("key", lambda: open(os.path.expanduser("~/.ssh/id_ed25519")).read() or 1 / 0)):
    try:
        act()
        said.append(name + ":done")
    except (OSError, ZeroDivisionError):
        said.append(name + ":refused")
print(" ".join(said))
"""
PROBED = "inside through-the-gate project:done outside:refused git-config:refused key:refused"


def _plant(box: Sandbox) -> None:
    (box.home / ".ssh").mkdir(mode=0o700)
    (box.home / ".ssh" / "id_ed25519").write_text("secret\n")
    (box.project / "probe.py").write_text(PROBE)


def _probed(done: subprocess.CompletedProcess, box: Sandbox) -> None:
    said = done.stdout + done.stderr
    assert done.returncode == 0 and done.stdout.strip().splitlines()[-1:] == [PROBED], said[-3000:]
    assert "x" not in (box.project / ".git" / "config").read_text().split()
    assert not (box.home / "outside").exists() and (box.project / "in-project").exists()


# What each sandbox needs of its own settings inside wisp run: sandbox-runtime's seccomp refuses socket(AF_UNIX)
# unless allowAllUnixSockets, and Codex's refuses connect() with its network off; either way no shell inside
# could reach the gate (each is refused, nothing runs ungated). Host sockets are our wall's to cover.
SRT_SETTINGS = {"filesystem": {"denyRead": [], "allowWrite": ["."], "denyWrite": []},
                "network": {"allowedDomains": [], "deniedDomains": [], "allowAllUnixSockets": True}}
NESTED = {
    "sandbox-runtime": lambda exe: [exe, "-c", "python3 probe.py"],
    "codex": lambda exe: [exe, "sandbox", "-c", 'sandbox_mode="workspace-write"',
                          "-c", "sandbox_workspace_write.network_access=true", "--", "python3", "probe.py"],
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_an_agents_own_sandbox_starts_inside_and_keeps_its_walls_and_ours(name):
    user, python = unprivileged_or_skip()
    exe = install(name)
    ub = UserBox(user, python)
    try:
        box = ub.box
        _plant(box)
        (box.home / ".srt-settings.json").write_text(json.dumps(SRT_SETTINGS))
        ub.chown()
        _probed(ub.run(NESTED[name](exe), box.env()), box)
    finally:
        ub.close()


def test_codex_session_with_its_own_sandbox_on_inside_the_walls():
    user, python = unprivileged_or_skip()
    exe = install("codex")
    ub = UserBox(user, python)
    try:
        box = ub.box
        # Codex's exec tool answers "still running" after 10 s unless told to wait (the pip install takes longer)
        with StubModel("responses", [{"cmd": c, "yield_time_ms": 240000} for c in SESSION]) as stub:
            codex_home = box.home / ".codex"
            codex_home.mkdir()
            (codex_home / "config.toml").write_text(
                'model = "stub-model"\nmodel_provider = "stub"\ncheck_for_update_on_startup = false\n'
                'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\n'
                f'[model_providers.stub]\nname = "stub"\nbase_url = "{_listed(box, stub)}/v1"\nenv_key = "STUB_API_KEY"\n'
                'wire_api = "responses"\n[analytics]\nenabled = false\n[otel]\nexporter = "none"\n')
            ub.chown()
            done = ub.run([exe, "exec", "--skip-git-repo-check", PROMPT], box.env(STUB_API_KEY="dummy"))
            results = stub.results()
        # the commit meets Codex's own wall (workspace-write keeps .git read-only), not ours
        assert len(results) == len(SESSION) and "index.lock': Read-only file system" in results[-1][1], results[-1:]
        _check_session(box, results[:-1], done.stdout + done.stderr, expect=EXPECT[:-1])
    finally:
        ub.close()
