"""The real clients' own start-up probes, as recorded from them (design/agents-observed/, recorded-spawns.json, and
the texts of the pinned versions' code), through the real gate in both modes: with the shims (`wispsh` run the
way the client spawns its shell) and under `wisp run` (the client's runtime starting /bin/sh, bash, or the
probe program itself). Each is plumbing: it runs, with nothing from the gate in its output and nothing asked.

Was: Codex's `/usr/bin/lsb_release -a` (a `#!/bin/sh` script, judged as started: `lsb_release -a`), Gemini CLI's
`clinfo --raw`, `xdpyinfo … | grep …`, `xrandr --verbose`, Copilot CLI's login-environment snapshot (`compgen
-e`) were "not a program the gate knows": refused with nobody to ask, asked with a watcher, at every start.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from run_support import PY, audit, needs_bwrap, needs_userns, person, wisp_run

REPO = Path(__file__).resolve().parent.parent
WISPSH = str(REPO / ".venv" / "bin" / "wispsh")
RECORDED = json.loads((REPO / "tests" / "agents" / "recorded-spawns.json").read_text())

# (client and version, how its runtime runs it, what it runs): `sh -c` is node's child_process.exec (/bin/sh
# -c LINE), `bash -c` a bash by absolute path, `exec` the program itself (the kernel reads its #! line)
PROBES = [
    ("codex 0.171.0", "exec", ["/usr/bin/lsb_release", "-a"]),
    ("claude-code 2.1.197", "bash -c", RECORDED["claude-code"]["env probe"][1]),
    # Gemini CLI 0.61.0 bundles systeminformation; graphics() on Linux runs these at start-up (bundle
    # chunk-5FZXKDXH.js: the first three were seen refused under `wisp run`, the others run there too)
    ("gemini-cli 0.61.0", "sh -c", "clinfo --raw"),
    ("gemini-cli 0.61.0", "sh -c", "xdpyinfo 2>/dev/null | grep 'depth of root window' | awk '{ print $5 }'"),
    ("gemini-cli 0.61.0", "sh -c", "xrandr --verbose 2>/dev/null"),
    ("gemini-cli 0.61.0", "sh -c", "lspci -vvv  2>/dev/null"),
    ("gemini-cli 0.61.0", "sh -c", 'export LC_ALL=C; dmidecode -t 9 2>/dev/null; unset LC_ALL | grep "Bus Address: "'),
    ("gemini-cli 0.61.0", "sh -c", "nvidia-smi --query-gpu=driver_version,pci.sub_device_id,name,pci.bus_id,"
                                   "fan.speed,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,"
                                   "temperature.gpu,temperature.memory,power.draw,power.limit,clocks.gr,clocks.mem "
                                   "--format=csv,noheader,nounits  2>/dev/null"),
    ("gemini-cli 0.61.0", "sh -c", "fbset -s 2> /dev/null | grep 'mode \"' ; vcgencmd get_mem gpu 2> /dev/null; "
                                   "tvservice -s 2> /dev/null; tvservice -n 2> /dev/null;"),
    # Copilot CLI 1.0.102, once a session before its first command (recorded under `wisp run`, this round)
    ("copilot 1.0.102", "bash -c", "printf %s '__copilot_login_env_snapshot_d_18ed44787572b22c__'; if ! command env "
                                   "-0 2>/dev/null; then for __copilot_k in $(compgen -e); do printf '%s=%s\\0' "
                                   "\"$__copilot_k\" \"${!__copilot_k}\"; done; fi"),
]
IDS = [f"{client}: {what if isinstance(what, str) else ' '.join(what)}"[:70] for client, _, what in PROBES]


def gate_said(stderr: str) -> bool:
    """A line of the gate's own (a program the machine lacks is the shell's "…: clinfo: not found")."""
    return any(row.startswith("wispsh: ") for row in stderr.splitlines())


def shell_argv(how: str, what) -> list[str]:
    if how == "exec":
        return list(what)
    return [{"sh -c": "/bin/sh", "bash -c": "/bin/bash"}[how], "-c", what]


@pytest.mark.parametrize("client, how, what", PROBES, ids=IDS)
def test_a_probe_through_the_shims_runs_unasked_and_says_nothing(tmp_path, client, how, what):
    env = person(tmp_path)
    if how == "exec":      # with the shims first on PATH: the kernel runs `sh SCRIPT ARGS` through wispsh
        argv = [WISPSH, what[0], *what[1:]]
    else:
        argv = [WISPSH, "-c", what]
    done = subprocess.run(["setsid", "-w", *argv], env=env, cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert not gate_said(done.stderr), done.stderr                # nothing from the gate, nothing refused
    decided = [e for e in audit(env) if e["event"] == "approval.decided"]
    assert decided and {e["decision"] for e in decided} == {"below-threshold"}, [
        (e["command"], e["level"], e["reasons"]) for e in decided]


PROBE_ALL = """
import json, subprocess, sys
out = []
for argv in json.loads(sys.argv[1]):
    done = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    out.append({"argv": argv, "rc": done.returncode, "stderr": done.stderr})
