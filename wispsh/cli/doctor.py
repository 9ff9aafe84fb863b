"""`wisp doctor`: each check one line, ok / warn / fail, with what to do. Reads only; changes nothing.

Checks: config, real shells, Resources, the gate's own files and their modes, the shims and PATH order,
the agents it can see configured (environment and their config files) and whether they reach wispsh,
and whether `wisp watch` is needed (an agent that detaches its commands from any terminal).
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

OK, WARN, FAIL = "ok", "warn", "fail"

# How each agent finds its shell (design/agents.md), as doctor reports it.
DETACHING_AGENTS = ("Claude Code", "Codex", "opencode", "Goose")   # no terminal: questions go to wisp watch
CODEX_SHELL_NAMES = ("bash", "zsh", "sh")   # Codex takes the password-file shell only under these names
PRIVATE_FILES = ("config.json", "approvals.json", "audit.jsonl")   # 0600: approvals and commands are private


@dataclass(frozen=True)
class Check:
    status: str          # ok | warn | fail
    what: str
    detail: str
    fix: str = ""


# ---------------------------------------------------------------- helpers


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return None


def points_at_wispsh(value: str, env) -> tuple[bool, str]:
    """(whether `value`, a shell path or name, runs wispsh; what it resolves to)."""
    from wispsh.realshell import is_wispsh
    from wispsh.agents.shims import first_on_path

    where = value if "/" in value else (first_on_path(value, env) or value)
    if not os.path.isfile(where):
        return False, f"{where} (missing)"
    return is_wispsh(where), where


def _read_json(path: Path) -> tuple[dict | None, str | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return None, f"{path}: cannot read: {exc.strerror}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        import re   # JSONC (opencode.jsonc, comments): take the keys doctor needs by their plain form

        data = {k: v for k, v in re.findall(r'"(shell|SHELL|CLAUDE_CODE_SHELL)"\s*:\s*"([^"]*)"', text)}
        return (data or {}), None
    return (data if isinstance(data, dict) else {}), None


# ---------------------------------------------------------------- install


def install_checks(env):
    from wispsh import realshell
    from wispsh.cli import shell
    from wispsh.config import ConfigError, load_config, wisp_home

    config = None
    try:
        config = load_config(wisp_home(env))
        yield Check(OK, "config", f"{config.path} " + ("readable and trusted" if config.path.exists()
                                                       else "(none: defaults)"))
    except ConfigError as exc:
        yield Check(FAIL, "config", str(exc), "fix the file or its mode (chmod 600, your own); wispsh refuses "
                                              "every line until then")
    if config is not None:
        for name in (realshell.DEFAULT_KEY, *shell.SHELL_NAMES):
            try:
                path = realshell.find_shell(None if name == realshell.DEFAULT_KEY else name, config, dict(env), name)
                label = "wispsh itself (default)" if name == realshell.DEFAULT_KEY else name
                yield Check(OK, f"real shell {label}", path)
            except realshell.ShellNotFound as exc:
                required = name == realshell.DEFAULT_KEY
                yield Check(FAIL if required else WARN, f"real shell {name}", str(exc),
                            "" if required else f"only needed if something runs {name}")
    try:
        from wispsh.support.resources import resources_dir

        where = resources_dir()
        files = sorted(p.name for p in where.iterdir() if p.is_file())
        yield Check(OK if files else FAIL, "Resources", f"{where}: {', '.join(files) or 'empty'}",
                    "" if files else "reinstall wispsh")
    except FileNotFoundError as exc:
        yield Check(FAIL, "Resources", str(exc), "reinstall wispsh")


def file_checks(env):
    """The gate's own files: trusted (store.trust_problems) and private (modes)."""
    from wispsh.decide import store
    from wispsh.config import wisp_home

    home = wisp_home(env)
    problems = store.trust_problems(home, env)
    for problem in problems:
        yield Check(FAIL, "not trusted", problem, "wispsh ignores it (fails closed): chmod go-w, or chown to you")
    mode = _mode(home)
    if mode is None:
        yield Check(OK, "wisp home", f"{home} (not made yet; made 0700 on the first approval)")
    elif mode != 0o700:
        yield Check(WARN, "wisp home", f"{home} is mode {mode:o}, not 700", f"chmod 700 {home}")
    else:
        yield Check(OK, "wisp home", f"{home} (700)")
    for name in PRIVATE_FILES:
        mode = _mode(home / name)
        if mode is not None and mode & 0o077:
            yield Check(WARN, f"mode of {name}", f"{home / name} is {mode:o}, readable by others",
                        f"chmod 600 {home / name}")
    try:
        rdir = store.runtime_dir(env)
    except OSError as exc:
        yield Check(WARN, "runtime dir", f"cannot be found: {exc}", "set XDG_RUNTIME_DIR")
        return
    mode = _mode(rdir)
    if mode is None:
        yield Check(OK, "runtime dir", f"{rdir} (not made yet)")
    elif mode & 0o077:
        yield Check(WARN, "runtime dir", f"{rdir} is mode {mode:o}, not 700", f"chmod 700 {rdir}")
    else:
        yield Check(OK, "runtime dir", f"{rdir} ({mode:o})")


