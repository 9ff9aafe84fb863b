"""How each real client is run against its stub, the README's recipe for putting wispsh in its shell path,
and the session driver: the client in the background, `wisp watch` on a real pty answering its questions.

    run = run_client("codex", box, script, answer=lambda request_text: "y" or "n")
    run.code, run.output, run.results (what the model got back per command), run.asked (questions seen)
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from install import install
from sandbox import WISP, Sandbox
from stub import StubModel

PROMPT = "Run the scripted commands."


@dataclass
class Run:
    code: int | None
    output: str
    results: list = field(default_factory=list)
    asked: list = field(default_factory=list)       # the watcher's screens, one per question
    stub: StubModel | None = None


# ---------------------------------------------------------------- per client: files, argv, env


def tool_output(said: str) -> str:
    """A tool result as text (mini-swe-agent sends JSON: returncode and output)."""
    try:
        data = json.loads(said)
    except ValueError:
        return said
    return data.get("output", said) if isinstance(data, dict) else said


def codex_exec_under_wisp_run(box: Sandbox, exe: str, url: str, prompt: str, timeout: float = 300):
    """`codex exec` inside `wisp run` (its own sandbox off: it cannot nest there), against the stub at `url`."""
    (box.home / ".codex").mkdir(exist_ok=True)
    (box.home / ".codex" / "config.toml").write_text(
        'model = "stub-model"\nmodel_provider = "stub"\ncheck_for_update_on_startup = false\n'
        f'[model_providers.stub]\nname = "stub"\nbase_url = "{url}/v1"\nenv_key = "STUB_API_KEY"\n'
        'wire_api = "responses"\n[analytics]\nenabled = false\n[otel]\nexporter = "none"\n')
    return subprocess.run([WISP, "run", "--", exe, "exec", "--dangerously-bypass-approvals-and-sandbox",
                           "--skip-git-repo-check", prompt], cwd=box.project, env=box.env(STUB_API_KEY="dummy"),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


def _claude(box: Sandbox, exe: str, url: str):
    env = box.env(ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="sk-ant-stub-0000000000000000000000",
                  CLAUDE_CODE_SHELL=str(box.wrap / "bash"), SHELL=str(box.wrap / "bash"))
    return [exe, "-p", PROMPT, "--permission-mode", "bypassPermissions", "--output-format", "json"], env, "anthropic"


def _codex(box: Sandbox, exe: str, url: str):
    codex_home = box.home / ".codex"
    codex_home.mkdir(exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "stub-model"\nmodel_provider = "stub"\ncheck_for_update_on_startup = false\n'
        f'[model_providers.stub]\nname = "stub"\nbase_url = "{url}/v1"\nenv_key = "STUB_API_KEY"\n'
        'wire_api = "responses"\n[analytics]\nenabled = false\n[otel]\nexporter = "none"\n')
    # Codex runs the password database's login shell by path: the README's `chsh` recipe, in a private mount
    # namespace (a copy of /etc/passwd bound over it) whose entry for us names the wrapper and this HOME
    passwd = box.root / "passwd"
    uid = os.getuid()
    lines = []
    for line in Path("/etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if len(fields) == 7 and fields[2] == str(uid):
            fields[5], fields[6] = str(box.home), str(box.wrap / "bash")
        lines.append(":".join(fields))
    passwd.write_text("\n".join(lines) + "\n")
    env = box.env(STUB_API_KEY="dummy")
    argv = ["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/passwd && exec "$@"', str(passwd),
            exe, "exec", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", PROMPT]
    return argv, env, "responses"


def _gemini(box: Sandbox, exe: str, url: str):
    settings = box.home / ".gemini"
    settings.mkdir(exist_ok=True)
    (settings / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True}, "ide": {"enabled": False}}))
    env = box.env(GOOGLE_GEMINI_BASE_URL=url, GEMINI_API_KEY="dummy", PATH=f"{box.wrap}:{box.env()['PATH']}")
    return [exe, "-p", PROMPT, "--yolo", "-m", "stub-model"], env, "gemini"


def _qwen(box: Sandbox, exe: str, url: str):
    settings = box.home / ".qwen"
    settings.mkdir(exist_ok=True)
    (settings / "settings.json").write_text(json.dumps({
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True}, "security": {"folderTrust": {"enabled": False}}}))
    env = box.env(OPENAI_BASE_URL=f"{url}/v1", OPENAI_API_KEY="dummy", OPENAI_MODEL="stub-model",
                  PATH=f"{box.wrap}:{box.env()['PATH']}")
    return [exe, "--auth-type", "openai", "-m", "stub-model", "--yolo", "-p", PROMPT], env, "chat"


def _opencode(box: Sandbox, exe: str, url: str):
    conf = box.home / ".config" / "opencode"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "opencode.json").write_text(json.dumps({
        "$schema": "https://opencode.ai/config.json",
        "provider": {"stub": {"npm": "@ai-sdk/openai-compatible", "name": "stub",
                              "options": {"baseURL": f"{url}/v1", "apiKey": "dummy"},
                              "models": {"stub-model": {"name": "stub-model", "tool_call": True}}}},
        "model": "stub/stub-model", "small_model": "stub/stub-model", "shell": str(box.wrap / "bash"),
        "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow", "external_directory": "allow"},
        "autoupdate": False, "share": "disabled", "lsp": False, "formatter": False}))
    env = box.env(XDG_CONFIG_HOME=str(box.home / ".config"), XDG_DATA_HOME=str(box.home / ".local" / "share"),
                  XDG_CACHE_HOME=str(box.home / ".cache"), XDG_STATE_HOME=str(box.home / ".local" / "state"))
    return [exe, "run", PROMPT, "-m", "stub/stub-model"], env, "chat"


MINI_ENV = '''
import os, subprocess
from minisweagent.environments.local import LocalEnvironment


class WispShellEnvironment(LocalEnvironment):
    """The local environment with its shell named: [WISP_E2E_SHELL, -c, command] instead of /bin/sh."""

    def execute(self, action, cwd="", *, timeout=None):
        command = action.get("command", "") if isinstance(action, dict) else action
        out = subprocess.run([os.environ["WISP_E2E_SHELL"], "-c", command], cwd=cwd or self.config.cwd or os.getcwd(),
                             env=os.environ | self.config.env, text=True, capture_output=True,
                             timeout=timeout or self.config.timeout, start_new_session=True, stdin=subprocess.DEVNULL)
        return {"output": out.stdout + out.stderr, "returncode": out.returncode, "exception_info": ""}
'''


def _mini(box: Sandbox, exe: str, url: str):
    (box.root / "wispenv.py").write_text(MINI_ENV)
    env = box.env(WISP_E2E_SHELL=str(box.wrap / "bash"), PYTHONPATH=str(box.root), OPENAI_API_KEY="dummy",
                  MSWEA_GLOBAL_CONFIG_DIR=str(box.home / ".config" / "mini-swe-agent"), MSWEA_CONFIGURED="true")
    argv = [exe, "-y", "--exit-immediately", "-m", "openai/stub-model", "-t", PROMPT, "-o", str(box.root / "traj.json"),
            "-c", "mini.yaml", "-c", f"model.model_kwargs.api_base={url}/v1", "-c", "model.model_kwargs.api_key=dummy",
            "-c", "model.cost_tracking=ignore_errors", "-c", "environment.environment_class=wispenv.WispShellEnvironment"]
    return argv, env, "chat"


CLIENTS = {"claude-code": _claude, "codex": _codex, "gemini-cli": _gemini, "qwen-code": _qwen,
           "opencode": _opencode, "mini-swe-agent": _mini}


# ---------------------------------------------------------------- the session


def spawn_watcher(env: dict) -> pexpect.spawn:
    child = pexpect.spawn("script", ["-qfc", f"{WISP} watch", "/dev/null"], env=env, encoding="utf-8",
                          dimensions=(50, 160), timeout=30)
    child.expect(r"wisp watch \(pid (\d+)\): waiting for questions")
    return child


def answer_key(child: pexpect.spawn, key: str) -> None:
    """An answer as the dialog takes it (a key, confirmed with Enter where the dialog wants Enter)."""
    child.send(key)
    time.sleep(0.2)
    child.send("\r")


def run_client(name: str, box: Sandbox, script: list, *, answer=None, timeout: float = 240,
               version: str | None = None) -> Run:
    """Run `name` for a session of `script` (stub tool calls). With `answer` (screen text -> "y"/"n"), a
    `wisp watch` answers every question it is shown; without, no one can be asked."""
    exe = install(name, version)
    flavor_of = {"claude-code": "anthropic", "codex": "responses", "gemini-cli": "gemini"}
    with StubModel(flavor_of.get(name, "chat"), script) as stub:
        argv, env, _flavor = CLIENTS[name](box, exe, stub.url)
        env = dict(env, PWD=str(box.project))       # the directory it starts in, as a shell would say it
        watcher = spawn_watcher(box.env()) if answer else None
        out = open(box.root / f"{name}.out", "w+")
        proc = subprocess.Popen(argv, cwd=box.project, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        asked = []
        deadline = time.monotonic() + timeout
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if watcher is None:
                    time.sleep(0.3)
                    continue
                got = watcher.expect_exact(["] no", pexpect.TIMEOUT], timeout=1)
                if got == 0:
                    screen = watcher.before
                    asked.append(screen)
                    answer_key(watcher, answer(screen))
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
        finally:
            if watcher is not None:
                watcher.close(force=True)
        out.seek(0)
        return Run(proc.returncode, out.read(), stub.results(), asked, stub)


def have(program: str) -> bool:
    return shutil.which(program) is not None
