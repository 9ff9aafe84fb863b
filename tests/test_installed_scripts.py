"""Installed tools keep working under the shims (issue 15): with the shims first on PATH, a `#!/usr/bin/env
bash` program becomes `bash SCRIPT ARGS` for wispsh. One that is plainly not the agent's (outside the project,
older than the agent's session, only the user can change it) is judged as it was started, not read line by
line; a git hook passes as git's own step; beneath an allowed line everything passes on the nested token.
A script the agent could have written (in the project, new in this session, in a place others may write)
is still read line by line.

Real processes throughout: the real bash/sh/git/npm, a pyenv-like tool laid out as pyenv lays its shims, no
`wisp watch` and no terminal, so any question at all is a refusal (exit 126): "no question" is exit 0.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

VENV = Path(sys.executable).parent
WISPSH, WISP = str(VENV / "wispsh"), str(VENV / "wisp")
HANG = 90
# the agent: a process of its own, started after the tools were installed, running a plain shell line
AGENT = ("import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, "
         "start_new_session=True).returncode)")

PYENV_SHIM = '''#!/usr/bin/env bash
set -e
[ -n "$PYENV_DEBUG" ] && set -x

program="${{0##*/}}"

export PYENV_ROOT="{root}"
exec "{root}/libexec/pyenv" exec "$program" "$@"
'''
PYENV = '''#!/usr/bin/env bash
set -e
[ "$1" = exec ] || { echo "pyenv: no such command $1" >&2; exit 1; }
shift
program="$1"; shift
for dir in "$PYENV_ROOT"/versions/*/bin; do
  if [ -x "$dir/$program" ]; then exec "$dir/$program" "$@"; fi
done
echo "pyenv: $program: command not found" >&2
exit 127
'''


@pytest.fixture
def box(tmp_path):
    home, wisp, run, project, tools = (tmp_path / n for n in ("home", "wisp", "run", "project", "tools"))
    for d in (home, wisp, run, project, tools):
        d.mkdir(mode=0o700 if d == wisp else 0o755)
    shims = tmp_path / "shims"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "WISP_HOME": str(wisp),
           "XDG_RUNTIME_DIR": str(run), "LC_ALL": "C.UTF-8", "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
           "GIT_CONFIG_NOSYSTEM": "1", "npm_config_update_notifier": "false", "NO_COLOR": "1"}
    subprocess.run([WISP, "shims", "install", str(shims)], env=env, check=True, capture_output=True)
    (home / ".gitconfig").write_text("[user]\n\tname = A\n\temail = a@example.com\n[init]\n\tdefaultBranch = main\n")
    subprocess.run(["git", "init", "-q", str(project)], env=env, check=True)
    return {"home": home, "wisp": wisp, "project": project, "tools": tools, "shims": shims, "env": env}


def pyenv_like(root: Path) -> Path:
    """pyenv's layout: shims/python3 -> libexec/pyenv exec python3 -> versions/*/bin/python3."""
    (root / "shims").mkdir(parents=True)
    (root / "libexec").mkdir()
    (root / "versions" / "3" / "bin").mkdir(parents=True)
    (root / "versions" / "3" / "bin" / "python3").symlink_to(shutil.which("python3"))
    for path, text in ((root / "shims" / "python3", PYENV_SHIM.format(root=root)),
                       (root / "libexec" / "pyenv", PYENV)):
        path.write_text(text)
        path.chmod(0o755)
    return root / "shims"


def agent(box, line: str, *, path_front=(), shell="/bin/bash", cwd=None):
    """`shell -c line` started by a fresh agent process, shims first on PATH (the README's PATH recipe)."""
    time.sleep(0.1)     # the tools above are older than this agent (decide/session.py CLOCK_SLACK)
    env = dict(box["env"], PATH=os.pathsep.join([str(box["shims"]), *map(str, path_front), box["env"]["PATH"]]))
    return subprocess.run([sys.executable, "-c", AGENT, shell, "-c", line], env=env, cwd=cwd or box["project"],
                          capture_output=True, text=True, timeout=HANG)


def audit(box) -> list[dict]:
    path = box["wisp"] / "audit.jsonl"
    return [json.loads(l) for l in path.read_text().splitlines()] if path.exists() else []