# ---------------------------------------------------------------- shims and PATH


def shim_checks(env):
    from wispsh.agents import shimfile, shims
    from wispsh.config import untrusted_reason

    dirs = shims.dirs_with_shims(env)
    if not dirs:
        yield Check(WARN, "shims", f"none laid (looked in {shims.default_dir(env)} and on PATH)",
                    "run `wisp shims install`")
        return
    for directory in dirs:
        laid = shimfile.shims_in(directory)
        stale = [s.path.name for s in laid if s.stale]
        names = ", ".join(f"{s.path.name}" + ("" if s.kind == "shell" else " (program)") for s in laid)
        reason = untrusted_reason(directory)
        if reason:
            yield Check(FAIL, f"shims in {directory}", reason, f"chmod go-w {directory}")
        elif stale:
            yield Check(FAIL, f"shims in {directory}", f"{', '.join(stale)}: interpreter {laid[0].python} is gone",
                        f"run `wisp shims install {directory}` again")
        else:
            yield Check(OK, f"shims in {directory}", names)
        order = [row for row in shims.path_order(directory, env) if row[0] in shims.SHELL_SHIMS]
        if not order:
            continue
        on_path = os.path.realpath(directory) in {os.path.realpath(d or ".") for d in env.get("PATH", "").split(":")}
        behind = [f"{name} -> {found or 'nothing'}" for name, found, ours in order if not ours]
        if not on_path:
            yield Check(WARN, "shims on PATH", f"{directory} is not on PATH: agents that look bash up on PATH "
                        "(Gemini CLI, Copilot CLI, Codex's fallback) run the real shell",
                        f"put it first: export PATH={directory}:$PATH (or point SHELL at {directory}/bash)")
        elif behind:
            yield Check(WARN, "shims on PATH", f"{directory} is on PATH after the real shells: {'; '.join(behind)}",
                        f"move it before them: export PATH={directory}:$PATH")
        else:
            yield Check(OK, "shims on PATH", f"{directory} comes before the real shells")


# ---------------------------------------------------------------- agents


def _config_home(env) -> Path:
    return Path(env.get("XDG_CONFIG_HOME") or Path(env.get("HOME") or os.path.expanduser("~")) / ".config")


def _user_home(env) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def _shell_setting(label: str, value: str, env, *, needs: tuple[str, ...] = (), used_by: str = ""):
    good, where = points_at_wispsh(value, env)
    base = os.path.basename(value)
    if needs and not any(word in value for word in needs):
        return Check(WARN, label, f"{value}: {used_by} ignores a shell whose path holds neither "
                     f"{' nor '.join(needs)}", "point it at the bash shim: wisp shims list")
    if good:
        return Check(OK, label, f"{value} is wispsh" + (f" ({used_by})" if used_by else ""))
    return Check(WARN, label, f"{value} -> {where}: not wispsh ({used_by or 'what uses it'}: {base} ungated)",
                 "point it at a shim (wisp shims list)")


