"""`wisp doctor`: each check ok / warn / fail, with what to do. Reads only; changes nothing.

Checks: the wisp home and config (the same code the gate reads them with: a state the gate refuses on is a
FAIL here), the deny patterns, the real shells, Resources, the gate's own files and their modes, whether the
audit can be written, the runtime dir, the shims and PATH order, the agents it can see (installed on PATH, in
the environment, their config files) and which way each is gated, and whether `wisp watch` is needed (an
agent that detaches its commands from any terminal). A check that cannot be made is a FAIL saying why,
never a traceback.

Exit status (EXIT): 0 nothing to do; 1 a check FAILs (the gate refuses lines, or cannot work); 3 a check
warns: the gate works, and something needs your action (each warning names it). Where `wisp run` works, what
only the per-agent shim recipes need (shims laid, PATH order, an agent's shell setting) is reported, not
warned about: `wisp run` gates every agent without them.
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from wispsh.vocab.shells import CODEX_NAMES, STANDS_IN_FOR

OK, WARN, FAIL = "ok", "warn", "fail"
EXIT = {OK: 0, FAIL: 1, WARN: 3}            # wisp doctor's exit status: the worst check decides

# The agent clients doctor looks for on PATH (their executables), how each starts its shell, and whether the
# shim recipes can gate it at all (design/agents.md, agents-observed/). Under `wisp run` every one is gated.
CLIENTS = (
    ("Claude Code", ("claude",), "runs CLAUDE_CODE_SHELL, else $SHELL (a path holding bash or zsh)", True),
    ("Codex", ("codex",), "runs your login shell by absolute path when it is named bash, zsh or sh", True),
    ("Gemini CLI", ("gemini",), "looks bash up on PATH", True),
    ("qwen-code", ("qwen",), "looks bash up on PATH", True),
    ("opencode", ("opencode",), "runs its `shell` setting, else $SHELL", True),
    ("Aider", ("aider",), "runs $SHELL in a terminal; /bin/sh by absolute path without one", True),
    ("mini-swe-agent", ("mini", "mini-swe-agent"), "runs /bin/sh by absolute path: the shims never reach it",
     False),
    ("Copilot CLI", ("copilot",), "keeps a bash of its own, started by absolute path: the shims never reach it",
     False),
    ("Goose", ("goose",), "runs /bin/bash by absolute path where it exists", False),
    ("Continue", ("cn",), "runs $SHELL -l -c", True),
    ("Amazon Q", ("q",), "runs $AMAZON_Q_CHAT_SHELL, else bash from PATH", True),
)

# How each agent finds its shell (design/agents.md), as doctor reports it.
DETACHING_AGENTS = ("Claude Code", "Codex", "opencode", "Goose")   # no terminal: questions go to wisp watch
PRIVATE_FILES = ("config.json", "approvals.json", "audit.jsonl")   # 0600: approvals and commands are private


@dataclass(frozen=True)
class Check:
    status: str          # ok | warn | fail
    what: str
    detail: str
    fix: str = ""

    def to_json(self) -> dict:
        return {"status": self.status, "what": self.what, "detail": self.detail, "fix": self.fix or None}


def _problem(status: str, what: str, text: str) -> Check:
    """A Check from a problem worded as config.FIX joins them: "what is wrong; fix: what to do"."""
    from wispsh.config import FIX

    detail, _, fix = text.partition(FIX)
    return Check(status, what, detail, fix)


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
    from wispsh.config import ConfigError, load_config, wisp_home

    config = None
    try:
        config = load_config(wisp_home(env))
        yield Check(OK, "config", f"{config.path} " + ("readable and trusted" if os.path.exists(config.path)
                                                       else "(none: defaults)"))
    except ConfigError as exc:
        check = _problem(FAIL, "config", str(exc))
        yield Check(FAIL, "config", f"{check.detail}: wispsh refuses every line until then",
                    check.fix or "correct that key or value in the file named (`wisp doctor` checks again)")
    if config is not None:
        yield deny_check(config)
        yield rule_tables_check(config, env)
        from wispsh.sandbox.client import inside_run

        if inside_run() is not None:     # the real shells have no path here: the supervisor outside runs them
            yield Check(OK, "real shells", "inside wisp run every shell is the gate; the supervisor outside runs "
                                           "the real ones")
            names = ()
        else:
            names = (realshell.DEFAULT_KEY, *STANDS_IN_FOR)
        for name in names:
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
        files = sorted(n for n in os.listdir(where) if os.path.isfile(os.path.join(where, n)))
        yield Check(OK if files else FAIL, "Resources", f"{where}: {', '.join(files) or 'empty'}",
                    "" if files else "reinstall wispsh")
    except FileNotFoundError as exc:
        yield Check(FAIL, "Resources", str(exc), "reinstall wispsh")


def deny_check(config) -> Check:
    """The deny patterns compiled as the gate compiles them: one that does not refuses every line."""
    from wispsh.config import ConfigError
    from wispsh.policy import deny

    try:
        deny.compile_patterns(config)
    except ConfigError as exc:
        return Check(FAIL, "deny patterns", f"{config.path}: {exc}; wispsh refuses every line until then",
                     "fix or remove that pattern (RE2 syntax: no lookarounds or backreferences)")
    return Check(OK, "deny patterns", f"{len(config.deny)} from config (linear-time RE2) and "
                                      f"{len(deny.DEFAULT_PATTERNS)} built in")


def rule_tables_check(config, env) -> Check:
    """The user's rule tables loaded and their examples checked as the gate does before judging a line (a
    table that fails refuses every line). The only write: the gate's own marker of tables that passed."""
    from wispsh import pipeline
    from wispsh.config import ConfigError
    from wispsh.policy import user

    try:
        pipeline.rules_context(os.getcwd(), env, config)
        rules = user.load(config)
    except ConfigError as exc:
        return Check(FAIL, "rule tables", f"{exc}; wispsh refuses every line until then",
                     "correct the table named (wisp rules check FILE says what is wrong)")
    where = user.rules_dir(config)
    return Check(OK, "rule tables", f"{len(rules.files)} in {where}" if rules.files else f"none in {where}")