print(json.dumps(out))
"""


@needs_bwrap
@needs_userns
def test_every_probe_under_wisp_run_runs_unasked_and_says_nothing(tmp_path):
    env = person(tmp_path)
    runs = [shell_argv(how, what) for _, how, what in PROBES]
    done = wisp_run(env, PROBE_ALL, tmp_path, json.dumps(runs), timeout=180)
    assert done.returncode == 0, done.stderr
    for got in json.loads(done.stdout.splitlines()[-1]):
        assert not gate_said(got["stderr"]), got
    decided = [e for e in audit(env) if e["event"] == "approval.decided"]
    assert decided and {e["decision"] for e in decided} == {"below-threshold"}, [
        (e["command"], e["level"], e["reasons"]) for e in decided if e["decision"] != "below-threshold"]
    judged = {e["line"] for e in decided}
    assert "lsb_release -a" in judged            # the #!/bin/sh script was judged as it was started


INSTALLED = """
import subprocess, sys
done = subprocess.run([sys.argv[1], "--version"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
print(done.returncode, done.stdout.strip(), done.stderr.strip())
"""


@needs_bwrap
@needs_userns
def test_under_wisp_run_a_tool_installed_before_the_agent_started_is_judged_as_started(tmp_path):
    """The session a script is measured against is the agent's inside (the supervisor judges for it), not the
    supervisor's own ancestry: a tool installed in this terminal before `wisp run` is not the agent's."""
    tools, project = tmp_path / "tools", tmp_path / "project"     # outside the project the agent works in
    tools.mkdir(mode=0o755)
    project.mkdir()
    tool = tools / "uname"            # a #!/bin/sh tool the rules know by name, run directly by the agent
    tool.write_text("#!/bin/sh\n# an installed tool's own plumbing, read line by line it would be refused\n"
                    "rm -rf \"$HOME/never\"\nexec /bin/uname \"$@\"\n")
    tool.chmod(0o755)
    env = person(tmp_path, PATH=f"{tools}:{person(tmp_path)['PATH']}")
    done = wisp_run(env, INSTALLED, project, str(tool))
    assert done.stdout.split()[0] == "0", (done.stdout, done.stderr)
    decided = [e for e in audit(env) if e["event"] == "approval.decided"]
    assert [(e["line"], e["decision"]) for e in decided] == [("uname --version", "below-threshold")], decided


@needs_bwrap
@needs_userns
def test_wisp_run_starts_when_xdg_config_home_is_the_default_config_dir(tmp_path):
    """opencode's setup (XDG_CONFIG_HOME=~/.config): `wisp run` failed to start ("~/.config/git: File exists"),
    making one placeholder twice."""
    env = person(tmp_path)
    (Path(env["HOME"]) / ".config" / "opencode").mkdir(parents=True)
    env["XDG_CONFIG_HOME"] = str(Path(env["HOME"]) / ".config")
    done = wisp_run(env, "print('started')", tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "started", done.stderr


@pytest.mark.parametrize("line, level", [
    # a loop over compgen's variable names reads each by name: names hold no subscript, nothing runs
    ('for k in $(compgen -e); do printf "%s=%s" "$k" "${!k}"; done', "safe"),
    ('for k in `compgen -A export`; do echo "${!k}"; done', "safe"),
    # anything else that makes the words can make `a[$(…)]`: bash would run it through ${!k}
    ('for k in $(compgen -W "a[\\$(rm x)]" x); do echo "${!k}"; done', "high"),
    ('for k in $(compgen -P "a[" -e); do echo "${!k}"; done', "high"),
    ('for k in $(compgen -e | sed s/x/y/); do echo "${!k}"; done', "high"),
    ('for k in $(cat names); do echo "${!k}"; done', "high"),
    ('for k in $(echo "a[\\$(rm x)]"; compgen -e); do echo "${!k}"; done', "high"),
    ("for k in $(compgen -e) 'a[$(rm x)]'; do echo \"${!k}\"; done", "high"),
    ('for k in "$(compgen -e)"; do echo "${!k}"; done', "high"),
])
def test_a_loop_over_compgens_variable_names_is_a_read(tmp_path, line, level):
    env = person(tmp_path)
    done = subprocess.run([WISPSH, "--explain", "--json", "-c", line], env=env, cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert json.loads(done.stdout)["level"] == level, done.stdout