def agent_checks(env, seen: list[str]):
    """One line per agent setting doctor can see; appends each agent found to `seen`."""
    home = _user_home(env)
    config_home = _config_home(env)

    def saw(agent: str) -> None:
        if agent not in seen:
            seen.append(agent)

    from wispsh.decide.session import agent_from_env

    marker = agent_from_env(env)
    if marker:
        saw({"claude": "Claude Code", "codex": "Codex", "goose": "Goose"}.get(marker, marker))
        yield Check(OK, "running inside", f"{marker} (its marker is set in this environment)")

    if env.get("SHELL"):
        yield _shell_setting("SHELL", env["SHELL"], env, used_by="agents that start $SHELL (Claude Code, "
                             "opencode, Continue, Aider; Goose only without /bin/bash)")
    if env.get("CLAUDE_CODE_SHELL"):
        saw("Claude Code")
        yield _shell_setting("CLAUDE_CODE_SHELL", env["CLAUDE_CODE_SHELL"], env, needs=("bash", "zsh"),
                             used_by="Claude Code")
    if env.get("CLAUDE_CODE_SHELL_PREFIX"):
        saw("Claude Code")
        yield Check(WARN, "CLAUDE_CODE_SHELL_PREFIX", f"{env['CLAUDE_CODE_SHELL_PREFIX']}: gets Claude's whole "
                    "command as one argument; wispsh is not such a prefix program",
                    "unset it and set CLAUDE_CODE_SHELL to the bash shim")
    if env.get("AMAZON_Q_CHAT_SHELL"):
        saw("Amazon Q")
        yield _shell_setting("AMAZON_Q_CHAT_SHELL", env["AMAZON_Q_CHAT_SHELL"], env, used_by="Amazon Q")

    claude = home / ".claude" / "settings.json"
    if claude.exists():
        saw("Claude Code")
        data, problem = _read_json(claude)
        if problem:
            yield Check(WARN, "Claude Code", problem)
        else:
            agent_env = data.get("env") if isinstance(data.get("env"), dict) else {}
            key = next((k for k in ("CLAUDE_CODE_SHELL", "SHELL") if isinstance(agent_env.get(k), str)), None)
            if key:
                yield _shell_setting(f"Claude Code ({claude}: env.{key})", agent_env[key], env,
                                     needs=("bash", "zsh"), used_by="Claude Code")
            else:
                yield Check(WARN if not env.get("CLAUDE_CODE_SHELL") else OK, f"Claude Code ({claude})",
                            "no env.CLAUDE_CODE_SHELL: it uses CLAUDE_CODE_SHELL, then $SHELL",
                            "" if env.get("CLAUDE_CODE_SHELL") else 'add "env": {"CLAUDE_CODE_SHELL": "<shims>/bash"}')

    for name in ("opencode.json", "opencode.jsonc"):
        opencode = config_home / "opencode" / name
        if opencode.exists():
            saw("opencode")
            data, problem = _read_json(opencode)
            if problem:
                yield Check(WARN, "opencode", problem)
            elif isinstance(data.get("shell"), str):
                yield _shell_setting(f"opencode ({opencode}: shell)", data["shell"], env, used_by="opencode")
            else:
                yield Check(WARN, f"opencode ({opencode})", "no `shell`: it uses $SHELL",
                            'add "shell": "<shims>/bash"')
            break

    if (home / ".codex").is_dir():
        saw("Codex")
        yield codex_check(env)
    for agent, places, variable, how in (
        ("Continue", [home / ".continue"], "SHELL", "uses $SHELL"),
        ("Aider", [home / ".aider.conf.yml"], "SHELL", "uses $SHELL"),
        ("Gemini CLI", [home / ".gemini"], None, "looks bash up on PATH"),
        ("Copilot CLI", [home / ".copilot", config_home / "github-copilot"], None, "looks bash up on PATH"),
        ("Amazon Q", [home / ".aws" / "amazonq"], "AMAZON_Q_CHAT_SHELL", "uses $AMAZON_Q_CHAT_SHELL, else bash"),
    ):
        found = next((p for p in places if p.exists()), None)
        if found:
            saw(agent)
            yield _reach_check(agent, found, how, env.get(variable) if variable else None, env)
    goose = config_home / "goose"
    if goose.exists() or marker == "goose":
        saw("Goose")
        if os.path.exists("/bin/bash"):
            good, _ = points_at_wispsh("/bin/bash", env)
            yield Check(OK if good else WARN, f"Goose ({goose})",
                        "runs /bin/bash by absolute path" + (" (wispsh)" if good else
                                                             ": not gated, PATH and SHELL do not change that"),
                        "" if good else "see the Goose recipe in the README")
        else:
            yield _shell_setting(f"Goose ({goose})", env.get("SHELL", "/bin/sh"), env, used_by="Goose")