def file_checks(env):
    """The gate's own files: trusted and readable (store.trust_problems, the gate's own checks), private
    (modes), the audit writable, the runtime dir private."""
    from wispsh.config import ConfigError, load_config, wisp_home
    from wispsh.decide import audit, store

    try:
        home = wisp_home(env)
    except ConfigError as exc:
        yield _problem(FAIL, "wisp home", str(exc))
        return
    from wispsh.sandbox.client import inside_run

    if inside_run() is not None:        # read-only here by design, the key hidden: not for anyone to fix
        yield Check(OK, "wisp home", f"{home}: read-only inside wisp run, its signing key hidden; the "
                                     "supervisor outside reads it, writes the audit and keeps the grants")
        return
    problems = store.trust_problems(home, env)
    for problem in problems:
        kind = ("runtime dir" if problem.startswith("runtime dir") else
                "not trusted" if "trusted" in problem or "owned by" in problem or "writable by group" in problem
                else "unusable file")
        yield _problem(FAIL, kind, problem)
    try:
        st = os.stat(home)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        yield Check(FAIL, "wisp home", f"{home}: {exc.strerror}", "set WISP_HOME to a directory of yours")
        return
    link = f" (a link to {os.path.realpath(home)})" if os.path.islink(home) else ""
    if st is None:
        yield Check(OK, "wisp home", f"{home} (not made yet; made 0700 on the first approval)")
    elif not stat.S_ISDIR(st.st_mode):
        return                          # said above (config and trust): nothing below can be read
    elif stat.S_IMODE(st.st_mode) & 0o077:
        real = os.path.realpath(home)
        yield Check(WARN, "wisp home", f"{home}{link} is mode {stat.S_IMODE(st.st_mode):o}, not 700",
                    f"chmod 700 {real}")
    else:
        yield Check(OK, "wisp home", f"{home}{link} (700)")
    for name in PRIVATE_FILES:
        mode = _mode(home / name)
        if mode is not None and mode & 0o077 and os.path.isfile(home / name) and not os.path.islink(home / name):
            yield Check(WARN, f"mode of {name}", f"{home / name} is {mode:o}, readable by others",
                        f"chmod 600 {home / name}")
    yield audit_check(home, env)
    rdir = store.runtime_dir(env)
    mode = _mode(rdir)
    if not any(p.startswith("runtime dir") for p in problems):
        yield Check(OK, "runtime dir", f"{rdir} " + (f"({mode:o})" if mode is not None else "(not made yet)"))


