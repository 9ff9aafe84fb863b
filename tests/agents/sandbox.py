"""A private place to run a real agent client through wispsh: HOME, wisp home, runtime dir, a git project, the
shims (`wisp shims install`), and a logging wrapper named bash/sh/zsh in front of them that records every
spawn's exact argv (and its terminal, session) before it execs the shim. Reusable by other stages (a later
`wisp run` test of Codex or Aider):

    box = Sandbox(tmp_path)                       # passthrough=True: the wrappers exec the real shells
    env = box.env(PATH=f"{box.wrap}:{box.env()['PATH']}")
    ... run the client with cwd=box.project ...
    box.spawns()     # [{"argv": [...], "argv0": ..., "tty": [..], "sid": bool, "tty_nr": int}, ...]
    box.audit()      # wispsh's audit events
    box.explain(spawn["argv"])   # wispsh --explain --json on a recorded argv, in this box's environment

No real service is reached: every client's base URL points at a stub (stub.py), dummy keys, telemetry and
update checks off (CLIENT_QUIET).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
VENV = REPO / ".venv" / "bin"
WISP = str(VENV / "wisp")
WISPSH = str(VENV / "wispsh")

# Variables that switch off telemetry, update checks and error reports, for every client at once.
CLIENT_QUIET = {
    "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_NON_ESSENTIAL_MODEL_CALLS": "1",
    "DISABLE_BUG_COMMAND": "1", "CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL": "1",
    "GEMINI_TELEMETRY_ENABLED": "false", "GEMINI_CLI_NO_RELAUNCH": "true",
    "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "true",
    "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_AUTOCOMPACT": "1",
    "CODEX_DISABLE_UPDATE_CHECK": "1", "NO_UPDATE_NOTIFIER": "1", "npm_config_update_notifier": "false",
    "MSWEA_SILENT_STARTUP": "1", "MSWEA_COST_TRACKING": "ignore_errors", "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "AIDER_ANALYTICS": "false", "AIDER_CHECK_UPDATE": "false", "HF_HUB_OFFLINE": "1", "DO_NOT_TRACK": "1",
    "NO_COLOR": "1", "IS_SANDBOX": "1",
}
# Inherited variables that could reach a real service or change a client's mind.
DROPPED_PREFIXES = ("WISP_", "PYTEST_", "ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "CLAUDE", "CODEX_", "OPENCODE",
                    "QWEN", "AIDER_", "MSWEA_", "TMUX")

WRAPPER = r'''#!{python} -IS
import json, os, sys
with open("/proc/self/stat") as fh:
    st = fh.read()
f = st[st.rindex(")") + 2:].split()
rec = {{"argv": sys.argv[1:], "argv0": sys.argv[0], "pid": os.getpid(), "sid": int(f[3]) == os.getpid(),
       "tty": [os.isatty(i) for i in (0, 1, 2)], "tty_nr": int(f[4]), "cwd": os.getcwd()}}
fd = os.open({log!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
os.write(fd, (json.dumps(rec) + "\n").encode())
os.close(fd)
import re, shutil
keep = os.path.join(os.path.dirname({log!r}), "snapshots")
for found in re.findall(r"(/[^'\" ]*shell[-_]snapshots/[^'\" ]+)", sys.argv[-1] if len(sys.argv) > 1 else ""):
    try:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(found, os.path.join(keep, os.path.basename(found)))
    except OSError:
        pass
os.execv({target!r} + "/" + os.path.basename(sys.argv[0]), [sys.argv[0]] + sys.argv[1:])
'''


class Sandbox:
    def __init__(self, root: Path, *, passthrough: bool = False, wait_seconds: float = 20, rc: str | None = None):
        self.root = Path(root)
        self.home = self.root / "home"
        self.wisp_home = self.root / "wisp-home"
        self.runtime = self.root / "run"
        self.tmp = self.root / "tmp"
        self.project = self.root / "project"
        self.shims = self.root / "shims"
        self.wrap = self.root / "wrap"
        self.log = self.root / "spawns.jsonl"
        for d in (self.home, self.wisp_home, self.runtime, self.tmp, self.wrap):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
        if rc is not None:
            (self.home / ".bashrc").write_text(rc)
        base = self._base_env()
        subprocess.run([WISP, "shims", "install", str(self.shims)], env=base, check=True, capture_output=True)
        target = "/bin" if passthrough else str(self.shims)
        for name in ("bash", "sh", "zsh"):
            path = self.wrap / name
            path.write_text(WRAPPER.format(python=sys.executable, log=str(self.log), target=target))
            path.chmod(0o755)
        # the logging wrappers stand where a real shell would (Codex execs its login shell by path inside its
        # wrapper): listed in config as known shells, never as the real shell wispsh runs
        shells = {"bash": "/bin/bash", "sh": "/bin/sh", "known": [str(self.wrap / "bash"), str(self.wrap / "sh")]}
        if os.path.exists("/bin/zsh"):
            shells["zsh"] = "/bin/zsh"
        self.write_config({"shell": shells, "approval": {"waitSeconds": wait_seconds}})
        git = dict(base, GIT_CONFIG_GLOBAL=str(self.home / ".gitconfig"))
        (self.home / ".gitconfig").write_text("[user]\n\tname = A\n\temail = a@example.com\n[init]\n\tdefaultBranch = main\n")
        subprocess.run(["git", "init", "-q", str(self.project)], env=git, check=True)
        (self.project / "README.md").write_text("# demo\nTODO: write it\n")

    def write_config(self, data: dict) -> None:
        path = self.wisp_home / "config.json"
        path.write_text(json.dumps(data))
        path.chmod(0o600)

    def _base_env(self) -> dict:
        # PWD and OLDPWD say where pytest runs: a client that trusts PWD (opencode) would work there
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(DROPPED_PREFIXES) and k not in ("PWD", "OLDPWD")}
        env.update(HOME=str(self.home), WISP_HOME=str(self.wisp_home), XDG_RUNTIME_DIR=str(self.runtime),
                   TMPDIR=str(self.tmp), TERM="xterm-256color", SHELL="/bin/bash", LANG="C.UTF-8",
                   PATH=f"{VENV}:{os.environ.get('PATH', '/usr/bin:/bin')}")
        return env

    def env(self, **extra) -> dict:
        env = self._base_env()
        env.update(CLIENT_QUIET)
        env.update(extra)
        return {k: v for k, v in env.items() if v is not None}

    # ------------------------------------------------------------ what happened

    def spawns(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def audit(self) -> list[dict]:
        path = self.wisp_home / "audit.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def explain(self, argv: list[str], env: dict | None = None) -> dict:
        """wispsh --explain --json on a spawn's argv (the line and the operands after it)."""
        at = max((i for i, a in enumerate(argv) if a.startswith("-") and "c" in a and not a.startswith("--")),
                 default=None)
        if at is None:
            return {}
        line, rest = argv[at + 1], argv[at + 2:]
        out = subprocess.run([WISPSH, "--explain", "--json", "-c", line, *rest], env=env or self.env(),
                             capture_output=True, text=True, cwd=self.project)
        return json.loads(out.stdout) if out.stdout.strip() else {"error": out.stderr}