def _reach_check(agent: str, found: Path, how: str, value: str | None, env) -> Check:
    if value:
        check = _shell_setting(f"{agent} ({found})", value, env, used_by=agent)
        return Check(check.status, check.what, f"{how}: {check.detail}", check.fix)
    from wispsh.agents.shims import first_on_path

    good, where = points_at_wispsh("bash", env)
    if good:
        return Check(OK, f"{agent} ({found})", f"{how}: bash -> {where} is wispsh")
    return Check(WARN, f"{agent} ({found})", f"{how}: bash -> {first_on_path('bash', env) or 'nothing'}, "
                 "not wispsh", "put the shims dir first on PATH where you start it, or set its shell variable")


def codex_check(env) -> Check:
    """Codex: the password-file shell by absolute path when its name is exactly bash/zsh/sh, else PATH."""
    import pwd

    try:
        login = pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        login = ""
    if os.path.basename(login) in CODEX_SHELL_NAMES:
        good, where = points_at_wispsh(login, env)
        if good:
            return Check(OK, "Codex", f"runs your login shell {login}: wispsh")
        return Check(WARN, "Codex", f"runs your login shell {login} by absolute path (named "
                     f"{os.path.basename(login)}): PATH shims do not apply, so Codex is not gated",
                     "see the Codex recipe in the README")
    good, where = points_at_wispsh("bash", env)
    return Check(OK if good else WARN, "Codex", f"login shell {login or '(none)'} is not named bash/zsh/sh: "
                 f"it looks bash up on PATH -> {where}" + (" (wispsh)" if good else ", not wispsh"),
                 "" if good else "put the shims dir first on PATH where you start codex")


def watch_check(env, seen: list[str]) -> Check:
    detaching = [a for a in seen if a in DETACHING_AGENTS]
    if not detaching:
        return Check(OK, "wisp watch", "no detaching agent seen: questions can go to your terminal")
    running = running_watchers()
    who = ", ".join(detaching)
    if running:
        return Check(OK, "wisp watch", f"needed for {who}; running (pid {', '.join(map(str, running))})")
    return Check(WARN, "wisp watch", f"needed for {who} (they detach commands from any terminal); none running: "
                 "their risky lines are refused", "run `wisp watch` in a terminal of yours while they work")


def running_watchers() -> list[int]:
    from wispsh.ask.wire import socket_dir

    where = socket_dir(create=False)
    pids = []
    for name in sorted(os.listdir(where)) if where else []:
        if name.startswith("watch-") and name.endswith(".sock") and name[6:-5].isdigit():
            pid = int(name[6:-5])
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            except PermissionError:
                pass
            pids.append(pid)
    return pids


def checks(env=None):
    """Every check, in the order printed."""
    env = dict(os.environ if env is None else env)
    yield from install_checks(env)
    yield from file_checks(env)
    yield from shim_checks(env)
    seen: list[str] = []
    yield from agent_checks(env, seen)
    yield watch_check(env, seen)