def audit_check(home, env) -> Check:
    from wispsh.config import ConfigError, load_config
    from wispsh.decide import audit

    problem = audit.writable_problem(home)
    if problem is None:
        return Check(OK, "audit", f"{home / audit.AUDIT_NAME} can be written")
    try:
        required = load_config(home).audit_required
    except ConfigError:
        required = False
    check = _problem(FAIL, "audit", problem)
    effect = ("lines at or above the threshold are refused (audit.required)" if required else
              "lines run unaudited, with a warning on stderr")
    return Check(FAIL, "audit", f"{check.detail}: {effect}", check.fix)


# ---------------------------------------------------------------- shims and PATH


def client_check(env) -> Check:
    """Which client is in front of the hot path: the compiled one (native/), or the Python launcher."""
    from wispsh.native import build

    client = build.current()
    run = build.current_run()
    if client is not None and run is None:
        return Check(WARN, "client", f"compiled ({client}) in front of the shims, but wisp run's launchers have the "
                                     "Python client: its build (wisp-run-client) is missing or not current",
                     "run `python -m wispsh.native.build --force`")
    if client is not None:
        linked = ("built without a libc" if build.is_bare(run) else
                  "statically linked" if build.is_static(run) else "dynamically linked")
        return Check(OK, "client", f"compiled ({client}) in front of the shims, and wisp run's ({run}, {linked}) "
                                   "of its launchers laid now; the plain mode asks a warm judge, the Python "
                                   "launcher is its fallback")
    if build.compiler() is None:
        return Check(WARN, "client", "the Python launcher is in front: no C compiler (cc, gcc, clang) to build "
                                     "the compiled client", "install a C compiler, then run install.sh again")
    return Check(WARN, "client", "the Python launcher is in front: the compiled client is not built for this "
                                 "install", "run `python -m wispsh.native.build`, then `wisp shims install` again")


def _recipe(check: Check, run_works: bool) -> Check:
    """A finding that matters only to the per-agent shim recipes: a warning, unless `wisp run` works here
    (it gates every agent without them): then it is reported, as ok."""
    if check.status != WARN or not run_works:
        return check
    return Check(OK, check.what, f"{check.detail} (only the per-agent shim recipes need this; `wisp run` does "
                                 f"not: {check.fix})" if check.fix else check.detail)


def shim_checks(env, run_works: bool = False):
    from wispsh.agents import shims
    from wispsh.support import shimfile
    from wispsh.config import untrusted_reason

    yield client_check(env)
    dirs = shims.dirs_with_shims(env)
    if not dirs:
        if run_works:
            yield Check(OK, "shims", f"none laid (looked in {shims.default_dir(env)} and on PATH): `wisp run` "
                                     "needs none; the per-agent recipes do (wisp shims install)")
        else:
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
            front = " (compiled client in front)" if all(s.compiled for s in laid if s.kind == "shell") \
                and any(s.kind == "shell" for s in laid) else ""
            yield Check(OK, f"shims in {directory}", names + front)
        order = [row for row in shims.path_order(directory, env) if row[0] in shims.SHELL_SHIMS]
        if not order:
            continue
        on_path = os.path.realpath(directory) in {os.path.realpath(d or ".") for d in env.get("PATH", "").split(":")}
        behind = [f"{name} -> {found or 'nothing'}" for name, found, ours in order if not ours]
        if not on_path:
            yield _recipe(Check(WARN, "shims on PATH", f"{directory} is not on PATH: agents that look bash up on "
                                "PATH (Gemini CLI, qwen-code, Codex's fallback) run the real shell",
                                f"put it first: export PATH={directory}:$PATH (or point SHELL at {directory}/bash)"),
                          run_works)
        elif behind:
            yield _recipe(Check(WARN, "shims on PATH",
                                f"{directory} is on PATH after the real shells: {'; '.join(behind)}",
                                f"move it before them: export PATH={directory}:$PATH"), run_works)
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