def asked_or_refused(box) -> list[dict]:
    return [e for e in audit(box) if e.get("event") == "approval.decided"
            and not str(e.get("decision")).startswith(("below", "cached", "covered"))]


# ---------------------------------------------------------------- pyenv-style shims


def test_a_pyenv_style_shim_runs_from_a_plain_shell_with_no_question(box):
    shims = pyenv_like(box["tools"] / "pyenv")
    done = agent(box, "python3 --version", path_front=[shims])
    assert done.returncode == 0 and done.stdout.startswith("Python 3"), done.stderr
    assert asked_or_refused(box) == []
    events = audit(box)
    judged = [e["line"] for e in events if e.get("event") == "classification"]
    assert judged == ["python3 --version"], judged          # the shim as started, not its lines
    assert any(e.get("event") == "nested" for e in events)  # libexec/pyenv ran beneath the allowed shim


def test_a_pyenv_shim_is_judged_as_started_so_inline_code_is_still_asked(box):
    shims = pyenv_like(box["tools"] / "pyenv")
    done = agent(box, "python3 -c 'print(12345)'", path_front=[shims])
    assert done.returncode == 126 and "12345" not in done.stdout
    assert "python3 -c 'print(12345)'" in done.stderr and "inline code" in done.stderr, done.stderr


def test_explain_says_an_installed_script_is_judged_as_started(box):
    shims = pyenv_like(box["tools"] / "pyenv")
    explainer = box["tools"] / "wispsh-explain"      # a process named wispsh is not taken for the agent
    explainer.symlink_to(WISPSH)
    time.sleep(0.1)
    done = subprocess.run([sys.executable, "-c", AGENT, str(explainer), "--explain", "--json", str(shims / "python3"),
                           "--version"], env=dict(box["env"], PATH=f"{shims}:{box['env']['PATH']}"),
                          cwd=box["project"], capture_output=True, text=True, timeout=HANG)
    plan = json.loads(done.stdout)
    assert plan["line"] == "python3 --version" and plan["verdict"] == "run", plan
    assert any("installed script" in n and "not read line by line" in n for n in plan["notes"]), plan["notes"]


@pytest.mark.parametrize("where", ["in the project", "written in this session", "writable by others",
                                   "in a directory others may write", "without #!"])
def test_a_script_the_agent_could_have_written_is_still_read_line_by_line(box, where):
    """The same shim, anywhere the agent could have put it, is judged line by line: its `exec
    <root>/libexec/pyenv …` is a program the gate does not know, so without a watcher it is refused."""
    root = box["project"] / "pyenv" if where == "in the project" else box["tools"] / "pyenv"
    shims = pyenv_like(root)
    shim = shims / "python3"
    if where == "writable by others":
        shim.chmod(0o777)
    elif where == "in a directory others may write":
        shims.chmod(0o1777)                                   # sticky like /tmp: still a place others write
    elif where == "without #!":
        shim.write_text(shim.read_text().split("\n", 1)[1])
    if where == "written in this session":
        script = (f"import os, subprocess, sys, time\n"
                  f"time.sleep(0.1); os.utime({str(shim)!r}); os.chmod({str(shim)!r}, 0o755)\n"
                  f"sys.exit(subprocess.run(['/bin/bash', '-c', 'python3 --version'], stdin=subprocess.DEVNULL,"
                  f" start_new_session=True).returncode)\n")
        env = dict(box["env"], PATH=f"{box['shims']}:{shims}:{box['env']['PATH']}")
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=box["project"], capture_output=True,
                              text=True, timeout=HANG)
    else:
        done = agent(box, "python3 --version", path_front=[shims])
    assert done.returncode == 126 and "Python" not in done.stdout, (done.stdout, done.stderr)
    refused = [e["command"] for e in asked_or_refused(box)]
    assert any("libexec/pyenv" in c for c in refused), refused


# ---------------------------------------------------------------- git hooks

HOOK = '''#!/usr/bin/env sh
# what a hook does: look at the commit, clean up after itself, leave a trace
git diff --cached --name-only >/dev/null
mkdir -p .git/hook-tmp && rm -rf .git/hook-tmp
echo "pre-commit ran" >> "$HOME/hook.log"
'''