def agent_checks(env, seen: list[str], run_works: bool = False):
    """One line per agent setting doctor can see, then one per agent installed on PATH that has none;
    appends each agent found to `seen`. Where `wisp run` works, a recipe that does not gate is reported, not
    warned about."""
    for check in _agent_settings(env, seen):
        if check.status == WARN and run_works:
            recipe = f" (for the shim recipe: {check.fix})" if check.fix else ""
            check = Check(OK, check.what, f"{check.detail}; under `wisp run` it is gated all the same{recipe}")
        yield check
    yield from installed_clients(env, seen, run_works)


def installed_clients(env, seen: list[str], run_works: bool):
    """The agent clients installed on PATH (not only those whose config directory exists), each with the way
    it is gated here."""
    import shutil

    for agent, names, how, shims_reach in CLIENTS:
        found = next((where for where in (shutil.which(n, path=env.get("PATH", "")) for n in names) if where), None)
        if found is None or agent in seen:
            continue
        seen.append(agent)
        run = f"`wisp run -- {os.path.basename(found)}` gates it" + ("" if run_works else " (not on this machine)")
        if not shims_reach:
            status = OK if run_works else WARN
            detail = f"installed ({found}); it {how}: only {run}"
            fix = "" if run_works else "use wisp run where it works; see the README's recipe for it"
        else:
            status = OK
            detail = f"installed ({found}); {run}; with the shims it {how} (see the README's recipe)"
            fix = ""
        yield Check(status, agent, detail, fix)


def _agent_settings(env, seen: list[str]):
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
    if os.path.basename(login) in CODEX_NAMES:
        good, where = points_at_wispsh(login, env)
        if good:
            return Check(OK, "Codex", f"runs your login shell {login}: wispsh")
        return Check(WARN, "Codex", f"runs your login shell {login} by absolute path (named "
                     f"{os.path.basename(login)}): PATH shims do not apply, so the shim recipes do not gate it",
                     "see the Codex recipe in the README")
    good, where = points_at_wispsh("bash", env)
    return Check(OK if good else WARN, "Codex", f"login shell {login or '(none)'} is not named bash/zsh/sh: "
                 f"it looks bash up on PATH -> {where}" + (" (wispsh)" if good else ", not wispsh"),
                 "" if good else "put the shims dir first on PATH where you start codex")


def watch_check(env, seen: list[str]) -> Check:
    """Whether the agents seen need `wisp watch` (reported, not warned about: it is run while they work)."""
    detaching = [a for a in seen if a in DETACHING_AGENTS]
    if not detaching:
        return Check(OK, "wisp watch", "no detaching agent seen: questions can go to your terminal")
    running = running_watchers()
    who = ", ".join(detaching)
    if running:
        return Check(OK, "wisp watch", f"needed for {who}; running (pid {', '.join(map(str, running))})")
    return Check(OK, "wisp watch", f"needed for {who} (they detach commands from any terminal); none running now: "
                 "run `wisp watch` in a terminal of yours while they work, or their risky lines are refused")


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


# ---------------------------------------------------------------- the model's second opinion


def classifier_check(env) -> Check:
    """Whether the classifier is configured, and whether its endpoint answers (its model list: no tokens)."""
    from wispsh.config import ConfigError, load_config, wisp_home

    try:
        settings = load_config(wisp_home(env)).classifier
    except ConfigError as exc:
        return Check(WARN, "classifier", f"unknown: the config cannot be read ({exc})", "fix config.json")
    if settings is None:
        return Check(OK, "classifier", "off (no classifier in config.json): the rules alone rate every part")
    from wispsh.classifier import cache, client

    what = f"{settings.provider} model {settings.model} at {settings.url}"
    if settings.api_key_env and not env.get(settings.api_key_env):
        return Check(WARN, "classifier", f"{what}: ${settings.api_key_env} is not set in this environment, so no "
                     "key is sent", f"export {settings.api_key_env}=… where wispsh runs (or drop apiKeyEnv)")
    try:
        status, raw = client.call(settings, None, what="models", environ=env)
    except client.ClientError as exc:
        return Check(WARN, "classifier", f"{what}: not reachable ({exc}); the rules' level stands for every part "
                     "until it answers", "start the server or correct classifier.url")
    if not 200 <= status < 300:
        return Check(WARN, "classifier", f"{what}: its model list answered HTTP {status}",
                     "check classifier.url, classifier.apiKeyEnv and the key")
    listed = settings.model in raw.decode("utf-8", "replace")
    problem = cache.untrusted(str(wisp_home(env)))
    detail = (f"{what}: reachable (HTTP {status}; the model is " + ("listed" if listed else "not in its list")
              + f"), timeout {settings.timeout:g} s")
    if problem:
        return Check(WARN, "classifier", f"{detail}; {problem}", "chmod 700 the cache directory, or remove it")
    return Check(OK, "classifier", detail)


def run_check(env) -> Check:
    """Whether `wisp run` can work on this machine (sandbox/readiness.py tries it), and if not why and the fix."""
    from wispsh.sandbox.client import inside_run

    if inside_run() is not None:
        return Check(OK, "wisp run", "this runs inside a wisp run namespace: every shell here is the gate, and "
                                     "the supervisor outside judges and asks")
    from wispsh.sandbox import readiness

    ready = readiness.check()
    if ready.ok:
        return Check(OK, "wisp run", ready.detail)
    return Check(WARN, "wisp run", f"cannot work here: {ready.detail}", ready.fix)


def walls_checks(env) -> list:
    """Each wall of `wisp run`: on, off (by config run.*), or not possible here and why (sandbox/walls.py)."""
    from wispsh.config import ConfigError, load_config, wisp_home
    from wispsh.sandbox import landlock, readiness
    from wispsh.sandbox import walls as wall
    from wispsh.sandbox.client import inside_run

    if inside_run() is not None:
        return []
    try:
        settings = wall.settings(load_config(wisp_home(env)))
    except ConfigError as exc:
        return [Check(WARN, "wisp run walls", f"unknown: the config cannot be read ({exc})", "fix config.json")]
    ready = readiness.check()
    if not ready.ok:
        return [Check(WARN, "wisp run walls", "not possible here: wisp run cannot start (above)")]

    def wall_check(name: str, on: bool, detail: str, key: str, flag: str) -> Check:
        if on:
            return Check(OK, f"wall: {name}", f"on: {detail}")
        return Check(WARN, f"wall: {name}", f"off (config run.{key} is false)", f"remove run.{key} to turn it on; "
                     f"{flag} turns it off for one run")

    uid = os.getuid()
    home = env.get("HOME") or os.path.expanduser("~")
    found = [wall_check("writes", settings.writes, "only the project, a private /tmp, the tool caches and the agents' "
                        "state are writable; the files that steer tools are read-only",
                        "writes", "--no-write-wall")]
    hidden = wall.secrets([home], settings, "", uid) if settings.secrets else wall.Secrets()
    names = [p.replace(home, "~", 1) for p in hidden.dirs + hidden.files]
    copies = [c[0].replace(home, "~", 1) for c in hidden.copies]
    found.append(wall_check("secrets", settings.secrets, f"{len(names)} secret store(s) here empty inside"
                            + (f" ({', '.join(names[:6])}{', …' if len(names) > 6 else ''})" if names else "")
                            + (f"; {', '.join(copies)} shown without its credential lines" if copies else ""),
                            "secrets", "--no-secret-wall"))
    level = landlock.abi()
    if not settings.sockets:
        found.append(wall_check("sockets", False, "", "sockets", "--no-socket-wall"))
    elif settings.net.mode != "all":
        found.append(Check(OK, "wall: sockets", f"on: no host unix socket inside ({len(wall.host_sockets(uid, home))} "
                           "bound here now); abstract ones are not there (a network namespace of its own)"
                           + (f", and scoped by Landlock (ABI {level})" if level >= landlock.SCOPED_ABI else "")))
    elif level >= landlock.SCOPED_ABI:
        found.append(Check(OK, "wall: sockets", f"on: no host unix socket inside ({len(wall.host_sockets(uid, home))} "
                           f"bound here now), abstract ones scoped by Landlock (ABI {level})"))
    else:
        found.append(Check(WARN, "wall: sockets", "partly: host unix sockets with a path are hidden, but abstract "
                           f"ones (X11's, D-Bus's) stay reachable: this kernel's Landlock ABI is {level or 'off'}, "
                           f"scoping needs {landlock.SCOPED_ABI} (Linux 6.12)",
                           "a newer kernel, or the network wall (run.net.mode ask or off: a network namespace)"))
    possible, why = wall.nesting_possible(uid)
    if not settings.nesting:
        found.append(wall_check("nesting", False, "", "nesting", "--no-nesting"))
    elif possible:
        found.append(Check(OK, "wall: nesting", f"on: {why}"))
    else:
        found.append(Check(WARN, "wall: nesting", f"not possible here: {why}",
                           "an agent's own sandbox (codex sandbox, srt) needs wisp run started as a user"))
    found.append(network_check(settings.net, ready.bwrap))
    return found