def _hooked_project(box) -> Path:
    hook = box["project"] / ".git" / "hooks" / "pre-commit"
    hook.write_text(HOOK)
    hook.chmod(0o755)
    (box["project"] / "a.txt").write_text("a\n")
    subprocess.run(["git", "add", "a.txt"], cwd=box["project"], env=box["env"], check=True)
    return hook


def test_git_commit_with_a_hook_from_a_plain_shell_asks_nothing(box):
    _hooked_project(box)
    done = agent(box, "git commit -q -m first")
    assert done.returncode == 0, done.stderr
    assert (box["home"] / "hook.log").read_text() == "pre-commit ran\n"
    assert asked_or_refused(box) == []
    assert any(e.get("decision") == "git-hook" for e in audit(box))


def test_git_commit_through_wispsh_with_a_hook_asks_only_about_the_commit(box):
    """The agent's line `git commit` is the person's to approve (here a standing project approval); the hook
    git runs beneath it asks nothing."""
    _hooked_project(box)
    subprocess.run([WISP, "approvals", "add", "git commit *", "--scope", "project"], cwd=box["project"],
                   env=box["env"], check=True, capture_output=True)
    done = agent(box, "git commit -q -m first", shell=str(box["shims"] / "bash"))
    assert done.returncode == 0, done.stderr
    assert (box["home"] / "hook.log").read_text() == "pre-commit ran\n"
    assert asked_or_refused(box) == []


def test_a_hook_written_in_this_session_is_read_line_by_line(box):
    hook = _hooked_project(box)
    script = (f"import os, subprocess, sys, time\ntime.sleep(0.1); os.chmod({str(hook)!r}, 0o755)\n"
              f"sys.exit(subprocess.run(['git', 'commit', '-q', '-m', 'x'], stdin=subprocess.DEVNULL).returncode)\n")
    env = dict(box["env"], PATH=f"{box['shims']}:{box['env']['PATH']}")
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=box["project"], capture_output=True,
                          text=True, timeout=HANG)
    assert done.returncode != 0 and not (box["home"] / "hook.log").exists(), (done.stdout, done.stderr)
    assert "wispsh: not run" in done.stderr


# ---------------------------------------------------------------- npm scripts


def test_npm_run_scripts_run_beneath_the_allowed_line_with_no_question(box):
    if not shutil.which("npm"):
        pytest.skip("machine lacks npm")
    project = box["project"]
    (project / "scripts").mkdir()
    (project / "scripts" / "post.sh").write_text("#!/usr/bin/env bash\nset -e\nmkdir -p dist/tmp\nrm -rf dist/tmp\n"
                                                 "echo post >> dist/log\n")
    (project / "scripts" / "post.sh").chmod(0o755)
    (project / "package.json").write_text(json.dumps({
        "name": "demo", "version": "1.0.0", "private": True,
        "scripts": {"prebuild": "mkdir -p dist && rm -rf dist/old",
                    "build": "node -e \"require('fs').writeFileSync('dist/out.js', '1')\" && ./scripts/post.sh"}}))
    subprocess.run([WISP, "approvals", "add", "npm run *", "--scope", "project"], cwd=project, env=box["env"],
                   check=True, capture_output=True)
    done = agent(box, "npm run build --silent", shell=str(box["shims"] / "bash"))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert (project / "dist" / "out.js").read_text() == "1" and (project / "dist" / "log").read_text() == "post\n"
    assert asked_or_refused(box) == []
    nested = [e for e in audit(box) if e.get("event") == "nested"]
    assert len(nested) >= 3, nested        # prebuild, build, post.sh: each a shell beneath the allowed line


def test_an_agent_started_in_the_home_still_finds_tools_under_its_dot_directories_outside_the_project(box):
    """cwd = HOME (no git work tree): the home is the project, but ~/.pyenv is the user's config, not project
    files; ~/tools (no dot) is the project's and is read line by line."""
    home = box["home"]
    shims = pyenv_like(home / ".pyenv")
    done = agent(box, "python3 --version", path_front=[shims], cwd=home)
    assert done.returncode == 0 and done.stdout.startswith("Python 3"), done.stderr
    other = pyenv_like(home / "tools" / "pyenv")
    done = agent(box, "python3 --version", path_front=[other], cwd=home)
    assert done.returncode == 126, (done.stdout, done.stderr)