def network_check(net, bwrap: str) -> Check:
    """The network wall: which mode, what is allowed, and whether the bridge (the proxy's listener made
    inside the namespace's own network from outside: sandbox/netns.py) works here, by trying it."""
    from wispsh.sandbox import netgrants, netns
    from wispsh.support import netrules
    from wispsh.config import wisp_home

    if net.mode == "all":
        return Check(WARN, "wall: network", "off (run.net.mode is \"all\"): programs inside reach any host "
                     "with the host's network", "remove run.net.mode (the default is ask); --net=all turns it "
                     "off for one run")
    if net.mode == "off":
        return Check(OK, "wall: network", "off mode: no network inside at all (a network namespace with only "
                     "its own loopback; no proxy)")
    works, how = netns.trial(bwrap)
    if not works:
        return Check(WARN, "wall: network", f"ask, but the bridge does not work here: {how}",
                     "wisp run will refuse to start with the wall; --net=all runs with the host's network")
    remembered = netgrants.count(str(wisp_home()))
    return Check(OK, "wall: network", f"ask: a network of its own, the proxy the only way out at "
                 f"127.0.0.1:{netrules.PROXY_PORT} inside ({netrules.describe(net)}; other hosts are asked"
                 + (f"; {remembered} remembered in {netgrants.NAME}" if remembered else "")
                 + f"); the bridge works here ({how})")


def checks(env=None):
    """Every check, in the order printed. A check that fails to run is a FAIL saying so, never a crash."""
    env = dict(os.environ if env is None else env)
    seen: list[str] = []
    try:
        run = run_check(env)                # first: whether the shim recipes' findings need your action
    except Exception as exc:
        run = Check(FAIL, "doctor (wisp run)", f"could not check: {type(exc).__name__}: {exc}",
                    "report this; the other checks still ran")
    works = run.status == OK
    groups = (("install", lambda: install_checks(env)), ("files", lambda: file_checks(env)),
              ("classifier", lambda: [classifier_check(env)]), ("shims", lambda: shim_checks(env, works)),
              ("agents", lambda: agent_checks(env, seen, works)), ("wisp watch", lambda: [watch_check(env, seen)]),
              ("wisp run", lambda: [run, *walls_checks(env)]))
    for name, group in groups:
        try:
            yield from group()
        except Exception as exc:        # doctor must say what it could not check, never crash
            yield Check(FAIL, f"doctor ({name})", f"could not check: {type(exc).__name__}: {exc}",
                        "report this; the other checks still ran")


def exit_status(found) -> int:
    """1 when a check FAILs, else 3 when one warns, else 0 (see EXIT)."""
    statuses = {check.status for check in found}
    return EXIT[FAIL] if FAIL in statuses else EXIT[WARN] if WARN in statuses else EXIT[OK]


def render(found, width: int = 80) -> list[str]:
    """Each check as lines of at most `width` columns: "ok   what: detail", then "fix: ..." indented."""
    import textwrap

    from wispsh.support.text import shown

    out = []
    for check in found:
        head = f"{DOCTOR_MARKS[check.status]} {shown(check.what)}: {shown(check.detail)}"
        out += textwrap.wrap(head, width, subsequent_indent="       ", break_on_hyphens=False,
                             break_long_words=False) or [head]
        if check.fix:
            out += textwrap.wrap(f"fix: {shown(check.fix)}", width, initial_indent="     ",
                                 subsequent_indent="          ", break_on_hyphens=False, break_long_words=False)
    return out


DOCTOR_MARKS = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}
